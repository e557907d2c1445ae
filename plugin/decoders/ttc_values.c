/* ttc_values.c - Oracle values as text: the encodings binds and row
 * columns share (NUMBER, DATE/TIMESTAMP, BINARY_FLOAT/DOUBLE, INTERVAL,
 * text in the database or national character set, RAW, BOOLEAN, rowids),
 * and the bytes of a DALC value joined from its chunks.
 *
 * How the clients read them: python-oracledb impl/base/buffer.pyx
 * (read_oracle_number, read_oracle_date, read_binary_double,
 * read_interval_ds ...) and thin/packet.pyx (read_rowid, read_urowid);
 * node-oracledb lib/impl/datahandlers/buffer.js (parseOracleNumber,
 * parseOracleDate, readBool ...) and lib/thin/protocol/packet.js
 * (readRowID, readURowID).  The formatters are pure functions on a few
 * copied bytes: bad bytes give FALSE, never a crash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"
#include "ttc_values.h"
#include "coltext.h"

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

/* ---- formatting of the fixed encodings (pure, on a few copied bytes) ---- */

/* Oracle NUMBER: exponent byte (bit 7 = positive; base-100 exponent + 65,
 * complemented for negative numbers), then base-100 digits (digit + 1;
 * negative: 101 - digit, with a 102 terminator when shorter than 21 digits).
 * Returns FALSE for bytes that are not a NUMBER. */
gboolean
ttc_format_number(const guint8 *b, guint n, char *out, gsize outlen)
{
    char digits[64], buf[200];
    gsize len = 0, z;
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
    /* the decimal point falls after the first exp + 1 digit pairs; built in
     * a buffer on the stack (exp is -65..62: at most 1 + 2 + 128 + 40
     * characters), not a GString: this runs for every NUMBER value shown */
    pos = 2 * (exp + 1);
    if (neg)
        buf[len++] = '-';
    if (pos <= 0) {
        buf[len++] = '0';
        buf[len++] = '.';
        for (i = 0; i < -pos; i++)
            buf[len++] = '0';
        memcpy(buf + len, digits, (gsize)nd);
        len += (gsize)nd;
    } else if (pos >= nd) {
        memcpy(buf + len, digits, (gsize)nd);
        len += (gsize)nd;
        for (i = nd; i < pos; i++)
            buf[len++] = '0';
    } else {
        memcpy(buf + len, digits, (gsize)pos);
        len += (gsize)pos;
        buf[len++] = '.';
        memcpy(buf + len, digits + pos, (gsize)(nd - pos));
        len += (gsize)(nd - pos);
    }
    buf[len] = '\0';
    /* leading zeros of the integer part, trailing zeros of the fraction */
    first = neg ? 1 : 0;
    for (z = 0; buf[first + z] == '0' && buf[first + z + 1] != '.' && buf[first + z + 1] != '\0'; z++)
        ;
    memmove(buf + first, buf + first + z, len - (gsize)first - z + 1);
    len -= z;
    if (memchr(buf, '.', len)) {
        last = (gint)len - 1;
        while (last > 0 && buf[last] == '0')
            last--;
        if (buf[last] == '.')
            last--;
        len = (gsize)last + 1;
        buf[len] = '\0';
    }
    if (len >= outlen)
        return FALSE;
    memcpy(out, buf, len + 1);
    return TRUE;
}

/* DATE (7 bytes: century + 100, year of century + 100, month, day, hour + 1,
 * minute + 1, second + 1), TIMESTAMP (11: + nanoseconds, big-endian) and
 * TIMESTAMP WITH TIME ZONE (13: + the zone in two bytes).  The zone: with
 * bit 0x80 of byte 11 a region id (byte 11's low 7 bits, then byte 12's top
 * 6), else an offset: hour + 20 in byte 11's low 6 bits, minute + 60 in byte
 * 12.  The time is in UTC unless bit 0x40 of byte 11 (an offset) or bit 0x01
 * of byte 12 (a region) says it is already the zone's (go-ora v2
 * converters DecodeDate; python-oracledb decode_date adds the offset to the
 * UTC time).  An offset's value is shown as the zone's wall time and the
 * offset, "YYYY-MM-DD HH:MM:SS[.f] +HH:MM"; a region's as its time and
 * "UTC" or "local" with the region id (no zone database here). */
gboolean
ttc_format_date(const guint8 *b, guint n, char *out, gsize outlen)
{
    gint year, mon, day, hour, min, sec;
    gint off = 0;
    gboolean region = FALSE, in_zone = FALSE;
    gsize len;

    if (n != 7 && n != 11 && n != 13)
        return FALSE;
    if (b[0] < 100 || b[1] < 100 || b[2] < 1 || b[2] > 12 || b[3] < 1 || b[3] > 31 ||
        b[4] < 1 || b[4] > 24 || b[5] < 1 || b[5] > 60 || b[6] < 1 || b[6] > 60)
        return FALSE;
    year = (b[0] - 100) * 100 + (b[1] - 100);
    mon = b[2];
    day = b[3];
    hour = b[4] - 1;
    min = b[5] - 1;
    sec = b[6] - 1;
    if (n == 13) {
        region = (b[11] & 0x80) != 0;
        in_zone = region ? (b[12] & 1) != 0 : (b[11] & 0x40) != 0;
        if (!region)
            off = ((gint)(b[11] & 0x3f) - 20) * 60 + ((gint)b[12] - 60);
        if (!region && !in_zone && off != 0) {
            /* the UTC time shown as the zone's wall time */
            GDateTime *u = (year >= 1 && year <= 9999) ? g_date_time_new_utc(year, mon, day, hour, min, sec)
                                                     : NULL;
            GDateTime *z = u ? g_date_time_add_minutes(u, off) : NULL;
            if (!z) {
                if (u)
                    g_date_time_unref(u);
                return FALSE;
            }
            year = g_date_time_get_year(z);
            mon = g_date_time_get_month(z);
            day = g_date_time_get_day_of_month(z);
            hour = g_date_time_get_hour(z);
            min = g_date_time_get_minute(z);
            g_date_time_unref(z);
            g_date_time_unref(u);
        }
    }
    len = (gsize)snprintf(out, outlen, "%04d-%02d-%02d %02d:%02d:%02d", year, mon, day, hour, min, sec);
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
        if (region)
            snprintf(tz, sizeof(tz), " %s (time zone region %u)", in_zone ? "local" : "UTC",
                     ((b[11] & 0x7fu) << 6) | (b[12] >> 2));
        else
            snprintf(tz, sizeof(tz), " %c%02d:%02d", off < 0 ? '-' : '+', abs(off) / 60, abs(off) % 60);
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

/* INTERVAL YEAR TO MONTH (5 bytes: years + 2^31, months + 60) and DAY TO
 * SECOND (11: days + 2^31, hours, minutes, seconds + 60, nanoseconds +
 * 2^31), as [+-]Y-MM and [+-]D HH:MM:SS.fffffffff; the sign is the
 * interval's (any negative part: a -2 hour interval has days 0). */
gboolean
ttc_format_interval(const guint8 *b, guint n, guint8 type, char *out, gsize outlen)
{
    if (type == ORA_INTERVAL_YM && n == 5) {
        gint32 years = (gint32)(((guint32)b[0] << 24 | (guint32)b[1] << 16 | (guint32)b[2] << 8 | b[3]) - 0x80000000u);
        gint months = (gint)b[4] - 60;
        snprintf(out, outlen, "%c%d-%02d", (years < 0 || months < 0) ? '-' : '+', abs(years), abs(months));
        return TRUE;
    }
    if (type == ORA_INTERVAL_DS && n == 11) {
        gint32 days = (gint32)(((guint32)b[0] << 24 | (guint32)b[1] << 16 | (guint32)b[2] << 8 | b[3]) - 0x80000000u);
        gint32 fs = (gint32)(((guint32)b[7] << 24 | (guint32)b[8] << 16 | (guint32)b[9] << 8 | b[10]) - 0x80000000u);
        gint h = (gint)b[4] - 60, m = (gint)b[5] - 60, sec = (gint)b[6] - 60;
        gboolean neg = days < 0 || h < 0 || m < 0 || sec < 0 || fs < 0;
        snprintf(out, outlen, "%c%d %02d:%02d:%02d.%09d", neg ? '-' : '+', abs(days), abs(h), abs(m), abs(sec),
                 abs(fs));
        return TRUE;
    }
    return FALSE;
}

/* ---- the bytes of a value ---- */

/* The bytes of a DALC value (chunks joined, at most `max`): *total its full
 * length, *isnull for the NULL forms.  NULL, and the reader not ok, when it
 * does not fit. */
guint8 *
ttc_read_value_bytes(ttc_rd_t *r, guint max, guint *got, guint32 *total, gboolean *isnull,
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


/* Text of `got` bytes: UTF-8, or UTF-16BE for the national character
 * forms (an odd last byte dropped). */
static char *
text_of_bytes(const guint8 *b, guint got, gboolean utf16, wmem_allocator_t *scope)
{
    tvbuff_t *t;
    char *s;

    if (utf16)
        got &= ~1u;
    if (got == 0)
        return wmem_strdup(scope, "");
    /* printable ASCII (most values): the same text as the decoding below,
     * without a tvb and a conversion per value */
    if (!utf16 && (s = ttc_ascii_dup(scope, b, got)) != NULL)
        return s;
    t = tvb_new_real_data(b, got, (gint)got);
    s = (char *)tvb_get_string_enc(scope, t, 0, (gint)got, utf16 ? (ENC_UTF_16 | ENC_BIG_ENDIAN) : ENC_UTF_8);
    tvb_free(t);
    return s;
}

/* A text value and its quoted form ('text') in one allocation, without
 * wmem_strconcat's two walks over its arguments (this runs for every text
 * value shown, four times per row in the bench capture): printable ASCII
 * copied as it is (the same bytes text_of_bytes() gives), other text
 * through it. */
static void
text_and_quoted(const guint8 *b, guint got, gboolean utf16, wmem_allocator_t *scope, const char **value,
                const char **shown)
{
    const char *t = got ? (const char *)b : "";
    gsize n = got;
    char *buf;

    if (utf16 || !ttc_is_printable_ascii(b, got)) {
        t = text_of_bytes(b, got, utf16, scope);
        n = strlen(t);
    }
    buf = (char *)wmem_alloc(scope, 2 * n + 4);
    memcpy(buf, t, n);
    buf[n] = '\0';
    buf[n + 1] = '\'';
    memcpy(buf + n + 2, t, n);
    buf[2 * n + 2] = '\'';
    buf[2 * n + 3] = '\0';
    *value = buf;
    *shown = buf + n + 1;
}

static char *
hex_of_bytes(const guint8 *b, guint got, wmem_allocator_t *scope)
{
    static const char xd[] = "0123456789abcdef";
    char *hex = (char *)wmem_alloc(scope, 2 * (gsize)got + 1);
    guint k;

    for (k = 0; k < got; k++) {
        hex[2 * k] = xd[b[k] >> 4];
        hex[2 * k + 1] = xd[b[k] & 15];
    }
    hex[2 * got] = '\0';
    return hex;
}

/* A UROWID's bytes (python-oracledb read_urowid, node readURowID): a
 * physical rowid (first byte 1) as the 18-character extended text, a
 * logical one as '*' and the base-64 digits of the bytes after the first. */
static char *
urowid_of_bytes(const guint8 *b, guint got, wmem_allocator_t *scope)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    wmem_strbuf_t *s;
    guint i;

    if (got >= 13 && b[0] == 1) {
        guint32 parts[4];
        static const int widths[4] = { 6, 3, 6, 3 };
        char *out = (char *)wmem_alloc(scope, 19);
        int p, j, o = 0;
        parts[0] = ((guint32)b[1] << 24) | ((guint32)b[2] << 16) | ((guint32)b[3] << 8) | b[4];
        parts[1] = ((guint32)b[5] << 8) | b[6];
        parts[2] = ((guint32)b[7] << 24) | ((guint32)b[8] << 16) | ((guint32)b[9] << 8) | b[10];
        parts[3] = ((guint32)b[11] << 8) | b[12];
        for (p = 0; p < 4; p++)
            for (j = widths[p] - 1; j >= 0; j--)
                out[o++] = b64[(parts[p] >> (6 * j)) & 0x3f];
        out[o] = '\0';
        return out;
    }
    s = wmem_strbuf_new(scope, "*");
    for (i = 1; i < got; i += 3) {
        guint rest = got - i;
        guint32 v = (guint32)b[i] << 16 | (rest > 1 ? (guint32)b[i + 1] << 8 : 0) | (rest > 2 ? b[i + 2] : 0);
        wmem_strbuf_append_c(s, b64[(v >> 18) & 0x3f]);
        wmem_strbuf_append_c(s, b64[(v >> 12) & 0x3f]);
        if (rest > 1)
            wmem_strbuf_append_c(s, b64[(v >> 6) & 0x3f]);
        if (rest > 2)
            wmem_strbuf_append_c(s, b64[v & 0x3f]);
    }
    return wmem_strbuf_finalize(s);
}

void
ttc_value_format(guint8 type, guint8 csfrm, const guint8 *b, guint got, guint32 total,
                 wmem_allocator_t *scope, const char **value, const char **shown)
{
    const char *tname;
    char fixed[256];

    *value = NULL;
    *shown = NULL;
    switch (type) {
    case ORA_VARCHAR: case ORA_CHAR: case ORA_LONG: case ORA_ROWID:
        if (got < total) {
            char *t = text_of_bytes(b, got, csfrm == CSFRM_NCHAR, scope);
            *value = t;
            *shown = wmem_strdup_printf(scope, "'%s'... (%u bytes)", t, total);
        } else {
            text_and_quoted(b, got, csfrm == CSFRM_NCHAR, scope, value, shown);
        }
        break;
    case ORA_UROWID:
        *value = urowid_of_bytes(b, got, scope);
        break;
    case ORA_RAW: case ORA_LONG_RAW: {
        char *hex = hex_of_bytes(b, got, scope);
        *value = hex;
        if (got < total) {
            *shown = wmem_strdup_printf(scope, "%s... (%u bytes)", hex, total);
        } else {
            sqlnet_coltext_t n;
            coltext_init(&n);
            coltext_uint(&n, total);
            *shown = wmem_strconcat(scope, hex, " (", n.buf, " bytes)", NULL);
        }
        break;
    }
    case ORA_NUMBER: case ORA_BINARY_INTEGER:
        if (ttc_format_number(b, got, fixed, sizeof(fixed)))
            *value = wmem_strdup(scope, fixed);
        break;
    case ORA_DATE: case ORA_TIMESTAMP: case ORA_TIMESTAMP_TZ: case ORA_TIMESTAMP_LTZ:
        if (ttc_format_date(b, got, fixed, sizeof(fixed)))
            *value = wmem_strdup(scope, fixed);
        break;
    case ORA_BINARY_FLOAT: case ORA_BINARY_DOUBLE:
        if (ttc_format_binary_float(b, got, fixed, sizeof(fixed)))
            *value = wmem_strdup(scope, fixed);
        break;
    case ORA_INTERVAL_YM: case ORA_INTERVAL_DS:
        if (ttc_format_interval(b, got, type, fixed, sizeof(fixed)))
            *value = wmem_strdup(scope, fixed);
        break;
    case ORA_BOOLEAN:
        *value = (got > 0 && b[got - 1]) ? "TRUE" : "FALSE";
        break;
    default:
        tname = val_to_str_const(type, ttc_ora_type_vals, "type");
        *shown = wmem_strdup_printf(scope, "%s not decoded (%u bytes)", tname, total);
        break;
    }
    if (!*value && !*shown) {
        tname = val_to_str_const(type, ttc_ora_type_vals, "type");
        *shown = wmem_strdup_printf(scope, "%u byte%s that %s not a %s value", total,
                                    total == 1 ? "" : "s", total == 1 ? "is" : "are", tname);
    }
}
