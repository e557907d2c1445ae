/* ttc_extensions.c - return parameters of the calls beyond queries: two-phase
 * commit (transaction switch 103, change state 104), advanced queuing
 * (enqueue 121, dequeue 122, array 145) and direct-path load (prepare 128,
 * load stream 129, operation 130).  The two-phase commit calls' bodies are
 * decoded (the universal layout), the others' shown as call data; their
 * replies are walked as python-oracledb's messages read them (tpc_*.pyx,
 * aq_*.pyx, direct_path_*.pyx).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define AQ_MSGID_LEN 16

/* AQ message properties (python-oracledb aq_base.pyx _process_msg_props). */
static void
skip_aq_msg_props(ttc_rd_t *r)
{
    guint32 n, i;

    ttc_rd_sb4(r);                      /* priority */
    ttc_rd_sb4(r);                      /* delay */
    ttc_rd_sb4(r);                      /* expiration */
    ttc_rd_skip_bytes_with_length(r);   /* correlation */
    ttc_rd_sb4(r);                      /* attempts */
    ttc_rd_skip_bytes_with_length(r);   /* exception queue */
    ttc_rd_sb4(r);                      /* state */
    if (ttc_rd_ub4(r) > 0)              /* enqueue time */
        ttc_rd_dalc(r, NULL);
    ttc_rd_skip_bytes_with_length(r);   /* enqueue transaction id */
    n = ttc_rd_ub4(r);                  /* extensions */
    if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
    if (n > 0) {
        ttc_rd_u8(r);
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            ttc_rd_skip_bytes_with_length(r);   /* text value */
            ttc_rd_skip_bytes_with_length(r);   /* binary value */
            ttc_rd_ub2(r);                      /* keyword */
        }
    }
    if (ttc_rd_ub4(r) > 0)              /* user properties: not sent by any client */
        r->bad = TRUE;
    ttc_rd_ub4(r);                      /* csn */
    ttc_rd_ub4(r);                      /* dsn */
    ttc_rd_ub4(r);                      /* flags */
    if (r->d->fv >= TTC_FV_21_1)
        ttc_rd_ub4(r);                  /* shard number */
}

/* AQ recipients: a count, never non-zero in what the server returns today. */
static void
skip_aq_recipients(ttc_rd_t *r)
{
    if (ttc_rd_ub4(r) > 0)
        r->bad = TRUE;
}

static int hf_txn_op = -1;
static int hf_txn_state = -1;
static int hf_txn_flags = -1;
static int hf_txn_timeout = -1;
static int hf_txn_format_id = -1;
static int hf_txn_gtrid = -1;
static int hf_txn_bqual = -1;
static int hf_txn_context = -1;
static int hf_txn_app_value = -1;

static const value_string txn_change_vals[] = {
    { 1, "commit" }, { 2, "abort" }, { 3, "prepare" }, { 4, "forget" },
    { 0, NULL }
};
static const value_string txn_switch_vals[] = {
    { 1, "start" }, { 2, "detach" }, { 4, "post detach" },
    { 0, NULL }
};
static const value_string txn_state_vals[] = {
    { 0, "prepare" }, { 1, "requires commit" }, { 2, "committed" }, { 3, "aborted" }, { 4, "read only" },
    { 5, "forgotten" },
    { 0, NULL }
};

#define TXN_XID_MAX 128         /* python-oracledb pads the XID to 128 bytes */
#define TXN_CONTEXT_MAX 65535
#define TXN_NAME_MAX 65535

/* The two-phase commit calls (python-oracledb tpc_switch.pyx and
 * tpc_change_state.pyx _write_message), universal layout:
 *   operation ub4, context pointer u8 and length ub4, XID format id ub4,
 *   global transaction id length ub4, branch qualifier length ub4, XID
 *   pointer u8 and length ub4 (the two ids, zero-padded to 128), then
 *   switch (103): flags ub4, timeout ub4, three pointers (application
 *     value, return context and its length), internal and external name
 *     (pointer u8, length ub4 each), the context, the XID, the application
 *     value ub4, the names;
 *   change state (104): timeout ub4, state ub4, the out-state pointer,
 *     flags ub4, the context, the XID.
 * Read on a copy: a body that does not end the message (or OCI's native
 * layout, not known) stays call data. */
static void
txn_call(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res, gboolean change_state)
{
    ttc_rd_t t = *r;
    gint at_op, at_fmt, at_flags = -1, at_timeout = -1, at_state = -1, at_ctx = -1, at_xid = -1, at_app = -1;
    gint len_fmt, len_flags = 0, len_timeout = 0, len_state = 0, len_app = 0;
    guint32 op, fmt, gtrid_len, bqual_len, xid_len, ctx_len, flags = 0, timeout = 0, state = 0, app = 0;
    guint32 name_len[2] = { 0, 0 };
    gint i;

    res->stop = TRUE;                   /* what is not decoded is call data */
    if (r->d->native)
        return;
    at_op = t.off;
    op = ttc_rd_ub4(&t);
    ttc_rd_u8(&t);                      /* context pointer */
    ctx_len = ttc_rd_ub4(&t);
    at_fmt = t.off;
    fmt = ttc_rd_ub4(&t);
    len_fmt = t.off - at_fmt;
    gtrid_len = ttc_rd_ub4(&t);
    bqual_len = ttc_rd_ub4(&t);
    ttc_rd_u8(&t);                      /* XID pointer */
    xid_len = ttc_rd_ub4(&t);
    if (!change_state) {
        at_flags = t.off; flags = ttc_rd_ub4(&t); len_flags = t.off - at_flags;
        at_timeout = t.off; timeout = ttc_rd_ub4(&t); len_timeout = t.off - at_timeout;
        ttc_rd_skip(&t, 3);             /* application value, return context and length pointers */
        for (i = 0; i < 2; i++) {
            ttc_rd_u8(&t);              /* internal, external name pointer */
            name_len[i] = ttc_rd_ub4(&t);
        }
    } else {
        at_timeout = t.off; timeout = ttc_rd_ub4(&t); len_timeout = t.off - at_timeout;
        at_state = t.off; state = ttc_rd_ub4(&t); len_state = t.off - at_state;
        ttc_rd_u8(&t);                  /* out-state pointer */
        at_flags = t.off; flags = ttc_rd_ub4(&t); len_flags = t.off - at_flags;
    }
    if (!ttc_rd_ok(&t) || ctx_len > TXN_CONTEXT_MAX || xid_len > TXN_XID_MAX || gtrid_len + bqual_len > xid_len ||
        name_len[0] > TXN_NAME_MAX || name_len[1] > TXN_NAME_MAX)
        return;
    at_ctx = t.off;
    ttc_rd_skip(&t, (gint)ctx_len);
    at_xid = t.off;
    ttc_rd_skip(&t, (gint)xid_len);
    if (!change_state) {
        at_app = t.off;
        app = ttc_rd_ub4(&t);
        len_app = t.off - at_app;
        ttc_rd_skip(&t, (gint)name_len[0]);
        ttc_rd_skip(&t, (gint)name_len[1]);
    }
    if (!ttc_rd_ok(&t) || (ttc_rd_left(&t) > 0 && tvb_get_uint8(t.tvb, t.off) != TTC_MSG_PIGGYBACK &&
                           tvb_get_uint8(t.tvb, t.off) != TTC_MSG_FUNCTION))
        return;
    if (tree) {
        proto_item *pi = proto_tree_add_uint(tree, hf_txn_op, t.tvb, at_op, at_fmt - at_op, op);
        if (change_state)
            proto_item_append_text(pi, " (%s)", val_to_str_const(op, txn_change_vals, "unknown"));
        else
            proto_item_append_text(pi, " (%s)", val_to_str_const(op, txn_switch_vals, "unknown"));
        proto_tree_add_uint(tree, hf_txn_format_id, t.tvb, at_fmt, len_fmt, fmt);
        if (gtrid_len)
            proto_tree_add_item(tree, hf_txn_gtrid, t.tvb, at_xid, (gint)gtrid_len, ENC_NA);
        if (bqual_len)
            proto_tree_add_item(tree, hf_txn_bqual, t.tvb, at_xid + (gint)gtrid_len, (gint)bqual_len, ENC_NA);
        if (ctx_len)
            proto_tree_add_item(tree, hf_txn_context, t.tvb, at_ctx, (gint)ctx_len, ENC_NA);
        proto_tree_add_uint(tree, hf_txn_flags, t.tvb, at_flags, len_flags, flags);
        proto_tree_add_uint(tree, hf_txn_timeout, t.tvb, at_timeout, len_timeout, timeout);
        if (at_state >= 0)
            proto_tree_add_uint(tree, hf_txn_state, t.tvb, at_state, len_state, state);
        if (at_app >= 0)
            proto_tree_add_uint(tree, hf_txn_app_value, t.tvb, at_app, len_app, app);
    }
    r->off = t.off;
}

void
ttc_call_txn_switch(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call _U_, ttc_msg_result_t *res,
                    wmem_allocator_t *scope _U_)
{
    txn_call(r, tree, res, FALSE);
}

void
ttc_call_txn_change_state(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call _U_, ttc_msg_result_t *res,
                          wmem_allocator_t *scope _U_)
{
    txn_call(r, tree, res, TRUE);
}

void
ttc_extensions_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_txn_op, { "Transaction operation", "sqlnet.txn.operation", FT_UINT32, BASE_HEX, NULL, 0x0,
            "Two-phase commit call: OTXSE 1 start, 2 detach, 4 post detach; OTXEN 1 commit, 2 abort, 3 prepare, "
            "4 forget", HFILL } },
        { &hf_txn_format_id, { "XID format id", "sqlnet.txn.format_id", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_txn_gtrid, { "Global transaction id", "sqlnet.txn.gtrid", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_txn_bqual, { "Branch qualifier", "sqlnet.txn.bqual", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_txn_context, { "Transaction context", "sqlnet.txn.context", FT_BYTES, BASE_NONE, NULL, 0x0,
            "The context an earlier switch returned", HFILL } },
        { &hf_txn_flags, { "Transaction flags", "sqlnet.txn.flags", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_txn_timeout, { "Transaction timeout", "sqlnet.txn.timeout", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Seconds", HFILL } },
        { &hf_txn_state, { "Transaction state", "sqlnet.txn.state", FT_UINT32, BASE_DEC, VALS(txn_state_vals), 0x0,
            "OTXEN: the state the client expects", HFILL } },
        { &hf_txn_app_value, { "Application value", "sqlnet.txn.app_value", FT_UINT32, BASE_DEC, NULL, 0x0,
            NULL, HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}

void
ttc_rpa_txn_change_state(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub4(r);                /* transaction state */
}

/* tpc_switch.pyx */
void
ttc_rpa_txn_switch(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_ub4(r);                /* application value */
    ttc_rd_skip(r, (gint)ttc_rd_ub2(r));   /* context */
}

/* aq_enq.pyx */
void
ttc_rpa_aq_enq(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    ttc_rd_skip(r, AQ_MSGID_LEN);
    ttc_rd_ub2(r);                /* extensions length */
}

/* aq_deq.pyx */
void
ttc_rpa_aq_deq(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
        skip_aq_msg_props(r);
        skip_aq_recipients(r);
        ttc_skip_object_image(r);     /* payload: object, raw or JSON image */
        ttc_rd_skip(r, AQ_MSGID_LEN);
    }
}

/* aq_array.pyx */
void
ttc_rpa_aq_array(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    guint32 i;
    guint32 iters = ttc_rd_ub4(r);
    if (iters > TTC_MAX_LIST) { r->bad = TRUE; return; }
    for (i = 0; i < iters && ttc_rd_ok(r); i++) {
        if (ttc_rd_ub2(r) > 0) {
            ttc_rd_u8(r);
            skip_aq_msg_props(r);
        }
        skip_aq_recipients(r);
        if (ttc_rd_ub2(r) > 0)
            ttc_skip_object_image(r);
        ttc_rd_skip_bytes_with_length(r);  /* message ids */
        if (ttc_rd_ub2(r) > 0)             /* extensions */
            r->bad = TRUE;
        ttc_rd_ub2(r);                     /* output ack */
    }
    /* An array enqueue adds the iterations done (ub4); the operation is
     * in the call, whose body is not decoded: a small universal integer
     * here, not a message type, says it is there. */
    if (ttc_rd_ok(r) && ttc_rd_have(r, 1)) {
        guint8 b = tvb_get_uint8(r->tvb, r->off);
        if (!r->d->native && (b == 1 || b == 2))
            ttc_rd_ub4(r);
    }
}

/* direct_path_prepare.pyx */
void
ttc_rpa_dp_prepare(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope)
{
    guint32 n, i;
    guint32 ncols = ttc_rd_ub4(r);
    ttc_column_t col;
    if (ncols > TTC_MAX_COLUMNS) { r->bad = TRUE; return; }
    for (i = 0; i < ncols && ttc_rd_ok(r); i++)
        ttc_describe_column(r, NULL, &col, scope);
    if (ttc_rd_ub2(r) > 0)        /* parameters: none in any reply seen by the reference */
        r->bad = TRUE;
    n = ttc_rd_ub2(r);            /* out values */
    for (i = 0; i < n && ttc_rd_ok(r); i++)
        ttc_rd_ub4(r);
}

/* direct_path_load_stream.pyx, direct_path_op.pyx: out values */
void
ttc_rpa_dp_out_values(ttc_rd_t *r, proto_tree *tree _U_, const ttc_request_t *req _U_, wmem_allocator_t *scope _U_)
{
    guint32 n, i;

    n = ttc_rd_ub2(r);            /* out values */
    for (i = 0; i < n && ttc_rd_ok(r); i++)
        ttc_rd_ub4(r);
}

