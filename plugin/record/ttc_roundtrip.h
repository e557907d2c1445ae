/* ttc_roundtrip.h - the wire-cost records: one per request and one per response,
 * built on the first pass (packets, bytes, segments, rows, timing, the call's
 * facts) and read by metrics.c for fields and taps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_ROUNDTRIP_H
#define SQLNET_TTC_ROUNDTRIP_H

#include <epan/packet.h>
#include "ttc_columns.h"
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

struct ttc_response;

/* Where a round trip's time went (timing.c, docs/time.md): the stretch from
 * the end of the previous response to the end of this one, cut into parts.
 * `network` is one round-trip time where the capture shows it (the client's
 * gap before its call when captured near the server, the wait for the
 * answer when captured near the client; the first call of a capture taken
 * near the server has no gap: its RTT is added); 0 when the RTT is not
 * known.  The rest of the client's gap is `client` when the previous round
 * trip of the conversation belongs to the same execution (the client working
 * between the calls of one piece of work), else `idle` (the time before a
 * new piece of work).  A round trip's elapsed time, as the client lived it,
 * is network + server + transfer + client (sqlnet_timing_elapsed); what the
 * client waited for it is network + server + transfer (sqlnet_timing_wait);
 * idle is apart. */
typedef struct sqlnet_timing {
    nstime_t network;          /* one network round trip */
    nstime_t server;           /* request's last byte to response's first byte, less the network */
    nstime_t transfer;         /* request's first to last byte, response's first to last byte */
    nstime_t client;           /* previous response's last byte to this request's first, less the network,
                                * when the previous round trip is of the same execution (else 0) */
    nstime_t idle;             /* the same gap when it is not (the time before a new piece of work) */
    nstime_t rtt;              /* the RTT the network part rests on (rtt_known: the
                                * conversation's, when the response ended) */
    /* the unsplit parts, kept for a split made again (timing_revisit) */
    nstime_t wait;             /* request's last byte to response's first byte */
    nstime_t gap;              /* previous response's last byte to the request's first byte */
    gboolean in_execution;     /* the previous round trip of the conversation was of the same execution */
    gboolean known;            /* computed (the response completed or was closed) */
    gboolean rtt_known;        /* the network part rests on a measured RTT */
    gboolean has_gap;          /* there was a previous response */
    gboolean provisional;      /* split before the ACK tap had run (first pass of -2) */
    guint8   rtt_source, vantage;  /* sqlnet_rtt_source_t, sqlnet_vantage_t */
} sqlnet_timing_t;

/* Elapsed (network + server + transfer + client) and wait (network + server
 * + transfer) of a round trip, in nanoseconds (0 when its timing is not known). */
static inline guint64
sqlnet_timing_ns(const nstime_t *t)
{
    if (t->secs < 0 || t->nsecs < 0)
        return 0;
    return (guint64)t->secs * 1000000000u + (guint64)t->nsecs;
}

static inline guint64
sqlnet_timing_wait(const sqlnet_timing_t *t)
{
    if (!t->known)
        return 0;
    return sqlnet_timing_ns(&t->network) + sqlnet_timing_ns(&t->server) + sqlnet_timing_ns(&t->transfer);
}

static inline guint64
sqlnet_timing_elapsed(const sqlnet_timing_t *t)
{
    if (!t->known)
        return 0;
    return sqlnet_timing_wait(t) + sqlnet_timing_ns(&t->client);
}

/* Why a round trip's figures are lower bounds (sqlnet.ttc.partial). */
typedef enum {
    TTC_PARTIAL_NONE = 0,
    TTC_PARTIAL_CUT = 1,       /* the capture cut a TNS packet of it short (snaplen) */
    TTC_PARTIAL_UNDECODED = 2  /* a message of it could not be decoded */
} ttc_partial_t;

/* Facts of a call that reach every consumer of the round-trip record
 * without another edit: one row is a member of ttc_call_t (guint32, 0 = none
 * or not known), which its decoder sets (res->call.member) and the request
 * keeps; the field sqlnet.rt.<abbrev> in the round-trip subtree (metrics.c),
 * a column of -z sqlnet,rt (stats.c) and a fact Lua reads by name
 * (lua_records.c: col:fact(i, "<abbrev>")), all present when non-zero.
 *   X(member, "abbrev", "Name", "description") */
#define TTC_CALL_FACTS(X) \
    X(bind_values, "bind_values", "Bind values sent", \
      "Bind values the call sent: its binds (less DML RETURNING binds) x the rows it binds them for " \
      "(OALL8: the execution count of a DML, one row for a query or PL/SQL)")

/* The facts of one call as its decoder found them (ttc_msg_result_t.call),
 * kept in its request as `call` (req->call.func ...). */
typedef struct ttc_call {
    ttc_req_kind_t kind;
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
#define TTC_CALL_FACT_MEMBER(m, abbrev, name, desc) guint32 m;
    TTC_CALL_FACTS(TTC_CALL_FACT_MEMBER)
#undef TTC_CALL_FACT_MEMBER
} ttc_call_t;

typedef struct ttc_request {
    ttc_call_t call;           /* the request's main call (call.kind: the request's kind) */
    guint32 frame;             /* frame of the (last) request packet */
    guint32 first_frame;
    nstime_t last_time;        /* when the request was complete (its last packet) */
    nstime_t first_time;       /* its first packet */
    nstime_t prev_end;         /* last byte of the response before it (has_prev_end) */
    const char *stmt_sql;      /* statement the call belongs to (cursor's SQL) */
    guint32 tns_packets, tns_bytes, segments;
    guint32 ttc_bytes;         /* DATA payload after the data flags */
    struct ttc_response *response;
    struct ttc_response *closed;   /* previous response this request cut short */
    guint32 execution;             /* statement execution this call belongs to (0 = none) */
    gboolean has_prev_end;
    gboolean fetch_more;           /* a fetch (no execute) on a result set with rows still to come */
    gboolean ended;                /* its last packet had the end-of-request flag (23ai pipelines) */
    gboolean negotiates;           /* PRO/DTY before its call in one request (ojdbc 23's connection
                                    * cookie): their replies lead its response */
    guint8  partial;               /* ttc_partial_t of the request's own packets */
    struct ttc_request *next_waiting;  /* next request sent before this one's response */
} ttc_request_t;

/* The call executes a statement (starts an execution): OALL8 with the
 * execute option, re-execute (and fetch), OALL7 with the execute option. */
static inline gboolean
ttc_call_executes(const ttc_call_t *c)
{
    /* python-oracledb fetches from a scrollable cursor with an execute
     * positioned at the next row (orientation "current", position > 1):
     * that continues the execution, it does not start one. */
    if (c->func == TTC_FN_OALL8 && (c->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) && c->cursor != 0 &&
        c->fetch_pos > 1)
        return FALSE;
    /* OALL7: with the execute option (options 0: a body not decoded) */
    return (c->func == TTC_FN_OALL8 && (c->options & TTC_OPT_EXECUTE)) ||
           c->func == TTC_FN_REEXECUTE_FETCH || c->func == TTC_FN_REEXECUTE ||
           (c->func == TTC_FN_OALL7 && (c->options == 0 || (c->options & TTC_OPT_EXECUTE)));
}

static inline gboolean
ttc_req_executes(const ttc_request_t *req)
{
    return ttc_call_executes(&req->call);
}

typedef struct ttc_response {
    ttc_request_t *req;
    guint32 number;            /* round trip number in the conversation (1-based, sqlnet.rt.number):
                                * given when its record is first published (ttc_round_trip_number), 0 before */
    guint32 first_frame;       /* first TCP segment carrying the response */
    guint32 last_frame;        /* frame completing it; 0 while open */
    guint32 ora_error;
    nstime_t first_time;
    nstime_t last_time;
    sqlnet_timing_t timing;    /* where its time went (first pass, at its end) */
    guint32 packets, bytes;    /* TNS packets and bytes (markers included) */
    guint32 data_packets, markers;
    guint32 ttc_bytes;         /* DATA payload after the data flags ("bytes via SQL*Net") */
    guint32 rows;              /* row data messages */
    guint32 row_bytes;         /* bytes of row data (RXD) and bit vector (BVC) messages */
    guint32 bvc_bytes;         /* the bit vector messages alone */
    gboolean has_oer;
    guint32 cursor;
    guint64 rowcount;
    const char *ora_message;
    guint32 call_status;
    gboolean complete;         /* ended by EOR / its terminal message */
    const ttc_describe_t *describe;
    /* TCP segments that carried it (ttc_count_segment), and the first frame
     * that can be one of them (after its request and the previous response) */
    guint32 segments, cover_from;
    guint32 largest_segment;   /* payload bytes of its largest TCP segment */
    guint32 largest_packet;
    gboolean multi_segment_packet;
    guint8  partial;           /* ttc_partial_t: not decoded to its end */
} ttc_response_t;

/* ---- what consumers add to a record before it is published --------------
 * (the stream and the decoders fill the rest in place) */

/* Where its time went (timing.c, when it ends and on a later split). */
static inline void
ttc_response_set_timing(ttc_response_t *resp, const sqlnet_timing_t *timing)
{
    resp->timing = *timing;
}

/* A TNS packet of it was reassembled from several TCP segments (metrics.c). */
static inline void
ttc_response_note_multi_segment(ttc_response_t *resp)
{
    resp->multi_segment_packet = TRUE;
}

/* Its number in the conversation (sqlnet.rt.number), given once. */
static inline void
ttc_response_set_number(ttc_response_t *resp, guint32 number)
{
    resp->number = number;
}

#endif /* SQLNET_TTC_ROUNDTRIP_H */
