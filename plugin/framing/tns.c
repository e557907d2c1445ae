/* tns.c - the TNS packet layer of Oracle Net.
 *
 * Framing: every TNS packet starts with an 8-byte header.  CONNECT, ACCEPT,
 * REFUSE, REDIRECT and RESEND always carry a 16-bit length.  After an ACCEPT
 * with version >= 315 every other packet, in both directions, carries a
 * 32-bit length.  The width is therefore taken from the conversation's
 * handshake, never guessed per packet; only when the handshake is not in
 * the capture is it decided once, from the headers, and flagged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/unit_strings.h>
#include <epan/dissectors/packet-tcp.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "coltext.h"
#include "ttc_protocol.h"
#include "tns.h"

/* ---- fields ------------------------------------------------------------ */

static int proto_tns_layer = -1;
static const tns_hooks_t *hooks;       /* the layers above (plugin.c, tns_register()) */

static int hf_length = -1;
static int hf_packet_checksum = -1;
static int hf_type = -1;
static int hf_flags = -1;
static int hf_flags_sid = -1;
static int hf_flags_redirect_data = -1;
static int hf_flags_redirected = -1;
static int hf_flags_tls_reneg = -1;
static int hf_flags_large_sdu = -1;
static int hf_header_checksum = -1;
static int hf_length_width = -1;
static int hf_direction = -1;

static int hf_version = -1;
static int hf_sdu = -1;
static int hf_tdu = -1;
static int hf_sdu_fill = -1;

static int hf_data_flags = -1;
static int hf_df_send_token = -1;
static int hf_df_req_confirm = -1;
static int hf_df_confirm = -1;
static int hf_df_reserved = -1;
static int hf_df_more = -1;
static int hf_df_eof = -1;
static int hf_df_imm_confirm = -1;
static int hf_df_rts = -1;
static int hf_df_nt_trailer = -1;
static int hf_df_compressed = -1;
static int hf_df_end_of_request = -1;
static int hf_df_begin_pipeline = -1;
static int hf_df_end_of_response = -1;
static int hf_data_len = -1;
static int hf_data_payload = -1;
static int hf_data_encrypted = -1;
static int hf_data_compressed = -1;

static int hf_cn_version = -1;
static int hf_cn_compat_version = -1;
static int hf_cn_service_options = -1;
static int hf_cn_sdu16 = -1;
static int hf_cn_tdu16 = -1;
static int hf_cn_nt_characteristics = -1;
static int hf_cn_line_turnaround = -1;
static int hf_cn_value_of_one = -1;
static int hf_cn_data_length = -1;
static int hf_cn_data_offset = -1;
static int hf_cn_max_receivable = -1;
static int hf_cn_nsi_flags0 = -1;
static int hf_cn_nsi_flags1 = -1;
static int hf_cn_trace_info = -1;
static int hf_cn_sdu = -1;
static int hf_cn_tdu = -1;
static int hf_cn_flags1 = -1;
static int hf_cn_flags2 = -1;
static int hf_cn_data = -1;
static int hf_cn_service_name = -1;
static int hf_cn_sid = -1;
static int hf_cn_program = -1;
static int hf_cn_host = -1;
static int hf_cn_user = -1;
static int hf_cn_data_deferred = -1;

static int hf_so_dont_care = -1;
static int hf_so_half_duplex = -1;
static int hf_so_full_duplex = -1;
static int hf_so_header_checksum = -1;
static int hf_so_packet_checksum = -1;
static int hf_so_broken_notify = -1;
static int hf_so_vectored_io = -1;
static int hf_so_os_auth = -1;
static int hf_so_can_send_attention = -1;
static int hf_so_can_recv_attention = -1;
static int hf_so_no_attention = -1;
static int hf_so_raw_io = -1;

static int hf_nsi_na_wanted = -1;
static int hf_nsi_interchange = -1;
static int hf_nsi_na_disabled = -1;
static int hf_nsi_no_na_linked = -1;
static int hf_nsi_na_required = -1;
static int hf_nsi_auth_wanted = -1;
static int hf_nsi_sec_reneg = -1;

static int hf_ac_version = -1;
static int hf_ac_service_options = -1;
static int hf_ac_sdu16 = -1;
static int hf_ac_tdu16 = -1;
static int hf_ac_value_of_one = -1;
static int hf_ac_data_length = -1;
static int hf_ac_data_offset = -1;
static int hf_ac_nsi_flags0 = -1;
static int hf_ac_nsi_flags1 = -1;
static int hf_ac_sdu = -1;
static int hf_ac_tdu = -1;
static int hf_ac_compression = -1;
static int hf_ac_flags2 = -1;
static int hf_ac_f2_check_oob = -1;
static int hf_ac_f2_poll_check = -1;
static int hf_ac_f2_eor = -1;
static int hf_ac_f2_fast_auth = -1;
static int hf_ac_uuid = -1;
static int hf_ac_data = -1;

static int hf_rf_user_reason = -1;
static int hf_rf_system_reason = -1;
static int hf_rf_data_length = -1;
static int hf_rf_data = -1;
static int hf_rf_err = -1;

static int hf_rd_data_length = -1;
static int hf_rd_data = -1;
static int hf_rd_address = -1;
static int hf_rd_connect_data = -1;
static int hf_rd_host = -1;
static int hf_rd_port = -1;

static int hf_mk_type = -1;
static int hf_mk_data_byte = -1;
static int hf_mk_marker = -1;

static int hf_ct_command = -1;
static int hf_ct_error = -1;
static int hf_ct_data = -1;
static int hf_ct_emfi = -1;
static int hf_ct_error2 = -1;
static int hf_ct_message = -1;

static int hf_at_type = -1;
static int hf_at_data_byte = -1;
static int hf_at_value = -1;

static int hf_dd_flags = -1;
static int hf_dd_flag_last = -1;
static int hf_dd_flag_short = -1;
static int hf_dd_total = -1;
static int hf_dd_count = -1;
static int hf_dd_segment = -1;
static int hf_dd_data = -1;

static int hf_ab_user_reason = -1;
static int hf_ab_system_reason = -1;
static int hf_ab_data = -1;

static int hf_raw = -1;
static int hf_unsync = -1;
static int hf_cut_continuation = -1;

static gint ett_tns = -1;
static gint ett_flags = -1;
static gint ett_data_flags = -1;
static gint ett_service_options = -1;
static gint ett_nsi = -1;
static gint ett_flags2 = -1;
static gint ett_connect_data = -1;
static gint ett_redirect_data = -1;
static gint ett_dd_flags = -1;

static expert_field ei_unsync = EI_INIT;
static expert_field ei_bad_header = EI_INIT;
static expert_field ei_short_packet = EI_INIT;
static expert_field ei_framing_guessed = EI_INIT;
static expert_field ei_connect_deferred = EI_INIT;
static expert_field ei_refused = EI_INIT;
static expert_field ei_redirect = EI_INIT;
static expert_field ei_marker = EI_INIT;
static expert_field ei_control_error = EI_INIT;
static expert_field ei_abort = EI_INIT;
static expert_field ei_exceeds_sdu = EI_INIT;
static expert_field ei_bad_version = EI_INIT;
static expert_field ei_bad_length = EI_INIT;
static expert_field ei_extra_bytes = EI_INIT;
static expert_field ei_resend = EI_INIT;
static expert_field ei_attention = EI_INIT;
static expert_field ei_deferred = EI_INIT;

/* TNS versions Oracle has used: 300 (SQL*Net 2) to 319 (23ai), with room
 * for later releases; anything else is not a TNS handshake. */
#define TNS_VERSION_PLAUSIBLE(v) ((v) >= 300 && (v) <= 399)

/* sqlnet.sdu_fill: one decimal and a percent sign ("23.2 %"); filters
 * compare the full value. */
static void
format_percent(gchar *buf, double value)
{
    snprintf(buf, ITEM_LABEL_LENGTH, "%.1f %%", value);
}
static expert_field ei_eof = EI_INIT;
static expert_field ei_encrypted = EI_INIT;
static expert_field ei_compressed = EI_INIT;

/* ---- value strings ----------------------------------------------------- */

static const value_string tns_type_vals[] = {
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

static const value_string marker_vals[] = {
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

#define TNS_CTL_ERR_CMAN_SHUTDOWN 12572u   /* NSECMANSHUT */
#define TNS_CTL_ERR_SEND_MESSAGE  12573u   /* NSESENDMESG: a message of error2 bytes follows */

static const value_string control_cmd_vals[] = {
    { 1, "Oracle trace" },
    { 8, "Error / in-band notification" },
    { 9, "Reset out-of-band" },
    { 0, NULL }
};

/* ---- small helpers ----------------------------------------------------- */

static gboolean
tns_type_has_short_length(guint8 type)
{
    return type == TNS_TYPE_CONNECT || type == TNS_TYPE_ACCEPT ||
           type == TNS_TYPE_REFUSE || type == TNS_TYPE_REDIRECT ||
           type == TNS_TYPE_RESEND;
}

/* Length-field width fixed by the handshake for this packet, 0 if unknown. */
static guint
tns_width_from_session(const sqlnet_session_t *sess, const packet_info *pinfo, guint8 type)
{
    if (tns_type_has_short_length(type))
        return 2;
    if (sess->accept_frame && pinfo->num > sess->accept_frame)
        return sess->version >= TNS_VERSION_MIN_LARGE_SDU ? 4 : 2;
    if (sess->connect_frame && pinfo->num >= sess->connect_frame)
        return 2;           /* between CONNECT and ACCEPT: still 16-bit */
    if (sess->guessed_width && pinfo->num >= sess->guess_frame)
        return sess->guessed_width;
    return 0;
}

/* Width suggested by the header bytes alone (mid-stream capture), 0 if the
 * bytes do not look like a TNS header in either form. */
static guint
tns_width_from_header(tvbuff_t *tvb, int offset)
{
    guint16 hi = tvb_get_ntohs(tvb, offset);
    guint16 lo = tvb_get_ntohs(tvb, offset + 2);
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    guint32 len32 = ((guint32)hi << 16) | lo;
    gboolean ok16, ok32;

    if (type == 0 || type > TNS_TYPE_MAX || tvb_get_ntohs(tvb, offset + 6) != 0)
        return 0;
    ok16 = lo == 0 && hi >= TNS_HDR_LEN;
    ok32 = len32 >= TNS_HDR_LEN && len32 <= TNS_MAX_PACKET_LEN;
    if (ok16)   /* 16-bit form; a 32-bit packet of an exact multiple of 64 KiB is rarer */
        return 2;
    if (ok32)
        return 4;
    return 0;
}

static guint32
tns_read_length(tvbuff_t *tvb, int offset, guint width)
{
    return width == 4 ? tvb_get_ntohl(tvb, offset) : tvb_get_ntohs(tvb, offset);
}

static gboolean
tns_header_valid(tvbuff_t *tvb, int offset, guint width)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    guint32 len;

    if (width == 0 || type == 0 || type > TNS_TYPE_MAX)
        return FALSE;
    len = tns_read_length(tvb, offset, width);
    return len >= TNS_HDR_LEN && len <= TNS_MAX_PACKET_LEN;
}

/* Width for the packet at offset: from the session, else decided once per
 * conversation from the headers (first pass only). */
static guint
tns_width(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    guint width = tns_width_from_session(sess, pinfo, type);

    if (width == 0 && !PINFO_FD_VISITED(pinfo)) {
        width = tns_width_from_header(tvb, offset);
        if (width) {
            sess->guessed_width = (guint8)width;
            sess->guess_frame = pinfo->num;
        }
    }
    return width;
}

/* A CONNECT is sent to the server, an ACCEPT by it: that settles which side
 * is the server before any direction is computed from the ports. */
static void
note_handshake_side(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    gboolean plausible = tvb_captured_length_remaining(tvb, offset) < 10 ||
                         TNS_VERSION_PLAUSIBLE(tvb_get_ntohs(tvb, offset + 8));
    if (type == TNS_TYPE_CONNECT && tvb_get_ntohs(tvb, offset + 2) == 0 && plausible)
        session_set_server(sess, pinfo, TRUE, SQLNET_SIDE_HANDSHAKE);
    else if (type == TNS_TYPE_ACCEPT && tvb_get_ntohs(tvb, offset + 2) == 0 && plausible)
        session_set_server(sess, pinfo, FALSE, SQLNET_SIDE_HANDSHAKE);
    else if (type == TNS_TYPE_DATA && sess->srv_source < SQLNET_SIDE_CONTENT && !PINFO_FD_VISITED(pinfo) &&
             tvb_captured_length_remaining(tvb, offset) >= TNS_HDR_LEN + 4 &&
             tvb_get_ntohs(tvb, offset + 6) == 0) {
        /* No handshake: a DATA packet whose TTC starts with a function call
         * (message 3, a known function code) or a piggyback (message 17,
         * a known function code) comes from the client, whatever the ports
         * say (Decode As on a port that is not a listener's). */
        guint8 msg = tvb_get_uint8(tvb, offset + TNS_HDR_LEN + 2);
        guint8 fn = tvb_get_uint8(tvb, offset + TNS_HDR_LEN + 3);
        if ((msg == TTC_MSG_FUNCTION || msg == TTC_MSG_PIGGYBACK) && fn != 0 &&
            hooks->is_function(fn) &&
            session_set_server(sess, pinfo, TRUE, SQLNET_SIDE_CONTENT))
            hooks->sides_changed(sess);
    }
}

/* A header no payload byte sequence is likely to imitate (8 captured bytes
 * at off): valid type and length for the conversation's width, zero
 * checksums, length within the negotiated SDU. */
static gboolean
tns_header_certain(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int off)
{
    guint8 type = tvb_get_uint8(tvb, off + 4);
    guint width = tns_width_from_session(sess, pinfo, type);
    guint32 len;

    if (width == 0)
        width = sess->guessed_width;
    if (!tns_header_valid(tvb, off, width) || tvb_get_ntohs(tvb, off + 6) != 0)
        return FALSE;
    if (width == 2 && tvb_get_ntohs(tvb, off + 2) != 0)
        return FALSE;
    len = tns_read_length(tvb, off, width);
    return !sess->sdu || len <= MAX(sess->sdu, 65535u);
}

/* Bytes the byte-wise resynchronisation below may scan in one dissection of
 * one frame, over all its calls.  TCP hands the rest of a segment over again
 * after each PDU, so a segment of headers that are certain but lead nowhere
 * (a crafted one: a header every 11 bytes, each announcing 768 bytes) was
 * scanned once per PDU, quadratic in the segment (fuzz/slow/
 * stray-scan-quadratic.in: 78 KB took 3 s).  1 MiB covers the longest
 * stretch of bytes before a header in any real capture (a capture that starts
 * mid-packet: at most one SDU, 2 MiB only with the largest SDU, then the
 * next segment starts afresh).  Per dissection (packet scope), so a frame
 * decodes the same every time it is dissected. */
#define TNS_RESYNC_BUDGET (1u << 20)

static guint32 *
resync_budget(packet_info *pinfo)
{
    guint32 *left = (guint32 *)p_get_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_RESYNC);

    if (!left) {
        left = wmem_new(pinfo->pool, guint32);
        *left = TNS_RESYNC_BUDGET;
        p_add_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_RESYNC, left);
    }
    return left;
}

/* Byte-wise resynchronisation inside a segment that does not start with a
 * TNS header (a stray byte before a RESEND, say): the first later offset
 * with a header beyond doubt whose packet ends at the segment's end, runs
 * past it, or is followed by another such header.  Bounded by the captured
 * bytes of the segment and by the frame's budget; -1 when there is none. */
static int
next_certain_header(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    int captured = (int)tvb_captured_length(tvb), end = (int)tvb_reported_length(tvb);
    guint32 *left = resync_budget(pinfo);
    const guint8 *p;
    int k, stop;

    if (offset + 1 + TNS_HDR_LEN > captured || *left == 0)
        return -1;
    /* one flat copy of the bytes scanned (a reassembled PDU is a composite
     * tvb, where a byte read walks its parts) */
    stop = captured - TNS_HDR_LEN;
    if ((guint32)(stop - offset) > *left)
        stop = offset + (int)*left;
    *left -= (guint32)(stop - offset);
    p = tvb_get_ptr(tvb, offset, stop + TNS_HDR_LEN - offset) - offset;
    for (k = offset + 1; k <= stop; k++) {
        guint width;
        guint32 len;
        /* A certain header has a zero checksum (bytes 6 and 7): a non-zero
         * byte at k + 7 rules out k and k + 1, one at k + 6 rules out k.
         * The same offsets as testing tns_header_certain() at each, with a
         * read or two per offset instead of a header's worth (this scan
         * ran over whole 64 KB segments: half the fuzz harness's time on
         * inputs of 64-256 KiB). */
        if (p[k + 7] != 0) {
            k++;
            continue;
        }
        if (p[k + 6] != 0 || !tns_header_certain(sess, pinfo, tvb, k))
            continue;
        width = tns_width_from_session(sess, pinfo, p[k + 4]);
        if (width == 0)
            width = sess->guessed_width;
        len = tns_read_length(tvb, k, width);
        if ((guint32)(end - k) <= len)
            return k;                  /* ends here or continues in the next segment */
        if (k + (int)len + TNS_HDR_LEN <= captured && tns_header_certain(sess, pinfo, tvb, k + (int)len))
            return k;                  /* and another header follows it */
    }
    return -1;
}

/* A DATA DESCRIPTOR is followed on the stream by the data it describes,
 * without TNS headers (JDBC writeZeroCopyIO): its length, counted into the
 * descriptor's PDU, when the descriptor's header is captured and its total is
 * one a short descriptor can describe; 0 otherwise. */
static guint32
dd_data_length(tvbuff_t *tvb, int offset, guint width)
{
    guint32 len, total;

    if (tvb_get_uint8(tvb, offset + 4) != TNS_TYPE_DD ||
        tvb_captured_length_remaining(tvb, offset) < TNS_DD_FIXED_LEN)
        return 0;
    len = tns_read_length(tvb, offset, width);
    if (len < TNS_DD_FIXED_LEN || !(tvb_get_ntohl(tvb, offset + 8) & TNS_DD_FLAG_SHORT))
        return 0;
    total = tvb_get_ntohl(tvb, offset + 12);
    return total <= TNS_DD_MAX_DATA ? total : 0;
}

static guint
get_tns_pdu_len(packet_info *pinfo, tvbuff_t *tvb, int offset, void *data _U_)
{
    sqlnet_session_t *sess = session_get(pinfo);
    guint width;

    note_handshake_side(sess, pinfo, tvb, offset);
    width = tns_width(sess, pinfo, tvb, offset);

    /* Not at a packet boundary or a corrupt header: take the rest of the
     * segment as one undecodable chunk so that the next segment starts afresh
     * instead of waiting for a bogus length to be reassembled. */
    if (!tns_header_valid(tvb, offset, width)) {
        /* Skip to the next certain header in the segment, else to its end. */
        int next = next_certain_header(sess, pinfo, tvb, offset);
        if (next >= offset + TNS_HDR_LEN)   /* a PDU shorter than a header is "malformed" to TCP */
            return (guint)(next - offset);
        return (guint)tvb_reported_length_remaining(tvb, offset);
    }
    return tns_read_length(tvb, offset, width) + dd_data_length(tvb, offset, width);
}

/* Value of KEY= inside a connect descriptor, or NULL. */
static const char *
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

static void
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

/* ---- packet types ------------------------------------------------------ */

static int * const flags_bits[] = {
    &hf_flags_sid, &hf_flags_redirect_data, &hf_flags_redirected,
    &hf_flags_tls_reneg, &hf_flags_large_sdu, NULL
};

static int * const data_flags_bits[] = {
    &hf_df_send_token, &hf_df_req_confirm, &hf_df_confirm, &hf_df_reserved,
    &hf_df_more, &hf_df_eof, &hf_df_imm_confirm, &hf_df_rts, &hf_df_nt_trailer,
    &hf_df_compressed, &hf_df_end_of_request, &hf_df_begin_pipeline,
    &hf_df_end_of_response, NULL
};

static int * const service_option_bits[] = {
    &hf_so_dont_care, &hf_so_half_duplex, &hf_so_full_duplex,
    &hf_so_header_checksum, &hf_so_packet_checksum, &hf_so_broken_notify,
    &hf_so_vectored_io, &hf_so_os_auth, &hf_so_can_send_attention,
    &hf_so_can_recv_attention, &hf_so_no_attention, &hf_so_raw_io, NULL
};

static int * const nsi_bits[] = {
    &hf_nsi_na_wanted, &hf_nsi_interchange, &hf_nsi_na_disabled,
    &hf_nsi_no_na_linked, &hf_nsi_na_required, &hf_nsi_auth_wanted,
    &hf_nsi_sec_reneg, NULL
};

static int * const accept_flags2_bits[] = {
    &hf_ac_f2_check_oob, &hf_ac_f2_poll_check, &hf_ac_f2_eor, &hf_ac_f2_fast_auth, NULL
};

/* The Protocol and Info columns become sqlnet's once per frame, when
 * something of the frame is shown as sqlnet: a segment that only starts a
 * TNS packet (reassembled later) keeps TCP's text (ports, Seq/Ack, flags). */
static void
claim_columns(packet_info *pinfo)
{
    if (p_get_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_COLUMNS))
        return;
    p_add_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_COLUMNS, GUINT_TO_POINTER(1));
    col_set_str(pinfo->cinfo, COL_PROTOCOL, SQLNET_PROTO_SHORT);
    col_clear(pinfo->cinfo, COL_INFO);
}

/* A fixed-offset field fits before `end`? */
#define FITS(off, size, end) ((guint32)(off) + (guint32)(size) <= (guint32)(end))

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
    hooks->note_packet(pinfo, sess, SQLNET_TO_CLIENT, TNS_TYPE_ACCEPT, len, 0, FALSE);   /* timing.c */
}

static void
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
    col_append_fstr(pinfo->cinfo, COL_INFO, " v%u, SDU %u, TDU %u", version, sdu, tdu);
}

static void
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

    col_append_fstr(pinfo->cinfo, COL_INFO, " v%u, SDU %u, TDU %u%s", version, sdu, tdu,
                    (version >= TNS_VERSION_MIN_EOR && (flags2 & TNS_AF2_END_OF_RESPONSE))
                        ? ", end-of-response" : "");
}

/* Bytes after the last field of a packet type: shown, flagged. */
static void
extra_bytes(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 len)
{
    proto_item *pi;

    if (off >= len)
        return;
    pi = proto_tree_add_item(tree, hf_raw, tvb, off, len - off, ENC_NA);
    expert_add_info(pinfo, pi, &ei_extra_bytes);
}

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
        col_append_fstr(pinfo->cinfo, COL_INFO, " ERR=%u", code);
        return;
    }
    if (expert_on)
        expert_add_info(pinfo, expert_on, &ei_refused);
}

/* REFUSE (node-oracledb RefusePacket, python-oracledb, go-ora): 8 user
 * reason, 9 system reason, 10 data length (u16), 12 data.  A REFUSE of 12
 * bytes with a data length sends its text in the next DATA packet (node
 * reads it from there). */
static void
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
        col_append_fstr(pinfo->cinfo, COL_INFO, " to %s:%s", host ? host : "?", port ? port : "?");
    if (nul >= 0 && addr_len + 1 < data_len)
        proto_tree_add_item(t, hf_rd_connect_data, tvb, off + addr_len + 1, data_len - addr_len - 1, ENC_ASCII);
}

/* REDIRECT (node RedirectPacket, python ConnectMessage, go-ora): 8 data
 * length (u16), 10 data.  A REDIRECT of 10 bytes sends its data in the next
 * DATA packet (python always reads it across packets; go-ora when the packet
 * is no longer than 10 bytes). */
static void
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
        col_append_str(pinfo->cinfo, COL_INFO, " (data follows)");
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
static gboolean
dissect_deferred_listener_data(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                               sqlnet_session_t *sess, guint32 payload_len)
{
    gboolean redirect = sess->redirect_data_deferred && pinfo->num >= sess->redirect_frame;
    gboolean refuse = sess->refuse_data_deferred && pinfo->num >= sess->refuse_frame;
    guint32 want, n;
    proto_item *pi;

    if (sess->accept_frame && pinfo->num > sess->accept_frame)
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
        col_append_str(pinfo->cinfo, COL_INFO, " (redirect data)");
        if (n > 0)
            add_redirect_data(payload, pinfo, tree, 0, n, FALSE, pi);
    } else {
        col_append_str(pinfo->cinfo, COL_INFO, " (refuse data)");
        if (n > 0)
            add_refuse_text(payload, pinfo, tree, 0, n, NULL);
    }
    extra_bytes(payload, pinfo, tree, n, payload_len);
    return TRUE;
}

static void
dissect_marker(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len,
               sqlnet_session_t *sess, sqlnet_dir_t dir)
{
    guint32 marker;
    proto_item *pi;

    if (!FITS(11, 0, len)) {
        proto_tree_add_expert(tree, pinfo, &ei_short_packet, tvb, 0, len);
        return;
    }
    hooks->note_packet(pinfo, sess, dir, TNS_TYPE_MARKER, len, 0, FALSE);
    hooks->packet(tvb, pinfo, tree, sess, dir, TNS_TYPE_MARKER, len, 0);
    proto_tree_add_item(tree, hf_mk_type, tvb, 8, 1, ENC_NA);
    proto_tree_add_item(tree, hf_mk_data_byte, tvb, 9, 1, ENC_NA);
    pi = proto_tree_add_item_ret_uint(tree, hf_mk_marker, tvb, 10, 1, ENC_NA, &marker);
    col_append_fstr(pinfo->cinfo, COL_INFO, " %s", val_to_str_const(marker, marker_vals, "?"));
    expert_add_info(pinfo, pi, &ei_marker);   /* which one: sqlnet.marker */
}

/* CONTROL (node ControlPacket, python _process_control_packet): 8 command
 * (u16).  Command 8, error: 10 error space (u32, 22 = ORA), 14 error number
 * (u32; python reads only this one), 18 second word (u32): for error 12573
 * (send message) the length of the message text at 22.  Command 9 (reset
 * out-of-band) has no data. */
static void
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
    col_append_fstr(pinfo->cinfo, COL_INFO, " %s", sqlnet_val_to_str(pinfo->pool, cmd, control_cmd_vals, "command %u"));
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
    col_append_fstr(pinfo->cinfo, COL_INFO, " %u", err);
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
static void
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

/* RESEND: the header alone (python, node, go-ora read nothing after it); the
 * client sends its CONNECT again, after a TLS renegotiation when header flag
 * 0x08 (NSPFSRN) is set. */
static void
dissect_resend(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    gboolean reneg = (tvb_get_uint8(tvb, 5) & TNS_HF_TLS_RENEG) != 0;

    proto_tree_add_expert_format(tree, pinfo, &ei_resend, tvb, 0, TNS_HDR_LEN,
                                 reneg ? "Listener asks for the CONNECT again after a TLS renegotiation"
                                       : "Listener asks for the CONNECT again");
    if (reneg)
        col_append_str(pinfo->cinfo, COL_INFO, " (TLS renegotiation)");
    extra_bytes(tvb, pinfo, tree, TNS_HDR_LEN, len);
}

/* ATTENTION (Wireshark's packet-tns.c decodes it as a MARKER): 8 type, 9
 * data byte, 10 value. */
static void
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
    col_append_fstr(pinfo->cinfo, COL_INFO, " %s", val_to_str_const(value, marker_vals, "?"));
    expert_add_info(pinfo, pi, &ei_attention);
    extra_bytes(tvb, pinfo, tree, 11, len);
}

static int * const dd_flags_bits[] = { &hf_dd_flag_last, &hf_dd_flag_short, NULL };

/* DATA DESCRIPTOR (JDBC NIODataDescriptorPacket): 8 flags (u32), 12 total
 * data length (u32), 16 segment count (u32), 20 26 segment lengths (u16,
 * the unused ones 0); `len` is the packet's own length, the tvb holds the
 * data that follows it without TNS headers too (get_tns_pdu_len). */
static void
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
    col_append_fstr(pinfo->cinfo, COL_INFO, " %u bytes in %u segment%s%s", total, count,
                    count == 1 ? "" : "s", (flags & TNS_DD_FLAG_LAST) ? ", last" : "");
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
static void
dissect_header_only(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len)
{
    extra_bytes(tvb, pinfo, tree, TNS_HDR_LEN, len);
}

static void
dissect_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
             sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 len)
{
    guint32 payload_len;
    guint64 dflags = 0;
    proto_item *pi;
    tvbuff_t *payload;

    if (!FITS(TNS_DATA_HDR_LEN, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "DATA packet without data flags");
        return;
    }
    proto_tree_add_bitmask_ret_uint64(tree, tvb, 8, hf_data_flags, ett_data_flags,
                                      data_flags_bits, ENC_BIG_ENDIAN, &dflags);
    hooks->packet(tvb, pinfo, tree, sess, dir, TNS_TYPE_DATA, len, (guint16)dflags);
    payload_len = len - TNS_DATA_HDR_LEN;
    pi = proto_tree_add_uint(tree, hf_data_len, tvb, TNS_DATA_HDR_LEN, payload_len, payload_len);
    proto_item_set_generated(pi);

    if (dflags & TNS_DF_EOF)
        expert_add_info(pinfo, pi, &ei_eof);

    if (dflags & TNS_DF_EOF)
        col_append_str(pinfo->cinfo, COL_INFO, " EOF");
    if (dflags & TNS_DF_END_OF_RESPONSE)
        col_append_str(pinfo->cinfo, COL_INFO, dir == SQLNET_TO_CLIENT ? " end-of-response" : " end-of-request");

    if (payload_len == 0) {
        if (!(dflags & TNS_DF_EOF))
            hooks->note_packet(pinfo, sess, dir, TNS_TYPE_DATA, len, (guint16)dflags, FALSE);
        return;
    }
    payload = tvb_new_subset_length(tvb, TNS_DATA_HDR_LEN, payload_len);

    /* Connect descriptor longer than 230 bytes: sent after the CONNECT. */
    if (dir == SQLNET_TO_SERVER && sess->connect_data_deferred && sess->connect_frame &&
        pinfo->num >= sess->connect_frame &&
        (sess->accept_frame == 0 || pinfo->num < sess->accept_frame)) {
        add_connect_data(tree, payload, 0, payload_len, pinfo);
        col_append_str(pinfo->cinfo, COL_INFO, " (connect data)");
        return;
    }
    if (dir == SQLNET_TO_CLIENT && dissect_deferred_listener_data(payload, pinfo, tree, sess, payload_len))
        return;
    hooks->data(payload, pinfo, tree, sess, dir, len, (guint16)dflags);
}

void
tns_add_undecoded_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                          tns_payload_kind_t kind)
{
    guint32 payload_len = tvb_reported_length(payload);
    proto_item *pi;

    switch (kind) {
    case TNS_PAYLOAD_ENCRYPTED:
        pi = proto_tree_add_item(tree, hf_data_encrypted, payload, 0, payload_len, ENC_NA);
        expert_add_info(pinfo, pi, &ei_encrypted);
        col_append_str(pinfo->cinfo, COL_INFO, " (encrypted)");
        break;
    case TNS_PAYLOAD_COMPRESSED:
        pi = proto_tree_add_item(tree, hf_data_compressed, payload, 0, payload_len, ENC_NA);
        expert_add_info(pinfo, pi, &ei_compressed);
        col_append_str(pinfo->cinfo, COL_INFO, " (compressed)");
        break;
    case TNS_PAYLOAD_RAW:
    default:
        proto_tree_add_item(tree, hf_data_payload, payload, 0, payload_len, ENC_NA);
        break;
    }
}

/* Generated per-packet facts from the conversation. */
static void
add_session_summary(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                    const sqlnet_session_t *sess, guint32 len)
{
    proto_item *pi;

    hooks->session_summary(tvb, pinfo, tree, sess);
    if (!session_negotiated(sess, pinfo))
        return;
    pi = proto_tree_add_uint(tree, hf_version, tvb, 0, 0, sess->version);
    proto_item_set_generated(pi);
    /* 0: the capture cut the ACCEPT before its SDU/TDU fields */
    if (sess->sdu) {
        pi = proto_tree_add_uint(tree, hf_sdu, tvb, 0, 0, sess->sdu);
        proto_item_set_generated(pi);
    }
    if (sess->tdu) {
        pi = proto_tree_add_uint(tree, hf_tdu, tvb, 0, 0, sess->tdu);
        proto_item_set_generated(pi);
    }
    if (sess->sdu > 0) {
        pi = proto_tree_add_double(tree, hf_sdu_fill, tvb, 0, 0, 100.0 * len / sess->sdu);
        proto_item_set_generated(pi);
        if (len > sess->sdu && sess->accept_frame != pinfo->num)
            expert_add_info(pinfo, pi, &ei_exceeds_sdu);   /* sqlnet.length, sqlnet.sdu */
    }
}

/* 100 * num / den rounded like printf("%.0f", 100.0 * num / den): to the
 * nearest integer, ties to even (the quotient is exact in a double here). */
static guint32
percent_rounded(guint32 num, guint32 den)
{
    guint64 n = (guint64)num * 100u;
    guint64 q = n / den, r2 = (n % den) * 2u;
    if (r2 > den || (r2 == den && (q & 1u)))
        q++;
    return (guint32)q;
}

static int
dissect_tns_pdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    const struct tcpinfo *tcpi = (const struct tcpinfo *)data;
    sqlnet_session_t *sess = session_get(pinfo);
    sqlnet_dir_t dir;
    guint width;

    note_handshake_side(sess, pinfo, tvb, 0);
    dir = session_direction(sess, pinfo);
    width = tns_width(sess, pinfo, tvb, 0);
    guint32 len = tvb_reported_length(tvb);
    guint8 type;
    const char *type_name;
    proto_item *ti, *pi;
    proto_tree *tns_tree;

    ti = proto_tree_add_item(tree, proto_tns_layer, tvb, 0, -1, ENC_NA);
    tns_tree = proto_item_add_subtree(ti, ett_tns);
    pi = proto_tree_add_uint(tns_tree, hf_direction, tvb, 0, 0, dir == SQLNET_TO_CLIENT);
    proto_item_set_generated(pi);

    claim_columns(pinfo);
    col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", dir == SQLNET_TO_SERVER ? "C\u2192S" : "S\u2192C");

    if (!tns_header_valid(tvb, 0, width)) {
        pi = proto_tree_add_item(tns_tree, hf_unsync, tvb, 0, -1, ENC_NA);
        if (width == 0)
            expert_add_info(pinfo, pi, &ei_unsync);       /* bytes skipped: the item's length */
        else
            expert_add_info(pinfo, pi, &ei_bad_header);
        col_append_str(pinfo->cinfo, COL_INFO, " [not a TNS header]");
        return tvb_captured_length(tvb);
    }

    type = tvb_get_uint8(tvb, 4);
    if (type == TNS_TYPE_DD)   /* the PDU holds the data that follows the descriptor too */
        len = MIN(len, tns_read_length(tvb, 0, width));
    if (tcpi && tcpi->is_reassembled)
        hooks->multi_segment(pinfo, sess, dir, len);
    type_name = sqlnet_val_to_str(pinfo->pool, type, tns_type_vals, "type %u");
    proto_item_append_text(ti, ", %s", type_name);
    /* One column call per packet, integer arithmetic and no printf: this runs
     * for every TNS packet of the capture (see bench/). */
    {
        sqlnet_coltext_t info;
        coltext_init(&info);
        coltext_str(&info, " ");
        coltext_str(&info, type_name);
        if (type != TNS_TYPE_CONNECT && type != TNS_TYPE_ACCEPT) {
            coltext_str(&info, " len ");
            coltext_uint(&info, len);
            if (session_negotiated(sess, pinfo) && sess->sdu) {
                coltext_str(&info, "/");
                coltext_uint(&info, sess->sdu);
                coltext_str(&info, " (");
                coltext_uint(&info, percent_rounded(len, sess->sdu));
                coltext_str(&info, "%)");
            }
        }
        col_append_str(pinfo->cinfo, COL_INFO, info.buf);
    }

    if (width == 4) {
        proto_tree_add_item(tns_tree, hf_length, tvb, 0, 4, ENC_BIG_ENDIAN);
    } else {
        proto_tree_add_item(tns_tree, hf_length, tvb, 0, 2, ENC_BIG_ENDIAN);
        proto_tree_add_item(tns_tree, hf_packet_checksum, tvb, 2, 2, ENC_BIG_ENDIAN);
    }
    pi = proto_tree_add_uint(tns_tree, hf_length_width, tvb, 0, width, width);
    proto_item_set_generated(pi);
    if (sess->guess_frame == pinfo->num && sess->guessed_width)
        expert_add_info(pinfo, pi, &ei_framing_guessed);   /* the width: sqlnet.length_width */
    proto_tree_add_item(tns_tree, hf_type, tvb, 4, 1, ENC_NA);
    proto_tree_add_bitmask(tns_tree, tvb, 5, hf_flags, ett_flags, flags_bits, ENC_NA);
    proto_tree_add_item(tns_tree, hf_header_checksum, tvb, 6, 2, ENC_BIG_ENDIAN);

    switch (type) {
    case TNS_TYPE_CONNECT:  dissect_connect(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_ACCEPT:   dissect_accept(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_REFUSE:   dissect_refuse(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_REDIRECT: dissect_redirect(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_DATA:     dissect_data(tvb, pinfo, tns_tree, sess, dir, len); break;
    case TNS_TYPE_MARKER:   dissect_marker(tvb, pinfo, tns_tree, len, sess, dir); break;
    case TNS_TYPE_CONTROL:  dissect_control(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_ABORT:    dissect_abort(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_RESEND:   dissect_resend(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_ATTENTION: dissect_attention(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_DD:       dissect_dd(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_NULL:
    case TNS_TYPE_ACK:      dissect_header_only(tvb, pinfo, tns_tree, len); break;
    default:
        if (len > TNS_HDR_LEN)
            proto_tree_add_item(tns_tree, hf_raw, tvb, TNS_HDR_LEN, len - TNS_HDR_LEN, ENC_NA);
        break;
    }

    add_session_summary(tvb, pinfo, tns_tree, sess, len);
    return tvb_captured_length(tvb);
}

/* ---- snaplen-truncated captures ------------------------------------------
 *
 * TCP does not reassemble a segment the capture cut short, so the TNS packet
 * it starts is dissected as far as it was captured and the segments that
 * carry the rest of it arrive here as if they began a new packet.  The
 * sequence number where the next TNS packet begins is remembered per
 * direction, and the bytes before it are shown as a continuation instead of
 * being taken for a (bad) TNS header.  The verdict per frame is stored on the
 * first pass. */



/* Bytes at the start of this segment that continue a cut TNS packet. */
static guint32
cut_continuation(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, const struct tcpinfo *tcpi)
{
    guint32 seglen = tvb_reported_length(tvb), skip = 0;
    sqlnet_dir_t dir;
    gint32 ahead;

    if (PINFO_FD_VISITED(pinfo))
        return GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT));
    if (!tcpi || !(sess->cut_pending[0] || sess->cut_pending[1]))
        return 0;
    dir = session_direction(sess, pinfo);
    if (!sess->cut_pending[dir])
        return 0;
    if (sess->cut_unknown[dir]) {
        /* The cut packet's length was not captured: continuation until a
         * segment starts with a header that is beyond doubt a TNS header. */
        if (tvb_captured_length(tvb) >= TNS_HDR_LEN && tns_header_certain(sess, pinfo, tvb, 0)) {
            sess->cut_pending[dir] = sess->cut_unknown[dir] = FALSE;
            return 0;
        }
        skip = seglen;
        p_add_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT, GUINT_TO_POINTER(skip));
        return skip;
    }
    ahead = (gint32)(sess->cut_next_seq[dir] - tcpi->seq);
    if (ahead <= 0) {
        sess->cut_pending[dir] = FALSE;        /* this segment starts a packet */
        return 0;
    }
    skip = MIN((guint32)ahead, seglen);
    if ((guint32)ahead <= seglen)
        sess->cut_pending[dir] = FALSE;
    p_add_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT, GUINT_TO_POINTER(skip));
    return skip;
}

/* After the PDUs of a cut segment: does its last TNS packet go on beyond
 * the segment?  Walks the captured headers only (bounded by the segment). */
static void
note_cut_packet(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, const struct tcpinfo *tcpi,
                guint32 skip)
{
    guint32 captured = tvb_captured_length(tvb), reported = tvb_reported_length(tvb);
    guint32 off = skip;
    sqlnet_dir_t dir;

    if (PINFO_FD_VISITED(pinfo) || !tcpi || captured >= reported)
        return;
    if (off + TNS_HDR_LEN <= captured)
        note_handshake_side(sess, pinfo, tvb, off);   /* a cut CONNECT/ACCEPT still tells the sides */
    dir = session_direction(sess, pinfo);
    while (off < reported) {
        guint width;
        guint32 plen;
        if (off + TNS_HDR_LEN > captured) {
            /* the next header was cut off: where its packet ends is unknown */
            sess->cut_pending[dir] = sess->cut_unknown[dir] = TRUE;
            return;
        }
        width = tns_width_from_session(sess, pinfo, tvb_get_uint8(tvb, off + 4));
        if (width == 0)
            width = sess->guessed_width;
        if (!tns_header_valid(tvb, off, width))
            return;
        plen = tns_read_length(tvb, off, width) + dd_data_length(tvb, (int)off, width);
        if (plen > reported - off) {
            sess->cut_next_seq[dir] = tcpi->seq + off + plen;
            sess->cut_pending[dir] = TRUE;
            sess->cut_unknown[dir] = FALSE;
            return;
        }
        off += plen;
    }
}

/* Bytes at `off` (the start of what TCP handed over) that come before a
 * header beyond doubt further on: a stray byte before a RESEND, say.  Shown
 * and skipped here, since tcp_dissect_pdus cannot take a PDU shorter than a
 * TNS header; 0 when the data starts with a valid header or none follows. */
static guint32
stray_bytes(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, proto_tree *tree, guint32 off)
{
    guint width;
    int next;
    proto_item *ti, *pi;
    proto_tree *t;

    if (tvb_captured_length_remaining(tvb, off) < TNS_HDR_LEN)
        return 0;
    width = tns_width_from_session(sess, pinfo, tvb_get_uint8(tvb, off + 4));
    if (width == 0)
        width = sess->guessed_width;
    if (width == 0 || tns_header_valid(tvb, off, width))
        return 0;
    next = next_certain_header(sess, pinfo, tvb, (int)off);
    if (next <= (int)off)
        return 0;
    ti = proto_tree_add_item(tree, proto_tns_layer, tvb, off, next - (int)off, ENC_NA);
    t = proto_item_add_subtree(ti, ett_tns);
    pi = proto_tree_add_item(t, hf_unsync, tvb, off, next - (int)off, ENC_NA);
    expert_add_info_format(pinfo, pi, &ei_bad_header,
                           "Invalid TNS header: stray bytes before a TNS header skipped");
    claim_columns(pinfo);
    col_append_str(pinfo->cinfo, COL_INFO, "[stray bytes]");
    return (guint32)(next - (int)off);
}

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
static int
foreign_protocol(tvbuff_t *tvb, packet_info *pinfo, sqlnet_session_t *sess)
{
    dissector_handle_t handle = NULL;
    conversation_t *conv;

    if (!PINFO_FD_VISITED(pinfo) && sess->first_verdict == FIRST_UNKNOWN && tvb_reported_length(tvb) > 0 &&
        tcp_start_seen(pinfo)) {
        sess->first_verdict = (guint8)first_payload_verdict(tvb, pinfo);
        switch (sess->first_verdict) {
        case FIRST_TLS:             /* TLS, through tls.c's watch for undecrypted TNS */
            handle = hooks->tls_watch() ? hooks->tls_watch() : tls_handle;
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

int
tns_dissect_tcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    const struct tcpinfo *tcpi = (const struct tcpinfo *)data;
    sqlnet_session_t *sess = session_get(pinfo);
    guint32 skip;
    int foreign;

    foreign = foreign_protocol(tvb, pinfo, sess);
    if (foreign >= 0)
        return foreign;
    /* a server segment: a response's segments, with its payload length
     * (unknown here when TCP hands over a reassembled PDU or TLS its
     * plaintext, tcpi NULL: the tcp tap listener gives it) */
    hooks->note_segment(pinfo, sess, tcpi && !tcpi->is_reassembled ? tvb_reported_length(tvb) : 0);
    skip = cut_continuation(sess, pinfo, tvb, tcpi);
    if (skip > 0) {
        /* the bytes that were captured of it: the snaplen cut this segment too */
        gint shown = (gint)MIN(skip, tvb_captured_length(tvb));
        proto_item *ti;
        proto_tree *t;
        claim_columns(pinfo);
        col_append_str(pinfo->cinfo, COL_INFO, "[continuation of a TNS packet cut by the snaplen]");
        ti = proto_tree_add_item(tree, proto_tns_layer, tvb, 0, shown, ENC_NA);
        t = proto_item_add_subtree(ti, ett_tns);
        proto_tree_add_item(t, hf_cut_continuation, tvb, 0, shown, ENC_NA);
        if (skip >= tvb_reported_length(tvb))
            return tvb_captured_length(tvb);
    }
    skip += stray_bytes(sess, pinfo, tvb, tree, skip);
    if (skip >= tvb_reported_length(tvb))
        return tvb_captured_length(tvb);
    /* before the PDUs: dissecting a cut one ends in an exception */
    note_cut_packet(sess, pinfo, tvb, tcpi, skip);
    tcp_dissect_pdus(skip ? tvb_new_subset_remaining(tvb, skip) : tvb, pinfo, tree,
                     sqlnet_prefs()->desegment, TNS_HDR_LEN, get_tns_pdu_len, dissect_tns_pdu, data);
    return tvb_captured_length(tvb);
}

gboolean
tns_looks_like_handshake(tvbuff_t *tvb, packet_info *pinfo _U_)
{
    guint16 len, version;
    guint8 type;

    if (tvb_captured_length(tvb) < 24)
        return FALSE;
    len = tvb_get_ntohs(tvb, 0);
    type = tvb_get_uint8(tvb, 4);
    version = tvb_get_ntohs(tvb, 8);
    if (tvb_get_ntohs(tvb, 2) != 0 || tvb_get_ntohs(tvb, 6) != 0)
        return FALSE;
    if (!TNS_VERSION_PLAUSIBLE(version))
        return FALSE;
    if (type == TNS_TYPE_CONNECT) {
        guint16 compat, dlen, doff, sdu;
        /* every offset read below is within the 28 bytes checked here */
        if (tvb_captured_length(tvb) < 28)
            return FALSE;
        compat = tvb_get_ntohs(tvb, 10);
        sdu = tvb_get_ntohs(tvb, 14);
        dlen = tvb_get_ntohs(tvb, 24);
        if (len < 34 || compat > version || compat < 200 || sdu < 256)
            return FALSE;
        doff = tvb_get_ntohs(tvb, 26);
        if (doff < 28 || doff > len)
            return FALSE;
        if (dlen > 0 && doff + dlen <= len && tvb_captured_length(tvb) > doff)
            return tvb_get_uint8(tvb, doff) == '(';
        return TRUE;
    }
    if (type == TNS_TYPE_ACCEPT)
        return len >= 24 && tvb_get_ntohs(tvb, 20) <= len;
    return FALSE;
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
    hooks = tns_hooks;
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
}
