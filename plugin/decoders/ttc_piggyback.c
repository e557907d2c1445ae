/* ttc_piggyback.c - piggybacks: the bodies of the calls a client sends ahead
 * of its main call in the same message (type 17: close cursors, session
 * state, client features, set schema, pipeline begin, end-to-end
 * attributes; ttc_dispatch.c reads their header and finds the body's
 * decoder in its function table) and the server's piggybacks (message 23).
 *
 * python-oracledb messages/base.pyx _write_piggybacks and
 * _process_server_side_piggyback, go-ora v2/network/session.go, JDBC
 * T4CTTIoclfeatures.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

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

/* The bodies of the piggybacked calls whose layout is known (the function
 * table in ttc_dispatch.c names them for their function codes). */

/* OCCA: PTR, the count, the cursor ids; with res, the ids are kept there
 * too (the first TTC_MAX_CLOSED). */
static void
close_cursors(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res)
{
    guint32 n, i, id;
    gint s;

    ttc_rd_ptr(r);
    n = ttc_rd_ub4(r);
    if (n > MAX_CURSORS) {
        r->bad = TRUE;
        return;
    }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        s = r->off;
        id = ttc_rd_ub4(r);
        ttc_add_uint(tree, hf_close_cursor, r, s, id);
        if (res && ttc_rd_ok(r) && res->nclosed < TTC_MAX_CLOSED)
            res->closed[res->nclosed++] = id;
    }
}

void
ttc_pb_close_cursors(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope _U_)
{
    close_cursors(r, tree, NULL);
}

/* The cursors a close-cursors piggyback names, into res (a reader on a
 * copy: the body is decoded for the tree by ttc_pb_close_cursors). */
void
ttc_pb_close_cursors_note(ttc_rd_t *r, guint8 seq, ttc_msg_result_t *res)
{
    res->nclosed = 0;
    close_cursors(r, NULL, res);
    res->closes_cursors = ttc_rd_ok(r);
    res->close_seq = seq;
}

void
ttc_pb_session_state(ttc_rd_t *r, proto_tree *tree _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub8(r);
}

/* JDBC thin (T4CTTIoclfeatures.marshal): PTR, SWORD length, SB8 0, then the
 * feature bitmap as text ("512,0,0,0"), a CHR written bare (JDBC's DTY leaves
 * CONV_LENGTH clear); no open client sends it. */
void
ttc_pb_client_features(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope _U_)
{
    guint32 len;

    ttc_rd_ptr(r);
    len = ttc_rd_ub4(r);
    ttc_rd_ub8(r);
    if (len > 4096) {
        r->bad = TRUE;
        return;
    }
    if (!ttc_rd_have(r, (gint)len))
        return;
    if (tree)
        proto_tree_add_item(tree, hf_client_features, r->tvb, r->off, (gint)len, ENC_ASCII);
    ttc_rd_skip(r, (gint)len);
}

void
ttc_pb_set_schema(ttc_rd_t *r, proto_tree *tree _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ptr(r);
    if (ttc_rd_ub4(r) > 0)
        ttc_rd_dalc(r, NULL);
}

void
ttc_pb_pipeline_begin(ttc_rd_t *r, proto_tree *tree _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub2(r);
    ttc_rd_u8(r);
    ttc_rd_u8(r);
}

void
ttc_pb_end_to_end(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope)
{
    static int *const string_hf[5] = { &hf_e2e_client_id, &hf_e2e_module, &hf_e2e_action, NULL, NULL };
    guint32 i, lens[5];

    ttc_rd_ptr(r);
    ttc_rd_ptr(r);
    ttc_rd_ub4(r);                     /* flags */
    for (i = 0; i < 3; i++) {          /* client identifier, module, action */
        ttc_rd_ptr(r);
        lens[i] = ttc_rd_ub4(r);
    }
    ttc_rd_ptr(r);                     /* cideci */
    ttc_rd_ub4(r);
    ttc_rd_u8(r);                      /* cidcct */
    ttc_rd_ub4(r);                     /* cidecs */
    ttc_rd_ptr(r);                     /* client info */
    lens[3] = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* cidkstk */
    ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* cidktgt */
    ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* dbop */
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
