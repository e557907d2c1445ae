/* tns_fields.c - the fields, subtrees and expert items of the TNS
 * layer, their value strings, registered once (tns_register()), and the two
 * helpers every packet type uses to show itself (claim_columns(),
 * extra_bytes()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/unit_strings.h>

#include "sqlnet.h"
#include "coltext.h"
#include "session.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"

/* ---- fields ------------------------------------------------------------ */

int proto_tns_layer = -1;
const tns_hooks_t *tns_layer_hooks;       /* the layers above (plugin.c, tns_register()) */

int hf_length = -1;
int hf_packet_checksum = -1;
int hf_type = -1;
int hf_flags = -1;
int hf_flags_sid = -1;
int hf_flags_redirect_data = -1;
int hf_flags_redirected = -1;
int hf_flags_tls_reneg = -1;
int hf_flags_large_sdu = -1;
int hf_header_checksum = -1;
int hf_length_width = -1;
int hf_direction = -1;

int hf_version = -1;
int hf_sdu = -1;
int hf_tdu = -1;
int hf_sdu_fill = -1;

int hf_data_flags = -1;
int hf_df_send_token = -1;
int hf_df_req_confirm = -1;
int hf_df_confirm = -1;
int hf_df_reserved = -1;
int hf_df_more = -1;
int hf_df_eof = -1;
int hf_df_imm_confirm = -1;
int hf_df_rts = -1;
int hf_df_nt_trailer = -1;
int hf_df_compressed = -1;
int hf_df_end_of_request = -1;
int hf_df_begin_pipeline = -1;
int hf_df_end_of_response = -1;
int hf_data_len = -1;
int hf_data_payload = -1;
int hf_data_encrypted = -1;
int hf_data_compressed = -1;

int hf_cn_version = -1;
int hf_cn_compat_version = -1;
int hf_cn_service_options = -1;
int hf_cn_sdu16 = -1;
int hf_cn_tdu16 = -1;
int hf_cn_nt_characteristics = -1;
int hf_cn_line_turnaround = -1;
int hf_cn_value_of_one = -1;
int hf_cn_data_length = -1;
int hf_cn_data_offset = -1;
int hf_cn_max_receivable = -1;
int hf_cn_nsi_flags0 = -1;
int hf_cn_nsi_flags1 = -1;
int hf_cn_trace_info = -1;
int hf_cn_sdu = -1;
int hf_cn_tdu = -1;
int hf_cn_flags1 = -1;
int hf_cn_flags2 = -1;
int hf_cn_data = -1;
int hf_cn_service_name = -1;
int hf_cn_sid = -1;
int hf_cn_program = -1;
int hf_cn_host = -1;
int hf_cn_user = -1;
int hf_cn_data_deferred = -1;

int hf_so_dont_care = -1;
int hf_so_half_duplex = -1;
int hf_so_full_duplex = -1;
int hf_so_header_checksum = -1;
int hf_so_packet_checksum = -1;
int hf_so_broken_notify = -1;
int hf_so_vectored_io = -1;
int hf_so_os_auth = -1;
int hf_so_can_send_attention = -1;
int hf_so_can_recv_attention = -1;
int hf_so_no_attention = -1;
int hf_so_raw_io = -1;

int hf_nsi_na_wanted = -1;
int hf_nsi_interchange = -1;
int hf_nsi_na_disabled = -1;
int hf_nsi_no_na_linked = -1;
int hf_nsi_na_required = -1;
int hf_nsi_auth_wanted = -1;
int hf_nsi_sec_reneg = -1;

int hf_ac_version = -1;
int hf_ac_service_options = -1;
int hf_ac_sdu16 = -1;
int hf_ac_tdu16 = -1;
int hf_ac_value_of_one = -1;
int hf_ac_data_length = -1;
int hf_ac_data_offset = -1;
int hf_ac_nsi_flags0 = -1;
int hf_ac_nsi_flags1 = -1;
int hf_ac_sdu = -1;
int hf_ac_tdu = -1;
int hf_ac_compression = -1;
int hf_ac_flags2 = -1;
int hf_ac_f2_check_oob = -1;
int hf_ac_f2_poll_check = -1;
int hf_ac_f2_eor = -1;
int hf_ac_f2_fast_auth = -1;
int hf_ac_uuid = -1;
int hf_ac_data = -1;

int hf_rf_user_reason = -1;
int hf_rf_system_reason = -1;
int hf_rf_data_length = -1;
int hf_rf_data = -1;
int hf_rf_err = -1;

int hf_rd_data_length = -1;
int hf_rd_data = -1;
int hf_rd_address = -1;
int hf_rd_connect_data = -1;
int hf_rd_host = -1;
int hf_rd_port = -1;

int hf_mk_type = -1;
int hf_mk_data_byte = -1;
int hf_mk_marker = -1;

int hf_ct_command = -1;
int hf_ct_error = -1;
int hf_ct_data = -1;
int hf_ct_emfi = -1;
int hf_ct_error2 = -1;
int hf_ct_message = -1;

int hf_at_type = -1;
int hf_at_data_byte = -1;
int hf_at_value = -1;

int hf_dd_flags = -1;
int hf_dd_flag_last = -1;
int hf_dd_flag_short = -1;
int hf_dd_total = -1;
int hf_dd_count = -1;
int hf_dd_segment = -1;
int hf_dd_data = -1;

int hf_ab_user_reason = -1;
int hf_ab_system_reason = -1;
int hf_ab_data = -1;

int hf_raw = -1;
int hf_unsync = -1;
int hf_cut_continuation = -1;

gint ett_tns = -1;
gint ett_flags = -1;
gint ett_data_flags = -1;
gint ett_service_options = -1;
gint ett_nsi = -1;
gint ett_flags2 = -1;
gint ett_connect_data = -1;
gint ett_redirect_data = -1;
gint ett_dd_flags = -1;

expert_field ei_unsync = EI_INIT;
expert_field ei_bad_header = EI_INIT;
expert_field ei_short_packet = EI_INIT;
expert_field ei_framing_guessed = EI_INIT;
expert_field ei_connect_deferred = EI_INIT;
expert_field ei_refused = EI_INIT;
expert_field ei_redirect = EI_INIT;
expert_field ei_marker = EI_INIT;
expert_field ei_control_error = EI_INIT;
expert_field ei_abort = EI_INIT;
expert_field ei_exceeds_sdu = EI_INIT;
expert_field ei_bad_version = EI_INIT;
expert_field ei_bad_length = EI_INIT;
expert_field ei_extra_bytes = EI_INIT;
expert_field ei_resend = EI_INIT;
expert_field ei_attention = EI_INIT;
expert_field ei_deferred = EI_INIT;

/* sqlnet.sdu_fill: one decimal and a percent sign ("23.2 %"); filters
 * compare the full value. */
static void
format_percent(gchar *buf, double value)
{
    snprintf(buf, ITEM_LABEL_LENGTH, "%.1f %%", value);
}
expert_field ei_eof = EI_INIT;
expert_field ei_encrypted = EI_INIT;
expert_field ei_compressed = EI_INIT;

/* ---- value strings ----------------------------------------------------- */

const value_string tns_type_vals[] = {
    { TNS_TYPE_CONNECT,   "CONNECT" },
    { TNS_TYPE_ACCEPT,    "ACCEPT" },
    { TNS_TYPE_ACK,       "ACK" },
    { TNS_TYPE_REFUSE,    "REFUSE" },
    { TNS_TYPE_REDIRECT,  "REDIRECT" },
    { TNS_TYPE_DATA,      "DATA" },
    { TNS_TYPE_NULL,      "NULL" },
    { TNS_TYPE_ABORT,     "ABORT" },
    { TNS_TYPE_RESEND,    "RESEND" },
    { TNS_TYPE_MARKER,    "MARKER" },
    { TNS_TYPE_ATTENTION, "ATTENTION" },
    { TNS_TYPE_CONTROL,   "CONTROL" },
    { TNS_TYPE_DD,        "DATA DESCRIPTOR" },
    { 0, NULL }
};

static const value_string direction_vals[] = {
    { 0, "client to server" },
    { 1, "server to client" },
    { 0, NULL }
};

static const value_string marker_type_vals[] = {
    { 0, "Data marker (no data)" },
    { 1, "Data marker" },
    { 2, "Attention marker" },
    { 0, NULL }
};

const value_string marker_vals[] = {
    { 1, "BREAK" },
    { 2, "RESET" },
    { 3, "INTERRUPT" },
    { 0, NULL }
};

/* CONTROL command 8: the first word says which error space the number is in
 * (node-oracledb: 22 = ORA-, else TNS-). */
static const value_string control_emfi_vals[] = {
    { 22, "ORA error" },
    { 0, NULL }
};


const value_string control_cmd_vals[] = {
    { 1, "Oracle trace" },
    { 8, "Error / in-band notification" },
    { 9, "Reset out-of-band" },
    { 0, NULL }
};

/* ---- bit fields -------------------------------------------------------- */

int * const flags_bits[] = {
    &hf_flags_sid, &hf_flags_redirect_data, &hf_flags_redirected,
    &hf_flags_tls_reneg, &hf_flags_large_sdu, NULL
};

int * const data_flags_bits[] = {
    &hf_df_send_token, &hf_df_req_confirm, &hf_df_confirm, &hf_df_reserved,
    &hf_df_more, &hf_df_eof, &hf_df_imm_confirm, &hf_df_rts, &hf_df_nt_trailer,
    &hf_df_compressed, &hf_df_end_of_request, &hf_df_begin_pipeline,
    &hf_df_end_of_response, NULL
};

int * const service_option_bits[] = {
    &hf_so_dont_care, &hf_so_half_duplex, &hf_so_full_duplex,
    &hf_so_header_checksum, &hf_so_packet_checksum, &hf_so_broken_notify,
    &hf_so_vectored_io, &hf_so_os_auth, &hf_so_can_send_attention,
    &hf_so_can_recv_attention, &hf_so_no_attention, &hf_so_raw_io, NULL
};

int * const nsi_bits[] = {
    &hf_nsi_na_wanted, &hf_nsi_interchange, &hf_nsi_na_disabled,
    &hf_nsi_no_na_linked, &hf_nsi_na_required, &hf_nsi_auth_wanted,
    &hf_nsi_sec_reneg, NULL
};

int * const accept_flags2_bits[] = {
    &hf_ac_f2_check_oob, &hf_ac_f2_poll_check, &hf_ac_f2_eor, &hf_ac_f2_fast_auth, NULL
};


int * const dd_flags_bits[] = { &hf_dd_flag_last, &hf_dd_flag_short, NULL };

/* The Protocol and Info columns become sqlnet's once per frame, when
 * something of the frame is shown as sqlnet: a segment that only starts a
 * TNS packet (reassembled later) keeps TCP's text (ports, Seq/Ack, flags). */
void
claim_columns(packet_info *pinfo)
{
    if (!sqlnet_col_take(pinfo))
        return;
    col_set_str(pinfo->cinfo, COL_PROTOCOL, SQLNET_PROTO_SHORT);
    col_clear(pinfo->cinfo, COL_INFO);
}

/* Bytes after the last field of a packet type: shown, flagged. */
void
extra_bytes(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 len)
{
    proto_item *pi;

    if (off >= len)
        return;
    pi = proto_tree_add_item(tree, hf_raw, tvb, off, len - off, ENC_NA);
    expert_add_info(pinfo, pi, &ei_extra_bytes);
}


/* ---- registration ------------------------------------------------------ */

void
tns_register(int proto, const tns_hooks_t *tns_hooks)
{
    static hf_register_info hf[] = {
        { &hf_length, { "Packet length", "sqlnet.length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TNS packet length including the 8-byte header (16 or 32 bits on the wire)", HFILL } },
        { &hf_packet_checksum, { "Packet checksum", "sqlnet.packet_checksum", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_type, { "Packet type", "sqlnet.type", FT_UINT8, BASE_DEC, VALS(tns_type_vals), 0x0, NULL, HFILL } },
        { &hf_flags, { "Header flags", "sqlnet.flags", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_flags_sid, { "SID present", "sqlnet.flags.sid", FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_flags_redirect_data, { "Redirect data is address + connect data", "sqlnet.flags.redirect_data", FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_flags_redirected, { "Connect after a redirect", "sqlnet.flags.redirected", FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_flags_tls_reneg, { "TLS renegotiation", "sqlnet.flags.tls_reneg", FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_flags_large_sdu, { "Large SDU", "sqlnet.flags.large_sdu", FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_header_checksum, { "Header checksum", "sqlnet.header_checksum", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_length_width, { "Length field width", "sqlnet.length_width", FT_UINT8, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "2 before/without a version >= 315 ACCEPT, 4 after it", HFILL } },
        { &hf_direction, { "Direction", "sqlnet.direction", FT_UINT8, BASE_DEC, VALS(direction_vals), 0x0, NULL, HFILL } },

        { &hf_version, { "Negotiated TNS version", "sqlnet.version", FT_UINT16, BASE_DEC, NULL, 0x0,
            "Version accepted by the server for this conversation", HFILL } },
        { &hf_sdu, { "Negotiated SDU", "sqlnet.sdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Session data unit: largest TNS packet of this conversation", HFILL } },
        { &hf_tdu, { "Negotiated TDU", "sqlnet.tdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Transport data unit of this conversation", HFILL } },
        { &hf_sdu_fill, { "SDU fill", "sqlnet.sdu_fill", FT_DOUBLE, BASE_CUSTOM, CF_FUNC(format_percent), 0x0,
            "This TNS packet's length as a percentage of the negotiated SDU", HFILL } },

        { &hf_data_flags, { "Data flags", "sqlnet.data.flags", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_df_send_token, { "Send token", "sqlnet.data.flags.send_token", FT_BOOLEAN, 16, NULL, TNS_DF_SEND_TOKEN, NULL, HFILL } },
        { &hf_df_req_confirm, { "Request confirmation", "sqlnet.data.flags.req_confirm", FT_BOOLEAN, 16, NULL, TNS_DF_REQ_CONFIRM, NULL, HFILL } },
        { &hf_df_confirm, { "Confirmation", "sqlnet.data.flags.confirm", FT_BOOLEAN, 16, NULL, TNS_DF_CONFIRM, NULL, HFILL } },
        { &hf_df_reserved, { "Reserved", "sqlnet.data.flags.reserved", FT_BOOLEAN, 16, NULL, TNS_DF_RESERVED, NULL, HFILL } },
        { &hf_df_more, { "More data", "sqlnet.data.flags.more", FT_BOOLEAN, 16, NULL, TNS_DF_MORE_DATA, NULL, HFILL } },
        { &hf_df_eof, { "End of file", "sqlnet.data.flags.eof", FT_BOOLEAN, 16, NULL, TNS_DF_EOF, NULL, HFILL } },
        { &hf_df_imm_confirm, { "Do immediate confirmation", "sqlnet.data.flags.imm_confirm", FT_BOOLEAN, 16, NULL, TNS_DF_IMM_CONFIRM, NULL, HFILL } },
        { &hf_df_rts, { "Request to send", "sqlnet.data.flags.rts", FT_BOOLEAN, 16, NULL, TNS_DF_RTS, NULL, HFILL } },
        { &hf_df_nt_trailer, { "Send NT trailer", "sqlnet.data.flags.nt_trailer", FT_BOOLEAN, 16, NULL, TNS_DF_NT_TRAILER, NULL, HFILL } },
        { &hf_df_compressed, { "Compressed", "sqlnet.data.flags.compressed", FT_BOOLEAN, 16, NULL, TNS_DF_COMPRESSED, NULL, HFILL } },
        { &hf_df_end_of_request, { "End of request", "sqlnet.data.flags.end_of_request", FT_BOOLEAN, 16, NULL, TNS_DF_END_OF_REQUEST, NULL, HFILL } },
        { &hf_df_begin_pipeline, { "Begin pipeline", "sqlnet.data.flags.begin_pipeline", FT_BOOLEAN, 16, NULL, TNS_DF_BEGIN_PIPELINE, NULL, HFILL } },
        { &hf_df_end_of_response, { "End of response", "sqlnet.data.flags.end_of_response", FT_BOOLEAN, 16, NULL, TNS_DF_END_OF_RESPONSE, NULL, HFILL } },
        { &hf_data_len, { "Data length", "sqlnet.data.len", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Bytes after the data flags in this TNS DATA packet", HFILL } },
        { &hf_data_payload, { "Payload", "sqlnet.data.payload", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_data_encrypted, { "Encrypted payload", "sqlnet.data.encrypted", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Payload protected by Oracle native network encryption", HFILL } },
        { &hf_data_compressed, { "Compressed payload", "sqlnet.data.compressed", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },

        { &hf_cn_version, { "Version", "sqlnet.connect.version", FT_UINT16, BASE_DEC, NULL, 0x0, "TNS version the client asks for", HFILL } },
        { &hf_cn_compat_version, { "Lowest compatible version", "sqlnet.connect.compat_version", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_service_options, { "Service options", "sqlnet.connect.service_options", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_sdu16, { "SDU (16-bit field)", "sqlnet.connect.sdu16", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_tdu16, { "TDU (16-bit field)", "sqlnet.connect.tdu16", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_nt_characteristics, { "NT protocol characteristics", "sqlnet.connect.nt_characteristics", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_line_turnaround, { "Line turnaround", "sqlnet.connect.line_turnaround", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_value_of_one, { "Value of 1 in hardware", "sqlnet.connect.value_of_one", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_data_length, { "Connect data length", "sqlnet.connect.data_length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_data_offset, { "Connect data offset", "sqlnet.connect.data_offset", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_max_receivable, { "Max receivable connect data", "sqlnet.connect.max_receivable", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_nsi_flags0, { "NSI flags 0", "sqlnet.connect.nsi_flags0", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_nsi_flags1, { "NSI flags 1", "sqlnet.connect.nsi_flags1", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_trace_info, { "Trace and connection id items", "sqlnet.connect.trace_info", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_sdu, { "Requested SDU", "sqlnet.connect.sdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "SDU the client asks for (32-bit field when present)", HFILL } },
        { &hf_cn_tdu, { "Requested TDU", "sqlnet.connect.tdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "TDU the client asks for (32-bit field when present)", HFILL } },
        { &hf_cn_flags1, { "Connect flags 1", "sqlnet.connect.flags1", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_flags2, { "Connect flags 2", "sqlnet.connect.flags2", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_data, { "Connect data", "sqlnet.connect.data", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_service_name, { "Service name", "sqlnet.connect.service_name", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_sid, { "SID", "sqlnet.connect.sid", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_program, { "Program", "sqlnet.connect.program", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_host, { "Host", "sqlnet.connect.host", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_user, { "OS user", "sqlnet.connect.user", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cn_data_deferred, { "Connect data in next DATA packet", "sqlnet.connect.data_deferred", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },

        { &hf_so_dont_care, { "Don't care", "sqlnet.sopt.dont_care", FT_BOOLEAN, 16, NULL, 0x0001, NULL, HFILL } },
        { &hf_so_half_duplex, { "Half duplex", "sqlnet.sopt.half_duplex", FT_BOOLEAN, 16, NULL, 0x0002, NULL, HFILL } },
        { &hf_so_full_duplex, { "Full duplex", "sqlnet.sopt.full_duplex", FT_BOOLEAN, 16, NULL, 0x0004, NULL, HFILL } },
        { &hf_so_header_checksum, { "Header checksum", "sqlnet.sopt.header_checksum", FT_BOOLEAN, 16, NULL, 0x0008, NULL, HFILL } },
        { &hf_so_packet_checksum, { "Packet checksum", "sqlnet.sopt.packet_checksum", FT_BOOLEAN, 16, NULL, 0x0010, NULL, HFILL } },
        { &hf_so_broken_notify, { "Broken connection notify", "sqlnet.sopt.broken_notify", FT_BOOLEAN, 16, NULL, 0x0020, NULL, HFILL } },
        { &hf_so_vectored_io, { "Vectored I/O", "sqlnet.sopt.vectored_io", FT_BOOLEAN, 16, NULL, 0x0040, NULL, HFILL } },
        { &hf_so_os_auth, { "OS authentication", "sqlnet.sopt.os_auth", FT_BOOLEAN, 16, NULL, 0x0080, NULL, HFILL } },
        { &hf_so_can_send_attention, { "Can send attention", "sqlnet.sopt.can_send_attention", FT_BOOLEAN, 16, NULL, 0x0200, NULL, HFILL } },
        { &hf_so_can_recv_attention, { "Can receive attention", "sqlnet.sopt.can_recv_attention", FT_BOOLEAN, 16, NULL, 0x0400, NULL, HFILL } },
        { &hf_so_no_attention, { "No attention processing", "sqlnet.sopt.no_attention", FT_BOOLEAN, 16, NULL, 0x0800, NULL, HFILL } },
        { &hf_so_raw_io, { "Raw I/O", "sqlnet.sopt.raw_io", FT_BOOLEAN, 16, NULL, 0x1000, NULL, HFILL } },

        { &hf_nsi_na_wanted, { "NA services wanted", "sqlnet.nsi.na_wanted", FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_nsi_interchange, { "Interchange", "sqlnet.nsi.interchange", FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_nsi_na_disabled, { "NA disabled for connection", "sqlnet.nsi.na_disabled", FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_nsi_no_na_linked, { "No NA services linked", "sqlnet.nsi.no_na_linked", FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_nsi_na_required, { "NA services required", "sqlnet.nsi.na_required", FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_nsi_auth_wanted, { "Authentication wanted", "sqlnet.nsi.auth_wanted", FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_nsi_sec_reneg, { "Supports security renegotiation", "sqlnet.nsi.sec_reneg", FT_BOOLEAN, 8, NULL, 0x80, NULL, HFILL } },

        { &hf_ac_version, { "Version", "sqlnet.accept.version", FT_UINT16, BASE_DEC, NULL, 0x0, "TNS version accepted by the server", HFILL } },
        { &hf_ac_service_options, { "Service options", "sqlnet.accept.service_options", FT_UINT16, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_sdu16, { "SDU (16-bit field)", "sqlnet.accept.sdu16", FT_UINT16, BASE_DEC, NULL, 0x0, "Meaningful only for versions below 315", HFILL } },
        { &hf_ac_tdu16, { "TDU (16-bit field)", "sqlnet.accept.tdu16", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_value_of_one, { "Value of 1 in hardware", "sqlnet.accept.value_of_one", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_data_length, { "Accept data length", "sqlnet.accept.data_length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_data_offset, { "Accept data offset", "sqlnet.accept.data_offset", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_nsi_flags0, { "NSI flags 0", "sqlnet.accept.nsi_flags0", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_nsi_flags1, { "NSI flags 1", "sqlnet.accept.nsi_flags1", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_sdu, { "Accepted SDU", "sqlnet.accept.sdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Negotiated SDU (offset 32 for version >= 315, else offset 12)", HFILL } },
        { &hf_ac_tdu, { "Accepted TDU", "sqlnet.accept.tdu", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Negotiated TDU (offset 36 for version >= 315, else offset 14)", HFILL } },
        { &hf_ac_compression, { "Compression", "sqlnet.accept.compression", FT_UINT8, BASE_HEX, NULL, 0x0,
            "0x80 on, 0x40 auto, (b & 0x3C) >> 2 scheme", HFILL } },
        { &hf_ac_flags2, { "Flags 2", "sqlnet.accept.flags2", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_f2_check_oob, { "Check out-of-band", "sqlnet.accept.flags2.check_oob", FT_BOOLEAN, 32, NULL, TNS_AF2_CHECK_OOB, NULL, HFILL } },
        { &hf_ac_f2_poll_check, { "Poll and check", "sqlnet.accept.flags2.poll_check", FT_BOOLEAN, 32, NULL, TNS_AF2_POLL_AND_CHECK, NULL, HFILL } },
        { &hf_ac_f2_eor, { "End of response supported", "sqlnet.accept.flags2.end_of_response", FT_BOOLEAN, 32, NULL, TNS_AF2_END_OF_RESPONSE, NULL, HFILL } },
        { &hf_ac_f2_fast_auth, { "Fast authentication", "sqlnet.accept.flags2.fast_auth", FT_BOOLEAN, 32, NULL, TNS_AF2_FAST_AUTH, NULL, HFILL } },
        { &hf_ac_uuid, { "Connection identifier", "sqlnet.accept.uuid", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ac_data, { "Accept data", "sqlnet.accept.data", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },

        { &hf_rf_user_reason, { "User reason", "sqlnet.refuse.user_reason", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_rf_system_reason, { "System reason", "sqlnet.refuse.system_reason", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_rf_data_length, { "Refuse data length", "sqlnet.refuse.data_length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rf_data, { "Refuse data", "sqlnet.refuse.data", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_rf_err, { "Refuse error (ERR=)", "sqlnet.refuse.err", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TNS error code from the refuse text, e.g. 12514", HFILL } },

        { &hf_rd_data_length, { "Redirect data length", "sqlnet.redirect.data_length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rd_data, { "Redirect data", "sqlnet.redirect.data", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_rd_address, { "Redirect address", "sqlnet.redirect.address", FT_STRING, BASE_NONE, NULL, 0x0,
            "Where the client connects next: the redirect data up to its NUL (all of it without one)", HFILL } },
        { &hf_rd_connect_data, { "Redirect connect data", "sqlnet.redirect.connect_data", FT_STRING, BASE_NONE, NULL, 0x0,
            "Connect data the client sends to the new address: the redirect data after its NUL (header flag 0x02)", HFILL } },
        { &hf_rd_host, { "Redirect host", "sqlnet.redirect.host", FT_STRING, BASE_NONE, NULL, 0x0,
            "HOST= of the redirect address", HFILL } },
        { &hf_rd_port, { "Redirect port", "sqlnet.redirect.port", FT_UINT16, BASE_DEC, NULL, 0x0,
            "PORT= of the redirect address", HFILL } },

        { &hf_mk_type, { "Marker type", "sqlnet.marker.type", FT_UINT8, BASE_DEC, VALS(marker_type_vals), 0x0, NULL, HFILL } },
        { &hf_mk_data_byte, { "Marker data byte", "sqlnet.marker.data_byte", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_mk_marker, { "Marker", "sqlnet.marker", FT_UINT8, BASE_DEC, VALS(marker_vals), 0x0, NULL, HFILL } },

        { &hf_ct_command, { "Control command", "sqlnet.control.command", FT_UINT16, BASE_DEC, VALS(control_cmd_vals), 0x0, NULL, HFILL } },
        { &hf_ct_error, { "Control error", "sqlnet.control.error", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ct_data, { "Control data", "sqlnet.control.data", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ct_emfi, { "Control error space", "sqlnet.control.emfi", FT_UINT32, BASE_DEC, VALS(control_emfi_vals), 0x0,
            "Command 8: 22 = the error number is an ORA- error, else a TNS- error", HFILL } },
        { &hf_ct_error2, { "Control second error word", "sqlnet.control.error2", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Command 8: for error 12573 (send message) the length of the message text", HFILL } },
        { &hf_ct_message, { "Control message", "sqlnet.control.message", FT_STRING, BASE_NONE, NULL, 0x0,
            "Command 8, error 12573: the message sent to the client", HFILL } },

        { &hf_at_type, { "Attention type", "sqlnet.attention.type", FT_UINT8, BASE_DEC, VALS(marker_type_vals), 0x0, NULL, HFILL } },
        { &hf_at_data_byte, { "Attention data byte", "sqlnet.attention.data_byte", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_at_value, { "Attention", "sqlnet.attention", FT_UINT8, BASE_DEC, VALS(marker_vals), 0x0, NULL, HFILL } },

        { &hf_dd_flags, { "Descriptor flags", "sqlnet.dd.flags", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_dd_flag_last, { "Last descriptor", "sqlnet.dd.flags.last", FT_BOOLEAN, 32, NULL, TNS_DD_FLAG_LAST,
            "The data of this descriptor ends the transfer", HFILL } },
        { &hf_dd_flag_short, { "Short descriptor", "sqlnet.dd.flags.short", FT_BOOLEAN, 32, NULL, TNS_DD_FLAG_SHORT,
            "26 16-bit segment lengths", HFILL } },
        { &hf_dd_total, { "Total data length", "sqlnet.dd.total_length", FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "Bytes that follow the descriptor on the stream without TNS headers", HFILL } },
        { &hf_dd_count, { "Segments", "sqlnet.dd.segments", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dd_segment, { "Segment length", "sqlnet.dd.segment_length", FT_UINT16, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0, NULL, HFILL } },
        { &hf_dd_data, { "Descriptor data", "sqlnet.dd.data", FT_BYTES, BASE_NONE, NULL, 0x0,
            "The data that follows the descriptor (not decoded as TTC)", HFILL } },

        { &hf_ab_user_reason, { "User reason", "sqlnet.abort.user_reason", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ab_system_reason, { "System reason", "sqlnet.abort.system_reason", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ab_data, { "Abort data", "sqlnet.abort.data", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },

        { &hf_raw, { "Packet body", "sqlnet.body", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_cut_continuation, { "Continuation of a TNS packet cut by the snaplen", "sqlnet.cut_continuation",
            FT_BYTES, BASE_NONE, NULL, 0x0,
            "Rest of a TNS packet whose first segment the capture cut short (not reassembled)", HFILL } },
        { &hf_unsync, { "Undecodable bytes", "sqlnet.undecoded", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Bytes that do not start with a valid TNS header", HFILL } },
    };
    static gint *ett[] = {
        &ett_tns, &ett_flags, &ett_data_flags, &ett_service_options, &ett_nsi,
        &ett_flags2, &ett_connect_data, &ett_redirect_data, &ett_dd_flags,
    };
    static ei_register_info ei[] = {
        { &ei_unsync, { "sqlnet.unsynchronized", PI_UNDECODED, PI_NOTE,
            "Not at a TNS packet boundary (capture started mid-packet?): bytes skipped", EXPFILL } },
        { &ei_bad_header, { "sqlnet.bad_header", PI_MALFORMED, PI_ERROR,
            "Invalid TNS header: the rest of the segment is skipped", EXPFILL } },
        { &ei_short_packet, { "sqlnet.short_packet", PI_MALFORMED, PI_ERROR,
            "TNS packet shorter than its type's header", EXPFILL } },
        { &ei_framing_guessed, { "sqlnet.framing_guessed", PI_PROTOCOL, PI_NOTE,
            "No TNS handshake in the capture: length-field width (sqlnet.length_width) decided from the headers", EXPFILL } },
        { &ei_connect_deferred, { "sqlnet.connect.deferred", PI_SEQUENCE, PI_CHAT,
            "Connect data follows in the next DATA packet", EXPFILL } },
        { &ei_refused, { "sqlnet.refused", PI_RESPONSE_CODE, PI_WARN,
            "Connection refused by the listener (sqlnet.refuse.err)", EXPFILL } },
        { &ei_redirect, { "sqlnet.redirected", PI_SEQUENCE, PI_NOTE,
            "Connection redirected", EXPFILL } },
        { &ei_marker, { "sqlnet.marker.expert", PI_SEQUENCE, PI_NOTE,
            "Marker packet: break, reset or interrupt (sqlnet.marker)", EXPFILL } },
        { &ei_control_error, { "sqlnet.control.expert", PI_RESPONSE_CODE, PI_NOTE,
            "In-band error notification", EXPFILL } },
        { &ei_abort, { "sqlnet.aborted", PI_SEQUENCE, PI_WARN,
            "Connection aborted", EXPFILL } },
        { &ei_bad_version, { "sqlnet.version.implausible", PI_MALFORMED, PI_WARN,
            "TNS version outside 300-399 (Oracle uses 300 to 319): probably not a TNS packet", EXPFILL } },
        { &ei_bad_length, { "sqlnet.bad_length", PI_MALFORMED, PI_ERROR,
            "A length field disagrees with the packet (the data shown is what the packet holds)", EXPFILL } },
        { &ei_extra_bytes, { "sqlnet.extra_bytes", PI_MALFORMED, PI_WARN,
            "Bytes after the last field of this packet type (sqlnet.body)", EXPFILL } },
        { &ei_resend, { "sqlnet.resend", PI_SEQUENCE, PI_NOTE,
            "Listener asks for the CONNECT again", EXPFILL } },
        { &ei_attention, { "sqlnet.attention.expert", PI_SEQUENCE, PI_NOTE,
            "Attention packet (sqlnet.attention)", EXPFILL } },
        { &ei_deferred, { "sqlnet.data_follows", PI_SEQUENCE, PI_CHAT,
            "The packet's data follows in the next packet", EXPFILL } },
        { &ei_exceeds_sdu, { "sqlnet.exceeds_sdu", PI_PROTOCOL, PI_WARN,
            "TNS packet longer than the negotiated SDU", EXPFILL } },
        { &ei_eof, { "sqlnet.eof", PI_SEQUENCE, PI_CHAT,
            "End of session (EOF)", EXPFILL } },
        { &ei_encrypted, { "sqlnet.encrypted", PI_UNDECODED, PI_CHAT,
            "Payload encrypted by native network encryption", EXPFILL } },
        { &ei_compressed, { "sqlnet.compressed", PI_UNDECODED, PI_NOTE,
            "Compressed payload (network compression) is not decoded", EXPFILL } },
    };
    expert_module_t *expert;

    proto_tns_layer = proto;
    tns_layer_hooks = tns_hooks;
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
}
