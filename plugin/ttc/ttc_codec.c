/* ttc_codec.c - TTC primitives (see ttc_codec.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include "ttc_codec.h"

#define DALC_NULL       0xFF
#define DALC_LONG       0xFE
#define DALC_MAX_CHUNKS 65536

void
ttc_dialect_init_universal(ttc_dialect_t *d, guint8 fv)
{
    memset(d, 0, sizeof(*d));
    d->fv = d->fv_client = d->fv_server = fv;
    d->big_chunk = TRUE;
    d->call_status = TRUE;
}

void
ttc_rd_init(ttc_rd_t *r, tvbuff_t *tvb, gint off, gint end, const ttc_dialect_t *d)
{
    r->tvb = tvb;
    r->off = off;
    r->end = end;
    r->d = d;
    r->need_more = FALSE;
    r->bad = FALSE;
    r->strict = FALSE;
    r->runs = FALSE;
    r->base = NULL;
    r->base_off = r->base_end = 0;
}

void
ttc_rd_init_view(ttc_rd_t *r, tvbuff_t *tvb, gint off, gint end, const ttc_dialect_t *d)
{
    gint have;

    ttc_rd_init(r, tvb, off, end, d);
    if (off < 0 || end <= off)
        return;
    have = tvb_captured_length_remaining(tvb, off);
    if (have <= 0)
        return;
    have = MIN(have, end - off);
    /* a composite tvb (a reassembled PDU) is flattened once and kept */
    r->base = tvb_get_ptr(tvb, off, have);
    r->base_off = off;
    r->base_end = off + have;
}

guint16
ttc_rd_u16be(ttc_rd_t *r)
{
    guint16 v;
    if (!ttc_rd_have(r, 2))
        return 0;
    v = (guint16)(ttc_rd_byte(r, r->off) << 8 | ttc_rd_byte(r, r->off + 1));
    r->off += 2;
    return v;
}

guint16
ttc_rd_u16le(ttc_rd_t *r)
{
    guint16 v;
    if (!ttc_rd_have(r, 2))
        return 0;
    v = (guint16)(ttc_rd_byte(r, r->off) | ttc_rd_byte(r, r->off + 1) << 8);
    r->off += 2;
    return v;
}

guint64
ttc_rd_universal(ttc_rd_t *r, guint maxlen, gboolean *negative)
{
    guint8 len;
    guint64 v = 0;
    guint i;

    if (negative)
        *negative = FALSE;
    if (ttc_rd_universal_quick(r, maxlen, &v))
        return v;                     /* the common form, in view (ttc_codec.h) */
    if (!ttc_rd_have(r, 1))
        return 0;
    len = ttc_rd_byte(r, r->off);
    if (len & 0x80) {
        if (negative)
            *negative = TRUE;
        len &= 0x7F;
    }
    if (len > maxlen) {
        r->bad = TRUE;
        return 0;
    }
    if (!ttc_rd_have(r, 1 + len))
        return 0;
    /* one accessor call for the common widths */
    switch (len) {
    case 0: break;
    case 1: v = tvb_get_uint8(r->tvb, r->off + 1); break;
    case 2: v = tvb_get_ntohs(r->tvb, r->off + 1); break;
    case 3: v = tvb_get_ntoh24(r->tvb, r->off + 1); break;
    case 4: v = tvb_get_ntohl(r->tvb, r->off + 1); break;
    default:
        for (i = 0; i < len; i++)
            v = (v << 8) | tvb_get_uint8(r->tvb, r->off + 1 + i);
        break;
    }
    r->off += 1 + len;
    return v;
}

/* Native fixed-width little-endian integer of `width` bytes. */
static guint64
rd_native(ttc_rd_t *r, guint width)
{
    guint64 v = 0;
    guint i;

    if (width == 0 || width > 8) {
        r->bad = TRUE;
        return 0;
    }
    if (!ttc_rd_have(r, width))
        return 0;
    for (i = 0; i < width; i++)
        v |= (guint64)ttc_rd_byte(r, r->off + (gint)i) << (8 * i);
    r->off += width;
    return v;
}

guint32
ttc_rd_ub2_any(ttc_rd_t *r)
{
    if (r->d->native)
        return (guint32)rd_native(r, r->d->ub2_width);
    return (guint32)ttc_rd_universal(r, 2, NULL);
}

guint32
ttc_rd_ub4_any(ttc_rd_t *r)
{
    if (r->d->native)
        return (guint32)rd_native(r, r->d->ub4_width);
    return (guint32)ttc_rd_universal(r, 4, NULL);
}

static gint32
signed_native(guint64 v, guint width)
{
    if (width == 2)
        return (gint16)(guint16)v;
    if (width == 1)
        return (gint8)(guint8)v;
    return (gint32)(guint32)v;
}

gint32
ttc_rd_sb2(ttc_rd_t *r)
{
    gboolean neg;
    guint64 v;
    if (r->d->native)
        return signed_native(rd_native(r, r->d->ub2_width), r->d->ub2_width);
    v = ttc_rd_universal(r, 2, &neg);
    return neg ? -(gint32)v : (gint32)v;
}

gint32
ttc_rd_sb4(ttc_rd_t *r)
{
    gboolean neg;
    guint64 v;
    if (r->d->native)
        return signed_native(rd_native(r, r->d->ub4_width), r->d->ub4_width);
    v = ttc_rd_universal(r, 4, &neg);
    return neg ? -(gint32)v : (gint32)v;
}

gint32
ttc_rd_sb1(ttc_rd_t *r)
{
    gboolean neg;
    guint64 v;
    if (!r->d->sb1_universal)
        return (gint8)ttc_rd_u8(r);
    v = ttc_rd_universal(r, 1, &neg);
    return neg ? -(gint32)v : (gint32)v;
}

guint32
ttc_rd_ptr(ttc_rd_t *r)
{
    if (r->d->native && r->d->ptr_width > 0)
        return rd_native(r, r->d->ptr_width) != 0;
    return ttc_rd_u8(r) != 0;
}

/* Chunk length of a long-form DALC. */
static guint32
rd_chunk_len(ttc_rd_t *r)
{
    /* Universal sessions that negotiated big chunks: a ub4 (python-oracledb
     * read_bytes); OCI's native layout keeps one-byte chunk lengths (the
     * 65-byte SQL text "fe 40 <64 bytes> 01 <1 byte> 00" of SQL*Plus 11.2,
     * visblank 11.2 session frame 1184, whose compile caps ask for big
     * chunks). */
    if (r->d->big_chunk && !r->d->native)
        return ttc_rd_ub4(r);
    return ttc_rd_u8(r);
}

guint32
ttc_rd_dalc(ttc_rd_t *r, gint *first)
{
    guint8 len;
    guint32 total = 0, chunk, n;

    if (first)
        *first = r->off;
    len = ttc_rd_u8(r);
    if (!ttc_rd_ok(r) || len == 0 || len == DALC_NULL)
        return 0;
    if (len != DALC_LONG) {
        if (first)
            *first = r->off;
        ttc_rd_skip(r, len);
        return len;
    }
    for (n = 0; n < DALC_MAX_CHUNKS; n++) {
        chunk = rd_chunk_len(r);
        if (!ttc_rd_ok(r) || chunk == 0)
            return total;
        if (n == 0 && first)
            *first = r->off;
        if (chunk > (guint32)G_MAXINT32 - total) {
            r->bad = TRUE;
            return 0;
        }
        ttc_rd_skip(r, (gint)chunk);
        total += chunk;
    }
    r->bad = TRUE;
    return 0;
}

char *
ttc_rd_dalc_str(ttc_rd_t *r, wmem_allocator_t *scope, gint *start, gint *len)
{
    gint begin = r->off, first;
    guint8 lenbyte;
    guint32 total;
    wmem_strbuf_t *buf;
    ttc_rd_t again;
    guint32 n, chunk;

    if (!ttc_rd_have(r, 1))
        return NULL;
    lenbyte = ttc_rd_byte(r, r->off);
    total = ttc_rd_dalc(r, &first);
    if (start)
        *start = begin;
    if (len)
        *len = r->off - begin;
    if (!ttc_rd_ok(r) || total == 0)
        return NULL;
    if (lenbyte != DALC_LONG) {
        /* printable ASCII (most keys, values and names): no conversion */
        char *s = ttc_ascii_dup(scope, tvb_get_ptr(r->tvb, first, (gint)total), total);
        return s ? s : (char *)tvb_get_string_enc(scope, r->tvb, first, total, ENC_UTF_8);
    }

    /* Long form: join the chunks. */
    buf = wmem_strbuf_new(scope, "");
    ttc_rd_init(&again, r->tvb, begin + 1, r->off, r->d);
    for (n = 0; n < DALC_MAX_CHUNKS; n++) {
        chunk = rd_chunk_len(&again);
        if (!ttc_rd_ok(&again) || chunk == 0 || !ttc_rd_have(&again, (gint)chunk))
            break;
        wmem_strbuf_append(buf, (const char *)tvb_get_string_enc(scope, again.tvb, again.off, chunk, ENC_UTF_8));
        again.off += chunk;
    }
    return wmem_strbuf_finalize(buf);
}

char *
ttc_rd_str_with_length(ttc_rd_t *r, wmem_allocator_t *scope)
{
    guint32 n = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r) || n == 0)
        return NULL;
    return ttc_rd_dalc_str(r, scope, NULL, NULL);
}

void
ttc_rd_skip_bytes_with_length(ttc_rd_t *r)
{
    guint32 n = ttc_rd_ub4(r);
    if (ttc_rd_ok(r) && n > 0)
        ttc_rd_dalc(r, NULL);
}

void
ttc_rd_skip_rowid(ttc_rd_t *r)
{
    ttc_rd_rowid(r, NULL);
}

/* A rowid as the thin clients read it (python-oracledb read_rowid, JDBC
 * T4CTTIoer11): ub4 data object id, ub2 relative file, ub1, ub4 block,
 * ub2 slot.  With `text`, its extended text form (OOOOOOFFFBBBBBBRRR, the
 * base-64 digits of python's _encode_rowid), or "" when it is all zero. */
void
ttc_rd_rowid(ttc_rd_t *r, char text[19])
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    guint32 parts[4];
    static const int widths[4] = { 6, 3, 6, 3 };
    int i, j, o = 0;

    parts[0] = ttc_rd_ub4(r);
    parts[1] = ttc_rd_ub2(r);
    ttc_rd_u8(r);
    parts[2] = ttc_rd_ub4(r);
    parts[3] = ttc_rd_ub2(r);
    if (!text)
        return;
    text[0] = '\0';
    if (!ttc_rd_ok(r) || (parts[0] | parts[1] | parts[2] | parts[3]) == 0)
        return;
    for (i = 0; i < 4; i++) {
        guint32 v = parts[i];
        for (j = widths[i] - 1; j >= 0; j--) {
            text[o + j] = b64[v & 0x3F];
            v >>= 6;
        }
        o += widths[i];
    }
    text[o] = '\0';
}

void
ttc_rd_struct_rest(ttc_rd_t *r, gint base, gint size)
{
    if (ttc_rd_ok(r) && r->off > base + size)
        r->bad = TRUE;
    else
        ttc_rd_skip(r, base + size - r->off);
}

void
ttc_rd_struct_align(ttc_rd_t *r, gint base, gint align)
{
    gint rel = r->off - base;
    ttc_rd_skip(r, (align - rel % align) % align);
}

guint32
ttc_rd_kv_len(ttc_rd_t *r)
{
    return r->d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);
}

#define TTC_KV_PAIRS_MAX 4096

void
ttc_rd_skip_kv_pairs(ttc_rd_t *r, guint32 n)
{
    guint32 i;

    if (n > TTC_KV_PAIRS_MAX) {
        r->bad = TRUE;
        return;
    }
    for (i = 0; i < n && ttc_rd_ok(r); i++) {
        if (ttc_rd_kv_len(r) > 0)
            ttc_rd_dalc(r, NULL);     /* text value */
        if (ttc_rd_kv_len(r) > 0)
            ttc_rd_dalc(r, NULL);     /* binary value */
        ttc_rd_ub2(r);                /* keyword */
    }
}

/* SQL text in a call body that could not be read: the first long-form DALC
 * ("fe", then chunks of at most 64 bytes after a one-byte length, as OCI
 * writes them: "fe 40 select ...") whose text reads as a statement.  Bounded:
 * the first 4 KiB of the body, 16 candidates. */
const char *
ttc_find_long_sql(const ttc_rd_t *r, gint from, gint *start, gint *len, wmem_allocator_t *scope)
{
    ttc_dialect_t one_byte_chunks = *r->d;
    gint p, end = MIN(r->end, from + 4096);
    guint tries = 0;

    one_byte_chunks.big_chunk = FALSE;
    for (p = from; p + 2 < end && tries < 16; p++) {
        ttc_rd_t at;
        const char *text;
        const guchar *c;
        guint8 chunk;

        if (tvb_get_uint8(r->tvb, p) != 0xFE)
            continue;
        chunk = tvb_get_uint8(r->tvb, p + 1);
        if (chunk == 0 || chunk > 0x40 || !g_ascii_isalpha(tvb_get_uint8(r->tvb, p + 2)))
            continue;
        tries++;
        ttc_rd_init(&at, r->tvb, p, r->end, &one_byte_chunks);
        text = ttc_rd_dalc_str(&at, scope, start, len);
        if (!ttc_rd_ok(&at) || !text || strlen(text) < 6)
            continue;
        for (c = (const guchar *)text; *c && (*c >= 0x20 || *c == '\t' || *c == '\r' || *c == '\n'); c++)
            ;
        if (*c == 0)
            return text;
    }
    return NULL;
}
