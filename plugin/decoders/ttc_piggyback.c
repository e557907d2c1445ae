/* ttc_piggyback.c - piggybacks: the calls a client sends ahead of its main
 * call in the same message (type 17: close cursors, session state, client
 * features, set schema, pipeline begin, end-to-end attributes) and the
 * server's piggybacks (message 23).
 *
 * python-oracledb messages/base.pyx _write_piggybacks and
 * _process_server_side_piggyback, go-ora v2/network/session.go, JDBC
 * T4CTTIoclfeatures.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define MAX_CURSORS   65536

static int hf_close_cursor = -1;
static int hf_client_features = -1;
static int hf_e2e_module = -1;
static int hf_e2e_action = -1;
static int hf_e2e_client_id = -1;
static int hf_spb_opcode = -1;

static const value_string spb_vals[] = {
    { 1, "Query cache invalidation" }, { 2, "OS pid (MTS)" }, { 3, "Trace event" },
    { 4, "Session return" }, { 5, "Sync" }, { 7, "LTXID" }, { 8, "AC replay context" },
    { 9, "Extended sync" }, { 10, "Session signature" },
    { 0, NULL }
};

/* Piggybacked calls whose bodies we know; FALSE if unknown. */
static gboolean
decode_piggyback_body(ttc_rd_t *r, proto_tree *tree, guint8 func, wmem_allocator_t *scope)
{
    guint32 n, i, lens[5];
    gint s;

    switch (func) {
    case TTC_FN_CLOSE_CURSORS:
        ttc_rd_ptr(r);
        n = ttc_rd_ub4(r);
        if (n > MAX_CURSORS) {
            r->bad = TRUE;
            return TRUE;
        }
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            s = r->off;
            ttc_add_uint(tree, hf_close_cursor, r, s, ttc_rd_ub4(r));
        }
        return TRUE;
    case TTC_FN_SESSION_STATE:
        ttc_rd_ub8(r);
        return TRUE;
    case TTC_FN_CLIENT_FEATURES: {
        /* JDBC thin (T4CTTIoclfeatures.marshal): PTR, SWORD length, SB8 0, then the
         * feature bitmap as text ("512,0,0,0"), a CHR written bare (JDBC's DTY leaves
         * CONV_LENGTH clear); no open client sends it. */
        guint32 len;
        ttc_rd_ptr(r);
        len = ttc_rd_ub4(r);
        ttc_rd_ub8(r);
        if (len > 4096) {
            r->bad = TRUE;
            return TRUE;
        }
        if (!ttc_rd_have(r, (gint)len))
            return TRUE;
        if (tree)
            proto_tree_add_item(tree, hf_client_features, r->tvb, r->off, (gint)len, ENC_ASCII);
        ttc_rd_skip(r, (gint)len);
        return TRUE;
    }
    case 152:                          /* set schema */
        ttc_rd_ptr(r);
        if (ttc_rd_ub4(r) > 0)
            ttc_rd_dalc(r, NULL);
        return TRUE;
    case 199:                          /* pipeline begin */
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        ttc_rd_u8(r);
        return TRUE;
    case TTC_FN_END_TO_END: {
        static int *const string_hf[5] = { &hf_e2e_client_id, &hf_e2e_module, &hf_e2e_action, NULL, NULL };
        ttc_rd_ptr(r);
        ttc_rd_ptr(r);
        ttc_rd_ub4(r);                 /* flags */
        for (i = 0; i < 3; i++) {      /* client identifier, module, action */
            ttc_rd_ptr(r);
            lens[i] = ttc_rd_ub4(r);
        }
        ttc_rd_ptr(r);                 /* cideci */
        ttc_rd_ub4(r);
        ttc_rd_u8(r);                  /* cidcct */
        ttc_rd_ub4(r);                 /* cidecs */
        ttc_rd_ptr(r);                 /* client info */
        lens[3] = ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* cidkstk */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* cidktgt */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* dbop */
        lens[4] = ttc_rd_ub4(r);
        for (i = 0; i < 5 && ttc_rd_ok(r); i++) {
            gint ss, sl;
            const char *v;
            if (lens[i] == 0)
                continue;
            v = ttc_rd_dalc_str(r, scope, &ss, &sl);
            if (tree && v && string_hf[i] && ttc_rd_ok(r))
                proto_tree_add_string(tree, *string_hf[i], r->tvb, ss, sl, v);
        }
        return TRUE;
    }
    default:
        return FALSE;
    }
}

static gboolean
is_known_function(guint8 f)
{
    switch (f) {
    case TTC_FN_REEXECUTE: case TTC_FN_FETCH: case TTC_FN_LOGOFF: case TTC_FN_COMMIT:
    case TTC_FN_ROLLBACK: case TTC_FN_VERSION: case TTC_FN_OALL7: case TTC_FN_REEXECUTE_FETCH:
    case TTC_FN_OALL8: case TTC_FN_LOB_OP: case TTC_FN_AUTH_PHASE_TWO: case TTC_FN_AUTH_PHASE_ONE:
    case TTC_FN_PING: case TTC_FN_CLOSE_CURSORS: case TTC_FN_SESSION_STATE: case TTC_FN_END_TO_END:
    case TTC_FN_SESSION_SWITCH: case TTC_FN_CANCEL_ALL: case TTC_FN_CLIENT_FEATURES:
        return TRUE;
    default:
        return FALSE;
    }
}

/* After a piggyback we cannot walk: find the next call header. */
static void
resync_to_next_call(ttc_rd_t *r, guint8 seq)
{
    gint p;
    for (p = r->off; p + 3 <= r->end; p++) {
        guint8 t = tvb_get_uint8(r->tvb, p);
        guint8 f = tvb_get_uint8(r->tvb, p + 1);
        guint8 q = tvb_get_uint8(r->tvb, p + 2);
        if ((t == TTC_MSG_FUNCTION || t == TTC_MSG_PIGGYBACK) && is_known_function(f) &&
            (q == (guint8)(seq + 1) || q == seq || (seq == 255 && q == 1))) {
            r->off = p;
            return;
        }
    }
    r->need_more = TRUE;
}

void
ttc_msg_piggyback(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                  wmem_allocator_t *scope)
{
    ttc_call_t pb;

    ttc_rd_t body;

    memset(&pb, 0, sizeof(pb));
    ttc_call_header(r, tree, &pb, TRUE);
    if (!ttc_rd_ok(r))
        return;
    /* Walk the body on a copy: layouts differ between clients (OCI's
     * end-to-end piggyback is not python's); if it does not fit, find the
     * next call header instead. */
    body = *r;
    if (decode_piggyback_body(&body, NULL, pb.func, scope) && ttc_rd_ok(&body) &&
        (body.off == body.end || tvb_get_uint8(body.tvb, body.off) == TTC_MSG_FUNCTION ||
         tvb_get_uint8(body.tvb, body.off) == TTC_MSG_PIGGYBACK)) {
        decode_piggyback_body(r, tree, pb.func, scope);
        return;
    }
    {
        ttc_rd_t scan = *r;
        resync_to_next_call(&scan, pb.seq);
        if (!scan.need_more) {
            *r = scan;
            return;
        }
    }
    if (body.need_more) {
        r->need_more = TRUE;           /* the piggyback continues in the next packet */
        return;
    }
    resync_to_next_call(r, pb.seq);
}

void
ttc_msg_server_piggyback(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                         wmem_allocator_t *scope _U_)
{
    gint s = r->off;
    guint8 op = ttc_rd_u8(r);
    guint32 n, i;

    ttc_add_uint(tree, hf_spb_opcode, r, s, op);
    switch (op) {
    case 1:
    case 3:
        break;
    case 2:
        ttc_rd_ub2(r);
        ttc_rd_dalc(r, NULL);
        break;
    case 4:
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        n = ttc_rd_ub2(r);
        if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
        if (n > 0) {
            ttc_rd_u8(r);
            for (i = 0; i < n && ttc_rd_ok(r); i++) {
                if (ttc_rd_ub2(r) > 0) ttc_rd_dalc(r, NULL);
                if (ttc_rd_ub2(r) > 0) ttc_rd_dalc(r, NULL);
                ttc_rd_ub2(r);
            }
        }
        ttc_rd_ub4(r);
        ttc_rd_ub4(r);
        ttc_rd_ub2(r);
        break;
    case 5:                           /* sync: session key/value pairs */
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        n = r->d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);
        ttc_rd_u8(r);
        ttc_rd_skip_kv_pairs(r, n);
        ttc_rd_ub4(r);
        break;
    case 7:
        ttc_rd_skip_bytes_with_length(r);
        break;
    case 8:
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        ttc_rd_ub4(r);
        ttc_rd_ub4(r);
        ttc_rd_u8(r);
        ttc_rd_skip_bytes_with_length(r);
        break;
    case 9:
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        break;
    case 10:
        ttc_rd_ub2(r);
        ttc_rd_u8(r);
        ttc_rd_ub8(r);
        ttc_rd_ub8(r);
        ttc_rd_ub8(r);
        break;
    default:
        r->bad = TRUE;
        break;
    }
}

void
ttc_piggyback_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_close_cursor, { "Cursor to close", "sqlnet.close_cursor", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_client_features, { "Client features", "sqlnet.ttc.client_features", FT_STRING, BASE_NONE, NULL, 0x0,
            "JDBC's client feature bitmap (OCLFEATURES piggyback)", HFILL } },
        { &hf_e2e_module, { "Module", "sqlnet.e2e.module", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_e2e_action, { "Action", "sqlnet.e2e.action", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_e2e_client_id, { "Client identifier", "sqlnet.e2e.client_id", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_spb_opcode, { "Server piggyback", "sqlnet.server_piggyback", FT_UINT8, BASE_DEC, VALS(spb_vals), 0x0, NULL, HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}
