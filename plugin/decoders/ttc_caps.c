/* ttc_caps.c - the capability arrays of the negotiation as named fields:
 * the compile-time capabilities (a client's DTY, a server's PRO reply, a
 * JDBC connection cookie) and the runtime capabilities beside them.
 *
 * Indices, names and flag bits are python-oracledb's
 * (src/oracledb/impl/thin/constants.pxi: TNS_CCAP_* and TNS_RCAP_*, the bits
 * grouped under the index capabilities.pyx sets them in), lowercased:
 * TNS_CCAP_FIELD_VERSION is sqlnet.ccap.field_version, TNS_CCAP_O5LOGON of
 * TNS_CCAP_LOGON_TYPES is sqlnet.ccap.logon_types.o5logon.  An index
 * python-oracledb does not name is shown as "ccap[N]" (sqlnet.ccap.other),
 * its value as it is.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_ccap_other = -1;
static int hf_rcap_other = -1;

static int hf_ccap_sql_version = -1;
static int hf_ccap_logon_types = -1;
static int hf_ccap_feature_backport = -1;
static int hf_ccap_field_version = -1;
static int hf_ccap_server_define_conv = -1;
static int hf_ccap_dequeue_with_selector = -1;
static int hf_ccap_ttc1 = -1;
static int hf_ccap_oci1 = -1;
static int hf_ccap_tds_version = -1;
static int hf_ccap_rpc_version = -1;
static int hf_ccap_rpc_sig = -1;
static int hf_ccap_dbf_version = -1;
static int hf_ccap_lob = -1;
static int hf_ccap_ttc2 = -1;
static int hf_ccap_ub2_dty = -1;
static int hf_ccap_oci2 = -1;
static int hf_ccap_client_fn = -1;
static int hf_ccap_oci3 = -1;
static int hf_ccap_ttc3 = -1;
static int hf_ccap_sess_signature_version = -1;
static int hf_ccap_ttc4 = -1;
static int hf_ccap_lob2 = -1;
static int hf_ccap_ttc5 = -1;
static int hf_ccap_feature_backport2 = -1;
static int hf_ccap_vector_features = -1;
static int hf_ccap_ttc6 = -1;

/* flag bits */
static int hf_o5logon = -1;
static int hf_o5logon_np = -1;
static int hf_o7logon = -1;
static int hf_o8logon_long_identifier = -1;
static int hf_o9logon_long_password = -1;
static int hf_ctb_implicit_pool = -1;
static int hf_ctb_oauth_msg_on_err = -1;
static int hf_end_of_call_status = -1;
static int hf_ind_rcd = -1;
static int hf_fast_bvec = -1;
static int hf_fast_session_propagate = -1;
static int hf_app_ctx_piggyback = -1;
static int hf_lob_ub8_size = -1;
static int hf_lob_encs = -1;
static int hf_lob_prefetch_data = -1;
static int hf_lob_temp_size = -1;
static int hf_lob_prefetch_length = -1;
static int hf_lob_12c = -1;
static int hf_zlnp = -1;
static int hf_drcp = -1;
static int hf_oci3_ocssync = -1;
static int hf_ltxid = -1;
static int hf_implicit_results = -1;
static int hf_big_chunk_clr = -1;
static int hf_keep_out_order = -1;
static int hf_inband_notification = -1;
static int hf_end_of_response = -1;
static int hf_explicit_boundary = -1;
static int hf_lob2_quasi = -1;
static int hf_lob2_2gb_prefetch = -1;
static int hf_token_supported = -1;
static int hf_pipelining_support = -1;
static int hf_vector_support = -1;
static int hf_pipelining_break = -1;
static int hf_ttc5_sessionless_txns = -1;
static int hf_end_user_sec_ctx_piggyback = -1;
static int hf_vector_feature_binary = -1;
static int hf_vector_feature_sparse = -1;
static int hf_ttc6_ha_readiness = -1;

static int hf_rcap_compat = -1;
static int hf_rcap_ttc = -1;
static int hf_rcap_zero_copy = -1;
static int hf_rcap_32k = -1;
static int hf_rcap_session_state_ops = -1;

static gint ett_ccaps = -1;
static gint ett_rcaps = -1;
static gint ett_cap_bits = -1;

static int *const bits_logon_types[] = { &hf_o5logon_np, &hf_o5logon, &hf_o7logon, &hf_o8logon_long_identifier,
                                         &hf_o9logon_long_password, NULL };
static int *const bits_feature_backport[] = { &hf_ctb_implicit_pool, &hf_ctb_oauth_msg_on_err, NULL };
static int *const bits_ttc1[] = { &hf_end_of_call_status, &hf_ind_rcd, &hf_fast_bvec, NULL };
static int *const bits_oci1[] = { &hf_fast_session_propagate, &hf_app_ctx_piggyback, NULL };
static int *const bits_lob[] = { &hf_lob_ub8_size, &hf_lob_encs, &hf_lob_prefetch_data, &hf_lob_temp_size,
                                 &hf_lob_prefetch_length, &hf_lob_12c, NULL };
static int *const bits_ttc2[] = { &hf_zlnp, NULL };
static int *const bits_oci2[] = { &hf_drcp, NULL };
static int *const bits_oci3[] = { &hf_oci3_ocssync, NULL };
static int *const bits_ttc3[] = { &hf_ltxid, &hf_implicit_results, &hf_big_chunk_clr, &hf_keep_out_order, NULL };
static int *const bits_ttc4[] = { &hf_inband_notification, &hf_end_of_response, &hf_explicit_boundary, NULL };
static int *const bits_lob2[] = { &hf_lob2_quasi, &hf_lob2_2gb_prefetch, NULL };
static int *const bits_ttc5[] = { &hf_token_supported, &hf_pipelining_support, &hf_vector_support,
                                  &hf_pipelining_break, &hf_ttc5_sessionless_txns, NULL };
static int *const bits_feature_backport2[] = { &hf_end_user_sec_ctx_piggyback, NULL };
static int *const bits_vector_features[] = { &hf_vector_feature_binary, &hf_vector_feature_sparse, NULL };
static int *const bits_ttc6[] = { &hf_ttc6_ha_readiness, NULL };
static int *const bits_rcap_ttc[] = { &hf_rcap_zero_copy, &hf_rcap_32k, &hf_rcap_session_state_ops, NULL };

typedef struct {
    int *hf;
    int *const *bits;                  /* flag bits, or NULL: a number */
} cap_def_t;

/* Compile-time capabilities by index (TNS_CCAP_MAX is 55). */
#define CCAP_NAMED 55
static const cap_def_t ccaps[CCAP_NAMED] = {
    [0]  = { &hf_ccap_sql_version, NULL },
    [4]  = { &hf_ccap_logon_types, bits_logon_types },
    [5]  = { &hf_ccap_feature_backport, bits_feature_backport },
    [7]  = { &hf_ccap_field_version, NULL },
    [8]  = { &hf_ccap_server_define_conv, NULL },
    [9]  = { &hf_ccap_dequeue_with_selector, NULL },
    [15] = { &hf_ccap_ttc1, bits_ttc1 },
    [16] = { &hf_ccap_oci1, bits_oci1 },
    [17] = { &hf_ccap_tds_version, NULL },
    [18] = { &hf_ccap_rpc_version, NULL },
    [19] = { &hf_ccap_rpc_sig, NULL },
    [21] = { &hf_ccap_dbf_version, NULL },
    [23] = { &hf_ccap_lob, bits_lob },
    [26] = { &hf_ccap_ttc2, bits_ttc2 },
    [27] = { &hf_ccap_ub2_dty, NULL },
    [31] = { &hf_ccap_oci2, bits_oci2 },
    [34] = { &hf_ccap_client_fn, NULL },
    [35] = { &hf_ccap_oci3, bits_oci3 },
    [37] = { &hf_ccap_ttc3, bits_ttc3 },
    [39] = { &hf_ccap_sess_signature_version, NULL },
    [40] = { &hf_ccap_ttc4, bits_ttc4 },
    [42] = { &hf_ccap_lob2, bits_lob2 },
    [44] = { &hf_ccap_ttc5, bits_ttc5 },
    [45] = { &hf_ccap_feature_backport2, bits_feature_backport2 },
    [52] = { &hf_ccap_vector_features, bits_vector_features },
    [54] = { &hf_ccap_ttc6, bits_ttc6 },
};

/* Runtime capabilities by index (TNS_RCAP_MAX is 11). */
#define RCAP_NAMED 7
static const cap_def_t rcaps[RCAP_NAMED] = {
    [0] = { &hf_rcap_compat, NULL },
    [6] = { &hf_rcap_ttc, bits_rcap_ttc },
};

/* TNS_CCAP_FIELD_VERSION_* */
static const value_string field_versions[] = {
    { 6,  "11.2" },
    { 7,  "12.1" },
    { 8,  "12.2" },
    { 9,  "12.2 ext 1" },
    { 10, "18.1" },
    { 11, "18.1 ext 1" },
    { 12, "19.1" },
    { 13, "19.1 ext 1" },
    { 14, "20.1" },
    { 15, "20.1 ext 1" },
    { 16, "21.1" },
    { 17, "23.1" },
    { 18, "23.1 ext 1" },
    { 19, "23.1 ext 2" },
    { 20, "23.1 ext 3" },
    { 21, "23.1 ext 4" },
    { 22, "23.1 ext 5" },
    { 23, "23.3 ext 6" },
    { 24, "23.4" },
    { 0, NULL }
};

static const value_string rcap_compat_vals[] = {
    { 2, "8.1" },                      /* TNS_RCAP_COMPAT_81 */
    { 0, NULL }
};

/* One array: a subtree of its bytes, one field per byte, by index. */
static void
add_caps(proto_tree *tree, tvbuff_t *tvb, gint off, guint len, gint ett, const char *label,
         const cap_def_t *defs, guint ndefs, int hf_other, const char *prefix)
{
    proto_tree *t;
    guint i;

    if (!tree || len == 0 || !tvb_bytes_exist(tvb, off, (gint)len))
        return;
    t = proto_tree_add_subtree_format(tree, tvb, off, (gint)len, ett, NULL, "%s (%u bytes)", label, len);
    for (i = 0; i < len; i++) {
        const cap_def_t *def = i < ndefs ? &defs[i] : NULL;
        if (def && def->hf && def->bits)
            proto_tree_add_bitmask(t, tvb, off + (gint)i, *def->hf, ett_cap_bits, def->bits, ENC_NA);
        else if (def && def->hf)
            proto_tree_add_item(t, *def->hf, tvb, off + (gint)i, 1, ENC_NA);
        else
            proto_tree_add_uint_format(t, hf_other, tvb, off + (gint)i, 1, tvb_get_uint8(tvb, off + (gint)i),
                                       "%s[%u]: 0x%02x", prefix, i, tvb_get_uint8(tvb, off + (gint)i));
    }
}

void
ttc_caps_add_compile(proto_tree *tree, tvbuff_t *tvb, gint off, guint len)
{
    add_caps(tree, tvb, off, len, ett_ccaps, "Compile-time capabilities", ccaps, CCAP_NAMED, hf_ccap_other, "ccap");
}

void
ttc_caps_add_runtime(proto_tree *tree, tvbuff_t *tvb, gint off, guint len)
{
    add_caps(tree, tvb, off, len, ett_rcaps, "Runtime capabilities", rcaps, RCAP_NAMED, hf_rcap_other, "rcap");
}

void
ttc_caps_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_ccap_other, { "Compile-time capability", "sqlnet.ccap.other", FT_UINT8, BASE_HEX, NULL, 0x0,
            "A compile-time capability byte python-oracledb does not name (shown as ccap[index])", HFILL } },
        { &hf_rcap_other, { "Runtime capability", "sqlnet.rcap.other", FT_UINT8, BASE_HEX, NULL, 0x0,
            "A runtime capability byte python-oracledb does not name (shown as rcap[index])", HFILL } },
        { &hf_ccap_sql_version, { "SQL version", "sqlnet.ccap.sql_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 0 (TNS_CCAP_SQL_VERSION)", HFILL } },
        { &hf_ccap_logon_types, { "Logon types", "sqlnet.ccap.logon_types", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 4 (TNS_CCAP_LOGON_TYPES)", HFILL } },
        { &hf_ccap_feature_backport, { "Feature backport", "sqlnet.ccap.feature_backport",
            FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 5 (TNS_CCAP_FEATURE_BACKPORT)", HFILL } },
        { &hf_ccap_field_version, { "Field version", "sqlnet.ccap.field_version",
            FT_UINT8, BASE_DEC, VALS(field_versions), 0x0,
            "Compile-time capability 7 (TNS_CCAP_FIELD_VERSION): the TTC field version of this side", HFILL } },
        { &hf_ccap_server_define_conv, { "Server define conversion", "sqlnet.ccap.server_define_conv",
            FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 8 (TNS_CCAP_SERVER_DEFINE_CONV)", HFILL } },
        { &hf_ccap_dequeue_with_selector, { "Dequeue with selector", "sqlnet.ccap.dequeue_with_selector",
            FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 9 (TNS_CCAP_DEQUEUE_WITH_SELECTOR)", HFILL } },
        { &hf_ccap_ttc1, { "TTC1", "sqlnet.ccap.ttc1", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 15 (TNS_CCAP_TTC1)", HFILL } },
        { &hf_ccap_oci1, { "OCI1", "sqlnet.ccap.oci1", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 16 (TNS_CCAP_OCI1)", HFILL } },
        { &hf_ccap_tds_version, { "TDS version", "sqlnet.ccap.tds_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 17 (TNS_CCAP_TDS_VERSION)", HFILL } },
        { &hf_ccap_rpc_version, { "RPC version", "sqlnet.ccap.rpc_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 18 (TNS_CCAP_RPC_VERSION)", HFILL } },
        { &hf_ccap_rpc_sig, { "RPC signature", "sqlnet.ccap.rpc_sig", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 19 (TNS_CCAP_RPC_SIG)", HFILL } },
        { &hf_ccap_dbf_version, { "DBF version", "sqlnet.ccap.dbf_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 21 (TNS_CCAP_DBF_VERSION)", HFILL } },
        { &hf_ccap_lob, { "LOB", "sqlnet.ccap.lob", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 23 (TNS_CCAP_LOB)", HFILL } },
        { &hf_ccap_ttc2, { "TTC2", "sqlnet.ccap.ttc2", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 26 (TNS_CCAP_TTC2)", HFILL } },
        { &hf_ccap_ub2_dty, { "ub2 data types", "sqlnet.ccap.ub2_dty", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 27 (TNS_CCAP_UB2_DTY): the DTY table's entries are ub2", HFILL } },
        { &hf_ccap_oci2, { "OCI2", "sqlnet.ccap.oci2", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 31 (TNS_CCAP_OCI2)", HFILL } },
        { &hf_ccap_client_fn, { "Client functions", "sqlnet.ccap.client_fn", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 34 (TNS_CCAP_CLIENT_FN)", HFILL } },
        { &hf_ccap_oci3, { "OCI3", "sqlnet.ccap.oci3", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 35 (TNS_CCAP_OCI3)", HFILL } },
        { &hf_ccap_ttc3, { "TTC3", "sqlnet.ccap.ttc3", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 37 (TNS_CCAP_TTC3)", HFILL } },
        { &hf_ccap_sess_signature_version, { "Session signature version", "sqlnet.ccap.sess_signature_version",
            FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 39 (TNS_CCAP_SESS_SIGNATURE_VERSION)", HFILL } },
        { &hf_ccap_ttc4, { "TTC4", "sqlnet.ccap.ttc4", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 40 (TNS_CCAP_TTC4)", HFILL } },
        { &hf_ccap_lob2, { "LOB2", "sqlnet.ccap.lob2", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 42 (TNS_CCAP_LOB2)", HFILL } },
        { &hf_ccap_ttc5, { "TTC5", "sqlnet.ccap.ttc5", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 44 (TNS_CCAP_TTC5)", HFILL } },
        { &hf_ccap_feature_backport2, { "Feature backport 2", "sqlnet.ccap.feature_backport2",
            FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 45 (TNS_CCAP_FEATURE_BACKPORT2)", HFILL } },
        { &hf_ccap_vector_features, { "Vector features", "sqlnet.ccap.vector_features", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 52 (TNS_CCAP_VECTOR_FEATURES)", HFILL } },
        { &hf_ccap_ttc6, { "TTC6", "sqlnet.ccap.ttc6", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Compile-time capability 54 (TNS_CCAP_TTC6)", HFILL } },
        { &hf_o5logon_np, { "O5LOGON_NP", "sqlnet.ccap.logon_types.o5logon_np",
            FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_o5logon, { "O5LOGON", "sqlnet.ccap.logon_types.o5logon", FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_o7logon, { "O7LOGON", "sqlnet.ccap.logon_types.o7logon", FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_o8logon_long_identifier, { "O8LOGON_LONG_IDENTIFIER", "sqlnet.ccap.logon_types.o8logon_long_identifier",
            FT_BOOLEAN, 8, NULL, 0x40, NULL, HFILL } },
        { &hf_o9logon_long_password, { "O9LOGON_LONG_PASSWORD", "sqlnet.ccap.logon_types.o9logon_long_password",
            FT_BOOLEAN, 8, NULL, 0x80, NULL, HFILL } },
        { &hf_ctb_implicit_pool, { "CTB_IMPLICIT_POOL", "sqlnet.ccap.feature_backport.ctb_implicit_pool",
            FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_ctb_oauth_msg_on_err, { "CTB_OAUTH_MSG_ON_ERR", "sqlnet.ccap.feature_backport.ctb_oauth_msg_on_err",
            FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_end_of_call_status, { "END_OF_CALL_STATUS", "sqlnet.ccap.ttc1.end_of_call_status",
            FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_ind_rcd, { "IND_RCD", "sqlnet.ccap.ttc1.ind_rcd", FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_fast_bvec, { "FAST_BVEC", "sqlnet.ccap.ttc1.fast_bvec", FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_fast_session_propagate, { "FAST_SESSION_PROPAGATE", "sqlnet.ccap.oci1.fast_session_propagate",
            FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_app_ctx_piggyback, { "APP_CTX_PIGGYBACK", "sqlnet.ccap.oci1.app_ctx_piggyback",
            FT_BOOLEAN, 8, NULL, 0x80, NULL, HFILL } },
        { &hf_lob_ub8_size, { "LOB_UB8_SIZE", "sqlnet.ccap.lob.lob_ub8_size",
            FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_lob_encs, { "LOB_ENCS", "sqlnet.ccap.lob.lob_encs", FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_lob_prefetch_data, { "LOB_PREFETCH_DATA", "sqlnet.ccap.lob.lob_prefetch_data",
            FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_lob_temp_size, { "LOB_TEMP_SIZE", "sqlnet.ccap.lob.lob_temp_size",
            FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_lob_prefetch_length, { "LOB_PREFETCH_LENGTH", "sqlnet.ccap.lob.lob_prefetch_length",
            FT_BOOLEAN, 8, NULL, 0x40, NULL, HFILL } },
        { &hf_lob_12c, { "LOB_12C", "sqlnet.ccap.lob.lob_12c", FT_BOOLEAN, 8, NULL, 0x80, NULL, HFILL } },
        { &hf_zlnp, { "ZLNP", "sqlnet.ccap.ttc2.zlnp", FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_drcp, { "DRCP", "sqlnet.ccap.oci2.drcp", FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_oci3_ocssync, { "OCI3_OCSSYNC", "sqlnet.ccap.oci3.oci3_ocssync",
            FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_ltxid, { "LTXID", "sqlnet.ccap.ttc3.ltxid", FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_implicit_results, { "IMPLICIT_RESULTS", "sqlnet.ccap.ttc3.implicit_results",
            FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_big_chunk_clr, { "BIG_CHUNK_CLR", "sqlnet.ccap.ttc3.big_chunk_clr",
            FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_keep_out_order, { "KEEP_OUT_ORDER", "sqlnet.ccap.ttc3.keep_out_order",
            FT_BOOLEAN, 8, NULL, 0x80, NULL, HFILL } },
        { &hf_inband_notification, { "INBAND_NOTIFICATION", "sqlnet.ccap.ttc4.inband_notification",
            FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_end_of_response, { "END_OF_RESPONSE", "sqlnet.ccap.ttc4.end_of_response",
            FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_explicit_boundary, { "EXPLICIT_BOUNDARY", "sqlnet.ccap.ttc4.explicit_boundary",
            FT_BOOLEAN, 8, NULL, 0x40, NULL, HFILL } },
        { &hf_lob2_quasi, { "LOB2_QUASI", "sqlnet.ccap.lob2.lob2_quasi", FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_lob2_2gb_prefetch, { "LOB2_2GB_PREFETCH", "sqlnet.ccap.lob2.lob2_2gb_prefetch",
            FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_token_supported, { "TOKEN_SUPPORTED", "sqlnet.ccap.ttc5.token_supported",
            FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_pipelining_support, { "PIPELINING_SUPPORT", "sqlnet.ccap.ttc5.pipelining_support",
            FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_vector_support, { "VECTOR_SUPPORT", "sqlnet.ccap.ttc5.vector_support",
            FT_BOOLEAN, 8, NULL, 0x08, NULL, HFILL } },
        { &hf_pipelining_break, { "PIPELINING_BREAK", "sqlnet.ccap.ttc5.pipelining_break",
            FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
        { &hf_ttc5_sessionless_txns, { "TTC5_SESSIONLESS_TXNS", "sqlnet.ccap.ttc5.ttc5_sessionless_txns",
            FT_BOOLEAN, 8, NULL, 0x20, NULL, HFILL } },
        { &hf_end_user_sec_ctx_piggyback, { "END_USER_SEC_CTX_PIGGYBACK",
            "sqlnet.ccap.feature_backport2.end_user_sec_ctx_piggyback", FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_vector_feature_binary, { "VECTOR_FEATURE_BINARY", "sqlnet.ccap.vector_features.vector_feature_binary",
            FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_vector_feature_sparse, { "VECTOR_FEATURE_SPARSE", "sqlnet.ccap.vector_features.vector_feature_sparse",
            FT_BOOLEAN, 8, NULL, 0x02, NULL, HFILL } },
        { &hf_ttc6_ha_readiness, { "TTC6_HA_READINESS", "sqlnet.ccap.ttc6.ttc6_ha_readiness",
            FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_rcap_compat, { "Compatibility", "sqlnet.rcap.compat", FT_UINT8, BASE_DEC, VALS(rcap_compat_vals), 0x0,
            "Runtime capability 0 (TNS_RCAP_COMPAT)", HFILL } },
        { &hf_rcap_ttc, { "TTC", "sqlnet.rcap.ttc", FT_UINT8, BASE_HEX, NULL, 0x0,
            "Runtime capability 6 (TNS_RCAP_TTC)", HFILL } },
        { &hf_rcap_zero_copy, { "TTC_ZERO_COPY", "sqlnet.rcap.ttc.ttc_zero_copy",
            FT_BOOLEAN, 8, NULL, 0x01, NULL, HFILL } },
        { &hf_rcap_32k, { "TTC_32K", "sqlnet.rcap.ttc.ttc_32k", FT_BOOLEAN, 8, NULL, 0x04, NULL, HFILL } },
        { &hf_rcap_session_state_ops, { "TTC_SESSION_STATE_OPS", "sqlnet.rcap.ttc.ttc_session_state_ops",
            FT_BOOLEAN, 8, NULL, 0x10, NULL, HFILL } },
    };
    static gint *ett[] = { &ett_ccaps, &ett_rcaps, &ett_cap_bits };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
