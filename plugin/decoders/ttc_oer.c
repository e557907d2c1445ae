/* ttc_oer.c - the end of a call: the error/status message (OER, 4),
 * the end-of-call status (9) and warnings (15).
 *
 * Field by field as python-oracledb (messages/base.pyx _process_error_info),
 * node-oracledb (lib/thin/protocol/messages/base.js processErrorInfo), go-ora
 * (v2/network/summary_object.go) and JDBC (T4CTTIoer11) read them; the gates
 * are named beside each field.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_oer_call_status = -1;
static int hf_oer_e2e_seq = -1;
static int hf_oer_cur_row = -1;
static int hf_oer_error16 = -1;
static int hf_oer_pos = -1;
static int hf_oer_sql_type = -1;
static int hf_oer_call_num = -1;
static int hf_oer_success_iters = -1;
static int hf_oer_rowid = -1;
static int hf_oer_batch_error = -1;
static int hf_oer_batch_offset = -1;
static int hf_oer_batch_msg = -1;
static int hf_ora_error = -1;
static int hf_ora_error_msg = -1;
static int hf_rowcount = -1;
static int hf_sta_call_status = -1;
static int hf_wrn_error = -1;
static int hf_wrn_msg = -1;

/* Does the OER end cleanly at the reader's position: its message text (if
 * any) is an "ORA-" text, and after it comes the end of the data or a
 * message that may follow an OER? */
static gboolean
oer_tail_fits(const ttc_rd_t *at, guint32 error)
{
    ttc_rd_t p = *at;
    guint8 next;

    if (!ttc_rd_ok(&p))
        return FALSE;
    if (error != 0) {
        gint first;
        guint32 n = ttc_rd_dalc(&p, &first);
        if (!ttc_rd_ok(&p) || n < 4 || tvb_strneql(p.tvb, first, "ORA-", 4) != 0)
            return FALSE;
    }
    if (p.off == p.end)
        return TRUE;
    next = tvb_get_uint8(p.tvb, p.off);
    return next == TTC_MSG_END_OF_RESPONSE || next == TTC_MSG_SERVER_PIGGYBACK ||
           next == TTC_MSG_ERROR || next == TTC_MSG_PARAMETER;
}

/* Batch error codes or offsets: a count, then (when non-zero) a marker byte;
 * a 0xFE marker puts a 4-byte chunk length before every element and a
 * terminating byte after the list.  Elements are ub2 codes or ub4 offsets.
 * Returns FALSE (and marks the reader bad) for an implausible count. */
static gboolean
skip_batch_list(ttc_rd_t *r, proto_tree *tree, int hf, guint32 num, gboolean wide)
{
    guint8 first;
    guint32 i;

    if (num > TTC_MAX_LIST) { r->bad = TRUE; return FALSE; }
    if (num == 0)
        return TRUE;
    first = ttc_rd_u8(r);
    for (i = 0; i < num && ttc_rd_ok(r); i++) {
        gint s;
        if (first == 0xFE)
            ttc_rd_ub4(r);
        s = r->off;
        ttc_add_uint(tree, hf, r, s, wide ? ttc_rd_ub4(r) : ttc_rd_ub2(r));
    }
    if (first == 0xFE)
        ttc_rd_skip(r, 1);
    return TRUE;
}

/* The OER's fixed part after the SQL type, up to the message text, in the
 * thin layout.  "fatal", "flags" and "user cursor options" are SB1s in
 * Oracle's own reader (JDBC T4CTTIoer11.unmarshalAttributes: unmarshalSB1),
 * so their width follows the SB1 representation negotiated in the DTY
 * exchange: one byte for python-oracledb and node-oracledb (raw SB1; both
 * read skip_ub1), a universal integer for JDBC and go-ora (go-ora reads flags
 * and options as GetInt(2, compress) from TTC field version 4 on, and
 * "fatal" as one byte: the two agree while it is 0).  `sb1u` picks the
 * universal reading.  Returns FALSE when the batch lists are implausible.
 * `tail_fits`: what oer_tail_fits() says at the end (1 or 0) when the
 * 20.1 tail check already asked it, else -1. */
static gboolean
oer_fixed_rest(ttc_rd_t *r, proto_tree *tree, gboolean sb1u, guint32 err16, guint32 cur_row,
               guint32 *error, guint64 *rowcount, gboolean *short_tail, gint *tail_fits)
{
    const ttc_dialect_t *d = r->d;
    guint32 num, i;
    gint s;
    char rowid[19];

    *short_tail = FALSE;
    *tail_fits = -1;
    if (sb1u) {
        ttc_rd_ub2(r);                          /* fatal, SB1 universal */
        ttc_rd_ub2(r);                          /* flags */
        ttc_rd_ub2(r);                          /* user cursor options */
    } else {
        ttc_rd_skip(r, 3);                      /* fatal, flags, user cursor options: raw SB1 */
    }
    ttc_rd_skip(r, 2);                          /* UPI parameter, warning flags */
    s = r->off;
    ttc_rd_rowid(r, tree ? rowid : NULL);       /* rowid: object, file, table, block, slot (text: shown only) */
    if (tree && rowid[0] && ttc_rd_ok(r))
        proto_tree_add_string(tree, hf_oer_rowid, r->tvb, SPAN(r, s), rowid);
    ttc_rd_ub4(r);                              /* OS error */
    ttc_rd_u8(r);                               /* statement number */
    s = r->off; ttc_add_uint(tree, hf_oer_call_num, r, s, ttc_rd_u8(r));
    ttc_rd_ub2(r);                              /* padding */
    s = r->off; ttc_add_uint(tree, hf_oer_success_iters, r, s, ttc_rd_ub4(r));
    *error = err16;
    *rowcount = cur_row;
    if (!d->native && d->fv < TTC_FV_10_1)
        return TRUE;                            /* TTC 8.x JDBC ends the fixed part here */
    /* oerrdd (logical rowid): its length is 2 bytes in OCI's native layout */
    num = d->native ? ttc_rd_u16le(r) : ttc_rd_ub4(r);
    if (num > 0)
        ttc_rd_dalc(r, NULL);

    /* batch errors of an array DML with batch errors on (ORA-24381): codes
     * (native: 4-byte counts), row offsets, messages (python-oracledb
     * _process_error_info) */
    if (!skip_batch_list(r, tree, hf_oer_batch_error, d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r), FALSE))
        return FALSE;
    if (!skip_batch_list(r, tree, hf_oer_batch_offset, ttc_rd_ub4(r), TRUE))
        return FALSE;
    num = d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);
    if (num > TTC_MAX_LIST) { r->bad = TRUE; return FALSE; }
    if (num > 0) {
        ttc_rd_skip(r, 1);
        for (i = 0; i < num && ttc_rd_ok(r); i++) {
            gint first = 0;
            gboolean short_form;
            guint32 len;
            ttc_rd_ub2(r);
            short_form = ttc_rd_have(r, 1) && tvb_get_uint8(r->tvb, r->off) != 0xFE;
            len = ttc_rd_dalc(r, &first);
            if (tree && short_form && len > 0 && ttc_rd_ok(r))
                proto_tree_add_item(tree, hf_oer_batch_msg, r->tvb, first,
                                    (gint)len - (tvb_get_uint8(r->tvb, first + (gint)len - 1) == '\n'), ENC_UTF_8);
            ttc_rd_skip(r, 2);
        }
    }
    if (d->fv >= TTC_FV_12_1) {
        *error = ttc_rd_ub4(r);                 /* error number (extended) */
        *rowcount = ttc_rd_ub8(r);              /* row count (extended) */
    }
    if (d->fv >= TTC_FV_20_1 && !d->oer_short_tail && ttc_rd_ok(r)) {
        /* sql type + server checksum (20.1; python and node read them, go-ora
         * does not).  Some servers leave them out for some clients: take the
         * short layout when the full one runs past the response or misreads
         * the message that follows. */
        ttc_rd_t full = *r, brief = *r;
        ttc_rd_ub4(&full);
        ttc_rd_ub4(&full);
        if (oer_tail_fits(&full, *error)) {
            *r = full;
            *tail_fits = 1;
        } else if (oer_tail_fits(&brief, *error)) {
            *short_tail = TRUE;
            *tail_fits = 1;
        } else {
            *r = full;
            *tail_fits = 0;
        }
    }
    return TRUE;
}

void
ttc_msg_error(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res,
              wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    guint32 call_status = 0, cur_row, err16, cursor;
    guint64 rowcount;
    guint32 error;
    gint s, base = 0;
    gboolean short_tail = FALSE;
    proto_item *pi;

    if (d->structs && d->fv < TTC_FV_9_2) {
        /* SQL*Plus 9.0's server (field version 1): a u32 (1 or 0: the call
         * status), no sequence, the marker, then the same 88-byte struct:
         * visblank 9i session frames 65, 81, 85 (ORA-01403 on cursor 1), 95
         * (a COMMIT, sql type 44), 161; every OER 94 bytes before its
         * message. */
        s = r->off; call_status = ttc_rd_ub4(r);
        ttc_add_uint(tree, hf_oer_call_status, r, s, call_status);
    } else {
        if (d->call_status) {
            s = r->off; call_status = ttc_rd_ub4(r);
            ttc_add_uint(tree, hf_oer_call_status, r, s, call_status);
        }
        s = r->off; ttc_add_uint(tree, hf_oer_e2e_seq, r, s, ttc_rd_ub2(r));
    }
    if (d->structs) {
        /* Same-platform OER (wsSC frames 25, 36, 78): call status u32, seq
         * u16, marker 01, then an 88-byte struct: current row u32 @0, error
         * u16 @4, array errors u16 @6 and @8, cursor u16 @10, position
         * @12, sql type u8 @14, the rest (rowid, OS error, batch areas)
         * unused here; the message DALC follows when the error is not 0.
         * Frame 36: "04 01000000 0000 01 00000000 f903 ..." = ORA-1017 with
         * "33 ORA-01017..." at offset 96; frame 78: row 1, cursor 1, no
         * message, the OER ends the data. */
        ttc_rd_u8(r);                           /* struct marker */
        base = r->off;
    }
    s = r->off; cur_row = ttc_rd_ub4(r); ttc_add_uint(tree, hf_oer_cur_row, r, s, cur_row);
    s = r->off; err16 = ttc_rd_ub2(r); ttc_add_uint(tree, hf_oer_error16, r, s, err16);
    ttc_rd_ub2(r);                              /* array element errors */
    ttc_rd_ub2(r);
    s = r->off; cursor = ttc_rd_ub2(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, cursor);
    s = r->off;
    {
        gint32 pos = ttc_rd_sb2(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_int(tree, hf_oer_pos, r->tvb, SPAN(r, s), pos);
    }
    s = r->off; ttc_add_uint(tree, hf_oer_sql_type, r, s, ttc_rd_u8(r));
    if (d->structs) {
        error = err16;
        rowcount = cur_row;
        if (d->ptr_width == 8) {
            /* 64-bit server (jkstill19c, 19c at field version 7): a 136-byte
             * struct.  Call number u8 @41 (the sequence number of the call
             * answered: 2, 3, 5, 6 in frames 22, 27, 31, 35), successful
             * iterations u32 @44 (1 after frame 35's one-row fetch), and at
             * field version 12.1 the extended error u32 @124 and row count
             * u64 @128 (frame 35: 1403 and 1, its error16 and current row
             * repeated). */
            ttc_rd_struct_rest(r, base, 41);
            s = r->off; ttc_add_uint(tree, hf_oer_call_num, r, s, ttc_rd_u8(r));
            ttc_rd_struct_rest(r, base, 44);
            s = r->off; ttc_add_uint(tree, hf_oer_success_iters, r, s, ttc_rd_ub4(r));
            if (d->fv >= TTC_FV_12_1) {
                guint64 lo, hi;
                ttc_rd_struct_rest(r, base, 124);
                error = ttc_rd_ub4(r);          /* error number (extended) */
                lo = ttc_rd_ub4(r);             /* row count (extended), u64 */
                hi = ttc_rd_ub4(r);
                rowcount = lo | (hi << 32);
            }
            ttc_rd_struct_rest(r, base, STRUCT_OER_SIZE(d));
        } else {
            ttc_rd_struct_rest(r, base, STRUCT_OER_SIZE(d));
            if (d->fv >= TTC_FV_12_1) {
                error = ttc_rd_ub4(r);          /* as in the thin layout (never seen: 10.2 structs) */
                rowcount = ttc_rd_ub8(r);
            }
        }
    } else {
        /* The negotiated SB1 representation first; the other one when only
         * it fits (a capture without the DTY exchange, where the dialect
         * was inferred).  Without a tree the layout taken is decoded once:
         * its reader and values are the decoding (the tree's items are the
         * only thing a second decoding would add). */
        ttc_rd_t one = *r, two = *r;
        gboolean ok, sb1u = d->sb1_universal, tail_two = FALSE;
        guint32 e2 = 0;
        guint64 rc2 = 0;
        gint fits_one, fits_two;

        ok = oer_fixed_rest(&one, NULL, sb1u, err16, cur_row, &error, &rowcount, &short_tail, &fits_one);
        if (ok && fits_one < 0)
            fits_one = oer_tail_fits(&one, error);
        if (!d->native && !(ok && fits_one) &&
            oer_fixed_rest(&two, NULL, !sb1u, err16, cur_row, &e2, &rc2, &tail_two, &fits_two) &&
            (fits_two >= 0 ? fits_two : oer_tail_fits(&two, e2))) {
            sb1u = !sb1u;
            one = two;
            ok = TRUE;
            error = e2;
            rowcount = rc2;
            short_tail = tail_two;
        }
        if (tree)
            ok = oer_fixed_rest(r, tree, sb1u, err16, cur_row, &error, &rowcount, &short_tail, &fits_one);
        else
            *r = one;
        if (!ok)
            return;
        if (short_tail) {
            res->dialect_update = TRUE;
            res->dialect = *d;
            res->dialect.oer_short_tail = TRUE;
        }
    }

    res->oer_message = NULL;
    if (error != 0) {
        gint ms, ml;
        const char *msg = ttc_rd_dalc_str(r, scope, &ms, &ml);
        if (msg) {
            /* Messages end with a newline: keep the field clean. */
            gsize n = strlen(msg);
            char *clean = wmem_strndup(scope, msg, n);
            while (n > 0 && (clean[n - 1] == '\n' || clean[n - 1] == ' '))
                clean[--n] = '\0';
            res->oer_message = clean;
            if (tree && ttc_rd_ok(r))
                proto_tree_add_string(tree, hf_ora_error_msg, r->tvb, ms, ml, clean);
        }
    }
    if (!ttc_rd_ok(r))
        return;
    if (tree) {
        pi = proto_tree_add_uint(tree, hf_ora_error, r->tvb, r->off, 0, error);
        proto_item_set_generated(pi);
        pi = proto_tree_add_uint64(tree, hf_rowcount, r->tvb, r->off, 0, rowcount);
        proto_item_set_generated(pi);
    }
    res->has_oer = TRUE;
    res->oer_cursor = cursor;
    res->oer_error = error;
    res->oer_rowcount = rowcount;
    res->call_status = call_status;
    res->terminal = TRUE;
    (void)st;
}

/* End-of-call status (message 9): the call status, then (with the
 * end-of-call status capability) the end-to-end sequence. */
void
ttc_msg_status(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
               wmem_allocator_t *scope _U_)
{
    gint s = r->off;
    guint32 cs = ttc_rd_ub4(r);

    ttc_add_uint(tree, hf_sta_call_status, r, s, cs);
    if (r->d->call_status)
        ttc_rd_ub2(r);                /* end-to-end sequence (not in TTC 8.x) */
    res->call_status = cs;
    res->terminal = TRUE;
}

/* Warning (message 15): error number, message length, flags, the text. */
void
ttc_msg_warning(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                wmem_allocator_t *scope)
{
    gint s = r->off;
    guint32 err = ttc_rd_ub2(r), len;

    ttc_add_uint(tree, hf_wrn_error, r, s, err);
    len = ttc_rd_ub2(r);
    ttc_rd_ub2(r);                    /* flags */
    if (err != 0 && len > 0) {
        gint ms, ml;
        const char *msg = ttc_rd_dalc_str(r, scope, &ms, &ml);
        if (tree && msg && ttc_rd_ok(r))
            proto_tree_add_string(tree, hf_wrn_msg, r->tvb, ms, ml, msg);
    }
}

void
ttc_oer_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_oer_call_status, { "Call status", "sqlnet.oer.call_status", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_e2e_seq, { "End-to-end sequence", "sqlnet.oer.e2e_seq", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_cur_row, { "Current row number", "sqlnet.oer.cur_row", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_error16, { "Error number (16-bit)", "sqlnet.oer.error16", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_pos, { "Error position", "sqlnet.oer.position", FT_INT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_sql_type, { "SQL type", "sqlnet.oer.sql_type", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_call_num, { "Call number", "sqlnet.oer.call_num", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Sequence number of the call this status answers", HFILL } },
        { &hf_oer_success_iters, { "Successful iterations", "sqlnet.oer.success_iters", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_rowid, { "Rowid", "sqlnet.oer.rowid", FT_STRING, BASE_NONE, NULL, 0x0,
            "Last row the call touched (an INSERT's new row: python-oracledb's cursor.lastrowid)", HFILL } },
        { &hf_oer_batch_error, { "Batch error", "sqlnet.oer.batch_error", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Oracle error of one row of an array DML run with batch errors (ORA-24381)", HFILL } },
        { &hf_oer_batch_offset, { "Batch error row", "sqlnet.oer.batch_offset", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Row offset (from 0) of the batch error at the same position", HFILL } },
        { &hf_oer_batch_msg, { "Batch error message", "sqlnet.oer.batch_message", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ora_error, { "Error number", "sqlnet.oer.error", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Oracle error number of the call (0 = success, 1403 = no more rows)", HFILL } },
        { &hf_ora_error_msg, { "Error message", "sqlnet.oer.message", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_rowcount, { "Row count", "sqlnet.oer.rowcount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Rows fetched so far on this cursor (rows affected for DML)", HFILL } },
        { &hf_sta_call_status, { "Call status", "sqlnet.status.call_status", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_wrn_error, { "Warning", "sqlnet.warning", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_wrn_msg, { "Warning message", "sqlnet.warning.msg", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
}
