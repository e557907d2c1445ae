/* tns_packets.c - the packet types after the handshake other than
 * DATA: MARKER, CONTROL, ABORT, ATTENTION, DATA DESCRIPTOR, NULL and ACK.
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

void
dissect_marker(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len,
               sqlnet_session_t *sess, sqlnet_dir_t dir)
{
    guint32 marker;
    proto_item *pi;

    if (!FITS(11, 0, len)) {
        proto_tree_add_expert(tree, pinfo, &ei_short_packet, tvb, 0, len);
        return;
    }
    tns_layer_hooks->note_packet(pinfo, sess, dir, TNS_TYPE_MARKER, len, 0, FALSE);
    tns_layer_hooks->packet(tvb, pinfo, tree, sess, dir, TNS_TYPE_MARKER, len, 0);
    proto_tree_add_item(tree, hf_mk_type, tvb, 8, 1, ENC_NA);
    proto_tree_add_item(tree, hf_mk_data_byte, tvb, 9, 1, ENC_NA);
    pi = proto_tree_add_item_ret_uint(tree, hf_mk_marker, tvb, 10, 1, ENC_NA, &marker);
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %s", val_to_str_const(marker, marker_vals, "?")));
    expert_add_info(pinfo, pi, &ei_marker);   /* which one: sqlnet.marker */
}

/* CONTROL (node ControlPacket, python _process_control_packet): 8 command
 * (u16).  Command 8, error: 10 error space (u32, 22 = ORA), 14 error number
 * (u32; python reads only this one), 18 second word (u32): for error 12573
 * (send message) the length of the message text at 22.  Command 9 (reset
 * out-of-band) has no data. */
void
dissect_control(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    guint32 cmd, err = 0, err2 = 0;
    proto_item *pi;

    if (!FITS(10, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "CONTROL shorter than its 10-byte header");
        return;
    }
    proto_tree_add_item_ret_uint(tree, hf_ct_command, tvb, 8, 2, ENC_BIG_ENDIAN, &cmd);
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %s", sqlnet_val_to_str(pinfo->pool, cmd, control_cmd_vals, "command %u")));
    if (cmd != 8) {
        if (len > 10)
            proto_tree_add_item(tree, hf_ct_data, tvb, 10, len - 10, ENC_NA);
        return;
    }
    if (!FITS(18, 0, len)) {
        pi = proto_tree_add_item(tree, hf_ct_data, tvb, 10, len - 10, ENC_NA);
        expert_add_info_format(pinfo, pi, &ei_short_packet,
                               "CONTROL error shorter than its error space and number (18 bytes)");
        return;
    }
    proto_tree_add_item(tree, hf_ct_emfi, tvb, 10, 4, ENC_BIG_ENDIAN);
    pi = proto_tree_add_item_ret_uint(tree, hf_ct_error, tvb, 14, 4, ENC_BIG_ENDIAN, &err);
    expert_add_info(pinfo, pi, &ei_control_error);   /* the error number: on the item */
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %u", err));
    if (!FITS(22, 0, len)) {
        extra_bytes(tvb, pinfo, tree, 18, len);
        return;
    }
    pi = proto_tree_add_item_ret_uint(tree, hf_ct_error2, tvb, 18, 4, ENC_BIG_ENDIAN, &err2);
    if (err == TNS_CTL_ERR_SEND_MESSAGE && err2 > 0) {
        guint32 n = err2;
        if (n > len - 22) {
            expert_add_info_format(pinfo, pi, &ei_bad_length,
                                   "Message length %u runs past the packet (%u bytes after offset 22)",
                                   err2, len - 22);
            n = len - 22;
        }
        if (n > 0)
            proto_tree_add_item(tree, hf_ct_message, tvb, 22, n, ENC_ASCII);
        extra_bytes(tvb, pinfo, tree, 22 + n, len);
        return;
    }
    if (len > 22)
        proto_tree_add_item(tree, hf_ct_data, tvb, 22, len - 22, ENC_NA);
}

/* ABORT (Wireshark's packet-tns.c): 8 user reason, 9 system reason, 10 data. */
void
dissect_abort(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    proto_item *pi;

    if (!FITS(10, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "ABORT shorter than its 10-byte header");
        return;
    }
    pi = proto_tree_add_item(tree, hf_ab_user_reason, tvb, 8, 1, ENC_NA);
    proto_tree_add_item(tree, hf_ab_system_reason, tvb, 9, 1, ENC_NA);
    if (len > 10)
        proto_tree_add_item(tree, hf_ab_data, tvb, 10, len - 10, ENC_NA);
    expert_add_info(pinfo, pi, &ei_abort);
}


/* ATTENTION (Wireshark's packet-tns.c decodes it as a MARKER): 8 type, 9
 * data byte, 10 value. */
void
dissect_attention(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    guint32 value;
    proto_item *pi;

    if (!FITS(11, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "ATTENTION shorter than its 11 bytes");
        return;
    }
    proto_tree_add_item(tree, hf_at_type, tvb, 8, 1, ENC_NA);
    proto_tree_add_item(tree, hf_at_data_byte, tvb, 9, 1, ENC_NA);
    pi = proto_tree_add_item_ret_uint(tree, hf_at_value, tvb, 10, 1, ENC_NA, &value);
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %s", val_to_str_const(value, marker_vals, "?")));
    expert_add_info(pinfo, pi, &ei_attention);
    extra_bytes(tvb, pinfo, tree, 11, len);
}

/* DATA DESCRIPTOR (JDBC NIODataDescriptorPacket): 8 flags (u32), 12 total
 * data length (u32), 16 segment count (u32), 20 26 segment lengths (u16,
 * the unused ones 0); `len` is the packet's own length, the tvb holds the
 * data that follows it without TNS headers too (get_tns_pdu_len). */
void
dissect_dd(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    guint32 total = 0, count = 0, sum = 0, i, after = tvb_reported_length(tvb);
    guint64 flags = 0;
    proto_item *pi, *count_item;

    if (!FITS(TNS_DD_FIXED_LEN, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "DATA DESCRIPTOR shorter than its 20-byte header");
        return;
    }
    proto_tree_add_bitmask_ret_uint64(tree, tvb, 8, hf_dd_flags, ett_dd_flags, dd_flags_bits,
                                      ENC_BIG_ENDIAN, &flags);
    pi = proto_tree_add_item_ret_uint(tree, hf_dd_total, tvb, 12, 4, ENC_BIG_ENDIAN, &total);
    count_item = proto_tree_add_item_ret_uint(tree, hf_dd_count, tvb, 16, 4, ENC_BIG_ENDIAN, &count);
    sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %u bytes in %u segment%s%s", total, count,
                    count == 1 ? "" : "s", (flags & TNS_DD_FLAG_LAST) ? ", last" : ""));
    if (flags & TNS_DD_FLAG_SHORT) {
        if (count > TNS_DD_SEGMENTS)
            expert_add_info_format(pinfo, count_item, &ei_bad_length,
                                   "More segments (%u) than a descriptor holds (%u)", count, TNS_DD_SEGMENTS);
        for (i = 0; i < MIN(count, TNS_DD_SEGMENTS) && FITS(20 + 2 * i, 2, len); i++) {
            guint32 seg;
            proto_tree_add_item_ret_uint(tree, hf_dd_segment, tvb, 20 + 2 * i, 2, ENC_BIG_ENDIAN, &seg);
            sum += seg;
        }
        if (i < count)
            expert_add_info_format(pinfo, count_item, &ei_short_packet,
                                   "%u segment lengths announced, %u in the packet", count, i);
        else if (sum != total)
            expert_add_info_format(pinfo, pi, &ei_bad_length,
                                   "Segment lengths add up to %u, not the total %u", sum, total);
        /* the unused entries (0 in what JDBC writes) */
        if (len > 20 + 2 * i && FITS(20 + 2 * i, 0, len)) {
            guint32 off = 20 + 2 * i, end = MIN(len, 20 + 2 * TNS_DD_SEGMENTS), k;
            gboolean zero = TRUE;
            for (k = off; k < end; k++)
                zero = zero && tvb_get_uint8(tvb, k) == 0;
            if (!zero)
                expert_add_info_format(pinfo, count_item, &ei_extra_bytes,
                                       "Unused segment lengths are not zero");
            extra_bytes(tvb, pinfo, tree, end, len);
        }
    } else if (len > TNS_DD_FIXED_LEN) {
        proto_tree_add_item(tree, hf_raw, tvb, TNS_DD_FIXED_LEN, len - TNS_DD_FIXED_LEN, ENC_NA);
    }
    if (after > len) {
        proto_tree_add_item(tree, hf_dd_data, tvb, len, after - len, ENC_NA);
        if (after - len != total)
            expert_add_info_format(pinfo, pi, &ei_bad_length,
                                   "%u bytes of data follow the descriptor, not %u", after - len, total);
    } else if (total > 0) {
        expert_add_info_format(pinfo, pi, &ei_deferred,
                               "The %u bytes of data that follow the descriptor are not in the capture", total);
    }
}

/* NULL and ACK: no fields after the header in any reference (Wireshark shows
 * their body as data). */
void
dissect_header_only(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    extra_bytes(tvb, pinfo, tree, TNS_HDR_LEN, len);
}
