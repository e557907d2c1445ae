/* account.c - the statement and execution accounting (issue 34): every
 * number a statement view shows, computed once from the "sqlnet" tap's
 * round-trip records.  The definitions are docs/time.md's:
 *
 *   elapsed   network + server + transfer + client of the round trips
 *             (timing.c: the first call of a capture taken near the server
 *             has its RTT added; near the client the RTT is in the waits)
 *   idle      apart: the client's gap before a new piece of work
 *   wait      network + server + transfer (what the client waited)
 *   pauses    client stall: a round trip's client time above 5 x what the
 *             conversation's median client time and median client time per
 *             row of the round trip before give for its rows, and above
 *             10 ms: the excess over that; server stall: a fetch's server
 *             time above 5 x what the conversation's fetches' median server
 *             time and median per row give for its rows, and above 10 ms.
 *             Both stay inside client and server (named apart).
 *   array size  rows asked per fetch (an execution's fetch calls; the
 *             first fetch counts the rows its execute brought when the
 *             conversation's client tops its buffer up to the array size,
 *             as node-oracledb does; an execution without a fetch call: the
 *             rows its execute asked for)
 *   prefetch  rows the execute brought (its own round trip)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include <epan/packet.h>

#include "ttc_protocol.h"
#include "timing.h"
#include "account.h"
#include "patterns.h"

/* A statement with the account's bookkeeping. */
typedef struct {
    sqlnet_acct_stmt_t pub;
    guint32 seen;              /* order of its first record, a tie-break */
    GArray *errors;            /* ora_count_t, first-seen order */
    GArray *xb;                /* exec_book_t, parallel to pub.execs */
    GHashTable *exec_index;    /* (conversation << 32 | execution) -> index + 1 in pub.execs */
    gint64 last_exec_key;      /* the latest key exec_of() found and what it found (0: none; */
    guint32 last_exec;         /* an execution is never 0): the fetches of one execution */
    GArray *runs;              /* run_book_t: its runs with a second call (patterns.h) */
    GHashTable *run_index;     /* (conversation << 32 | run's first frame) -> index + 1 in runs */
    GHashTable *reparse;       /* conversation -> sqlnet_reparse_run_t: its run of parsed executions there */
    guint32 reparse_done, reparse_done_runs, reparse_done_first;   /* the ended runs that are a pattern */
} stmt_t;

/* A run of calls (patterns.c) as far as the records show it. */
typedef struct {
    guint8 kind;
    guint32 first_frame, length;
    sqlnet_acct_sums_t saved;  /* its round trips beyond its first call */
} run_book_t;

typedef struct {
    guint32 code, count;
} ora_count_t;

#define MAX_ERRORS_SHOWN 16
#define MAX_SIZES_SHOWN 32

/* An execution's fetches, for its array size. */
typedef struct {
    guint32 fetches;
    guint32 first_asked;       /* the first fetch's rows asked */
    guint32 later_max;         /* the largest of the later fetches' */
} exec_book_t;

/* One round trip as the pauses need it. */
typedef struct {
    stmt_t *stmt;
    guint32 exec;              /* index + 1 in stmt->pub.execs, 0: none kept */
    guint32 conversation;
    guint32 rows, prev_rows;   /* its rows; the rows of the round trip before it on the conversation */
    guint64 client_ns, server_ns;
    guint8 sample;             /* SAMPLE_CLIENT, SAMPLE_FETCH */
} acct_rt_t;

#define SAMPLE_CLIENT 1        /* client time between two calls of one execution */
#define SAMPLE_FETCH 2         /* a fetch of an execution: its server time */

typedef struct {
    guint32 last_rows;
    gboolean tops_up;          /* a first fetch asked the array size less the rows its execute brought */
} conv_t;

struct sqlnet_account {
    GHashTable *by_sql;        /* sql -> stmt_t */
    stmt_t *outside;
    GPtrArray *order;          /* stmt_t, first-seen order */
    GPtrArray *numbered;       /* the result: outside first, then by number */
    GArray *rts;               /* acct_rt_t: the round trips that are a sample */
    GHashTable *convs;         /* conversation + 1 -> conv_t */
    gboolean dirty;
    /* the latest round trip's statement and conversation: a fetch loop
     * asks for the same ones round trip after round trip (the SQL text by
     * its pointer: the same pointer is the same text) */
    const char *last_sql;
    stmt_t *last_stmt;
    guint32 last_conv_key;     /* conversation + 1, 0: none */
    conv_t *last_conv;
};

/* ---- collecting --------------------------------------------------------- */

/* The indexes' 64-bit keys (conversation << 32 | a number) hashed with their
 * halves mixed: g_int64_hash XORs them, so conversation c's execution e and
 * conversation e's execution c (and every pair with the same XOR) collide,
 * and many short sessions running one statement made the lookups
 * quadratic (5,000 sessions: 6% of the time in g_int64_equal). */
static guint
key_hash(gconstpointer k)
{
    guint64 v = *(const guint64 *)k * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
    return (guint)(v >> 32);
}

static stmt_t *
stmt_new(const char *sql)
{
    stmt_t *s = g_new0(stmt_t, 1);

    if (sql) {
        s->pub.sql = g_strdup(sql);
        sqlnet_sql_id(sql, strlen(sql), s->pub.sql_id);
    }
    s->pub.execs = g_array_new(FALSE, TRUE, sizeof(sqlnet_acct_exec_t));
    s->pub.array_size = g_strdup("");
    s->pub.errors = g_strdup("");
    s->errors = g_array_new(FALSE, FALSE, sizeof(ora_count_t));
    s->xb = g_array_new(FALSE, TRUE, sizeof(exec_book_t));
    s->exec_index = g_hash_table_new_full(key_hash, g_int64_equal, g_free, NULL);
    s->runs = g_array_new(FALSE, TRUE, sizeof(run_book_t));
    s->run_index = g_hash_table_new_full(key_hash, g_int64_equal, g_free, NULL);
    s->reparse = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return s;
}

static void
stmt_free(gpointer p)
{
    stmt_t *s = (stmt_t *)p;

    g_free((char *)s->pub.sql);
    g_array_free(s->pub.execs, TRUE);
    g_free(s->pub.array_size);
    g_free(s->pub.errors);
    g_array_free(s->errors, TRUE);
    g_array_free(s->xb, TRUE);
    g_hash_table_destroy(s->exec_index);
    g_array_free(s->runs, TRUE);
    g_hash_table_destroy(s->run_index);
    g_hash_table_destroy(s->reparse);
    g_free(s);
}

sqlnet_account_t *
account_new(void)
{
    sqlnet_account_t *a = g_new0(sqlnet_account_t, 1);

    a->by_sql = g_hash_table_new(g_str_hash, g_str_equal);
    a->order = g_ptr_array_new_with_free_func(stmt_free);
    a->numbered = g_ptr_array_new();
    a->rts = g_array_new(FALSE, FALSE, sizeof(acct_rt_t));
    a->convs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return a;
}

void
account_reset(sqlnet_account_t *a)
{
    g_hash_table_remove_all(a->by_sql);
    g_ptr_array_set_size(a->numbered, 0);
    g_ptr_array_set_size(a->order, 0);      /* frees the statements (outside too) */
    a->outside = NULL;
    g_array_set_size(a->rts, 0);
    g_hash_table_remove_all(a->convs);
    a->dirty = FALSE;
    a->last_sql = NULL;
    a->last_stmt = NULL;
    a->last_conv_key = 0;
    a->last_conv = NULL;
}

void
account_free(sqlnet_account_t *a)
{
    if (!a)
        return;
    g_hash_table_destroy(a->by_sql);
    g_ptr_array_free(a->numbered, TRUE);
    g_ptr_array_free(a->order, TRUE);
    g_array_free(a->rts, TRUE);
    g_hash_table_destroy(a->convs);
    g_free(a);
}

/* The round trip is a fetch of an execution: it asks rows and does not
 * start an execution (OFETCH; a scrollable cursor's positioned execute). */
static gboolean
is_fetch(const sqlnet_rt_t *rt)
{
    return sqlnet_rt_has_fetch_rows(rt) && !sqlnet_rt_executes(rt) && sqlnet_rt_execution(rt) != 0;
}

gboolean
account_rt_fixed(const sqlnet_rt_t *rt)
{
    /* (a LOB operation and an OPING never execute: not an execution's
     * execute; an OPING has an execution only when it closes its cursor) */
    return rt->req && sqlnet_rt_execution(rt) != 0 &&
           (sqlnet_rt_func(rt) == TTC_FN_LOB_OP || sqlnet_rt_func(rt) == TTC_FN_PING);
}

static void
sums_add(sqlnet_acct_sums_t *s, const sqlnet_rt_t *rt)
{
    const ttc_response_t *resp = rt->resp;
    const sqlnet_timing_kept_t *k = &resp->timing;
    guint64 wait;

    s->round_trips++;
    s->rows += resp->rows;
    s->bytes_to_client += resp->ttc_bytes;
    s->bytes_from_client += rt->req ? rt->req->ttc_bytes : 0;
    s->tns_bytes_to_client += resp->bytes;
    s->tns_bytes_from_client += rt->req ? rt->req->tns_bytes : 0;
    s->row_bytes += resp->row_bytes;
    s->packets_to_client += resp->packets;
    s->segments_to_client += rt->segments;
    if (ttc_resp_data_packets(resp) > 1)
        s->more_data++;
    if (!resp->complete)
        s->incomplete++;
    if (sqlnet_rt_partial(rt))
        s->partial++;
    if (sqlnet_rt_executes(rt)) {
        s->executions++;
        s->prefetch_rows += resp->rows;
    }
    if (sqlnet_rt_func(rt) == TTC_FN_FETCH)
        s->fetch_calls++;
    if (sqlnet_rt_func(rt) == TTC_FN_OALL8 && (rt->req->call.options & TTC_OPT_PARSE))
        s->parses++;
    if (sqlnet_rt_func(rt) == TTC_FN_COMMIT ||
        (sqlnet_rt_func(rt) == TTC_FN_OALL8 && (rt->req->call.options & TTC_OPT_COMMIT)))
        s->commits++;
    if (is_fetch(rt))
        s->fetches++;
    if (resp->complete && rt->req) {
        guint64 ns = sqlnet_rt_ns(sqlnet_rt_time(rt));
        s->response_time_ns += ns;
        if (ns > s->response_time_max_ns)
            s->response_time_max_ns = ns;
    }
    if (!k->known)
        return;
    /* the parts in nanoseconds as kept (sqlnet_timing_part_ns: no division
     * into an nstime_t and back); wait and elapsed as sqlnet.rt.wait's */
    s->timed++;
    wait = sqlnet_rt_wait_ns(rt);
    s->network_ns += sqlnet_timing_part_ns(k, network);
    s->server_ns += sqlnet_timing_part_ns(k, server);
    s->transfer_ns += sqlnet_timing_part_ns(k, transfer);
    s->client_ns += sqlnet_timing_part_ns(k, client);
    s->idle_ns += sqlnet_timing_part_ns(k, idle);
    s->wait_ns += wait;
    s->elapsed_ns += wait + sqlnet_timing_part_ns(k, client);
    if (k->rtt_known) {
        s->rtt_ns = sqlnet_timing_part_ns(k, rtt);
        s->rtt_source = k->rtt_source;
        s->vantage = k->vantage;
        if (!sqlnet_timing_part_is_zero(k, network))
            s->net_round_trips++;
    }
}

void
account_sums_add(sqlnet_acct_sums_t *s, const sqlnet_rt_t *rt)
{
    sums_add(s, rt);
}

static void
frames_add(guint32 *first_frame, guint32 *last_frame, const sqlnet_rt_t *rt)
{
    guint32 first = sqlnet_rt_request_frame(rt) ? sqlnet_rt_request_frame(rt) : rt->resp->last_frame;

    if (first && (first < *first_frame || !*first_frame))
        *first_frame = first;
    if (rt->resp->last_frame > *last_frame)
        *last_frame = rt->resp->last_frame;
}

/* The execution of the round trip in its statement (index + 1), 0 if none
 * or past ACCOUNT_MAX_EXECS. */
static guint32
exec_of(stmt_t *s, const sqlnet_rt_t *rt)
{
    guint32 ex = sqlnet_rt_execution(rt);
    gint64 key = ((gint64)rt->conversation << 32) | ex;
    gpointer found;

    if (!ex)
        return 0;
    if (s->last_exec && key == s->last_exec_key)
        return s->last_exec;
    found = g_hash_table_lookup(s->exec_index, &key);
    if (found) {
        s->last_exec_key = key;
        s->last_exec = GPOINTER_TO_UINT(found);
        return s->last_exec;
    }
    if (s->pub.execs->len >= ACCOUNT_MAX_EXECS)
        return 0;
    {
        sqlnet_acct_exec_t fresh;
        exec_book_t book;
        gint64 *k = g_new(gint64, 1);
        memset(&fresh, 0, sizeof(fresh));
        memset(&book, 0, sizeof(book));
        fresh.conversation = rt->conversation;
        fresh.execution = ex;
        fresh.tcp_stream = rt->tcp_stream;
        g_array_append_val(s->pub.execs, fresh);
        g_array_append_val(s->xb, book);
        *k = key;
        g_hash_table_insert(s->exec_index, k, GUINT_TO_POINTER(s->pub.execs->len));
    }
    return s->pub.execs->len;
}

/* A round trip of a run beyond its first call: the run's book. */
static void
run_add(stmt_t *s, const sqlnet_rt_t *rt)
{
    gint64 key = ((gint64)rt->conversation << 32) | rt->run_first;
    guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(s->run_index, &key));
    run_book_t *rb;

    if (!idx) {
        run_book_t fresh;
        gint64 *k = g_new(gint64, 1);
        memset(&fresh, 0, sizeof(fresh));
        fresh.kind = rt->run_kind;
        fresh.first_frame = rt->run_first;
        g_array_append_val(s->runs, fresh);
        *k = key;
        idx = s->runs->len;
        g_hash_table_insert(s->run_index, k, GUINT_TO_POINTER(idx));
    }
    rb = &g_array_index(s->runs, run_book_t, idx - 1);
    if (rt->run_index > rb->length)
        rb->length = rt->run_index;
    sums_add(&rb->saved, rt);
}

/* A run of parsed executions that is a pattern, into the statement's counts. */
static void
reparse_count(guint32 *calls, guint32 *runs, guint32 *first, const sqlnet_reparse_run_t *r)
{
    if (r->length < PATTERN_MIN_RUN)
        return;
    *calls += r->length;
    (*runs)++;
    if (!*first || r->first_frame < *first)
        *first = r->first_frame;
}

/* An execution of the statement: one more step of its conversation's run of
 * parsed executions (patterns_reparse_step, the rule the marks use). */
static void
reparse_add(stmt_t *s, const sqlnet_rt_t *rt)
{
    gpointer key = GUINT_TO_POINTER(rt->conversation + 1);
    sqlnet_reparse_run_t *r = (sqlnet_reparse_run_t *)g_hash_table_lookup(s->reparse, key);
    sqlnet_reparse_run_t before;

    if (!r) {
        r = g_new0(sqlnet_reparse_run_t, 1);
        g_hash_table_insert(s->reparse, key, r);
    }
    before = *r;
    if (patterns_reparse_step(r, rt->req) <= 1)
        /* the run before ended (or there was none) */
        reparse_count(&s->reparse_done, &s->reparse_done_runs, &s->reparse_done_first, &before);
}

/* The statement's reparse counts: the ended runs and the open ones. */
static void
stmt_reparses(stmt_t *s)
{
    GHashTableIter it;
    gpointer v;

    s->pub.reparses = s->reparse_done;
    s->pub.reparse_runs = s->reparse_done_runs;
    s->pub.reparse_first_frame = s->reparse_done_first;
    g_hash_table_iter_init(&it, s->reparse);
    while (g_hash_table_iter_next(&it, NULL, &v))
        reparse_count(&s->pub.reparses, &s->pub.reparse_runs, &s->pub.reparse_first_frame,
                      (const sqlnet_reparse_run_t *)v);
    s->pub.reparse_sql_bytes = s->pub.sql ? (guint64)(s->pub.reparses - s->pub.reparse_runs) * strlen(s->pub.sql)
                                          : 0;
}

static void
sums_merge(sqlnet_acct_sums_t *to, const sqlnet_acct_sums_t *from)
{
    to->round_trips += from->round_trips;
    to->elapsed_ns += from->elapsed_ns;
    to->network_ns += from->network_ns;
    to->server_ns += from->server_ns;
    to->transfer_ns += from->transfer_ns;
    to->client_ns += from->client_ns;
    to->idle_ns += from->idle_ns;
    to->wait_ns += from->wait_ns;
    to->timed += from->timed;
    to->rows += from->rows;
    to->executions += from->executions;
    to->commits += from->commits;
    to->parses += from->parses;
}

/* The statement's runs that are a pattern (PATTERN_MIN_RUN calls or more):
 * of the kind whose avoidable round trips cost the most. */
static void
stmt_patterns(stmt_t *s)
{
    sqlnet_acct_sums_t by_kind[SQLNET_PATTERN_N];
    guint32 calls[SQLNET_PATTERN_N], runs[SQLNET_PATTERN_N], first[SQLNET_PATTERN_N];
    guint64 best_ns = 0;
    guint i, k, best = 0;

    memset(by_kind, 0, sizeof(by_kind));
    memset(calls, 0, sizeof(calls));
    memset(runs, 0, sizeof(runs));
    memset(first, 0, sizeof(first));
    for (i = 0; i < s->runs->len; i++) {
        const run_book_t *rb = &g_array_index(s->runs, run_book_t, i);
        if (rb->length < PATTERN_MIN_RUN || rb->kind == 0 || rb->kind >= SQLNET_PATTERN_N)
            continue;
        sums_merge(&by_kind[rb->kind], &rb->saved);
        calls[rb->kind] += rb->length;
        runs[rb->kind]++;
        if (!first[rb->kind] || rb->first_frame < first[rb->kind])
            first[rb->kind] = rb->first_frame;
    }
    for (k = 1; k < SQLNET_PATTERN_N; k++) {
        guint64 ns = by_kind[k].network_ns + by_kind[k].server_ns + by_kind[k].client_ns;
        if (runs[k] && (!best || ns > best_ns)) {
            best = k;
            best_ns = ns;
        }
    }
    s->pub.pattern = (guint8)best;
    s->pub.pattern_calls = best ? calls[best] : 0;
    s->pub.pattern_runs = best ? runs[best] : 0;
    s->pub.pattern_first_frame = best ? first[best] : 0;
    if (best)
        s->pub.pattern_s = by_kind[best];
    else
        memset(&s->pub.pattern_s, 0, sizeof(s->pub.pattern_s));
}

void
account_add(sqlnet_account_t *a, const sqlnet_rt_t *rt)
{
    const char *sql = sqlnet_rt_sql(rt);
    stmt_t *s = sql && sql == a->last_sql ? a->last_stmt
                : sql ? (stmt_t *)g_hash_table_lookup(a->by_sql, sql) : a->outside;
    const sqlnet_timing_kept_t *t = &rt->resp->timing;
    conv_t *conv;
    acct_rt_t r;
    guint i;

    a->dirty = TRUE;
    if (!s) {
        s = stmt_new(sql);
        s->seen = a->order->len;
        g_ptr_array_add(a->order, s);
        if (sql)
            g_hash_table_insert(a->by_sql, (gpointer)s->pub.sql, s);
        else
            a->outside = s;
    }
    if (sql) {
        a->last_sql = sql;
        a->last_stmt = s;
    }
    frames_add(&s->pub.first_frame, &s->pub.last_frame, rt);
    sums_add(&s->pub.s, rt);
    if (rt->resp->ora_error && rt->resp->ora_error != TTC_ERR_NO_DATA_FOUND) {
        for (i = 0; i < s->errors->len; i++)
            if (g_array_index(s->errors, ora_count_t, i).code == rt->resp->ora_error)
                break;
        if (i < s->errors->len) {
            g_array_index(s->errors, ora_count_t, i).count++;
        } else if (s->errors->len < MAX_ERRORS_SHOWN) {
            ora_count_t oc = { rt->resp->ora_error, 1 };
            g_array_append_val(s->errors, oc);
        }
    }

    if (rt->run_index >= 2)
        run_add(s, rt);
    if (sql && rt->req && ttc_req_executes(rt->req) && rt->req->execution)
        reparse_add(s, rt);

    memset(&r, 0, sizeof(r));
    r.stmt = s;
    r.exec = exec_of(s, rt);
    r.conversation = rt->conversation;
    r.rows = rt->resp->rows;
    if (r.exec) {
        sqlnet_acct_exec_t *e = &g_array_index(s->pub.execs, sqlnet_acct_exec_t, r.exec - 1);
        exec_book_t *b = &g_array_index(s->xb, exec_book_t, r.exec - 1);
        frames_add(&e->first_frame, &e->last_frame, rt);
        sums_add(&e->s, rt);
        if (sqlnet_rt_executes(rt) && sqlnet_rt_has_fetch_rows(rt))
            e->prefetch_asked = sqlnet_rt_fetch_rows(rt);
        if (is_fetch(rt)) {
            guint32 asked = sqlnet_rt_fetch_rows(rt);
            if (b->fetches == 0)
                b->first_asked = asked;
            else if (asked > b->later_max)
                b->later_max = asked;
            b->fetches++;
        }
    }
    if (a->last_conv_key == rt->conversation + 1) {
        conv = a->last_conv;
    } else {
        conv = (conv_t *)g_hash_table_lookup(a->convs, GUINT_TO_POINTER(rt->conversation + 1));
        if (!conv) {
            conv = g_new0(conv_t, 1);
            g_hash_table_insert(a->convs, GUINT_TO_POINTER(rt->conversation + 1), conv);
        }
        a->last_conv_key = rt->conversation + 1;
        a->last_conv = conv;
    }
    r.prev_rows = conv->last_rows;
    conv->last_rows = rt->resp->rows;
    if (t->known) {
        r.client_ns = sqlnet_timing_part_ns(t, client);
        r.server_ns = sqlnet_timing_part_ns(t, server);
        if (t->in_execution && !sqlnet_timing_gap_is_zero(t))
            r.sample |= SAMPLE_CLIENT;
        if (sqlnet_rt_func(rt) == TTC_FN_FETCH && sqlnet_rt_execution(rt) != 0)
            r.sample |= SAMPLE_FETCH;
    }
    /* only the samples: the pauses read nothing else (conv->last_rows
     * carries the rows of the round trip before) */
    if (r.sample)
        g_array_append_val(a->rts, r);
}

/* ---- computing ----------------------------------------------------------- */

static gint
cmp_double(gconstpointer x, gconstpointer y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The median (of an even count, the mean of the two middle values), as the
 * advisor's (lua/sqlnet_model.lua M.median); sorts v. */
static double
median(GArray *v)
{
    guint n = v->len, m;

    if (n == 0)
        return 0.0;
    g_array_sort(v, cmp_double);
    m = (n + 1) / 2;
    if (n % 2 == 0)
        return (g_array_index(v, double, m - 1) + g_array_index(v, double, m)) / 2.0;
    return g_array_index(v, double, m - 1);
}

#define STALL_FACTOR 5.0
#define STALL_FLOOR_NS 10000000.0     /* 10 ms */

static sqlnet_acct_sums_t *
exec_sums(acct_rt_t *r)
{
    return r->exec ? &g_array_index(r->stmt->pub.execs, sqlnet_acct_exec_t, r->exec - 1).s : NULL;
}

static void
stall_add(acct_rt_t *r, gboolean client, guint64 ns)
{
    sqlnet_acct_sums_t *sums[2] = { &r->stmt->pub.s, exec_sums(r) };
    guint k;

    for (k = 0; k < 2; k++) {
        if (!sums[k])
            continue;
        if (client) {
            sums[k]->client_stall_ns += ns;
            sums[k]->client_stalls++;
        } else {
            sums[k]->server_stall_ns += ns;
            sums[k]->server_stalls++;
        }
    }
}

/* The pauses of one conversation's round trips (idx: indexes into a->rts). */
static void
conv_pauses(sqlnet_account_t *a, GArray *idx)
{
    GArray *gaps = g_array_new(FALSE, FALSE, sizeof(double)), *gap_row = g_array_new(FALSE, FALSE, sizeof(double));
    GArray *firsts = g_array_new(FALSE, FALSE, sizeof(double)), *per_row = g_array_new(FALSE, FALSE, sizeof(double));
    double m_gap, m_gap_row, m_first, m_row;
    guint k;

    for (k = 0; k < idx->len; k++) {
        const acct_rt_t *r = &g_array_index(a->rts, acct_rt_t, g_array_index(idx, guint, k));
        double v;
        if (r->sample & SAMPLE_CLIENT) {
            v = (double)r->client_ns;
            g_array_append_val(gaps, v);
            if (r->prev_rows > 0) {
                v /= r->prev_rows;
                g_array_append_val(gap_row, v);
            }
        }
        if (r->sample & SAMPLE_FETCH) {
            v = (double)r->server_ns;
            g_array_append_val(firsts, v);
            if (r->rows > 0) {
                v /= r->rows;
                g_array_append_val(per_row, v);
            }
        }
    }
    m_gap = median(gaps);
    m_gap_row = median(gap_row);
    m_first = median(firsts);
    m_row = median(per_row);
    for (k = 0; k < idx->len; k++) {
        acct_rt_t *r = &g_array_index(a->rts, acct_rt_t, g_array_index(idx, guint, k));
        if (r->sample & SAMPLE_CLIENT) {
            double g = (double)r->client_ns, expect = m_gap + m_gap_row * r->prev_rows;
            if (g > STALL_FACTOR * expect && g > STALL_FLOOR_NS)
                stall_add(r, TRUE, (guint64)(g - expect + 0.5));
        }
        if (r->sample & SAMPLE_FETCH) {
            double f = (double)r->server_ns, expect = m_first + m_row * r->rows;
            if (f > STALL_FACTOR * expect && f > STALL_FLOOR_NS)
                stall_add(r, FALSE, (guint64)(f - expect + 0.5));
        }
    }
    g_array_free(gaps, TRUE);
    g_array_free(gap_row, TRUE);
    g_array_free(firsts, TRUE);
    g_array_free(per_row, TRUE);
}

static void
pauses(sqlnet_account_t *a)
{
    GHashTable *by_conv = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, NULL);
    GPtrArray *lists = g_ptr_array_new();
    guint i;

    for (i = 0; i < a->rts->len; i++) {
        const acct_rt_t *r = &g_array_index(a->rts, acct_rt_t, i);
        GArray *idx = (GArray *)g_hash_table_lookup(by_conv, GUINT_TO_POINTER(r->conversation + 1));
        if (!idx) {
            idx = g_array_new(FALSE, FALSE, sizeof(guint));
            g_hash_table_insert(by_conv, GUINT_TO_POINTER(r->conversation + 1), idx);
            g_ptr_array_add(lists, idx);
        }
        g_array_append_val(idx, i);
    }
    for (i = 0; i < lists->len; i++) {
        conv_pauses(a, (GArray *)g_ptr_array_index(lists, i));
        g_array_free((GArray *)g_ptr_array_index(lists, i), TRUE);
    }
    g_ptr_array_free(lists, TRUE);
    g_hash_table_destroy(by_conv);
}

static void
sums_clear_pauses(sqlnet_acct_sums_t *s)
{
    s->client_stall_ns = s->server_stall_ns = 0;
    s->client_stalls = s->server_stalls = 0;
}

static gint
cmp_u32(gconstpointer x, gconstpointer y)
{
    guint32 a = *(const guint32 *)x, b = *(const guint32 *)y;
    return a < b ? -1 : a > b;
}

/* Array sizes: a conversation tops up when one of its executions' first
 * fetch asked its later fetches' number less the rows its execute brought. */
static void
array_sizes(sqlnet_account_t *a)
{
    guint i, j;

    for (i = 0; i < a->order->len; i++) {
        stmt_t *s = (stmt_t *)g_ptr_array_index(a->order, i);
        for (j = 0; j < s->pub.execs->len; j++) {
            const sqlnet_acct_exec_t *e = &g_array_index(s->pub.execs, sqlnet_acct_exec_t, j);
            const exec_book_t *b = &g_array_index(s->xb, exec_book_t, j);
            if (b->fetches >= 2 && e->s.prefetch_rows > 0 && b->first_asked < b->later_max &&
                (guint64)b->first_asked + e->s.prefetch_rows == b->later_max) {
                conv_t *c = (conv_t *)g_hash_table_lookup(a->convs, GUINT_TO_POINTER(e->conversation + 1));
                if (c)
                    c->tops_up = TRUE;
            }
        }
    }
    for (i = 0; i < a->order->len; i++) {
        stmt_t *s = (stmt_t *)g_ptr_array_index(a->order, i);
        GArray *sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
        GString *text = g_string_new("");
        for (j = 0; j < s->pub.execs->len; j++) {
            sqlnet_acct_exec_t *e = &g_array_index(s->pub.execs, sqlnet_acct_exec_t, j);
            const exec_book_t *b = &g_array_index(s->xb, exec_book_t, j);
            const conv_t *c = (const conv_t *)g_hash_table_lookup(a->convs, GUINT_TO_POINTER(e->conversation + 1));
            guint k;
            if (b->fetches == 0)
                e->array_size = e->prefetch_asked;
            else if (b->fetches == 1)
                e->array_size = b->first_asked +
                    (c && c->tops_up && e->s.prefetch_rows <= G_MAXUINT32 - b->first_asked ? (guint32)e->s.prefetch_rows : 0);
            else
                e->array_size = MAX(b->first_asked, b->later_max);
            if (!e->array_size)
                continue;
            for (k = 0; k < sizes->len; k++)
                if (g_array_index(sizes, guint32, k) == e->array_size)
                    break;
            if (k == sizes->len && sizes->len < MAX_SIZES_SHOWN)
                g_array_append_val(sizes, e->array_size);
        }
        g_array_sort(sizes, cmp_u32);
        for (j = 0; j < sizes->len; j++)
            g_string_append_printf(text, "%s%u", j ? ", " : "", g_array_index(sizes, guint32, j));
        g_free(s->pub.array_size);
        s->pub.array_size = g_string_free(text, FALSE);
        g_array_free(sizes, TRUE);
    }
}

static gint
cmp_first_frame(gconstpointer x, gconstpointer y)
{
    const stmt_t *a = *(const stmt_t *const *)x, *b = *(const stmt_t *const *)y;
    if (a->pub.first_frame != b->pub.first_frame)
        return a->pub.first_frame < b->pub.first_frame ? -1 : 1;
    return a->seen < b->seen ? -1 : a->seen > b->seen;
}

void
account_compute(sqlnet_account_t *a)
{
    guint i, j;

    if (!a->dirty)
        return;
    a->dirty = FALSE;
    for (i = 0; i < a->order->len; i++) {
        stmt_t *s = (stmt_t *)g_ptr_array_index(a->order, i);
        GString *errors = g_string_new("");
        sums_clear_pauses(&s->pub.s);
        for (j = 0; j < s->pub.execs->len; j++)
            sums_clear_pauses(&g_array_index(s->pub.execs, sqlnet_acct_exec_t, j).s);
        for (j = 0; j < s->errors->len; j++) {
            const ora_count_t *oc = &g_array_index(s->errors, ora_count_t, j);
            g_string_append_printf(errors, "%sORA-%05u x %u", j ? ", " : "", oc->code, oc->count);
        }
        g_free(s->pub.errors);
        s->pub.errors = g_string_free(errors, FALSE);
        stmt_patterns(s);
        stmt_reparses(s);
    }
    pauses(a);
    array_sizes(a);
    /* numbering (CONTRACT.md: one numbering for every report) */
    g_ptr_array_set_size(a->numbered, 0);
    for (i = 0; i < a->order->len; i++)
        if (g_ptr_array_index(a->order, i) != a->outside)
            g_ptr_array_add(a->numbered, g_ptr_array_index(a->order, i));
    g_ptr_array_sort(a->numbered, cmp_first_frame);
    for (i = 0; i < a->numbered->len; i++)
        ((stmt_t *)g_ptr_array_index(a->numbered, i))->pub.number = i + 1;
    if (a->outside)
        g_ptr_array_insert(a->numbered, 0, a->outside);
}

const GPtrArray *
account_statements(sqlnet_account_t *a)
{
    account_compute(a);
    return a->numbered;
}

/* ---- values by column ---------------------------------------------------- */

void
account_ms(char *buf, gsize len, guint64 ns)
{
    guint64 us = (ns + 500) / 1000;
    snprintf(buf, len, "%" G_GUINT64_FORMAT ".%03u", us / 1000, (guint)(us % 1000));
}

char *
account_one_line(const char *sql)
{
    GString *out = g_string_sized_new(strlen(sql));
    gboolean space = FALSE;
    const char *p;

    for (p = sql; *p; p++) {
        if (g_ascii_isspace(*p)) {
            space = out->len > 0;
            continue;
        }
        if (space)
            g_string_append_c(out, ' ');
        space = FALSE;
        g_string_append_c(out, *p);
    }
    return g_string_free(out, FALSE);
}

/* How a column's value is read from the sums. */
typedef enum {
    V_U32, V_U64, V_MS,        /* a member of sqlnet_acct_sums_t (offset) */
    V_MS_TIMED,                /* ... NULL when no round trip is timed */
    V_MS_NET,                  /* ... NULL when no RTT is known */
    V_SPECIAL
} vkind_t;

typedef enum {
    X_NONE, X_STATEMENT, X_SQL_ID, X_SQL, X_FIRST, X_LAST, X_ARRAY_SIZE, X_ARRAY_SIZES, X_RT_AVG, X_RTT, X_ERRORS,
    X_EXECUTION, X_CONVERSATION, X_TCP_STREAM, X_PREFETCH_ASKED,
    X_ROWS_PER_EXEC, X_PATTERN, X_PATTERN_CALLS, X_PATTERN_RTS, X_PATTERN_SAVED, X_PATTERN_NET, X_PATTERN_SERVER,
    X_PATTERN_CLIENT, X_PATTERN_FIRST, X_REPARSES, X_REPARSE_FIRST
} special_t;

typedef struct {
    const char *name;
    guint8 kind;               /* vkind_t */
    guint8 special;            /* special_t */
    gboolean text;             /* JSON string */
    gsize off;
} column_t;

#define SUM(m) offsetof(sqlnet_acct_sums_t, m)
#define C_U32(n, m) { n, V_U32, X_NONE, FALSE, SUM(m) }
#define C_U64(n, m) { n, V_U64, X_NONE, FALSE, SUM(m) }
#define C_MS(n, m) { n, V_MS, X_NONE, FALSE, SUM(m) }
#define C_MST(n, m) { n, V_MS_TIMED, X_NONE, FALSE, SUM(m) }
#define C_X(n, x, text) { n, V_SPECIAL, x, text, 0 }

/* -z sqlnet,stmt,format=csv's columns, in order (the GUI table's too,
 * stmt_table.c): what a person reads first (the statement, its time, round
 * trips, rows and array size, where the time went), then the counts, frames
 * and bytes, then the names kept from before issue 34 whose values another
 * column now gives (wire_time_ms = elapsed_ms, array_sizes = array_size)
 * (docs/reports.md). */
static const column_t stmt_columns[] = {
    C_X("statement", X_STATEMENT, FALSE), C_X("sql", X_SQL, TRUE),
    C_MST("elapsed_ms", elapsed_ns), C_U32("round_trips", round_trips), C_U64("rows", rows),
    C_X("array_size", X_ARRAY_SIZE, TRUE),
    { "network_ms", V_MS_NET, X_NONE, FALSE, SUM(network_ns) },
    C_MST("server_ms", server_ns), C_MST("transfer_ms", transfer_ns), C_MST("client_ms", client_ns),
    C_MST("idle_ms", idle_ns), C_MST("wait_ms", wait_ns), C_X("rtt_ms", X_RTT, FALSE),
    C_U32("executions", executions), C_U32("fetch_calls", fetch_calls), C_U64("prefetch_rows", prefetch_rows),
    C_X("ora_errors", X_ERRORS, TRUE),
    C_MST("client_stall_ms", client_stall_ns), C_MST("server_stall_ms", server_stall_ns),
    C_X("sql_id", X_SQL_ID, TRUE), C_X("first_frame", X_FIRST, FALSE), C_X("last_frame", X_LAST, FALSE),
    C_U64("bytes_to_client", bytes_to_client),
    C_U64("bytes_from_client", bytes_from_client), C_U64("tns_bytes_to_client", tns_bytes_to_client),
    C_U64("tns_bytes_from_client", tns_bytes_from_client), C_U64("row_bytes_to_client", row_bytes),
    C_U64("packets_to_client", packets_to_client), C_U64("segments_to_client", segments_to_client),
    C_MS("response_time_sum_ms", response_time_ns), C_X("response_time_avg_ms", X_RT_AVG, FALSE),
    C_MS("response_time_max_ms", response_time_max_ns),
    C_U32("more_data_responses", more_data), C_U32("partial_round_trips", partial),
    C_MST("wire_time_ms", elapsed_ns), C_X("array_sizes", X_ARRAY_SIZES, TRUE),
    /* chatty applications (issue 36): executions and what they cost in calls */
    C_X("rows_per_execution", X_ROWS_PER_EXEC, FALSE), C_U32("parses", parses), C_U32("commits", commits),
    C_X("pattern", X_PATTERN, TRUE), C_X("pattern_calls", X_PATTERN_CALLS, FALSE),
    C_X("pattern_saved_round_trips", X_PATTERN_RTS, FALSE), C_X("pattern_saved_ms", X_PATTERN_SAVED, FALSE),
    C_X("pattern_saved_network_ms", X_PATTERN_NET, FALSE), C_X("pattern_saved_server_ms", X_PATTERN_SERVER, FALSE),
    C_X("pattern_saved_client_ms", X_PATTERN_CLIENT, FALSE), C_X("pattern_first_frame", X_PATTERN_FIRST, FALSE),
    /* parsed on every execution (reparse: its own runs, stmt_reparses) */
    C_X("reparses", X_REPARSES, FALSE), C_X("reparse_first_frame", X_REPARSE_FIRST, FALSE),
};

/* The per-execution record (JSON "per_execution", Lua records.accounts). */
static const column_t exec_columns[] = {
    C_X("statement", X_STATEMENT, FALSE), C_X("sql_id", X_SQL_ID, TRUE),
    C_X("conversation", X_CONVERSATION, FALSE), C_X("tcp_stream", X_TCP_STREAM, FALSE),
    C_X("execution", X_EXECUTION, FALSE), C_X("first_frame", X_FIRST, FALSE), C_X("last_frame", X_LAST, FALSE),
    C_U32("fetch_calls", fetch_calls), C_U64("rows", rows), C_U32("round_trips", round_trips),
    C_U64("bytes_to_client", bytes_to_client), C_U64("bytes_from_client", bytes_from_client),
    C_U64("packets_to_client", packets_to_client), C_U64("segments_to_client", segments_to_client),
    C_X("array_size", X_ARRAY_SIZE, FALSE), C_U64("prefetch_rows", prefetch_rows),
    C_X("prefetch_asked", X_PREFETCH_ASKED, FALSE),
    C_MS("response_time_sum_ms", response_time_ns),
    C_MST("elapsed_ms", elapsed_ns), { "network_ms", V_MS_NET, X_NONE, FALSE, SUM(network_ns) },
    C_MST("server_ms", server_ns), C_MST("transfer_ms", transfer_ns), C_MST("client_ms", client_ns),
    C_MST("idle_ms", idle_ns), C_MST("wait_ms", wait_ns),
    C_MST("client_stall_ms", client_stall_ns), C_MST("server_stall_ms", server_stall_ns),
    C_X("rtt_ms", X_RTT, FALSE),
};

static char *
ms_text(guint64 ns)
{
    char buf[32];
    account_ms(buf, sizeof(buf), ns);
    return g_strdup(buf);
}

static char *
sums_value(const column_t *c, const sqlnet_acct_sums_t *s)
{
    const guint8 *base = (const guint8 *)s;

    switch (c->kind) {
    case V_U32:
        return g_strdup_printf("%u", *(const guint32 *)(base + c->off));
    case V_U64:
        return g_strdup_printf("%" G_GUINT64_FORMAT, *(const guint64 *)(base + c->off));
    case V_MS:
        return ms_text(*(const guint64 *)(base + c->off));
    case V_MS_TIMED:
        return s->timed ? ms_text(*(const guint64 *)(base + c->off)) : NULL;
    case V_MS_NET:
        return s->timed && s->rtt_ns ? ms_text(*(const guint64 *)(base + c->off)) : NULL;
    default:
        return NULL;
    }
}

static char *
rt_avg(const sqlnet_acct_sums_t *s)
{
    guint32 n = s->round_trips > s->incomplete ? s->round_trips - s->incomplete : 0;
    return ms_text(n ? (s->response_time_ns + n / 2) / n : 0);
}

guint
account_stmt_ncolumns(void)
{
    return G_N_ELEMENTS(stmt_columns);
}

const char *
account_stmt_column(guint col)
{
    return col < G_N_ELEMENTS(stmt_columns) ? stmt_columns[col].name : NULL;
}

gboolean
account_stmt_column_is_text(guint col)
{
    return col < G_N_ELEMENTS(stmt_columns) && stmt_columns[col].text;
}

char *
account_stmt_value(const sqlnet_acct_stmt_t *st, guint col)
{
    const column_t *c;

    if (col >= G_N_ELEMENTS(stmt_columns))
        return NULL;
    c = &stmt_columns[col];
    if (c->kind != V_SPECIAL)
        return sums_value(c, &st->s);
    switch ((special_t)c->special) {
    case X_STATEMENT: return st->sql ? g_strdup_printf("%u", st->number) : NULL;
    case X_SQL_ID: return st->sql ? g_strdup(st->sql_id) : NULL;
    case X_SQL: return st->sql ? account_one_line(st->sql) : NULL;
    case X_FIRST: return g_strdup_printf("%u", st->first_frame);
    case X_LAST: return g_strdup_printf("%u", st->last_frame);
    case X_ARRAY_SIZE: return st->array_size[0] ? g_strdup(st->array_size) : NULL;
    case X_ARRAY_SIZES: return g_strdup(st->array_size);   /* the old name: "" when none */
    case X_RT_AVG: return rt_avg(&st->s);
    case X_RTT: return st->s.timed && st->s.rtt_ns ? ms_text(st->s.rtt_ns) : NULL;
    case X_ERRORS: return g_strdup(st->errors);
    case X_ROWS_PER_EXEC:
        return g_strdup_printf("%.1f", st->s.executions ? (double)st->s.rows / st->s.executions : 0.0);
    default: break;
    }
    /* without a pattern: no name, and nothing to save (0, so that every
     * number cell of the statement table is filled) */
    switch ((special_t)c->special) {
    case X_PATTERN: return st->pattern ? g_strdup(pattern_name(st->pattern)) : NULL;
    case X_PATTERN_CALLS: return g_strdup_printf("%u", st->pattern_calls);
    case X_PATTERN_RTS: return g_strdup_printf("%u", st->pattern_s.round_trips);
    case X_PATTERN_SAVED: return ms_text(account_pattern_saved_ns(st));
    case X_PATTERN_NET: return ms_text(st->pattern_s.network_ns);
    case X_PATTERN_SERVER: return ms_text(st->pattern_s.server_ns);
    case X_PATTERN_CLIENT: return ms_text(st->pattern_s.client_ns);
    case X_PATTERN_FIRST: return g_strdup_printf("%u", st->pattern_first_frame);
    case X_REPARSES: return g_strdup_printf("%u", st->reparses);
    case X_REPARSE_FIRST: return g_strdup_printf("%u", st->reparse_first_frame);
    default: return NULL;
    }
}

guint
account_exec_ncolumns(void)
{
    return G_N_ELEMENTS(exec_columns);
}

const char *
account_exec_column(guint col)
{
    return col < G_N_ELEMENTS(exec_columns) ? exec_columns[col].name : NULL;
}

gboolean
account_exec_column_is_text(guint col)
{
    return col < G_N_ELEMENTS(exec_columns) && exec_columns[col].text;
}

char *
account_exec_value(const sqlnet_acct_stmt_t *st, const sqlnet_acct_exec_t *e, guint col)
{
    const column_t *c;

    if (col >= G_N_ELEMENTS(exec_columns))
        return NULL;
    c = &exec_columns[col];
    if (c->kind != V_SPECIAL)
        return sums_value(c, &e->s);
    switch ((special_t)c->special) {
    case X_STATEMENT: return st->sql ? g_strdup_printf("%u", st->number) : NULL;
    case X_SQL_ID: return st->sql ? g_strdup(st->sql_id) : NULL;
    case X_CONVERSATION: return g_strdup_printf("%u", e->conversation);
    case X_TCP_STREAM: return g_strdup_printf("%u", e->tcp_stream);
    case X_EXECUTION: return g_strdup_printf("%u", e->execution);
    case X_FIRST: return g_strdup_printf("%u", e->first_frame);
    case X_LAST: return g_strdup_printf("%u", e->last_frame);
    case X_ARRAY_SIZE: return e->array_size ? g_strdup_printf("%u", e->array_size) : NULL;
    case X_PREFETCH_ASKED: return e->prefetch_asked ? g_strdup_printf("%u", e->prefetch_asked) : NULL;
    case X_RTT: return e->s.timed && e->s.rtt_ns ? ms_text(e->s.rtt_ns) : NULL;
    default: return NULL;
    }
}
