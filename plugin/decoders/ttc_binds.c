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
 * Every read goes through the TTC reader on a copy (bounded by the packet);
 * a value that does not fit is reported as such, nothing throws.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"
#include "ttc_binds.h"

static int hf_bind_value = -1;
static int hf_bind_values_hidden = -1;
static int hf_bind_not_decoded = -1;

#define ORA_BINARY_INTEGER 3
#define ORA_DATE          12
#define ORA_RAW           23
#define ORA_CHAR          96
#define ORA_BINARY_FLOAT 100
#define ORA_BINARY_DOUBLE 101
#define ORA_TIMESTAMP    180
#define ORA_TIMESTAMP_TZ 181
#define ORA_INTERVAL_YM  182
#define ORA_INTERVAL_DS  183
#define ORA_TIMESTAMP_LTZ 231
#define ORA_BOOLEAN      252
#define CSFRM_NCHAR        2
#define ESCAPE_CHAR     0xfd

#define MAX_VALUE_BYTES  1024   /* bytes of a string or RAW value shown */
G_STATIC_ASSERT(MAX_VALUE_BYTES > G_MAXUINT8);
#define MAX_VALUE_ITEMS 10000   /* values shown per call */
#define LONG_BIND_SIZE  32767   /* python/node max_string_size (extended) */

/* ---- formatting of the fixed encodings (pure, on a few copied bytes) ---- */

/* Oracle NUMBER: exponent byte (bit 7 = positive; base-100 exponent + 65,
 * complemented for negative numbers), then base-100 digits (digit + 1;
 * negative: 101 - digit, with a 102 terminator when shorter than 21 digits).
 * Returns FALSE for bytes that are not a NUMBER. */
gboolean
ttc_format_number(const guint8 *b, guint n, char *out, gsize outlen)
{
    char digits[64];
    GString *s;
    gboolean neg;
    gint exp, pos, nd = 0, i, first, last;
    guint k;

    if (n == 0 || n > 22 || outlen < 2)
        return FALSE;
    if (n == 1 && b[0] == 0x80) {
        g_strlcpy(out, "0", outlen);
        return TRUE;
    }
    if (n == 1 && b[0] == 0x00) {
        g_strlcpy(out, "-Infinity", outlen);
        return TRUE;
    }
    if (n == 2 && b[0] == 0xff && b[1] == 0x65) {
        g_strlcpy(out, "Infinity", outlen);
        return TRUE;
    }
    neg = !(b[0] & 0x80);
    exp = neg ? (gint)((~b[0]) & 0x7f) - 65 : (gint)(b[0] & 0x7f) - 65;
    if (neg && n > 1 && b[n - 1] == 102)
        n--;
    if (n < 2 || n > 21)
        return FALSE;
    for (k = 1; k < n; k++) {
        gint d = neg ? 101 - (gint)b[k] : (gint)b[k] - 1;
        if (d < 0 || d > 99)
            return FALSE;
        digits[nd++] = (char)('0' + d / 10);
        digits[nd++] = (char)('0' + d % 10);
    }
    /* the decimal point falls after the first exp + 1 digit pairs */
    pos = 2 * (exp + 1);
    s = g_string_new(neg ? "-" : "");
    if (pos <= 0) {
        g_string_append(s, "0.");
        for (i = 0; i < -pos; i++)
            g_string_append_c(s, '0');
        g_string_append_len(s, digits, nd);
    } else if (pos >= nd) {
        g_string_append_len(s, digits, nd);
        for (i = nd; i < pos; i++)
            g_string_append_c(s, '0');
    } else {
        g_string_append_len(s, digits, pos);
        g_string_append_c(s, '.');
        g_string_append_len(s, digits + pos, nd - pos);
    }
    /* leading zeros of the integer part, trailing zeros of the fraction */
    first = neg ? 1 : 0;
    while (s->str[first] == '0' && s->str[first + 1] != '.' && s->str[first + 1] != '\0')
        g_string_erase(s, first, 1);
    if (strchr(s->str, '.')) {
        last = (gint)s->len - 1;
        while (last > 0 && s->str[last] == '0')
            last--;
        if (s->str[last] == '.')
            last--;
        g_string_truncate(s, (gsize)last + 1);
    }
    if (s->len >= outlen) {
        g_string_free(s, TRUE);
        return FALSE;
    }
    g_strlcpy(out, s->str, outlen);
    g_string_free(s, TRUE);
    return TRUE;
}

/* DATE (7 bytes: century + 100, year of century + 100, month, day, hour + 1,
 * minute + 1, second + 1), TIMESTAMP (11: + nanoseconds, big-endian) and
 * TIMESTAMP WITH TIME ZONE (13: + hour + 20, minute + 60; the time in UTC). */
gboolean
ttc_format_date(const guint8 *b, guint n, char *out, gsize outlen)
{
    gint year;
    gsize len;

    if (n != 7 && n != 11 && n != 13)
        return FALSE;
    if (b[0] < 100 || b[1] < 100 || b[2] < 1 || b[2] > 12 || b[3] < 1 || b[3] > 31 ||
        b[4] < 1 || b[4] > 24 || b[5] < 1 || b[5] > 60 || b[6] < 1 || b[6] > 60)
        return FALSE;
    year = (b[0] - 100) * 100 + (b[1] - 100);
    len = (gsize)snprintf(out, outlen, "%04d-%02u-%02u %02u:%02u:%02u", year, b[2], b[3],
                            b[4] - 1u, b[5] - 1u, b[6] - 1u);
    if (n >= 11 && len < outlen) {
        guint32 ns = ((guint32)b[7] << 24) | ((guint32)b[8] << 16) | ((guint32)b[9] << 8) | b[10];
        if (ns > 999999999u)
            return FALSE;
        if (ns) {
            char frac[16];
            gint e;
            snprintf(frac, sizeof(frac), ".%09u", ns);
            for (e = 9; e > 1 && frac[e] == '0'; e--)
                frac[e] = '\0';
            g_strlcat(out, frac, outlen);
        }
    }
    if (n == 13) {
        char tz[48];
        if (b[11] & 0x80)
            snprintf(tz, sizeof(tz), " UTC (time zone region %u)", ((b[11] & 0x7fu) << 6) | (b[12] >> 2));
        else
            snprintf(tz, sizeof(tz), " UTC (offset %+03d:%02d)", (gint)b[11] - 20, abs((gint)b[12] - 60));
        g_strlcat(out, tz, outlen);
    }
    return TRUE;
}

/* Shortest text that reads back as the same value (as Python's repr). */
static void
format_double(double v, gboolean single, char *out, gsize outlen)
{
    gint prec;

    if (isnan(v)) {
        g_strlcpy(out, "NaN", outlen);
        return;
    }
    if (isinf(v)) {
        g_strlcpy(out, v > 0 ? "Infinity" : "-Infinity", outlen);
        return;
    }
    for (prec = 1; prec <= 17; prec++) {
        char fmt[8];
        snprintf(fmt, sizeof(fmt), "%%.%dg", prec);
        g_ascii_formatd(out, (gint)outlen, fmt, v);
        if (single ? (float)g_ascii_strtod(out, NULL) == (float)v : g_ascii_strtod(out, NULL) == v)
            return;
    }
}

/* BINARY_FLOAT / BINARY_DOUBLE: IEEE big-endian with the sign bit set for
 * positive values and every bit complemented for negative ones. */
gboolean
ttc_format_binary_float(const guint8 *b, guint n, char *out, gsize outlen)
{
    guint8 c[8];
    guint i;

    if (n != 4 && n != 8)
        return FALSE;
    for (i = 0; i < n; i++)
        c[i] = (b[0] & 0x80) ? b[i] : (guint8)~b[i];
    c[0] = (b[0] & 0x80) ? (guint8)(c[0] & 0x7f) : c[0];
    if (n == 4) {
        guint32 u = ((guint32)c[0] << 24) | ((guint32)c[1] << 16) | ((guint32)c[2] << 8) | c[3];
        float f;
        memcpy(&f, &u, 4);
        format_double((double)f, TRUE, out, outlen);
    } else {
        guint64 u = 0;
        double d;
        for (i = 0; i < 8; i++)
            u = (u << 8) | c[i];
        memcpy(&d, &u, 8);
        format_double(d, FALSE, out, outlen);
    }
    return TRUE;
}

static gboolean
format_interval(const guint8 *b, guint n, guint8 type, char *out, gsize outlen)
{
    if (type == ORA_INTERVAL_YM && n == 5) {
        gint32 years = (gint32)(((guint32)b[0] << 24 | (guint32)b[1] << 16 | (guint32)b[2] << 8 | b[3]) - 0x80000000u);
        snprintf(out, outlen, "%+d-%02d", years, abs((gint)b[4] - 60));
        return TRUE;
    }
    if (type == ORA_INTERVAL_DS && n == 11) {
        gint32 days = (gint32)(((guint32)b[0] << 24 | (guint32)b[1] << 16 | (guint32)b[2] << 8 | b[3]) - 0x80000000u);
        gint32 fs = (gint32)(((guint32)b[7] << 24 | (guint32)b[8] << 16 | (guint32)b[9] << 8 | b[10]) - 0x80000000u);
        snprintf(out, outlen, "%+d %02d:%02d:%02d.%09d", days, abs((gint)b[4] - 60),
                   abs((gint)b[5] - 60), abs((gint)b[6] - 60), abs(fs));
        return TRUE;
    }
    return FALSE;
}

/* ---- walking the values ---- */

typedef struct {
    proto_tree *tree;
    wmem_allocator_t *scope;
    guint shown;
    gboolean multi_row;
} walk_t;

/* The bytes of a DALC value (chunks joined, at most `max`): *total its full
 * length, *isnull for the NULL forms.  NULL, and the reader not ok, when it
 * does not fit. */
static guint8 *
read_value_bytes(ttc_rd_t *r, guint max, guint *got, guint32 *total, gboolean *isnull,
                 wmem_allocator_t *scope)
{
    ttc_rd_t walk;
    guint8 lenbyte, *buf;
    guint32 n;

    *got = 0;
    *total = 0;
    *isnull = FALSE;
    if (!ttc_rd_have(r, 1))
        return NULL;
    lenbyte = tvb_get_uint8(r->tvb, r->off);
    if (lenbyte == 0 || lenbyte == 0xff) {
        r->off++;
        *isnull = TRUE;
        return NULL;
    }
    walk = *r;
    *total = ttc_rd_dalc(r, NULL);
    if (!ttc_rd_ok(r))
        return NULL;
    buf = (guint8 *)wmem_alloc(scope, MIN(*total, max) + 1);
    if (lenbyte != 0xfe) {
        *got = MIN(*total, max);
        tvb_memcpy(r->tvb, buf, walk.off + 1, *got);
        return buf;
    }
    /* long form: chunk lengths (one byte, or ub4 with big chunks) */
    walk.off++;
    for (n = 0; n < 100000 && *got < max; n++) {
        guint32 chunk = (walk.d->big_chunk && !walk.d->native) ? ttc_rd_ub4(&walk) : ttc_rd_u8(&walk);
        guint take;
        if (!ttc_rd_ok(&walk) || chunk == 0 || !ttc_rd_have(&walk, (gint)chunk))
            break;
        take = MIN(chunk, max - *got);
        tvb_memcpy(walk.tvb, buf + *got, walk.off, take);
        *got += take;
        walk.off += (gint)chunk;
    }
    return buf;
}

/* The text of a DALC known to fit (read before): UTF-8, or UTF-16BE for the
 * national character forms; chunks joined, at most MAX_VALUE_BYTES. */
static char *
text_of_value(const ttc_rd_t *at, gboolean utf16, wmem_allocator_t *scope)
{
    ttc_rd_t r = *at;
    guint encoding = utf16 ? (ENC_UTF_16 | ENC_BIG_ENDIAN) : ENC_UTF_8;
    guint8 lenbyte = ttc_rd_u8(&r);
    wmem_strbuf_t *buf;
    guint got = 0, n;

    if (!ttc_rd_ok(&r))
        return wmem_strdup(scope, "");
    if (lenbyte != 0xfe) {
        /* a short form's length byte is below MAX_VALUE_BYTES: no cap */
        guint take = lenbyte;
        if (utf16)
            take &= ~1u;
        if (!ttc_rd_have(&r, (gint)take))
            return wmem_strdup(scope, "");
        return (char *)tvb_get_string_enc(scope, r.tvb, r.off, (gint)take, encoding);
    }
    buf = wmem_strbuf_new(scope, "");
    for (n = 0; n < 100000 && got < MAX_VALUE_BYTES; n++) {
        guint32 chunk = (r.d->big_chunk && !r.d->native) ? ttc_rd_ub4(&r) : ttc_rd_u8(&r);
        guint take;
        if (!ttc_rd_ok(&r) || chunk == 0 || !ttc_rd_have(&r, (gint)chunk))
            break;
        take = MIN(chunk, MAX_VALUE_BYTES - got);
        if (utf16)
            take &= ~1u;
        wmem_strbuf_append(buf, (const char *)tvb_get_string_enc(scope, r.tvb, r.off, (gint)take, encoding));
        got += take;
        r.off += (gint)chunk;
    }
    return wmem_strbuf_finalize(buf);
}

/* One value of bind `c` at r.  Returns FALSE when the walk cannot go on
 * (a type not walked, or the bytes end). */
static gboolean
show_value(ttc_rd_t *r, walk_t *w, const ttc_column_t *c, guint32 bindno, guint32 rowno,
           gint32 element)
{
    gint s = r->off;
    const char *type = val_to_str_const(c->type, ttc_ora_type_vals, "type");
    char label[48];
    char fixed[256];
    const char *value = NULL;      /* field value */
    const char *shown = NULL;      /* item text, when it differs */
    guint got = 0;
    guint32 total = 0;
    gboolean isnull = FALSE;
    guint8 *b;
    ttc_rd_t before;

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
        before = *r;
        b = read_value_bytes(r, MAX_VALUE_BYTES, &got, &total, &isnull, w->scope);
        if (!ttc_rd_ok(r))
            break;
        if (isnull) {
            value = "NULL";
            break;
        }
        switch (c->type) {
        case ORA_VARCHAR: case ORA_CHAR: case ORA_LONG: case ORA_ROWID: case ORA_UROWID: {
            char *t = text_of_value(&before, c->csfrm == CSFRM_NCHAR, w->scope);
            value = t;
            shown = got < total ? wmem_strdup_printf(w->scope, "'%s'... (%u bytes)", t, total)
                                : wmem_strdup_printf(w->scope, "'%s'", t);
            break;
        }
        case ORA_RAW: case ORA_LONG_RAW: {
            static const char xd[] = "0123456789abcdef";
            char *hex = (char *)wmem_alloc(w->scope, 2 * (gsize)got + 1);
            guint k;
            for (k = 0; k < got; k++) {
                hex[2 * k] = xd[b[k] >> 4];
                hex[2 * k + 1] = xd[b[k] & 15];
            }
            hex[2 * got] = '\0';
            value = hex;
            shown = got < total ? wmem_strdup_printf(w->scope, "%s... (%u bytes)", hex, total)
                                : wmem_strdup_printf(w->scope, "%s (%u bytes)", hex, total);
            break;
        }
        case ORA_NUMBER: case ORA_BINARY_INTEGER:
            if (ttc_format_number(b, got, fixed, sizeof(fixed)))
                value = wmem_strdup(w->scope, fixed);
            break;
        case ORA_DATE: case ORA_TIMESTAMP: case ORA_TIMESTAMP_TZ: case ORA_TIMESTAMP_LTZ:
            if (ttc_format_date(b, got, fixed, sizeof(fixed)))
                value = wmem_strdup(w->scope, fixed);
            break;
        case ORA_BINARY_FLOAT: case ORA_BINARY_DOUBLE:
            if (ttc_format_binary_float(b, got, fixed, sizeof(fixed)))
                value = wmem_strdup(w->scope, fixed);
            break;
        case ORA_INTERVAL_YM: case ORA_INTERVAL_DS:
            if (format_interval(b, got, c->type, fixed, sizeof(fixed)))
                value = wmem_strdup(w->scope, fixed);
            break;
        case ORA_BOOLEAN:
            value = (got > 0 && b[got - 1]) ? "TRUE" : "FALSE";
            break;
        default:
            shown = wmem_strdup_printf(w->scope, "%s not decoded (%u bytes)", type, total);
            break;
        }
        if (!value && !shown)
            shown = wmem_strdup_printf(w->scope, "%u byte%s that %s not a %s value", total,
                                       total == 1 ? "" : "s", total == 1 ? "is" : "are", type);
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
