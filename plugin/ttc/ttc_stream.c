/* ttc_stream.c - the per-direction TTC stream: each DATA payload decoded, in every pass.
 *
 * First pass, per DATA payload of one direction:
 *   1. if a message from earlier packets is pending, join it with this
 *      payload and decode that one message (it may still be incomplete);
 *   2. decode the messages that start in this payload; the last one may
 *      continue in the next packet and becomes the pending message.
 * Each TNS packet keeps a record: the decoder state before its first
 * message and a copy of the joined message, so any later visit decodes the
 * packet again without the packets before it.  Only messages that cross a
 * packet boundary are copied; memory grows with packets, not with rows.
 *
 * The other files of the stream: ttc_state.c (the session, dialect, cursors),
 * ttc_pending.c (the bytes of a message cut by packet boundaries),
 * ttc_decode.c (a range of messages through the decoders), ttc_pairing.c
 * (requests and responses), ttc_infer.c (the dialect without a handshake),
 * ttc_segments.c (the server's TCP segments per response); ttc_internal.h
 * is what they share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "sql_id.h"
#include "expert_gate.h"
#include "ttc_internal.h"

static int proto_ttc_layer = -1;

static int hf_ttc = -1;
static int hf_continuation = -1;
static int hf_continues = -1;
static int hf_call_data = -1;
static int hf_undecoded = -1;

static gint ett_ttc = -1;

static expert_field ei_undecoded = EI_INIT;
static expert_field ei_too_long = EI_INIT;
static expert_field ei_cursor_cap = EI_INIT;
static expert_field ei_inferred = EI_INIT;
static expert_field ei_reinferred = EI_INIT;
static expert_field ei_capture_cut = EI_INIT;
static int hf_cut = -1;

/* Display pass: whether decoding the messages again into this tree adds
 * anything someone sees.  A tree that is not shown (the profile's columns, a
 * filter, a tap's fields) sees only the fields it references; the
 * decoders' are asked as one (ttc_decoder_ops_t.fields_referenced); of
 * this file's fields the decoders add the message type, cursor and token,
 * and on calls the SQL text and its SQL_ID (on responses sqlnet.sql is the
 * round-trip summary's, consumers/metrics.c).  Their expert infos reach
 * the expert tap, the expert fields and the Expert column.  What the
 * Info column and the round trip show comes from the first pass (a pass
 * without a tree does not decode again either). */
static gboolean
display_decode_wanted(proto_tree *tree, packet_info *pinfo, sqlnet_dir_t dir)
{
    if (PTREE_DATA(tree)->visible)
        return TRUE;
    if (sqlnet_expert_proto() < 0 || proto_field_is_referenced(tree, sqlnet_expert_proto()) ||
        sqlnet_expert_listened(pinfo))
        return TRUE;
    /* no field of the protocol referenced: none of the decoders' either */
    if (!proto_field_is_referenced(tree, proto_ttc_layer))
        return FALSE;
    if (proto_field_is_referenced(tree, hf_ttc_msg) || proto_field_is_referenced(tree, hf_ttc_cursor) ||
        proto_field_is_referenced(tree, hf_ttc_token))
        return TRUE;
    if (dir == SQLNET_TO_SERVER &&
        (proto_field_is_referenced(tree, hf_ttc_sql) || proto_field_is_referenced(tree, hf_ttc_sql_id)))
        return TRUE;
    return !ttc_decoders->fields_referenced || ttc_decoders->fields_referenced();
}

static void
add_stop_items(proto_tree *tree, tvbuff_t *payload, packet_info *pinfo, gint off, gint upto, stop_t stop,
               gboolean body_undecoded, const ttc_dialect_t *d)
{
    /* Items cover the captured bytes only; counts in the text are the
     * packet's (reported) bytes.  upto: -1 = to the end of the packet. */
    gint len = upto >= 0 ? upto - off : tvb_reported_length_remaining(payload, off);
    gint shown = upto >= 0 ? upto - off : tvb_captured_length_remaining(payload, off);
    proto_item *pi;

    if (len <= 0)
        return;
    if (shown < 0)
        shown = 0;
    switch (stop) {
    case STOP_NEED_MORE:
        proto_tree_add_item(tree, hf_continues, payload, off, shown, ENC_NA);
        break;
    case STOP_CALL_DATA:
        pi = proto_tree_add_item(tree, hf_call_data, payload, off, shown, ENC_NA);
        if (body_undecoded) {          /* not bind data: a body that could not be read */
            ttc_rd_t r;
            gint ss, sl;
            const char *sql;
            expert_add_info_format(pinfo, pi, &ei_undecoded,
                                   "TTC call not decoded: its body is shown as bytes until the next request");
            /* ... with its SQL text, when it is there in the long form */
            if (d && shown > 0) {
                ttc_rd_init(&r, payload, off, off + shown, d);
                sql = ttc_find_long_sql(&r, off, &ss, &sl, pinfo->pool);
                if (sql)
                    ttc_add_sql(proto_item_add_subtree(pi, ett_ttc), payload, ss, sl, sql);
            }
        }
        break;
    case STOP_BAD:
        pi = proto_tree_add_item(tree, hf_undecoded, payload, off, shown, ENC_NA);
        if (shown > 0)
            expert_add_info_format(pinfo, pi, &ei_undecoded, upto >= 0
                                   ? "TTC message not decoded: bytes skipped until the end-of-call status"
                                   : "TTC message not decoded: bytes skipped until the next request or response");
        else
            expert_add_info_format(pinfo, pi, &ei_undecoded,
                                   "TTC data not decoded: bytes skipped until the next request or response");
        if (shown > 0)
            proto_item_append_text(pi, " (message type %u, %d bytes)", tvb_get_uint8(payload, off), len);
        break;
    case STOP_CUT:
        pi = proto_tree_add_item(tree, hf_cut, payload, off, shown, ENC_NA);
        expert_add_info_format(pinfo, pi, &ei_capture_cut,
                               "The capture cut this TNS packet short (snaplen): rows and bytes of this "
                               "round trip are lower bounds");
        proto_item_append_text(pi, " (%d bytes not captured)", len - shown);
        break;
    case STOP_AFTER_CUT:
        pi = proto_tree_add_item(tree, hf_cut, payload, off, shown, ENC_NA);
        expert_add_info_format(pinfo, pi, &ei_capture_cut,
                               "Not decoded: an earlier packet of this round trip was cut short by the capture "
                               "(snaplen); bytes skipped until the next request or response");
        break;
    default:
        break;
    }
}

static guint32
rec_key(tvbuff_t *tvb)
{
    return SQLNET_KEY_PDU(tvb_raw_offset(tvb));
}

/* The TTC record of a payload: in its session's store (ttc_records.c), by
 * its frame and the raw offset of its payload. */
static ttc_pdu_rec_t *
rec_get(const ttc_session_t *ts, packet_info *pinfo, tvbuff_t *payload)
{
    return ttc_rec_find(ts, pinfo->num, rec_key(payload));
}

/* First pass: a message could not be collected (too long, or all
 * conversations hold too much); the stream waits for the next request or
 * response. */
static void
drop_pending(ttc_session_t *ts, ttc_stream_t *s, sqlnet_dir_t dir, ttc_pdu_rec_t *rec,
             guint32 size, gboolean total)
{
    ttc_pdu_more(ts, rec)->too_long = size;
    rec->too_much_total = total != FALSE;
    pending_drop(s);
    s->opaque = TRUE;
    s->opaque_cut = FALSE;
    s->opaque_call_data = FALSE;
    rec->stop = STOP_BAD;
    rec->stop_off = 0;
    mark_partial(ts, dir, TTC_PARTIAL_UNDECODED);
}

/* First pass: decoding cannot go on in this stream until the next request or
 * response; why, for the packets in between and for the round trip. */
static void
go_opaque(ttc_session_t *ts, ttc_stream_t *s, sqlnet_dir_t dir, stop_t why, gboolean rec_undecoded)
{
    s->opaque = TRUE;
    s->opaque_cut = why == STOP_CUT;
    s->opaque_call_data = why == STOP_CALL_DATA;
    s->opaque_undecoded = why == STOP_CALL_DATA && rec_undecoded;
    if (why == STOP_CUT)
        mark_partial(ts, dir, TTC_PARTIAL_CUT);
    else if (why == STOP_BAD)
        mark_partial(ts, dir, TTC_PARTIAL_UNDECODED);
}


void
ttc_dissect_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                    sqlnet_session_t *sess, sqlnet_dir_t dir, guint16 data_flags,
                    guint32 tns_len)
{
    ttc_session_t *ts = ttc_session_at(sess, pinfo);
    ttc_stream_t *s = &ts->dir[dir];
    ttc_pdu_rec_t *rec;
    gint len = tvb_reported_length(payload);
    /* Decoding never reads past the captured bytes: a packet the snaplen
     * cut short is decoded up to the cut and the round trip marked partial. */
    gint cap = (gint)tvb_captured_length(payload);
    gboolean cut = cap < len;
    gint end = cut ? cap : len;
    gboolean first = !PINFO_FD_VISITED(pinfo);
    proto_item *ti;
    proto_tree *tt;
    ttc_state_t st;
    stop_t stop = STOP_END;
    const ttc_pdu_more_t *seen;
    gboolean wanted;
    gint off;

    rec = rec_get(ts, pinfo, payload);
    if (!rec) {
        if (!first)
            return;                    /* not seen on the first pass (e.g. capture gap) */
        if (dir == SQLNET_TO_SERVER && client_only_next_call(ts, sess, payload, pinfo))
            split_request(ts, pinfo, tns_len, data_flags);
        rec = ttc_rec_new(ts, pinfo->num, rec_key(payload));
        rec->body_off = rec->stop_off = -1;
        rec->server = dir == SQLNET_TO_CLIENT;
        if (rec->server)
            rec->of.resp = ts->resp;
        else
            rec->of.req = ts->req;
        ttc_pdu_start_keep(ts, rec, &s->state);
        rec->decoded = !s->opaque;
        rec->starts_request = dir == SQLNET_TO_SERVER && ts->req && ts->req->tns_packets == 1 &&
                              ts->req->first_frame == pinfo->num;
    } else {
        first = FALSE;
    }

    ti = tree ? proto_tree_add_item(tree, hf_ttc, payload, 0, -1, ENC_NA) : NULL;   /* (to the end: throws nothing) */
    tt = proto_item_add_subtree(ti, ett_ttc);

    if (first && dir == SQLNET_TO_SERVER && !ts->dialect.known && s->pending_len == 0 && !s->opaque) {
        if (infer_dialect(ts, sess, payload, pinfo)) {
            ttc_pdu_start_set_dialect(ts, rec, s->state.dialect = ts->dialect_ptr);
            ts->infer_verify = TRUE;
        }
    }
    if (first && dir == SQLNET_TO_SERVER && ts->dialect.inferred && ts->infer_verify &&
        s->pending_len == 0 && !s->opaque && ts->inferred_frame != pinfo->num) {
        guint8 was = ts->infer_chosen;
        narrow_inferred_dialect(ts, sess, payload, pinfo);
        ttc_pdu_start_set_dialect(ts, rec, s->state.dialect = ts->dialect_ptr);
        if (ts->infer_chosen != was)
            ttc_pdu_more(ts, rec)->reinferred_from = ts->inferred_frame;
    }
    if (first && dir == SQLNET_TO_CLIENT && !ts->dialect.known && s->pending_len == 0 && !s->opaque &&
        infer_dialect_from_reply(ts, sess, payload, end, pinfo)) {
        /* no call before it: the reply is the evidence (server-only captures) */
        ttc_pdu_start_set_dialect(ts, rec, s->state.dialect = ts->dialect_ptr);
        ts->infer_verify = (ts->infer_fits & (ts->infer_fits - 1)) != 0;
    } else if (first && dir == SQLNET_TO_CLIENT && ts->infer_verify && s->pending_len == 0 && !s->opaque) {
        guint8 was = ts->infer_chosen;
        verify_inferred_dialect(ts, sess, payload, end, pinfo);
        ttc_pdu_start_set_dialect(ts, rec, s->state.dialect = ts->dialect_ptr);
        if (ts->infer_chosen != was)
            ttc_pdu_more(ts, rec)->reinferred_from = ts->inferred_frame;
    }
    if (first) {
        if (s->opaque) {
            /* a call's bind values that fill more than one TNS packet: the
             * later packets are more of its call data, not undecoded */
            rec->stop = s->opaque_cut ? STOP_AFTER_CUT : s->opaque_call_data ? STOP_CALL_DATA : STOP_BAD;
            rec->body_undecoded = s->opaque_call_data && s->opaque_undecoded;
            rec->stop_off = 0;
            if (cut)
                mark_partial(ts, dir, TTC_PARTIAL_CUT);
        } else if (s->pending_len > 0) {
            /* Finish the message begun in earlier packets. */
            guint32 prefix = s->pending_len;
            guint32 total = prefix + (guint32)end;
            tvbuff_t *jt;
            gint e;

            if (total > TTC_MAX_PENDING || s->pending_work + total > TTC_MAX_PENDING_WORK) {
                drop_pending(ts, s, dir, rec, total, FALSE);
            } else if (!pending_append(s, payload, 0, (guint32)end)) {
                drop_pending(ts, s, dir, rec, total, TRUE);
            } else {
                s->pending_work += total;
                jt = tvb_new_real_data(s->pending, total, total);
                st = s->state;
                e = decode_range(jt, 0, (gint)total, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop, TRUE);
                tvb_free(jt);
                if (stop == STOP_NEED_MORE && cut) {
                    /* the rest of the message was not captured */
                    pending_drop(s);
                    go_opaque(ts, s, dir, STOP_CUT, rec->body_undecoded);
                    rec->stop = STOP_CUT;
                    rec->stop_off = 0;
                } else if (stop == STOP_NEED_MORE) {
                    /* Still incomplete: this whole payload is a middle part. */
                    rec->stop = STOP_NEED_MORE;
                    rec->stop_off = 0;
                } else if (stop == STOP_BAD) {
                    pending_drop(s);
                    go_opaque(ts, s, dir, STOP_BAD, rec->body_undecoded);
                    rec->stop = STOP_BAD;
                    rec->stop_off = 0;
                } else {
                    ttc_pdu_more_t *more = ttc_pdu_more(ts, rec);
                    more->joined = (guint8 *)wmem_memdup(wmem_file_scope(), s->pending, (size_t)e);
                    more->joined_len = (guint32)e;
                    more->joined_prefix = prefix;
                    rec->body_off = e - (gint)prefix;
                    s->state = st;
                    /* the latest row's values may point into the joined
                     * bytes: kept (copied) before they are freed */
                    state_keep(s);
                    pending_drop(s);
                    if (stop == STOP_CALL_DATA) {
                        go_opaque(ts, s, dir, STOP_CALL_DATA, rec->body_undecoded);
                        rec->stop = STOP_CALL_DATA;
                        rec->stop_off = rec->body_off;
                    }
                }
            }
        } else {
            rec->body_off = 0;
        }

        if (rec->body_off >= 0 && rec->stop_off < 0) {
            st = s->state;
            off = decode_range(payload, rec->body_off, end, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop, FALSE);
            s->state = st;
            if (cut && (stop == STOP_NEED_MORE || stop == STOP_END))
                stop = STOP_CUT;       /* what follows the cut is unknown */
            rec->stop = (guint)stop;
            rec->stop_off = stop == STOP_END ? -1 : off;
            if (stop == STOP_NEED_MORE) {
                pending_drop(s);
                if (!pending_append(s, payload, off, (guint32)(len - off))) {
                    drop_pending(ts, s, dir, rec, (guint32)(len - off), TRUE);
                    rec->stop_off = off;
                }
            } else if (stop != STOP_END) {
                go_opaque(ts, s, dir, stop, rec->body_undecoded);
            }
        }
        /* Recovery: a response not decoded from here on may still end with
         * its end-of-call status; decoding resumes there. */
        if (dir == SQLNET_TO_CLIENT && rec->stop == STOP_BAD && rec->stop_off >= 0 && ts->resp) {
            gint at = find_final_oer(payload, rec->stop_off, end, &s->state, pinfo);
            if (at >= 0) {
                stop_t stop2;
                st = s->state;
                decode_range(payload, at, end, &st, NULL, pinfo, dir, ts, sess, rec, TRUE, &stop2, FALSE);
                if (stop2 == STOP_END) {
                    ttc_pdu_more(ts, rec)->resync_off = at;
                    s->state = st;
                    s->opaque = FALSE;      /* at a message boundary again */
                }
            }
        }
        state_keep(s);
        /* 23ai end of response: the flagged packet is the last of it. */
        if (dir == SQLNET_TO_CLIENT && (data_flags & TNS_DF_END_OF_RESPONSE) && ts->resp) {
            rec->completes = TRUE;
            close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
        }
    }

    /* Display (every pass): decode again from the record. */
    seen = ttc_pdu_seen(ts, rec);
    if (ts->inferred_frame == pinfo->num && ttc_pdu_start_dialect(ts, rec)) {
        const ttc_dialect_t *d = ttc_pdu_start_dialect(ts, rec);
        char ptr[24] = "";
        if (d->native)
            snprintf(ptr, sizeof(ptr), ", %u-byte pointers", d->ptr_width ? d->ptr_width : 1u);
        expert_add_info_format(pinfo, ti, &ei_inferred,
                               "No TTC negotiation in the capture: integer encoding and field version assumed "
                               "for this conversation from the structure of this %s: %s integers%s, field "
                               "version %u", dir == SQLNET_TO_SERVER ? "call" : "reply",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
        proto_item_append_text(ti, " [dialect inferred: %s integers%s, field version %u]",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
    }
    if (seen->reinferred_from && ttc_pdu_start_dialect(ts, rec)) {
        const ttc_dialect_t *d = ttc_pdu_start_dialect(ts, rec);
        char ptr[24] = "";
        if (d->native)
            snprintf(ptr, sizeof(ptr), ", %u-byte pointers", d->ptr_width ? d->ptr_width : 1u);
        expert_add_info_format(pinfo, ti, &ei_reinferred,
                               "The TTC dialect inferred at frame %u does not fit this %s: %s integers%s, "
                               "field version %u from here on", seen->reinferred_from,
                               dir == SQLNET_TO_SERVER ? "call" : "reply",
                               d->native ? "native (OCI)" : "universal (thin)", ptr, d->fv);
    }
    if (seen->cursor_dropped) {
        expert_add_info(pinfo, ti, &ei_cursor_cap);
        proto_item_append_text(ti, " [cursor %u not remembered: %u cursors kept]",
                               seen->cursor_dropped == G_MAXUINT32 ? 0 : seen->cursor_dropped, ts->ncursors);
    }
    if (seen->too_long && rec->too_much_total)
        expert_add_info_format(pinfo, ti, &ei_too_long,
                               "TTC message not decoded: it would take the bytes held for unfinished "
                               "messages of all connections above their limit");
    else if (seen->too_long) {
        expert_add_info_format(pinfo, ti, &ei_too_long,
                               "TTC message not decoded: too large or collected over too many packets");
        proto_item_append_text(ti, " [message of %u bytes so far not collected; limits %u bytes, %u bytes of "
                               "decoding work]", seen->too_long, TTC_MAX_PENDING, TTC_MAX_PENDING_WORK);
    }
    if (!tree)
        return;
    wanted = display_decode_wanted(tree, pinfo, dir);
    ttc_pdu_start_get(ts, rec, &st);
    if (seen->joined) {
        tvbuff_t *jt = tvb_new_child_real_data(payload, seen->joined, seen->joined_len, seen->joined_len);
        add_new_data_source(pinfo, jt, "Reassembled TTC message");
        proto_tree_add_item(tt, hf_continuation, payload, 0, MIN((gint)(seen->joined_len - seen->joined_prefix), end), ENC_NA);
        if (wanted)
            decode_range(jt, 0, (gint)seen->joined_len, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, TRUE);
    }
    if (rec->body_off >= 0 && wanted) {
        gint stop_at = rec->stop_off >= 0 ? rec->stop_off : end;
        if (rec->body_off < stop_at)
            decode_range(payload, rec->body_off, stop_at, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, FALSE);
    }
    if (rec->stop_off >= 0 && !(seen->joined == NULL && rec->body_off < 0 && rec->stop == STOP_NEED_MORE))
        add_stop_items(tt, payload, pinfo, rec->stop_off, seen->resync_off, (stop_t)rec->stop, rec->body_undecoded,
                       ttc_pdu_start_dialect(ts, rec));
    if (seen->resync_off >= 0) {
        if (wanted) {
            ttc_pdu_start_get(ts, rec, &st);
            decode_range(payload, seen->resync_off, end, &st, tt, pinfo, dir, ts, sess, rec, FALSE, &stop, FALSE);
        }
    }
    else if (rec->stop == STOP_NEED_MORE)
        proto_tree_add_item(tt, hf_continuation, payload, 0, end, ENC_NA);
}

/* Record lookup for metrics.c (the request or response of this PDU). */
gboolean
ttc_pdu_lookup(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *payload, ttc_request_t **req,
               ttc_response_t **resp, gboolean *completes, gboolean *carries_call)
{
    ttc_pdu_rec_t *rec = sess->ttc ? rec_get((const ttc_session_t *)sess->ttc, pinfo, payload) : NULL;
    if (!rec)
        return FALSE;
    *req = rec->server ? NULL : rec->of.req;
    *resp = rec->server ? rec->of.resp : NULL;
    *completes = rec->completes;
    *carries_call = rec->carries_call;
    return TRUE;
}
gboolean
ttc_pdu_starts_request(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *payload)
{
    ttc_pdu_rec_t *rec = sess->ttc ? rec_get((const ttc_session_t *)sess->ttc, pinfo, payload) : NULL;
    return rec && rec->starts_request;
}

int hf_ttc_msg = -1;
int hf_ttc_cursor = -1;
int hf_ttc_token = -1;
int hf_ttc_sql = -1;
int hf_ttc_sql_id = -1;


void
ttc_add_sql(proto_tree *tree, tvbuff_t *tvb, gint start, gint len, const char *sql)
{
    char id[SQLNET_SQL_ID_LEN + 1];

    if (!tree || !sql)
        return;
    proto_tree_add_string(tree, hf_ttc_sql, tvb, start, len, sql);
    if (proto_field_is_referenced(tree, hf_ttc_sql_id)) {
        sqlnet_sql_id(sql, strlen(sql), id);
        proto_item_set_generated(proto_tree_add_string(tree, hf_ttc_sql_id, tvb, start, len, id));
    }
}

void
ttc_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_ttc_msg, { "TTC message", "sqlnet.ttc.msg", FT_UINT8, BASE_DEC, VALS(ttc_msg_type_vals), 0x0, NULL, HFILL } },
        { &hf_ttc_cursor, { "Cursor", "sqlnet.cursor", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Cursor id of the call or of its end-of-call status", HFILL } },
        { &hf_ttc_token, { "Token", "sqlnet.ttc.token", FT_UINT64, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ttc_sql, { "SQL", "sqlnet.sql", FT_STRING, BASE_NONE, NULL, 0x0,
            "SQL text of the statement: on the call that carries it, and generated on the later calls and "
            "the responses of the same cursor", HFILL } },
        { &hf_ttc_sql_id, { "SQL_ID", "sqlnet.sql_id", FT_STRING, BASE_NONE, NULL, 0x0,
            "Oracle's SQL_ID of the SQL text (as V$SQL.SQL_ID shows it): next to every sqlnet.sql", HFILL } },
        { &hf_ttc, { "TTC", "sqlnet.ttc", FT_NONE, BASE_NONE, NULL, 0x0,
            "Two-Task Common messages carried in this DATA packet", HFILL } },
        { &hf_continuation, { "Continuation of a TTC message", "sqlnet.ttc.continuation", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bytes of a message that began in an earlier TNS packet", HFILL } },
        { &hf_continues, { "TTC message continues in the next packet", "sqlnet.ttc.continues", FT_BYTES, BASE_NONE, NULL, 0x0,
            NULL, HFILL } },
        { &hf_call_data, { "Call data (binds/defines)", "sqlnet.ttc.call_data", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bind or define data of the call, not decoded", HFILL } },
        { &hf_undecoded, { "Undecoded TTC data", "sqlnet.ttc.undecoded", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cut, { "TTC data cut by the capture", "sqlnet.ttc.cut", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bytes of a TNS packet the capture's snaplen cut short (or of the packets after it in the same round trip), "
            "not decoded", HFILL } },
    };
    static gint *ett[] = { &ett_ttc };
    static ei_register_info ei[] = {
        { &ei_undecoded, { "sqlnet.ttc.not_decoded", PI_UNDECODED, PI_NOTE,
            "TTC message not decoded; decoding resumes at the next request or response", EXPFILL } },
        { &ei_too_long, { "sqlnet.ttc.too_long", PI_PROTOCOL, PI_WARN,
            "TTC message too long to collect", EXPFILL } },
        { &ei_cursor_cap, { "sqlnet.limit.cursors", PI_PROTOCOL, PI_WARN,
            "Cursor cap of this connection reached (preference sqlnet.max_cursors): cursor not remembered, its statement text is not shown on later calls", EXPFILL } },
        { &ei_capture_cut, { "sqlnet.ttc.capture_cut", PI_PROTOCOL, PI_WARN,
            "TNS packet cut short by the capture (snaplen): the round trip is partial", EXPFILL } },
        { &ei_inferred, { "sqlnet.ttc.dialect_inferred", PI_PROTOCOL, PI_NOTE,
            "No TTC negotiation in the capture: integer encoding and field version assumed for this conversation from the structure of this call or reply", EXPFILL } },
        { &ei_reinferred, { "sqlnet.ttc.dialect_changed", PI_PROTOCOL, PI_NOTE,
            "No TTC negotiation in the capture: the inferred integer encoding or field version does not fit this call or reply; another is taken from here on", EXPFILL } },
    };
    expert_module_t *expert;

    proto_ttc_layer = proto;
    register_init_routine(ttc_pending_init);
    register_cleanup_routine(ttc_pending_cleanup);
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
}
