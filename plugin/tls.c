/* tls.c - SQL*Net inside TLS (TCPS).
 *
 * Wireshark's TLS dissector decrypts application data when it has the
 * session secrets (a key log file, or secrets embedded in the pcapng) and
 * hands the plaintext to the dissector registered for the server port in the
 * "tls.port" table, or first to the heuristics on "tls".  sqlnet takes both:
 * the TLS ports 1522 and 2484 (preference "TLS ports") and, on any port, a
 * TLS conversation whose first decrypted record starts with a TNS CONNECT.
 *
 * The plaintext goes through the same TNS framing as TCP (tns_dissect_tcp():
 * tcp_dissect_pdus() works on the decrypted stream, TLS reassembles a TNS
 * packet that spans records the way TCP does across segments) and the same
 * conversation (TLS keeps the TCP addresses and ports in pinfo), so every
 * field, tap and report works as over TCP.  What TLS passes as dissector data
 * (a pointer to its application handle in 4.0, a struct tlsinfo from 4.2) is
 * not TCP's tcpinfo: the TNS layer gets NULL, as for a segment without TCP
 * information.  The TCP tap that counts response segments sees the TCP
 * segments that carried the TLS records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "tls.h"

#define SQLNET_TLS_DEFAULT_PORTS "1522,2484"

static int proto_sqlnet_tls = -1;
static dissector_handle_t sqlnet_tls_handle;

/* Decrypted application data of a TLS conversation sqlnet owns. */
static int
dissect_sqlnet_tls(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    if (!PINFO_FD_VISITED(pinfo))
        session_get(pinfo)->tls = TRUE;
    return tns_dissect_tcp(tvb, pinfo, tree, NULL);
}

/* A response of a TLS conversation, keyed (session->tls_gaps) by the frame
 * after its request: the server segments from there up to the frame where
 * sqlnet got its first TLS record carried the start of that record. */
typedef struct {
    ttc_response_t *resp;
    guint32 open_frame;        /* frame where sqlnet got the first record */
} tls_gap_t;

static void
count_segment(ttc_response_t *resp, packet_info *pinfo)
{
    if (pinfo->num < resp->first_frame) {
        resp->first_frame = pinfo->num;
        resp->first_time = pinfo->abs_ts;
    }
    resp->tap_segments++;
    resp->tap_upto = pinfo->num;
}

/* Listener on the "tcp" tap: a server segment with payload of a TLS
 * conversation sqlnet owns that carried the start of a response's first TLS
 * record (TCP reassembled the record before TLS handed it over, so sqlnet did
 * not see the segment).  Taps run after a frame is dissected: in one pass the
 * response is not open yet and the segment waits in the session (the carry)
 * for the response to open; when taps run on a later pass only (tshark -2),
 * the response is found by its gap. */
static tap_packet_status
tls_tcp_segment_tap(void *tapdata _U_, packet_info *pinfo, epan_dissect_t *edt _U_,
                    const void *data, tap_flags_t flags _U_)
{
    const struct tcpheader *th = (const struct tcpheader *)data;
    conversation_t *conv;
    sqlnet_session_t *sess;
    ttc_session_t *ts;
    tls_gap_t *gap;

    if (!th || !th->th_have_seglen || th->th_seglen == 0)
        return TAP_PACKET_DONT_REDRAW;
    conv = find_conversation(pinfo->num, &th->ip_src, &th->ip_dst, CONVERSATION_TCP,
                             th->th_sport, th->th_dport, 0);
    if (!conv)
        return TAP_PACKET_DONT_REDRAW;
    sess = (sqlnet_session_t *)conversation_get_proto_data(conv, proto_sqlnet_tls);
    if (!sess || !sess->tls || !sess->ttc || !sess->srv_known)
        return TAP_PACKET_DONT_REDRAW;
    if (th->th_sport != sess->srv_port || !addresses_equal(&th->ip_src, &sess->srv_addr))
        return TAP_PACKET_DONT_REDRAW;
    if (sess->tls_gaps) {
        gap = (tls_gap_t *)wmem_tree_lookup32_le((wmem_tree_t *)sess->tls_gaps, pinfo->num);
        if (gap && pinfo->num < gap->open_frame) {
            if (pinfo->num > gap->resp->tap_upto)
                count_segment(gap->resp, pinfo);
            return TAP_PACKET_DONT_REDRAW;
        }
    }
    ts = (ttc_session_t *)sess->ttc;
    if (ts->resp || !ts->waiting || pinfo->num <= sess->tls_carry_upto)
        return TAP_PACKET_DONT_REDRAW;
    sess->tls_carry_upto = pinfo->num;
    if (sess->tls_carry_segments == 0) {
        sess->tls_carry_first = pinfo->num;
        sess->tls_carry_time = pinfo->abs_ts;
    }
    sess->tls_carry_segments++;
    sess->tls_carry_last = pinfo->num;
    return TAP_PACKET_DONT_REDRAW;
}

void
sqlnet_tls_response_opened(sqlnet_session_t *sess, ttc_response_t *resp)
{
    tls_gap_t *gap;

    if (!sess->tls || !resp)
        return;
    if (resp->req && resp->req->frame < resp->first_frame) {
        if (!sess->tls_gaps)
            sess->tls_gaps = wmem_tree_new(wmem_file_scope());
        gap = wmem_new(wmem_file_scope(), tls_gap_t);
        gap->resp = resp;
        gap->open_frame = resp->first_frame;
        wmem_tree_insert32((wmem_tree_t *)sess->tls_gaps, resp->req->frame + 1, gap);
    }
    if (sess->tls_carry_segments && sess->tls_carry_first < resp->first_frame) {
        resp->first_frame = sess->tls_carry_first;
        resp->first_time = sess->tls_carry_time;
        resp->tap_segments += sess->tls_carry_segments;
        resp->tap_upto = MAX(resp->tap_upto, sess->tls_carry_last);
    }
    sess->tls_carry_segments = 0;
    sess->tls_carry_first = sess->tls_carry_last = 0;
}

/* TLS application data on any port: a TNS CONNECT (or ACCEPT) claims the TLS
 * session, so that its later records come to sqlnet without the heuristic. */
static sqlnet_heur_result_t
dissect_sqlnet_tls_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    dissector_handle_t *app_handle = SQLNET_TLS_APP_HANDLE(data);

    if (!tns_looks_like_handshake(tvb, pinfo))
        return FALSE;
    if (app_handle)
        *app_handle = sqlnet_tls_handle;
    dissect_sqlnet_tls(tvb, pinfo, tree, NULL);
    return TRUE;
}

void
sqlnet_tls_register(int proto)
{
    proto_sqlnet_tls = proto;
    sqlnet_tls_handle = register_dissector(SQLNET_FILTER "_tls", dissect_sqlnet_tls, proto);
}

void
sqlnet_tls_handoff(void)
{
    dissector_add_uint_range_with_preference("tls.port", SQLNET_TLS_DEFAULT_PORTS, sqlnet_tls_handle);
    heur_dissector_add("tls", dissect_sqlnet_tls_heur, "Oracle SQL*Net over TLS (TNS CONNECT)",
                       "sqlnet_tls", proto_sqlnet_tls, HEURISTIC_ENABLE);
    {
        GString *err = register_tap_listener("tcp", &proto_sqlnet_tls, NULL, TL_REQUIRES_NOTHING, NULL,
                                             tls_tcp_segment_tap, NULL, NULL);
        if (err)
            g_string_free(err, TRUE);
    }
}
