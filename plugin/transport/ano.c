/* ano.c - Advanced Networking Option negotiation (see ano.h).
 *
 * Layout (all big-endian):
 *   DE AD BE EF | u16 length | u32 version | u16 services | u8 flags
 *   per service:    u16 type | u16 sub-packets | u32 error
 *   per sub-packet: u16 length | u16 type | value
 * Service types: 1 authentication, 2 encryption, 3 data integrity,
 * 4 supervisor.  In the server's reply the encryption and integrity
 * services carry a version sub-packet then a ub1 sub-packet (type 2) with
 * the chosen algorithm; 0 means none.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/expert.h>

#include "sqlnet.h"
#include "session.h"
#include "ano.h"
#include "coltext.h"

#define ANO_MAGIC          0xDEADBEEFu
#define ANO_HDR_LEN        13
#define ANO_SVC_HDR_LEN    8
#define ANO_SUB_HDR_LEN    4
#define ANO_MAX_SERVICES   16
#define ANO_MAX_SUBPACKETS 64

#define ANO_SVC_AUTH        1
#define ANO_SVC_ENCRYPTION  2
#define ANO_SVC_INTEGRITY   3
#define ANO_SVC_SUPERVISOR  4

#define ANO_SUB_UB1         2

static int hf_ano = -1;
static int hf_ano_length = -1;
static int hf_ano_version = -1;
static int hf_ano_nservices = -1;
static int hf_ano_flags = -1;
static int hf_ano_service = -1;
static int hf_ano_nsub = -1;
static int hf_ano_error = -1;
static int hf_ano_sub_length = -1;
static int hf_ano_sub_type = -1;
static int hf_ano_sub_value = -1;
static int hf_ano_encryption = -1;
static int hf_ano_integrity = -1;
static int hf_nne = -1;
static int hf_integrity = -1;

static gint ett_ano = -1;
static gint ett_ano_service = -1;
static gint ett_ano_sub = -1;

static expert_field ei_ano_truncated = EI_INIT;
static expert_field ei_ano_limit = EI_INIT;
static expert_field ei_nne_on = EI_INIT;

static const value_string service_vals[] = {
    { ANO_SVC_AUTH,       "Authentication" },
    { ANO_SVC_ENCRYPTION, "Encryption" },
    { ANO_SVC_INTEGRITY,  "Data integrity" },
    { ANO_SVC_SUPERVISOR, "Supervisor" },
    { 0, NULL }
};

static const value_string sub_type_vals[] = {
    { 0, "String" }, { 1, "Bytes" }, { 2, "UB1" }, { 3, "UB2" },
    { 4, "UB4" }, { 5, "Version" }, { 6, "Status" }, { 7, "Supervisor array" },
    { 0, NULL }
};

/* Algorithm ids as go-ora and JDBC list them. */
static const value_string encryption_vals[] = {
    { 0, "none" }, { 1, "RC4_40" }, { 2, "DES56C" }, { 3, "DES40C" },
    { 6, "RC4_256" }, { 8, "RC4_56" }, { 10, "RC4_128" }, { 11, "3DES112" },
    { 12, "3DES168" }, { 15, "AES128" }, { 16, "AES192" }, { 17, "AES256" },
    { 0, NULL }
};

static const value_string integrity_vals[] = {
    { 0, "none" }, { 1, "MD5" }, { 3, "SHA1" }, { 4, "SHA512" }, { 5, "SHA256" },
    { 6, "SHA384" },
    { 0, NULL }
};

gboolean
ano_is_ano_at(tvbuff_t *tvb, guint offset)
{
    return tvb_bytes_exist(tvb, offset, 4) && tvb_get_ntohl(tvb, offset) == ANO_MAGIC;
}

gboolean
ano_is_ano(tvbuff_t *payload)
{
    return ano_is_ano_at(payload, 0);
}

static void
version_string(gchar *buf, guint32 v)
{
    snprintf(buf, ITEM_LABEL_LENGTH, "%u.%u.%u.%u.%u",
             v >> 24, (v >> 20) & 0xF, (v >> 12) & 0xFF, (v >> 8) & 0xF, v & 0xFF);
}

void
ano_dissect(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
            sqlnet_session_t *sess, gboolean from_server)
{
    guint32 len = tvb_reported_length(tvb);
    guint32 nservices, s, offset;
    gint encryption = -1, integrity = -1;
    proto_item *ti;
    proto_tree *ano_tree;

    ti = proto_tree_add_item(tree, hf_ano, tvb, 0, -1, ENC_NA);
    ano_tree = proto_item_add_subtree(ti, ett_ano);
    sqlnet_col_append(pinfo, " ANO");
    if (len < ANO_HDR_LEN) {
        expert_add_info(pinfo, ti, &ei_ano_truncated);
        return;
    }
    proto_tree_add_item(ano_tree, hf_ano_length, tvb, 4, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(ano_tree, hf_ano_version, tvb, 6, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item_ret_uint(ano_tree, hf_ano_nservices, tvb, 10, 2, ENC_BIG_ENDIAN, &nservices);
    proto_tree_add_item(ano_tree, hf_ano_flags, tvb, 12, 1, ENC_NA);

    offset = ANO_HDR_LEN;
    for (s = 0; s < nservices; s++) {
        guint32 type, nsub, sub;
        proto_item *si;
        proto_tree *st;
        gboolean took_algorithm = FALSE;

        if (s >= ANO_MAX_SERVICES) {
            expert_add_info(pinfo, ti, &ei_ano_limit);
            break;
        }
        if (offset + ANO_SVC_HDR_LEN > len) {
            expert_add_info(pinfo, ti, &ei_ano_truncated);
            break;
        }
        si = proto_tree_add_item_ret_uint(ano_tree, hf_ano_service, tvb, offset, 2, ENC_BIG_ENDIAN, &type);
        st = proto_item_add_subtree(si, ett_ano_service);
        proto_tree_add_item_ret_uint(st, hf_ano_nsub, tvb, offset + 2, 2, ENC_BIG_ENDIAN, &nsub);
        proto_tree_add_item(st, hf_ano_error, tvb, offset + 4, 4, ENC_BIG_ENDIAN);
        offset += ANO_SVC_HDR_LEN;

        for (sub = 0; sub < nsub; sub++) {
            guint32 sub_len, sub_type;
            proto_item *pi;
            proto_tree *sst;

            if (sub >= ANO_MAX_SUBPACKETS) {
                expert_add_info(pinfo, si, &ei_ano_limit);
                break;
            }
            if (offset + ANO_SUB_HDR_LEN > len) {
                expert_add_info(pinfo, si, &ei_ano_truncated);
                return;
            }
            sub_len = tvb_get_ntohs(tvb, offset);
            sub_type = tvb_get_ntohs(tvb, offset + 2);
            if (offset + ANO_SUB_HDR_LEN + sub_len > len) {
                expert_add_info(pinfo, si, &ei_ano_truncated);
                return;
            }
            pi = proto_tree_add_item(st, hf_ano_sub_value, tvb, offset + ANO_SUB_HDR_LEN, sub_len, ENC_NA);
            proto_item_prepend_text(pi, "%s ", val_to_str_const(sub_type, sub_type_vals, "Unknown"));
            sst = proto_item_add_subtree(pi, ett_ano_sub);
            proto_tree_add_item(sst, hf_ano_sub_length, tvb, offset, 2, ENC_BIG_ENDIAN);
            proto_tree_add_item(sst, hf_ano_sub_type, tvb, offset + 2, 2, ENC_BIG_ENDIAN);

            /* Server reply: the first ub1 of encryption/integrity is the choice. */
            if (from_server && !took_algorithm && sub_type == ANO_SUB_UB1 && sub_len == 1) {
                guint8 algo = tvb_get_uint8(tvb, offset + ANO_SUB_HDR_LEN);
                if (type == ANO_SVC_ENCRYPTION) {
                    proto_tree_add_item(st, hf_ano_encryption, tvb, offset + ANO_SUB_HDR_LEN, 1, ENC_NA);
                    encryption = algo;
                    took_algorithm = TRUE;
                } else if (type == ANO_SVC_INTEGRITY) {
                    proto_tree_add_item(st, hf_ano_integrity, tvb, offset + ANO_SUB_HDR_LEN, 1, ENC_NA);
                    integrity = algo;
                    took_algorithm = TRUE;
                }
            }
            offset += ANO_SUB_HDR_LEN + sub_len;
        }
    }

    if (encryption > 0)
        expert_add_info(pinfo, ti, &ei_nne_on);   /* the algorithm: sqlnet.nne */
    if (!PINFO_FD_VISITED(pinfo) && (encryption >= 0 || integrity >= 0)) {
        sess->ano_reply_frame = pinfo->num;
        sess->ano_reply_off = pinfo->fd->file_off;
        if (encryption >= 0)
            sess->nne_algorithm = (guint8)encryption;
        if (integrity >= 0)
            sess->integrity_algorithm = (guint8)integrity;
    }
}

void
ano_add_session_summary(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                        const sqlnet_session_t *sess)
{
    if (session_encrypted(sess, pinfo))
        proto_item_set_generated(proto_tree_add_uint(tree, hf_nne, tvb, 0, 0, sess->nne_algorithm));
    if (session_integrity(sess, pinfo))
        proto_item_set_generated(proto_tree_add_uint(tree, hf_integrity, tvb, 0, 0, sess->integrity_algorithm));
}

void
ano_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_ano, { "Advanced Networking Option negotiation", "sqlnet.ano", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_length, { "Length", "sqlnet.ano.length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_version, { "Version", "sqlnet.ano.version", FT_UINT32, BASE_CUSTOM, CF_FUNC(version_string), 0x0, NULL, HFILL } },
        { &hf_ano_nservices, { "Services", "sqlnet.ano.services", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_flags, { "Error flags", "sqlnet.ano.flags", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_service, { "Service", "sqlnet.ano.service", FT_UINT16, BASE_DEC, VALS(service_vals), 0x0, NULL, HFILL } },
        { &hf_ano_nsub, { "Sub-packets", "sqlnet.ano.service.subpackets", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_error, { "Error", "sqlnet.ano.service.error", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_sub_length, { "Length", "sqlnet.ano.sub.length", FT_UINT16, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_sub_type, { "Type", "sqlnet.ano.sub.type", FT_UINT16, BASE_DEC, VALS(sub_type_vals), 0x0, NULL, HFILL } },
        { &hf_ano_sub_value, { "value", "sqlnet.ano.sub.value", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ano_encryption, { "Encryption algorithm chosen", "sqlnet.ano.encryption", FT_UINT8, BASE_DEC, VALS(encryption_vals), 0x0, NULL, HFILL } },
        { &hf_ano_integrity, { "Integrity algorithm chosen", "sqlnet.ano.integrity", FT_UINT8, BASE_DEC, VALS(integrity_vals), 0x0, NULL, HFILL } },
        { &hf_nne, { "Native network encryption", "sqlnet.nne", FT_UINT8, BASE_DEC, VALS(encryption_vals), 0x0,
            "Encryption negotiated for this conversation: payload is not readable", HFILL } },
        { &hf_integrity, { "Native data integrity", "sqlnet.integrity", FT_UINT8, BASE_DEC, VALS(integrity_vals), 0x0,
            "Checksum algorithm negotiated for this conversation", HFILL } },
    };
    static gint *ett[] = { &ett_ano, &ett_ano_service, &ett_ano_sub };
    static ei_register_info ei[] = {
        { &ei_ano_truncated, { "sqlnet.ano.truncated", PI_MALFORMED, PI_WARN,
            "ANO message shorter than its lengths say", EXPFILL } },
        { &ei_ano_limit, { "sqlnet.ano.limit", PI_PROTOCOL, PI_WARN,
            "ANO message lists more services or sub-packets than sqlnet decodes", EXPFILL } },
        { &ei_nne_on, { "sqlnet.nne.on", PI_SECURITY, PI_NOTE,
            "Native network encryption negotiated (algorithm: sqlnet.nne): later payload is encrypted", EXPFILL } },
    };
    expert_module_t *expert;

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
}
