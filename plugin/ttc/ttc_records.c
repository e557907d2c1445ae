/* ttc_records.c - a session's TTC records (one per TNS packet) and its
 * server-segment markers (one per server frame), in the session's own
 * store: no per-frame proto-data entry for either.
 *
 * The first pass adds them in frame order, so a record's key (its frame,
 * then the raw offset of its payload) nearly always sorts after the
 * latest one's: such a record goes into the current chunk of the store,
 * inline beside its 8-byte key, and is found again by a binary search over
 * the chunks and then within one.  Chunks never move (a record's address
 * stays valid) and grow with the store (a quarter of the records so far, within
 * bounds), so a short conversation keeps small chunks.  A key that does not
 * sort after the latest one (a frame whose payloads come from two buffers:
 * a reassembled TNS packet and the segment's own bytes) goes into a tree,
 * looked up as well.  The segment markers are kept the same way: an array
 * of frames in the order they come, and a tree for a frame that comes late
 * (tshark -2 runs the "tcp" tap on its second pass only).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc.h"
#include "ttc_internal.h"

#define CHUNK_MIN 4u
#define SLAB_MIN 2u
#define CHUNK_MAX 1024u

typedef struct rec_key {
    guint32 frame;
    guint32 key;
} rec_key_t;

/* One allocation: the header, `cap` keys, `cap` records. */
struct ttc_rec_chunk {
    guint32 n, cap;
    ttc_pdu_rec_t *recs;
    rec_key_t keys[];
};

static int
key_cmp(guint32 f1, guint32 k1, const rec_key_t *b)
{
    if (f1 != b->frame)
        return f1 < b->frame ? -1 : 1;
    if (k1 != b->key)
        return k1 < b->key ? -1 : 1;
    return 0;
}

ttc_pdu_rec_t *
ttc_rec_find(const ttc_session_t *ts, guint32 frame, guint32 key)
{
    const ttc_rec_store_t *st = &ts->recs;
    guint32 lo = 0, hi = st->nchunks;
    const struct ttc_rec_chunk *c;

    if (hi) {                          /* the newest: the first pass's own packet */
        c = st->chunks[hi - 1];
        if (c->n) {
            int cmp = key_cmp(frame, key, &c->keys[c->n - 1]);
            if (cmp == 0)
                return &c->recs[c->n - 1];
            /* past the newest: a packet the first pass has not reached yet
             * (its every lookup before ttc_rec_new); `later` holds only keys
             * below the newest of their time, so none is there either */
            if (cmp > 0)
                return NULL;
        }
    }
    while (lo < hi) {                  /* the first chunk whose first key is above */
        guint32 mid = lo + (hi - lo) / 2;
        if (key_cmp(frame, key, &st->chunks[mid]->keys[0]) >= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0) {
        c = st->chunks[lo - 1];
        lo = 0;
        hi = c->n;
        while (lo < hi) {
            guint32 mid = lo + (hi - lo) / 2;
            int cmp = key_cmp(frame, key, &c->keys[mid]);
            if (cmp == 0)
                return &c->recs[mid];
            if (cmp > 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    if (st->later) {
        guint32 k[2] = { frame, key };
        wmem_tree_key_t tk[2] = { { 2, k }, { 0, NULL } };
        return (ttc_pdu_rec_t *)wmem_tree_lookup32_array(st->later, tk);
    }
    return NULL;
}

ttc_pdu_rec_t *
ttc_rec_new(ttc_session_t *ts, guint32 frame, guint32 key)
{
    ttc_rec_store_t *st = &ts->recs;
    struct ttc_rec_chunk *c = st->nchunks ? st->chunks[st->nchunks - 1] : NULL;
    ttc_pdu_rec_t *rec;

    if (c && key_cmp(frame, key, &c->keys[c->n - 1]) <= 0) {
        guint32 k[2] = { frame, key };
        wmem_tree_key_t tk[2] = { { 2, k }, { 0, NULL } };
        if (!st->later)
            st->later = wmem_tree_new(wmem_file_scope());
        rec = wmem_new0(wmem_file_scope(), ttc_pdu_rec_t);
        wmem_tree_insert32_array(st->later, tk, rec);
        return rec;
    }
    if (!c || c->n == c->cap) {
        guint32 cap = CLAMP(st->nrecs / 4, CHUNK_MIN, CHUNK_MAX);
        gsize head = sizeof(struct ttc_rec_chunk) + (gsize)cap * sizeof(rec_key_t);
        if (st->nchunks == st->chunks_cap) {
            st->chunks_cap = st->chunks_cap ? st->chunks_cap * 2 : 4;
            st->chunks = (struct ttc_rec_chunk **)wmem_realloc(wmem_file_scope(), st->chunks,
                                                               st->chunks_cap * sizeof(*st->chunks));
        }
        c = (struct ttc_rec_chunk *)wmem_alloc(wmem_file_scope(), head + (gsize)cap * sizeof(ttc_pdu_rec_t));
        c->n = 0;
        c->cap = cap;
        c->recs = (ttc_pdu_rec_t *)(void *)((guint8 *)c + head);
        st->chunks[st->nchunks++] = c;
    }
    c->keys[c->n].frame = frame;
    c->keys[c->n].key = key;
    rec = &c->recs[c->n++];
    memset(rec, 0, sizeof(*rec));
    st->nrecs++;
    return rec;
}

void
ttc_rec_frame_seen(ttc_session_t *ts, const packet_info *pinfo)
{
    ttc_rec_store_t *st = &ts->recs;
    guint32 frame = pinfo->num;

    if (frame == st->seen_frame && pinfo->fd->file_off != st->seen_off) {
        /* the dropped frame was the latest: its records end the last chunks */
        while (st->nchunks) {
            struct ttc_rec_chunk *c = st->chunks[st->nchunks - 1];
            while (c->n && c->keys[c->n - 1].frame == frame) {
                ttc_pdu_rec_t *rec = &c->recs[--c->n];
                if (rec->has_more)
                    wmem_map_remove(st->more, rec);
                st->nrecs--;
            }
            if (c->n)
                break;
            st->nchunks--;             /* (its memory goes with the file scope) */
        }
        while (st->nsegs && st->seg_frames[st->nsegs - 1] == frame)
            st->nsegs--;
    }
    st->seen_frame = frame;
    st->seen_off = pinfo->fd->file_off;
}

/* Server-segment markers: frames in an array (with their marks beside), in
 * the order they come; a frame below the latest in a tree. */
static gboolean
seg_index(const ttc_rec_store_t *st, guint32 frame, guint32 *at)
{
    guint32 lo = 0, hi = st->nsegs;

    if (hi && st->seg_frames[hi - 1] <= frame) {
        /* the newest or after it: the first pass's own frame */
        *at = hi - 1;
        return st->seg_frames[hi - 1] == frame;
    }
    while (lo < hi) {
        guint32 mid = lo + (hi - lo) / 2;
        if (st->seg_frames[mid] == frame) {
            *at = mid;
            return TRUE;
        }
        if (st->seg_frames[mid] < frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    return FALSE;
}

guint
ttc_seg_mark(const ttc_session_t *ts, guint32 frame)
{
    const ttc_rec_store_t *st = &ts->recs;
    guint32 at;

    if (seg_index(st, frame, &at))
        return st->seg_marks[at];
    if (st->segs_later)
        return GPOINTER_TO_UINT(wmem_tree_lookup32(st->segs_later, frame));
    return 0;
}

void
ttc_seg_mark_set(ttc_session_t *ts, guint32 frame, guint mark)
{
    ttc_rec_store_t *st = &ts->recs;
    guint32 at;

    if (seg_index(st, frame, &at)) {
        st->seg_marks[at] = (guint8)mark;
        return;
    }
    if (st->nsegs && frame < st->seg_frames[st->nsegs - 1]) {
        if (!st->segs_later)
            st->segs_later = wmem_tree_new(wmem_file_scope());
        wmem_tree_insert32(st->segs_later, frame, GUINT_TO_POINTER(mark));
        return;
    }
    if (st->nsegs == st->segs_cap) {
        st->segs_cap = st->segs_cap ? st->segs_cap * 2 : 8;
        st->seg_frames = (guint32 *)wmem_realloc(wmem_file_scope(), st->seg_frames,
                                                 st->segs_cap * sizeof(guint32));
        st->seg_marks = (guint8 *)wmem_realloc(wmem_file_scope(), st->seg_marks, st->segs_cap);
    }
    st->seg_frames[st->nsegs] = frame;
    st->seg_marks[st->nsegs++] = (guint8)mark;
}

/* Start states: chunks of 4, 4, 8, 8, 16, 16 ... 1,024 states (a short
 * session's last chunk wastes little), then 1,024 each; a state's index
 * gives its chunk and place without a search (a walk over the 16 first
 * chunks at most). */
#define START_SMALL_CHUNKS 16u                      /* chunks of 4 .. 512 */
#define START_SMALL_TOTAL 2040u                     /* the states they hold */

static guint32
start_chunk_cap(guint32 chunk)
{
    return chunk < START_SMALL_CHUNKS ? 4u << (chunk / 2) : CHUNK_MAX;
}

static void
start_place(guint32 idx, guint32 *chunk, guint32 *at)
{
    if (idx < START_SMALL_TOTAL) {
        guint32 k = 0;
        while (idx >= start_chunk_cap(k)) {
            idx -= start_chunk_cap(k);
            k++;
        }
        *chunk = k;
        *at = idx;
    } else {
        *chunk = START_SMALL_CHUNKS + (idx - START_SMALL_TOTAL) / CHUNK_MAX;
        *at = (idx - START_SMALL_TOTAL) % CHUNK_MAX;
    }
}

const ttc_state_kept_t *
ttc_start_at(const ttc_session_t *ts, guint32 idx)
{
    guint32 chunk, at;

    start_place(idx, &chunk, &at);
    return &ts->recs.starts[chunk][at];
}

static gboolean
start_equal(const ttc_state_kept_t *a, const ttc_state_kept_t *b)
{
    return a->dialect == b->dialect && a->describe == b->describe && a->bitvec == b->bitvec &&
           a->last_row == b->last_row && a->bitvec_len == b->bitvec_len &&
           a->rxh_columns == b->rxh_columns && a->rxh_bv_bytes == b->rxh_bv_bytes;
}

/* The index of a start state: the latest one of the direction's records or
 * the latest kept when equal (a client packet nearly always starts from the
 * state the response before it left, and a response from its request's),
 * else a new one. */
guint32
ttc_start_intern(ttc_session_t *ts, gboolean server, const ttc_state_kept_t *k)
{
    ttc_rec_store_t *st = &ts->recs;
    guint d = server ? 1 : 0;
    guint32 chunk, at;

    if (st->nstarts) {
        if (start_equal(st->start_last_p[d], k))
            return st->start_last[d];
        if (start_equal(st->start_newest, k)) {
            st->start_last_p[d] = st->start_newest;
            return st->start_last[d] = st->nstarts - 1;
        }
    }
    start_place(st->nstarts, &chunk, &at);
    if (at == 0) {
        guint32 cap = start_chunk_cap(chunk);
        if (chunk == st->starts_cap) {
            st->starts_cap = st->starts_cap ? st->starts_cap * 2 : 4;
            st->starts = (ttc_state_kept_t **)wmem_realloc(wmem_file_scope(), st->starts,
                                                           st->starts_cap * sizeof(*st->starts));
        }
        st->starts[chunk] = wmem_alloc_array(wmem_file_scope(), ttc_state_kept_t, cap);
    }
    st->starts[chunk][at] = *k;
    /* the other direction's latest, when there is none yet, is this one too */
    if (!st->nstarts)
        st->start_last_p[1 - d] = &st->starts[chunk][at];
    st->start_last_p[d] = st->start_newest = &st->starts[chunk][at];
    return st->start_last[d] = st->nstarts++;
}

/* Requests and responses (one each per round trip): bumped out of chunks of
 * 2 to 1,024 (a quarter of those the session has so far: a short session
 * wastes little), zeroed, with no
 * allocator header each; a chunk is never moved or freed before the file. */
static void *
slab_new(guint8 **slab, guint32 *left, guint32 *count, gsize size)
{
    void *p;

    if (*left == 0) {
        guint32 n = CLAMP(*count / 4, SLAB_MIN, CHUNK_MAX);
        *slab = (guint8 *)wmem_alloc0(wmem_file_scope(), size * n);
        *left = n;
    }
    p = *slab;
    *slab += size;
    (*left)--;
    (*count)++;
    return p;
}

ttc_request_t *
ttc_request_new(ttc_session_t *ts)
{
    ttc_rec_store_t *st = &ts->recs;
    return (ttc_request_t *)slab_new(&st->req_slab, &st->req_slab_left, &st->nreqs, sizeof(ttc_request_t));
}

ttc_response_t *
ttc_response_new(ttc_session_t *ts)
{
    ttc_rec_store_t *st = &ts->recs;
    return (ttc_response_t *)slab_new(&st->resp_slab, &st->resp_slab_left, &st->nresps, sizeof(ttc_response_t));
}
