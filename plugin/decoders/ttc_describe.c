/* ttc_describe.c - describe information: the describe message (16) and
 * its columns, the describe nested in a REF cursor value or an implicit
 * result set (27), and the cursors such replies open.
 *
 * python-oracledb messages/base.pyx _process_describe_info and
 * _process_metadata, go-ora v2/parameter.go ParameterInfo.load (11g gates),
 * node-oracledb messages/base.js processDescribeInfo.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_dcb_columns = -1;
static int hf_dcb_column = -1;
static int hf_dcb_column_type = -1;
static int hf_dcb_column_size = -1;
static int hf_dcb_column_type_name = -1;

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

/* Column metadata; fills col. */
void
ttc_describe_column(ttc_rd_t *r, proto_tree *tree, ttc_column_t *col, wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    gint s = r->off, base, tn_off, tn_len;
    guint32 n, i;
    const char *schema, *type_name;
    proto_item *ci = NULL;
    proto_tree *ct = NULL;

    /* Same-platform column: a marker 01, then the server's in-memory column
     * struct with natural alignment; from "nulls allowed" on the fields are
     * as in the native layout.
     * 4-byte pointers, 32 bytes (wsSC frame 78, compared with the OCI 10.1
     * column of junkie/select.pcap frame 24):
     *   10.1:   39 | 01 80 00 00 1e000000 00000000 00000000 00000000 0000     69 03 01    1e000000 01 04 ...
     *   struct: 39 | 01 | 01 80 00 00 1e000000 00000000 00000000 00000000 00000000 23 00 01 00 1e000000 01 04 ...
     * type @0, buffer size @4, charset @24, csfrm @26, a pad byte, max
     * size @28.
     * 8-byte pointers, 40 bytes (jkstill19c frame 31, 19c server at field
     * version 7, five columns):
     *   01 | 01 80 00 00 80000000 00000000 00000000 0000000000000000 00000000 6903 01 00 80000000 fe3f0000 | 01 08 ...
     * type @0, buffer size @4, 16 zero bytes (cont flags, the OID pointer,
     * version), charset @28, csfrm @30, max size @32, and @36 a ub4 the
     * 32-bit struct lacks (3ffe on the VARCHAR2 columns, 0 on the NUMBERs).
     * The name (ub4 length + DALC) follows the struct unaligned. */
    col->type_name = NULL;
    if (d->structs) {
        gint cs_at = d->ptr_width == 8 ? 28 : 24;
        ttc_rd_u8(r);                 /* struct marker */
        s = base = r->off;
        col->type = ttc_rd_u8(r);
        ttc_rd_skip(r, 3);            /* flags, precision, scale */
        col->buffer_size = ttc_rd_ub4(r);
        ttc_rd_struct_rest(r, base, cs_at);
        ttc_rd_ub2(r);                /* charset id */
        col->csfrm = ttc_rd_u8(r);
        ttc_rd_struct_rest(r, base, STRUCT_COL_SIZE(d));
    } else {
        col->type = ttc_rd_u8(r);
        ttc_rd_u8(r);                 /* flags */
        ttc_rd_sb1(r);                /* precision */
        ttc_rd_sb1(r);                /* scale */
        col->buffer_size = ttc_rd_ub4(r);
        ttc_rd_ub4(r);                /* max array elements */
        if (d->fv >= TTC_FV_12_1)
            ttc_rd_ub8(r);            /* cont flags */
        else
            ttc_rd_ub4(r);            /* cont flags: a ub4 before 12.1 (11g OCI) */
        ttc_rd_skip_bytes_with_length(r); /* OID */
        ttc_rd_ub2(r);                /* version */
        ttc_rd_ub2(r);                /* charset id */
        col->csfrm = ttc_rd_u8(r);
        ttc_rd_ub4(r);                /* max size */
        if (d->fv >= TTC_FV_12_2)
            ttc_rd_ub4(r);            /* oaccolid */
    }
    ttc_rd_u8(r);                     /* nulls allowed */
    ttc_rd_u8(r);                     /* v7 name length */
    col->name = ttc_rd_str_with_length(r, scope);
    /* Schema and type name: an object column's type (python-oracledb
     * _process_metadata: schema, name; go-ora ParameterInfo.load matches its
     * registered types by the name). */
    schema = ttc_rd_str_with_length(r, scope);
    tn_off = r->off;
    type_name = ttc_rd_str_with_length(r, scope);
    tn_len = r->off - tn_off;
    if (type_name && ttc_rd_ok(r))
        col->type_name = schema ? wmem_strdup_printf(scope, "%s.%s", schema, type_name) : type_name;
    if (d->fv >= TTC_FV_9_2)          /* go-ora ParameterInfo.load: from field version 3 */
        ttc_rd_ub2(r);                /* column position */
    if (d->fv >= TTC_FV_11_2)
        ttc_rd_ub4(r);                /* UDS flags (absent in 11.1 and older) */
    if (d->fv >= TTC_FV_23_1) {
        ttc_rd_skip_bytes_with_length(r);      /* domain schema */
        ttc_rd_skip_bytes_with_length(r);      /* domain name */
    }
    if (d->fv >= TTC_FV_23_1_EXT_3) {
        n = ttc_rd_ub4(r);            /* annotations */
        if (n > 0 && ttc_rd_ok(r)) {
            ttc_rd_u8(r);
            n = ttc_rd_ub4(r);
            ttc_rd_u8(r);
            if (n > TTC_MAX_KV_PAIRS) { r->bad = TRUE; return; }
            for (i = 0; i < n && ttc_rd_ok(r); i++) {
                ttc_rd_skip_bytes_with_length(r);
                ttc_rd_skip_bytes_with_length(r);
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
        if (col->type_name)
            proto_tree_add_string(ct, hf_dcb_column_type_name, r->tvb, tn_off, tn_len, col->type_name);
    }
}

/* Describe body (after the leading DALC in message 16, or nested in a
 * REF CURSOR column). Returns the new describe. */
const ttc_describe_t *
ttc_describe_body(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope)
{
    ttc_describe_t *desc;
    guint32 ncols, i;
    gint s;

    ttc_rd_ub4(r);                    /* max row size */
    s = r->off;
    ncols = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r))
        return NULL;
    if (ncols > TTC_MAX_COLUMNS) {
        r->bad = TRUE;
        return NULL;
    }
    ttc_add_uint(tree, hf_dcb_columns, r, s, ncols);
    if (ncols > 0)
        ttc_rd_u8(r);
    desc = wmem_new0(scope, ttc_describe_t);
    desc->ncols = ncols;
    desc->cols = wmem_alloc0_array(scope, ttc_column_t, ncols ? ncols : 1);
    for (i = 0; i < ncols && ttc_rd_ok(r); i++) {
        ttc_describe_column(r, tree, &desc->cols[i], scope);
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

/* A cursor the reply opens: its describe and id (REF cursor values,
 * implicit results), for the fetches that follow on it. */
void
ttc_note_new_cursor(ttc_msg_result_t *res, guint32 id, const ttc_describe_t *desc)
{
    if (!res || !desc || id == 0 || res->ncursors >= TTC_MAX_NEW_CURSORS)
        return;
    res->cursors[res->ncursors].id = id;
    res->cursors[res->ncursors].describe = desc;
    res->ncursors++;
}

/* Describe information (message 16): opaque leading bytes, then the
 * describe body; its columns lay out the rows that follow. */
void
ttc_msg_describe(ttc_rd_t *r, proto_tree *mt, ttc_state_t *st, ttc_msg_result_t *res,
                 wmem_allocator_t *scope)
{
    const ttc_describe_t *desc;
    /* Opaque prefix: a DALC, or ub4 length + bytes (OCI native, fv >= 5). */
    ttc_rd_t before = *r;
    if (r->d->native && r->d->fv >= TTC_FV_10_2)
        ttc_rd_skip(r, (gint)ttc_rd_ub4(r));
    else
        ttc_rd_dalc(r, NULL);
    desc = ttc_describe_body(r, mt, scope);
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
        desc = ttc_describe_body(r, mt, scope);
        if (ttc_rd_ok(r)) {
            res->dialect_update = TRUE;
            res->dialect = *alt;
        }
        r->d = before.d;
    }
    if (desc)
        st->describe = desc;
}

/* Implicit result sets (message 27, DBMS_SQL.RETURN_RESULT). */
void
ttc_msg_implicit_results(ttc_rd_t *r, proto_tree *mt, ttc_state_t *st _U_, ttc_msg_result_t *res,
                         wmem_allocator_t *scope)
{
    /* python-oracledb _process_implicit_result: per result, opaque
     * bytes (u8 length), a describe, the cursor id ub2. */
    guint32 n = ttc_rd_ub4(r), i;
    if (n > TTC_MAX_COLUMNS) { r->bad = TRUE; return; }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        const ttc_describe_t *d;
        guint32 id;
        ttc_rd_skip(r, ttc_rd_u8(r));
        d = ttc_describe_body(r, mt, scope);
        id = ttc_rd_ub2(r);
        if (ttc_rd_ok(r))
            ttc_note_new_cursor(res, id, d);
    }
}

void
ttc_describe_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_dcb_columns, { "Columns", "sqlnet.describe.columns", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_column, { "Column", "sqlnet.describe.column", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_column_type, { "Type", "sqlnet.describe.column.type", FT_UINT8, BASE_DEC, VALS(ttc_ora_type_vals), 0x0, NULL, HFILL } },
        { &hf_dcb_column_size, { "Buffer size", "sqlnet.describe.column.size", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_dcb_column_type_name, { "Type name", "sqlnet.describe.column.type_name", FT_STRING, BASE_NONE, NULL, 0x0,
            "An object column's type (schema.name)", HFILL } },
    };
    static gint *ett[] = { &ett_column };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
