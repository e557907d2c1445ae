/* tns_internal.h - shared between the files of the TNS layer (framing/ only): its
 * fields and expert items (tns_fields.c), and the functions one file gives
 * the others.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TNS_INTERNAL_H
#define SQLNET_TNS_INTERNAL_H

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/dissectors/packet-tcp.h>

#include "session.h"
#include "tns.h"

/* TNS versions Oracle has used: 300 (SQL*Net 2) to 319 (23ai), with room
 * for later releases; anything else is not a TNS handshake. */
#define TNS_VERSION_PLAUSIBLE(v) ((v) >= 300 && (v) <= 399)

#define TNS_CTL_ERR_CMAN_SHUTDOWN 12572u   /* NSECMANSHUT */
#define TNS_CTL_ERR_SEND_MESSAGE  12573u   /* NSESENDMESG: a message of error2 bytes follows */

/* A fixed-offset field fits before `end`? */
#define FITS(off, size, end) ((guint32)(off) + (guint32)(size) <= (guint32)(end))

/* tns_fields.c */
extern int proto_tns_layer;
extern const tns_hooks_t *tns_layer_hooks;   /* the layers above (plugin.c, tns_register()) */
extern int hf_length;
extern int hf_packet_checksum;
extern int hf_type;
extern int hf_flags;
extern int hf_flags_sid;
extern int hf_flags_redirect_data;
extern int hf_flags_redirected;
extern int hf_flags_tls_reneg;
extern int hf_flags_large_sdu;
extern int hf_header_checksum;
extern int hf_length_width;
extern int hf_direction;
extern int hf_version;
extern int hf_sdu;
extern int hf_tdu;
extern int hf_sdu_fill;
extern int hf_data_flags;
extern int hf_df_send_token;
extern int hf_df_req_confirm;
extern int hf_df_confirm;
extern int hf_df_reserved;
extern int hf_df_more;
extern int hf_df_eof;
extern int hf_df_imm_confirm;
extern int hf_df_rts;
extern int hf_df_nt_trailer;
extern int hf_df_compressed;
extern int hf_df_end_of_request;
extern int hf_df_begin_pipeline;
extern int hf_df_end_of_response;
extern int hf_data_len;
extern int hf_data_payload;
extern int hf_data_encrypted;
extern int hf_data_compressed;
extern int hf_cn_version;
extern int hf_cn_compat_version;
extern int hf_cn_service_options;
extern int hf_cn_sdu16;
extern int hf_cn_tdu16;
extern int hf_cn_nt_characteristics;
extern int hf_cn_line_turnaround;
extern int hf_cn_value_of_one;
extern int hf_cn_data_length;
extern int hf_cn_data_offset;
extern int hf_cn_max_receivable;
extern int hf_cn_nsi_flags0;
extern int hf_cn_nsi_flags1;
extern int hf_cn_trace_info;
extern int hf_cn_sdu;
extern int hf_cn_tdu;
extern int hf_cn_flags1;
extern int hf_cn_flags2;
extern int hf_cn_data;
extern int hf_cn_service_name;
extern int hf_cn_sid;
extern int hf_cn_program;
extern int hf_cn_host;
extern int hf_cn_user;
extern int hf_cn_data_deferred;
extern int hf_so_dont_care;
extern int hf_so_half_duplex;
extern int hf_so_full_duplex;
extern int hf_so_header_checksum;
extern int hf_so_packet_checksum;
extern int hf_so_broken_notify;
extern int hf_so_vectored_io;
extern int hf_so_os_auth;
extern int hf_so_can_send_attention;
extern int hf_so_can_recv_attention;
extern int hf_so_no_attention;
extern int hf_so_raw_io;
extern int hf_nsi_na_wanted;
extern int hf_nsi_interchange;
extern int hf_nsi_na_disabled;
extern int hf_nsi_no_na_linked;
extern int hf_nsi_na_required;
extern int hf_nsi_auth_wanted;
extern int hf_nsi_sec_reneg;
extern int hf_ac_version;
extern int hf_ac_service_options;
extern int hf_ac_sdu16;
extern int hf_ac_tdu16;
extern int hf_ac_value_of_one;
extern int hf_ac_data_length;
extern int hf_ac_data_offset;
extern int hf_ac_nsi_flags0;
extern int hf_ac_nsi_flags1;
extern int hf_ac_sdu;
extern int hf_ac_tdu;
extern int hf_ac_compression;
extern int hf_ac_flags2;
extern int hf_ac_f2_check_oob;
extern int hf_ac_f2_poll_check;
extern int hf_ac_f2_eor;
extern int hf_ac_f2_fast_auth;
extern int hf_ac_uuid;
extern int hf_ac_data;
extern int hf_rf_user_reason;
extern int hf_rf_system_reason;
extern int hf_rf_data_length;
extern int hf_rf_data;
extern int hf_rf_err;
extern int hf_rd_data_length;
extern int hf_rd_data;
extern int hf_rd_address;
extern int hf_rd_connect_data;
extern int hf_rd_host;
extern int hf_rd_port;
extern int hf_mk_type;
extern int hf_mk_data_byte;
extern int hf_mk_marker;
extern int hf_ct_command;
extern int hf_ct_error;
extern int hf_ct_data;
extern int hf_ct_emfi;
extern int hf_ct_error2;
extern int hf_ct_message;
extern int hf_at_type;
extern int hf_at_data_byte;
extern int hf_at_value;
extern int hf_dd_flags;
extern int hf_dd_flag_last;
extern int hf_dd_flag_short;
extern int hf_dd_total;
extern int hf_dd_count;
extern int hf_dd_segment;
extern int hf_dd_data;
extern int hf_ab_user_reason;
extern int hf_ab_system_reason;
extern int hf_ab_data;
extern int hf_raw;
extern int hf_unsync;
extern int hf_cut_continuation;
extern gint ett_tns;
extern gint ett_flags;
extern gint ett_data_flags;
extern gint ett_service_options;
extern gint ett_nsi;
extern gint ett_flags2;
extern gint ett_connect_data;
extern gint ett_redirect_data;
extern gint ett_dd_flags;
extern expert_field ei_unsync;
extern expert_field ei_bad_header;
extern expert_field ei_short_packet;
extern expert_field ei_framing_guessed;
extern expert_field ei_connect_deferred;
extern expert_field ei_refused;
extern expert_field ei_redirect;
extern expert_field ei_marker;
extern expert_field ei_control_error;
extern expert_field ei_abort;
extern expert_field ei_exceeds_sdu;
extern expert_field ei_bad_version;
extern expert_field ei_bad_length;
extern expert_field ei_extra_bytes;
extern expert_field ei_resend;
extern expert_field ei_attention;
extern expert_field ei_deferred;
extern expert_field ei_eof;
extern expert_field ei_encrypted;
extern expert_field ei_compressed;
extern const value_string tns_type_vals[];
extern const value_string marker_vals[];
extern const value_string control_cmd_vals[];
extern int * const flags_bits[];
extern int * const data_flags_bits[];
extern int * const service_option_bits[];
extern int * const nsi_bits[];
extern int * const accept_flags2_bits[];
extern int * const dd_flags_bits[];

/* tns_fields.c */
void claim_columns(packet_info *pinfo);
void extra_bytes(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 off, guint32 len);

/* tns_length.c */
/* What the first pass saw of a TNS packet sent between a CONNECT and its
 * ACCEPT (tns_pdu_first()). */
typedef struct {
    guint8   width;                /* length-field width */
    gboolean width_known;
    gboolean connect_data;         /* a DATA packet that carried the connect descriptor */
} tns_pdu_first_t;
tns_pdu_first_t *tns_pdu_first(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset);
guint tns_width_from_session(const sqlnet_session_t *sess, const packet_info *pinfo, guint8 type);
guint32 tns_read_length(tvbuff_t *tvb, int offset, guint width);
gboolean tns_header_valid(tvbuff_t *tvb, int offset, guint width);
guint tns_width(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset);
void note_handshake_side(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset);
guint32 dd_data_length(tvbuff_t *tvb, int offset, guint width);

/* tns_resync.c */
gboolean tns_header_certain(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int off);
int next_certain_header(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset);
guint32 stray_bytes(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, proto_tree *tree, guint32 off);

/* tns_connect.c */
const char *descriptor_value(wmem_allocator_t *scope, const char *desc, const char *key);
void add_connect_data(proto_tree *tree, tvbuff_t *tvb, int offset, int len, packet_info *pinfo);
void dissect_connect(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                     guint32 len);
void dissect_accept(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess, guint32 len);

/* tns_listener.c */
void dissect_refuse(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess, guint32 len);
void dissect_redirect(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                      guint32 len);
gboolean dissect_deferred_listener_data(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                                        sqlnet_session_t *sess, guint32 payload_len);
void dissect_resend(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);

/* tns_packets.c */
void dissect_marker(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len,
                    sqlnet_session_t *sess, sqlnet_dir_t dir);
void dissect_control(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);
void dissect_abort(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);
void dissect_attention(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);
void dissect_dd(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);
void dissect_header_only(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, guint32 len);

/* tns_snaplen.c */
guint32 cut_continuation(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb,
                         const struct tcpinfo *tcpi);
void note_cut_packet(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb,
                     const struct tcpinfo *tcpi, guint32 skip);

/* tns_foreign.c */
int foreign_protocol(tvbuff_t *tvb, packet_info *pinfo, sqlnet_session_t *sess);

#endif /* SQLNET_TNS_INTERNAL_H */
