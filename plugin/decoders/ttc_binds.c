/* ttc_binds.c - the values of an execute's binds (the row data after the
 * bind metadata of an OALL8), shown as text: one sqlnet.bind.value per bind.
 *
 * How the clients write them: python-oracledb messages/base.pyx
 * _write_bind_params_row / _write_bind_params_column and packet.pyx
 * (write_oracle_number, write_oracle_date, write_binary_double ...),
 * node-oracledb lib/thin/protocol/messages/withData.js writeBindParamsRow /
 * writeBindParamsColumn and lib/impl/datahandlers/buffer.js.  Per row: the
 * row data message (7), then per bind that is not a return bind:
 *   NULL                  one byte 0 (BOOLEAN: 0xfd 0x01)
 *   VARCHAR2, CHAR, LONG,
 *   RAW, LONG RAW, ROWID  bytes with length (DALC; past 252 bytes the long
 *                         form in chunks); NCHAR forms in UTF-16BE
 *   NUMBER                DALC of the Oracle NUMBER bytes
 *   DATE, TIMESTAMP*      DALC of 7, 11 or 13 bytes
 *   BINARY_FLOAT/DOUBLE   DALC of 4 / 8 bytes (sign bit flipped, negative
 *                         values complemented)
 *   INTERVAL YM / DS      DALC of 5 / 11 bytes
 *   BOOLEAN               DALC whose last byte is the value
 *   CLOB, BLOB, BFILE     ub4 locator length, then the locator (DALC)
 *   REF CURSOR            ub4 1, ub4 cursor id
 *   array binds           ub4 element count, then the elements
 * The binds larger than the longest string (not PL/SQL) are written after
 * the others (foundLong / found_long).  Objects, JSON and VECTOR values are
 * not walked: the item says so and the rest of the row is left as call data.
 *
 * The encodings as text are ttc_values.c's, shared with row values.
 *
 * Every read goes through the TTC reader on a copy (bounded by the packet);
 * a value that does not fit is reported as such, nothing throws.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"
#include "ttc_binds.h"
#include "ttc_values.h"

static int hf_bind_value = -1;
static int hf_bind_values_hidden = -1;
static int hf_bind_not_decoded = -1;

#define ORA_BOOLEAN      252
#define ESCAPE_CHAR     0xfd

#define MAX_VALUE_BYTES  1024   /* bytes of a string or RAW value shown */
G_STATIC_ASSERT(MAX_VALUE_BYTES > G_MAXUINT8);
#define MAX_VALUE_ITEMS 10000   /* values shown per call */
#define LONG_BIND_SIZE  32767   /* python/node max_string_size (extended) */

/* ---- walking the values ---- */

typedef struct {
    proto_tree *tree;
    wmem_allocator_t *scope;
    guint shown;
    gboolean multi_row;
} walk_t;

/* One value of bind `c` at r.  Returns FALSE when the walk cannot go on
 * (a type not walked, or the bytes end). */
static gboolean
show_value(ttc_rd_t *r, walk_t *w, const ttc_column_t *c, guint32 bindno, guint32 rowno,
           gint32 element)
{
    gint s = r->off;
    const char *type = val_to_str_const(c->type, ttc_ora_type_vals, "type");
    char label[48];
    const char *value = NULL;      /* field value */
    const char *shown = NULL;      /* item text, when it differs */
    guint got = 0;
    guint32 total = 0;
    gboolean isnull = FALSE;
    guint8 *b;

    if (w->multi_row && element >= 0)
        snprintf(label, sizeof(label), "Row %u, bind %u[%d]", rowno, bindno, element);
    else if (w->multi_row)
        snprintf(label, sizeof(label), "Row %u, bind %u", rowno, bindno);
    else if (element >= 0)
        snprintf(label, sizeof(label), "Bind %u[%d]", bindno, element);
    else
        snprintf(label, sizeof(label), "Bind %u", bindno);

    switch (c->type) {
    case ORA_CLOB: case ORA_BLOB: case ORA_BFILE: {
        guint32 loclen = ttc_rd_ub4(r);
        if (ttc_rd_ok(r) && loclen == 0) {
            value = "NULL";
            break;
        }
        ttc_rd_dalc(r, NULL);
        if (ttc_rd_ok(r)) {
            value = wmem_strdup_printf(w->scope, "%s locator (%u bytes)", type, loclen);
            shown = value;
        }
        break;
    }
    case ORA_CURSOR: {
        guint32 one, id;
        /* a cursor not yet opened: bytes 1, 0 (node writeUInt8(1), writeUInt8(0)); else
         * ub4 1, ub4 cursor id */
        if (ttc_rd_have(r, 2) && tvb_get_uint8(r->tvb, r->off) == 1 && tvb_get_uint8(r->tvb, r->off + 1) == 0) {
            r->off += 2;
            one = 1;
            id = 0;
        } else {
            one = ttc_rd_ub4(r);
            id = ttc_rd_ub4(r);
        }
        if (ttc_rd_ok(r)) {
            value = (one == 0 || id == 0) ? wmem_strdup(w->scope, "REF CURSOR (new)")
                                          : wmem_strdup_printf(w->scope, "REF CURSOR (cursor %u)", id);
            shown = value;
        }
        break;
    }
    case ORA_BOOLEAN:
        if (ttc_rd_have(r, 2) && tvb_get_uint8(r->tvb, r->off) == ESCAPE_CHAR) {
            r->off += 2;
            value = "NULL";
            break;
        }
        /* fall through */
    default:
        if (c->type == ORA_OBJECT || c->type == ORA_JSON || c->type == ORA_VECTOR) {
            proto_tree_add_none_format(w->tree, hf_bind_not_decoded, r->tvb, s, 0,
                                       "%s value: %s not decoded (later values of the row not walked)",
                                       label, type);
            return FALSE;
        }
        b = ttc_read_value_bytes(r, MAX_VALUE_BYTES, &got, &total, &isnull, w->scope);
        if (!ttc_rd_ok(r))
            break;
        if (isnull) {
            value = "NULL";
            break;
        }
        ttc_value_format(c->type, c->csfrm, b, got, total, w->scope, &value, &shown);
        break;
    }
    if (!ttc_rd_ok(r)) {
        gboolean cut = tvb_reported_length(r->tvb) > tvb_captured_length(r->tvb);
        proto_tree_add_none_format(w->tree, hf_bind_not_decoded, r->tvb, s, r->end > s ? r->end - s : 0,
                                   "%s value: %s, %s (not decoded)", label, type,
                                   r->bad ? "malformed" : cut ? "cut by the capture"
                                                              : "continues in the next TNS packet");
        return FALSE;
    }
    if (!value) {
        proto_tree_add_none_format(w->tree, hf_bind_not_decoded, r->tvb, s, r->off - s, "%s value: %s", label,
                                   shown);
        w->shown++;
        return w->shown < MAX_VALUE_ITEMS;
    }
    proto_tree_add_string_format(w->tree, hf_bind_value, r->tvb, s, r->off - s, value,
                                 "%s value: %s", label, shown ? shown : value);
    w->shown++;
    return w->shown < MAX_VALUE_ITEMS;
}

static gboolean
show_bind(ttc_rd_t *r, walk_t *w, const ttc_column_t *c, guint32 bindno, guint32 rowno)
{
    if (c->bind_flags & TTC_BIND_FLAG_ARRAY) {
        guint32 n = ttc_rd_ub4(r), i;
        if (!ttc_rd_ok(r) || n > 65535)
            return FALSE;
        for (i = 0; i < n; i++)
            if (!show_value(r, w, c, bindno, rowno, (gint32)i + 1))
                return FALSE;
        return TRUE;
    }
    return show_value(r, w, c, bindno, rowno, -1);
}

void
ttc_show_bind_values(const ttc_rd_t *at, proto_tree *tree, const ttc_describe_t *binds,
                     guint32 returning, gboolean plsql, guint32 executions, wmem_allocator_t *scope)
{
    ttc_rd_t r = *at;
    walk_t w;
    guint32 nvalues, rowno, i;
    proto_item *ti;

    if (!tree || !binds || binds->ncols == 0 || returning > binds->ncols)
        return;
    /* The display pass decodes the call up to its metadata; the values run
     * to the end of the packet's data (the call data). */
    if (r.end < (gint)tvb_captured_length(r.tvb))
        r.end = (gint)tvb_captured_length(r.tvb);
    nvalues = binds->ncols - returning;       /* return binds have no value */
    if (nvalues == 0 || !ttc_rd_have(&r, 1) || tvb_get_uint8(r.tvb, r.off) != TTC_MSG_ROW_DATA)
        return;
    if (!sqlnet_prefs()->show_bind_values) {
        ti = proto_tree_add_item(tree, hf_bind_values_hidden, r.tvb, r.off, 0, ENC_NA);
        proto_item_append_text(ti, " (preference sqlnet.show_bind_values is off)");
        return;
    }
    memset(&w, 0, sizeof(w));
    w.tree = tree;
    w.scope = scope;
    w.multi_row = executions > 1;          /* array DML: one row per execution */
    for (rowno = 1; rowno <= 100000 && ttc_rd_have(&r, 1) && tvb_get_uint8(r.tvb, r.off) == TTC_MSG_ROW_DATA; rowno++) {
        gboolean go = TRUE;
        r.off++;
        if (rowno == 2)
            w.multi_row = TRUE;            /* (more rows than executions said) */
        for (i = 0; i < nvalues && go; i++) {
            const ttc_column_t *c = &binds->cols[i];
            if (!plsql && c->buffer_size > LONG_BIND_SIZE && !(c->bind_flags & TTC_BIND_FLAG_ARRAY))
                continue;
            go = show_bind(&r, &w, c, i + 1, rowno);
        }
        for (i = 0; i < nvalues && go; i++) {
            const ttc_column_t *c = &binds->cols[i];
            if (!plsql && c->buffer_size > LONG_BIND_SIZE && !(c->bind_flags & TTC_BIND_FLAG_ARRAY))
                go = show_bind(&r, &w, c, i + 1, rowno);
        }
        if (!go) {
            if (w.shown >= MAX_VALUE_ITEMS)
                proto_tree_add_none_format(tree, hf_bind_not_decoded, r.tvb, r.off, 0,
                                           "Bind values: only the first %u shown", MAX_VALUE_ITEMS);
            return;
        }
        /* JDBC writes the return binds too, as NULLs */
        for (i = 0; i < returning && ttc_rd_have(&r, 1) && tvb_get_uint8(r.tvb, r.off) == 0; i++)
            r.off++;
    }
}

void
ttc_binds_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_bind_value, { "Bind value", "sqlnet.bind.value", FT_STRING, BASE_NONE, NULL, 0x0,
            "Value of a bind of the call as text (NUMBER as decimal, DATE/TIMESTAMP as "
            "YYYY-MM-DD HH:MM:SS[.f], RAW as hex, NULL as NULL)", HFILL } },
        { &hf_bind_not_decoded, { "Bind value not decoded", "sqlnet.bind.not_decoded", FT_NONE, BASE_NONE, NULL, 0x0,
            "A bind value that is cut by the capture, continues in the next TNS packet, or is of a type "
            "or form not decoded (the item says which)", HFILL } },
        { &hf_bind_values_hidden, { "Bind values hidden", "sqlnet.bind.values_hidden", FT_NONE, BASE_NONE, NULL, 0x0,
            "The bind values of the call are not shown (preference sqlnet.show_bind_values)", HFILL } },
    };
    proto_register_field_array(proto, hf, array_length(hf));
}
