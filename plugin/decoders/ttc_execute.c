/* ttc_execute.c - statements: the execute call (OALL8, 94) with its
 * bind and define metadata, fetch (OFETCH, 5), re-execute (4, 78), OCI
 * 9.0's parse (OPARSE, 3) and execute (OALL7, 71); their return
 * parameters (message 8) and the I/O vector (11) of a PL/SQL execute.
 *
 * python-oracledb messages/execute.pyx and fetch.pyx, node-oracledb
 * messages/execute.js, go-ora v2/command.go (10.2/11g gates), JDBC
 * T4C8Oall; the gates are named beside the fields.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>

#include "sqlnet.h"
#include "ttc_msg.h"
#include "ttc_binds.h"
#include "ttc_bindmeta.h"

#define MAX_AL8I4     64

static int hf_fetch_rows = -1;
static int hf_options = -1;
static int hf_opt_parse = -1;
static int hf_opt_bind = -1;
static int hf_opt_define = -1;
static int hf_opt_execute = -1;
static int hf_opt_fetch = -1;
static int hf_opt_commit = -1;
static int hf_opt_plsql_bind = -1;
static int hf_opt_not_plsql = -1;
static int hf_opt_describe = -1;
static int hf_prefetch = -1;
static int hf_exec_count = -1;
static int hf_is_query = -1;
static int hf_exec_flags = -1;
static int hf_num_binds = -1;
static int hf_num_defines = -1;
static int hf_iters = -1;
static int hf_fetch_orientation = -1;
static int hf_fetch_pos = -1;
static int hf_returning_binds = -1;
static int hf_rpa_dml_rowcount = -1;
static int hf_iov_dir = -1;
static int hf_oall7_sql_len = -1;
static int hf_oall7_al8i4_len = -1;
static int hf_oall7_al8o4_len = -1;
static int hf_oall7_odd = -1;

static expert_field ei_oall7_layout = EI_INIT;

static gint ett_options = -1;

static int * const option_bits[] = {
    &hf_opt_parse, &hf_opt_bind, &hf_opt_define, &hf_opt_execute, &hf_opt_fetch,
    &hf_opt_commit, &hf_opt_plsql_bind, &hf_opt_not_plsql, &hf_opt_describe, NULL
};

static const value_string fetch_orientation_vals[] = {
    { TTC_FETCH_CURRENT, "current" }, { TTC_FETCH_NEXT, "next" }, { TTC_FETCH_FIRST, "first" },
    { TTC_FETCH_LAST, "last" }, { TTC_FETCH_PRIOR, "prior" }, { TTC_FETCH_ABSOLUTE, "absolute" },
    { TTC_FETCH_RELATIVE, "relative" },
    { 0, NULL }
};

static const value_string bind_dir_vals[] = {
    { TTC_BIND_DIR_OUTPUT, "out" }, { TTC_BIND_DIR_INPUT, "in" }, { TTC_BIND_DIR_INPUT_OUTPUT, "in out" },
    { 0, NULL }
};

/* SQL text of an OALL8 as raw bytes: sql_len bytes followed by al8i4[0] = 1
 * (parse); FALSE (r unchanged) when they are not. */
static gboolean
read_sql_bare(ttc_rd_t *r, guint32 sql_len, gint *start, gint *len, const char **sql, wmem_allocator_t *scope)
{
    ttc_rd_t probe = *r;

    if (sql_len == 0 || sql_len >= 0x1000000 || ttc_rd_left(r) < (gint)sql_len)
        return FALSE;
    probe.off += sql_len;
    if (ttc_rd_ub4(&probe) != 1 || !ttc_rd_ok(&probe))
        return FALSE;
    *start = r->off;
    *len = sql_len;
    *sql = (const char *)tvb_get_string_enc(scope, r->tvb, r->off, sql_len, ENC_UTF_8);
    r->off += sql_len;
    return TRUE;
}

/* SQL text of an OALL8: a DALC for most clients, raw bytes for JDBC (its
 * DTY message leaves the conversion-length flag clear: dialect chr_form).
 * The al8i4 vector that follows starts with 1 (parse).  Without the DTY in
 * the capture both readings are tried; a thin client's DALC holds exactly
 * sql_len bytes, which a JDBC text read as a DALC rarely does: its first
 * character is taken for a length, and a 64-byte "ALTER SESSION ..." ('A' =
 * 65) read so ends one ub4 into the al8i4 vector, on its al8i4[1] = 1
 * (issue 35: the OALL8 was shown as sqlnet.ttc.continues). */
static const char *
read_sql(ttc_rd_t *r, guint32 sql_len, gint *start, gint *len, gboolean *searched, wmem_allocator_t *scope)
{
    ttc_rd_t as_dalc = *r, count = *r;
    const char *sql = ttc_rd_dalc_str(&as_dalc, scope, start, len), *bare = NULL;
    guint32 total = ttc_rd_dalc(&count, NULL);
    gboolean dalc_fits = FALSE;
    gint bs = 0, bl = 0;

    if (ttc_rd_ok(&as_dalc)) {
        ttc_rd_t probe = as_dalc;
        dalc_fits = ttc_rd_ub4(&probe) == 1 && ttc_rd_ok(&probe);
    }
    if (!r->d->native && r->d->chr_form == TTC_CHR_BARE) {
        if (read_sql_bare(r, sql_len, start, len, &bare, scope))
            return bare;
        if (sql_len > 0 && sql_len < 0x1000000 && ttc_rd_left(r) < (gint)sql_len + 2) {
            ttc_rd_skip(r, (gint)sql_len + 2);   /* the text continues in the next packet */
            return NULL;
        }
    }
    if (dalc_fits && (r->d->native || r->d->chr_form == TTC_CHR_DALC || total == sql_len)) {
        *r = as_dalc;
        return sql;
    }
    if (read_sql_bare(r, sql_len, &bs, &bl, &bare, scope)) {
        *start = bs;
        *len = bl;
        return bare;
    }
    if (dalc_fits) {
        *r = as_dalc;
        return sql;
    }
    /* OCI's native layouts differ between releases and platforms in the
     * fields before the text (no open implementation writes them): look
     * around for a DALC of at most sql_len bytes of text followed by
     * al8i4[0] = 1 (parse). */
    if (r->d->native && sql_len > 0) {
        gint k;
        for (k = -32; k <= 64; k++) {
            ttc_rd_t at = *r, probe;
            const char *text;
            gint ts, tl;
            if (k == 0 || r->off + k < 0)
                continue;
            at.off += k;
            if (!ttc_rd_have(&at, 2))
                break;
            if (tvb_get_uint8(at.tvb, at.off) == 0 || tvb_get_uint8(at.tvb, at.off) > sql_len)
                continue;
            text = ttc_rd_dalc_str(&at, scope, &ts, &tl);
            if (!ttc_rd_ok(&at) || !text || tl < 1 || !g_ascii_isalpha(text[0]))
                continue;
            probe = at;
            if (ttc_rd_ub4(&probe) == 1 && ttc_rd_ok(&probe)) {
                *start = ts;
                *len = tl;
                *r = at;
                *searched = TRUE;
                return text;
            }
        }
    }
    /* Neither probe fits (short data): fall back on the DALC reading. */
    *r = as_dalc;
    return sql;
}

/* DML RETURNING ... INTO: the binds after INTO are return binds, whose
 * values come back as rows (python-oracledb statement.pyx: a DML statement
 * with the keyword RETURNING then INTO; every placeholder after it is a
 * return bind).  Quoted text and comments are skipped. */
static guint32
returning_bind_count(const char *sql)
{
    const char *p = sql;
    gboolean dml = FALSE, returning = FALSE, into = FALSE, first = TRUE;
    guint32 n = 0;

    if (!sql)
        return 0;
    while (*p) {
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && *p != q)
                p++;
            if (*p)
                p++;
        } else if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (g_ascii_isalpha(*p)) {
            const char *w = p;
            size_t len;
            while (g_ascii_isalnum(*p) || *p == '_' || *p == '$' || *p == '#')
                p++;
            len = (size_t)(p - w);
            if (first) {
                dml = (len == 6 && (g_ascii_strncasecmp(w, "INSERT", 6) == 0 ||
                                    g_ascii_strncasecmp(w, "UPDATE", 6) == 0 ||
                                    g_ascii_strncasecmp(w, "DELETE", 6) == 0)) ||
                      (len == 5 && g_ascii_strncasecmp(w, "MERGE", 5) == 0);
                if (!dml)
                    return 0;
                first = FALSE;
            } else if (len == 9 && g_ascii_strncasecmp(w, "RETURNING", 9) == 0) {
                returning = TRUE;
            } else if (returning && len == 4 && g_ascii_strncasecmp(w, "INTO", 4) == 0) {
                into = TRUE;
            }
        } else if (*p == ':' && into && (g_ascii_isalnum(p[1]) || p[1] == '_' || p[1] == '"')) {
            n++;
            p++;
        } else {
            p++;
        }
    }
    return n;
}

/* PL/SQL (its long binds are not moved to the end of the row): the
 * statement's first word, or without the text the option bits. */
static gboolean
is_plsql(const char *sql, guint32 options)
{
    const char *p = sql;

    if (!sql)
        return (options & TTC_OPT_PLSQL_BIND) && !(options & TTC_OPT_NOT_PLSQL);
    while (*p && (g_ascii_isspace(*p) || *p == '('))
        p++;
    return g_ascii_strncasecmp(p, "BEGIN", 5) == 0 || g_ascii_strncasecmp(p, "DECLARE", 7) == 0 ||
           g_ascii_strncasecmp(p, "CALL", 4) == 0;
}

static gboolean reexecutes_with_values(const ttc_rd_t *r, const ttc_call_t *call, const char *sql);

void
ttc_call_oall8(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
               wmem_allocator_t *scope)
{
    const ttc_dialect_t *d = r->d;
    guint32 sql_ptr, sql_len, al8i4_len, nbinds, ndefines, i;
    guint32 al8i4[MAX_AL8I4];
    gint s, ss = 0, sl = 0;
    const char *sql = NULL;

    s = r->off;
    call->options = ttc_rd_ub4(r);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_bitmask_value(tree, r->tvb, s, hf_options, ett_options, option_bits, call->options);
    s = r->off; call->cursor = ttc_rd_ub4(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    call->has_cursor = TRUE;
    sql_ptr = ttc_rd_ptr(r);
    sql_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* al8i4 */
    al8i4_len = ttc_rd_ub4(r);
    ttc_rd_ptr(r);                     /* al8o4 */
    ttc_rd_ptr(r);                     /* al8o4l */
    ttc_rd_ub4(r);                     /* prefetch buffer size */
    s = r->off; call->prefetch = ttc_rd_ub4(r); ttc_add_uint(tree, hf_prefetch, r, s, call->prefetch);
    ttc_rd_ub4(r);                     /* max LONG size */
    ttc_rd_ptr(r);                     /* binds */
    s = r->off; nbinds = ttc_rd_ub4(r); ttc_add_uint(tree, hf_num_binds, r, s, nbinds);
    for (i = 0; i < 5; i++)
        ttc_rd_ptr(r);                 /* al8app, al8txn, al8txl, al8kv, al8kvl */
    ttc_rd_ptr(r);                     /* defines */
    s = r->off; ndefines = ttc_rd_ub4(r); ttc_add_uint(tree, hf_num_defines, r, s, ndefines);
    /* Fields added release by release (field versions seen on the wire). */
    if (d->fv >= TTC_FV_10_1) {
        ttc_rd_ub4(r);                 /* registration id (LSB) */
        ttc_rd_ptr(r);                 /* al8objlist */
        ttc_rd_ptr(r);                 /* al8objlen */
    }
    if (d->fv >= TTC_FV_10_2) {
        ttc_rd_ptr(r);                 /* al8blv */
        ttc_rd_ub4(r);                 /* al8blvl */
        ttc_rd_ptr(r);                 /* al8dnam */
        ttc_rd_ub4(r);                 /* al8dnaml */
        ttc_rd_ub4(r);                 /* registration id (MSB) */
    }
    /* DML returning row counts: go-ora (v2/command.go basicWrite) writes them
     * from TTC field version 7 (12.1) on, and it is the one open client that
     * talks to 11.2 servers (python and node write them always, from 12.1
     * only).  SQL*Plus 11.2 at field version 6 does not: its OALL8 header
     * is 67 bytes, ending with the registration id (visblank 11.2 session
     * frame 1184, whose long-form SQL text follows right after; reading
     * these three fields there put the text 6 bytes off). */
    if (d->fv >= TTC_FV_12_1) {
        ttc_rd_ptr(r);                 /* al8pidmlrc */
        ttc_rd_ub4(r);                 /* al8pidmlrcbl */
        ttc_rd_ptr(r);                 /* al8pidmlrcl */
    }
    if (d->fv >= TTC_FV_12_2) {
        ttc_rd_ptr(r);                 /* al8sqlsig */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);                 /* SQL id */
        ttc_rd_ub4(r);
        ttc_rd_ptr(r);
    }
    if (d->fv >= TTC_FV_12_2_EXT1) {
        ttc_rd_ptr(r);                 /* chunk ids */
        ttc_rd_ub4(r);
    }
    if (!ttc_rd_ok(r))
        return;
    if (al8i4_len > MAX_AL8I4) {
        r->bad = TRUE;
        return;
    }
    if (sql_ptr || (sql_len > 0 && call->cursor == 0)) {
        sql = read_sql(r, sql_len, &ss, &sl, &res->sql_searched, scope);
        if (tree && sql && ttc_rd_ok(r))
            ttc_add_sql(tree, r->tvb, ss, sl, sql);
    }
    memset(al8i4, 0, sizeof(al8i4));
    s = r->off;
    for (i = 0; i < al8i4_len && ttc_rd_ok(r); i++)
        al8i4[i] = ttc_rd_ub4(r);
    if (!ttc_rd_ok(r))
        return;
    call->sql = sql;
    call->exec_count = al8i4[1];
    /* al8i4[7]: thin drivers send 1 for a query; OCI sends its statement
     * type, where 1 is SELECT (6 DROP, 4 INSERT ...). */
    call->is_query = al8i4_len > 7 && al8i4[7] == 1;
    call->exec_flags = al8i4_len > 9 ? al8i4[9] : 0;
    if (call->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) {
        call->fetch_orientation = al8i4_len > 10 ? al8i4[10] : 0;
        call->fetch_pos = al8i4_len > 11 ? al8i4[11] : 0;
    }
    if (tree) {
        proto_tree_add_uint(tree, hf_exec_count, r->tvb, s, r->off - s, call->exec_count);
        proto_tree_add_boolean(tree, hf_is_query, r->tvb, s, r->off - s, call->is_query);
        proto_tree_add_uint(tree, hf_exec_flags, r->tvb, s, r->off - s, call->exec_flags);
        if (call->exec_flags & TTC_EXEC_FLAG_SCROLLABLE) {
            proto_tree_add_uint(tree, hf_fetch_orientation, r->tvb, s, r->off - s, call->fetch_orientation);
            proto_tree_add_uint(tree, hf_fetch_pos, r->tvb, s, r->off - s, call->fetch_pos);
        }
    }
    /* Rows this call asks for now. */
    if (call->is_query || (call->options & TTC_OPT_FETCH)) {
        call->has_fetch_rows = TRUE;
        if ((call->options & TTC_OPT_FETCH) && !(call->options & TTC_OPT_EXECUTE))
            call->fetch_rows = call->exec_count;      /* fetch-only call (SQL*Plus 10g) */
        else if (call->cursor != 0 && call->exec_count > 0)
            call->fetch_rows = call->exec_count;      /* re-execute of an open cursor */
        else
            call->fetch_rows = call->prefetch;
    }
    /* Bind metadata then values (or define metadata) follow: the bind
     * metadata is decoded (the server's out-bind values are laid out by it),
     * the values are shown as call data. */
    if (nbinds > 0 && ndefines == 0) {
        call->binds = ttc_bind_metadata(r, tree, nbinds, FALSE, scope, &res->body_undecoded);
        call->returning_binds = returning_bind_count(sql);
        if (call->returning_binds > nbinds)
            call->returning_binds = 0;
        call->bind_values = (nbinds - call->returning_binds) * (call->is_query || is_plsql(sql, call->options) ? 1 : MAX(call->exec_count, 1));
        if (tree && call->returning_binds)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_returning_binds, r->tvb, r->off, 0,
                                                         call->returning_binds));
        /* the values themselves (the reader stays before them: call data) */
        if (tree && call->binds)
            ttc_show_bind_values(r, tree, call->binds, call->returning_binds, is_plsql(sql, call->options),
                                 call->exec_count, scope);
    }
    /* Define metadata (a query's second call when it has LOB columns, or a
     * REF cursor's first fetch): the same layout; what the rows' LOB values
     * then carry follows from it. */
    if (ndefines > 0 && nbinds == 0)
        call->defines = ttc_bind_metadata(r, tree, ndefines, TRUE, scope, &res->body_undecoded);
    if (nbinds > 0 || ndefines > 0)
        res->stop = TRUE;
    else if (reexecutes_with_values(r, call, sql))
        res->stop = TRUE;              /* the values of the binds its cursor has (ttc_carry_binds) */
}

/* ojdbc re-executing a statement on its open cursor (T4C8Oall marshal):
 * the bind metadata goes only with the bind option, which it sets when the
 * binds' types change (sendBindsDefinition); the values go whenever the
 * call executes and the statement has binds.  So an OALL8 on an open
 * cursor, without text, binds or defines, that executes and is followed by
 * a row data message (7) sends the values of the binds its cursor's execute
 * laid out.  python-oracledb (messages/execute.pyx _write_reexecute_message),
 * node-oracledb and go-ora (command.go: not parse, not reSendParDef) send
 * the same values after a re-execute call (4, 78) instead. */
static gboolean
reexecutes_with_values(const ttc_rd_t *r, const ttc_call_t *call, const char *sql)
{
    return ttc_rd_ok(r) && call->cursor != 0 && !sql && (call->options & TTC_OPT_EXECUTE) &&
           !(call->options & TTC_OPT_BIND) && r->off >= 0 &&
           /* (a display pass decodes the call up to where its data starts) */
           (guint)r->off < tvb_captured_length(r->tvb) && tvb_get_uint8(r->tvb, r->off) == TTC_MSG_ROW_DATA;
}

/* A call that sends the values of its open cursor's binds without their
 * metadata: ojdbc's OALL8 above, or a re-execute (4, 78) followed by a row
 * data message. */
static gboolean
sends_values_alone(const ttc_rd_t *r, const ttc_call_t *call)
{
    if (call->func == TTC_FN_OALL8)
        return reexecutes_with_values(r, call, call->sql);
    return (call->func == TTC_FN_REEXECUTE || call->func == TTC_FN_REEXECUTE_FETCH) && ttc_rd_ok(r) &&
           call->cursor != 0 && r->off >= 0 && (guint)r->off < tvb_captured_length(r->tvb) &&
           tvb_get_uint8(r->tvb, r->off) == TTC_MSG_ROW_DATA;
}

/* The rows of values after such a call, laid out by the bind metadata the
 * cursor's execute sent (ttc_cursor_t.binds, set when the response named
 * the cursor; the cursor map is capped by sqlnet.max_cursors).  The first
 * pass reads the cursor map as it stands at this packet; later passes read
 * what the first pass kept in the request's call (the map may have moved on
 * since).  A re-execute of PL/SQL is left as call data: python-oracledb
 * leaves its out binds out of the row (messages/execute.pyx
 * _write_reexecute_message), where the metadata has them. */
void
ttc_carry_binds(const ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, const ttc_state_t *st,
                ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_call_t *call = &res->call;
    const ttc_describe_t *binds = NULL;
    guint32 returning = 0, rows;
    gboolean plsql = FALSE;

    if (!res->is_call || !res->stop || res->body_undecoded || call->binds || call->defines ||
        !sends_values_alone(r, call))
        return;
    if (!PINFO_FD_VISITED(pinfo)) {
        sqlnet_session_t *sess = session_of_packet(pinfo, pinfo->srcport, pinfo->destport);
        const ttc_cursor_t *c = sess && sess->ttc ? ttc_cursor_find(sess->ttc, call->cursor) : NULL;
        if (c) {
            binds = c->binds;
            returning = c->returning_binds;
            plsql = is_plsql(c->sql, call->options);
        }
    } else if (st->req && st->req->call.func == call->func && st->req->call.cursor == call->cursor) {
        binds = ttc_req_rare(st->req)->binds;
        returning = ttc_req_rare(st->req)->returning_binds;
        plsql = is_plsql(st->req->stmt_sql, call->options);
    }
    if (!binds || returning > binds->ncols || (plsql && call->func != TTC_FN_OALL8))
        return;
    call->binds = binds;
    call->returning_binds = returning;
    /* one row per execution of a DML; a query or PL/SQL binds one */
    rows = call->is_query || plsql ? 1 : MAX(call->exec_count, 1);
    call->bind_values = (binds->ncols - returning) * rows;
    if (tree)
        ttc_show_bind_values(r, tree, binds, returning, plsql, rows, scope);
}

/* OFETCH: cursor, rows to fetch. */
void
ttc_call_fetch(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res _U_,
               wmem_allocator_t *scope _U_)
{
    gint s;

    s = r->off; call->cursor = ttc_rd_ub4(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    s = r->off; call->fetch_rows = ttc_rd_ub4(r); ttc_add_uint(tree, hf_fetch_rows, r, s, call->fetch_rows);
    call->has_cursor = call->has_fetch_rows = call->is_query = TRUE;
}

/* Re-execute (and fetch): cursor, iterations, options; bind values may follow. */
void
ttc_call_reexecute(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
                   wmem_allocator_t *scope _U_)
{
    gint s;

    s = r->off; call->cursor = ttc_rd_ub4(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    s = r->off; call->exec_count = ttc_rd_ub4(r); ttc_add_uint(tree, hf_iters, r, s, call->exec_count);
    s = r->off; call->options = ttc_rd_ub4(r);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_bitmask_value(tree, r->tvb, s, hf_options, ett_options, option_bits, call->options);
    /* options 2; SQL*Plus 9.0's OEXEC ends with the options (visblank 9i
     * session frame 96: "03 04 1e 01000000 01000000 00000000", 15 bytes) */
    if (!(r->d->structs && r->d->fv < TTC_FV_9_2))
        ttc_rd_ub4(r);
    call->has_cursor = TRUE;
    if (call->func == TTC_FN_REEXECUTE_FETCH) {
        call->has_fetch_rows = call->is_query = TRUE;
        call->fetch_rows = call->exec_count;
    }
    res->stop = TRUE;              /* bind values may follow */
}

void
ttc_call_parse(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
               wmem_allocator_t *scope)
{
    gint s;

    /* OCI before OALL8 (SQL*Plus 9.0, visblank 9i session frames 64, 80,
     * 94): cursor, SQL pointer, SQL length, the text as a DALC; no open
     * client writes it. */
    if (!r->d->native) {
        res->stop = TRUE;
        return;
    }
    s = r->off; call->cursor = ttc_rd_ub4(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    call->has_cursor = TRUE;
    ttc_rd_ptr(r);
    ttc_rd_ub4(r);                 /* SQL length */
    {
        gint ss, sl;
        const char *sql = ttc_rd_dalc_str(r, scope, &ss, &sl);
        if (ttc_rd_ok(r) && sql) {
            call->sql = sql;
            if (tree)
                ttc_add_sql(tree, r->tvb, ss, sl, sql);
        }
    }
    res->stop = TRUE;
}

/* ---- OALL7 (71): OCI7's bundled call ("fast UPI calls to OPIAL7") ------
 *
 * OCI before 9.2 parses, binds, defines, executes and fetches a cursor in
 * one call, the predecessor of OALL8.  No open client writes it and no open
 * source describes it: the layout is read off the two OALL7 of the visblank
 * SQL*Plus 9.0 session (frames 66 and 82, 121 bytes each, field version 1,
 * same-platform dialect: ub4 and pointers 4 bytes little-endian), beside the
 * OALL8 of the same client (frame 88) and python-oracledb's OALL8
 * (messages/execute.pyx _write_execute_message), whose shape it has:
 *
 *   @0  options ub4              30 80 00 00: define, execute, not PL/SQL
 *   @4  cursor ub4               1 (its OPARSE, frame 64, named it)
 *   @8  SQL pointer, @12 length  0, 0 (parsed by the OPARSE)
 *   @16 binds pointer, @20 count 0, 0 (no bind option; OUR BELIEF that the
 *                                binds are this pair, by OALL8's order)
 *   @24 al8i4 pointer, @28 count 10 eb fa 00 (the address of frame 88's
 *                                al8i4), 7
 *   @32 al8o4 pointer, @36 count 2: the reply's al8o4 has two entries
 *                                (frame 67: "08 02 00" and two ub4)
 *   @40 ub4                      0 (not known)
 *   @44 defines pointer, @48 count  1: the one column of SELECT USER
 *   @52 ub4, @56 ub4             0, 0 (not known)
 *   @60 the SQL text (a DALC, when its length is not 0: OUR BELIEF, as OALL8)
 *       al8i4 (7 ub4: 0 = no parse, 1 = one execution, 0 ...)
 *       bind metadata, then define metadata (one entry each, 33 bytes
 *       natively: the oac entry of frame 88's bind - type 01 @0, flags @1,
 *       precision @2, scale ub2 @3, buffer size ub4 @5, max elements ub4
 *       @9, charset ub2 @25 (178 WE8MSWIN1252), charset form @27 - here the
 *       define: type 1, buffer 29 (frame 82: 249), charset 178)
 *       bind values as row data (07), as OALL8 sends them (OUR BELIEF).
 * A call that does not fit (counts beyond the caps, bytes left that are
 * neither row data nor a next message) keeps options and cursor, finds its
 * SQL text only as a DALC whose length is the SQL length field, and says so
 * in expert info; the rest is call data. */

/* A query by its first word (SELECT, WITH), past blanks and brackets. */
static gboolean
sql_is_query(const char *sql)
{
    const char *p = sql;

    while (*p && (g_ascii_isspace(*p) || *p == '('))
        p++;
    return g_ascii_strncasecmp(p, "SELECT", 6) == 0 || g_ascii_strncasecmp(p, "WITH", 4) == 0;
}

/* A call that does not fit the layout: its SQL text, if any, is the DALC
 * whose length is the call's SQL length field (the text may end with its
 * NUL, which the length counts: frame 64's OPARSE, 22 for 21 characters),
 * looked for in the first bytes after the cursor only. */
#define OALL7_SQL_WINDOW 128
static const char *
oall7_find_sql(const ttc_rd_t *from, guint32 sql_len, gint *start, gint *len, wmem_allocator_t *scope)
{
    gint off;

    if (sql_len == 0 || sql_len > 0x100000)
        return NULL;
    /* where the layout puts it: 52 bytes after the cursor, give or take */
    for (off = from->off; off < from->end && off < from->off + OALL7_SQL_WINDOW; off++) {
        ttc_rd_t at = *from;
        const char *text;
        guint8 b = tvb_get_uint8(from->tvb, off);
        guint32 total;
        gint first;
        if (b != sql_len && !(b == 0xfe && sql_len >= 0xfe))
            continue;
        at.off = off;
        total = ttc_rd_dalc(&at, &first);
        if (!ttc_rd_ok(&at) || total != sql_len)
            continue;
        at.off = off;
        text = ttc_rd_dalc_str(&at, scope, start, len);
        if (text && g_ascii_isalpha(text[0]))
            return text;
    }
    return NULL;
}

void
ttc_call_oall7(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
               wmem_allocator_t *scope)
{
    guint32 sql_ptr, sql_len, nbinds, al8i4_len, ndefines, i;
    guint32 al8i4[MAX_AL8I4];
    const ttc_describe_t *binds = NULL, *defines = NULL;
    const char *sql = NULL;
    gint s, ss = 0, sl = 0, text_end;
    ttc_rd_t w;
    proto_item *odd = NULL;

    res->stop = TRUE;                  /* whatever follows is call data */
    s = r->off; call->options = ttc_rd_ub4(r);
    if (tree && ttc_rd_ok(r))
        proto_tree_add_bitmask_value(tree, r->tvb, s, hf_options, ett_options, option_bits, call->options);
    s = r->off; call->cursor = ttc_rd_ub4(r); ttc_add_uint(tree, hf_ttc_cursor, r, s, call->cursor);
    if (!ttc_rd_ok(r))
        return;
    call->has_cursor = TRUE;

    /* The rest on a copy: a call that does not fit leaves the reader here. */
    w = *r;
    sql_ptr = ttc_rd_ptr(&w);
    sql_len = ttc_rd_ub4(&w);
    ttc_rd_ptr(&w);                    /* binds */
    nbinds = ttc_rd_ub4(&w);
    ttc_rd_ptr(&w);                    /* al8i4 */
    al8i4_len = ttc_rd_ub4(&w);
    ttc_rd_ptr(&w);                    /* al8o4 */
    ttc_rd_ub4(&w);                    /* al8o4 count: the reply's */
    ttc_rd_ub4(&w);
    ttc_rd_ptr(&w);                    /* defines */
    ndefines = ttc_rd_ub4(&w);
    ttc_rd_ub4(&w);
    ttc_rd_ub4(&w);
    if (ttc_rd_ok(&w) && (al8i4_len > MAX_AL8I4 || nbinds > TTC_MAX_BIND_ENTRIES || ndefines > TTC_MAX_BIND_ENTRIES ||
                          sql_len > 0x100000))
        w.bad = TRUE;
    if (ttc_rd_ok(&w) && (sql_ptr || sql_len > 0)) {
        guint32 total;
        ttc_rd_t t = w;
        total = ttc_rd_dalc(&t, NULL);
        if (ttc_rd_ok(&t) && total == sql_len)
            sql = ttc_rd_dalc_str(&w, scope, &ss, &sl);
        else if (t.need_more)
            w.need_more = TRUE;
        else
            w.bad = TRUE;
    }
    text_end = w.off;
    memset(al8i4, 0, sizeof(al8i4));
    for (i = 0; i < al8i4_len && ttc_rd_ok(&w); i++)
        al8i4[i] = ttc_rd_ub4(&w);
    if (ttc_rd_ok(&w) && nbinds > 0 && !(binds = w.d->native ? ttc_oall7_metadata(&w, NULL, nbinds, FALSE, scope)
                                                             : (ndefines == 0 ? ttc_bind_metadata(&w, NULL, nbinds, FALSE, scope, NULL) : NULL)))
        w.bad = w.bad || !w.need_more;
    if (ttc_rd_ok(&w) && ndefines > 0 && !(defines = w.d->native ? ttc_oall7_metadata(&w, NULL, ndefines, TRUE, scope)
                                                                 : (nbinds == 0 ? ttc_bind_metadata(&w, NULL, ndefines, TRUE, scope, NULL) : NULL)))
        w.bad = w.bad || !w.need_more;
    if (w.need_more && !w.bad) {
        r->need_more = TRUE;           /* the call continues in the next TNS packet */
        return;
    }

    if (!ttc_call_ends_well(&w)) {
        /* Not the layout above: keep options and cursor, the SQL text
         * only when a DALC of the announced length is there. */
        ttc_rd_t h = *r;
        sql_len = 0;
        ttc_rd_ptr(&h);
        sql_len = ttc_rd_ub4(&h);
        if (!ttc_rd_ok(&h))
            sql_len = 0;
        sql = oall7_find_sql(r, sql_len, &ss, &sl, scope);
        if (sql) {
            call->sql = sql;
            if (tree)
                ttc_add_sql(tree, r->tvb, ss, sl, sql);
        }
        /* The rest of the message is this item (not call data): the
         * display pass then decodes the same bytes and finds the same. */
        if (tree)
            odd = proto_tree_add_item(tree, hf_oall7_odd, r->tvb, r->off, ttc_rd_left(r), ENC_NA);
        if (odd)
            expert_add_info_format(NULL, odd, &ei_oall7_layout,
                                   "OALL7 does not fit its layout (%d bytes after the cursor)%s",
                                   ttc_rd_left(r), sql ? ": SQL text found by its length field" : "");
        call->is_query = call->sql && sql_is_query(call->sql);
        r->off = r->end;
        return;
    }

    /* The layout fits: show it and keep what it says. */
    if (tree) {
        ttc_rd_t t = *r;
        ttc_rd_ptr(&t);
        s = t.off; ttc_rd_ub4(&t);
        proto_tree_add_uint(tree, hf_oall7_sql_len, t.tvb, s, t.off - s, sql_len);
        ttc_rd_ptr(&t);
        s = t.off; ttc_rd_ub4(&t);
        proto_tree_add_uint(tree, hf_num_binds, t.tvb, s, t.off - s, nbinds);
        ttc_rd_ptr(&t);
        s = t.off; ttc_rd_ub4(&t);
        proto_tree_add_uint(tree, hf_oall7_al8i4_len, t.tvb, s, t.off - s, al8i4_len);
        ttc_rd_ptr(&t);
        s = t.off; i = ttc_rd_ub4(&t);
        proto_tree_add_uint(tree, hf_oall7_al8o4_len, t.tvb, s, t.off - s, i);
        ttc_rd_ub4(&t);
        ttc_rd_ptr(&t);
        s = t.off; ttc_rd_ub4(&t);
        proto_tree_add_uint(tree, hf_num_defines, t.tvb, s, t.off - s, ndefines);
        if (sql)
            ttc_add_sql(tree, r->tvb, ss, sl, sql);
    }
    r->off = text_end;
    s = r->off;
    for (i = 0; i < al8i4_len; i++)
        ttc_rd_ub4(r);
    call->sql = sql;
    call->exec_count = al8i4_len > 1 ? al8i4[1] : 0;
    if (tree && al8i4_len > 1)
        proto_tree_add_uint(tree, hf_exec_count, r->tvb, s, r->off - s, call->exec_count);
    /* the metadata again, shown (the universal layout, JDBC thin's, is OALL8's) */
    if (binds && r->d->native)
        ttc_oall7_metadata(r, tree, nbinds, FALSE, scope);
    else if (binds)
        ttc_bind_metadata(r, tree, nbinds, FALSE, scope, NULL);
    if (defines && r->d->native)
        ttc_oall7_metadata(r, tree, ndefines, TRUE, scope);
    else if (defines)
        ttc_bind_metadata(r, tree, ndefines, TRUE, scope, NULL);
    call->binds = binds;
    call->defines = defines;
    /* A query: its text says so, or it has defines or fetches. */
    call->is_query = (sql && sql_is_query(sql)) || ndefines > 0 || (call->options & TTC_OPT_FETCH);
    if (tree)
        proto_tree_add_boolean(tree, hf_is_query, r->tvb, s, 0, call->is_query);
    /* Rows asked for now: the fetch option with al8i4[1] rows (OUR BELIEF:
     * OCI's execute count is the rows a query fetches at execute time, and
     * OALL8's fetch-only call puts its rows there too). */
    if (call->options & TTC_OPT_FETCH) {
        call->has_fetch_rows = TRUE;
        call->fetch_rows = call->exec_count;
    }
    if (binds) {
        gboolean plsql = is_plsql(sql, call->options);
        call->bind_values = nbinds * (call->is_query || plsql ? 1 : MAX(call->exec_count, 1));
        if (tree)
            ttc_show_bind_values(r, tree, binds, 0, plsql, call->exec_count, scope);
    }
    /* Bind values are call data; a next message (piggyback) is decoded. */
    res->stop = ttc_rd_left(r) > 0 && tvb_get_uint8(r->tvb, r->off) == TTC_MSG_ROW_DATA;
}

/* Return parameters of an execute or fetch: al8o4, transaction id, key/value
 * pairs, registration, array DML row counts. */
void
ttc_rpa_execute(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req, wmem_allocator_t *scope _U_)
{
    guint32 n, i;

    if (r->d->structs && r->d->fv < TTC_FV_9_2 && req && req->call.func == TTC_FN_OALL7) {
        /* SQL*Plus 9.0's server (field version 1): an OALL7's return
         * parameters are al8o4 alone (visblank 9i session frames 67, 83:
         * "08 02 00" and two ub4, then the OER). */
        n = ttc_rd_ub2(r);
        if (n > TTC_MAX_LIST) { r->bad = TRUE; return; }
        for (i = 0; i < n && ttc_rd_ok(r); i++)
            ttc_rd_ub4(r);
        return;
    }
    n = ttc_rd_ub2(r);            /* al8o4l */
    if (n > TTC_MAX_LIST) { r->bad = TRUE; return; }
    for (i = 0; i < n && ttc_rd_ok(r); i++)
        ttc_rd_ub4(r);
    n = ttc_rd_ub2(r);            /* al8txl */
    ttc_rd_skip(r, (gint)n);
    ttc_rd_skip_kv_pairs(r, ttc_rd_ub2(r));
    if (r->d->fv >= TTC_FV_10_1) {
        n = r->d->native ? ttc_rd_ub4(r) : ttc_rd_ub2(r);   /* registration */
        ttc_rd_skip(r, (gint)n);
    }
    /* DML row counts: asked for by execute flag 0x4000 and the al8pidmlrc
     * pointer, which the call carries from field version 7 on (see
     * decode_oall8).  JDBC sets the flag against an 11.2 server too and
     * gets no counts there.  One per execution of an array DML
     * (python-oracledb getarraydmlrowcounts). */
    if (req && (req->call.exec_flags & TTC_EXEC_FLAG_DML_ROWCOUNTS) && r->d->fv >= TTC_FV_12_1) {
        n = ttc_rd_ub4(r);        /* array DML row counts */
        if (n > TTC_MAX_LIST) { r->bad = TRUE; return; }
        for (i = 0; i < n && ttc_rd_ok(r); i++) {
            gint s = r->off;
            guint64 c = ttc_rd_ub8(r);
            if (tree && ttc_rd_ok(r))
                proto_tree_add_uint64(tree, hf_rpa_dml_rowcount, r->tvb, SPAN(r, s), c);
        }
    }
}

/* One direction byte per bind (python-oracledb _process_io_vector); the
 * binds that are not input only make the values of the row that follows.
 * Without the call's bind metadata (not in the capture, or not decoded) that
 * row cannot be walked and is reported as not decoded. */
static void
decode_io_vector_dirs(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, guint32 nbinds, wmem_allocator_t *scope)
{
    const ttc_describe_t *binds = st->req ? ttc_req_rare(st->req)->binds : NULL;
    ttc_describe_t *out = NULL;
    guint32 i;

    if (!ttc_rd_have(r, (gint)nbinds))
        return;
    if (binds && binds->ncols == nbinds) {
        out = wmem_new0(scope, ttc_describe_t);
        out->kind = TTC_ROWS_OUT_BINDS;
        out->cols = wmem_alloc0_array(scope, ttc_column_t, nbinds ? nbinds : 1);
    }
    for (i = 0; i < nbinds; i++) {
        gint s = r->off;
        guint8 dir = ttc_rd_u8(r);
        if (tree)
            proto_tree_add_uint_format(tree, hf_iov_dir, r->tvb, s, 1, dir, "Bind %u: %s", i + 1,
                                       val_to_str_const(dir, bind_dir_vals, "unknown direction"));
        if (out && dir != TTC_BIND_DIR_INPUT)
            out->cols[out->ncols++] = binds->cols[i];
    }
    st->describe = out;
    st->bitvec = NULL;
    st->bitvec_len = 0;
    st->rxh_columns = 0;
    st->rxh_bv_bytes = 0;
}

/* I/O vector (message 11): bind directions of a PL/SQL execute. */
void
ttc_msg_io_vector(ttc_rd_t *r, proto_tree *mt, ttc_state_t *st, ttc_msg_result_t *res _U_,
                  wmem_allocator_t *scope)
{
    guint32 nreq, niters, n, nbinds;
    gboolean short_counts = r->d->native && r->d->fv < TTC_FV_10_2;
    ttc_rd_u8(r);
    nreq = ttc_rd_ub2(r);
    niters = short_counts ? ttc_rd_ub2(r) : ttc_rd_ub4(r);
    if (short_counts) ttc_rd_ub2(r); else ttc_rd_ub4(r);   /* iterations this time */
    ttc_rd_ub2(r);
    n = ttc_rd_kv_len(r);                /* bit vector (4-byte length natively) */
    ttc_rd_skip(r, (gint)n);
    n = ttc_rd_kv_len(r);                /* rowid */
    ttc_rd_skip(r, (gint)n);
    nbinds = niters * 256 + nreq;
    if (nbinds > TTC_MAX_LIST) { r->bad = TRUE; return; }
    decode_io_vector_dirs(r, mt, st, nbinds, scope);
}

void
ttc_execute_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_fetch_rows, { "Rows", "sqlnet.ofetch.rows", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Rows asked for by OFETCH", HFILL } },
        { &hf_options, { "Options", "sqlnet.oall8.options", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_opt_parse, { "Parse", "sqlnet.oall8.options.parse", FT_BOOLEAN, 32, NULL, TTC_OPT_PARSE, NULL, HFILL } },
        { &hf_opt_bind, { "Bind", "sqlnet.oall8.options.bind", FT_BOOLEAN, 32, NULL, TTC_OPT_BIND, NULL, HFILL } },
        { &hf_opt_define, { "Define", "sqlnet.oall8.options.define", FT_BOOLEAN, 32, NULL, TTC_OPT_DEFINE, NULL, HFILL } },
        { &hf_opt_execute, { "Execute", "sqlnet.oall8.options.execute", FT_BOOLEAN, 32, NULL, TTC_OPT_EXECUTE, NULL, HFILL } },
        { &hf_opt_fetch, { "Fetch", "sqlnet.oall8.options.fetch", FT_BOOLEAN, 32, NULL, TTC_OPT_FETCH, NULL, HFILL } },
        { &hf_opt_commit, { "Commit", "sqlnet.oall8.options.commit", FT_BOOLEAN, 32, NULL, TTC_OPT_COMMIT, NULL, HFILL } },
        { &hf_opt_plsql_bind, { "PL/SQL bind", "sqlnet.oall8.options.plsql_bind", FT_BOOLEAN, 32, NULL, TTC_OPT_PLSQL_BIND, NULL, HFILL } },
        { &hf_opt_not_plsql, { "Not PL/SQL", "sqlnet.oall8.options.not_plsql", FT_BOOLEAN, 32, NULL, TTC_OPT_NOT_PLSQL, NULL, HFILL } },
        { &hf_opt_describe, { "Describe", "sqlnet.oall8.options.describe", FT_BOOLEAN, 32, NULL, TTC_OPT_DESCRIBE, NULL, HFILL } },
        { &hf_prefetch, { "Prefetch rows", "sqlnet.oall8.prefetch", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_exec_count, { "Execution count (al8i4[1])", "sqlnet.oall8.exec_count", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_is_query, { "Query", "sqlnet.oall8.is_query", FT_BOOLEAN, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_exec_flags, { "Execute flags (al8i4[9])", "sqlnet.oall8.exec_flags", FT_UINT32, BASE_HEX, NULL, 0x0, NULL, HFILL } },
        { &hf_num_binds, { "Binds", "sqlnet.oall8.binds", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_num_defines, { "Defines", "sqlnet.oall8.defines", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_iters, { "Iterations", "sqlnet.reexec.iterations", FT_UINT32, BASE_DEC, NULL, 0x0, NULL, HFILL } },
        { &hf_fetch_orientation, { "Fetch orientation", "sqlnet.oall8.fetch_orientation", FT_UINT32, BASE_HEX,
            VALS(fetch_orientation_vals), 0x0, "Scrollable cursor: how the fetch position is given (al8i4[10])", HFILL } },
        { &hf_fetch_pos, { "Fetch position", "sqlnet.oall8.fetch_pos", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Scrollable cursor: the row (from 1) the fetch starts at (al8i4[11])", HFILL } },
        { &hf_returning_binds, { "Return binds", "sqlnet.oall8.returning_binds", FT_UINT32, BASE_DEC, NULL, 0x0,
            "DML RETURNING ... INTO: binds whose values come back as rows", HFILL } },
        { &hf_rpa_dml_rowcount, { "DML row count", "sqlnet.rpa.dml_rowcount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Rows one execution of an array DML touched (the call asked for per-execution counts)", HFILL } },
        { &hf_oall7_sql_len, { "SQL length", "sqlnet.oall7.sql_length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "OALL7: length of the SQL text the call carries (0: the cursor was parsed before)", HFILL } },
        { &hf_oall7_al8i4_len, { "al8i4 length", "sqlnet.oall7.al8i4_length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "OALL7: values in the call's al8i4 vector (al8i4[0] parse, al8i4[1] execution count)", HFILL } },
        { &hf_oall7_al8o4_len, { "al8o4 length", "sqlnet.oall7.al8o4_length", FT_UINT32, BASE_DEC, NULL, 0x0,
            "OALL7: values the call asks back in the return parameters (al8o4)", HFILL } },
        { &hf_oall7_odd, { "Layout not recognised", "sqlnet.oall7.odd", FT_NONE, BASE_NONE, NULL, 0x0,
            "OALL7 whose counts or lengths do not fit the bundled call's layout: the bytes after its cursor", HFILL } },
        { &hf_iov_dir, { "Bind direction", "sqlnet.iov.direction", FT_UINT8, BASE_HEX, VALS(bind_dir_vals), 0x0,
            "I/O vector: direction of each bind of a PL/SQL execute", HFILL } },
    };
    static gint *ett[] = { &ett_options };
    static ei_register_info ei[] = {
        { &ei_oall7_layout, { "sqlnet.oall7.layout", PI_MALFORMED, PI_WARN,
            "OALL7 does not fit the layout of OCI 9's bundled call", EXPFILL } },
    };
    expert_module_t *expert;

    proto_register_field_array(proto, hf, array_length(hf));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
    ttc_binds_register(proto);
    ttc_bindmeta_register(proto);
    proto_register_subtree_array(ett, array_length(ett));
}
