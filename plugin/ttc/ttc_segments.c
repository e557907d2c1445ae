/* ttc_segments.c - the server's TCP segments of each response,
 * counted once per frame whoever sees the segment first: sqlnet when TCP
 * hands it over, the listener on the "tcp" tap when TCP keeps it inside a
 * reassembly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "ttc_internal.h"

/* The response a server frame belongs to: the open one, or (a revisit, a
 * tap in a later pass) the one whose frames it falls between. */
/* ttc_count_segment()'s per-frame marker (0: not counted yet). */
enum { SEG_LEN_KNOWN = 1, SEG_LEN_PENDING = 2 };

/* The response with the greatest cover_from at or before `frame` (the
 * later one of two with the same key), NULL if none. */
static ttc_response_t *
response_at_or_before(const ttc_session_t *ts, guint32 frame)
{
    guint32 lo = 0, hi = ts->nresponses;
    ttc_response_t *resp = NULL, *later;

    while (lo < hi) {                  /* the first with cover_from > frame */
        guint32 mid = lo + (hi - lo) / 2;
        if (ts->responses[mid]->cover_from <= frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0)
        resp = ts->responses[lo - 1];
    if (ts->responses_later) {
        later = (ttc_response_t *)wmem_tree_lookup32_le(ts->responses_later, frame);
        if (later && (!resp || later->cover_from >= resp->cover_from))
            resp = later;
    }
    return resp;
}

static ttc_response_t *
response_covering(ttc_session_t *ts, guint32 frame)
{
    ttc_response_t *resp = response_at_or_before(ts, frame);
    if (!resp || frame < resp->cover_from)
        return NULL;
    if (resp->last_frame && frame > resp->last_frame && resp->complete)
        return NULL;
    if (ts->resp != resp && resp->last_frame && frame > resp->last_frame)
        return NULL;
    return resp;
}

void
ttc_count_segment(packet_info *pinfo, ttc_session_t *ts, gboolean unseen, guint32 seglen)
{
    ttc_response_t *resp;

    /* once per frame, whichever of the dissector and the tap (in whichever
     * pass: tshark -2 runs taps on its second pass only) sees it first; the
     * largest segment from either (the dissector does not know a segment's
     * length when TCP hands it a reassembled PDU) */
    /* The marker: SEG_LEN_KNOWN once the segment's length has been counted,
     * SEG_LEN_PENDING while only the tap can still give it (one lookup more,
     * once, for those frames only). */
    switch (ttc_seg_mark(ts, pinfo->num)) {
    case SEG_LEN_KNOWN:
        return;
    case SEG_LEN_PENDING:
        if (seglen > 0) {
            ttc_seg_mark_set(ts, pinfo->num, SEG_LEN_KNOWN);
            resp = response_covering(ts, pinfo->num);
            if (resp && seglen > resp->largest_segment)
                resp->largest_segment = seglen;
            else if (!resp && !ts->resp && ts->wait_n > 0 && seglen > ts->pending_largest_segment)
                ts->pending_largest_segment = seglen;
        }
        return;
    default:
        break;
    }
    ttc_seg_mark_set(ts, pinfo->num, seglen > 0 ? SEG_LEN_KNOWN : SEG_LEN_PENDING);
    resp = response_covering(ts, pinfo->num);
    if (resp) {
        resp->segments++;
        if (seglen > resp->largest_segment)
            resp->largest_segment = seglen;
        if (unseen)                    /* part of a TNS packet (or TLS record) TCP reassembled */
            resp->multi_segment_packet = TRUE;
        if (pinfo->num < resp->first_frame) {
            resp->first_frame = pinfo->num;     /* a later pass that runs the taps (tshark -2) */
            resp->first_ns = sqlnet_ns_pack(&pinfo->abs_ts);
        }
        return;
    }
    if (ts->resp || ts->wait_n == 0)
        return;                        /* no answer awaited: not a response's */
    if (ts->pending_segments++ == 0) {
        ts->next_first_frame = pinfo->num;
        ts->next_first_time = pinfo->abs_ts;
    }
    ts->pending_unseen |= unseen;
    if (seglen > ts->pending_largest_segment)
        ts->pending_largest_segment = seglen;
}

/* A server segment that brings nothing beyond the highest sequence number
 * seen before it (in frame order: the tap sees every server segment, in each
 * pass that runs taps) is a retransmission, or a keep-alive's old byte: the
 * same bytes sent again, not one more segment of a response.  Marked as
 * counted, so that a later pass (or a retap) skips it too.  (The frame's
 * visited flag cannot tell the first pass here: it is set before the taps
 * run.) */
static gboolean
retransmitted(packet_info *pinfo, sqlnet_session_t *sess, const struct tcpheader *th)
{
    guint32 end = th->th_rawseq + th->th_seglen;
    ttc_session_t *ts = (ttc_session_t *)sess->ttc;
    gboolean fresh = ttc_seg_mark(ts, pinfo->num) == 0;

    if (fresh && sess->srv_seq_known && (gint32)(end - sess->srv_seq_next) <= 0) {
        ttc_seg_mark_set(ts, pinfo->num, SEG_LEN_KNOWN);
        return TRUE;
    }
    if (!sess->srv_seq_known || (gint32)(end - sess->srv_seq_next) > 0) {
        sess->srv_seq_next = end;
        sess->srv_seq_known = TRUE;
    }
    return FALSE;
}

/* The listener on "tcp": a server segment that TCP keeps inside a
 * reassembly never reaches sqlnet; it is counted here (with those that do,
 * once per frame: ttc_count_segment). */
static tap_packet_status
tcp_segment_tap(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_,
                const void *data, tap_flags_t flags _U_)
{
    const struct tcpheader *th = (const struct tcpheader *)data;
    sqlnet_session_t *sess;

    if (!th || !th->th_have_seglen || th->th_seglen == 0)
        return TAP_PACKET_DONT_REDRAW;
    sess = session_of_tcp_segment(pinfo, th, (sqlnet_tcp_tap_cache_t *)tapdata);
    if (!sess)
        return TAP_PACKET_DONT_REDRAW;
    if (th->th_sport != sess->srv_port || !addresses_equal(&th->ip_src, &sess->srv_addr))
        return TAP_PACKET_DONT_REDRAW;
    if (retransmitted(pinfo, sess, th))
        return TAP_PACKET_DONT_REDRAW;
    ttc_count_segment(pinfo, (ttc_session_t *)sess->ttc, TRUE, th->th_seglen);
    return TAP_PACKET_DONT_REDRAW;
}

void
ttc_handoff(void)
{
    /* the tap data: the listener's sessions by TCP stream (session.c) */
    GString *err = register_tap_listener("tcp", session_tcp_tap_cache_new(), NULL, TL_REQUIRES_NOTHING, NULL,
                                         tcp_segment_tap, NULL, NULL);
    if (err)
        g_string_free(err, TRUE);
}

void
ttc_note_segment(packet_info *pinfo, sqlnet_session_t *sess, guint32 seglen)
{
    if (PINFO_FD_VISITED(pinfo) || !session_ttc_active(sess, pinfo) ||
        session_direction(sess, pinfo) != SQLNET_TO_CLIENT)
        return;
    ttc_count_segment(pinfo, ttc_session_at(sess, pinfo), FALSE, seglen);
}
