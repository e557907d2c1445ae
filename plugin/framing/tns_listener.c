/* tns_listener.c - what the listener answers instead of an
 * ACCEPT: REFUSE, REDIRECT (and their data when it follows in a DATA packet),
 * RESEND.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"
#include "coltext.h"

/* The refuse text (REFUSE at 12, or the DATA packet after a 12-byte REFUSE):
 * the string and the TNS error of its ERR= (go-ora falls back to the CODE= of
 * ERROR=(...)). */
static void
add_refuse_text(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 data_len,
                proto_item *expert_on)
{
    const char *text = (const char *)tvb_get_string_enc(pinfo->pool, tvb, off, data_len, ENC_ASCII);
    const char *err = descriptor_value(pinfo->pool, text, "ERR");
    proto_item *pi;

    proto_tree_add_string(tree, hf_rf_data, tvb, off, data_len, text);
    if (!err)
        err = descriptor_value(pinfo->pool, text, "CODE");
    if (err && g_ascii_isdigit(*err)) {
        guint32 code = (guint32)strtoul(err, NULL, 10);
        pi = proto_tree_add_uint(tree, hf_rf_err, tvb, off, data_len, code);
        proto_item_set_generated(pi);
        expert_add_info(pinfo, pi, &ei_refused);   /* the code: sqlnet.refuse.err */
        sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " ERR=%u", code));
        return;
    }
    if (expert_on)
        expert_add_info(pinfo, expert_on, &ei_refused);
}

/* REFUSE (node-oracledb RefusePacket, python-oracledb, go-ora): 8 user
 * reason, 9 system reason, 10 data length (u16), 12 data.  A REFUSE of 12
 * bytes with a data length sends its text in the next DATA packet (node
 * reads it from there). */
void
dissect_refuse(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess, guint32 len)
{
    guint32 data_len = 0;
    proto_item *pi;

    if (!FITS(12, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "REFUSE shorter than its 12-byte header");
        return;
    }
    proto_tree_add_item(tree, hf_rf_user_reason, tvb, 8, 1, ENC_NA);
    proto_tree_add_item(tree, hf_rf_system_reason, tvb, 9, 1, ENC_NA);
    pi = proto_tree_add_item_ret_uint(tree, hf_rf_data_length, tvb, 10, 2, ENC_BIG_ENDIAN, &data_len);
    if (data_len > 0 && len == 12) {
        expert_add_info_format(pinfo, pi, &ei_deferred, "Refuse data follows in the next DATA packet");
        if (!PINFO_FD_VISITED(pinfo)) {
            sess->refuse_frame = pinfo->num;
            sess->refuse_data_deferred = TRUE;
            sess->refuse_data_len = data_len;
        }
        proto_tree_add_expert(tree, pinfo, &ei_refused, tvb, 0, len);
        return;
    }
    if (data_len > len - 12) {
        expert_add_info_format(pinfo, pi, &ei_bad_length,
                               "Refuse data length %u runs past the packet (%u bytes after offset 12)",
                               data_len, len - 12);
        data_len = len - 12;
    }
    if (data_len > 0)
        add_refuse_text(tvb, pinfo, tree, 12, data_len, pi);
    else
        proto_tree_add_expert(tree, pinfo, &ei_refused, tvb, 0, len);
    extra_bytes(tvb, pinfo, tree, 12 + data_len, len);
}

/* Offset of the first NUL in [off, off + len) of the captured bytes, -1 if
 * none (tvb_find_guint8 is deprecated from 4.4 on). */
static gint
find_nul(tvbuff_t *tvb, guint32 off, guint32 len)
{
    guint32 end = MIN(off + len, tvb_captured_length(tvb)), k;

    for (k = off; k < end; k++)
        if (tvb_get_uint8(tvb, k) == 0)
            return (gint)k;
    return -1;
}

/* Redirect data: the new address, and when it holds a NUL (header flag
 * NSPFRDS, "separation of connect data vs. connect address"), the connect
 * data the client sends to it after the NUL (python-oracledb splits at the
 * NUL, node-oracledb and go-ora when the flag is set). */
static void
add_redirect_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 data_len,
                  gboolean split_flag, proto_item *length_item)
{
    proto_item *pi;
    proto_tree *t;
    gint nul;
    guint32 addr_len;
    const char *addr, *host, *port;

    pi = proto_tree_add_item(tree, hf_rd_data, tvb, off, data_len, ENC_ASCII);
    t = proto_item_add_subtree(pi, ett_redirect_data);
    nul = find_nul(tvb, off, data_len);
    addr_len = nul >= 0 ? (guint32)nul - off : data_len;
    if (nul < 0 && split_flag)
        expert_add_info_format(pinfo, length_item ? length_item : pi, &ei_bad_length,
                               "Redirect flag NSPFRDS set but no NUL separates the address from the connect data");
    addr = (const char *)tvb_get_string_enc(pinfo->pool, tvb, off, addr_len, ENC_ASCII);
    proto_tree_add_string(t, hf_rd_address, tvb, off, addr_len, addr);
    host = descriptor_value(pinfo->pool, addr, "HOST");
    port = descriptor_value(pinfo->pool, addr, "PORT");
    if (host) {
        pi = proto_tree_add_string(t, hf_rd_host, tvb, off, addr_len, host);
        proto_item_set_generated(pi);
    }
    if (port && g_ascii_isdigit(*port)) {
        pi = proto_tree_add_uint(t, hf_rd_port, tvb, off, addr_len, (guint32)strtoul(port, NULL, 10) & 0xFFFF);
        proto_item_set_generated(pi);
    }
    if (host || port)
        sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " to %s:%s", host ? host : "?", port ? port : "?"));
    if (nul >= 0 && addr_len + 1 < data_len)
        proto_tree_add_item(t, hf_rd_connect_data, tvb, off + addr_len + 1, data_len - addr_len - 1, ENC_ASCII);
}

/* REDIRECT (node RedirectPacket, python ConnectMessage, go-ora): 8 data
 * length (u16), 10 data.  A REDIRECT of 10 bytes sends its data in the next
 * DATA packet (python always reads it across packets; go-ora when the packet
 * is no longer than 10 bytes). */
void
dissect_redirect(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                 sqlnet_session_t *sess, guint32 len)
{
    guint32 data_len = 0;
    guint8 hflags = tvb_get_uint8(tvb, 5);
    proto_item *pi;

    if (!FITS(10, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "REDIRECT shorter than its 10-byte header");
        return;
    }
    pi = proto_tree_add_item_ret_uint(tree, hf_rd_data_length, tvb, 8, 2, ENC_BIG_ENDIAN, &data_len);
    expert_add_info(pinfo, pi, &ei_redirect);
    if (data_len > 0 && len == 10) {
        expert_add_info_format(pinfo, pi, &ei_deferred, "Redirect data follows in the next DATA packet");
        sqlnet_col_append(pinfo, " (data follows)");
        if (!PINFO_FD_VISITED(pinfo)) {
            sess->redirect_frame = pinfo->num;
            sess->redirect_data_deferred = TRUE;
            sess->redirect_data_len = data_len;
        }
        return;
    }
    if (data_len > len - 10) {
        expert_add_info_format(pinfo, pi, &ei_bad_length,
                               "Redirect data length %u runs past the packet (%u bytes after offset 10)",
                               data_len, len - 10);
        data_len = len - 10;
    }
    if (data_len > 0)
        add_redirect_data(tvb, pinfo, tree, 10, data_len, (hflags & TNS_HF_REDIRECT_SPLIT) != 0, pi);
    extra_bytes(tvb, pinfo, tree, 10 + data_len, len);
}

/* The DATA packet after a REDIRECT or REFUSE that announced its data: TRUE
 * when this one carried it. */
gboolean
dissect_deferred_listener_data(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                               sqlnet_session_t *sess, guint32 payload_len)
{
    gboolean redirect = sess->redirect_data_deferred && pinfo->num >= sess->redirect_frame;
    gboolean refuse = sess->refuse_data_deferred && pinfo->num >= sess->refuse_frame;
    guint32 want, n;
    proto_item *pi;

    if (sess->accept_frame && session_frame_after(pinfo, sess->accept_frame, sess->accept_off))
        return FALSE;
    if (redirect && refuse) {      /* the later one announced it */
        redirect = sess->redirect_frame > sess->refuse_frame;
        refuse = !redirect;
    }
    if (!redirect && !refuse)
        return FALSE;
    want = redirect ? sess->redirect_data_len : sess->refuse_data_len;
    n = MIN(want, payload_len);
    pi = proto_tree_add_uint(tree, redirect ? hf_rd_data_length : hf_rf_data_length, payload, 0, 0, want);
    proto_item_set_generated(pi);
    if (want != payload_len)
        expert_add_info_format(pinfo, pi, &ei_bad_length,
                               "The %s announced %u bytes of data, this DATA packet carries %u",
                               redirect ? "REDIRECT" : "REFUSE", want, payload_len);
    if (redirect) {
        sqlnet_col_append(pinfo, " (redirect data)");
        if (n > 0)
            add_redirect_data(payload, pinfo, tree, 0, n, FALSE, pi);
    } else {
        sqlnet_col_append(pinfo, " (refuse data)");
        if (n > 0)
            add_refuse_text(payload, pinfo, tree, 0, n, NULL);
    }
    extra_bytes(payload, pinfo, tree, n, payload_len);
    return TRUE;
}

/* RESEND: the header alone (python, node, go-ora read nothing after it); the
 * client sends its CONNECT again, after a TLS renegotiation when header flag
 * 0x08 (NSPFSRN) is set. */
void
dissect_resend(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    gboolean reneg = (tvb_get_uint8(tvb, 5) & TNS_HF_TLS_RENEG) != 0;

    proto_tree_add_expert_format(tree, pinfo, &ei_resend, tvb, 0, TNS_HDR_LEN,
                                 reneg ? "Listener asks for the CONNECT again after a TLS renegotiation"
                                       : "Listener asks for the CONNECT again");
    if (reneg)
        sqlnet_col_append(pinfo, " (TLS renegotiation)");
    extra_bytes(tvb, pinfo, tree, TNS_HDR_LEN, len);
}
