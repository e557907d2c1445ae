/* sqlnet_mutator.c - structure-aware libFuzzer mutator for sqlnet_fuzzer.
 *
 * An input is a config byte and direction-tagged chunks (fz_input.h).  The
 * mutator parses it into chunks, frames the TNS packets of each direction
 * over the chunk payloads (from the declared lengths, 16- or 32-bit header
 * form guessed per header) and, in DATA packets, takes a TTC message to be
 * the bytes from a message-type byte (the first body byte, or any byte that
 * is a known message type) to the next such byte.  Operations:
 *
 *   bytes      LLVMFuzzerMutate on one chunk's payload (dictionary included)
 *   whole      LLVMFuzzerMutate on the whole input (the fallback, too)
 *   dup        copy a chunk (1-16 times), or a run of chunks, elsewhere
 *   repeat     set a chunk's repeat count (2 ... 65535)
 *   delete     drop chunks
 *   flags      toggle direction, truncation, gap or retransmission
 *   msgrep     repeat a TTC message 1 ... 20000 times in its TNS packet
 *   nest       put 1 ... 20000 message headers in front of a message: the
 *              fast-auth header 22 vv ff ff (which nests the PRO), a message
 *              type and a few bytes, or the message's own first bytes
 *   msgcopy    copy a TTC message into another DATA packet of the input
 *   tnslen     set a TNS length to what follows, off by a little, an extreme,
 *              or switch the header between the 16- and 32-bit forms
 *   sdu        cut a DATA packet into packets of an SDU (512 ... 32767)
 *   resegment  join two chunks of one direction, or cut one in two
 *   window     keep a run of chunks of 1-16 KiB (repeats expanded), mostly
 *              as a conversation without its handshake
 *
 * msgrep and nest keep the TNS length consistent with what they insert; big
 * insertions become a repeat chunk (the packet's chunk is cut around it), so
 * 64 KB+ packets and deep nesting fit in a few bytes of input.  The
 * cross-over (LLVMFuzzerCustomCrossOver) splices chunk runs of two inputs or
 * inserts a TTC message of the second into a DATA packet of the first.
 *
 * Deterministic for a given seed (its own generator; LLVMFuzzerMutate uses
 * libFuzzer's, seeded by -seed).  No recursion: every walk is a loop.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fz_input.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

#define MAX_CHUNKS   16384    /* chunks parsed; the rest of the input is kept as it is */
#define MAX_PACKETS  8192     /* TNS packets framed */
#define MAX_COUNT    20000    /* repetitions of a message or header */

/* ---- random numbers ----------------------------------------------------- */

typedef struct {
    guint64 s;
} rng_t;

static guint64
rnd(rng_t *r)
{
    guint64 z = (r->s += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static guint32
below(rng_t *r, guint32 n)
{
    return n ? (guint32)(rnd(r) % n) : 0;
}

/* A repetition count: mostly small, often hundreds to thousands, sometimes
 * beyond what an 8 MB stack holds for a recursion of small frames. */
static guint32
pick_count(rng_t *r)
{
    switch (below(r, 4)) {
    case 0:  return 1 + below(r, 8);
    case 1:  return 8 + below(r, 120);
    case 2:  return 128 + below(r, 3968);
    default: return 4096 + below(r, MAX_COUNT - 4096 + 1);
    }
}

/* A count for copies of unit bytes: what they add stays within 4 KiB
 * (40 in 64) or 16 KiB (18 in 64) most of the time, else 256 KiB (5 in 64),
 * now and then 2 MiB (1 in 64).  Every byte costs dissection time, and the expanded stream, not the
 * input, is what the harness dissects (up to 4 MiB per input): one 2 MiB
 * stream takes as long as a few hundred ordinary inputs. */
static guint32
pick_count_for(rng_t *r, guint32 unit)
{
    guint32 count = pick_count(r);
    guint32 k = below(r, 64);
    guint32 limit = k < 40 ? 4096u : k < 58 ? 16u * 1024u : k < 63 ? 256u * 1024u : 2048u * 1024u;
    return MAX(1u, MIN(count, limit / MAX(unit, 1u)));
}

/* ---- the chunk list ----------------------------------------------------- */

typedef struct {
    guint8  flags;             /* FZ_REPEAT / FZ_LONG are recomputed on output */
    guint32 count;
    const guint8 *p;
    guint32 len;
    gboolean owned;            /* p is a buffer of this list (writable) */
} mchunk_t;

typedef struct {
    guint8    config;
    mchunk_t *v;
    guint     n, cap;
    const guint8 *tail;        /* input beyond MAX_CHUNKS chunks, kept verbatim */
    size_t    tail_len;
    GPtrArray *bufs;           /* owned payload buffers */
} mlist_t;

static void
ml_init(mlist_t *ml)
{
    memset(ml, 0, sizeof(*ml));
    ml->bufs = g_ptr_array_new_with_free_func(g_free);
}

static void
ml_free(mlist_t *ml)
{
    g_free(ml->v);
    g_ptr_array_free(ml->bufs, TRUE);
}

static guint8 *
ml_alloc(mlist_t *ml, guint32 len)
{
    guint8 *b = (guint8 *)g_malloc(len ? len : 1);
    g_ptr_array_add(ml->bufs, b);
    return b;
}

static void
ml_insert(mlist_t *ml, guint pos, const mchunk_t *c)
{
    if (ml->n == ml->cap) {
        ml->cap = ml->cap ? ml->cap * 2 : 64;
        ml->v = (mchunk_t *)g_realloc(ml->v, ml->cap * sizeof(mchunk_t));
    }
    if (pos > ml->n)
        pos = ml->n;
    memmove(ml->v + pos + 1, ml->v + pos, (ml->n - pos) * sizeof(mchunk_t));
    ml->v[pos] = *c;
    ml->n++;
}

static void
ml_remove(mlist_t *ml, guint pos, guint n)
{
    if (pos >= ml->n)
        return;
    if (n > ml->n - pos)
        n = ml->n - pos;
    memmove(ml->v + pos, ml->v + pos + n, (ml->n - pos - n) * sizeof(mchunk_t));
    ml->n -= n;
}

/* Give chunk i a payload of its own (to write into). */
static guint8 *
ml_writable(mlist_t *ml, guint i)
{
    mchunk_t *c = &ml->v[i];
    if (!c->owned) {
        guint8 *b = ml_alloc(ml, c->len);
        memcpy(b, c->p, c->len);
        c->p = b;
        c->owned = TRUE;
    }
    return (guint8 *)c->p;
}

static void
ml_parse(mlist_t *ml, const guint8 *data, size_t size)
{
    size_t off = 1;
    fz_chunk_t ch;

    ml_init(ml);
    if (size == 0)
        return;
    ml->config = data[0];
    while (ml->n < MAX_CHUNKS) {
        size_t at = off;
        mchunk_t m;
        if (!fz_next_chunk(data, size, &off, &ch)) {
            off = at;
            break;
        }
        m.flags = ch.flags & (FZ_DIR_SERVER | FZ_TRUNCATED | FZ_GAP | FZ_RETRANS);
        m.count = ch.count;
        m.p = ch.payload;
        m.len = ch.len;
        m.owned = FALSE;
        ml_insert(ml, ml->n, &m);
    }
    if (ml->n == MAX_CHUNKS && off < size) {
        ml->tail = data + off;
        ml->tail_len = size - off;
    }
}

static size_t
chunk_size(const mchunk_t *c)
{
    return 3 + (c->len > 0xffff ? 2 : 0) + (c->count > 1 ? 2 : 0) + c->len;
}

/* Write the list; 0 if it does not fit in max. */
static size_t
ml_write(const mlist_t *ml, guint8 *out, size_t max)
{
    size_t o = 1;
    guint i;

    if (max < 1)
        return 0;
    out[0] = ml->config;
    for (i = 0; i < ml->n; i++) {
        const mchunk_t *c = &ml->v[i];
        guint8 flags = c->flags & (FZ_DIR_SERVER | FZ_TRUNCATED | FZ_GAP | FZ_RETRANS);
        if (chunk_size(c) > max - o)
            return 0;
        if (c->len > 0xffff)
            flags |= FZ_LONG;
        if (c->count > 1)
            flags |= FZ_REPEAT;
        out[o++] = flags;
        if (flags & FZ_LONG) {
            out[o++] = (guint8)(c->len >> 24);
            out[o++] = (guint8)(c->len >> 16);
        }
        out[o++] = (guint8)(c->len >> 8);
        out[o++] = (guint8)c->len;
        if (flags & FZ_REPEAT) {
            out[o++] = (guint8)(MIN(c->count, 0xffff) >> 8);
            out[o++] = (guint8)MIN(c->count, 0xffff);
        }
        if (c->len)
            memcpy(out + o, c->p, c->len);
        o += c->len;
    }
    if (ml->tail_len) {
        if (ml->tail_len > max - o)
            return 0;
        memcpy(out + o, ml->tail, ml->tail_len);
        o += ml->tail_len;
    }
    return o;
}

/* ---- TNS framing and TTC messages --------------------------------------- */

static const guint8 ttc_types[] = { 1, 2, 3, 4, 6, 7, 8, 9, 11, 14, 15, 16, 17, 19, 21, 23, 26, 27, 28, 29, 33, 34 };

static gboolean
is_ttc_type(guint8 b)
{
    return memchr(ttc_types, b, sizeof(ttc_types)) != NULL;
}

typedef struct {
    guint   chunk;             /* chunk holding the header (count 1, whole header) */
    guint32 off;               /* header offset in it */
    guint8  form;              /* 2: len(2) checksum(2); 4: len(4) */
    guint8  type;
    guint32 len;               /* declared length */
} pkt_t;

static guint32
get_be(const guint8 *p, guint n)
{
    guint32 v = 0;
    guint i;
    for (i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static void
put_be(guint8 *p, guint n, guint32 v)
{
    guint i;
    for (i = n; i > 0; i--) {
        p[i - 1] = (guint8)v;
        v >>= 8;
    }
}

/* 16- or 32-bit header form: the 32-bit length of a real packet has its top
 * bytes zero, or a 16-bit header its checksum bytes (nearly always zero). */
static guint8
tns_form(const guint8 *h)
{
    if (h[0] == 0 && h[1] == 0)
        return 4;
    if (h[2] != 0 || h[3] != 0)
        return 4;
    return 2;
}

/* Frame the TNS packets of both directions: headers that lie whole in a chunk
 * sent once.  A packet shorter than a header ends the framing of its
 * direction; retransmitted chunks are not part of the byte stream. */
static guint
frame_packets(const mlist_t *ml, pkt_t *pk, guint max)
{
    guint64 pos[2] = { 0, 0 }, next[2] = { 0, 0 };
    gboolean lost[2] = { FALSE, FALSE };
    guint n = 0, i;

    for (i = 0; i < ml->n && n < max; i++) {
        const mchunk_t *c = &ml->v[i];
        int d = c->flags & FZ_DIR_SERVER;
        guint64 span = (guint64)c->len * c->count;
        if (c->flags & FZ_RETRANS)
            continue;
        if (c->flags & FZ_GAP)
            lost[d] = TRUE;
        while (!lost[d] && next[d] < pos[d] + span && n < max) {
            guint64 o = next[d] - pos[d];
            pkt_t *p = &pk[n];
            if (c->count != 1 || o + 8 > c->len) {
                lost[d] = TRUE;     /* header repeated or cut: stop here */
                break;
            }
            p->chunk = i;
            p->off = (guint32)o;
            p->form = tns_form(c->p + o);
            p->type = c->p[o + 4];
            p->len = get_be(c->p + o, p->form);
            if (p->len < 8) {
                lost[d] = TRUE;
                break;
            }
            next[d] += p->len;
            n++;
        }
        pos[d] += span;
    }
    return n;
}

/* Add delta to the length of packet p (clamped to its form). */
static void
pkt_grow(mlist_t *ml, const pkt_t *p, gint64 delta)
{
    guint8 *h = ml_writable(ml, p->chunk) + p->off;
    gint64 v = (gint64)get_be(h, p->form) + delta;
    gint64 top = p->form == 2 ? 0xffff : G_MAXUINT32;
    put_be(h, p->form, (guint32)CLAMP(v, 0, top));
}

/* A message start in a DATA packet whose body begins in its header's chunk:
 * the chunk, the packet, and [*start, *end) of a message unit in that chunk. */
static gboolean
pick_message(rng_t *r, const mlist_t *ml, const pkt_t *pk, guint npk, int want_dir,
             guint *chunk, guint *pkt, guint32 *start, guint32 *end)
{
    guint cand[64];
    guint nc = 0, i, tries;
    const mchunk_t *c;
    const pkt_t *p;
    guint32 body, stop, s, e;
    guint k;

    /* DATA packets with a body in the header's chunk, of the wanted direction
     * (-1 any), sampled: at most 64 candidates from a random start */
    for (tries = 0, i = below(r, npk ? npk : 1); tries < npk && nc < G_N_ELEMENTS(cand); tries++, i = (i + 1) % npk) {
        p = &pk[i];
        c = &ml->v[p->chunk];
        if (p->type != 6 || p->off + 10 >= c->len)
            continue;
        if (want_dir >= 0 && (c->flags & FZ_DIR_SERVER) != want_dir)
            continue;
        cand[nc++] = i;
    }
    if (!nc)
        return FALSE;
    *pkt = cand[below(r, nc)];
    p = &pk[*pkt];
    *chunk = p->chunk;
    c = &ml->v[p->chunk];
    body = p->off + 10;
    stop = (guint32)MIN((guint64)p->off + p->len, (guint64)c->len);
    if (stop <= body)
        stop = c->len;
    s = body;
    if (below(r, 2)) {
        /* any message-type byte of the body */
        guint32 from = body + below(r, stop - body);
        for (k = 0; k < stop - body; k++) {
            guint32 o = body + (from - body + k) % (stop - body);
            if (is_ttc_type(c->p[o])) {
                s = o;
                break;
            }
        }
    }
    /* its end: one of the next few message-type bytes, or the body's end */
    e = stop;
    k = below(r, 4);
    for (i = s + 1; i < stop; i++) {
        if (is_ttc_type(c->p[i]) && k-- == 0) {
            e = i;
            break;
        }
    }
    if (below(r, 4) == 0)
        e = stop;
    *start = s;
    *end = e;
    return e > s;
}

/* Insert count copies of unit at offset at of chunk ci, inside packet p (its
 * length grows by as much).  Inline if small and it fits, else as a repeat
 * chunk: the chunk is cut around it. */
static gboolean
insert_units(rng_t *r, mlist_t *ml, guint ci, guint32 at, const guint8 *unit, guint32 ulen, guint32 count,
             const pkt_t *p, size_t room)
{
    guint64 add = (guint64)ulen * count;
    mchunk_t c = ml->v[ci];

    gboolean inline_ = add <= room && add <= 65536 && (count == 1 || below(r, 2));

    if (!ulen || !count || (!inline_ && (ulen + 16 > room || count > 0xffff)))
        return FALSE;
    if (p)
        pkt_grow(ml, p, (gint64)add);
    c = ml->v[ci];                                 /* pkt_grow may have copied it */
    if (inline_) {
        guint8 *b = ml_alloc(ml, (guint32)(c.len + add));
        guint64 k;
        memcpy(b, c.p, at);
        for (k = 0; k < count; k++)
            memcpy(b + at + k * ulen, unit, ulen);
        memcpy(b + at + add, c.p + at, c.len - at);
        ml->v[ci].p = b;
        ml->v[ci].len = (guint32)(c.len + add);
        ml->v[ci].owned = TRUE;
        return TRUE;
    } else {
        mchunk_t rep, rest;
        guint8 *u = ml_alloc(ml, ulen);
        memcpy(u, unit, ulen);
        rep.flags = rest.flags = c.flags & FZ_DIR_SERVER;
        rep.count = count;
        rep.p = u;
        rep.len = ulen;
        rep.owned = TRUE;
        rest.count = 1;
        rest.p = c.p + at;
        rest.len = c.len - at;
        rest.owned = FALSE;
        ml->v[ci].len = at;                          /* the head keeps the flags */
        if (rest.len)
            ml_insert(ml, ci + 1, &rest);
        ml_insert(ml, ci + 1, &rep);
        return TRUE;
    }
}

static size_t
ml_size(const mlist_t *ml)
{
    size_t s = 1 + ml->tail_len;
    guint i;
    for (i = 0; i < ml->n; i++)
        s += chunk_size(&ml->v[i]);
    return s;
}

/* ---- operations --------------------------------------------------------- */

enum {
    OP_BYTES, OP_WHOLE, OP_DUP, OP_REPEAT, OP_DELETE, OP_FLAGS, OP_MSGREP, OP_NEST,
    OP_MSGCOPY, OP_TNSLEN, OP_SDU, OP_RESEGMENT, OP_WINDOW, OP_COUNT
};

/* weights, in the order above */
static const guint8 op_weight[OP_COUNT] = { 18, 12, 7, 6, 5, 4, 12, 14, 6, 7, 5, 4, 6 };

static guint
pick_op(rng_t *r)
{
    guint total = 0, i, x;
    for (i = 0; i < OP_COUNT; i++)
        total += op_weight[i];
    x = below(r, total);
    for (i = 0; i < OP_COUNT; i++) {
        if (x < op_weight[i])
            return i;
        x -= op_weight[i];
    }
    return OP_WHOLE;
}

static gboolean
op_bytes(rng_t *r, mlist_t *ml, size_t max)
{
    guint i;
    mchunk_t *c;
    size_t room, cap, n;
    guint8 *b;

    if (!ml->n)
        return FALSE;
    i = below(r, ml->n);
    c = &ml->v[i];
    room = max > ml_size(ml) ? max - ml_size(ml) : 0;
    cap = c->len + MIN(room, (size_t)MAX(64u, c->len));
    if (cap > 0xffffff)
        cap = 0xffffff;
    if (cap == 0)
        return FALSE;
    b = ml_alloc(ml, (guint32)cap);
    memcpy(b, c->p, c->len);
    if (c->len == 0)
        b[0] = (guint8)rnd(r);          /* libFuzzer's mutators want a byte */
    n = LLVMFuzzerMutate(b, MAX(c->len, 1u), cap);
    c->p = b;
    c->len = (guint32)n;
    c->owned = TRUE;
    return TRUE;
}

static gboolean
op_dup(rng_t *r, mlist_t *ml, size_t max)
{
    mchunk_t run[8];
    guint i, n, copies, k, j, at;
    size_t add = 0;

    if (!ml->n)
        return FALSE;
    i = below(r, ml->n);
    n = below(r, 4) ? 1 : 1 + below(r, MIN(ml->n - i, (guint)G_N_ELEMENTS(run)));
    copies = below(r, 2) ? 1 : 1 + below(r, 16);
    for (j = 0; j < n; j++) {
        run[j] = ml->v[i + j];
        run[j].flags &= FZ_DIR_SERVER | FZ_TRUNCATED;
        run[j].owned = FALSE;                 /* shared: both copy before writing */
        ml->v[i + j].owned = FALSE;
        add += chunk_size(&run[j]);
    }
    if (ml_size(ml) + add * copies > max)
        return FALSE;
    at = below(r, 2) ? i + n : below(r, ml->n + 1);
    for (k = 0; k < copies; k++)
        for (j = 0; j < n; j++)
            ml_insert(ml, at++, &run[j]);
    return TRUE;
}

static gboolean
op_repeat(rng_t *r, mlist_t *ml, size_t max)
{
    mchunk_t *c;

    if (!ml->n)
        return FALSE;
    c = &ml->v[below(r, ml->n)];
    if (c->count > 1 && below(r, 4) == 0)
        c->count = 1;
    else if (below(r, 32) == 0 && c->len <= 64)
        c->count = 1 + below(r, 0xffff);
    else
        c->count = 1 + pick_count_for(r, c->len);
    return ml_size(ml) <= max;
}

/* Keep a run of chunks that carries 1-16 KiB once repeats are expanded
 * (what the harness dissects): a short input out of a long one, which runs
 * many times faster.  From a chunk past the first, mostly as a conversation
 * picked up mid-session (no TCP handshake). */
static gboolean
op_window(rng_t *r, mlist_t *ml)
{
    guint i, j;
    guint64 want, got = 0;

    if (ml->n < 3)
        return FALSE;
    want = 1024u << below(r, 5);                    /* 1, 2, 4, 8, 16 KiB */
    i = below(r, 4) ? below(r, ml->n - 1) : 0;
    for (j = i; j < ml->n; j++) {
        guint64 add = (guint64)ml->v[j].len * MAX(ml->v[j].count, 1u);
        if (j > i && got + add > want)
            break;
        got += add;
    }
    if (i == 0 && j == ml->n)
        return FALSE;
    ml_remove(ml, j, ml->n - j);
    ml_remove(ml, 0, i);
    ml->tail = NULL;
    ml->tail_len = 0;
    if (i > 0 && below(r, 4))
        ml->config |= 0x02;
    return TRUE;
}

static gboolean
op_delete(rng_t *r, mlist_t *ml)
{
    guint i;

    if (ml->n < 2)
        return FALSE;
    i = below(r, ml->n);
    ml_remove(ml, i, below(r, 4) ? 1 : 1 + below(r, ml->n - i));
    return TRUE;
}

static gboolean
op_flags(rng_t *r, mlist_t *ml)
{
    static const guint8 bits[] = { FZ_DIR_SERVER, FZ_TRUNCATED, FZ_GAP, FZ_RETRANS };

    if (!ml->n) {
        ml->config ^= (guint8)(1u << below(r, 2));
        return TRUE;
    }
    if (below(r, 16) == 0)
        ml->config ^= (guint8)(1u << below(r, 2));
    else
        ml->v[below(r, ml->n)].flags ^= bits[below(r, G_N_ELEMENTS(bits))];
    return TRUE;
}

static gboolean
op_msgrep(rng_t *r, mlist_t *ml, const pkt_t *pk, guint npk, size_t max)
{
    guint ci, pi;
    guint32 s, e;
    guint8 *unit;
    size_t size = ml_size(ml);

    if (!pick_message(r, ml, pk, npk, below(r, 3) ? 0 : -1, &ci, &pi, &s, &e))
        return FALSE;
    /* the unit is copied: inserting may replace the chunk's payload */
    unit = ml_alloc(ml, e - s);
    memcpy(unit, ml->v[ci].p + s, e - s);
    return insert_units(r, ml, ci, e, unit, e - s, pick_count_for(r, e - s), &pk[pi], max > size ? max - size : 0);
}

static gboolean
op_nest(rng_t *r, mlist_t *ml, const pkt_t *pk, guint npk, size_t max)
{
    guint8 hdr[8];
    guint32 hlen, s, e, k;
    guint ci, pi;
    size_t size = ml_size(ml);

    if (!pick_message(r, ml, pk, npk, below(r, 4) ? 0 : -1, &ci, &pi, &s, &e))
        return FALSE;
    switch (below(r, 4)) {
    case 0:
    case 1:                            /* fast authentication: type, version, flags */
        hdr[0] = 0x22;
        if (below(r, 2)) {
            hdr[1] = 0x01;
            hdr[2] = 0x01;
            hdr[3] = 0x00;
        } else {
            hdr[1] = hdr[2] = hdr[3] = 0x00;
        }
        hlen = 4;
        break;
    case 2:                            /* a message type and a few bytes */
        hdr[0] = ttc_types[below(r, sizeof(ttc_types))];
        hlen = 1 + below(r, 4);
        for (k = 1; k < hlen; k++)
            hdr[k] = (guint8)(below(r, 2) ? 0 : rnd(r));
        break;
    default:                           /* the message's own first bytes */
        hlen = MIN(e - s, 1 + below(r, 8));
        memcpy(hdr, ml->v[ci].p + s, hlen);
        break;
    }
    return insert_units(r, ml, ci, s, hdr, hlen, pick_count_for(r, hlen), &pk[pi], max > size ? max - size : 0);
}

/* A TTC message of src (a DATA packet body) into a DATA packet of dst. */
static gboolean
splice_message(rng_t *r, mlist_t *dst, const pkt_t *dpk, guint ndpk, const mlist_t *src,
               const pkt_t *spk, guint nspk, size_t max)
{
    guint sci, spi, dci, dpi;
    guint32 ss, se, ds, de;
    guint8 *unit;
    size_t size = ml_size(dst);

    if (!pick_message(r, src, spk, nspk, -1, &sci, &spi, &ss, &se))
        return FALSE;
    if (!pick_message(r, dst, dpk, ndpk, src->v[sci].flags & FZ_DIR_SERVER, &dci, &dpi, &ds, &de))
        return FALSE;
    unit = ml_alloc(dst, se - ss);
    memcpy(unit, src->v[sci].p + ss, se - ss);
    return insert_units(r, dst, dci, below(r, 2) ? ds : de, unit, se - ss, below(r, 4) ? 1 : pick_count_for(r, se - ss),
                        &dpk[dpi], max > size ? max - size : 0);
}

static gboolean
op_tnslen(rng_t *r, mlist_t *ml, const pkt_t *pk, guint npk)
{
    static const guint8 tns_types[] = { 1, 2, 4, 5, 6, 11, 12, 14 };
    static const guint32 extreme[] = { 0, 7, 8, 10, 11, 0xff, 0x100, 0x7fff, 0xffff, 0x10000,
                                       2097152, 2097153, 0x7fffffff, 0xffffffff };
    const pkt_t *p;
    mchunk_t *c;
    guint8 *h;
    guint32 v;

    if (!npk)
        return FALSE;
    p = &pk[below(r, npk)];
    c = &ml->v[p->chunk];
    switch (below(r, 5)) {
    case 0:                            /* to the end of its chunk */
        v = c->len - p->off;
        break;
    case 1:                            /* off by a little */
        v = p->len + below(r, 33) - 16;
        break;
    case 2:
        v = extreme[below(r, G_N_ELEMENTS(extreme))];
        break;
    case 3:                            /* the other header form (same size) */
        h = ml_writable(ml, p->chunk) + p->off;
        if (p->form == 2) {
            put_be(h, 4, p->len);
        } else {
            put_be(h, 2, MIN(p->len, 0xffff));
            h[2] = h[3] = 0;
        }
        return TRUE;
    default:                           /* the packet's type */
        h = ml_writable(ml, p->chunk) + p->off;
        h[4] = below(r, 2) ? tns_types[below(r, G_N_ELEMENTS(tns_types))] : (guint8)below(r, 20);
        return TRUE;
    }
    h = ml_writable(ml, p->chunk) + p->off;
    put_be(h, p->form, p->form == 2 ? MIN(v, 0xffff) : v);
    return TRUE;
}

/* Cut a DATA packet that lies whole in one chunk into packets of an SDU. */
static gboolean
op_sdu(rng_t *r, mlist_t *ml, const pkt_t *pk, guint npk, size_t max)
{
    static const guint32 sdus[] = { 512, 1024, 2048, 8192, 8192, 8192, 16384, 32767 };
    const pkt_t *p = NULL;
    const mchunk_t *c;
    guint i, tries, npkts;
    guint32 sdu, piece, body, blen, o;
    guint8 *b;
    size_t need;

    for (tries = 0; tries < 8 && npk; tries++) {
        const pkt_t *q = &pk[below(r, npk)];
        if (q->type == 6 && q->len > 10 && (guint64)q->off + q->len <= ml->v[q->chunk].len) {
            p = q;
            break;
        }
    }
    if (!p)
        return FALSE;
    c = &ml->v[p->chunk];
    sdu = below(r, 4) ? sdus[below(r, G_N_ELEMENTS(sdus))] : 11 + below(r, 8192);
    if (p->form == 2)
        sdu = MIN(sdu, 0xffff);
    piece = sdu - 10;
    body = p->off + 10;
    blen = p->len - 10;
    npkts = (blen + piece - 1) / piece;
    need = (size_t)c->len + (size_t)(npkts - 1) * 10;
    if (npkts < 2 || npkts > 4096 || ml_size(ml) + (need - c->len) > max)
        return FALSE;
    b = ml_alloc(ml, (guint32)need);
    memcpy(b, c->p, p->off);
    o = p->off;
    for (i = 0; i < npkts; i++) {
        guint32 n = MIN(piece, blen - i * piece);
        memcpy(b + o, c->p + p->off, 10);           /* header and data flags */
        put_be(b + o, p->form, n + 10);
        memcpy(b + o + 10, c->p + body + i * piece, n);
        o += 10 + n;
    }
    memcpy(b + o, c->p + p->off + p->len, c->len - p->off - p->len);
    ml->v[p->chunk].p = b;
    ml->v[p->chunk].len = (guint32)need;
    ml->v[p->chunk].owned = TRUE;
    return TRUE;
}

static gboolean
op_resegment(rng_t *r, mlist_t *ml, size_t max)
{
    guint i, j;
    mchunk_t *c;

    if (!ml->n)
        return FALSE;
    i = below(r, ml->n);
    c = &ml->v[i];
    if (below(r, 2) && c->count == 1) {
        /* join with the next chunk of the same direction */
        for (j = i + 1; j < ml->n; j++)
            if ((ml->v[j].flags & FZ_DIR_SERVER) == (c->flags & FZ_DIR_SERVER))
                break;
        if (j < ml->n && ml->v[j].count == 1 && (guint64)c->len + ml->v[j].len <= 0xffffff) {
            guint8 *b = ml_alloc(ml, c->len + ml->v[j].len);
            memcpy(b, c->p, c->len);
            memcpy(b + c->len, ml->v[j].p, ml->v[j].len);
            c->len += ml->v[j].len;
            c->p = b;
            c->owned = TRUE;
            ml_remove(ml, j, 1);
            return TRUE;
        }
    }
    if (c->len >= 2 && c->count == 1 && ml_size(ml) + 3 <= max) {
        mchunk_t rest = *c;
        guint32 at = 1 + below(r, c->len - 1);
        rest.flags &= FZ_DIR_SERVER | FZ_TRUNCATED;
        rest.p += at;
        rest.len -= at;
        rest.owned = FALSE;
        c->len = at;
        ml_insert(ml, i + 1, &rest);
        return TRUE;
    }
    return FALSE;
}

/* ---- entry points ------------------------------------------------------- */

static size_t
whole(uint8_t *data, size_t size, size_t max)
{
    if (size == 0 && max > 0) {
        data[0] = 0;
        size = 1;
    }
    return LLVMFuzzerMutate(data, size, max);
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    rng_t r;
    mlist_t ml;
    pkt_t *pk;
    guint npk, op, rounds, i;
    gboolean done = FALSE;
    guint8 *out;
    size_t n = 0;

    r.s = seed;
    rnd(&r);
    op = pick_op(&r);
    if (op == OP_WHOLE || size < 1 || max_size < 2)
        return whole(data, size, max_size);

    ml_parse(&ml, data, size);
    pk = g_new(pkt_t, MAX_PACKETS);
    /* one operation, now and then a few in a row */
    rounds = below(&r, 8) ? 1 : 2 + below(&r, 3);
    for (i = 0; i < rounds; i++, op = pick_op(&r)) {
        npk = frame_packets(&ml, pk, MAX_PACKETS);
        switch (op) {
        case OP_BYTES:     done |= op_bytes(&r, &ml, max_size); break;
        case OP_DUP:       done |= op_dup(&r, &ml, max_size); break;
        case OP_REPEAT:    done |= op_repeat(&r, &ml, max_size); break;
        case OP_DELETE:    done |= op_delete(&r, &ml); break;
        case OP_FLAGS:     done |= op_flags(&r, &ml); break;
        case OP_MSGREP:    done |= op_msgrep(&r, &ml, pk, npk, max_size); break;
        case OP_NEST:      done |= op_nest(&r, &ml, pk, npk, max_size); break;
        case OP_MSGCOPY:   done |= splice_message(&r, &ml, pk, npk, &ml, pk, npk, max_size); break;
        case OP_TNSLEN:    done |= op_tnslen(&r, &ml, pk, npk); break;
        case OP_SDU:       done |= op_sdu(&r, &ml, pk, npk, max_size); break;
        case OP_RESEGMENT: done |= op_resegment(&r, &ml, max_size); break;
        case OP_WINDOW:    done |= op_window(&r, &ml); break;
        default: break;
        }
    }
    g_free(pk);
    if (done && ml_size(&ml) <= max_size) {
        out = (guint8 *)g_malloc(ml_size(&ml));
        n = ml_write(&ml, out, ml_size(&ml));
        if (n)
            memcpy(data, out, n);
        g_free(out);
    }
    ml_free(&ml);
    return n ? n : whole(data, size, max_size);
}

size_t
LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                          uint8_t *out, size_t max_out_size, unsigned int seed)
{
    rng_t r;
    mlist_t a, b;
    size_t n = 0;

    r.s = seed;
    rnd(&r);
    if (size1 < 1 || max_out_size < 1)
        return 0;
    ml_parse(&a, data1, size1);
    ml_parse(&b, data2, size2);
    if (below(&r, 3) == 0 && a.n && b.n) {
        /* a TTC message of the second input into a DATA packet of the first */
        pkt_t *pa = g_new(pkt_t, MAX_PACKETS), *pb = g_new(pkt_t, MAX_PACKETS);
        guint na = frame_packets(&a, pa, MAX_PACKETS), nb = frame_packets(&b, pb, MAX_PACKETS);
        if (splice_message(&r, &a, pa, na, &b, pb, nb, max_out_size))
            n = ml_write(&a, out, max_out_size);
        g_free(pa);
        g_free(pb);
    }
    if (!n && b.n) {
        /* chunks of the second input into the first: a run, or the whole rest */
        guint at = below(&r, a.n + 1), from = below(&r, b.n), k, len;
        len = below(&r, 2) ? b.n - from : 1 + below(&r, MIN(b.n - from, 16u));
        if (below(&r, 2))
            ml_remove(&a, at, a.n - at);           /* the rest of the first is replaced */
        for (k = 0; k < len; k++) {
            mchunk_t c = b.v[from + k];
            c.owned = FALSE;
            ml_insert(&a, at + k, &c);
        }
        n = ml_write(&a, out, max_out_size);
    }
    ml_free(&a);
    ml_free(&b);
    return n;
}
