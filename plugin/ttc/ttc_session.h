/* ttc_session.h - per-conversation TTC state: each direction's stream (pending
 * bytes of a message cut by a packet boundary), cursors and their
 * statements, requests waiting for their response, the dialect.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_SESSION_H
#define SQLNET_TTC_SESSION_H

#include "ttc_result.h"

/* Per-conversation TTC state. */
typedef struct ttc_stream {
    guint8  *pending;          /* bytes of a message not yet complete */
    guint32  pending_len;
    guint32  pending_cap;      /* allocated size of `pending` (grows by doubling) */
    guint64  pending_work;     /* bytes decoded so far trying to complete it */
    const guint8 *bitvec_kept; /* last bit vector copied into file scope (reused when equal) */
    guint16  bitvec_kept_len;
    guint8   pending_cb;               /* the file scope frees `pending` at its end (ttc_pending_free_at_end) */
    const ttc_row_values_t *last_row_kept; /* last row values copied into file scope */
    ttc_state_t state;
    gboolean opaque;           /* undecodable until the next request/response */
    gboolean opaque_cut;       /* ... because the capture cut a packet short */
    gboolean opaque_call_data; /* ... because a call's bind data continues (not walked) */
    gboolean opaque_undecoded; /* ... a call body that could not be read */
} ttc_stream_t;

typedef struct ttc_cursor {
    const char *sql;
    const ttc_describe_t *describe;
    const ttc_describe_t *binds;       /* bind metadata of the execute that named it (NULL: none):
                                        * ojdbc's re-executes send the values alone (decoders/) */
    guint32 returning_binds;           /* ... its DML RETURNING binds */
    guint64 rowcount;
    guint32 execution;                 /* current execution on this cursor */
    gboolean exhausted;                /* its last end-of-call status said no more rows (1403) */
} ttc_cursor_t;

/* A session's TTC records and server-segment markers (ttc_records.c). */
struct ttc_rec_chunk;
typedef struct ttc_rec_store {
    struct ttc_rec_chunk **chunks;     /* records by (frame, payload offset), in key order */
    guint32 nchunks, chunks_cap;
    guint32 nrecs;                     /* records in the chunks */
    wmem_tree_t *later;                /* records whose key came below the latest one's */
    wmem_map_t *more;                  /* what few records have (ttc_pdu_more_t), by record */
    guint32 *seg_frames;               /* server frames marked (ttc_segments.c), ascending, */
    guint8 *seg_marks;                 /* ... their marks */
    guint32 nsegs, segs_cap;
    wmem_tree_t *segs_later;           /* frames marked after a later one */
    guint32 seen_frame;                /* the first pass's latest frame (number, file */
    gint64 seen_off;                   /* ... offset): ttc_rec_frame_seen() */
    struct ttc_state_kept **starts;    /* the records' start states, each kept once while */
    guint32 nstarts, starts_cap;       /* ... it repeats (ttc_start_intern): chunks of 8, 16, */
    guint32 start_last[2];             /* ... 32 ... 1,024; the latest index per direction, */
    const struct ttc_state_kept *start_last_p[2], *start_newest;   /* ... it, and the newest */
    /* its requests and responses, side by side in chunks without an
     * allocator header each (ttc_rt_slab_new) */
    guint8 *req_slab, *resp_slab;
    guint32 req_slab_left, resp_slab_left, nreqs, nresps;
} ttc_rec_store_t;

typedef struct ttc_session {
    nstime_t last_resp_end;            /* last byte of the latest response (or the ACCEPT) */
    guint32  ack_from;                 /* the frame that made the session (observers count from there) */
    /* Server TCP segments seen while no response was open (its first TNS
     * packet still being reassembled): the next response's first ones. */
    guint32  pending_segments;
    gboolean pending_unseen;           /* ... some that sqlnet never got (reassembled by TCP) */
    guint32  pending_largest_segment;  /* ... the largest of them (payload bytes) */
    guint32  last_close_frame;         /* frame that ended the latest response */
    guint32  next_first_frame;         /* the first of them */
    nstime_t next_first_time;
    gboolean has_last_resp_end;
    ttc_dialect_t dialect;             /* working copy */
    const ttc_dialect_t *dialect_ptr;  /* immutable snapshot of it */
    ttc_stream_t dir[2];               /* [SQLNET_TO_SERVER], [SQLNET_TO_CLIENT] */
    ttc_request_t *req;                /* latest request */
    /* requests without a response yet, oldest first (waitq[wait_head] on,
     * wait_n of them): one, or several in a pipeline (each ended by the
     * end-of-request flag), answered in order; a queue of the session's
     * rather than a link in each request (which keeps it after it is answered) */
    ttc_request_t **waitq;
    guint32 wait_head, wait_n, wait_cap;
    guint32 client_prev_frame;         /* the latest request's last frame and time (client_prev_time) before
                                        * the client packet being noted (client-only captures) */
    ttc_response_t *resp;              /* open response, NULL between them */
    /* Its responses in the order they opened, by cover_from (segment
     * counting: ttc_segments.c), which never decreases from one to the next
     * (responses_later: one that would, in case; a tree made then) */
    struct ttc_response **responses;
    guint32 nresponses, responses_cap;
    wmem_tree_t *responses_later;
    wmem_map_t *closed;                /* the response each request that cut one short cut (ttc_req_closed) */
    wmem_tree_t *cursors;              /* cursor id -> ttc_cursor_t (ttc_cursor_find), made with the first */
    guint32 ncursors;
    ttc_req_kind_t pending_kind;       /* kind of the request being received */
    guint32 inferred_frame;            /* where the dialect was inferred (no handshake) */
    guint32 infer_fits;                /* candidates (bit i) the first call fitted */
    guint8 infer_chosen;               /* the candidate taken */
    gboolean infer_verify;             /* calls and replies still check the choice */
    guint32 infer_replies;             /* calls narrowed and replies verified so far */
    gboolean server_seen;              /* a server DATA or marker packet was seen */
    nstime_t client_prev_time;         /* client packet being noted (client-only captures) */
    guint32 executions;                /* statement executions seen */
    guint32 lob_execution;             /* latest execution whose rows carried LOB locators */
    const char *lob_sql;               /* ... and its statement */
    guint32 nrequests;
    guint32 round_trips;               /* round-trip records published so far (metrics.c numbers them) */
    struct ttc_sql_ids *sql_ids;       /* statement text -> its SQL_ID (ttc_sql_id), made once per text */
    struct timing_conv *timing;        /* timing's own state (consumers/timing.c), opaque here */
    ttc_rec_store_t recs;              /* its TTC records and segment markers */
    /* The close-cursors piggyback of the request being received (close_req):
     * its sequence number and the execution and statement of the first
     * cursor it names that the map knows (0, NULL: none), for the call that
     * carries it (ttc_pairing.c: go-ora's close, an OPING of its own) */
    const ttc_request_t *close_req;
    guint8 close_seq;
    guint32 close_execution;
    const char *close_sql;
    ttc_request_t *unbound;            /* last execute whose response named no cursor
                                        * (cut or undecoded): the next call on an
                                        * unknown cursor is taken to be on its cursor */
} ttc_session_t;

/* The session's cursor `id`, NULL when it knows none (ttc_state.c). */
const ttc_cursor_t *ttc_cursor_find(const ttc_session_t *ts, guint32 id);

#endif /* SQLNET_TTC_SESSION_H */
