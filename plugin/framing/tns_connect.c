/* tns_connect.c - the handshake: CONNECT (with its connect
 * descriptor, in the packet or in the DATA packet after it) and ACCEPT, and
 * what they set up in the session.
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

/* Value of KEY= inside a connect descriptor, or NULL. */
const char *
descriptor_value(wmem_allocator_t *scope, const char *desc, const char *key)
{
    size_t klen = strlen(key);
    const char *p;

    for (p = desc; (p = strchr(p, '(')) != NULL; p++) {
        const char *k = p + 1, *end;
        while (*k == ' ')
            k++;
        if (g_ascii_strncasecmp(k, key, klen) != 0)
            continue;
        k += klen;
        while (*k == ' ')
            k++;
        if (*k != '=')
            continue;
        k++;
        end = strchr(k, ')');
        if (!end)
            return NULL;
        return wmem_strndup(scope, k, end - k);
    }
    return NULL;
}

static void
add_descriptor_details(proto_tree *tree, tvbuff_t *tvb, int offset, int len,
                       packet_info *pinfo, const char *desc)
{
    static const struct { const char *key; int *hf; } keys[] = {
        { "SERVICE_NAME", &hf_cn_service_name },
        { "SID",          &hf_cn_sid },
        { "PROGRAM",      &hf_cn_program },
        { "HOST",         &hf_cn_host },
        { "USER",         &hf_cn_user },
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(keys); i++) {
        const char *v = descriptor_value(pinfo->pool, desc, keys[i].key);
        if (v) {
            proto_item *pi = proto_tree_add_string(tree, *keys[i].hf, tvb, offset, len, v);
            proto_item_set_generated(pi);
        }
    }
}

void
add_connect_data(proto_tree *tree, tvbuff_t *tvb, int offset, int len, packet_info *pinfo)
{
    const char *desc;
    proto_item *pi;

    if (len <= 0)
        return;
    desc = (const char *)tvb_get_string_enc(pinfo->pool, tvb, offset, len, ENC_ASCII);
    pi = proto_tree_add_string(tree, hf_cn_data, tvb, offset, len, desc);
    add_descriptor_details(proto_item_add_subtree(pi, ett_connect_data), tvb, offset, len, pinfo, desc);
}


/* Record the handshake in the session from the bytes the capture kept: a
 * snaplen may cut a CONNECT or ACCEPT, whose tree then ends in an exception
 * at the cut; what was captured of it still sets up the conversation. */
static void
note_connect(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, guint32 len)
{
    guint32 avail = MIN(len, tvb_captured_length(tvb));
    guint32 data_len = 0, data_off = 0, sdu = 0, tdu = 0;

    if (PINFO_FD_VISITED(pinfo) || (FITS(8, 2, avail) && !TNS_VERSION_PLAUSIBLE(tvb_get_ntohs(tvb, 8))))
        return;                        /* not a CONNECT (sqlnet.version.implausible) */
    session_set_server(sess, pinfo, TRUE, SQLNET_SIDE_HANDSHAKE);
    sess->connect_frame = pinfo->num;
    sess->connect_version = FITS(8, 2, avail) ? tvb_get_ntohs(tvb, 8) : 0;
    if (FITS(14, 4, avail)) {
        sdu = tvb_get_ntohs(tvb, 14);
        tdu = tvb_get_ntohs(tvb, 16);
    }
    if (FITS(24, 4, avail)) {
        data_len = tvb_get_ntohs(tvb, 24);
        data_off = tvb_get_ntohs(tvb, 26);
    }
    if (data_off >= 66 && FITS(58, 8, avail)) {
        sdu = tvb_get_ntohl(tvb, 58);
        tdu = tvb_get_ntohl(tvb, 62);
    }
    sess->connect_sdu = sdu;
    sess->connect_tdu = tdu;
    if (data_len > 0 && FITS(24, 4, avail) && !FITS(data_off, data_len, len))
        sess->connect_data_deferred = TRUE;
}

static void
note_accept(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, guint32 len)
{
    guint32 avail = MIN(len, tvb_captured_length(tvb));
    guint32 version;

    if (PINFO_FD_VISITED(pinfo) || !FITS(10, 0, avail))
        return;                        /* not even the version: the framing is guessed later */
    version = tvb_get_ntohs(tvb, 8);
    if (!TNS_VERSION_PLAUSIBLE(version))
        return;                        /* not an ACCEPT (sqlnet.version.implausible) */
    session_set_server(sess, pinfo, FALSE, SQLNET_SIDE_HANDSHAKE);
    sess->accept_frame = pinfo->num;
    sess->accept_off = pinfo->fd->file_off;
    sess->version = version;
    sess->sdu = FITS(12, 2, avail) ? tvb_get_ntohs(tvb, 12) : 0;
    sess->tdu = FITS(14, 2, avail) ? tvb_get_ntohs(tvb, 14) : 0;
    if (version >= TNS_VERSION_MIN_LARGE_SDU) {
        if (FITS(32, 8, avail)) {
            sess->sdu = tvb_get_ntohl(tvb, 32);
            sess->tdu = tvb_get_ntohl(tvb, 36);
        }
        if (version >= TNS_VERSION_MIN_FLAGS2 && FITS(41, 4, avail) && FITS(41, 4, len)) {
            sess->accept_flags2 = tvb_get_ntohl(tvb, 41);
            sess->accept_has_flags2 = TRUE;
        }
    }
    tns_layer_hooks->note_packet(pinfo, sess, SQLNET_TO_CLIENT, TNS_TYPE_ACCEPT, len, 0, FALSE);   /* timing.c */
}

void
dissect_connect(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                sqlnet_session_t *sess, guint32 len)
{
    guint32 version = 0, sdu16 = 0, tdu16 = 0, sdu = 0, tdu = 0;
    guint32 data_len = 0, data_off = 0, hdr_end = len;
    proto_item *pi;

    if (!FITS(28, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "CONNECT shorter than its 28-byte header");
        return;
    }
    note_connect(sess, pinfo, tvb, len);
    pi = proto_tree_add_item_ret_uint(tree, hf_cn_version, tvb, 8, 2, ENC_BIG_ENDIAN, &version);
    if (!TNS_VERSION_PLAUSIBLE(version))
        expert_add_info(pinfo, pi, &ei_bad_version);
    proto_tree_add_item(tree, hf_cn_compat_version, tvb, 10, 2, ENC_BIG_ENDIAN);
    proto_tree_add_bitmask(tree, tvb, 12, hf_cn_service_options, ett_service_options,
                           service_option_bits, ENC_BIG_ENDIAN);
    proto_tree_add_item_ret_uint(tree, hf_cn_sdu16, tvb, 14, 2, ENC_BIG_ENDIAN, &sdu16);
    proto_tree_add_item_ret_uint(tree, hf_cn_tdu16, tvb, 16, 2, ENC_BIG_ENDIAN, &tdu16);
    proto_tree_add_item(tree, hf_cn_nt_characteristics, tvb, 18, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(tree, hf_cn_line_turnaround, tvb, 20, 2, ENC_BIG_ENDIAN);
    pi = proto_tree_add_item(tree, hf_cn_value_of_one, tvb, 22, 2, ENC_NA);
    proto_item_append_text(pi, tvb_get_uint8(tvb, 22) == 1 ? " (little-endian client host)"
                                                             : " (big-endian / network order)");
    proto_tree_add_item_ret_uint(tree, hf_cn_data_length, tvb, 24, 2, ENC_BIG_ENDIAN, &data_len);
    proto_tree_add_item_ret_uint(tree, hf_cn_data_offset, tvb, 26, 2, ENC_BIG_ENDIAN, &data_off);
    if (data_off >= 28 && data_off < len)
        hdr_end = data_off;

    if (FITS(28, 4, hdr_end))
        proto_tree_add_item(tree, hf_cn_max_receivable, tvb, 28, 4, ENC_BIG_ENDIAN);
    if (FITS(32, 2, hdr_end)) {
        proto_tree_add_bitmask(tree, tvb, 32, hf_cn_nsi_flags0, ett_nsi, nsi_bits, ENC_NA);
        proto_tree_add_bitmask(tree, tvb, 33, hf_cn_nsi_flags1, ett_nsi, nsi_bits, ENC_NA);
    }
    if (FITS(34, 24, hdr_end))
        proto_tree_add_item(tree, hf_cn_trace_info, tvb, 34, 24, ENC_NA);

    /* 32-bit SDU/TDU exist only when the descriptor starts at 66 or later. */
    sdu = sdu16;
    tdu = tdu16;
    if (data_off >= 66 && FITS(58, 8, len)) {
        proto_tree_add_item_ret_uint(tree, hf_cn_sdu, tvb, 58, 4, ENC_BIG_ENDIAN, &sdu);
        proto_tree_add_item_ret_uint(tree, hf_cn_tdu, tvb, 62, 4, ENC_BIG_ENDIAN, &tdu);
    } else {
        proto_item_set_generated(proto_tree_add_uint(tree, hf_cn_sdu, tvb, 14, 2, sdu));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_cn_tdu, tvb, 16, 2, tdu));
    }
    if (data_off >= 70 && FITS(66, 4, len))
        proto_tree_add_item(tree, hf_cn_flags1, tvb, 66, 4, ENC_BIG_ENDIAN);
    if (data_off >= 74 && FITS(70, 4, len))
        proto_tree_add_item(tree, hf_cn_flags2, tvb, 70, 4, ENC_BIG_ENDIAN);

    if (data_len > 0 && data_off >= 28 && FITS(data_off, data_len, len)) {
        add_connect_data(tree, tvb, data_off, data_len, pinfo);
    } else if (data_len > 0) {
        pi = proto_tree_add_boolean(tree, hf_cn_data_deferred, tvb, 24, 2, TRUE);
        proto_item_set_generated(pi);
        expert_add_info(pinfo, pi, &ei_connect_deferred);   /* length: sqlnet.connect.data_length */
    }

    (void)version;
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " v%u, SDU %u, TDU %u", version, sdu, tdu));
}

void
dissect_accept(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
               sqlnet_session_t *sess, guint32 len)
{
    guint32 version = 0, sdu16 = 0, tdu16 = 0, sdu, tdu, data_len = 0, data_off = 0;
    guint32 flags2 = 0;
    proto_item *pi;

    if (!FITS(24, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "ACCEPT shorter than its 24-byte header");
        return;
    }
    note_accept(sess, pinfo, tvb, len);
    pi = proto_tree_add_item_ret_uint(tree, hf_ac_version, tvb, 8, 2, ENC_BIG_ENDIAN, &version);
    if (!TNS_VERSION_PLAUSIBLE(version))
        expert_add_info(pinfo, pi, &ei_bad_version);
    proto_tree_add_bitmask(tree, tvb, 10, hf_ac_service_options, ett_service_options,
                           service_option_bits, ENC_BIG_ENDIAN);
    proto_tree_add_item_ret_uint(tree, hf_ac_sdu16, tvb, 12, 2, ENC_BIG_ENDIAN, &sdu16);
    proto_tree_add_item_ret_uint(tree, hf_ac_tdu16, tvb, 14, 2, ENC_BIG_ENDIAN, &tdu16);
    proto_tree_add_item(tree, hf_ac_value_of_one, tvb, 16, 2, ENC_NA);
    proto_tree_add_item_ret_uint(tree, hf_ac_data_length, tvb, 18, 2, ENC_BIG_ENDIAN, &data_len);
    proto_tree_add_item_ret_uint(tree, hf_ac_data_offset, tvb, 20, 2, ENC_BIG_ENDIAN, &data_off);
    proto_tree_add_bitmask(tree, tvb, 22, hf_ac_nsi_flags0, ett_nsi, nsi_bits, ENC_NA);
    proto_tree_add_bitmask(tree, tvb, 23, hf_ac_nsi_flags1, ett_nsi, nsi_bits, ENC_NA);

    sdu = sdu16;
    tdu = tdu16;
    if (version >= TNS_VERSION_MIN_LARGE_SDU && FITS(32, 8, len)) {
        proto_tree_add_item_ret_uint(tree, hf_ac_sdu, tvb, 32, 4, ENC_BIG_ENDIAN, &sdu);
        proto_tree_add_item_ret_uint(tree, hf_ac_tdu, tvb, 36, 4, ENC_BIG_ENDIAN, &tdu);
        if (FITS(40, 1, len))
            proto_tree_add_item(tree, hf_ac_compression, tvb, 40, 1, ENC_NA);
        if (version >= TNS_VERSION_MIN_FLAGS2 && FITS(41, 4, len)) {
            guint64 f2 = 0;
            proto_tree_add_bitmask_ret_uint64(tree, tvb, 41, hf_ac_flags2, ett_flags2,
                                              accept_flags2_bits, ENC_BIG_ENDIAN, &f2);
            flags2 = (guint32)f2;
        }
        if (version >= TNS_VERSION_MIN_EOR && FITS(45, 16, len) && (data_off == 0 || data_off >= 61))
            proto_tree_add_item(tree, hf_ac_uuid, tvb, 45, 16, ENC_NA);
    } else {
        proto_item_set_generated(proto_tree_add_uint(tree, hf_ac_sdu, tvb, 12, 2, sdu));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_ac_tdu, tvb, 14, 2, tdu));
    }
    if (data_len > 0 && data_off >= 24 && FITS(data_off, data_len, len))
        proto_tree_add_item(tree, hf_ac_data, tvb, data_off, data_len, ENC_NA);

    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " v%u, SDU %u, TDU %u%s", version, sdu, tdu,
                    (version >= TNS_VERSION_MIN_EOR && (flags2 & TNS_AF2_END_OF_RESPONSE))
                        ? ", end-of-response" : ""));
}
