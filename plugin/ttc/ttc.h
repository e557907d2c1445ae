/* ttc.h - the TTC layer: messages inside TNS DATA, request/response pairing.
 *
 * Each direction of a conversation carries a stream of TTC messages cut at
 * TNS packet boundaries (mid-message, mid-integer).  ttc_stream.c feeds the
 * DATA payloads of each direction through the message decoders (given to
 * it as ttc_decoder_ops_t, see decoders/ttc_dispatch.c), keeps the one
 * message that spans a packet boundary, and groups packets into requests
 * and responses whose metrics metrics.c turns into fields and tap records.
 *
 * Types by concern: ttc_protocol.h (constants), ttc_columns.h (describe
 * and bind metadata), ttc_roundtrip.h (request/response records),
 * ttc_result.h (decoder state and results), ttc_session.h (per-conversation
 * state); ttc_msg.h is private to the message decoders.
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
#include "ttc_columns.h"
#include "ttc_roundtrip.h"
#include "ttc_result.h"
#include "ttc_session.h"

/* The message decoders (decoders/), as the stream reaches them: the stream
 * is below them, so plugin.c gives it their entry points once at
 * registration (ttc_set_decoders, before ttc_register) and it never names
 * them. */
typedef struct ttc_decoder_ops {
    /* One client (server) message at r->off: its tree items under tree, what
     * it found in res; r->need_more / r->bad when it does not fit. */
    void (*decode_client)(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                          ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);
    void (*decode_server)(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                          ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope);
    /* The names of message types and function codes the decoders know
     * (NULL for others): the value strings below are made from them. */
    const char *(*message_name)(guint8 type);
    const char *(*function_name)(guint8 code);
    /* Whether a filter, a column or a tap references any field the
     * decoders add (their expert infos' fields included): a display pass
     * with a tree that is not shown decodes only then (ttc_stream.c). */
    gboolean (*fields_referenced)(void);
} ttc_decoder_ops_t;

void ttc_set_decoders(const ttc_decoder_ops_t *ops);

/* Names of message types (sqlnet.ttc.msg) and function codes (sqlnet.func,
 * sqlnet.call, ...), made once by ttc_set_decoders() from the decoders'
 * tables (decoders/ttc_dispatch.c), in code order. */
extern value_string ttc_msg_type_vals[];
extern value_string ttc_function_vals[];

/* ttc_stream.c */
void ttc_register(int proto);
/* At handoff: the listener on the "tcp" tap that counts the server's segments. */
void ttc_handoff(void);
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
/* A TCP segment handed to sqlnet (every segment, before its TNS packets). */
void ttc_note_segment(packet_info *pinfo, sqlnet_session_t *sess, guint32 seglen);
/* One server TCP segment with payload, counted once whoever sees it: sqlnet
 * when TCP hands it over, the stream's listener on the "tcp" tap when TCP
 * keeps it inside a reassembly. */
void ttc_count_segment(packet_info *pinfo, ttc_session_t *ts, gboolean unseen, guint32 seglen);
/* Observers of the stream, given once at registration (plugin.c wires
 * timing.c's): called on the first pass only.  They add to a record
 * through its own interface (ttc_roundtrip.h) and keep their own state. */
typedef struct ttc_observer {
    /* a TNS packet of a conversation whose TTC layer runs */
    void (*packet)(packet_info *pinfo, ttc_session_t *ts);
    /* a response ended (completed, or cut short by the next request),
     * before its record is published */
    void (*response_closed)(packet_info *pinfo, ttc_session_t *ts, ttc_response_t *resp);
} ttc_observer_t;
void ttc_set_observer(const ttc_observer_t *observer);
/* The round trip's number in its conversation (sqlnet.rt.number), given
 * the first time its record is published (in frame order, first pass). */
guint32 ttc_round_trip_number(ttc_session_t *ts, ttc_response_t *resp);
/* The request/response a DATA payload belongs to (from the first pass). */
gboolean ttc_pdu_lookup(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *payload, ttc_request_t **req,
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
gboolean ttc_pdu_starts_request(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *payload);

/* The response a request cut short (it came before that one's end), or NULL. */
ttc_response_t *ttc_req_closed(const sqlnet_session_t *sess, const ttc_request_t *req);

/* Fields of both directions' messages, registered once by ttc_register(). */
extern int hf_ttc_msg;         /* sqlnet.ttc.msg */
extern int hf_ttc_cursor;      /* sqlnet.cursor */
extern int hf_ttc_token;       /* sqlnet.ttc.token */
extern int hf_ttc_sql;         /* sqlnet.sql: on the call that carries it, generated elsewhere */
extern int hf_ttc_sql_id;      /* sqlnet.sql_id: next to every sqlnet.sql */
/* The SQL_ID of a statement text the session keeps (file scope): made once
 * per distinct text and kept in the session, NULL for no text. */
const char *ttc_sql_id(ttc_session_t *ts, const char *sql);
/* sqlnet.sql for a text read from the packet, with its sqlnet.sql_id. */
void ttc_add_sql(proto_tree *tree, tvbuff_t *tvb, gint start, gint len, const char *sql);


#endif /* SQLNET_TTC_H */
