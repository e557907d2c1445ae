/* tns_foreign.c - other protocols on an Oracle port: a conversation
 * whose first payload is not TNS (TLS, SSH, HTTP or anything else) is given
 * back to TCP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"

/* ---- other protocols on an Oracle port ---------------------------------- */

/* What the first payload of a conversation whose SYN was captured says. */
typedef enum {
    FIRST_UNKNOWN = 0,     /* not decided (no SYN in the capture, or no payload yet) */
    FIRST_TNS,
    FIRST_FOREIGN,         /* not TNS: given back to TCP (heuristics, then data) */
    FIRST_TLS,
    FIRST_SSH,
    FIRST_HTTP
} sqlnet_first_t;

static dissector_handle_t tls_handle, ssh_handle, http_handle;
static int proto_tcp_id = -1;

/* The capture has this TCP conversation's SYN: its first payload is its start. */
static gboolean
tcp_start_seen(packet_info *pinfo)
{
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    const struct tcp_analysis *tcpd;

    if (!conv || proto_tcp_id < 0)
        return FALSE;
    tcpd = (const struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp_id);
    return tcpd != NULL && tcpd->server_port != 0;
}

/* A TNS packet can start here: a valid header (type, length, zero header
 * checksum; a 16-bit one with a zero packet checksum, or a 32-bit one), and
 * for a CONNECT or ACCEPT a plausible version.  Loose on purpose: scanners
 * and old clients send CONNECTs whose connect data starts with blanks.  Of
 * a payload cut by the snaplen before its type nothing can be told. */
static gboolean
first_payload_is_tns(tvbuff_t *tvb, packet_info *pinfo _U_)
{
    guint captured = tvb_captured_length(tvb);
    guint8 type;
    gboolean h16, h32;

    if (captured < TNS_HDR_LEN)
        return captured < tvb_reported_length(tvb);
    if (tvb_get_ntohs(tvb, 6) != 0)
        return FALSE;
    h16 = tvb_get_ntohs(tvb, 2) == 0 && tns_header_valid(tvb, 0, 2);
    h32 = tvb_get_ntohs(tvb, 0) == 0 && tns_header_valid(tvb, 0, 4);
    if (!h16 && !h32)
        return FALSE;
    type = tvb_get_uint8(tvb, 4);
    if ((type == TNS_TYPE_CONNECT || type == TNS_TYPE_ACCEPT) && captured >= 10)
        return TNS_VERSION_PLAUSIBLE(tvb_get_ntohs(tvb, 8));
    return TRUE;
}

static gboolean
starts_with(tvbuff_t *tvb, const char *text)
{
    gint n = (gint)strlen(text);
    return tvb_captured_length(tvb) >= (guint)n && tvb_memeql(tvb, 0, (const guint8 *)text, n) == 0;
}

static sqlnet_first_t
first_payload_verdict(tvbuff_t *tvb, packet_info *pinfo)
{
    static const char *const http_starts[] = {
        "GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ", "CONNECT ", "PATCH ", "TRACE ", "HTTP/1."
    };
    guint i;

    if (first_payload_is_tns(tvb, pinfo))
        return FIRST_TNS;
    /* TLS record: handshake (0x16) of version 3.x (SSL 3.0 to TLS 1.3) */
    if (tvb_captured_length(tvb) >= 3 && tvb_get_uint8(tvb, 0) == 0x16 && tvb_get_uint8(tvb, 1) == 0x03 &&
        tvb_get_uint8(tvb, 2) <= 0x04)
        return FIRST_TLS;
    if (starts_with(tvb, "SSH-"))
        return FIRST_SSH;
    for (i = 0; i < G_N_ELEMENTS(http_starts); i++)
        if (starts_with(tvb, http_starts[i]))
            return FIRST_HTTP;
    return FIRST_FOREIGN;
}

/* A conversation that does not start with TNS is not ours: return 0 so that
 * TCP goes on to its heuristics (TLS and HTTP have enabled ones) and then
 * data.  A TLS, SSH or HTTP conversation gets that protocol as its
 * conversation dissector, which TCP tries first for the later segments
 * (SSH has no heuristic: in one pass its first segment stays data).  Returns
 * -1 when the conversation is TNS, or when its start is not in the capture. */
int
foreign_protocol(tvbuff_t *tvb, packet_info *pinfo, sqlnet_session_t *sess)
{
    dissector_handle_t handle = NULL;
    conversation_t *conv;

    if (!PINFO_FD_VISITED(pinfo) && sess->first_verdict == FIRST_UNKNOWN && tvb_reported_length(tvb) > 0 &&
        tcp_start_seen(pinfo)) {
        sess->first_verdict = (guint8)first_payload_verdict(tvb, pinfo);
        switch (sess->first_verdict) {
        case FIRST_TLS:             /* TLS, through tls.c's watch for undecrypted TNS */
            handle = tns_layer_hooks->tls_watch() ? tns_layer_hooks->tls_watch() : tls_handle;
            break;
        case FIRST_SSH: handle = ssh_handle; break;
        case FIRST_HTTP: handle = http_handle; break;
        default: break;
        }
        conv = find_conversation_pinfo(pinfo, 0);
        if (handle && conv && handle != tls_handle && sess->first_verdict == FIRST_TLS)
            /* the watch from the next frame on: TLS's heuristic, which takes this
             * ClientHello, makes itself the dissector from this frame on */
            conversation_set_dissector_from_frame_number(conv, pinfo->num + 1, handle);
        else if (handle && conv)
            conversation_set_dissector(conv, handle);
    }
    switch (sess->first_verdict) {
    case FIRST_UNKNOWN:
    case FIRST_TNS:
        return -1;
    case FIRST_TLS:
        /* What TLS decrypts and hands to sqlnet is TNS (a TCPS listener). */
        return proto_is_frame_protocol(pinfo->layers, "tls") ? -1 : 0;
    default:
        return 0;
    }
}

void
tns_handoff(void)
{
    tls_handle = find_dissector("tls");
    ssh_handle = find_dissector("ssh");
    http_handle = find_dissector("http");
    proto_tcp_id = proto_get_id_by_filter_name("tcp");
}
