/* ttc_rows.c - rows: the row header (6), row data (7) and bit vector
 * (21) messages, and the values inside rows and out-bind rows (LOBs,
 * objects, REF cursors, LONG).
 *
 * python-oracledb messages/base.pyx _process_row_header, _process_row_data,
 * _process_column_data, _process_bit_vector; go-ora v2/command.go and
 * v2/parameter.go (11g gates); JDBC T4CTTIrxh and the T4C*Accessor classes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_rxh_flags = -1;
static int hf_rxh_nreq = -1;
static int hf_rxh_iter = -1;
static int hf_rxh_niters = -1;
static int hf_row = -1;
static int hf_bvc_sent = -1;
static int hf_out_binds = -1;
static int hf_row_object = -1;
static int hf_row_object_image_len = -1;

static gint ett_row_object = -1;

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
guint32
ttc_skip_object_image(ttc_rd_t *r)
{
    guint32 n;

    ttc_rd_skip_bytes_with_length(r);   /* toid */
    ttc_rd_skip_bytes_with_length(r);   /* oid */
    ttc_rd_skip_bytes_with_length(r);   /* snapshot */
    ttc_rd_ub2(r);                      /* version */
    n = ttc_rd_ub4(r);                  /* image length */
    ttc_rd_ub2(r);                      /* flags */
    if (n > 0 && ttc_rd_ok(r))
        return ttc_rd_dalc(r, NULL);
    return 0;
}

/* An object value in a row or an out bind, shown as its type's name (from
 * the describe) and the length of its pickled image; the attributes are not
 * unpickled. */
static void
show_object(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col)
{
    gint s = r->off;
    guint32 len = ttc_skip_object_image(r);
    proto_item *pi;

    if (!tree || !ttc_rd_ok(r))
        return;
    pi = proto_tree_add_string(tree, hf_row_object, r->tvb, SPAN(r, s),
                               col->type_name ? col->type_name : "(type not described)");
    proto_item_append_text(pi, ", image %u bytes", len);
    pi = proto_tree_add_uint(proto_item_add_subtree(pi, ett_row_object), hf_row_object_image_len,
                             r->tvb, s, 0, len);
    proto_item_set_generated(pi);
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
    nested = ttc_describe_body(r, NULL, scope);
    id = ttc_rd_ub2(r);
    if (ttc_rd_ok(r))
        ttc_note_new_cursor(res, id, nested);
}

static void
skip_column_value(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col, ttc_msg_result_t *res,
                  wmem_allocator_t *scope)
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
        show_object(r, tree, col);
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
skip_out_value(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col, ttc_msg_result_t *res,
               wmem_allocator_t *scope)
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
        show_object(r, tree, col);
        break;
    case ORA_JSON:
    case ORA_VECTOR: {
        ttc_column_t c = *col;
        c.buffer_size = 1;
        skip_column_value(r, tree, &c, res, scope);
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
            if (n > TTC_MAX_LIST) {
                r->bad = TRUE;
                return;
            }
            for (j = 0; j < n && ttc_rd_ok(r); j++)
                skip_out_value(r, tree, col, res, scope);
            values += n;
        } else {
            skip_out_value(r, tree, col, res, scope);
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

void
ttc_msg_row_data(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res,
                 wmem_allocator_t *scope)
{
    /* The describe is not in the capture (it came before it started): walk
     * the row as the row header's column count of plain values.  One shared
     * column, not an array per row: a hostile row header asks for 65535. */
    static const ttc_column_t plain = { ORA_VARCHAR, 0, 0, 0, 1, NULL, NULL };
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
        skip_column_value(r, tree, desc ? &desc->cols[i] : &plain, res, scope);
        /* SQL*Plus 9.0's server answers an OALL8 with every value followed
         * by 4 zero bytes (indicator and return code as 2-byte natives, by
         * their size; visblank 9i session frames 159 and 161), its OFETCH
         * after an OALL7 without them (frame 69). */
        if (r->d->structs && r->d->fv < TTC_FV_9_2 && st->req && st->req->call.func == TTC_FN_OALL8)
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

void
ttc_msg_row_header(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res _U_,
                   wmem_allocator_t *scope)
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
        s = r->off; ttc_add_uint(tree, hf_rxh_flags, r, s, ttc_rd_u8(r));
        ttc_rd_struct_align(r, base, 2);
        s = r->off; nreq = ttc_rd_ub2(r); ttc_add_uint(tree, hf_rxh_nreq, r, s, nreq);
        if (ttc_rd_ok(r) && nreq <= TTC_MAX_COLUMNS)
            st->rxh_columns = (guint16)nreq;
        /* SQL*Plus 9.0's server (field version 1): 2-byte iteration counts,
         * a 28-byte struct (visblank 9i session frames 69, 159: columns 1
         * and 3, one row each, the row data 28 bytes after the marker) */
        if (r->d->fv < TTC_FV_9_2) {
            guint32 bv;
            s = r->off; ttc_add_uint(tree, hf_rxh_iter, r, s, ttc_rd_u16le(r));
            s = r->off; ttc_add_uint(tree, hf_rxh_niters, r, s, ttc_rd_u16le(r));
            /* the bit vector's length u16 @16 (frame 161: a row header per
             * row, vectors 07 then 03 after the struct); 0 in frames 69, 159 */
            r->off = base + 16;
            bv = ttc_rd_u16le(r);
            ttc_rd_struct_rest(r, base, STRUCT_RXH_SIZE(r->d));
            if (bv > 0 && ttc_rd_ok(r))
                set_bitvec(r, st, bv, scope);
            return;
        } else {
            s = r->off; ttc_add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub4(r));
            s = r->off; ttc_add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub4(r));
        }
        ttc_rd_struct_rest(r, base, STRUCT_RXH_SIZE(r->d));
        return;
    }
    s = r->off; ttc_add_uint(tree, hf_rxh_flags, r, s, ttc_rd_u8(r));
    s = r->off; nreq = ttc_rd_ub2(r); ttc_add_uint(tree, hf_rxh_nreq, r, s, nreq);
    /* Iteration counts are 2-byte in OCI's native layout before 11.1. */
    if (r->d->native && r->d->fv < TTC_FV_10_2) {
        s = r->off; ttc_add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub2(r));
        s = r->off; ttc_add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub2(r));
    } else {
        s = r->off; ttc_add_uint(tree, hf_rxh_iter, r, s, ttc_rd_ub4(r));
        s = r->off; ttc_add_uint(tree, hf_rxh_niters, r, s, ttc_rd_ub4(r));
    }
    ttc_rd_ub2(r);                    /* buffer length */
    n = ttc_rd_ub4(r);                /* bit vector */
    if (ttc_rd_ok(r) && nreq <= TTC_MAX_COLUMNS) {
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

void
ttc_msg_bit_vector(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res _U_,
                   wmem_allocator_t *scope)
{
    gint s = r->off;
    guint32 sent = ttc_rd_ub2(r);

    ttc_add_uint(tree, hf_bvc_sent, r, s, sent);
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

void
ttc_rows_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_rxh_flags, { "Row header flags", "sqlnet.rxh.flags", FT_UINT8, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_nreq, { "Columns sent", "sqlnet.rxh.requests", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_iter, { "Iteration", "sqlnet.rxh.iteration", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_rxh_niters, { "Rows requested", "sqlnet.rxh.iterations", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Number of iterations (rows) the call asked for", HFILL } },
        { &hf_row, { "Row", "sqlnet.row", FT_NONE, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_bvc_sent, { "Columns sent in next row", "sqlnet.bvc.columns_sent", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_out_binds, { "Out-bind values", "sqlnet.out_binds", FT_NONE, BASE_NONE, NULL, 0x0,
            "Values of PL/SQL out binds or DML RETURNING binds", HFILL } },
        { &hf_row_object, { "Object", "sqlnet.row.object", FT_STRING, BASE_NONE, NULL, 0x0,
            "An object value (its type's name from the describe); the image is not unpickled", HFILL } },
        { &hf_row_object_image_len, { "Image length", "sqlnet.row.object.image_length", FT_UINT32, BASE_DEC,
            NULL, 0x0, "Length of the object's pickled image (0: NULL object)", HFILL } },
    };
    static gint *ett[] = { &ett_row_object };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
