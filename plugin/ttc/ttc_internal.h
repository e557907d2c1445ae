/* ttc_internal.h - shared between the files of the TTC stream (ttc/ only):
 * the per-packet record, why decoding stopped, and the functions one file
 * of the stream gives the others.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_INTERNAL_H
#define SQLNET_TTC_INTERNAL_H

#include "ttc.h"

/* Bounds on one message being collected across packets: its size, and the
 * bytes decoded in the attempts to complete it (every packet re-decodes the
 * message from its start, so a message cut into many small packets costs
 * quadratic time without this). */
#define TTC_MAX_PENDING (64u * 1024u * 1024u)
#define TTC_MAX_PENDING_WORK (256u * 1024u * 1024u)
/* Bytes held by pending messages of all conversations together, and the
 * buffer size a stream keeps between messages (larger ones are freed). */
#define TTC_MAX_PENDING_TOTAL (256u * 1024u * 1024u)
#define TTC_PENDING_KEEP (64u * 1024u)

typedef enum {
    STOP_END,          /* consumed everything */
    STOP_NEED_MORE,    /* last message continues in the next packet */
    STOP_BAD,          /* undecodable from here on */
    STOP_CALL_DATA,    /* bind/define data after a call: not walked */
    STOP_CUT,          /* the capture cut this packet short (snaplen) */
    STOP_AFTER_CUT     /* an earlier packet of this request/response was cut */
} stop_t;

/* What few TTC records have (ttc_pdu_more()): kept apart, so that the record
 * every TNS packet has stays small. */
typedef struct ttc_pdu_more {
    guint8  *joined;           /* a message begun in earlier packets, ended here */
    guint32  joined_len;
    guint32  joined_prefix;    /* bytes of `joined` from earlier packets */
    gint32   resync_off;       /* server: a final end-of-call status found after an
                                * undecoded stretch, decoded from here; -1 none */
    guint32  too_long;         /* a pending message was dropped here: its size so far */
    guint32  cursor_dropped;   /* cursor not remembered here (cap reached), 0 = none */
    guint32  reinferred_from;  /* the inferred dialect changed here: the frame it was
                                * inferred at, 0 = not changed here */
    ttc_request_t *start_req;  /* the start state's request and response, when they */
    ttc_response_t *start_resp; /* are not the packet's own (ttc_pdu_start_get) */
} ttc_pdu_more_t;

/* A decoder state as a TTC record keeps it: ttc_state_t without its request
 * and response, which are nearly always the packet's own (the record's
 * `of`), else in ttc_pdu_more_t.  Kept in the session's store, once while
 * consecutive records of a direction start from the same one
 * (ttc_start_intern); a record holds its index. */
typedef struct ttc_state_kept {
    const ttc_dialect_t *dialect;
    const ttc_describe_t *describe;
    const guint8 *bitvec;
    const ttc_row_values_t *last_row;
    guint16 bitvec_len;
    guint16 rxh_columns;
    guint16 rxh_bv_bytes;
} ttc_state_kept_t;

typedef struct ttc_pdu_rec {
    union {                    /* the round trip's record this packet belongs to */
        ttc_request_t *req;    /* client packets (!server) */
        ttc_response_t *resp;  /* server packets */
    } of;
    gint32   body_off;         /* first message starting in this payload; -1 none */
    gint32   stop_off;         /* where decoding stopped; -1 = end of payload */
    guint32  start;            /* decoder state before this packet's messages: its index in
                                * the session's store (ttc_pdu_start_get) */
    /* One of these per TNS packet of the capture: the flags are bits (every
     * assignment is TRUE, FALSE or a logical expression). */
    guint    stop : 3;         /* stop_t */
    guint    server : 1;       /* a server packet: `of` is its response */
    guint    start_rt_apart : 1;   /* the start state's request and response are in `more` */
    guint    decoded : 1;      /* TTC decoding applies to this packet */
    guint    completes : 1;    /* completes its response (server side) */
    guint    carries_call : 1; /* the request's main call was decoded here */
    guint    starts_request : 1;   /* first TNS packet of its request */
    guint    too_much_total : 1;   /* ... dropped because all conversations together hold too much */
    guint    body_undecoded : 1;   /* its call data is a call body that could not be read */
    guint    has_more : 1;     /* it has a ttc_pdu_more_t, in the session's store by record */
} ttc_pdu_rec_t;

static const ttc_pdu_more_t ttc_pdu_none = { NULL, 0, 0, -1, 0, 0, 0, NULL, NULL };

/* What a record holds apart, for reading (never NULL): in the session's
 * store, by the record's address (records never move), when it has any. */
static inline const ttc_pdu_more_t *
ttc_pdu_seen(const ttc_session_t *ts, const ttc_pdu_rec_t *rec)
{
    return rec->has_more ? (const ttc_pdu_more_t *)wmem_map_lookup(ts->recs.more, rec) : &ttc_pdu_none;
}

/* ... and for writing (made on the first write, in file scope). */
static inline ttc_pdu_more_t *
ttc_pdu_more(ttc_session_t *ts, ttc_pdu_rec_t *rec)
{
    ttc_pdu_more_t *more;

    if (rec->has_more)
        return (ttc_pdu_more_t *)wmem_map_lookup(ts->recs.more, rec);
    if (!ts->recs.more)
        ts->recs.more = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
    more = wmem_new(wmem_file_scope(), ttc_pdu_more_t);
    *more = ttc_pdu_none;
    wmem_map_insert(ts->recs.more, rec, more);
    rec->has_more = TRUE;
    return more;
}


/* ttc_state.c: the message decoders (given once at registration), the
 * session as this frame finds it, the dialect, cursors, and the copies into
 * file scope of what later packets need. */
extern const ttc_decoder_ops_t *ttc_decoders;
ttc_session_t *ttc_session_at(sqlnet_session_t *sess, packet_info *pinfo);
void resolve_dialect(ttc_dialect_t *out, const sqlnet_session_t *sess, const ttc_dialect_t *d);
void set_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, const ttc_dialect_t *d);
ttc_cursor_t *cursor_get(ttc_session_t *ts, guint32 id, gboolean create, ttc_pdu_rec_t *rec);
const ttc_describe_t *describe_keep(const ttc_describe_t *d);
void state_keep(ttc_stream_t *s);

/* ttc_records.c: the session's TTC records by frame and payload offset
 * (ttc_rec_new: a zeroed one, first pass, in frame order), and its server
 * frames' segment markers (0: none). */
ttc_pdu_rec_t *ttc_rec_find(const ttc_session_t *ts, guint32 frame, guint32 key);
ttc_pdu_rec_t *ttc_rec_new(ttc_session_t *ts, guint32 frame, guint32 key);
guint32 ttc_start_intern(ttc_session_t *ts, gboolean server, const ttc_state_kept_t *k);
const ttc_state_kept_t *ttc_start_at(const ttc_session_t *ts, guint32 idx);
ttc_request_t *ttc_request_new(ttc_session_t *ts);
ttc_response_t *ttc_response_new(ttc_session_t *ts);
guint ttc_seg_mark(const ttc_session_t *ts, guint32 frame);
void ttc_seg_mark_set(ttc_session_t *ts, guint32 frame, guint mark);
/* First pass: the frame being dissected.  A frame with the number of the
 * latest one but another file offset follows one that a read filter dropped
 * (tshark -2 -R: session_frame_after()); the dropped frame's records and
 * segment marker are forgotten, so that this one gets its own. */
void ttc_rec_frame_seen(ttc_session_t *ts, const packet_info *pinfo);

/* ttc_pending.c: a message collected across packets. */
void ttc_pending_init(void);
void ttc_pending_cleanup(void);
gboolean pending_append(ttc_stream_t *s, tvbuff_t *tvb, gint off, guint32 len);
void pending_drop(ttc_stream_t *s);
void ttc_pending_free_at_end(ttc_stream_t *s);   /* ttc_state.c */

/* ttc_pairing.c: requests and responses (first pass). */
void mark_partial(ttc_session_t *ts, sqlnet_dir_t dir, ttc_partial_t why);
void close_response(ttc_session_t *ts, packet_info *pinfo, guint32 frame, const nstime_t *when,
                    gboolean complete);
ttc_response_t *open_response(ttc_session_t *ts, packet_info *pinfo);
ttc_request_t *open_request(ttc_session_t *ts, packet_info *pinfo, ttc_req_kind_t kind);
void apply_client_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                         ttc_msg_result_t *res, ttc_pdu_rec_t *rec);
void apply_server_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                         ttc_msg_result_t *res, gint msg_len, const ttc_state_t *st, ttc_pdu_rec_t *rec);
void split_request(ttc_session_t *ts, packet_info *pinfo, guint32 tns_len, guint16 data_flags);

/* ttc_decode.c: messages of [off, end) of tvb; returns the stop offset. */
gint decode_range(tvbuff_t *tvb, gint off, gint end, ttc_state_t *st, proto_tree *tree,
                  packet_info *pinfo, sqlnet_dir_t dir, ttc_session_t *ts,
                  const sqlnet_session_t *sess, ttc_pdu_rec_t *rec, gboolean first_pass,
                  stop_t *stop, gboolean one_message);
gint find_final_oer(tvbuff_t *tvb, gint from, gint end, const ttc_state_t *start, packet_info *pinfo);

/* ttc_infer.c: the dialect without a handshake; client-only captures. */
gboolean infer_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload,
                       packet_info *pinfo);
void narrow_inferred_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload,
                             packet_info *pinfo);
gboolean infer_dialect_from_reply(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, gint end,
                                  packet_info *pinfo);
void verify_inferred_dialect(ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload, gint end,
                             packet_info *pinfo);
gboolean client_only_next_call(const ttc_session_t *ts, const sqlnet_session_t *sess, tvbuff_t *payload,
                               packet_info *pinfo);

/* The request and response of a packet's own round trip, as a decoder state
 * names them: a client packet's request; a server packet's response and its
 * request. */
static inline void
ttc_pdu_own(const ttc_pdu_rec_t *rec, ttc_request_t **req, ttc_response_t **resp)
{
    if (rec->server) {
        *resp = rec->of.resp;
        *req = rec->of.resp ? rec->of.resp->req : NULL;
    } else {
        *req = rec->of.req;
        *resp = NULL;
    }
}

/* Keep the decoder state before the packet (after rec->of and rec->server
 * are set: its request and response are compared with the packet's own). */
static inline void
ttc_pdu_start_keep(ttc_session_t *ts, ttc_pdu_rec_t *rec, const ttc_state_t *st)
{
    ttc_request_t *req;
    ttc_response_t *resp;
    ttc_state_kept_t k;

    k.dialect = st->dialect;
    k.describe = st->describe;
    k.bitvec = st->bitvec;
    k.last_row = st->last_row;
    k.bitvec_len = st->bitvec_len;
    k.rxh_columns = st->rxh_columns;
    k.rxh_bv_bytes = st->rxh_bv_bytes;
    rec->start = ttc_start_intern(ts, rec->server, &k);
    ttc_pdu_own(rec, &req, &resp);
    rec->start_rt_apart = st->req != req || st->resp != resp;
    if (rec->start_rt_apart) {
        ttc_pdu_more_t *more = ttc_pdu_more(ts, rec);
        more->start_req = st->req;
        more->start_resp = st->resp;
    }
}

/* The dialect of the state before the packet. */
static inline const ttc_dialect_t *
ttc_pdu_start_dialect(const ttc_session_t *ts, const ttc_pdu_rec_t *rec)
{
    return ttc_start_at(ts, rec->start)->dialect;
}

/* ... changed on the first pass (a dialect inferred at this packet). */
static inline void
ttc_pdu_start_set_dialect(ttc_session_t *ts, ttc_pdu_rec_t *rec, const ttc_dialect_t *d)
{
    ttc_state_kept_t k = *ttc_start_at(ts, rec->start);

    k.dialect = d;
    rec->start = ttc_start_intern(ts, rec->server, &k);
}

/* The decoder state before the packet, whole. */
static inline void
ttc_pdu_start_get(const ttc_session_t *ts, const ttc_pdu_rec_t *rec, ttc_state_t *st)
{
    const ttc_state_kept_t *k = ttc_start_at(ts, rec->start);

    st->dialect = k->dialect;
    st->describe = k->describe;
    st->bitvec = k->bitvec;
    st->last_row = k->last_row;
    st->bitvec_len = k->bitvec_len;
    st->rxh_columns = k->rxh_columns;
    st->rxh_bv_bytes = k->rxh_bv_bytes;
    if (rec->start_rt_apart) {
        const ttc_pdu_more_t *more = ttc_pdu_seen(ts, rec);
        st->req = more->start_req;
        st->resp = more->start_resp;
    } else {
        ttc_pdu_own(rec, &st->req, &st->resp);
    }
}

#endif /* SQLNET_TTC_INTERNAL_H */
