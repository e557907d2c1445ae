/* patterns.c - chatty applications: the runs of calls a client could have
 * made in fewer round trips (patterns.h), recognised per conversation as the
 * round-trip records are first published.  State: the conversation's
 * (sqlnet_session_t.patterns, file scope); every round trip's answer is kept
 * by its response, so later passes and the GUI read what the first pass
 * decided.  Linear: one hash lookup per round trip.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <wsutil/nstime.h>

#include "ttc_protocol.h"
#include "patterns.h"
#include "textmap.h"

const value_string sqlnet_pattern_vals[] = {
    { SQLNET_PATTERN_REPEATED_QUERY, "repeated_query" },
    { SQLNET_PATTERN_ROW_BY_ROW_DML, "row_by_row_dml" },
    { SQLNET_PATTERN_COMMIT, "commit" },
    { SQLNET_PATTERN_PING, "ping" },
    { SQLNET_PATTERN_LOB_PER_ROW, "lob_per_row" },
    { SQLNET_PATTERN_REPARSE, "reparse" },
    { 0, NULL }
};

const char *
pattern_name(guint kind)
{
    const char *s = try_val_to_str(kind, sqlnet_pattern_vals);
    return s ? s : "";
}

/* A run of calls of one kind. */
typedef struct {
    guint8 kind;
    guint32 first_frame;
    guint32 length;            /* calls */
    guint32 saved_rts;         /* round trips of its calls after the first */
    guint32 closes;            /* cursor closes of its own (go-ora) in it so far */
} run_t;

/* One SQL text of the conversation. */
typedef struct {
    guint32 executions;
    run_t *run;                /* its current run, NULL: none */
    guint32 last_rows;         /* rows of its latest execution so far */
    nstime_t last_end;         /* the last response of its latest execution */
    sqlnet_reparse_run_t reparse;   /* its run of executions each with a parse */
    guint32 *reparse_length;   /* that run's length as the marks read it (NULL: none yet) */
} sql_t;

/* One execution (ttc_request_t.execution). */
typedef struct {
    sql_t *sql;
    guint32 exec_number;
    run_t *run;
    guint32 pos;
    guint32 reparse_pos;       /* its place in the statement's run of parsed executions (0: none) */
    guint32 reparse_first;
    guint32 *reparse_length;
} exec_t;

/* The answer kept for a round trip. */
typedef struct {
    guint32 exec_number;
    run_t *run;
    guint32 pos;
    gboolean expert;
    guint32 reparse_pos, reparse_first;   /* exec_t's, for an execute kept here */
    guint32 *reparse_length;
} mark_t;

/* A conversation-wide run (commit, ping, LOB calls). */
typedef struct {
    run_t *run;
    nstime_t last_end;
    guint32 execs_since;       /* executions since its latest call */
} conv_run_t;

/* A kept mark and the round trip (sqlnet.rt.number) it is for. */
typedef struct {
    guint32 number;
    mark_t m;
} kept_mark_t;

struct sqlnet_patterns {
    sqlnet_textmap_t sqls;     /* statement text -> sql_t (core/textmap.h) */
    exec_t **execs;            /* by execution number - 1 (the session's executions are
                                * numbered 1, 2, ...: ttc_pairing.c): what its round trips
                                * read, NULL for one that ran no statement; grown by doubling */
    gsize execs_cap;
    kept_mark_t *marks;        /* by round-trip number, ascending (the first pass classifies
                                * in that order): only the calls in a
                                * conversation-wide run (commit, ping, LOB) and go-ora's cursor
                                * closes in a run (OPINGs: their place among its closes), so
                                * that a capture of fetches keeps nothing per round trip */
    guint32 nmarks, marks_cap;
    conv_run_t commit, ping, lob;
    guint32 upto;              /* round trips (sqlnet.rt.number) classified so far */
};

#define PATTERN_PING_SPAN_MS 10000   /* a ping before each piece of work: at most this long apart */

/* b - a in ms (negative when b is before a). */
static double
ms_between(const nstime_t *a, const nstime_t *b)
{
    nstime_t d;
    nstime_delta(&d, b, a);
    return nstime_to_msec(&d);
}

/* From a to the request's first packet in ms. */
static double
ms_between_req(const nstime_t *a, const ttc_request_t *req)
{
    nstime_t first = ttc_req_first_time(req);
    return ms_between(a, &first);
}

/* The statement's first word, case-insensitively, after blanks and comments. */
static gboolean
first_word_is(const char *sql, const char *word)
{
    const char *p = sql;
    gsize n = strlen(word);

    for (;;) {
        while (*p && g_ascii_isspace(*p))
            p++;
        if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            if (!end)
                return FALSE;
            p = end + 2;
            continue;
        }
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        break;
    }
    return g_ascii_strncasecmp(p, word, n) == 0 && !g_ascii_isalnum(p[n]) && p[n] != '_';
}

/* A validation query: SELECT <one literal> FROM DUAL (what connection pools
 * send to test a connection: "SELECT 1 FROM DUAL", "SELECT 'x' FROM DUAL"). */
static gboolean
is_validation_query(const char *sql)
{
    gchar **w;
    gboolean yes;
    guint n;

    if (!first_word_is(sql, "select") || strlen(sql) > 64)
        return FALSE;
    w = g_strsplit_set(sql, " \t\r\n", -1);
    {
        /* the non-empty words */
        guint i, k = 0;
        for (i = 0; w[i]; i++)
            if (w[i][0])
                w[k++] = w[i];
            else
                g_free(w[i]);
        w[k] = NULL;
        n = k;
    }
    yes = n == 4 && g_ascii_strcasecmp(w[2], "from") == 0 && g_ascii_strcasecmp(w[3], "dual") == 0 &&
          (g_ascii_isdigit(w[1][0]) || w[1][0] == '\'');
    g_strfreev(w);
    return yes;
}

gboolean
patterns_parses(const ttc_request_t *req)
{
    return req && req->stmt_sql && ttc_req_executes(req) && req->call.kind == TTC_REQ_FUNCTION &&
           req->call.func == TTC_FN_OALL8 && (req->call.options & TTC_OPT_PARSE);
}

guint32
patterns_reparse_step(sqlnet_reparse_run_t *r, const ttc_request_t *req)
{
    if (!patterns_parses(req)) {
        r->length = 0;
        return 0;
    }
    if (r->length == 0)
        r->first_frame = req->first_frame ? req->first_frame : req->frame;
    return ++r->length;
}

static guint8
execution_kind(const ttc_request_t *req)
{
    const char *sql = req->stmt_sql;

    if (!sql)
        return SQLNET_PATTERN_NONE;
    if (is_validation_query(sql))
        return SQLNET_PATTERN_PING;
    if (first_word_is(sql, "select") || first_word_is(sql, "with"))
        return SQLNET_PATTERN_REPEATED_QUERY;
    if ((first_word_is(sql, "insert") || first_word_is(sql, "update") || first_word_is(sql, "delete") ||
         first_word_is(sql, "merge")) && req->call.exec_count <= 1)
        return SQLNET_PATTERN_ROW_BY_ROW_DML;
    return SQLNET_PATTERN_NONE;
}

static run_t *
run_new(guint8 kind, guint32 frame)
{
    run_t *r = wmem_new0(wmem_file_scope(), run_t);
    r->kind = kind;
    r->first_frame = frame;
    return r;
}

/* One more call in run r: its pos. */
static guint32
run_add(run_t *r)
{
    r->length++;
    if (r->length > 1)
        r->saved_rts++;
    return r->length;
}

/* A conversation-wide call (commit, ping, LOB): continue its run or start one. */
static void
conv_call(conv_run_t *c, guint8 kind, const ttc_request_t *req, const ttc_response_t *resp, double span_ms,
          gboolean needs_work_between, mark_t *m)
{
    gboolean goes_on = c->run != NULL && ms_between_req(&c->last_end, req) <= span_ms &&
                       (!needs_work_between || c->execs_since >= 1);

    if (!goes_on)
        c->run = run_new(kind, req->first_frame ? req->first_frame : req->frame);
    m->run = c->run;
    m->pos = run_add(c->run);
    c->last_end = ttc_resp_last_time(resp);
    c->execs_since = 0;
}

static struct sqlnet_patterns *
state_of(sqlnet_session_t *sess)
{
    if (!sess->patterns) {
        sess->patterns = wmem_new0(wmem_file_scope(), struct sqlnet_patterns);
    }
    return sess->patterns;
}

/* The statement's state in the session (by text: a text repeated in a
 * later call may be a copy), made when new. */
static sql_t *
sql_of(struct sqlnet_patterns *p, const char *sql)
{
    sql_t *s = (sql_t *)sqlnet_textmap_lookup(&p->sqls, sql);

    if (!s) {
        s = wmem_new0(wmem_file_scope(), sql_t);
        sqlnet_textmap_insert(&p->sqls, sql, s);
    }
    return s;
}

/* A mark kept for round trip `number` (numbers come in ascending order). */
static void
mark_keep(struct sqlnet_patterns *p, guint32 number, const mark_t *m)
{
    if (p->nmarks == p->marks_cap) {
        p->marks_cap = p->marks_cap ? p->marks_cap * 2 : 2;
        p->marks = (kept_mark_t *)wmem_realloc(wmem_file_scope(), p->marks, p->marks_cap * sizeof(*p->marks));
    }
    p->marks[p->nmarks].number = number;
    p->marks[p->nmarks].m = *m;
    p->nmarks++;
}

static const mark_t *
mark_find(const struct sqlnet_patterns *p, guint32 number)
{
    guint32 lo = 0, hi = p->nmarks;

    while (lo < hi) {
        guint32 mid = lo + (hi - lo) / 2;
        if (p->marks[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nmarks && p->marks[lo].number == number ? &p->marks[lo].m : NULL;
}

static exec_t *
exec_of(const struct sqlnet_patterns *p, guint32 execution)
{
    return execution >= 1 && execution <= p->execs_cap ? p->execs[execution - 1] : NULL;
}

static void
exec_set(struct sqlnet_patterns *p, guint32 execution, exec_t *e)
{
    if (execution > p->execs_cap) {
        gsize cap = MAX(p->execs_cap * 2, 8), old = p->execs_cap;   /* (64-bit: no wrap) */
        while (cap < execution)
            cap *= 2;
        p->execs = (exec_t **)wmem_realloc(wmem_file_scope(), p->execs, cap * sizeof(exec_t *));
        memset(p->execs + old, 0, (cap - old) * sizeof(exec_t *));
        p->execs_cap = cap;
    }
    p->execs[execution - 1] = e;
}

static void
classify(struct sqlnet_patterns *p, const ttc_response_t *resp, mark_t *m)
{
    const ttc_request_t *req = resp->req;
    guint8 func = req->call.kind == TTC_REQ_FUNCTION ? req->call.func : 0;
    exec_t *e = NULL;

    if (func == TTC_FN_COMMIT) {
        /* a commit call right after one statement (one execution since the
         * previous commit); the first of a run may close more (the session's
         * own setup queries after the logon: go-ora's), so more than one
         * execution before a commit ends a run and starts the next */
        if (p->commit.execs_since >= 1) {
            if (p->commit.execs_since > 1)
                p->commit.run = NULL;
            conv_call(&p->commit, SQLNET_PATTERN_COMMIT, req, resp, PATTERN_SPAN_MS, FALSE, m);
        } else {
            p->commit.run = NULL;
            p->commit.execs_since = 0;
        }
        m->expert = m->run && m->pos == PATTERN_MIN_RUN;
        return;
    }
    if (func == TTC_FN_PING && !req->closes_cursor) {
        conv_call(&p->ping, SQLNET_PATTERN_PING, req, resp, PATTERN_PING_SPAN_MS, TRUE, m);
        m->expert = m->pos == PATTERN_MIN_RUN;
        return;
    }
    if (req->execution)
        e = exec_of(p, req->execution);
    if (func == TTC_FN_LOB_OP) {
        conv_call(&p->lob, SQLNET_PATTERN_LOB_PER_ROW, req, resp, PATTERN_SPAN_MS, FALSE, m);
        if (e)
            m->exec_number = e->exec_number;
        m->expert = m->pos == PATTERN_MIN_RUN;
        return;
    }
    if (ttc_req_executes(req) && req->stmt_sql && req->execution) {
        sql_t *s = sql_of(p, req->stmt_sql);
        guint8 kind = execution_kind(req);

        e = wmem_new0(wmem_file_scope(), exec_t);
        e->sql = s;
        e->exec_number = ++s->executions;
        e->reparse_pos = patterns_reparse_step(&s->reparse, req);
        if (e->reparse_pos == 1 || !s->reparse_length)
            s->reparse_length = wmem_new0(wmem_file_scope(), guint32);
        if (e->reparse_pos) {
            *s->reparse_length = e->reparse_pos;
            e->reparse_first = s->reparse.first_frame;
            e->reparse_length = s->reparse_length;
        }
        m->reparse_pos = e->reparse_pos;
        m->reparse_first = e->reparse_first;
        m->reparse_length = e->reparse_length;
        p->commit.execs_since++;
        p->ping.execs_since++;
        if (kind == SQLNET_PATTERN_PING) {
            conv_call(&p->ping, SQLNET_PATTERN_PING, req, resp, PATTERN_PING_SPAN_MS, TRUE, m);
            e->run = m->run;
            e->pos = m->pos;
        } else if (kind != SQLNET_PATTERN_NONE) {
            gboolean goes_on = s->run != NULL && s->run->kind == kind &&
                               ms_between_req(&s->last_end, req) <= PATTERN_SPAN_MS &&
                               (kind != SQLNET_PATTERN_REPEATED_QUERY || s->last_rows <= PATTERN_FEW_ROWS);
            if (!goes_on)
                s->run = run_new(kind, req->first_frame ? req->first_frame : req->frame);
            e->run = s->run;
            e->pos = run_add(s->run);
            m->run = e->run;
            m->pos = e->pos;
        } else {
            s->run = NULL;
        }
        s->last_rows = resp->rows;
        s->last_end = ttc_resp_last_time(resp);
        exec_set(p, req->execution, e);
        m->exec_number = e->exec_number;
        m->expert = m->run && m->pos == PATTERN_MIN_RUN;
        return;
    }
    if (e) {
        /* a fetch (or another call) of an execution: part of its run */
        m->exec_number = e->exec_number;
        m->run = e->run;
        m->pos = e->pos;
        if (req->closes_cursor && e->run)
            /* go-ora's close of a cursor (an OPING of its own, never a
             * ping): its place among the run's closes, since the one call
             * instead still closes one (an N+1 opens a cursor per query: a
             * close per execution; row by row on one prepared statement
             * closes it once) */
            m->pos = ++e->run->closes;
        e->sql->last_rows += resp->rows;
        e->sql->last_end = ttc_resp_last_time(resp);
        if (e->run && m->pos > 1)
            e->run->saved_rts++;
    }
}

/* What was decided for resp: a conversation-wide run's mark, else its
 * execution's (the execute and its fetches share it). */
static gboolean
mark_of(struct sqlnet_patterns *p, const ttc_response_t *resp, mark_t *m)
{
    const mark_t *kept = mark_find(p, resp->number);
    const exec_t *e;

    if (kept) {
        *m = *kept;
        return TRUE;
    }
    memset(m, 0, sizeof(*m));
    if (!resp->req->execution)
        return FALSE;
    e = exec_of(p, resp->req->execution);
    if (!e)
        return FALSE;
    m->exec_number = e->exec_number;
    m->run = e->run;
    m->pos = e->pos;
    m->expert = e->run && e->pos == PATTERN_MIN_RUN && ttc_req_executes(resp->req);
    if (ttc_req_executes(resp->req)) {
        /* the parse rides with the execute: only its round trip */
        m->reparse_pos = e->reparse_pos;
        m->reparse_first = e->reparse_first;
        m->reparse_length = e->reparse_length;
    }
    return TRUE;
}

const sqlnet_pattern_mark_t *
patterns_note(packet_info *pinfo, sqlnet_session_t *sess, const ttc_response_t *resp)
{
    struct sqlnet_patterns *p;
    mark_t m;
    sqlnet_pattern_mark_t *out;

    if (!resp || !resp->req || resp->number == 0)
        return NULL;
    p = state_of(sess);
    if (!PINFO_FD_VISITED(pinfo) && resp->number > p->upto) {
        /* first published (the first pass publishes in round-trip order) */
        p->upto = resp->number;
        memset(&m, 0, sizeof(m));
        classify(p, resp, &m);
        if (m.run && (!resp->req->execution || !exec_of(p, resp->req->execution)
                      || resp->req->call.func == TTC_FN_LOB_OP || resp->req->call.func == TTC_FN_COMMIT ||
                      resp->req->call.func == TTC_FN_PING)) {
            mark_keep(p, resp->number, &m);
        }
    }
    if (!mark_of(p, resp, &m))
        return NULL;
    out = wmem_new0(pinfo->pool, sqlnet_pattern_mark_t);
    out->exec_number = m.exec_number;
    if (m.run) {
        out->kind = m.run->kind;
        out->pattern = m.pos >= PATTERN_MIN_RUN ? m.run->kind : SQLNET_PATTERN_NONE;
        out->run_first = m.run->first_frame;
        out->run_index = m.pos;
        out->run_length = m.run->length;
        out->run_saved_rts = m.run->saved_rts;
        out->expert = m.expert;
    }
    if (m.reparse_pos) {
        out->reparse_index = m.reparse_pos;
        out->reparse_first = m.reparse_first;
        out->reparse_length = m.reparse_length ? *m.reparse_length : m.reparse_pos;
        out->reparse_expert = m.reparse_pos == PATTERN_MIN_RUN;
    }
    return out;
}
