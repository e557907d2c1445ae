/* ttc_decode.c - a range of TTC messages through the message
 * decoders, message by message; on the first pass what each tells goes to its
 * request or response (ttc_pairing.c).  And the search, after an undecoded
 * stretch of a response, for its final end-of-call status.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "ttc_internal.h"

/* Decode messages of [off, end) of tvb.  Returns the stop offset. */
gint
decode_range(tvbuff_t *tvb, gint off, gint end, ttc_state_t *st, proto_tree *tree,
             packet_info *pinfo, sqlnet_dir_t dir, ttc_session_t *ts,
             const sqlnet_session_t *sess, ttc_pdu_rec_t *rec, gboolean first_pass,
             stop_t *stop, gboolean one_message)
{
    /* Decoded values live as long as the packet; what later packets need
     * (a describe, the state at the end of the packet) is copied out. */
    wmem_allocator_t *scope = pinfo->pool;
    guint n = 0;
    ttc_rd_t view;                    /* the range's bytes seen once (ttc_rd_init_view) */

    *stop = STOP_END;
    ttc_rd_init_view(&view, tvb, off, end, st->dialect);
    view.runs = first_pass && !tree && !one_message;
    while (off < end) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        ttc_state_t tmp = *st;

        memset(&res, 0, sizeof(res));
        r = view;                     /* the same bytes in place, from here */
        r.off = off;
        r.d = st->dialect;
        /* The first pass finds message boundaries without a tree; display
         * passes decode ranges already known to hold whole messages. */
        if (dir == SQLNET_TO_SERVER)
            ttc_decoders->decode_client(&r, tree, pinfo, &tmp, &res, scope);
        else
            ttc_decoders->decode_server(&r, tree, pinfo, &tmp, &res, scope);
        if (r.need_more) {
            *stop = STOP_NEED_MORE;
            return off;
        }
        if (r.bad) {
            *stop = STOP_BAD;
            return off;
        }
        if (first_pass && tmp.describe && tmp.describe != st->describe)
            tmp.describe = describe_keep(tmp.describe);
        *st = tmp;
        if (first_pass) {
            if (dir == SQLNET_TO_SERVER)
                apply_client_result(ts, sess, pinfo, &res, rec);
            else
                apply_server_result(ts, sess, pinfo, &res, r.off - off, st, rec);
            st->dialect = ts->dialect_ptr;
        } else if (res.dialect_update) {
            /* Display passes start from the state at the packet's start: a
             * negotiation followed by more messages in one packet (ojdbc's
             * PRO, cookie, DTY and call) changes the dialect of the rest. */
            ttc_dialect_t *d = wmem_new(scope, ttc_dialect_t);
            resolve_dialect(d, sess, &res.dialect);
            st->dialect = d;
        }
        off = r.off;
        if (res.stop) {
            if (res.body_undecoded && rec)
                rec->body_undecoded = TRUE;
            *stop = STOP_CALL_DATA;
            return off;
        }
        if (one_message || ++n > 1000000)
            break;
    }
    return off;
}

/* Candidates tried per packet when looking for a final end-of-call status. */
#define MAX_OER_CANDIDATES 4096

/* After an undecoded stretch of a response: the offset of an end-of-call
 * status (OER) that decodes and ends the packet (alone, or before the
 * end-of-response message), -1 if none.  A response's final OER names the
 * cursor and the cumulative row count, which later calls need. */
gint
find_final_oer(tvbuff_t *tvb, gint from, gint end, const ttc_state_t *start, packet_info *pinfo)
{
    gint p;
    guint tries = 0;

    for (p = from; p < end && tries < MAX_OER_CANDIDATES; p++) {
        ttc_rd_t r;
        ttc_msg_result_t res;
        ttc_state_t st = *start;

        if (tvb_get_uint8(tvb, p) != TTC_MSG_ERROR)
            continue;
        tries++;
        memset(&res, 0, sizeof(res));
        ttc_rd_init(&r, tvb, p, end, start->dialect);
        r.strict = TRUE;
        ttc_decoders->decode_server(&r, NULL, pinfo, &st, &res, pinfo->pool);
        if (!ttc_rd_ok(&r) || !res.has_oer)
            continue;
        if (r.off == end || (r.off + 1 == end && tvb_get_uint8(tvb, r.off) == TTC_MSG_END_OF_RESPONSE))
            return p;
    }
    return -1;
}
