/* ttc_codec.h - TTC primitives: universal and native integers, DALC strings.
 *
 * TTC has no message lengths: a message ends where its last field ends, so
 * every read goes through a cursor that never reads past the bytes it was
 * given (the stream layer gives it the captured bytes of a packet, so a
 * snaplen cut is an end like any other).  A read beyond them sets
 * `need_more` (the message continues in a later TNS packet, or the capture
 * cut it); a value that cannot be valid sets `bad`.  Neither ever throws, so
 * the stream layer can wait for more bytes or resynchronise.
 *
 * Which encoding a primitive uses is the session's dialect: thin drivers
 * send universal integers (length byte + big-endian bytes); OCI clients send
 * the fixed-width native forms they declared in their DTY message.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_CODEC_H
#define SQLNET_TTC_CODEC_H

#include <string.h>

#include <epan/packet.h>

#include "compat.h"
#include "ttc_protocol.h"

typedef struct ttc_dialect {
    gboolean native;          /* fixed-width little-endian integers (OCI) */
    guint8   ub2_width;       /* native: bytes of a ub2/sb2 */
    guint8   ub4_width;       /* native: bytes of a ub4/sb4 */
    guint8   ptr_width;       /* native: bytes of a pointer; 0 = one byte (thin) */
    gboolean sb1_universal;   /* sb1 as a universal integer (go-ora, JDBC) */
    guint8   fv;              /* TTC field version in effect */
    guint8   fv_client, fv_server;
    gboolean big_chunk;       /* DALC long form: ub4 chunk lengths */
    gboolean call_status;     /* OER starts with the end-of-call status */
    gboolean eor;             /* server ends every response with msg 29 + flag 0x2000 */
    gboolean known;           /* learned from the handshake, or inferred */
    gboolean inferred;        /* no handshake: chosen from the message structure */
    gboolean ub2_dty;         /* DTY entries are u16 (compile cap 27) */
    guint8   server_ccap37;   /* server's compile cap 37 (TTC3), from its PRO reply */
    gboolean oer_short_tail;  /* server omits the 20.1 OER fields (seen with go-ora on 23ai) */
    guint8   dty_reply_prefix;/* bytes of time zone before the DTY reply's entries */
    gboolean structs;         /* same-platform OCI (DTY without a type table): the server
                               * sends OER, row header and describe columns as padded
                               * in-memory structs */
    guint8   pro_ptr_width;   /* pointer width the client's PRO platform string implies
                               * (4 or 8; 0 = not seen) */
    guint8   chr_form;        /* how the client writes a CHR string (the SQL text of an
                               * OALL8), from its DTY flags: TTC_CHR_* */
} ttc_dialect_t;

/* ttc_dialect_t.chr_form: the client's DTY message has not been seen; it set
 * the conversion-length flag (python-oracledb, node-oracledb, go-ora: a CHR
 * string is written with its length, as a DALC); it left it clear (JDBC
 * thin: the bytes alone, their length given before). */
#define TTC_CHR_UNKNOWN   0
#define TTC_CHR_DALC      1
#define TTC_CHR_BARE      2
/* The DTY flags bit (python-oracledb TNS_ENCODING_CONV_LENGTH). */
#define TTC_DTY_CONV_LENGTH 0x02

/* The thin, universal dialect at a given field version. */
void ttc_dialect_init_universal(ttc_dialect_t *d, guint8 fv);

typedef struct ttc_rd {
    tvbuff_t *tvb;
    gint      off;            /* next byte */
    gint      end;            /* one past the last byte that may be read */
    const ttc_dialect_t *d;
    gboolean  need_more;      /* ran past `end`: message continues later */
    gboolean  bad;            /* impossible value */
    gboolean  strict;         /* no fail-soft: a body that does not fit is bad */
    gboolean  runs;           /* first pass, no tree, messages taken as many as come: a
                               * decoder may take a run of like messages at once
                               * (row data: ttc_rows.c), its result counting them */
    /* The captured bytes [base_off, base_end) of tvb seen in place (NULL:
     * none): the integer and length reads take their bytes from here, the
     * rest from the tvb (which throws as it always did past the captured
     * bytes).  The decoders read every byte of every message this way: one
     * pointer for a range of messages instead of an accessor call a byte. */
    const guint8 *base;
    gint      base_off, base_end;
} ttc_rd_t;

void ttc_rd_init(ttc_rd_t *r, tvbuff_t *tvb, gint off, gint end, const ttc_dialect_t *d);
/* The same, with the bytes of [off, end) that were captured seen in place
 * (one tvb_get_ptr): for a reader that decodes a range of messages. */
void ttc_rd_init_view(ttc_rd_t *r, tvbuff_t *tvb, gint off, gint end, const ttc_dialect_t *d);

/* The byte at `at` when the view holds it, else -1 (nothing read). */
static inline gint
ttc_rd_byte_in_view(const ttc_rd_t *r, gint at)
{
    return r->base && at >= r->base_off && at < r->base_end ? r->base[at - r->base_off] : -1;
}

/* The byte at `at` (an offset in r->tvb the caller has reserved): from the
 * view when it holds it, else from the tvb. */
static inline guint8
ttc_rd_byte(const ttc_rd_t *r, gint at)
{
    if (at >= r->base_off && at < r->base_end)
        return r->base[at - r->base_off];
    return tvb_get_uint8(r->tvb, at);
}

static inline gboolean ttc_rd_ok(const ttc_rd_t *r) { return !r->need_more && !r->bad; }
static inline gint ttc_rd_left(const ttc_rd_t *r) { return r->end - r->off; }

/* Reserve n bytes; FALSE (and need_more) if they are not there.  Inline with
 * ttc_rd_skip() and ttc_rd_u8(): the row walk calls them for every column of
 * every row (see bench/). */
static inline gboolean
ttc_rd_have(ttc_rd_t *r, gint n)
{
    if (r->need_more || r->bad)
        return FALSE;
    /* n comes from the wire: compare without computing off + n (overflow) */
    if (n < 0 || r->off > r->end || n > r->end - r->off) {
        r->need_more = TRUE;
        return FALSE;
    }
    return TRUE;
}

static inline void
ttc_rd_skip(ttc_rd_t *r, gint n)
{
    if (ttc_rd_have(r, n))
        r->off += n;
}

static inline guint8
ttc_rd_u8(ttc_rd_t *r)
{
    guint8 v;
    if (!ttc_rd_have(r, 1))
        return 0;
    v = ttc_rd_byte(r, r->off);
    r->off += 1;
    return v;
}
guint16  ttc_rd_u16be(ttc_rd_t *r);
guint16  ttc_rd_u16le(ttc_rd_t *r);

/* Universal integer: length byte (bit 0x80 = negative) + big-endian bytes. */
guint64  ttc_rd_universal(ttc_rd_t *r, guint maxlen, gboolean *negative);

/* Dialect-dependent primitives. */
/* Any form, either layout (ttc_codec.c); the inline readers below take the
 * common case first. */
guint32  ttc_rd_ub2_any(ttc_rd_t *r);
guint32  ttc_rd_ub4_any(ttc_rd_t *r);

/* The common universal integer, inline: not negative, at most maxlen bytes,
 * all in view and before the end.  FALSE (nothing read) otherwise: the
 * complete reader then takes it, with its checks. */
static inline gboolean
ttc_rd_universal_quick(ttc_rd_t *r, guint maxlen, guint64 *out)
{
    gint at = r->off, stop = MIN(r->end, r->base_end);
    guint len, i;
    guint64 v = 0;
    const guint8 *p;

    if (r->need_more || r->bad || at < r->base_off || at >= stop)
        return FALSE;
    p = r->base + (at - r->base_off);
    len = p[0];
    if (len > maxlen || (gint)len >= stop - at)
        return FALSE;                 /* negative (0x80 set), too long, or past the view */
    for (i = 1; i <= len; i++)
        v = (v << 8) | p[i];
    r->off = at + 1 + (gint)len;
    *out = v;
    return TRUE;
}

static inline guint32
ttc_rd_ub2(ttc_rd_t *r)
{
    guint64 v;
    if (!r->d->native && ttc_rd_universal_quick(r, 2, &v))
        return (guint32)v;
    return ttc_rd_ub2_any(r);
}

static inline guint32
ttc_rd_ub4(ttc_rd_t *r)
{
    guint64 v;
    if (!r->d->native && ttc_rd_universal_quick(r, 4, &v))
        return (guint32)v;
    return ttc_rd_ub4_any(r);
}

static inline guint64
ttc_rd_ub8(ttc_rd_t *r)
{
    guint64 v;
    /* OCI keeps ub8 universal too. */
    if (ttc_rd_universal_quick(r, 8, &v))
        return v;
    return ttc_rd_universal(r, 8, NULL);
}
gint32   ttc_rd_sb2(ttc_rd_t *r);
gint32   ttc_rd_sb4(ttc_rd_t *r);
gint32   ttc_rd_sb1(ttc_rd_t *r);
guint32  ttc_rd_ptr(ttc_rd_t *r);         /* 0 = null pointer, 1 = present */

/* Printable ASCII (0x20-0x7E): its UTF-8 decoding is the bytes as they are,
 * so text of it is copied without a conversion (most names and values). */
static inline gboolean
ttc_is_printable_ascii(const guint8 *p, gsize n)
{
    gsize k;

    for (k = 0; k < n && p[k] >= 0x20 && p[k] < 0x7f; k++)
        ;
    return k == n;
}

/* n bytes of printable ASCII as a string in `scope`; NULL when they are not
 * printable ASCII (the caller decodes them). */
static inline char *
ttc_ascii_dup(wmem_allocator_t *scope, const guint8 *p, gsize n)
{
    char *s;

    if (!ttc_is_printable_ascii(p, n))
        return NULL;
    s = (char *)wmem_alloc(scope, n + 1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* A DALC in the short form (a length byte of 1 to 253, then that many
 * bytes) whose bytes are printable ASCII, all in the view and before the
 * end: *p and *n are its bytes in place (the text ttc_rd_dalc_str() would
 * make of them, without its copy) and the reader moves past it.  FALSE,
 * nothing read, for anything else (empty, NULL, the long form, bytes out of
 * view or past the end, other bytes): ttc_rd_dalc_str() takes it. */
static inline gboolean
ttc_rd_ascii_dalc_in_view(ttc_rd_t *r, const guint8 **p, gsize *n)
{
    gint len = ttc_rd_byte_in_view(r, r->off);
    const guint8 *b;

    if (!ttc_rd_ok(r) || len <= 0 || len >= 0xFE)
        return FALSE;
    if (r->off > r->end - 1 - len || r->off > r->base_end - 1 - len)
        return FALSE;
    b = r->base + (r->off + 1 - r->base_off);
    if (!ttc_is_printable_ascii(b, (gsize)len))
        return FALSE;
    *p = b;
    *n = (gsize)len;
    r->off += 1 + len;
    return TRUE;
}

/* DALC ("CLR"): returns the total data length (0 for NULL/empty); *first is
 * the offset of the first data byte.  Long form (0xFE) chunks are skipped. */
guint32  ttc_rd_dalc(ttc_rd_t *r, gint *first);
/* A DALC skipped: the short form (a length byte, then that many bytes: most
 * values of most rows) inline, the long form of chunks by ttc_rd_dalc(). */
static inline void
ttc_rd_skip_dalc(ttc_rd_t *r)
{
    gint at = r->off;
    guint8 len = ttc_rd_u8(r);

    if (!ttc_rd_ok(r) || len == 0 || len == 0xFF)
        return;                       /* NULL: nothing follows */
    if (len != 0xFE) {
        ttc_rd_skip(r, len);
        return;
    }
    r->off = at;                      /* the long form */
    ttc_rd_dalc(r, NULL);
}
/* DALC as a string in `scope` (chunks joined), NULL when empty/NULL. */
char    *ttc_rd_dalc_str(ttc_rd_t *r, wmem_allocator_t *scope, gint *start, gint *len);
/* ub4 length, then a DALC when the length is not 0 (str_with_length). */
char    *ttc_rd_str_with_length(ttc_rd_t *r, wmem_allocator_t *scope);
void     ttc_rd_skip_bytes_with_length(ttc_rd_t *r);
/* Rowid: ub4 rba, ub2 partition, ub1, ub4 block, ub2 slot. */
void     ttc_rd_skip_rowid(ttc_rd_t *r);
void     ttc_rd_rowid(ttc_rd_t *r, char text[19]);
/* Same-platform structs: skip to `base + size` (bad if already past it), or
 * to the next multiple of `align` from `base`. */
void     ttc_rd_struct_rest(ttc_rd_t *r, gint base, gint size);
void     ttc_rd_struct_align(ttc_rd_t *r, gint base, gint align);
/* Key/value pairs (text, binary, keyword): lengths are ub2 for thin
 * clients, 4-byte in OCI's native layout. */
guint32  ttc_rd_kv_len(ttc_rd_t *r);
void     ttc_rd_skip_kv_pairs(ttc_rd_t *r, guint32 n);

/* SQL text in the long form (0xfe, then chunks of at most 64 bytes after a
 * one-byte length, as OCI writes it) in [from, r->end) of a call body that
 * could not be read, or NULL; *start, *len: its bytes. */
const char *ttc_find_long_sql(const ttc_rd_t *r, gint from, gint *start, gint *len, wmem_allocator_t *scope);

#endif /* SQLNET_TTC_CODEC_H */
