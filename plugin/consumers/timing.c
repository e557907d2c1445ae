/* timing.c - where a round trip's time goes (issue 14).
 *
 * Between the last byte of one response and the last byte of the next, a
 * conversation's time is the client's own time before its call, the call's
 * bytes, the wait for the answer and the answer's bytes.  One network
 * round trip (RTT) hides in one of those gaps, and which one depends on
 * where the capture was taken:
 *   near the server: the request arrives as soon as the client sent it plus
 *     half an RTT, and the server's answer is on the wire at once, so the
 *     wait is the server's work and the RTT is in the client's gap (the
 *     answer travels to the client, the next call travels back);
 *   near the client: the client's gap is its own time, and the wait holds
 *     the RTT plus the server's work.
 * The parts (network, server, transfer, client, idle) therefore add up to
 * the measured time exactly: network = min(RTT, the gap that holds it);
 * but for the first call of a capture taken near the server, which has no
 * gap: its RTT happened before the capture saw the call and is added, so
 * that its elapsed time is the one the client lived.
 *
 * The client's gap (less the network part) is `client` when the previous
 * round trip of the conversation belongs to the same execution (same
 * statement execution number, not 0): the client working between the calls
 * of one piece of work, which the statement's elapsed time includes.
 * Otherwise it is `idle`: the time before a new piece of work (the first
 * call of an execution, a call outside one), kept apart (docs/time.md).
 *
 * The RTT: from the TCP handshake (Wireshark's own iRTT, SYN to the ACK of
 * the SYN/ACK, the same from either end); without the handshake, from ACK
 * timing: each side's data and the first ACK that covers it, the quickest
 * of each side kept (delayed ACKs only add); the larger of the two is the
 * RTT and says where the capture was taken (near the server the client's
 * ACKs take an RTT, the server's none).  With the handshake, where the
 * capture was taken comes from the ACKs too, or else from the first answer
 * (a PRO or ANO reply, no database work): near the server it leaves within
 * half an RTT of the call.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/conversation.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc.h"
#include "timing.h"

static int proto_tcp = -1;

static int hf_rtt = -1;
static int hf_rtt_source = -1;
static int hf_vantage = -1;
static int hf_t_network = -1;
static int hf_t_server = -1;
static int hf_t_transfer = -1;
static int hf_t_client = -1;
static int hf_t_idle = -1;

const value_string sqlnet_rtt_source_vals[] = {
    { SQLNET_RTT_UNKNOWN, "unknown" },
    { SQLNET_RTT_HANDSHAKE, "TCP handshake" },
    { SQLNET_RTT_ACKS, "ACK timing (no handshake in the capture)" },
    { 0, NULL }
};

const value_string sqlnet_vantage_vals[] = {
    { SQLNET_VANTAGE_UNKNOWN, "unknown" },
    { SQLNET_VANTAGE_SERVER, "near the server" },
    { SQLNET_VANTAGE_CLIENT, "near the client" },
    { 0, NULL }
};

/* ACK timing of one conversation, first pass (kept with the TTC session). */
typedef struct {
    guint32  data_end[2];      /* raw sequence number after a side's latest data */
    nstime_t data_time[2];
    gboolean pending[2];
    nstime_t quickest[2];      /* quickest ACK of each side's data */
    gboolean have[2];
    guint32  upto;             /* last frame taken */
} ack_timing_t;

/* What timing knows of one conversation (first pass): its network RTT, where
 * the capture was taken, the ACK samples.  Timing's own, kept in the TTC
 * session's opaque slot (ttc_session_t.timing), which only this file reads. */
typedef struct timing_conv {
    nstime_t rtt;
    guint8   rtt_source;       /* sqlnet_rtt_source_t */
    gboolean rtt_checked;      /* TCP's handshake RTT looked up (once) */
    guint8   vantage;          /* sqlnet_vantage_t */
    ack_timing_t *ack;         /* ACK samples, from the first frame the tap took */
    guint32  last_execution;   /* execution of the latest response closed (0: none) */
} timing_conv_t;

static timing_conv_t *
timing_conv(ttc_session_t *ts)
{
    if (!ts->timing)
        ts->timing = wmem_new0(wmem_file_scope(), timing_conv_t);
    return ts->timing;
}

static gboolean
nstime_positive(const nstime_t *t)
{
    return t->secs > 0 || (t->secs == 0 && t->nsecs > 0);
}

static gboolean
nstime_less(const nstime_t *a, const nstime_t *b)
{
    return nstime_cmp(a, b) < 0;
}

/* b - a, never negative (pipelined calls overlap their answers). */
static void
span(nstime_t *out, const nstime_t *b, const nstime_t *a)
{
    nstime_delta(out, b, a);
    if (out->secs < 0 || (out->secs == 0 && out->nsecs < 0))
        nstime_set_zero(out);
}

void
timing_note_packet(packet_info *pinfo, ttc_session_t *ts)
{
    conversation_t *conv;
    struct tcp_analysis *tcpd;
    timing_conv_t *tc;

    /* once: the handshake comes before any TTC packet, or not at all */
    if (PINFO_FD_VISITED(pinfo) || proto_tcp < 0)
        return;
    tc = timing_conv(ts);
    if (tc->rtt_checked)
        return;
    tc->rtt_checked = TRUE;
    conv = find_conversation_pinfo(pinfo, 0);
    if (!conv)
        return;
    /* TCP's own record of the conversation, read only (the handshake's iRTT
     * is set when the ACK of the SYN/ACK is seen; zero without a handshake). */
    tcpd = (struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp);
    if (tcpd && nstime_positive(&tcpd->ts_first_rtt)) {
        tc->rtt = tcpd->ts_first_rtt;
        tc->rtt_source = SQLNET_RTT_HANDSHAKE;
    }
}

/* The listener on "tcp": data and the ACKs that cover it, per side. */
static tap_packet_status
tcp_ack_tap(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data,
            tap_flags_t flags _U_)
{
    const struct tcpheader *th = (const struct tcpheader *)data;
    sqlnet_session_t *sess;
    ttc_session_t *ts;
    timing_conv_t *tc;
    ack_timing_t *at;
    int side, other;

    /* Taps run after the frame is dissected (visited is already set): each
     * frame is taken once, in order, by its number (`upto`). */
    if (!th)
        return TAP_PACKET_DONT_REDRAW;
    sess = session_of_tcp_segment(pinfo, th, (sqlnet_tcp_tap_cache_t *)tapdata);
    if (!sess)
        return TAP_PACKET_DONT_REDRAW;
    ts = (ttc_session_t *)sess->ttc;
    /* not before the frame that made the session: a single pass cannot see
     * the session there, and the second pass of -2 must take what it takes */
    if (pinfo->num < ts->ack_from)
        return TAP_PACKET_DONT_REDRAW;
    tc = timing_conv(ts);
    at = tc->ack;
    if (!at) {
        at = wmem_new0(wmem_file_scope(), ack_timing_t);
        tc->ack = at;
    }
    if (pinfo->num <= at->upto)
        return TAP_PACKET_DONT_REDRAW;
    at->upto = pinfo->num;
    side = (th->th_sport == sess->srv_port && addresses_equal(&th->ip_src, &sess->srv_addr))
           ? SQLNET_TO_CLIENT : SQLNET_TO_SERVER;
    other = 1 - side;
    if ((th->th_flags & TH_ACK) && at->pending[other] && (gint32)(th->th_rawack - at->data_end[other]) >= 0) {
        nstime_t sample;
        span(&sample, &pinfo->abs_ts, &at->data_time[other]);
        if (!at->have[other] || nstime_less(&sample, &at->quickest[other]))
            at->quickest[other] = sample;
        at->have[other] = TRUE;
        at->pending[other] = FALSE;
    }
    if (th->th_have_seglen && th->th_seglen > 0) {
        at->data_end[side] = th->th_rawseq + th->th_seglen;
        at->data_time[side] = pinfo->abs_ts;
        at->pending[side] = TRUE;
    }
    /* Both sides' data acknowledged: the slower side's quickest ACK is the
     * RTT (when the handshake did not give one), and its side says where the
     * capture was taken. */
    if (at->have[0] && at->have[1]) {
        gboolean server_data_slow = nstime_less(&at->quickest[SQLNET_TO_SERVER], &at->quickest[SQLNET_TO_CLIENT]);
        const nstime_t *rtt = server_data_slow ? &at->quickest[SQLNET_TO_CLIENT] : &at->quickest[SQLNET_TO_SERVER];
        if (tc->rtt_source != SQLNET_RTT_HANDSHAKE) {
            tc->rtt = *rtt;
            tc->rtt_source = SQLNET_RTT_ACKS;
        }
        if (tc->vantage == SQLNET_VANTAGE_UNKNOWN)
            tc->vantage = server_data_slow ? SQLNET_VANTAGE_SERVER : SQLNET_VANTAGE_CLIENT;
    }
    return TAP_PACKET_DONT_REDRAW;
}

/* Split a round trip's stretch into its parts with the conversation's RTT
 * and capture point as they stand now (the ACK tap has taken every frame
 * before this one). */
static void
split(timing_conv_t *tc, sqlnet_timing_t *t)
{
    /* With the RTT from the handshake but no verdict from the ACKs yet:
     * the first answer (no database work) tells where the capture is. */
    if (tc->vantage == SQLNET_VANTAGE_UNKNOWN && tc->rtt_source != SQLNET_RTT_UNKNOWN) {
        nstime_t twice;
        nstime_sum(&twice, &t->wait, &t->wait);
        tc->vantage = nstime_less(&twice, &tc->rtt) ? SQLNET_VANTAGE_SERVER : SQLNET_VANTAGE_CLIENT;
    }
    nstime_set_zero(&t->network);
    nstime_set_zero(&t->idle);
    t->server = t->wait;
    t->client = t->gap;
    t->rtt_known = tc->rtt_source != SQLNET_RTT_UNKNOWN;
    t->rtt = tc->rtt;
    t->rtt_source = tc->rtt_source;
    t->vantage = tc->vantage;
    if (t->rtt_known) {
        nstime_t *holder = tc->vantage == SQLNET_VANTAGE_CLIENT ? &t->server : &t->client;
        /* The first call of a capture taken near the server: its RTT was
         * before the capture saw it (no gap to take it from). */
        if (tc->vantage == SQLNET_VANTAGE_CLIENT || t->has_gap) {
            t->network = nstime_less(holder, &tc->rtt) ? *holder : tc->rtt;
            nstime_delta(holder, holder, &t->network);
        } else {
            t->network = tc->rtt;      /* added: the client lived it */
        }
    }
    /* the client's own time between the calls of one execution, or idle */
    if (!t->in_execution) {
        t->idle = t->client;
        nstime_set_zero(&t->client);
    }
}

void
timing_close_response(packet_info *pinfo _U_, ttc_session_t *ts, ttc_response_t *resp)
{
    const ttc_request_t *req = resp->req;
    timing_conv_t *tc;
    sqlnet_timing_t t;
    nstime_t req_xfer, resp_xfer;

    if (!req || resp->timing.known)
        return;
    sqlnet_timing_get(&resp->timing, &t);
    tc = timing_conv(ts);
    {
        nstime_t req_first = ttc_req_first_time(req), req_last = ttc_req_last_time(req);
        nstime_t resp_first = ttc_resp_first_time(resp), resp_last = ttc_resp_last_time(resp);
        span(&req_xfer, &req_last, &req_first);
        span(&t.wait, &resp_first, &req_last);
        span(&resp_xfer, &resp_last, &resp_first);
    }
    t.has_gap = req->has_prev_end;
    if (req->has_prev_end) {
        nstime_t req_first = ttc_req_first_time(req), prev_end = ttc_req_prev_end(req);
        span(&t.gap, &req_first, &prev_end);
    }
    else
        nstime_set_zero(&t.gap);
    nstime_sum(&t.transfer, &req_xfer, &resp_xfer);
    /* the gap is the client's within an execution (the previous round trip
     * closed on the conversation is of the same one), idle otherwise */
    t.in_execution = t.has_gap && req->execution != 0 && tc->last_execution == req->execution;
    tc->last_execution = req->execution;
    /* No ACK tap has run on this conversation yet: the first pass of a
     * two-pass run (tshark -2 runs no taps then), or a response at the
     * conversation's first frame.  The RTT from ACK timing is not known:
     * split now, and again where the second pass reaches this frame with the
     * ACK tap's state of a single pass (timing_revisit). */
    t.provisional = tc->ack == NULL;
    split(tc, &t);
    t.known = TRUE;
    ttc_response_set_timing(resp, &t);
}

void
timing_revisit(packet_info *pinfo, ttc_session_t *ts, ttc_response_t *resp)
{
    sqlnet_timing_t t;
    timing_conv_t *tc;
    const ack_timing_t *at;

    /* once, in the pass that runs the ACK tap in frame order, at the frame
     * where a single pass split it (the tap has taken the frames before it,
     * not this one); never on a later random visit (GUI) */
    if (!resp->timing.known || !resp->timing.provisional)
        return;
    sqlnet_timing_get(&resp->timing, &t);
    tc = timing_conv(ts);
    at = tc->ack;
    if (!at || at->upto >= pinfo->num)
        return;
    t.provisional = FALSE;
    split(tc, &t);
    ttc_response_set_timing(resp, &t);
}

void
timing_add_fields(proto_tree *tree, tvbuff_t *tvb, const ttc_response_t *resp)
{
    sqlnet_timing_t whole;
    const sqlnet_timing_t *t = &whole;

    if (!tree || !resp->timing.known)
        return;
    sqlnet_timing_get(&resp->timing, &whole);
    if (t->rtt_known) {
        proto_item_set_generated(proto_tree_add_time(tree, hf_rtt, tvb, 0, 0, &t->rtt));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_rtt_source, tvb, 0, 0, t->rtt_source));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_vantage, tvb, 0, 0, t->vantage));
        proto_item_set_generated(proto_tree_add_time(tree, hf_t_network, tvb, 0, 0, &t->network));
    }
    proto_item_set_generated(proto_tree_add_time(tree, hf_t_server, tvb, 0, 0, &t->server));
    proto_item_set_generated(proto_tree_add_time(tree, hf_t_transfer, tvb, 0, 0, &t->transfer));
    proto_item_set_generated(proto_tree_add_time(tree, hf_t_client, tvb, 0, 0, &t->client));
    proto_item_set_generated(proto_tree_add_time(tree, hf_t_idle, tvb, 0, 0, &t->idle));
}

void
timing_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_rtt, { "Network round-trip time", "sqlnet.rtt", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "The conversation's network round-trip time (see sqlnet.rtt.source)", HFILL } },
        { &hf_rtt_source, { "RTT from", "sqlnet.rtt.source", FT_UINT8, BASE_DEC, VALS(sqlnet_rtt_source_vals), 0x0,
            NULL, HFILL } },
        { &hf_vantage, { "Capture taken", "sqlnet.capture_point", FT_UINT8, BASE_DEC, VALS(sqlnet_vantage_vals), 0x0,
            "Where the capture was taken, which decides where the network round trip shows", HFILL } },
        { &hf_t_network, { "Network time", "sqlnet.time.network", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "The round trip's network part: one RTT (less when the gap that holds it is shorter)", HFILL } },
        { &hf_t_server, { "Server time", "sqlnet.time.server", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "Request's last byte to response's first byte, less the network part when captured near the client", HFILL } },
        { &hf_t_transfer, { "Transfer time", "sqlnet.time.transfer", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "Request's first to last byte plus response's first to last byte", HFILL } },
        { &hf_t_client, { "Client time", "sqlnet.time.client", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "Previous response's last byte to this request's first byte, less the network part when captured near the server, "
            "when the previous round trip is of the same execution (else it is idle time, sqlnet.time.idle)",
            HFILL } },
        { &hf_t_idle, { "Idle time", "sqlnet.time.idle", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "The client's gap before a new piece of work (the first call of an execution, a call outside one): "
            "previous response's last byte to this request's first byte, less the network part when captured near "
            "the server; not part of any statement's elapsed time",
            HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}

void
timing_handoff(void)
{
    GString *err;

    proto_tcp = proto_get_id_by_filter_name("tcp");
    /* the tap data: the listener's sessions by TCP stream (session.c) */
    err = register_tap_listener("tcp", session_tcp_tap_cache_new(), NULL, TL_REQUIRES_NOTHING, NULL,
                                tcp_ack_tap, NULL, NULL);
    if (err)
        g_string_free(err, TRUE);
}
