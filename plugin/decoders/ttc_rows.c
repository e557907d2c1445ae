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
#include "ttc_values.h"
#include "coltext.h"

static int hf_rxh_flags = -1;
static int hf_rxh_nreq = -1;
static int hf_rxh_iter = -1;
static int hf_rxh_niters = -1;
static int hf_row = -1;
static int hf_bvc_sent = -1;
static int hf_out_binds = -1;
static int hf_row_object = -1;
static int hf_row_object_image_len = -1;
static int hf_row_value = -1;
static int hf_row_column = -1;
static int hf_row_column_number = -1;
static int hf_row_type = -1;
static int hf_row_repeated = -1;

static gint ett_row_object = -1;
static gint ett_row = -1;
static gint ett_row_value = -1;

/* A column value's text in the field: at most this many bytes of a long
 * value are read (the item text says the full length). */
#define ROW_VALUE_CAP   65536
/* ... and at most this many characters of it in the item text */
#define ROW_TEXT_SHOWN  100

/* A LOB column the client did not define with the LOB prefetch flag (no
 * define: JDBC with LOB prefetch off, go-ora's LOB FETCH=POST) comes as the
 * bare locator: its length, then the locator (go-ora decodePrimValue reads
 * two CLRs; ojdbc refuses the sized form there).  Without the flag the
 * byte after the length tells: the locator's own length byte repeats it
 * (a locator is longer than 8 bytes), where the sized form has the size's
 * length byte (at most 8). */
static gboolean
lob_is_bare(const ttc_rd_t *r, const ttc_column_t *col, guint32 n)
{
    guint8 next;

    if (col->lob_prefetch != 0 || n <= 8 || r->off >= r->end)
        return FALSE;
    next = tvb_get_uint8(r->tvb, r->off);
    return next == n || (n >= 0xFE && next == 0xFE);
}

/* A LOB value in a row: locator length ub4 (0: NULL), then (not for a
 * BFILE, nor a bare locator: above) the size sb8 and chunk size ub4, then
 * with JDBC's LOB prefetch a flag byte (1: a charset ub2 follows), the form
 * of use and the prefetched data, then the locator (python-oracledb
 * read_lob_with_length; JDBC T4CClobAccessor.unmarshalBytes /
 * unmarshalPrefetchData).  With `want`, its text: the prefetched data when
 * there is some, else the locator's length and the LOB's size (characters
 * of a CLOB, bytes of a BLOB; a bare locator has none). */
static const char *
lob_value(ttc_rd_t *r, const ttc_column_t *col, gboolean want, wmem_allocator_t *scope)
{
    const char *tname = val_to_str_const(col->type, ttc_ora_type_vals, "LOB");
    guint32 n = ttc_rd_ub4(r);
    guint64 size = 0;
    const char *data = NULL;
    gboolean bare;

    if (!ttc_rd_ok(r) || n == 0)
        return "NULL";
    bare = lob_is_bare(r, col, n);
    if (col->type != ORA_BFILE && !bare) {
        size = ttc_rd_ub8(r);         /* size */
        ttc_rd_ub4(r);                /* chunk size */
        if (col->lob_prefetch == 2) {
            guint8 form;
            if (ttc_rd_u8(r) == 1)
                ttc_rd_ub2(r);        /* charset of the prefetched data */
            form = ttc_rd_u8(r);      /* form of use */
            if (want && ttc_rd_ok(r)) {
                guint got;
                guint32 total;
                gboolean isnull;
                const char *shown;
                guint8 *b = ttc_read_value_bytes(r, ROW_VALUE_CAP, &got, &total, &isnull, scope);
                if (b && !isnull)
                    ttc_value_format(col->type == ORA_BLOB ? ORA_LONG_RAW : ORA_VARCHAR, form, b, got, total,
                                     scope, &data, &shown);
            } else {
                ttc_rd_dalc(r, NULL); /* prefetched data */
            }
        }
    }
    ttc_rd_dalc(r, NULL);             /* locator */
    if (!want || !ttc_rd_ok(r))
        return NULL;
    if (data)
        return data;
    if (col->type == ORA_BFILE || bare)
        return wmem_strdup_printf(scope, "%s locator (%u bytes)", tname, n);
    return wmem_strdup_printf(scope, "%s locator (%u bytes), size %" PRIu64, tname, n, size);
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
static guint32
show_object(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col)
{
    gint s = r->off;
    guint32 len = ttc_skip_object_image(r);
    proto_item *pi;

    if (!tree || !ttc_rd_ok(r))
        return len;
    pi = proto_tree_add_string(tree, hf_row_object, r->tvb, SPAN(r, s),
                               col->type_name ? col->type_name : "(type not described)");
    proto_item_append_text(pi, ", image %u bytes", len);
    pi = proto_tree_add_uint(proto_item_add_subtree(pi, ett_row_object), hf_row_object_image_len,
                             r->tvb, s, 0, len);
    proto_item_set_generated(pi);
    return len;
}

/* A REF cursor value (column or out bind): a length byte, the cursor's
 * describe as in a describe message (max row size first, no leading
 * bytes), its cursor id ub2.  python-oracledb _process_column_data
 * ORA_TYPE_NUM_CURSOR, go-ora v2/ref_cursor.go load(). */
static guint32
skip_cursor_value(ttc_rd_t *r, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    const ttc_describe_t *nested;
    guint32 id;

    ttc_rd_u8(r);
    nested = ttc_describe_body(r, NULL, scope);
    id = ttc_rd_ub2(r);
    if (ttc_rd_ok(r) && res)
        ttc_note_new_cursor(res, id, nested);
    return id;
}

/* One column value of a row (python-oracledb _process_column_data with
 * in_fetch true, node-oracledb processColumnData): the bytes consumed; with
 * `want` (or a value too long to keep as bytes) its text in *value and the
 * item's text in *shown when it differs.  res NULL: a value decoded again
 * from the bytes kept for a repeated column (no cursor noted, no items). */
static void
column_value(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col, ttc_msg_result_t *res,
             wmem_allocator_t *scope, gboolean want, const char **value, const char **shown)
{
    guint8 n;

    *value = NULL;
    *shown = NULL;
    if (col->buffer_size == 0 && col->type != ORA_LONG && col->type != ORA_LONG_RAW &&
        col->type != ORA_UROWID) {
        *value = "NULL";              /* NULL by describe: nothing on the wire */
        return;
    }
    switch (col->type) {
    case ORA_ROWID: {
        char text[19];
        n = ttc_rd_u8(r);
        if (n == 0 || n == 0xFF) {
            *value = "NULL";
            break;
        }
        ttc_rd_rowid(r, text);
        if (want && ttc_rd_ok(r))
            *value = text[0] ? wmem_strdup(scope, text) : "NULL";
        break;
    }
    case ORA_CLOB:
    case ORA_BLOB:
    case ORA_BFILE:
        *value = lob_value(r, col, want, scope);
        break;
    case ORA_JSON:
    case ORA_VECTOR: {
        guint32 len = 0;
        if (ttc_rd_ub4(r) > 0 && ttc_rd_ok(r)) {
            ttc_rd_ub8(r);
            ttc_rd_ub4(r);
            len = ttc_rd_dalc(r, NULL);
            ttc_rd_dalc(r, NULL);
            if (want)
                *value = wmem_strdup_printf(scope, "%s value (%u bytes, not decoded)",
                                            val_to_str_const(col->type, ttc_ora_type_vals, "type"), len);
        } else {
            *value = "NULL";
        }
        break;
    }
    case ORA_CURSOR: {
        guint32 id = skip_cursor_value(r, res, scope);
        if (want)
            *value = wmem_strdup_printf(scope, "REF CURSOR (cursor %u)", id);
        break;
    }
    case ORA_OBJECT: {
        guint32 len = show_object(r, res ? tree : NULL, col);
        if (want)
            *value = len == 0 ? "NULL"
                              : wmem_strdup_printf(scope, "%s object (image %u bytes, not unpickled)",
                                                   col->type_name ? col->type_name : "(type not described)", len);
        break;
    }
    case ORA_UROWID: {
        /* two values: the first NULL for a NULL rowid, else the second is
         * the rowid's bytes (node-oracledb readURowID) */
        guint got;
        guint32 total;
        gboolean isnull;
        ttc_read_value_bytes(r, 0, &got, &total, &isnull, scope);
        if (isnull || !ttc_rd_ok(r)) {
            *value = "NULL";
            break;
        }
        if (want) {
            guint8 *b = ttc_read_value_bytes(r, ROW_VALUE_CAP, &got, &total, &isnull, scope);
            if (b && !isnull)
                ttc_value_format(col->type, col->csfrm, b, got, total, scope, value, shown);
            else
                *value = "NULL";
        } else {
            ttc_rd_dalc(r, NULL);
        }
        break;
    }
    default:
        if (want) {
            guint got;
            guint32 total;
            gboolean isnull;
            guint8 *b = ttc_read_value_bytes(r, ROW_VALUE_CAP, &got, &total, &isnull, scope);
            if (isnull)
                *value = "NULL";
            else if (b)
                ttc_value_format(col->type, col->csfrm, b, got, total, scope, value, shown);
        } else {
            ttc_rd_skip_dalc(r);
        }
        if (col->type == ORA_LONG || col->type == ORA_LONG_RAW) {
            ttc_rd_sb4(r);            /* null indicator */
            ttc_rd_ub4(r);            /* return code */
        }
        break;
    }
}

/* Is a column's value one DALC and nothing else (column_value()'s default
 * case, not LONG)?  The row walk then skips it without column_value(). */
static inline gboolean
plain_value(const ttc_column_t *col)
{
    switch (col->type) {
    case ORA_ROWID:
    case ORA_CLOB:
    case ORA_BLOB:
    case ORA_BFILE:
    case ORA_JSON:
    case ORA_VECTOR:
    case ORA_CURSOR:
    case ORA_OBJECT:
    case ORA_UROWID:
    case ORA_LONG:
    case ORA_LONG_RAW:
        return FALSE;
    default:
        return col->buffer_size != 0;
    }
}

static void
skip_column_value(ttc_rd_t *r, proto_tree *tree, const ttc_column_t *col, ttc_msg_result_t *res,
                  wmem_allocator_t *scope)
{
    const char *value, *shown;

    column_value(r, tree, col, res, scope, FALSE, &value, &shown);
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
        lob_value(r, col, FALSE, scope);
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

/* The columns' types, for telling whether kept values belong to this
 * describe (the same table re-fetched keeps them; another one does not),
 * and whether every column is a plain value: worked out once per describe
 * (its walk_* cache, ttc_columns.h), not for every row. */
static void
describe_facts(const ttc_describe_t *desc, guint32 *sig, gboolean *plain)
{
    if (!desc->walk_known) {
        ttc_describe_t *m = (ttc_describe_t *)desc;   /* the cache, nothing else */
        guint32 h = desc->ncols, i;
        gboolean all = TRUE;

        for (i = 0; i < desc->ncols; i++) {
            h = h * 31u + desc->cols[i].type * 7u + desc->cols[i].csfrm;
            all = all && plain_value(&desc->cols[i]);
        }
        m->walk_sig = h;
        m->walk_plain = all ? 1 : 0;
        m->walk_known = 1;
    }
    *sig = desc->walk_sig;
    *plain = desc->walk_plain != 0;
}

/* A value decoded in a row, shown once the row is known to decode. */
typedef struct {
    gint off, len;
    const char *value, *shown;
    gboolean repeated;
} row_item_t;

/* The text of a kept (repeated) value: its bytes decoded again. */
static void
kept_text(ttc_rd_t *r, const ttc_kept_value_t *k, const ttc_column_t *col, wmem_allocator_t *scope,
          const char **value, const char **shown)
{
    ttc_rd_t kr;
    tvbuff_t *t;

    *value = ttc_kept_text(k);
    *shown = NULL;
    if (!ttc_kept_raw(k))
        return;
    t = tvb_new_child_real_data(r->tvb, ttc_kept_raw(k), k->len, (gint)k->len);
    ttc_rd_init(&kr, t, 0, (gint)k->len, r->d);
    column_value(&kr, NULL, col, NULL, scope, TRUE, value, shown);
    if (!ttc_rd_ok(&kr))
        *value = NULL;
}

static void
add_row_items(ttc_rd_t *r, proto_item *row, const ttc_describe_t *desc, const row_item_t *it,
              wmem_allocator_t *scope)
{
    proto_tree *rt = proto_item_add_subtree(row, ett_row);
    guint32 i;

    for (i = 0; i < desc->ncols; i++) {
        const ttc_column_t *col = &desc->cols[i];
        const char *name = col->name ? col->name : wmem_strdup_printf(scope, "column %u", i + 1);
        const char *value = it[i].value, *shown = it[i].shown;
        proto_item *pi;
        proto_tree *vt;

        if (!value) {
            value = "";
            if (!shown)
                shown = it[i].repeated ? "(repeated: the previous row is not in the capture)" : "(not decoded)";
        } else if (!shown && strlen(value) > ROW_TEXT_SHOWN && g_utf8_validate(value, -1, NULL)) {
            const char *cut = g_utf8_offset_to_pointer(value, ROW_TEXT_SHOWN);
            if (*cut)
                shown = wmem_strdup_printf(scope, "%.*s... (%zu bytes)", (int)(cut - value), value,
                                           strlen(value));
        } else if (shown && strlen(shown) > ROW_TEXT_SHOWN + 40 && g_utf8_validate(shown, -1, NULL)) {
            const char *cut = g_utf8_offset_to_pointer(shown, ROW_TEXT_SHOWN);
            shown = wmem_strdup_printf(scope, "%.*s... (%zu bytes)", (int)(cut - shown), shown,
                                       strlen(value));
        }
        /* the label joined without printf's parsing: the same text as
         * "%s: %s%s" of the three (Wireshark cuts it alike) */
        pi = proto_tree_add_string_format(rt, hf_row_value, r->tvb, it[i].off, it[i].len, value, "%s",
                                          wmem_strconcat(scope, name, ": ", shown ? shown : value,
                                                         it[i].repeated ? " (repeated)" : "", NULL));
        vt = proto_item_add_subtree(pi, ett_row_value);
        proto_item_set_generated(proto_tree_add_string(vt, hf_row_column, r->tvb, it[i].off, 0, name));
        proto_item_set_generated(proto_tree_add_uint(vt, hf_row_column_number, r->tvb, it[i].off, 0, i + 1));
        proto_item_set_generated(proto_tree_add_uint(vt, hf_row_type, r->tvb, it[i].off, 0, col->type));
        if (it[i].repeated) {
            proto_item_set_generated(pi);
            proto_item_set_generated(proto_tree_add_boolean(vt, hf_row_repeated, r->tvb, it[i].off, 0, TRUE));
        }
    }
}

/* Whether a row's value items are wanted: a tree that is shown (-V, the
 * GUI's details) or one of their fields in a filter, column or script.  A
 * tree built only to match other fields (tshark's plain pass whenever a Lua
 * script has a Field extractor) would fake every value item after its text
 * was formatted: the formatting was most of a fetch's cost there. */
static header_field_info *row_item_fields[5];   /* set once at registration */

static gboolean
row_items_wanted(proto_tree *tree)
{
    guint i;

    /* proto_field_is_referenced's test, without a call per field per row:
     * a shown tree, or a field the tree was primed with (its ref_type) */
    if (PTREE_DATA(tree)->visible)
        return TRUE;
    for (i = 0; i < G_N_ELEMENTS(row_item_fields); i++)
        if (row_item_fields[i]->ref_type != HF_REF_TYPE_NONE)
            return TRUE;
    return FALSE;
}

/* The kept values (the ones short enough to keep as bytes) point into the
 * row's bytes in place: the message's tvb lives until the end of the
 * packet, and the stream copies the latest row into file scope before that
 * (state_keep(), also before a joined message's bytes are freed). */
static void
keep_row_bytes(const ttc_rd_t *r, gint s, ttc_row_values_t *now, const guint32 *kept_at)
{
    const guint8 *row = tvb_get_ptr(r->tvb, s, r->off - s);
    guint32 i;

    for (i = 0; i < now->ncols; i++) {
        if (kept_at[i] != 0)
            ttc_kept_set_raw(&now->v[i], row + kept_at[i] - 1);
    }
}

/* The row walk of the common row, in the bytes themselves: every column a
 * plain value (one DALC: the caller checks, describe_facts()), each in the
 * short form (a length byte, then that many bytes), nothing shown, not
 * OCI's same-platform structs.  It reads the row from one pointer to its
 * captured bytes instead of a tvb call per byte: the first pass walks every
 * row of every fetch (bench/: most of a small array size's cost).  FALSE,
 * with nothing moved or kept, when the row is not such a row or does not
 * end in the captured bytes: the general walk below then reads it (and
 * reports what it finds).  Otherwise r->off is
 * past the row, *sent the columns sent, and `now` (when kept) holds every
 * value's bytes in place or the previous row's for a repeated column. */
/* The bytes a short-form value takes, its length byte b included: NULL (0
 * or 0xFF) is the length byte alone. */
static inline guint32
short_value_size(guint8 b)
{
    return (b == 0 || b == 0xFF) ? 1u : 1u + b;
}

static gboolean
walk_plain_row(ttc_rd_t *r, const ttc_state_t *st, const ttc_describe_t *desc,
               const ttc_row_values_t *prev, ttc_row_values_t *now, guint32 *sent)
{
    const guint8 *p;
    guint32 i, o = 0, n, k = 0;
    gint avail;

    if (r->d->structs || !ttc_rd_ok(r) || r->off > r->end)
        return FALSE;
    if (r->base && r->off >= r->base_off && r->off < r->base_end) {
        /* the messages' bytes already in view (ttc_rd_init_view) */
        n = (guint32)(MIN(r->base_end, r->end) - r->off);
        p = r->base + (r->off - r->base_off);
    } else {
        avail = tvb_captured_length_remaining(r->tvb, r->off);
        if (avail <= 0)
            return FALSE;
        n = (guint32)MIN(avail, r->end - r->off);
        p = tvb_get_ptr(r->tvb, r->off, (gint)n);
    }
    if (!now && !st->bitvec) {
        /* the rows of a run (walk_row_run): every column sent, nothing
         * kept, the lengths alone */
        for (i = 0; i < desc->ncols; i++) {
            guint32 b;
            if (o >= n || (b = p[o]) == 0xFE)
                return FALSE;          /* past the captured bytes, or the long form */
            o += short_value_size((guint8)b);
            if (o > n)
                return FALSE;
        }
        r->off += (gint)o;
        *sent = desc->ncols;
        return TRUE;
    }
    for (i = 0; i < desc->ncols; i++) {
        guint32 len;
        if (st->bitvec && (i / 8) < st->bitvec_len && !(st->bitvec[i / 8] & (1 << (i % 8)))) {
            if (now && prev)
                now->v[i] = prev->v[i];    /* same value as the previous row */
            continue;
        }
        if (o >= n || p[o] == 0xFE)
            break;                     /* past the captured bytes, or the long form */
        len = short_value_size(p[o]);
        if (len > n - o)
            break;
        if (now) {
            ttc_kept_set_raw(&now->v[i], p + o);   /* at most 254 bytes: always kept as bytes */
            now->v[i].len = len;
        }
        o += len;
        k++;
    }
    if (i < desc->ncols) {
        if (now)
            memset(now->v, 0, desc->ncols * sizeof(ttc_kept_value_t));
        return FALSE;
    }
    r->off += (gint)o;
    *sent = k;
    return TRUE;
}

/* A row record like `like` (its columns and their hash), values unset. */
static ttc_row_values_t *
row_record_like(const ttc_row_values_t *like, wmem_allocator_t *scope)
{
    ttc_row_values_t *v = (ttc_row_values_t *)wmem_alloc0(scope, sizeof(ttc_row_values_t) +
                                                               MAX(like->ncols, 1u) * sizeof(ttc_kept_value_t));
    v->ncols = like->ncols;
    v->sig = like->sig;
    v->v = (ttc_kept_value_t *)(v + 1);
    return v;
}

/* First pass (r->runs): the messages right after a row walked by
 * walk_plain_row() that are such rows too, each alone or after its bit
 * vector message (JDBC sends one before every row that repeats a column),
 * taken here in one loop: res->more_rows counts the rows, more_bvc_bytes
 * the bit vector messages' bytes.  `cur` is the first row's record; the
 * values of the latest row taken end in st->last_row (a row after a bit
 * vector reads the one before it: two records take turns; a row without
 * one is walked again for its values only when a later row needs them or
 * the run ends).  A message that is neither, a vector without its row, or
 * a row that is not such a row or does not end in the captured bytes is
 * left to the next message's decoding. */
static void
walk_row_run(ttc_rd_t *r, ttc_state_t *st, const ttc_describe_t *desc, ttc_row_values_t *cur,
             ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_row_values_t *alt = NULL, *swap;
    gint pending = -1;                /* a row taken without its values: where it starts */
    guint32 sent, nbytes = (desc->ncols + 7) / 8;
    gboolean walked;
    ttc_rd_t t;

    for (;;) {
        gint at = r->off, bv_at = -1;
        gint type = ttc_rd_byte_in_view(r, at);

        t = *r;
        if (type == TTC_MSG_BIT_VECTOR) {
            t.off++;
            ttc_rd_ub2(&t);           /* columns sent */
            /* the vector and the row message's type byte, in view */
            if (!ttc_rd_ok(&t) || nbytes > 512 || t.off > t.end - (gint)nbytes - 1 ||
                ttc_rd_byte_in_view(&t, t.off + (gint)nbytes) != TTC_MSG_ROW_DATA)
                break;
            bv_at = t.off;
            t.off += (gint)nbytes;
        } else if (type != TTC_MSG_ROW_DATA) {
            break;
        }
        t.off++;                      /* the row message's type */
        if (bv_at < 0) {
            if (!walk_plain_row(&t, st, desc, NULL, NULL, &sent))
                break;
            pending = at + 1;
        } else {
            if (!alt)
                alt = row_record_like(cur, scope);
            if (pending >= 0) {
                ttc_rd_t m = *r;
                m.off = pending;
                if (!walk_plain_row(&m, st, desc, NULL, alt, &sent))
                    break;
                swap = cur; cur = alt; alt = swap;
                pending = -1;
            }
            st->bitvec = r->base + (bv_at - r->base_off);
            st->bitvec_len = (guint16)nbytes;
            walked = walk_plain_row(&t, st, desc, cur, alt, &sent);
            st->bitvec = NULL;        /* a vector serves its row only */
            st->bitvec_len = 0;
            if (!walked)
                break;
            swap = cur; cur = alt; alt = swap;
            res->more_bvc_bytes += (guint32)(bv_at - at + (gint)nbytes);
        }
        r->off = t.off;
        res->more_rows++;
    }
    if (pending >= 0) {
        t = *r;
        t.off = pending;
        if (!alt)
            alt = row_record_like(cur, scope);
        if (walk_plain_row(&t, st, desc, NULL, alt, &sent))
            cur = alt;
    }
    st->last_row = cur;
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
    guint32 i, ncols, walk, sent = 0, sig = 0;
    gint s = r->off;
    gboolean show = tree && desc && sqlnet_prefs()->show_bind_values && row_items_wanted(tree);
    const ttc_row_values_t *prev = NULL;
    ttc_row_values_t *now = NULL;
    guint32 *kept_at = NULL;          /* 1 + a kept value's offset in the row, 0: none */
    gboolean kept = FALSE, all_plain = FALSE, fast;
    row_item_t *items = NULL;

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
    /* This row's values, kept for the columns the next row repeats: on the
     * first pass (no tree: the state moves on to later packets), and on a
     * display pass whose values are shown (a repeated column's text); a
     * display pass that shows none (a hidden tree) never reads them. */
    if (desc)
        describe_facts(desc, &sig, &all_plain);
    if (desc && (!tree || show)) {
        if (st->last_row && st->last_row->sig == sig && st->last_row->ncols == ncols)
            prev = st->last_row;
        /* one allocation: the row, its values, where each value's bytes start */
        now = (ttc_row_values_t *)wmem_alloc0(scope, sizeof(ttc_row_values_t) +
                                                     MAX(ncols, 1u) * (sizeof(ttc_kept_value_t) + sizeof(guint32)));
        now->ncols = ncols;
        now->sig = sig;
        now->v = (ttc_kept_value_t *)(now + 1);
        kept_at = (guint32 *)(now->v + MAX(ncols, 1u));
        if (show)
            items = wmem_alloc0_array(scope, row_item_t, MAX(ncols, 1u));
    }
    fast = desc && all_plain && !items && walk_plain_row(r, st, desc, prev, now, &sent);
    i = fast ? walk : 0;              /* walked: nothing left for the loop below */
    for (; i < walk && ttc_rd_ok(r); i++) {
        gint cs = r->off;
        const char *value = NULL, *shown = NULL;
        if (st->bitvec && (i / 8) < st->bitvec_len && !(st->bitvec[i / 8] & (1 << (i % 8)))) {
            /* same value as the previous row */
            if (now && prev)
                now->v[i] = prev->v[i];
            if (items) {
                items[i].off = cs;
                items[i].repeated = TRUE;
                if (prev)
                    kept_text(r, &prev->v[i], &desc->cols[i], scope, &items[i].value, &items[i].shown);
            }
            continue;
        }
        if (desc && !items && plain_value(&desc->cols[i]))
            ttc_rd_skip_dalc(r);
        else if (desc)
            column_value(r, tree, &desc->cols[i], res, scope, items != NULL, &value, &shown);
        else
            skip_column_value(r, tree, &plain, res, scope);
        if (now && ttc_rd_ok(r)) {
            guint32 len = (guint32)(r->off - cs);
            if (len <= 2 * TTC_ROW_KEEP_BYTES) {
                /* its bytes are copied with the row's, below */
                now->v[i].len = len;
                if (len > 0) {
                    kept_at[i] = (guint32)(cs - s) + 1;
                    kept = TRUE;
                }
            } else {
                /* too long to keep as bytes: its text, cut */
                ttc_rd_t again;
                const char *v2 = value, *s2;
                if (!v2) {
                    ttc_rd_init(&again, r->tvb, cs, r->off, r->d);
                    column_value(&again, NULL, &desc->cols[i], NULL, scope, TRUE, &v2, &s2);
                }
                if (v2) {
                    now->v[i].len = (guint32)strlen(v2);
                    ttc_kept_set_text(&now->v[i], now->v[i].len > TTC_ROW_KEEP_BYTES
                        ? wmem_strdup_printf(scope, "%.*s... (%u bytes)", TTC_ROW_KEEP_BYTES, v2, now->v[i].len)
                        : v2);
                }
            }
        }
        if (items) {
            items[i].off = cs;
            items[i].len = r->off - cs;
            items[i].value = value;
            items[i].shown = shown;
        }
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
    if (kept)
        keep_row_bytes(r, s, now, kept_at);
    if (tree) {
        proto_item *pi = proto_tree_add_item(tree, hf_row, r->tvb, SPAN(r, s), ENC_NA);
        sqlnet_coltext_t t;           /* ": %u of %u columns" without printf's parsing */
        coltext_init(&t);
        coltext_str(&t, ": ");
        coltext_uint(&t, sent);
        coltext_str(&t, " of ");
        coltext_uint(&t, MAX(ncols, sent));
        coltext_str(&t, " columns");
        proto_item_append_text(pi, "%s", t.buf);
        if (items)
            add_row_items(r, pi, desc, items, scope);
        else if (desc && !sqlnet_prefs()->show_bind_values)
            proto_item_append_text(pi, " (values hidden: preference sqlnet.show_bind_values is off)");
    }
    if (now)
        st->last_row = now;
    st->bitvec = NULL;
    st->bitvec_len = 0;
    res->row = TRUE;
    if (fast && r->runs && !tree && now)
        walk_row_run(r, st, desc, now, res, scope);
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
        { &hf_row_value, { "Value", "sqlnet.row.value", FT_STRING, BASE_NONE, NULL, 0x0,
            "A column value of the row as text, typed by the describe (NUMBER as decimal, DATE/TIMESTAMP as "
            "YYYY-MM-DD HH:MM:SS[.f], RAW as hex, NULL as NULL); a column the bit vector says is repeated "
            "shows the previous row's value (generated, sqlnet.row.repeated). Hidden with "
            "sqlnet.show_bind_values off", HFILL } },
        { &hf_row_column, { "Column", "sqlnet.row.column", FT_STRING, BASE_NONE, NULL, 0x0,
            "Name of the value's column (from the describe)", HFILL } },
        { &hf_row_column_number, { "Column number", "sqlnet.row.column_number", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Position of the value's column in the describe (from 1)", HFILL } },
        { &hf_row_type, { "Type", "sqlnet.row.type", FT_UINT8, BASE_DEC, VALS(ttc_ora_type_vals), 0x0,
            "Oracle type of the value's column (from the describe)", HFILL } },
        { &hf_row_repeated, { "Repeated", "sqlnet.row.repeated", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
            "The value was not sent: the bit vector says it repeats the previous row's", HFILL } },
    };
    static gint *ett[] = { &ett_row_object, &ett_row, &ett_row_value };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    row_item_fields[0] = proto_registrar_get_nth((guint)hf_row_value);
    row_item_fields[1] = proto_registrar_get_nth((guint)hf_row_column);
    row_item_fields[2] = proto_registrar_get_nth((guint)hf_row_column_number);
    row_item_fields[3] = proto_registrar_get_nth((guint)hf_row_type);
    row_item_fields[4] = proto_registrar_get_nth((guint)hf_row_repeated);
}
