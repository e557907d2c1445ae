/* ttc_replies.c - server TTC messages: PRO/DTY replies, describe, row header,
 * rows, bit vector, return parameters, OER, status, warnings, piggybacks.
 *
 * Layouts follow ../shared/docs/tns-wire-format.md section 5.  Every decoder
 * reads through a ttc_rd_t, so a message cut by a TNS packet boundary is
 * reported as incomplete, never misread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc.h"

/* Oracle type numbers that change how a column travels. */
#define MAX_COLUMNS     4096
#define MAX_KV_PAIRS    4096
#define MAX_LIST        65536

/* Field versions that add fields (python constants). */

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
static int hf_rpa_dml_rowcount = -1;
static int hf_oer_batch_offset = -1;
static int hf_oer_batch_msg = -1;
static int hf_ora_error = -1;
static int hf_ora_error_msg = -1;
static int hf_rowcount = -1;
static int hf_rxh_flags = -1;
static int hf_rxh_nreq = -1;
static int hf_rxh_iter = -1;
static int hf_rxh_niters = -1;
static int hf_row = -1;
static int hf_bvc_sent = -1;
static int hf_dcb_columns = -1;
static int hf_dcb_column = -1;
static int hf_dcb_column_type = -1;
static int hf_dcb_column_size = -1;
static int hf_sta_call_status = -1;
static int hf_wrn_error = -1;
static int hf_wrn_msg = -1;
static int hf_spb_opcode = -1;
static int hf_pro_version = -1;
static int hf_pro_banner = -1;
static int hf_field_version = -1;
static int hf_rpa_key = -1;
static int hf_rpa_banner = -1;
static int hf_iov_dir = -1;
static int hf_lob_amount = -1;
static int hf_lob_data_len = -1;
static int hf_out_binds = -1;

static gint ett_msg = -1;
static gint ett_column = -1;

const value_string ttc_ora_type_vals[] = {
    { 1, "VARCHAR2" }, { 2, "NUMBER" }, { 3, "BINARY_INTEGER" }, { 8, "LONG" },
    { 11, "ROWID" }, { 12, "DATE" }, { 23, "RAW" }, { 24, "LONG RAW" }, { 96, "CHAR" },
    { 100, "BINARY_FLOAT" }, { 101, "BINARY_DOUBLE" }, { 102, "REF CURSOR" },
    { 109, "OBJECT" }, { 112, "CLOB" }, { 113, "BLOB" }, { 114, "BFILE" },
    { 119, "JSON" }, { 127, "VECTOR" }, { 180, "TIMESTAMP" },
    { 181, "TIMESTAMP WITH TIME ZONE" }, { 182, "INTERVAL YEAR TO MONTH" },
    { 183, "INTERVAL DAY TO SECOND" }, { 208, "UROWID" },
    { 231, "TIMESTAMP WITH LOCAL TIME ZONE" }, { 252, "BOOLEAN" },
    { 0, NULL }
};

static const value_string bind_dir_vals[] = {
    { TTC_BIND_DIR_OUTPUT, "out" }, { TTC_BIND_DIR_INPUT, "in" }, { TTC_BIND_DIR_INPUT_OUTPUT, "in out" },
    { 0, NULL }
};

static const value_string spb_vals[] = {
    { 1, "Query cache invalidation" }, { 2, "OS pid (MTS)" }, { 3, "Trace event" },
    { 4, "Session return" }, { 5, "Sync" }, { 7, "LTXID" }, { 8, "AC replay context" },
    { 9, "Extended sync" }, { 10, "Session signature" },
    { 0, NULL }
};

/* Add a field covering the bytes the reader consumed since `start`. */
#define SPAN(r, start) (start), ((r)->off - (start))

static proto_item *
add_uint(proto_tree *tree, int hf, ttc_rd_t *r, gint start, guint32 v)
{
    if (!tree || !ttc_rd_ok(r))
        return NULL;
    return proto_tree_add_uint(tree, hf, r->tvb, SPAN(r, start), v);
}

/* ---- OER: end of call / error ------------------------------------------ */

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

/* Same-platform sessions (dialect `structs`): the server copies some of its
 * in-memory structs onto the wire.  Each struct is announced by a one-byte
 * marker (01 in every sample) and is laid out with natural alignment from
 * its first byte, padding included; its size depends on the pointer width.
 * Sizes for 4-byte pointers are from wsSC_TNS_Oracle1.pcap (32-bit Windows
 * 10.2 server); those for 8-byte pointers are the totals EXPECTED.md gives
 * for 64-bit servers (136-byte OER, 50-byte row header), not verified here. */
#define STRUCT_OER_SIZE(d)  ((d)->ptr_width == 8 ? 128 : 88)
#define STRUCT_RXH_SIZE(d)  ((d)->fv < TTC_FV_9_2 ? 28 : (d)->ptr_width == 8 ? 48 : 32)

/* Skip from the current position to `base + size` (the end of a struct). */
static void
skip_struct_rest(ttc_rd_t *r, gint base, gint size)
{
    if (ttc_rd_ok(r) && r->off > base + size)
        r->bad = TRUE;
    else
        ttc_rd_skip(r, base + size - r->off);
}

/* Skip to the next multiple of `align` from `base`. */
static void
struct_align(ttc_rd_t *r, gint base, gint align)
{
    gint rel = r->off - base;
    ttc_rd_skip(r, (align - rel % align) % align);
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

    if (num > MAX_LIST) { r->bad = TRUE; return FALSE; }
    if (num == 0)
        return TRUE;
    first = ttc_rd_u8(r);
    for (i = 0; i < num && ttc_rd_ok(r); i++) {
        gint s;
        if (first == 0xFE)
            ttc_rd_ub4(r);
        s = r->off;
        add_uint(tree, hf, r, s, wide ? ttc_rd_ub4(r) : ttc_rd_ub2(r));
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
 * universal reading.  Returns FALSE when the batch lists are implausible. */
static gboolean
oer_fixed_rest(ttc_rd_t *r, proto_tree *tree, gboolean sb1u, guint32 err16, guint32 cur_row,
               guint32 *error, guint64 *rowcount, gboolean *short_tail)
{
    const ttc_dialect_t *d = r->d;
    guint32 num, i;
    gint s;
    char rowid[19];

    *short_tail = FALSE;
    if (sb1u) {
        ttc_rd_ub2(r);                          /* fatal, SB1 universal */
        ttc_rd_ub2(r);                          /* flags */
        ttc_rd_ub2(r);                          /* user cursor options */
    } else {
        ttc_rd_skip(r, 3);                      /* fatal, flags, user cursor options: raw SB1 */
    }
    ttc_rd_skip(r, 2);                          /* UPI parameter, warning flags */
    s = r->off;
    ttc_rd_rowid(r, rowid);                     /* rowid: object, file, table, block, slot */
    if (tree && rowid[0] && ttc_rd_ok(r))
        proto_tree_add_string(tree, hf_oer_rowid, r->tvb, SPAN(r, s), rowid);
    ttc_rd_ub4(r);                              /* OS error */
    ttc_rd_u8(r);                               /* statement number */
    s = r->off; add_uint(tree, hf_oer_call_num, r, s, ttc_rd_u8(r));
    ttc_rd_ub2(r);                              /* padding */
    s = r->off; add_uint(tree, hf_oer_success_iters, r, s, ttc_rd_ub4(r));
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
    if (num > MAX_LIST) { r->bad = TRUE; return FALSE; }
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
        if (!oer_tail_fits(&full, *error) && oer_tail_fits(&brief, *error))
            *short_tail = TRUE;
        else
            *r = full;
    }
    return TRUE;
}

static void
decode_oer(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, ttc_state_t *st,
           ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    guint32 call_status = 0, cur_row, err16, cursor;
    guint64 rowcount;
    guint32 error;
    gint s, base = 0;
    gboolean short_tail = FALSE;
    proto_item *pi;

    (void)pinfo;
    if (d->structs && d->fv < TTC_FV_9_2) {
        /* SQL*Plus 9.0's server (field version 1): a u32 (1 or 0: the call
         * status), no sequence, the marker, then the same 88-byte struct:
         * visblank 9i session frames 65, 81, 85 (ORA-01403 on cursor 1), 95
         * (a COMMIT, sql type 44), 161; every OER 94 bytes before its
         * message. */
        s = r->off; call_status = ttc_rd_ub4(r);
        add_uint(tree, hf_oer_call_status, r, s, call_status);
    } else {
        if (d->call_status) {
            s = r->off; call_status = ttc_rd_ub4(r);
            add_uint(tree, hf_oer_call_status, r, s, call_status);
        }
        s = r->off; add_uint(tree, hf_oer_e2e_seq, r, s, ttc_rd_ub2(r));
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
    s = r->off; cur_row = ttc_rd_ub4(r); add_uint(tree, hf_oer_cur_row, r, s, cur_row);
    s = r->off; err16 = ttc_rd_ub2(r); add_uint(tree, hf_oer_error16, r, s, err16);
    ttc_rd_ub2(r);                              /* array element errors */
    ttc_rd_ub2(r);
    s = r->off; cursor = ttc_rd_ub2(r); add_uint(tree, hf_ttc_cursor, r, s, cursor);
    s = r->off;
    {
        gint32 pos = ttc_rd_sb2(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_int(tree, hf_oer_pos, r->tvb, SPAN(r, s), pos);
    }
    s = r->off; add_uint(tree, hf_oer_sql_type, r, s, ttc_rd_u8(r));
    if (d->structs) {
        skip_struct_rest(r, base, STRUCT_OER_SIZE(d));
        error = err16;
        rowcount = cur_row;
        if (d->fv >= TTC_FV_12_1) {
            error = ttc_rd_ub4(r);              /* as in the thin layout (never seen: 10.2 structs) */
            rowcount = ttc_rd_ub8(r);
        }
    } else {
        /* The negotiated SB1 representation first; the other one when only
         * it fits (a capture without the DTY exchange, where the dialect
         * was inferred). */
        ttc_rd_t one = *r, two = *r;
        gboolean ok_one, sb1u = d->sb1_universal, tail_two = FALSE;
        guint32 e2 = 0;
        guint64 rc2 = 0;

        ok_one = oer_fixed_rest(&one, NULL, sb1u, err16, cur_row, &error, &rowcount, &short_tail);
        if (!d->native && !(ok_one && oer_tail_fits(&one, error)) &&
            oer_fixed_rest(&two, NULL, !sb1u, err16, cur_row, &e2, &rc2, &tail_two) &&
            oer_tail_fits(&two, e2))
            sb1u = !sb1u;
        if (!oer_fixed_rest(r, tree, sb1u, err16, cur_row, &error, &rowcount, &short_tail))
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

/* ---- describe ----------------------------------------------------------- */

static void
skip_str_with_length(ttc_rd_t *r)
{
    ttc_rd_skip_bytes_with_length(r);
}

/* Column metadata; fills col. */
static void
decode_column(ttc_rd_t *r, proto_tree *tree, ttc_column_t *col, wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    gint s = r->off, base;
    guint32 n, i;
    proto_item *ci = NULL;
    proto_tree *ct = NULL;

    /* Same-platform column (wsSC frame 78, compared with the OCI 10.1
     * column of junkie/select.pcap frame 24):
     *   10.1:   39 | 01 80 00 00 1e000000 00000000 00000000 00000000 0000     69 03 01    1e000000 01 04 ...
     *   struct: 39 | 01 | 01 80 00 00 1e000000 00000000 00000000 00000000 00000000 23 00 01 00 1e000000 01 04 ...
     * a struct marker 01 before the type, and natural alignment from the
     * type byte: version takes 4 bytes (charset at +24), a pad byte after
     * csfrm puts max size at +28.  From the name on (ub4 length + DALC at
     * +34, unaligned) the fields are as in 10.1. */
    if (d->structs) {
        ttc_rd_u8(r);                 /* struct marker */
        s = r->off;
    }
    base = r->off;
    col->type = ttc_rd_u8(r);
    ttc_rd_u8(r);                     /* flags */
    ttc_rd_sb1(r);                    /* precision */
    ttc_rd_sb1(r);                    /* scale */
    col->buffer_size = ttc_rd_ub4(r);
    ttc_rd_ub4(r);                    /* max array elements */
    if (d->fv >= TTC_FV_12_1)
        ttc_rd_ub8(r);                /* cont flags */
    else
        ttc_rd_ub4(r);                /* cont flags: a ub4 before 12.1 (11g OCI) */
    ttc_rd_skip_bytes_with_length(r); /* OID */
    if (d->structs)
        ttc_rd_ub4(r);                /* version: 4 bytes in the struct (00000000) */
    else
        ttc_rd_ub2(r);                /* version */
    ttc_rd_ub2(r);                    /* charset id */
    col->csfrm = ttc_rd_u8(r);
    if (d->structs)
        struct_align(r, base, 4);     /* pad byte before max size */
    ttc_rd_ub4(r);                    /* max size */
    if (d->fv >= TTC_FV_12_2)
        ttc_rd_ub4(r);                /* oaccolid */
    ttc_rd_u8(r);                     /* nulls allowed */
    ttc_rd_u8(r);                     /* v7 name length */
    col->name = ttc_rd_str_with_length(r, scope);
    skip_str_with_length(r);          /* schema */
    skip_str_with_length(r);          /* type name */
    if (d->fv >= TTC_FV_9_2)          /* go-ora ParameterInfo.load: from field version 3 */
        ttc_rd_ub2(r);                /* column position */
    if (d->fv >= TTC_FV_11_2)
        ttc_rd_ub4(r);                /* UDS flags (absent in 11.1 and older) */
    if (d->fv >= TTC_FV_23_1) {
        skip_str_with_length(r);      /* domain schema */
        skip_str_with_length(r);      /* domain name */
    }
    if (d->fv >= TTC_FV_23_1_EXT_3) {
        n = ttc_rd_ub4(r);            /* annotations */
        if (n > 0 && ttc_rd_ok(r)) {
            ttc_rd_u8(r);
            n = ttc_rd_ub4(r);
            ttc_rd_u8(r);
            if (n > MAX_KV_PAIRS) { r->bad = TRUE; return; }
            for (i = 0; i < n && ttc_rd_ok(r); i++) {
                skip_str_with_length(r);
                skip_str_with_length(r);
                ttc_rd_ub4(r);
            }
            ttc_rd_ub4(r);
        }
    }
    if (d->fv >= TTC_FV_23_4) {
        ttc_rd_ub4(r);                /* vector dimensions */
        ttc_rd_u8(r);                 /* vector format */
        ttc_rd_u8(r);                 /* vector flags */
    }
    if (tree && ttc_rd_ok(r)) {
        ci = proto_tree_add_string(tree, hf_dcb_column, r->tvb, SPAN(r, s), col->name ? col->name : "");
        ct = proto_item_add_subtree(ci, ett_column);
        proto_tree_add_uint(ct, hf_dcb_column_type, r->tvb, s, 1, col->type);
        proto_tree_add_uint(ct, hf_dcb_column_size, r->tvb, s, 0, col->buffer_size);
    }
}

/* Describe body (after the leading DALC in message 16, or nested in a
 * REF CURSOR column). Returns the new describe. */
static const ttc_describe_t *
decode_describe_body(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope)
{
    ttc_describe_t *desc;
    guint32 ncols, i;
    gint s;

    ttc_rd_ub4(r);                    /* max row size */
    s = r->off;
    ncols = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r))
        return NULL;
    if (ncols > MAX_COLUMNS) {
        r->bad = TRUE;
        return NULL;
    }
    add_uint(tree, hf_dcb_columns, r, s, ncols);
    if (ncols > 0)
        ttc_rd_u8(r);
    desc = wmem_new0(scope, ttc_describe_t);
    desc->ncols = ncols;
    desc->cols = wmem_alloc0_array(scope, ttc_column_t, ncols ? ncols : 1);
    for (i = 0; i < ncols && ttc_rd_ok(r); i++) {
        decode_column(r, tree, &desc->cols[i], scope);
        if (desc->cols[i].type == ORA_CLOB || desc->cols[i].type == ORA_BLOB || desc->cols[i].type == ORA_BFILE)
            desc->has_lob = TRUE;
    }
    ttc_rd_skip_bytes_with_length(r); /* current date */
    /* SQL*Plus 9.0's server (field version 1) ends the describe with the
     * date: its row header follows (visblank 9i session frame 159). */
    if (r->d->fv < TTC_FV_9_2)
        return ttc_rd_ok(r) ? desc : NULL;
    ttc_rd_ub4(r);                    /* dcbflag */
    ttc_rd_ub4(r);                    /* dcbmdbz */
    if (r->d->fv >= TTC_FV_10_1) {
        ttc_rd_ub4(r);                /* dcbmnpr */
        ttc_rd_ub4(r);                /* dcbmxpr */
    }
    if (r->d->fv >= TTC_FV_10_2)
        ttc_rd_skip_bytes_with_length(r); /* dcbqcky (absent in 10g) */
    return ttc_rd_ok(r) ? desc : NULL;
}

/* ---- rows --------------------------------------------------------------- */

/* A LOB value in a row: locator length ub4 (0: NULL), then (not for a
 * BFILE) the size sb8 and chunk size ub4, then with JDBC's LOB prefetch a
 * flag byte (1: a charset ub2 follows), the form of use and the prefetched
 * data, then the locator (python-oracledb read_lob_with_length; JDBC
 * T4CClobAccessor.unmarshalBytes / unmarshalPrefetchData). */
static void
skip_lob(ttc_rd_t *r, const ttc_column_t *col)
{
    guint32 n = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r) || n == 0)
        return;
    if (col->type != ORA_BFILE) {
        ttc_rd_ub8(r);                /* size */
        ttc_rd_ub4(r);                /* chunk size */
        if (col->lob_prefetch == 2) {
            if (ttc_rd_u8(r) == 1)
                ttc_rd_ub2(r);        /* charset of the prefetched data */
            ttc_rd_u8(r);             /* form of use */
            ttc_rd_dalc(r, NULL);     /* prefetched data */
        }
    }
    ttc_rd_dalc(r, NULL);             /* locator */
}

/* An object (python-oracledb packet.pyx read_dbobject): type OID, OID,
 * snapshot, version, image length and flags, then the image when it is not
 * empty (the flags come whether or not it is). */
static void
skip_object_image(ttc_rd_t *r)
{
    guint32 n;

    ttc_rd_skip_bytes_with_length(r);   /* toid */
    ttc_rd_skip_bytes_with_length(r);   /* oid */
    ttc_rd_skip_bytes_with_length(r);   /* snapshot */
    ttc_rd_ub2(r);                      /* version */
    n = ttc_rd_ub4(r);                  /* image length */
    ttc_rd_ub2(r);                      /* flags */
    if (n > 0 && ttc_rd_ok(r))
        ttc_rd_dalc(r, NULL);
}

/* A cursor the reply opens: its describe and id (REF cursor values,
 * implicit results), for the fetches that follow on it. */
static void
note_new_cursor(ttc_msg_result_t *res, guint32 id, const ttc_describe_t *desc)
{
    if (!res || !desc || id == 0 || res->ncursors >= TTC_MAX_NEW_CURSORS)
        return;
    res->cursors[res->ncursors].id = id;
    res->cursors[res->ncursors].describe = desc;
    res->ncursors++;
}

/* A REF cursor value (column or out bind): a length byte, the cursor's
 * describe as in a describe message (max row size first, no leading
 * bytes), its cursor id ub2.  python-oracledb _process_column_data
 * ORA_TYPE_NUM_CURSOR, go-ora v2/ref_cursor.go load(). */
static void
skip_cursor_value(ttc_rd_t *r, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    const ttc_describe_t *nested;
    guint32 id;

    ttc_rd_u8(r);
    nested = decode_describe_body(r, NULL, scope);
    id = ttc_rd_ub2(r);
    if (ttc_rd_ok(r))
        note_new_cursor(res, id, nested);
}

static void
skip_column_value(ttc_rd_t *r, const ttc_column_t *col, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    guint8 n;

    if (col->buffer_size == 0 && col->type != ORA_LONG && col->type != ORA_LONG_RAW &&
        col->type != ORA_UROWID)
        return;                       /* NULL by describe: nothing on the wire */
    switch (col->type) {
    case ORA_ROWID:
        n = ttc_rd_u8(r);
        if (n != 0 && n != 0xFF)
            ttc_rd_skip_rowid(r);
        break;
    case ORA_UROWID:
        ttc_rd_dalc(r, NULL);
        ttc_rd_dalc(r, NULL);
        break;
    case ORA_CLOB:
    case ORA_BLOB:
    case ORA_BFILE:
        skip_lob(r, col);
        break;
    case ORA_JSON:
    case ORA_VECTOR:
        if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
            ttc_rd_ub8(r);
            ttc_rd_ub4(r);
            ttc_rd_dalc(r, NULL);
            ttc_rd_dalc(r, NULL);
        }
        break;
    case ORA_CURSOR:
        skip_cursor_value(r, res, scope);
        break;
    case ORA_OBJECT:
        skip_object_image(r);
        break;
    default:
        ttc_rd_dalc(r, NULL);
        if (col->type == ORA_LONG || col->type == ORA_LONG_RAW) {
            ttc_rd_sb4(r);            /* null indicator */
            ttc_rd_ub4(r);            /* return code */
        }
        break;
    }
}

/* One out-bind value (python-oracledb _process_column_data with in_fetch
 * false): no NULL-by-describe rule, a ROWID as text, LONG without its
 * fetch trailer, and after every value its actual length sb4. */
static void
skip_out_value(ttc_rd_t *r, const ttc_column_t *col, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    switch (col->type) {
    case ORA_ROWID:
    case ORA_UROWID:
        ttc_rd_dalc(r, NULL);
        break;
    case ORA_CLOB:
    case ORA_BLOB:
    case ORA_BFILE:
        skip_lob(r, col);
        break;
    case ORA_CURSOR:
        skip_cursor_value(r, res, scope);
        break;
    case ORA_OBJECT:
        skip_object_image(r);
        break;
    case ORA_JSON:
    case ORA_VECTOR: {
        ttc_column_t c = *col;
        c.buffer_size = 1;
        skip_column_value(r, &c, res, scope);
        break;
    }
    default:
        ttc_rd_dalc(r, NULL);
        break;
    }
    ttc_rd_sb4(r);                    /* actual length (truncation check) */
}

/* Out-bind values: PL/SQL out binds after an I/O vector (one value per
 * bind, an array bind's count first), DML RETURNING binds (a row count per
 * bind, then that many values).  python-oracledb _process_row_data. */
static void
decode_bind_row(ttc_rd_t *r, proto_tree *tree, const ttc_describe_t *desc, ttc_msg_result_t *res,
                wmem_allocator_t *scope)
{
    guint32 i, j, values = 0;
    gint s = r->off;

    for (i = 0; i < desc->ncols && ttc_rd_ok(r); i++) {
        const ttc_column_t *col = &desc->cols[i];
        if (desc->kind == TTC_ROWS_RETURNING || (col->bind_flags & TTC_BIND_FLAG_ARRAY)) {
            guint32 n = ttc_rd_ub4(r);
            if (n > MAX_LIST) {
                r->bad = TRUE;
                return;
            }
            for (j = 0; j < n && ttc_rd_ok(r); j++)
                skip_out_value(r, col, res, scope);
            values += n;
        } else {
            skip_out_value(r, col, res, scope);
            values++;
        }
    }
    if (!ttc_rd_ok(r))
        return;
    if (tree) {
        proto_item *pi = proto_tree_add_item(tree, hf_out_binds, r->tvb, SPAN(r, s), ENC_NA);
        proto_item_append_text(pi, ": %u values of %u %s", values, desc->ncols,
                               desc->kind == TTC_ROWS_RETURNING ? "return binds" : "out binds");
    }
}

static void
decode_row(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res,
           wmem_allocator_t *scope)
{
    /* The describe is not in the capture (it came before it started): walk
     * the row as the row header's column count of plain values.  One shared
     * column, not an array per row: a hostile row header asks for 65535. */
    static const ttc_column_t plain = { ORA_VARCHAR, 0, 0, 0, 1, NULL };
    const ttc_describe_t *desc = st->describe;
    guint32 i, ncols, walk, sent = 0;
    gint s = r->off;

    if (desc && desc->kind != TTC_ROWS_COLUMNS) {
        decode_bind_row(r, tree, desc, res, scope);
        return;                       /* out binds are not rows of a result set */
    }
    if (!desc && st->rxh_columns == 0 && !st->bitvec) {
        r->bad = TRUE;                /* rows without a describe: cannot walk them */
        return;
    }
    ncols = desc ? desc->ncols : st->rxh_columns;
    walk = ncols;
    /* Without a describe, a bit vector bounds the columns better than the
     * row header's count: the bits past the last column are zero, so
     * walking every bit the vector has skips them. */
    if (!desc && st->bitvec && (guint32)st->bitvec_len * 8 > walk)
        walk = (guint32)st->bitvec_len * 8;
    for (i = 0; i < walk && ttc_rd_ok(r); i++) {
        if (st->bitvec && (i / 8) < st->bitvec_len && !(st->bitvec[i / 8] & (1 << (i % 8))))
            continue;                 /* same value as the previous row */
        skip_column_value(r, desc ? &desc->cols[i] : &plain, res, scope);
        /* SQL*Plus 9.0's server answers an OALL8 with every value followed
         * by 4 zero bytes (indicator and return code as 2-byte natives, by
         * their size; visblank 9i session frames 159 and 161), its OFETCH
         * after an OALL7 without them (frame 69). */
        if (r->d->structs && r->d->fv < TTC_FV_9_2 && st->req && st->req->func == TTC_FN_OALL8)
            ttc_rd_skip(r, 4);
        sent++;
    }
    if (!ttc_rd_ok(r))
        return;
    if (tree) {
        proto_item *pi = proto_tree_add_item(tree, hf_row, r->tvb, SPAN(r, s), ENC_NA);
        proto_item_append_text(pi, ": %u of %u columns", sent, MAX(ncols, sent));
    }
    st->bitvec = NULL;
    st->bitvec_len = 0;
    res->row = TRUE;
}

static void
set_bitvec(ttc_rd_t *r, ttc_state_t *st, guint32 nbytes, wmem_allocator_t *scope)
{
    if (nbytes > 512) {
        r->bad = TRUE;
        return;
    }
    if (!ttc_rd_have(r, (gint)nbytes))
        return;
    st->bitvec = (const guint8 *)tvb_memdup(scope, r->tvb, r->off, nbytes);
    st->bitvec_len = (guint16)nbytes;
    r->off += nbytes;
}

static void
decode_row_header(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, wmem_allocator_t *scope)
{
    guint32 n;
    gint s;

    guint32 nreq;

    if (r->d->structs) {
        /* Same-platform row header (wsSC frame 78): marker 01, then a
         * 32-byte struct with natural alignment: flags u8 @0, columns u16
         * @2, iteration u32 @4, iterations u32 @8, the rest (buffer length,
         * bit vector and rowid lengths or pointers) not decoded:
         *   06 | 01 | 02 00 0100 00000000 01000000 00...00 3b60
         * (the last two bytes are uninitialised padding).  No row header
         * with a bit vector has been seen in this layout. */
        gint base;
        ttc_rd_u8(r);                 /* struct marker */
        base = r->off;
        s = r->off; add_uint(tree, hf_rxh_flags, r, s, ttc_rd_u8(r));
        struct_align(r, base, 2);
        s = r->off; nreq = ttc_rd_ub2(r); add_uint(tree, hf_rxh_nreq, r, s, nreq);
        if (ttc_rd_ok(r) && nreq <= MAX_COLUMNS)
            st->rxh_columns = (guint16)nreq;
        /* SQL*Plus 9.0's server (field version 1): 2-byte iteration counts,
         * a 28-byte struct (visblank 9i session frames 69, 159: columns 1
         * and 3, one row each, the row data 28 bytes after the marker) */
        if (r->d->fv < TTC_FV_9_2) {
            guint32 bv;
            s = r->off; add_uint(tree, hf_rxh_iter, r, s, ttc_rd_u16le(r));
            s = r->off; add_uint(tree, hf_rxh_niters, r, s, ttc_rd_u16le(r));
            /* the bit vector's length u16 @16 (frame 161: a row header per
             * row, vectors 07 then 03 after the struct); 0 in frames 69, 159 */
            r->off = base + 16;
            bv = ttc_rd_u16le(r);
            skip_struct_rest(r, base, STRUCT_RXH_SIZE(r->d));
            if (bv > 0 && ttc_rd_ok(r))
                set_bitvec(r, st, bv, scope);
            return;
        } else {
            s = r->off; add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub4(r));
            s = r->off; add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub4(r));
        }
        skip_struct_rest(r, base, STRUCT_RXH_SIZE(r->d));
        return;
    }
    s = r->off; add_uint(tree, hf_rxh_flags, r, s, ttc_rd_u8(r));
    s = r->off; nreq = ttc_rd_ub2(r); add_uint(tree, hf_rxh_nreq, r, s, nreq);
    /* Iteration counts are 2-byte in OCI's native layout before 11.1. */
    if (r->d->native && r->d->fv < TTC_FV_10_2) {
        s = r->off; add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub2(r));
        s = r->off; add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub2(r));
    } else {
        s = r->off; add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub4(r));
        s = r->off; add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub4(r));
    }
    ttc_rd_ub2(r);                    /* buffer length */
    n = ttc_rd_ub4(r);                /* bit vector */
    if (ttc_rd_ok(r) && nreq <= MAX_COLUMNS) {
        /* Columns per row for a capture without the describe.  Without a
         * bit vector every column is sent and nreq counts them; with one,
         * nreq counts the columns sent (fewer), the bit vector has one bit
         * per column: keep the most seen while it fits the vector. */
        guint32 cols = nreq;
        if (n > 0 && n <= 512 && st->rxh_columns > nreq && st->rxh_columns <= n * 8)
            cols = st->rxh_columns;
        st->rxh_columns = (guint16)cols;
        st->rxh_bv_bytes = (guint16)(n <= 512 ? n : 0);
    }
    if (n > 0 && ttc_rd_ok(r)) {
        ttc_rd_u8(r);
        set_bitvec(r, st, n, scope);
    }
    ttc_rd_skip_bytes_with_length(r); /* rxhrid */
}

static void
decode_bit_vector(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, wmem_allocator_t *scope)
{
    gint s = r->off;
    guint32 sent = ttc_rd_ub2(r);

    add_uint(tree, hf_bvc_sent, r, s, sent);
    /* One bit per column of the describe; without it (a capture that starts
     * after the describe), per column of the row header. */
    if (st->describe)
        set_bitvec(r, st, (st->describe->ncols + 7) / 8, scope);
    else if (st->rxh_bv_bytes > 0)
        set_bitvec(r, st, st->rxh_bv_bytes, scope);
    else if (st->rxh_columns > 0)
        set_bitvec(r, st, (st->rxh_columns + 7) / 8, scope);
    else
        r->bad = TRUE;
}

/* ---- return parameters (RPA), by the call they answer ------------------- */

/* Key/value pairs: (text length, [text], binary length, [binary], keyword).
 * The lengths are ub2 for thin clients and 4-byte for OCI's native layout. */
static guint32
kv_len(ttc_rd_t *r)
{
    return r->d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);
}

static void
decode_kv_pairs(ttc_rd_t *r, guint32 n)
{
    guint32 i;
    if (n > MAX_KV_PAIRS) {
        r->bad = TRUE;
        return;
    }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        if (kv_len(r) > 0)
            ttc_rd_dalc(r, NULL);     /* text value */
        if (kv_len(r) > 0)
            ttc_rd_dalc(r, NULL);     /* binary value */
        ttc_rd_ub2(r);                /* keyword */
    }
}

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
    if (n > MAX_KV_PAIRS) { r->bad = TRUE; return; }
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

#define AQ_MSGID_LEN 16

static void
decode_rpa(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, wmem_allocator_t *scope)
{
    guint8 func = st->req ? st->req->func : 0;
    guint32 n, i;

    if (r->d->structs && r->d->fv < TTC_FV_9_2) {
        /* SQL*Plus 9.0's server (field version 1, visblank 9i session): an
         * OALL7's return parameters are al8o4 alone (frames 67, 83: "08 02 00"
         * and two ub4, then the OER); those of its older calls (OOPEN: the
         * cursor; function 84: three ub4) run up to the status message that
         * ends the reply (frames 57, 63: "... 09 01000000"). */
        if (func == TTC_FN_OALL7) {
            n = ttc_rd_ub2(r);
            if (n > MAX_LIST) { r->bad = TRUE; return; }
            for (i = 0; i < n && ttc_rd_ok(r); i++)
                ttc_rd_ub4(r);
            return;
        }
        if (func != TTC_FN_OALL8 && func != TTC_FN_VERSION && func != TTC_FN_AUTH_PHASE_ONE &&
            func != TTC_FN_AUTH_PHASE_TWO) {
            if (r->end - 5 >= r->off && tvb_get_uint8(r->tvb, r->end - 5) == TTC_MSG_STATUS)
                r->off = r->end - 5;
            else
                r->bad = TRUE;
            return;
        }
    }
    switch (func) {
    case TTC_FN_AUTH_PHASE_ONE:
    case TTC_FN_AUTH_PHASE_TWO:
        n = ttc_rd_ub2(r);
        if (n > MAX_KV_PAIRS) { r->bad = TRUE; return; }
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            gint s = r->off;
            char *key = ttc_rd_str_with_length(r, scope);
            if (tree && ttc_rd_ok(r) && key)
                proto_tree_add_string(tree, hf_rpa_key, r->tvb, SPAN(r, s), key);
            skip_str_with_length(r);  /* value: never shown (session keys, verifiers) */
            ttc_rd_ub4(r);
        }
        return;
    case TTC_FN_VERSION: {
        gint s, l;
        const char *banner;
        guint32 len = ttc_rd_ub2(r);
        if (ttc_rd_have(r, 1) && tvb_get_uint8(r->tvb, r->off) != len && len > 0 && len < 4096 &&
            ttc_rd_have(r, (gint)len)) {
            /* Older servers send the banner without a DALC length byte. */
            s = r->off;
            l = (gint)len;
            banner = (const char *)tvb_get_string_enc(scope, r->tvb, s, l, ENC_UTF_8);
            r->off += l;
        } else {
            banner = ttc_rd_dalc_str(r, scope, &s, &l);
        }
        if (tree && ttc_rd_ok(r) && banner)
            proto_tree_add_string(tree, hf_rpa_banner, r->tvb, s, l, banner);
        ttc_rd_ub4(r);
        return;
    }
    case TTC_FN_TXN_CHANGE_STATE:
        ttc_rd_ub4(r);                /* transaction state */
        return;
    case TTC_FN_LOB_OP: {
        /* The locators again (the server may update them), then what the
         * call's pointers asked for: charset ub2, amount (sb8; ub4 before
         * field version 3, go-ora), the NULL-LOB / boolean flag.  python-
         * oracledb reads that flag as ub1, go-ora as ub2: the same byte for
         * false; python's reading is taken. */
        const ttc_request_t *q = st->req;
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
        return;
    }
    /* The rest as python-oracledb's messages read them (_process_return_parameters). */
    case TTC_FN_TXN_SWITCH:           /* tpc_switch.pyx */
        ttc_rd_ub4(r);                /* application value */
        ttc_rd_skip(r, (gint)ttc_rd_ub2(r));   /* context */
        return;
    case TTC_FN_AQ_ENQ:               /* aq_enq.pyx */
        ttc_rd_skip(r, AQ_MSGID_LEN);
        ttc_rd_ub2(r);                /* extensions length */
        return;
    case TTC_FN_AQ_DEQ:               /* aq_deq.pyx */
        if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
            skip_aq_msg_props(r);
            skip_aq_recipients(r);
            skip_object_image(r);     /* payload: object, raw or JSON image */
            ttc_rd_skip(r, AQ_MSGID_LEN);
        }
        return;
    case TTC_FN_AQ_ARRAY: {           /* aq_array.pyx */
        guint32 iters = ttc_rd_ub4(r);
        if (iters > MAX_LIST) { r->bad = TRUE; return; }
        for (i = 0; i < iters && ttc_rd_ok(r); i++) {
            if (ttc_rd_ub2(r) > 0) {
                ttc_rd_u8(r);
                skip_aq_msg_props(r);
            }
            skip_aq_recipients(r);
            if (ttc_rd_ub2(r) > 0)
                skip_object_image(r);
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
        return;
    }
    case TTC_FN_DP_PREPARE: {         /* direct_path_prepare.pyx */
        guint32 ncols = ttc_rd_ub4(r);
        ttc_column_t col;
        if (ncols > MAX_COLUMNS) { r->bad = TRUE; return; }
        for (i = 0; i < ncols && ttc_rd_ok(r); i++)
            decode_column(r, NULL, &col, scope);
        if (ttc_rd_ub2(r) > 0)        /* parameters: none in any reply seen by the reference */
            r->bad = TRUE;
        n = ttc_rd_ub2(r);            /* out values */
        for (i = 0; i < n && ttc_rd_ok(r); i++)
            ttc_rd_ub4(r);
        return;
    }
    case TTC_FN_DP_LOAD_STREAM:       /* direct_path_load_stream.pyx */
    case TTC_FN_DP_OP:                /* direct_path_op.pyx */
        n = ttc_rd_ub2(r);            /* out values */
        for (i = 0; i < n && ttc_rd_ok(r); i++)
            ttc_rd_ub4(r);
        return;
    case TTC_FN_OALL8:
    case TTC_FN_FETCH:
    case TTC_FN_REEXECUTE:
    case TTC_FN_REEXECUTE_FETCH:
    case TTC_FN_OALL7:
        n = ttc_rd_ub2(r);            /* al8o4l */
        if (n > MAX_LIST) { r->bad = TRUE; return; }
        for (i = 0; i < n && ttc_rd_ok(r); i++)
            ttc_rd_ub4(r);
        n = ttc_rd_ub2(r);            /* al8txl */
        ttc_rd_skip(r, (gint)n);
        decode_kv_pairs(r, ttc_rd_ub2(r));
        if (r->d->fv >= TTC_FV_10_1) {
            n = r->d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);   /* registration */
            ttc_rd_skip(r, (gint)n);
        }
        /* DML row counts: asked for by execute flag 0x4000 and the al8pidmlrc
         * pointer, which the call carries from field version 7 on (see
         * decode_oall8).  JDBC sets the flag against an 11.2 server too and
         * gets no counts there.  One per execution of an array DML
         * (python-oracledb getarraydmlrowcounts). */
        if (st->req && (st->req->exec_flags & TTC_EXEC_FLAG_DML_ROWCOUNTS) && r->d->fv >= TTC_FV_12_1) {
            n = ttc_rd_ub4(r);        /* array DML row counts */
            if (n > MAX_LIST) { r->bad = TRUE; return; }
            for (i = 0; i < n && ttc_rd_ok(r); i++) {
                gint s = r->off;
                guint64 c = ttc_rd_ub8(r);
                if (tree && ttc_rd_ok(r))
                    proto_tree_add_uint64(tree, hf_rpa_dml_rowcount, r->tvb, SPAN(r, s), c);
            }
        }
        return;
    default:
        r->bad = TRUE;                /* layout depends on a call we do not decode */
        return;
    }
}

/* ---- server piggyback -------------------------------------------------- */

static void
decode_server_piggyback(ttc_rd_t *r, proto_tree *tree)
{
    gint s = r->off;
    guint8 op = ttc_rd_u8(r);
    guint32 n, i;

    add_uint(tree, hf_spb_opcode, r, s, op);
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
        if (n > MAX_KV_PAIRS) { r->bad = TRUE; return; }
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
        decode_kv_pairs(r, n);
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

/* ---- handshake replies ------------------------------------------------- */

static void
decode_protocol_reply(ttc_rd_t *r, proto_tree *tree, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint s = r->off, bs;
    guint8 ver;
    guint16 nelem, fdo_len;
    guint8 ccap_len, rcap_len;
    gint ccap_off;
    char *banner;
    gint i;

    ver = ttc_rd_u8(r);
    add_uint(tree, hf_pro_version, r, s, ver);
    ttc_rd_u8(r);
    bs = r->off;
    for (i = 0; ttc_rd_ok(r) && ttc_rd_u8(r) != 0; i++)
        if (i > 1024) { r->bad = TRUE; return; }
    if (!ttc_rd_ok(r))
        return;
    banner = (char *)tvb_get_string_enc(scope, r->tvb, bs, r->off - bs - 1, ENC_UTF_8);
    if (tree)
        proto_tree_add_string(tree, hf_pro_banner, r->tvb, bs, r->off - bs, banner);
    ttc_rd_u16le(r);                  /* charset */
    ttc_rd_u8(r);                     /* flags */
    nelem = ttc_rd_u16le(r);
    ttc_rd_skip(r, nelem * 5);
    fdo_len = ttc_rd_u16be(r);
    ttc_rd_skip(r, fdo_len);
    ccap_len = ttc_rd_u8(r);
    ccap_off = r->off;
    ttc_rd_skip(r, ccap_len);
    rcap_len = ttc_rd_u8(r);
    ttc_rd_skip(r, rcap_len);
    if (!ttc_rd_ok(r))
        return;
    if (ccap_len > TTC_CCAP_FIELD_VERSION) {
        guint8 fv = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_FIELD_VERSION);
        res->dialect_update = TRUE;
        res->dialect = *r->d;
        res->dialect.fv_server = fv;
        if (ccap_len > TTC_CCAP_TTC3)
            res->dialect.server_ccap37 = tvb_get_uint8(r->tvb, ccap_off + TTC_CCAP_TTC3);
        if (tree)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_field_version, r->tvb,
                                                         ccap_off + TTC_CCAP_FIELD_VERSION, 1, fv));
    }
    res->terminal = TRUE;
}

static void
decode_data_types_reply(ttc_rd_t *r, ttc_msg_result_t *res)
{
    gboolean wide = r->d->ub2_dty;
    guint32 n;

    /* [server time zone] then (type, conversion type[, representation, 0])
     * entries until a zero type; u16 or u8 values as the client's DTY chose. */
    ttc_rd_skip(r, r->d->dty_reply_prefix);
    /* Same-platform session: no table, the time zone is all (wsSC frame 22). */
    if (r->d->structs && ttc_rd_ok(r) && ttc_rd_left(r) == 0) {
        res->terminal = TRUE;
        return;
    }
    for (n = 0; n < 4096 && ttc_rd_ok(r); n++) {
        guint16 dty = wide ? ttc_rd_u16be(r) : ttc_rd_u8(r);
        if (!ttc_rd_ok(r) || dty == 0)
            break;
        if ((wide ? ttc_rd_u16be(r) : ttc_rd_u8(r)) != 0)
            ttc_rd_skip(r, wide ? 4 : 2);
    }
    if (n >= 4096)
        r->bad = TRUE;
    res->terminal = TRUE;
}

/* ---- I/O vector: bind directions of a PL/SQL execute ------------------- */

/* One direction byte per bind (python-oracledb _process_io_vector); the
 * binds that are not input only make the values of the row that follows.
 * Without the call's bind metadata (not in the capture, or not decoded) that
 * row cannot be walked and is reported as not decoded. */
static void
decode_io_vector_dirs(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, guint32 nbinds, wmem_allocator_t *scope)
{
    const ttc_describe_t *binds = st->req ? st->req->binds : NULL;
    ttc_describe_t *out = NULL;
    guint32 i;

    if (!ttc_rd_have(r, (gint)nbinds))
        return;
    if (binds && binds->ncols == nbinds) {
        out = wmem_new0(scope, ttc_describe_t);
        out->kind = TTC_ROWS_OUT_BINDS;
        out->cols = wmem_alloc0_array(scope, ttc_column_t, nbinds ? nbinds : 1);
    }
    for (i = 0; i < nbinds; i++) {
        gint s = r->off;
        guint8 dir = ttc_rd_u8(r);
        if (tree)
            proto_tree_add_uint_format(tree, hf_iov_dir, r->tvb, s, 1, dir, "Bind %u: %s", i + 1,
                                       val_to_str_const(dir, bind_dir_vals, "unknown direction"));
        if (out && dir != TTC_BIND_DIR_INPUT)
            out->cols[out->ncols++] = binds->cols[i];
    }
    st->describe = out;
    st->bitvec = NULL;
    st->bitvec_len = 0;
    st->rxh_columns = 0;
    st->rxh_bv_bytes = 0;
}

/* ---- dispatcher --------------------------------------------------------- */

void
ttc_decode_server(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                  ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint start = r->off;
    guint8 type = ttc_rd_u8(r);
    proto_item *mi = NULL;
    proto_tree *mt = NULL;

    if (!ttc_rd_ok(r))
        return;
    res->type = type;
    if (tree) {
        mi = proto_tree_add_uint(tree, hf_ttc_msg, r->tvb, start, 1, type);
        mt = proto_item_add_subtree(mi, ett_msg);
    }
    switch (type) {
    case TTC_MSG_PROTOCOL:
        decode_protocol_reply(r, mt, res, scope);
        break;
    case TTC_MSG_DATA_TYPES:
        if (st->dialect->known)
            decode_data_types_reply(r, res);
        else
            r->bad = TRUE;            /* the client's DTY (layout) was not seen */
        break;
    case TTC_MSG_ERROR:
        decode_oer(r, mt, pinfo, st, res, scope);
        break;
    case TTC_MSG_ROW_HEADER:
        decode_row_header(r, mt, st, scope);
        break;
    case TTC_MSG_ROW_DATA:
        decode_row(r, mt, st, res, scope);
        break;
    case TTC_MSG_PARAMETER:
        decode_rpa(r, mt, st, scope);
        break;
    case TTC_MSG_STATUS: {
        gint s = r->off;
        guint32 cs = ttc_rd_ub4(r);
        add_uint(mt, hf_sta_call_status, r, s, cs);
        if (r->d->call_status)
            ttc_rd_ub2(r);            /* end-to-end sequence (not in TTC 8.x) */
        res->call_status = cs;
        res->terminal = TRUE;
        break;
    }
    case TTC_MSG_WARNING: {
        gint s = r->off;
        guint32 err = ttc_rd_ub2(r), len;
        add_uint(mt, hf_wrn_error, r, s, err);
        len = ttc_rd_ub2(r);
        ttc_rd_ub2(r);
        if (err != 0 && len > 0) {
            gint ms, ml;
            const char *msg = ttc_rd_dalc_str(r, scope, &ms, &ml);
            if (mt && msg && ttc_rd_ok(r))
                proto_tree_add_string(mt, hf_wrn_msg, r->tvb, ms, ml, msg);
        }
        break;
    }
    case TTC_MSG_DESCRIBE_INFO: {
        const ttc_describe_t *desc;
        /* Opaque prefix: a DALC, or ub4 length + bytes (OCI native, fv >= 5). */
        ttc_rd_t before = *r;
        if (r->d->native && r->d->fv >= TTC_FV_10_2)
            ttc_rd_skip(r, (gint)ttc_rd_ub4(r));
        else
            ttc_rd_dalc(r, NULL);
        desc = decode_describe_body(r, mt, scope);
        if (r->bad && r->d->inferred) {
            /* Encoding inferred without a handshake: sb1 (precision,
             * scale) may be a universal integer (go-ora, JDBC) or a raw byte. */
            ttc_dialect_t *alt = wmem_new(scope, ttc_dialect_t);
            *alt = *r->d;
            alt->sb1_universal = !alt->sb1_universal;
            *r = before;
            r->d = alt;
            if (r->d->native && r->d->fv >= TTC_FV_10_2)
                ttc_rd_skip(r, (gint)ttc_rd_ub4(r));
            else
                ttc_rd_dalc(r, NULL);
            desc = decode_describe_body(r, mt, scope);
            if (ttc_rd_ok(r)) {
                res->dialect_update = TRUE;
                res->dialect = *alt;
            }
            r->d = before.d;
        }
        if (desc)
            st->describe = desc;
        break;
    }
    case TTC_MSG_BIT_VECTOR:
        decode_bit_vector(r, mt, st, scope);
        break;
    case TTC_MSG_SERVER_PIGGYBACK:
        decode_server_piggyback(r, mt);
        break;
    case TTC_MSG_END_OF_RESPONSE:
        res->eor = TRUE;
        break;
    case TTC_MSG_TOKEN: {
        gint s = r->off;
        guint64 tok = ttc_rd_ub8(r);
        if (mt && ttc_rd_ok(r))
            proto_tree_add_uint64(mt, hf_ttc_token, r->tvb, SPAN(r, s), tok);
        break;
    }
    case TTC_MSG_FLUSH_OUT_BINDS:
        res->terminal = TRUE;
        break;
    case TTC_MSG_IO_VECTOR: {
        guint32 nreq, niters, n, nbinds;
        gboolean short_counts = r->d->native && r->d->fv < TTC_FV_10_2;
        ttc_rd_u8(r);
        nreq = ttc_rd_ub2(r);
        niters = short_counts ? ttc_rd_ub2(r) : ttc_rd_ub4(r);
        if (short_counts) ttc_rd_ub2(r); else ttc_rd_ub4(r);   /* iterations this time */
        ttc_rd_ub2(r);
        n = kv_len(r);                /* bit vector (4-byte length natively) */
        ttc_rd_skip(r, (gint)n);
        n = kv_len(r);                /* rowid */
        ttc_rd_skip(r, (gint)n);
        nbinds = niters * 256 + nreq;
        if (nbinds > MAX_LIST) { r->bad = TRUE; break; }
        decode_io_vector_dirs(r, mt, st, nbinds, scope);
        break;
    }
    case TTC_MSG_LOB_DATA: {
        /* LOB data of a read (python-oracledb read_raw_bytes_and_length,
         * go-ora readData: GetClr) */
        gint first = r->off;
        guint32 n = ttc_rd_dalc(r, &first);
        if (mt && ttc_rd_ok(r))
            proto_item_set_generated(proto_tree_add_uint(mt, hf_lob_data_len, r->tvb, first, 0, n));
        break;
    }
    case TTC_MSG_IMPLICIT_RESULTSET: {
        /* python-oracledb _process_implicit_result: per result, opaque
         * bytes (u8 length), a describe, the cursor id ub2. */
        guint32 n = ttc_rd_ub4(r), i;
        if (n > MAX_COLUMNS) { r->bad = TRUE; break; }
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            const ttc_describe_t *d;
            guint32 id;
            ttc_rd_skip(r, ttc_rd_u8(r));
            d = decode_describe_body(r, mt, scope);
            id = ttc_rd_ub2(r);
            if (ttc_rd_ok(r))
                note_new_cursor(res, id, d);
        }
        break;
    }
    default:
        r->bad = TRUE;
        break;
    }
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

void
ttc_replies_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_lob_amount, { "LOB amount", "sqlnet.lob.amount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Characters or bytes a LOB operation read or wrote (or the LOB's length)", HFILL } },
        { &hf_lob_data_len, { "LOB data length", "sqlnet.lob.data_length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of LOB data in this message", HFILL } },
        { &hf_iov_dir, { "Bind direction", "sqlnet.iov.direction", FT_UINT8, BASE_HEX, VALS(bind_dir_vals), 0x0,
            "I/O vector: direction of each bind of a PL/SQL execute", HFILL } },
        { &hf_out_binds, { "Out-bind values", "sqlnet.out_binds", FT_NONE, BASE_NONE, NULL, 0x0,
            "Values of PL/SQL out binds or DML RETURNING binds", HFILL } },
        { &hf_oer_call_status, { "Call status", "sqlnet.oer.call_status", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_e2e_seq, { "End-to-end sequence", "sqlnet.oer.e2e_seq", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_cur_row, { "Current row number", "sqlnet.oer.cur_row", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_error16, { "Error number (16-bit)", "sqlnet.oer.error16", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_pos, { "Error position", "sqlnet.oer.position", FT_INT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_sql_type, { "SQL type", "sqlnet.oer.sql_type", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_call_num, { "Call number", "sqlnet.oer.call_num", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Sequence number of the call this status answers", HFILL } },
        { &hf_oer_success_iters, { "Successful iterations", "sqlnet.oer.success_iters", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rpa_dml_rowcount, { "DML row count", "sqlnet.rpa.dml_rowcount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Rows one execution of an array DML touched (the call asked for per-execution counts)", HFILL } },
        { &hf_oer_batch_error, { "Batch error", "sqlnet.oer.batch_error", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Oracle error of one row of an array DML run with batch errors (ORA-24381)", HFILL } },
        { &hf_oer_batch_offset, { "Batch error row", "sqlnet.oer.batch_offset", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Row offset (from 0) of the batch error at the same position", HFILL } },
        { &hf_oer_batch_msg, { "Batch error message", "sqlnet.oer.batch_message", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_oer_rowid, { "Rowid", "sqlnet.oer.rowid", FT_STRING, BASE_NONE, NULL, 0x0,
            "Last row the call touched (an INSERT's new row: python-oracledb's cursor.lastrowid)", HFILL } },
        { &hf_ora_error, { "Error number", "sqlnet.oer.error", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Oracle error number of the call (0 = success, 1403 = no more rows)", HFILL } },
        { &hf_ora_error_msg, { "Error message", "sqlnet.oer.message", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_rowcount, { "Row count", "sqlnet.oer.rowcount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Rows fetched so far on this cursor (rows affected for DML)", HFILL } },
        { &hf_rxh_flags, { "Row header flags", "sqlnet.rxh.flags", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_nreq, { "Columns sent", "sqlnet.rxh.requests", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_iter, { "Iteration", "sqlnet.rxh.iteration", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_niters, { "Rows requested", "sqlnet.rxh.iterations", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Number of iterations (rows) the call asked for", HFILL } },
        { &hf_row, { "Row", "sqlnet.row", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_bvc_sent, { "Columns sent in next row", "sqlnet.bvc.columns_sent", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_columns, { "Columns", "sqlnet.describe.columns", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_column, { "Column", "sqlnet.describe.column", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_column_type, { "Type", "sqlnet.describe.column.type", FT_UINT8, BASE_DEC, VALS(ttc_ora_type_vals), 0x0, NULL, HFILL } },
        { &hf_dcb_column_size, { "Buffer size", "sqlnet.describe.column.size", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_sta_call_status, { "Call status", "sqlnet.status.call_status", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_wrn_error, { "Warning", "sqlnet.warning", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_wrn_msg, { "Warning message", "sqlnet.warning.msg", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_spb_opcode, { "Server piggyback", "sqlnet.server_piggyback", FT_UINT8, BASE_DEC, VALS(spb_vals), 0x0, NULL, HFILL } },
        { &hf_pro_version, { "Protocol version", "sqlnet.pro.version", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_pro_banner, { "Platform", "sqlnet.pro.platform", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_field_version, { "TTC field version", "sqlnet.ttc.field_version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Compile-time capability 7 (6 = 11.2, 7 = 12.1, 12 = 19c, 24 = 23.4)", HFILL } },
        { &hf_rpa_key, { "Returned key", "sqlnet.auth.reply_key", FT_STRING, BASE_NONE, NULL, 0x0,
            "Authentication key name (values are never shown)", HFILL } },
        { &hf_rpa_banner, { "Server version banner", "sqlnet.banner", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
    };
    static gint *ett[] = { &ett_msg, &ett_column };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
