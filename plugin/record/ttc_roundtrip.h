/* ttc_roundtrip.h - the wire-cost records: one per request and one per response,
 * built on the first pass (packets, bytes, segments, rows, timing, the call's
 * facts) and read by metrics.c for fields and taps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_ROUNDTRIP_H
#define SQLNET_TTC_ROUNDTRIP_H

#include <string.h>

#include <epan/packet.h>
#include "ttc_columns.h"
#include "ttc_protocol.h"

/* A moment as kept by a request or a response: nanoseconds since the epoch
 * in 64 bits (8 bytes where an nstime_t takes 16).  Exact for every time
 * from 1678 to 2262; a capture's timestamp beyond that wraps (modulo 2^64,
 * so the spans between two of them stay exact).  Read with the accessors
 * below (ttc_req_first_time() ...), which give the nstime_t back. */
typedef guint64 sqlnet_ns_t;

static inline sqlnet_ns_t
sqlnet_ns_pack(const nstime_t *t)
{
    return (guint64)(gint64)t->secs * 1000000000u + (guint64)(gint64)t->nsecs;
}

static inline nstime_t
sqlnet_ns_unpack(sqlnet_ns_t v)
{
    nstime_t t;
    gint64 ns = (gint64)v;
    t.secs = (time_t)(ns / 1000000000);
    t.nsecs = (int)(ns % 1000000000);
    if (t.nsecs < 0) {
        t.nsecs += 1000000000;
        t.secs--;
    }
    return t;
}

/* Kinds of client request. */
typedef enum {
    TTC_REQ_NONE,
    TTC_REQ_PROTOCOL,      /* PRO */
    TTC_REQ_DATA_TYPES,    /* DTY */
    TTC_REQ_FAST_AUTH,
    TTC_REQ_FUNCTION,
    TTC_REQ_ANO,
    TTC_REQ_OTHER
} ttc_req_kind_t;

struct ttc_response;

/* Where a round trip's time went (timing.c, docs/time.md): the stretch from
 * the end of the previous response to the end of this one, cut into parts.
 * `network` is one round-trip time where the capture shows it (the client's
 * gap before its call when captured near the server, the wait for the
 * answer when captured near the client; the first call of a capture taken
 * near the server has no gap: its RTT is added); 0 when the RTT is not
 * known.  The rest of the client's gap is `client` when the previous round
 * trip of the conversation belongs to the same execution (the client working
 * between the calls of one piece of work), else `idle` (the time before a
 * new piece of work).  A round trip's elapsed time, as the client lived it,
 * is network + server + transfer + client (sqlnet_timing_elapsed); what the
 * client waited for it is network + server + transfer (sqlnet_timing_wait);
 * idle is apart. */
typedef struct sqlnet_timing {
    nstime_t network;          /* one network round trip */
    nstime_t server;           /* request's last byte to response's first byte, less the network */
    nstime_t transfer;         /* request's first to last byte, response's first to last byte */
    nstime_t client;           /* previous response's last byte to this request's first, less the network,
                                * when the previous round trip is of the same execution (else 0) */
    nstime_t idle;             /* the same gap when it is not (the time before a new piece of work) */
    nstime_t rtt;              /* the RTT the network part rests on (rtt_known: the
                                * conversation's, when the response ended) */
    /* the unsplit parts, kept for a split made again (timing_revisit) */
    nstime_t wait;             /* request's last byte to response's first byte */
    nstime_t gap;              /* previous response's last byte to the request's first byte */
    /* flags as bytes (kept once per round trip; every assignment is TRUE,
     * FALSE or a logical expression) */
    guint8   in_execution;     /* the previous round trip of the conversation was of the same execution */
    guint8   known;            /* computed (the response completed or was closed) */
    guint8   rtt_known;        /* the network part rests on a measured RTT */
    guint8   has_gap;          /* there was a previous response */
    guint8   provisional;      /* split before the ACK tap had run (first pass of -2) */
    guint8   rtt_source, vantage;  /* sqlnet_rtt_source_t, sqlnet_vantage_t */
} sqlnet_timing_t;

/* Elapsed (network + server + transfer + client) and wait (network + server
 * + transfer) of a round trip, in nanoseconds (0 when its timing is not known). */
static inline guint64
sqlnet_timing_ns(const nstime_t *t)
{
    if (t->secs < 0 || t->nsecs < 0)
        return 0;
    return (guint64)t->secs * 1000000000u + (guint64)t->nsecs;
}

static inline guint64
sqlnet_timing_wait(const sqlnet_timing_t *t)
{
    if (!t->known)
        return 0;
    return sqlnet_timing_ns(&t->network) + sqlnet_timing_ns(&t->server) + sqlnet_timing_ns(&t->transfer);
}

static inline guint64
sqlnet_timing_elapsed(const sqlnet_timing_t *t)
{
    if (!t->known)
        return 0;
    return sqlnet_timing_wait(t) + sqlnet_timing_ns(&t->client);
}

/* What a response keeps of its timing (one per round trip): every part in
 * nanoseconds, in 40 bits (a low 32 and a high 8: up to 1,099 s), and the
 * flags.  The parts are spans, never negative; a split with a part beyond
 * what the 40 bits hold (an idle gap of more than 18 minutes, timestamps
 * centuries apart) or below zero is kept whole in `wide` instead.  Read a
 * part with sqlnet_timing_part_ns(), the whole with sqlnet_timing_get(). */
#define SQLNET_TIMING_PARTS(X) X(network) X(server) X(transfer) X(client) X(idle) X(rtt) X(wait) X(gap)
enum {
#define SQLNET_TIMING_PART_ENUM(p) SQLNET_TIMING_##p,
    SQLNET_TIMING_PARTS(SQLNET_TIMING_PART_ENUM)
#undef SQLNET_TIMING_PART_ENUM
    SQLNET_TIMING_NPARTS
};
/* The split's flags, copied as they are between the two forms. */
#define SQLNET_TIMING_FLAGS(X) X(in_execution) X(known) X(rtt_known) X(has_gap) X(provisional) X(rtt_source) X(vantage)
#define SQLNET_TIMING_MAX_SECS G_GINT64_CONSTANT(1100)       /* then the 40 bits decide */
#define SQLNET_TIMING_MAX_NS G_GUINT64_CONSTANT(0xFFFFFFFFFF) /* 2^40 - 1 ns, ~1,099.5 s */

typedef struct sqlnet_timing_kept {
    union {
        struct {
            guint32 lo[SQLNET_TIMING_NPARTS];  /* each part's nanoseconds: bits 0-31 */
            guint8  hi[SQLNET_TIMING_NPARTS];  /* ... bits 32-39 */
        } ns;
        const sqlnet_timing_t *wide;   /* (is_wide) the whole split, when a part does not fit */
    } u;
    /* the flags as bits (every assignment is TRUE, FALSE or a logical
     * expression; rtt_source and vantage: enums of three values) */
    guint   in_execution : 1, known : 1, rtt_known : 1, has_gap : 1, provisional : 1;
    guint   rtt_source : 3, vantage : 3;
    guint   is_wide : 1;
} sqlnet_timing_kept_t;

/* A part of a packed split in nanoseconds. */
#define SQLNET_TIMING_NS(kept, i) (((guint64)(kept)->u.ns.hi[i] << 32) | (guint64)(kept)->u.ns.lo[i])

/* The whole split of a kept timing that does not fit (else NULL). */
#define SQLNET_TIMING_WIDE(kept) ((kept)->is_wide ? (kept)->u.wide : NULL)

/* A part in nanoseconds (0 when negative), as sqlnet_timing_ns() of the whole. */
#define sqlnet_timing_part_ns(kept, part) \
    ((kept)->is_wide ? sqlnet_timing_ns(&(kept)->u.wide->part) : SQLNET_TIMING_NS(kept, SQLNET_TIMING_##part))

/* The whole split of a kept timing. */
static inline void
sqlnet_timing_get(const sqlnet_timing_kept_t *k, sqlnet_timing_t *t)
{
    if (k->is_wide) {
        *t = *k->u.wide;
        return;
    }
#define SQLNET_TIMING_UNPACK(p) \
    t->p.secs = (time_t)(SQLNET_TIMING_NS(k, SQLNET_TIMING_##p) / 1000000000u); \
    t->p.nsecs = (int)(SQLNET_TIMING_NS(k, SQLNET_TIMING_##p) % 1000000000u);
    SQLNET_TIMING_PARTS(SQLNET_TIMING_UNPACK)
#undef SQLNET_TIMING_UNPACK
#define SQLNET_TIMING_FLAG_GET(f) t->f = k->f;
    SQLNET_TIMING_FLAGS(SQLNET_TIMING_FLAG_GET)
#undef SQLNET_TIMING_FLAG_GET
}

static inline gboolean
sqlnet_timing_part_fits(const nstime_t *t)
{
    return t->secs >= 0 && t->secs < SQLNET_TIMING_MAX_SECS && t->nsecs >= 0 && t->nsecs < 1000000000 &&
           (guint64)t->secs * 1000000000u + (guint64)t->nsecs <= SQLNET_TIMING_MAX_NS;
}

/* Keep a split: packed, or (a part that does not fit) whole in `scope`. */
static inline void
sqlnet_timing_keep(sqlnet_timing_kept_t *k, const sqlnet_timing_t *t, wmem_allocator_t *scope)
{
    gboolean fits = TRUE;
#define SQLNET_TIMING_FITS(p) fits = fits && sqlnet_timing_part_fits(&t->p);
    SQLNET_TIMING_PARTS(SQLNET_TIMING_FITS)
#undef SQLNET_TIMING_FITS
    memset(&k->u, 0, sizeof(k->u));
    k->is_wide = !fits;
    if (fits) {
#define SQLNET_TIMING_PACK(p) { \
        guint64 ns_ = (guint64)t->p.secs * 1000000000u + (guint64)t->p.nsecs; \
        k->u.ns.lo[SQLNET_TIMING_##p] = (guint32)ns_; \
        k->u.ns.hi[SQLNET_TIMING_##p] = (guint8)(ns_ >> 32); }
        SQLNET_TIMING_PARTS(SQLNET_TIMING_PACK)
#undef SQLNET_TIMING_PACK
    } else {
        k->u.wide = (const sqlnet_timing_t *)wmem_memdup(scope, t, sizeof(*t));
    }
#define SQLNET_TIMING_FLAG_KEEP(f) k->f = t->f;
    SQLNET_TIMING_FLAGS(SQLNET_TIMING_FLAG_KEEP)
#undef SQLNET_TIMING_FLAG_KEEP
}

/* A part is zero (nstime_is_zero of the whole's). */
#define sqlnet_timing_part_is_zero(kept, part) \
    ((kept)->is_wide ? nstime_is_zero(&(kept)->u.wide->part) : SQLNET_TIMING_NS(kept, SQLNET_TIMING_##part) == 0)

static inline gboolean
sqlnet_timing_gap_is_zero(const sqlnet_timing_kept_t *k)
{
    return sqlnet_timing_part_is_zero(k, gap);
}

/* Why a round trip's figures are lower bounds (sqlnet.ttc.partial). */
typedef enum {
    TTC_PARTIAL_NONE = 0,
    TTC_PARTIAL_CUT = 1,       /* the capture cut a TNS packet of it short (snaplen) */
    TTC_PARTIAL_UNDECODED = 2  /* a message of it could not be decoded */
} ttc_partial_t;

/* Facts of a call that reach every consumer of the round-trip record
 * without another edit: one row is a member of ttc_call_t (guint32, 0 = none
 * or not known), which its decoder sets (res->call.member) and the request
 * keeps; the field sqlnet.rt.<abbrev> in the round-trip subtree (metrics.c),
 * a column of -z sqlnet,rt (stats.c) and a fact Lua reads by name
 * (lua_records.c: col:fact(i, "<abbrev>")), all present when non-zero.
 *   X(member, "abbrev", "Name", "description") */
#define TTC_CALL_FACTS(X) \
    X(bind_values, "bind_values", "Bind values sent", \
      "Bind values the call sent: its binds (less DML RETURNING binds) x the rows it binds them for " \
      "(OALL8: the execution count of a DML, one row for a query or PL/SQL)")

/* The facts of one call as its decoder found them (ttc_msg_result_t.call),
 * kept in its request as `call` (req->call.func ...).  Members in order of
 * size, the flags as bytes (every assignment is TRUE, FALSE or a logical
 * expression): one is kept per round trip. */
typedef struct ttc_call {
    const char *sql;           /* SQL text sent with this call */
    const ttc_describe_t *binds;   /* OALL8 bind metadata (python-oracledb _write_column_metadata) */
    const ttc_describe_t *defines; /* OALL8 define metadata (same layout): LOB prefetch per column */
    guint32 cursor;
    guint32 fetch_rows;        /* rows this call asks for now (sqlnet.fetch.rows) */
    guint32 options;
    guint32 exec_count;        /* OALL8 al8i4[1] */
    guint32 prefetch;          /* OALL8 prefetch rows */
    guint32 exec_flags;        /* OALL8 al8i4[9] */
    guint32 fetch_orientation; /* OALL8 al8i4[10], scrollable cursors */
    guint32 fetch_pos;         /* OALL8 al8i4[11]: the row to fetch from */
    guint32 returning_binds;   /* DML RETURNING: the last n binds are return binds */
    /* LOB operation (function 96): what its return parameters hold */
    guint32 lob_op;
    guint32 lob_src_len, lob_dst_len;
#define TTC_CALL_FACT_MEMBER(m, abbrev, name, desc) guint32 m;
    TTC_CALL_FACTS(TTC_CALL_FACT_MEMBER)
#undef TTC_CALL_FACT_MEMBER
    guint8  kind;              /* ttc_req_kind_t */
    guint8  func;              /* main function code (TTC_REQ_FUNCTION) */
    guint8  seq;
    guint8  has_cursor;
    guint8  has_fetch_rows;
    guint8  is_query;          /* al8i4[7] or a fetch call */
    guint8  lob_charset, lob_amount, lob_null;
} ttc_call_t;

/* The facts few calls have (the bind and define metadata, DML RETURNING,
 * a scroll's orientation and position, a LOB operation's): a request keeps
 * them apart, allocated only when one is non-zero (ttc_call_keep). */
typedef struct ttc_call_rare {
    const ttc_describe_t *binds;
    const ttc_describe_t *defines;
    guint32 fetch_orientation, fetch_pos;
    guint32 returning_binds;
    guint32 lob_op, lob_src_len, lob_dst_len;
    guint8  lob_charset, lob_amount, lob_null;
} ttc_call_rare_t;

/* What a request keeps of its call: ttc_call_t's members by the same names,
 * the rare ones behind `rare` (NULL: all zero), read with ttc_req_rare();
 * not the prefetch and is_query, which only the decoding reads. */
typedef struct ttc_call_kept {
    const char *sql;
    const ttc_call_rare_t *rare;
    guint32 cursor;
    guint32 fetch_rows;
    guint32 options;
    guint32 exec_count;
    guint32 exec_flags;
#define TTC_CALL_FACT_MEMBER(m, abbrev, name, desc) guint32 m;
    TTC_CALL_FACTS(TTC_CALL_FACT_MEMBER)
#undef TTC_CALL_FACT_MEMBER
    guint8  kind;
    guint8  func;
    guint8  seq;
    guint8  has_cursor;
    guint8  has_fetch_rows;
} ttc_call_kept_t;

/* Members in order of size, the flags as bytes: one per round trip. */
typedef struct ttc_request {
    ttc_call_kept_t call;      /* the request's main call (call.kind: the request's kind) */
    sqlnet_ns_t last_ns;       /* when the request was complete (its last packet): ttc_req_last_time() */
    sqlnet_ns_t first_ns;      /* its first packet: ttc_req_first_time() */
    sqlnet_ns_t prev_end_ns;   /* last byte of the response before it (has_prev_end): ttc_req_prev_end() */
    const char *stmt_sql;      /* statement the call belongs to (cursor's SQL) */
    struct ttc_response *response;
    guint32 frame;             /* frame of the (last) request packet */
    guint32 first_frame;
    guint32 tns_packets, tns_bytes, segments;
    guint32 ttc_bytes;         /* DATA payload after the data flags */
    guint32 execution;             /* statement execution this call belongs to (0 = none) */
    /* the flags as bits (every assignment is TRUE, FALSE or a logical
     * expression; partial: a ttc_partial_t) */
    guint8  has_prev_end : 1;
    guint8  fetch_more : 1;        /* a fetch (no execute) on a result set with rows still to come */
    guint8  ended : 1;             /* its last packet had the end-of-request flag (23ai pipelines) */
    guint8  negotiates : 1;        /* PRO/DTY before its call in one request (ojdbc 23's connection
                                    * cookie): their replies lead its response */
    guint8  partial : 2;           /* ttc_partial_t of the request's own packets */
    guint8  closes_cursor : 1;     /* its call is a cursor close of its own: an OPING carrying a
                                    * close-cursors piggyback with the OPING's own sequence number
                                    * (go-ora's statement Close); `execution` and `stmt_sql` are
                                    * then those of the first cursor it names that was known */
    guint8  cut_short : 1;         /* it cut the response before it short: ttc_req_closed() */
} ttc_request_t;

/* A kept call's rare facts (all zero when it has none). */
static inline const ttc_call_rare_t *
ttc_call_rare(const ttc_call_kept_t *c)
{
    static const ttc_call_rare_t none;
    return c->rare ? c->rare : &none;
}

static inline const ttc_call_rare_t *
ttc_req_rare(const ttc_request_t *req)
{
    return ttc_call_rare(&req->call);
}

/* Keep a decoded call in a request: its rare facts apart when it has any
 * (allocated in scope); the pointers as they are (the caller copies what
 * lives in packet scope). */
static inline void
ttc_call_keep(ttc_call_kept_t *k, const ttc_call_t *c, wmem_allocator_t *scope)
{
    k->sql = c->sql;
    k->rare = NULL;
    if (c->binds || c->defines || c->fetch_orientation || c->fetch_pos || c->returning_binds || c->lob_op ||
        c->lob_src_len || c->lob_dst_len || c->lob_charset || c->lob_amount || c->lob_null) {
        ttc_call_rare_t *r = wmem_new(scope, ttc_call_rare_t);
        r->binds = c->binds;
        r->defines = c->defines;
        r->fetch_orientation = c->fetch_orientation;
        r->fetch_pos = c->fetch_pos;
        r->returning_binds = c->returning_binds;
        r->lob_op = c->lob_op;
        r->lob_src_len = c->lob_src_len;
        r->lob_dst_len = c->lob_dst_len;
        r->lob_charset = c->lob_charset;
        r->lob_amount = c->lob_amount;
        r->lob_null = c->lob_null;
        k->rare = r;
    }
#define TTC_CALL_KEEP(m) k->m = c->m;
    TTC_CALL_KEEP(cursor) TTC_CALL_KEEP(fetch_rows) TTC_CALL_KEEP(options) TTC_CALL_KEEP(exec_count)
    TTC_CALL_KEEP(exec_flags) TTC_CALL_KEEP(kind) TTC_CALL_KEEP(func) TTC_CALL_KEEP(seq)
    TTC_CALL_KEEP(has_cursor) TTC_CALL_KEEP(has_fetch_rows)
#undef TTC_CALL_KEEP
#define TTC_CALL_FACT_KEEP(m, abbrev, name, desc) k->m = c->m;
    TTC_CALL_FACTS(TTC_CALL_FACT_KEEP)
#undef TTC_CALL_FACT_KEEP
}

/* The call executes a statement (starts an execution): OALL8 with the
 * execute option, re-execute (and fetch), OALL7 with the execute option. */
static inline gboolean
ttc_call_executes(const ttc_call_kept_t *c)
{
    /* python-oracledb fetches from a scrollable cursor with an execute
     * positioned at the next row (orientation "current", position > 1):
     * that continues the execution, it does not start one. */
    if (c->func == TTC_FN_OALL8 && (c->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) && c->cursor != 0 &&
        ttc_call_rare(c)->fetch_pos > 1)
        return FALSE;
    /* OALL7: with the execute option (options 0: a body not decoded) */
    return (c->func == TTC_FN_OALL8 && (c->options & TTC_OPT_EXECUTE)) ||
           c->func == TTC_FN_REEXECUTE_FETCH || c->func == TTC_FN_REEXECUTE ||
           (c->func == TTC_FN_OALL7 && (c->options == 0 || (c->options & TTC_OPT_EXECUTE)));
}

static inline gboolean
ttc_req_executes(const ttc_request_t *req)
{
    return ttc_call_executes(&req->call);
}

/* Members in order of size, the flags as bytes: one per round trip. */
typedef struct ttc_response {
    ttc_request_t *req;
    const char *ora_message;
    guint64 rowcount;
    sqlnet_ns_t first_ns;      /* its first byte: ttc_resp_first_time() */
    sqlnet_ns_t last_ns;       /* its last: ttc_resp_last_time() */
    sqlnet_timing_kept_t timing; /* where its time went (first pass, at its end) */
    guint32 number;            /* round trip number in the conversation (1-based, sqlnet.rt.number):
                                * given when its record is first published (ttc_round_trip_number), 0 before */
    guint32 first_frame;       /* first TCP segment carrying the response */
    guint32 last_frame;        /* frame completing it; 0 while open */
    guint32 ora_error;
    guint32 packets, bytes;    /* TNS packets and bytes (markers included) */
    guint32 markers;           /* the DATA packets are the others: ttc_resp_data_packets() */
    guint32 ttc_bytes;         /* DATA payload after the data flags ("bytes via SQL*Net") */
    guint32 rows;              /* row data messages */
    guint32 row_bytes;         /* bytes of row data (RXD) and bit vector (BVC) messages */
    guint32 bvc_bytes;         /* the bit vector messages alone */
    guint32 cursor;
    guint32 call_status;
    /* TCP segments that carried it (ttc_count_segment), and the first frame
     * that can be one of them (after its request and the previous response) */
    guint32 segments, cover_from;
    guint32 largest_segment;   /* payload bytes of its largest TCP segment */
    guint32 largest_packet;
    guint8  has_oer;
    guint8  complete;          /* ended by EOR / its terminal message */
    guint8  multi_segment_packet;
    guint8  partial;           /* ttc_partial_t: not decoded to its end */
} ttc_response_t;

/* ---- a request's and a response's moments --------------------------------- */

static inline nstime_t ttc_req_first_time(const ttc_request_t *req) { return sqlnet_ns_unpack(req->first_ns); }
static inline nstime_t ttc_req_last_time(const ttc_request_t *req) { return sqlnet_ns_unpack(req->last_ns); }
static inline nstime_t ttc_req_prev_end(const ttc_request_t *req) { return sqlnet_ns_unpack(req->prev_end_ns); }
static inline nstime_t ttc_resp_first_time(const ttc_response_t *resp) { return sqlnet_ns_unpack(resp->first_ns); }
static inline nstime_t ttc_resp_last_time(const ttc_response_t *resp) { return sqlnet_ns_unpack(resp->last_ns); }

/* A response's TNS DATA packets (its packets are DATA or markers). */
static inline guint32 ttc_resp_data_packets(const ttc_response_t *resp) { return resp->packets - resp->markers; }

/* ---- what consumers add to a record before it is published --------------
 * (the stream and the decoders fill the rest in place) */

/* Where its time went (timing.c, when it ends and on a later split). */
static inline void
ttc_response_set_timing(ttc_response_t *resp, const sqlnet_timing_t *timing)
{
    sqlnet_timing_keep(&resp->timing, timing, wmem_file_scope());
}

/* A TNS packet of it was reassembled from several TCP segments (metrics.c). */
static inline void
ttc_response_note_multi_segment(ttc_response_t *resp)
{
    resp->multi_segment_packet = TRUE;
}

/* Its number in the conversation (sqlnet.rt.number), given once. */
static inline void
ttc_response_set_number(ttc_response_t *resp, guint32 number)
{
    resp->number = number;
}

#endif /* SQLNET_TTC_ROUNDTRIP_H */
