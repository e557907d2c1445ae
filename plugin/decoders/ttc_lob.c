/* ttc_lob.c - LOB operations: the call (OLOBOPS, 96), its return
 * parameters and the LOB data message (14) of a read.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

#define LOB_OP_WRITE 0x0040

static int hf_lob_op = -1;
static int hf_lob_locator = -1;
static int hf_lob_amount = -1;
static int hf_lob_data_len = -1;

static const value_string lob_op_vals[] = {
    { 0x0001, "get length" }, { 0x0002, "read" }, { 0x0020, "trim" }, { 0x0040, "write" },
    { 0x4000, "get chunk size" }, { 0x0110, "create temporary" }, { 0x0111, "free temporary" },
    { 0x8000, "open" }, { 0x10000, "close" }, { 0x11000, "is open" }, { 0x0800, "file exists" },
    { 0x0100, "file open" }, { 0x0200, "file close" }, { 0x0400, "file is open" },
    { 0, NULL }
};

/* LOB operation (OLOBOPS): python-oracledb messages/lob_op.pyx, go-ora
 * v2/lob.go writeOp (the field version gates are go-ora's): source and
 * destination locator pointers and lengths, short offsets (ub4 each before
 * field version 3), pointers for a charset, a short amount, a NULL-LOB
 * flag, the operation, the SCN array pointer and length, from field version
 * 3 the 8-byte offsets and the amount pointer, from 4 an array-LOB block of
 * 6 bytes, then the locators themselves.  What the reply's return
 * parameters hold follows from the pointers (see decode_rpa). */
void
ttc_call_lob_op(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
                wmem_allocator_t *scope _U_)
{
    gboolean amount_short;
    gint s;

    ttc_rd_ptr(r);                     /* source locator */
    call->lob_src_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* destination locator */
    call->lob_dst_len = ttc_rd_ub4(r);
    /* Source and destination offsets as ub4 in every field version: the
     * offsets before 3, zeros from 3 on, where the 8-byte offsets follow
     * (go-ora lob.go writes them so; python-oracledb, 12.1 and later only,
     * writes the zeros). */
    ttc_rd_ub4(r);
    ttc_rd_ub4(r);
    call->lob_charset = ttc_rd_ptr(r);
    amount_short = ttc_rd_ptr(r);
    call->lob_null = ttc_rd_ptr(r);
    s = r->off; call->lob_op = ttc_rd_ub4(r); ttc_add_uint(tree, hf_lob_op, r, s, call->lob_op);
    ttc_rd_ptr(r);                     /* SCN array */
    ttc_rd_ub4(r);                     /* SCN array length */
    if (r->d->fv >= TTC_FV_9_2) {
        ttc_rd_ub8(r);                 /* source offset */
        ttc_rd_ub8(r);                 /* destination offset */
        call->lob_amount = ttc_rd_ptr(r);
    } else {
        call->lob_amount = amount_short;
    }
    if (r->d->fv >= TTC_FV_10_1)
        ttc_rd_skip(r, 6);             /* array LOB (3 x u16, unused) */
    s = r->off;
    ttc_rd_skip(r, (gint)call->lob_src_len);
    if (tree && call->lob_src_len && ttc_rd_ok(r))
        proto_tree_add_item(tree, hf_lob_locator, r->tvb, s, (gint)call->lob_src_len, ENC_NA);
    ttc_rd_skip(r, (gint)call->lob_dst_len);
    if (call->lob_src_len > 65535 || call->lob_dst_len > 65535)
        r->bad = TRUE;
    /* After the locators, as the pointers said (python-oracledb
     * _write_message): the charset ub4 (create temporary), a write's data
     * as a LOB data message (14, bytes with a length), the amount ub8
     * (read, write, trim).  A universal ub8 starts with its length (0-8),
     * so a 14 there is the data message; natively only a write has it. */
    if (ttc_rd_ok(r)) {
        ttc_rd_t t = *r;
        gint data_at = -1, amount_at = -1;
        guint32 n = 0;
        guint64 amount = 0;
        if (call->lob_charset)
            ttc_rd_ub4(&t);
        if (ttc_rd_left(&t) > 0 && tvb_get_uint8(t.tvb, t.off) == TTC_MSG_LOB_DATA &&
            (!t.d->native || call->lob_op == LOB_OP_WRITE)) {
            ttc_rd_u8(&t);
            data_at = t.off;
            n = ttc_rd_dalc(&t, &data_at);
        }
        if (call->lob_amount) {
            amount_at = t.off;
            amount = t.d->fv < TTC_FV_9_2 ? ttc_rd_ub4(&t) : ttc_rd_ub8(&t);
        }
        /* what does not fit (or continues in the next packet) stays call data */
        if (ttc_rd_ok(&t)) {
            if (tree && data_at >= 0)
                proto_item_set_generated(proto_tree_add_uint(tree, hf_lob_data_len, t.tvb, data_at, 0, n));
            if (tree && amount_at >= 0)
                proto_tree_add_uint64(tree, hf_lob_amount, t.tvb, amount_at, t.off - amount_at, amount);
            r->off = t.off;
        }
    }
    res->stop = TRUE;              /* anything left is call data */
}

void
ttc_rpa_lob_op(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req, wmem_allocator_t *scope _U_)
{
    /* The locators again (the server may update them), then what the
     * call's pointers asked for: charset ub2, amount (sb8; ub4 before
     * field version 3, go-ora), the NULL-LOB / boolean flag.  python-
     * oracledb reads that flag as ub1, go-ora as ub2: the same byte for
     * false; python's reading is taken. */
    const ttc_call_rare_t *q = req ? ttc_req_rare(req) : NULL;
    if (!q) { r->bad = TRUE; return; }
    ttc_rd_skip(r, (gint)q->lob_src_len);
    ttc_rd_skip(r, (gint)q->lob_dst_len);
    if (q->lob_charset)
        ttc_rd_ub2(r);
    if (q->lob_amount) {
        gint s = r->off;
        guint64 amount = r->d->fv < TTC_FV_9_2 ? ttc_rd_ub4(r) : ttc_rd_ub8(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_uint64(tree, hf_lob_amount, r->tvb, SPAN(r, s), amount);
    }
    if (q->lob_null)
        ttc_rd_u8(r);
}

void
ttc_msg_lob_data(ttc_rd_t *r, proto_tree *mt, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                 wmem_allocator_t *scope _U_)
{
    /* LOB data of a read (python-oracledb read_raw_bytes_and_length,
     * go-ora readData: GetClr) */
    gint first = r->off;
    guint32 n = ttc_rd_dalc(r, &first);
    if (mt && ttc_rd_ok(r))
        proto_item_set_generated(proto_tree_add_uint(mt, hf_lob_data_len, r->tvb, first, 0, n));
}

void
ttc_lob_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_lob_op, { "LOB operation", "sqlnet.lob.operation", FT_UINT32, BASE_HEX, VALS(lob_op_vals), 0x0, NULL, HFILL } },
        { &hf_lob_locator, { "LOB locator", "sqlnet.lob.locator", FT_BYTES, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_lob_amount, { "LOB amount", "sqlnet.lob.amount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Characters or bytes a LOB operation asks for (call) or read or wrote (reply; or the LOB's length)", HFILL } },
        { &hf_lob_data_len, { "LOB data length", "sqlnet.lob.data_length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of LOB data in this message", HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}
