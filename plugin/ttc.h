/* ttc.h - the TTC layer: messages inside TNS DATA, request/response pairing.
 *
 * Each direction of a conversation carries a stream of TTC messages cut at
 * TNS packet boundaries (mid-message, mid-integer).  ttc_stream.c feeds the
 * DATA payloads of each direction through the message decoders
 * (ttc_calls.c for the client, ttc_replies.c for the server), keeps the one
 * message that spans a packet boundary, and groups packets into requests
 * and responses whose metrics metrics.c turns into fields and tap records.
 *
 * On the first pass every TNS packet records the decoder state at its start
 * (and the bytes of a message that began in earlier packets); a revisit
 * decodes the packet again from that record, so results never depend on the
 * order in which packets are visited.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_H
#define SQLNET_TTC_H

#include <epan/packet.h>
#include "session.h"
#include "ttc_codec.h"
#include "ttc_protocol.h"

/* Kinds of client request. */
typedef enum {
    TTC_REQ_NONE,
    TTC_REQ_PROTOCOL,      /* PRO */
    TTC_REQ_DATA_TYPES,    /* DTY */
    TTC_REQ_FAST_AUTH,
    TTC_REQ_FUNCTION,
    TTC_REQ_ANO,
    TTC_REQ_OTHER
} ttc_req_kind_t;

typedef struct ttc_column {
    guint8  type;         /* Oracle type number */
    guint8  csfrm;
    guint8  bind_flags;   /* binds: oacflg (TTC_BIND_FLAG_ARRAY) */
    guint8  lob_prefetch; /* LOB column as the client defined it: 0 not defined (size and chunk
                           * size assumed, as python-oracledb always asks), 1 size and chunk size,
                           * 2 those and prefetched data (JDBC's LOB prefetch) */
    guint32 buffer_size;
    const char *name;
} ttc_column_t;

/* What a row data message (RXD) carries, and so how its values are laid out
 * (python-oracledb messages/base.pyx _process_row_data / _process_column_data
 * with in_fetch true or false). */
typedef enum {
    TTC_ROWS_COLUMNS = 0,      /* query rows: the describe's columns */
    TTC_ROWS_OUT_BINDS,        /* PL/SQL out binds after an I/O vector: each value then sb4 */
    TTC_ROWS_RETURNING         /* DML RETURNING binds: per bind ub4 rows, then the values */
} ttc_rows_kind_t;

/* Oracle type numbers by name (describe columns, binds). */
extern const value_string ttc_ora_type_vals[];

typedef struct ttc_describe {
    guint32 ncols;
    ttc_column_t *cols;
    guint8  kind;              /* ttc_rows_kind_t */
    gboolean has_lob;          /* a CLOB, BLOB or BFILE column: its rows carry locators */
} ttc_describe_t;

struct ttc_response;

/* Why a round trip's figures are lower bounds (sqlnet.ttc.partial). */
typedef enum {
    TTC_PARTIAL_NONE = 0,
    TTC_PARTIAL_CUT = 1,       /* the capture cut a TNS packet of it short (snaplen) */
    TTC_PARTIAL_UNDECODED = 2  /* a message of it could not be decoded */
} ttc_partial_t;

typedef struct ttc_request {
    ttc_req_kind_t kind;
    guint32 frame;             /* frame of the (last) request packet */
    guint32 first_frame;
    nstime_t time;             /* when the request was complete (last packet) */
    guint8  func;              /* main function code (TTC_REQ_FUNCTION) */
    guint8  seq;
    gboolean has_cursor;
    guint32 cursor;
    gboolean has_fetch_rows;
    guint32 fetch_rows;        /* rows this call asks for now (sqlnet.fetch.rows) */
    guint32 options;
    guint32 exec_count;        /* OALL8 al8i4[1] */
    guint32 prefetch;          /* OALL8 prefetch rows */
    guint32 exec_flags;        /* OALL8 al8i4[9] */
    guint32 fetch_orientation; /* OALL8 al8i4[10], scrollable cursors */
    guint32 fetch_pos;         /* OALL8 al8i4[11]: the row to fetch from */
    gboolean is_query;         /* al8i4[7] or a fetch call */
    const char *sql;           /* SQL text sent with this call */
    const ttc_describe_t *binds;   /* OALL8 bind metadata (python-oracledb _write_column_metadata) */
    const ttc_describe_t *defines; /* OALL8 define metadata (same layout): LOB prefetch per column */
    guint32 returning_binds;   /* DML RETURNING: the last n binds are return binds */
    /* LOB operation (function 96): what its return parameters hold */
    guint32 lob_op;
    guint32 lob_src_len, lob_dst_len;
    gboolean lob_charset, lob_amount, lob_null;
    const char *stmt_sql;      /* statement the call belongs to (cursor's SQL) */
    guint32 tns_packets, tns_bytes, segments;
    guint32 ttc_bytes;         /* DATA payload after the data flags */
    struct ttc_response *response;
    struct ttc_response *closed;   /* previous response this request cut short */
    guint32 execution;             /* statement execution this call belongs to (0 = none) */
    guint8  partial;               /* ttc_partial_t of the request's own packets */
    gboolean fetch_more;           /* a fetch (no execute) on a result set with rows still to come */
    gboolean ended;                /* its last packet had the end-of-request flag (23ai pipelines) */
    struct ttc_request *next_waiting;  /* next request sent before this one's response */
} ttc_request_t;

/* The call executes a statement (starts an execution): OALL8 with the
 * execute option, re-execute (and fetch), OALL7. */
static inline gboolean
ttc_req_executes(const ttc_request_t *req)
{
    /* python-oracledb fetches from a scrollable cursor with an execute
     * positioned at the next row (orientation "current", position > 1):
     * that continues the execution, it does not start one. */
    if (req->func == TTC_FN_OALL8 && (req->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) && req->cursor != 0 &&
        req->fetch_pos > 1)
        return FALSE;
    return (req->func == TTC_FN_OALL8 && (req->options & TTC_OPT_EXECUTE)) ||
           req->func == TTC_FN_REEXECUTE_FETCH || req->func == TTC_FN_REEXECUTE ||
           req->func == TTC_FN_OALL7;
}

typedef struct ttc_response {
    ttc_request_t *req;
    guint32 first_frame;       /* first TCP segment carrying the response */
    nstime_t first_time;
    guint32 last_frame;        /* frame completing it; 0 while open */
    nstime_t last_time;
    guint32 packets, bytes;    /* TNS packets and bytes (markers included) */
    guint32 data_packets, markers;
    guint32 ttc_bytes;         /* DATA payload after the data flags ("bytes via SQL*Net") */
    guint32 rows;              /* row data messages */
    guint32 row_bytes;         /* bytes of row data (RXD) and bit vector (BVC) messages */
    guint32 bvc_bytes;         /* the bit vector messages alone */
    gboolean has_oer;
    guint32 cursor;
    guint64 rowcount;
    guint32 ora_error;
    const char *ora_message;
    guint32 call_status;
    gboolean complete;         /* ended by EOR / its terminal message */
    guint8  partial;           /* ttc_partial_t: not decoded to its end */
    const ttc_describe_t *describe;
    /* TCP segments, counted by a tap on "tcp" (see metrics.c) */
    guint32 tap_segments, tap_upto;
    guint32 largest_packet;
    gboolean multi_segment_packet;
} ttc_response_t;

/* Decoder state that later messages depend on. */
typedef struct ttc_state {
    const ttc_dialect_t *dialect;
    const ttc_describe_t *describe;   /* columns of the rows being received */
    const guint8 *bitvec;             /* columns sent in the next row (NULL = all) */
    guint16 bitvec_len;
    guint16 rxh_columns;              /* columns per row from the row header (no describe) */
    guint16 rxh_bv_bytes;             /* bit vector size from the row header (no describe) */
    ttc_request_t *req;
    ttc_response_t *resp;
} ttc_state_t;

/* What decoding one message found (applied to aggregates on the first pass). */
typedef struct ttc_msg_result {
    guint8  type;
    gboolean terminal;         /* ends a response in classic (pre-EOR) mode */
    gboolean eor;              /* message 29 */
    gboolean row;              /* one row of data */
    gboolean has_oer;
    guint32 oer_cursor, oer_error, call_status;
    guint64 oer_rowcount;
    const char *oer_message;
    /* client calls */
    gboolean is_call;
    ttc_request_t call;        /* fields of the call, when is_call */
    gboolean stop;             /* call data (binds/defines) follows: not walked */
    /* cursors a reply opens (REF cursor out binds and columns, implicit results) */
#define TTC_MAX_NEW_CURSORS 8
    guint32 ncursors;
    struct { guint32 id; const ttc_describe_t *describe; } cursors[TTC_MAX_NEW_CURSORS];
    /* handshake facts */
    gboolean dialect_update;
    ttc_dialect_t dialect;
} ttc_msg_result_t;

/* Per-conversation TTC state. */
typedef struct ttc_stream {
    guint8  *pending;          /* bytes of a message not yet complete */
    guint32  pending_len;
    guint32  pending_cap;      /* allocated size of `pending` (grows by doubling) */
    guint64  pending_work;     /* bytes decoded so far trying to complete it */
    const guint8 *bitvec_kept; /* last bit vector copied into file scope (reused when equal) */
    guint16  bitvec_kept_len;
    ttc_state_t state;
    gboolean opaque;           /* undecodable until the next request/response */
    gboolean opaque_cut;       /* ... because the capture cut a packet short */
} ttc_stream_t;

typedef struct ttc_cursor {
    const char *sql;
    const ttc_describe_t *describe;
    guint64 rowcount;
    guint32 execution;                 /* current execution on this cursor */
    gboolean exhausted;                /* its last end-of-call status said no more rows (1403) */
} ttc_cursor_t;

typedef struct ttc_session {
    ttc_dialect_t dialect;             /* working copy */
    const ttc_dialect_t *dialect_ptr;  /* immutable snapshot of it */
    ttc_stream_t dir[2];               /* [SQLNET_TO_SERVER], [SQLNET_TO_CLIENT] */
    ttc_request_t *req;                /* latest request */
    ttc_request_t *waiting, *waiting_last; /* requests without a response yet, oldest first:
                                        * one, or several in a pipeline (each ended by the
                                        * end-of-request flag), answered in order */
    ttc_response_t *resp;              /* open response, NULL between them */
    wmem_tree_t *responses;            /* by first_frame (segment counting) */
    wmem_map_t *cursors;               /* cursor id -> ttc_cursor_t */
    guint32 ncursors;
    ttc_req_kind_t pending_kind;       /* kind of the request being received */
    guint32 inferred_frame;            /* where the dialect was inferred (no handshake) */
    guint32 infer_fits;                /* candidates (bit i) the first call fitted */
    guint8 infer_chosen;               /* the candidate taken */
    gboolean infer_verify;             /* calls and replies still check the choice */
    guint32 infer_replies;             /* replies verified so far */
    guint32 executions;                /* statement executions seen */
    guint32 lob_execution;             /* latest execution whose rows carried LOB locators */
    const char *lob_sql;               /* ... and its statement */
    guint32 nrequests;
    ttc_request_t *unbound;            /* last execute whose response named no cursor
                                        * (cut or undecoded): the next call on an
                                        * unknown cursor is taken to be on its cursor */
} ttc_session_t;

/* Shared between the decoders: message name table. */
extern const value_string ttc_msg_type_vals[];
extern const value_string ttc_function_vals[];

/* ttc_stream.c */
void ttc_register(int proto);
ttc_session_t *ttc_session(sqlnet_session_t *sess);
/* A DATA payload of this conversation (not ANO, not encrypted). */
void ttc_dissect_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                         sqlnet_session_t *sess, sqlnet_dir_t dir, guint16 data_flags,
                         guint32 tns_len);
/* Every TNS packet (DATA or not) for response accounting. */
void ttc_note_packet(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                     guint8 type, guint32 tns_len, guint16 data_flags, gboolean is_ano);
/* The server side was corrected (from the TTC content, no handshake): the
 * streams so far came from the wrong sides and start afresh. */
void ttc_sides_changed(sqlnet_session_t *sess);
/* First segment of a server packet seen (tcp_dissect_pdus length callback). */
void ttc_note_pdu_start(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir, guint8 type);
/* The request/response a DATA payload belongs to (from the first pass). */
gboolean ttc_pdu_lookup(packet_info *pinfo, tvbuff_t *payload, ttc_request_t **req,
                        ttc_response_t **resp, gboolean *completes, gboolean *carries_call);
/* Partial reason of a round trip: its response's, else its request's. */
static inline guint8
ttc_round_trip_partial(const ttc_response_t *resp)
{
    if (resp->partial)
        return resp->partial;
    return resp->req ? resp->req->partial : TTC_PARTIAL_NONE;
}
/* This PDU is the first packet of its request. */
gboolean ttc_pdu_starts_request(packet_info *pinfo, tvbuff_t *payload);

/* ttc_calls.c: one client message. */
/* Fields of both directions' messages, registered once by ttc_register(). */
extern int hf_ttc_msg;         /* sqlnet.ttc.msg */
extern int hf_ttc_cursor;      /* sqlnet.cursor */
extern int hf_ttc_token;       /* sqlnet.ttc.token */
extern int hf_ttc_sql;         /* sqlnet.sql: on the call that carries it, generated elsewhere */

void ttc_calls_register(int proto);
void ttc_decode_client(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                       ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);

/* ttc_replies.c: one server message. */
void ttc_replies_register(int proto);
void ttc_decode_server(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                       ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);

#endif /* SQLNET_TTC_H */
