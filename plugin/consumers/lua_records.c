/* lua_records.c - the "sqlnet" tap's round trips, read in bulk by the Lua
 * reports (lua/sqlnet_advise.lua).
 *
 * A Lua report that reads a round trip's numbers from fields pays a Lua
 * listener call, a filter match and a field read for every round trip
 * (about half of -z sqlnet,advise's time on top of -z sqlnet,stmt).  This
 * module gives the same numbers without any Lua code running per packet:
 * a C listener on the "sqlnet" tap keeps one compact record per round trip
 * and the report takes them when it draws.
 *
 * The Lua side opens it with package.loadlib("sqlnet.so",
 * "luaopen_sqlnet_records"): the module's SONAME is sqlnet.so, so the
 * dynamic linker hands back the plugin Wireshark has already loaded (never
 * a second copy from elsewhere; without the plugin, loadlib fails and the
 * report reads fields as before).  Built only when the plugin is compiled
 * against the Lua that libwireshark itself links (CMake checks; 5.2 on
 * Wireshark 4.0, 5.4 on 4.4 and 4.6).
 *
 * The module:
 *   records.open(filter[, options])  a collector: a listener on the "sqlnet"
 *                         tap with that display filter (nil, or the error
 *                         text); options (a table): facts = true also
 *                         collects the advisor's per-packet facts
 *                         (lua_facts.c: col:event), draw and reset = Lua
 *                         functions the listener calls when Wireshark draws
 *                         and resets it (a Lua Listener needs the protocol
 *                         tree of every packet; these do not); a collector
 *                         with draw or reset stays alive until col:close()
 *   col:event_count()     the facts taken so far (options.facts)
 *   col:event(i)          fact i: kind ("syn", "retrans", "late_ack",
 *                         "window", "segment", "auth", "accept",
 *                         "undecrypted"), frame, abs_ts, tcp.stream (nil when
 *                         unknown), a (nil when absent), b, c, x, s1, s2
 *                         (lua_facts.h)
 *   col:count()           the records taken so far
 *   col:get(i)            record i's values (1-based; see l_get)
 *   col:fact(i, name)     record i's column by name (sqlnet_rt.h), nil when absent
 *   col:record(i)         record i's present columns as a table by name
 *   records.columns()     the column names
 *   records.events        true: records.open takes options (this module's
 *                         version has col:event)
 *   col:text(k)           an interned SQL text or SQL_ID (k > 0)
 *   col:clear()           forget the records and facts (the texts stay)
 *   col:close()           remove the listener (also on garbage collection)
 * A retap resets the collector (its records, not its texts).
 *   records.statements("open"[, filter])   -z sqlnet,stmt's report on a
 *                         listener of its own (stats.c), for the window
 *                         "SQL*Net Statements" (nil, or the error text)
 *   records.statements("text", report)     its text (as tshark prints it)
 *   records.statements("close", report)    remove it (the window's end)
 *   records.accounts(report)               its statement and execution
 *                         accounts (account.c) as tables keyed by the
 *                         -z sqlnet,stmt CSV/JSON column names
 *   records.account_columns()  those names, in order
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>

#include <lua.h>
#include <lauxlib.h>

#include "compat.h"
#include "metrics.h"
#include "stmt.h"
#include "account.h"
#include "sqlnet_rt.h"
#include "lua_facts.h"

#define COLLECTOR_MT "sqlnet_records_collector"   /* a Lua metatable name, not a field */

/* One round trip as the report takes it: every column of the record
 * (sqlnet_rt.h: SQLNET_RT_BASE_COLUMNS and the call facts), present or not,
 * and what Lua gets as numbers with a fraction. */
G_STATIC_ASSERT(SQLNET_RT_NCOLUMNS <= 64);
typedef struct {
    guint64 col[SQLNET_RT_NCOLUMNS];
    guint64 have;            /* bit i: column i present */
    guint32 src_port, dst_port;
    guint32 sql, sql_id;     /* interned text index, 0 = none */
    double abs_ts, client_ms, rtt;
    gboolean fixed;          /* outside the fetch plan (account_rt_fixed) */
} rt_record_t;

typedef struct {
    GArray *records;         /* rt_record_t */
    GHashTable *text_index;  /* text -> index (GUINT_TO_POINTER) */
    GPtrArray *texts;        /* index - 1 -> text (owned) */
    guint32 last_frame;      /* the frame of the last record taken */
    gboolean registered;
    lua_facts_t *facts;      /* options.facts: the advisor's per-packet facts */
    lua_State *L;            /* the main thread, for draw and reset */
    int draw_ref, reset_ref, self_ref;
} collector_t;

static guint32
intern(collector_t *c, const char *text)
{
    gpointer v;
    char *copy;

    if (!text)
        return 0;
    v = g_hash_table_lookup(c->text_index, text);
    if (v)
        return GPOINTER_TO_UINT(v);
    copy = g_strdup(text);
    g_ptr_array_add(c->texts, copy);
    g_hash_table_insert(c->text_index, copy, GUINT_TO_POINTER(c->texts->len));
    return c->texts->len;
}

/* A Lua function the collector was given (draw, reset), called as Wireshark
 * calls a Lua Listener's: an error is printed, not raised. */
static void
call_lua(collector_t *c, int ref)
{
    lua_State *L = c->L;

    if (!L || ref == LUA_NOREF || ref == LUA_REFNIL)
        return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        fprintf(stderr, "sqlnet records: Lua error in a listener's callback: %s\n",
                lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
        lua_pop(L, 1);
    }
}

static void
collector_reset(void *data)
{
    collector_t *c = (collector_t *)data;

    g_array_set_size(c->records, 0);
    c->last_frame = 0;
    if (c->facts)
        lua_facts_clear(c->facts);
    call_lua(c, c->reset_ref);
}

static void
collector_draw(void *data)
{
    collector_t *c = (collector_t *)data;

    call_lua(c, c->draw_ref);
}

/* The records the report's field reader would see: one per packet that
 * completes a round trip (the first it completes, as a field read takes the
 * first occurrence; the listener's filter names the packet), never one the
 * next request closed (it is queued on the client's packet). */
static tap_packet_status
collector_packet(void *data, packet_info *pinfo, epan_dissect_t *edt _U_, const void *p,
                 tap_flags_t flags _U_)
{
    collector_t *c = (collector_t *)data;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)p;
    rt_record_t rec;
    guint i;

    if (!rt || !rt->req || rt->resp->last_frame != pinfo->num || c->last_frame == pinfo->num)
        return TAP_PACKET_DONT_REDRAW;
    c->last_frame = pinfo->num;
    memset(&rec, 0, sizeof(rec));
    for (i = 0; i < SQLNET_RT_NCOLUMNS; i++)
        if (sqlnet_rt_column(rt, i, &rec.col[i]))
            rec.have |= G_GUINT64_CONSTANT(1) << i;
    rec.src_port = pinfo->srcport;
    rec.dst_port = pinfo->destport;
    rec.sql = intern(c, sqlnet_rt_sql(rt));
    rec.sql_id = intern(c, rt->sql_id);
    rec.fixed = account_rt_fixed(rt);
    /* as Wireshark's Lua gives pinfo.abs_ts */
    rec.abs_ts = (double)pinfo->abs_ts.secs + (double)pinfo->abs_ts.nsecs / 1000000000.0;
    if (rt->resp->timing.known) {
        /* the client's whole gap less the network, as the Lua readers took
         * it before issue 34 split it into client and idle (timing.c): the
         * advisor charges the idle part to "idle before" itself */
        sqlnet_timing_t t;
        sqlnet_timing_get(&rt->resp->timing, &t);
        rec.client_ms = nstime_to_msec(&t.client) + nstime_to_msec(&t.idle);
        if (t.rtt_known)
            rec.rtt = (double)t.rtt.secs + (double)t.rtt.nsecs / 1000000000.0;
    }
    g_array_append_val(c->records, rec);
    return TAP_PACKET_DONT_REDRAW;
}

static collector_t *
check_collector(lua_State *L)
{
    return (collector_t *)luaL_checkudata(L, 1, COLLECTOR_MT);
}

static void
collector_close(collector_t *c)
{
    if (c->registered) {
        remove_tap_listener(c);
        c->registered = FALSE;
    }
    lua_facts_stop(c->facts);
    if (c->L) {
        luaL_unref(c->L, LUA_REGISTRYINDEX, c->draw_ref);
        luaL_unref(c->L, LUA_REGISTRYINDEX, c->reset_ref);
        luaL_unref(c->L, LUA_REGISTRYINDEX, c->self_ref);
        c->draw_ref = c->reset_ref = c->self_ref = LUA_NOREF;
    }
}

/* options[name] as a registry reference to a function (LUA_NOREF without) */
static int
option_function(lua_State *L, int opts, const char *name)
{
    int ref = LUA_NOREF;

    if (lua_istable(L, opts)) {
        lua_getfield(L, opts, name);
        if (lua_isfunction(L, -1))
            return luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pop(L, 1);
    }
    return ref;
}

static int
l_open(lua_State *L)
{
    const char *filter = luaL_optstring(L, 1, NULL);
    collector_t *c = (collector_t *)lua_newuserdata(L, sizeof(collector_t));
    int ud = lua_gettop(L);
    gboolean with_facts = FALSE;
    GString *err;
    char *ferr = NULL;

    memset(c, 0, sizeof(*c));
    c->draw_ref = c->reset_ref = c->self_ref = LUA_NOREF;
    c->records = g_array_new(FALSE, FALSE, sizeof(rt_record_t));
    c->text_index = g_hash_table_new(g_str_hash, g_str_equal);
    c->texts = g_ptr_array_new_with_free_func(g_free);
    luaL_setmetatable(L, COLLECTOR_MT);
    if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "facts");
        with_facts = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    if (with_facts) {
        c->facts = lua_facts_new();
        if (!lua_facts_start(c->facts, &ferr)) {
            lua_pushnil(L);
            lua_pushstring(L, ferr ? ferr : "no listener");
            g_free(ferr);
            return 2;
        }
    }
    err = register_tap_listener(SQLNET_TAP_NAME, c, filter, TL_REQUIRES_NOTHING, collector_reset,
                                collector_packet, collector_draw, NULL);
    if (err) {
        lua_facts_stop(c->facts);
        lua_pushnil(L);
        lua_pushstring(L, err->str);
        g_string_free(err, TRUE);
        return 2;
    }
    c->registered = TRUE;
    c->draw_ref = option_function(L, 2, "draw");
    c->reset_ref = option_function(L, 2, "reset");
    if (c->draw_ref != LUA_NOREF || c->reset_ref != LUA_NOREF) {
        /* Wireshark calls them from C, later: the main thread, and the
         * collector kept (nothing in Lua need hold it) until col:close() */
        lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
        c->L = lua_tothread(L, -1);
        lua_pop(L, 1);
        lua_pushvalue(L, ud);
        c->self_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_settop(L, ud);
    return 1;
}

static int
l_count(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_pushinteger(L, c->records ? (lua_Integer)c->records->len : 0);
    return 1;
}

/* a count or code as a Lua integer (Lua 5.3 and later keep the subtype: a
 * count read from a field prints as "9", and so must this one), nil when
 * absent */
static void
push_int(lua_State *L, gboolean have, guint64 v)
{
    if (have)
        lua_pushinteger(L, (lua_Integer)v);
    else
        lua_pushnil(L);
}

static void
push_num(lua_State *L, gboolean have, double v)
{
    if (have)
        lua_pushnumber(L, v);
    else
        lua_pushnil(L);
}

#define HAVE(r, id) (((r)->have >> SQLNET_RT_COL_##id) & 1)
#define COL(r, id) ((r)->col[SQLNET_RT_COL_##id])

/* The historical positional reader (lua/sqlnet_advise.lua reads it; new
 * readers use col:record or col:fact, by name): stream, src_port, dst_port,
 * frame, abs_ts, request_frame, call, execution,
 * fetch, rows, req_ttc, req_bytes, resp_ttc, resp_bytes, resp_packets,
 * resp_segments, row_bytes, bvc_bytes, time_ns, first_ns, ora_error (the
 * column ora_status: the end-of-call status, 0 and 1403 too),
 * largest_segment, sdu, tdu, version, sql, sql_id, client_ms, rtt, vantage,
 * fixed (a boolean: a round trip outside the fetch plan, account_rt_fixed)
 * (nil where absent; sql, sql_id: text indexes, nil for none) */
static int
l_get(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_Integer i = luaL_checkinteger(L, 2);
    const rt_record_t *r;

    if (!c->records || i < 1 || (guint64)i > c->records->len)
        return 0;
    r = &g_array_index(c->records, rt_record_t, i - 1);
    push_int(L, TRUE, COL(r, tcp_stream));
    push_int(L, TRUE, r->src_port);
    push_int(L, TRUE, r->dst_port);
    push_int(L, TRUE, COL(r, response_frame));
    push_num(L, TRUE, r->abs_ts);
    push_int(L, TRUE, COL(r, request_frame));
    push_int(L, HAVE(r, call), COL(r, call));
    push_int(L, TRUE, COL(r, execution));
    push_int(L, HAVE(r, rows_asked), COL(r, rows_asked));
    push_int(L, TRUE, COL(r, rows));
    push_int(L, TRUE, COL(r, req_ttc_bytes));
    push_int(L, TRUE, COL(r, req_tns_bytes));
    push_int(L, TRUE, COL(r, resp_ttc_bytes));
    push_int(L, TRUE, COL(r, resp_tns_bytes));
    push_int(L, TRUE, COL(r, resp_packets));
    push_int(L, TRUE, COL(r, resp_segments));
    push_int(L, TRUE, COL(r, row_bytes));
    push_int(L, TRUE, COL(r, bvc_bytes));
    push_int(L, TRUE, COL(r, time_ns));
    push_int(L, TRUE, COL(r, first_ns));
    push_int(L, HAVE(r, ora_status), COL(r, ora_status));   /* the end-of-call status: 0 and 1403 too */
    push_int(L, HAVE(r, largest_segment), COL(r, largest_segment));
    push_int(L, TRUE, COL(r, sdu));
    push_int(L, TRUE, COL(r, tdu));
    push_int(L, TRUE, COL(r, version));
    push_int(L, r->sql != 0, r->sql);
    push_int(L, r->sql_id != 0, r->sql_id);
    push_num(L, HAVE(r, client_ns), r->client_ms);
    push_num(L, HAVE(r, rtt_ns), r->rtt);
    push_int(L, HAVE(r, rtt_ns), COL(r, vantage));
    lua_pushboolean(L, r->fixed);
    return 31;
}

/* col:fact(i, name): record i's column by its name (sqlnet_rt.h: "rows",
 * "request.ttc_bytes", a call fact's name ...), nil when absent; an unknown
 * name is an error. */
static int
l_fact(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_Integer i = luaL_checkinteger(L, 2);
    const char *name = luaL_checkstring(L, 3);
    const rt_record_t *r;
    guint k;

    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++)
        if (strcmp(sqlnet_rt_column_name(k), name) == 0)
            break;
    if (k == SQLNET_RT_NCOLUMNS)
        return luaL_error(L, "sqlnet records: no column \"%s\"", name);
    if (!c->records || i < 1 || (guint64)i > c->records->len)
        return 0;
    r = &g_array_index(c->records, rt_record_t, i - 1);
    push_int(L, (r->have >> k) & 1, r->col[k]);
    return 1;
}

/* col:record(i): record i as a table of its present columns by name
 * (sqlnet_rt.h: every column of SQLNET_RT_COLUMNS and the call facts; times
 * in ns), nil for no such record: a reader names what it reads, so a column
 * added to the declaration never moves another. */
static int
l_record(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_Integer i = luaL_checkinteger(L, 2);
    const rt_record_t *r;
    guint k;

    if (!c->records || i < 1 || (guint64)i > c->records->len)
        return 0;
    r = &g_array_index(c->records, rt_record_t, i - 1);
    lua_createtable(L, 0, SQLNET_RT_NCOLUMNS);
    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++) {
        if (!((r->have >> k) & 1))
            continue;
        lua_pushinteger(L, (lua_Integer)r->col[k]);
        lua_setfield(L, -2, sqlnet_rt_column_name(k));
    }
    return 1;
}

/* records.columns(): the names of every column, in order */
static int
l_columns(lua_State *L)
{
    guint k;

    lua_createtable(L, SQLNET_RT_NCOLUMNS, 0);
    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++) {
        lua_pushstring(L, sqlnet_rt_column_name(k));
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

static int
l_text(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_Integer k = luaL_checkinteger(L, 2);

    if (!c->texts || k < 1 || (guint64)k > c->texts->len)
        return 0;
    lua_pushstring(L, (const char *)g_ptr_array_index(c->texts, k - 1));
    return 1;
}

static int
l_clear(lua_State *L)
{
    collector_t *c = check_collector(L);
    if (c->records)
        g_array_set_size(c->records, 0);
    if (c->facts)
        lua_facts_clear(c->facts);
    return 0;
}

static int
l_event_count(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_pushinteger(L, (lua_Integer)lua_facts_count(c->facts));
    return 1;
}

static void
push_opt_string(lua_State *L, const char *s)
{
    if (s)
        lua_pushstring(L, s);
    else
        lua_pushnil(L);
}

/* col:event(i): kind, frame, abs_ts, stream, a, b, c, x, s1, s2 (lua_facts.h) */
static int
l_event(lua_State *L)
{
    collector_t *c = check_collector(L);
    lua_Integer i = luaL_checkinteger(L, 2);
    const lua_fact_t *f;

    if (i < 1 || !(f = lua_facts_get(c->facts, (guint)(i - 1))))
        return 0;
    lua_pushstring(L, lua_fact_kind_name(f->kind));
    lua_pushinteger(L, (lua_Integer)f->frame);
    lua_pushnumber(L, f->t);
    push_int(L, f->have_stream, (guint64)f->stream);
    push_int(L, f->have_a, f->a);
    lua_pushinteger(L, (lua_Integer)f->b);
    lua_pushinteger(L, (lua_Integer)f->c);
    lua_pushnumber(L, f->x);
    push_opt_string(L, f->s1);
    push_opt_string(L, f->s2);
    return 10;
}

static int
l_close(lua_State *L)
{
    collector_close(check_collector(L));
    return 0;
}

static int
l_gc(lua_State *L)
{
    collector_t *c = check_collector(L);

    collector_close(c);
    lua_facts_free(c->facts);
    c->facts = NULL;
    if (c->records)
        g_array_free(c->records, TRUE);
    if (c->text_index)
        g_hash_table_destroy(c->text_index);
    if (c->texts)
        g_ptr_array_free(c->texts, TRUE);
    c->records = NULL;
    c->text_index = NULL;
    c->texts = NULL;
    return 0;
}

/* records.statements(step, ...): the statement report exists once, in C
 * (stmt.c); the window holds it as a light userdata from "open" to "close" */
static int
l_statements(lua_State *L)
{
    static const char *const steps[] = { "open", "text", "close", NULL };
    int step = luaL_checkoption(L, 1, NULL, steps);
    char *err = NULL;
    void *report;
    GString *text;

    if (step == 0) {
        report = stmt_window_open(luaL_optstring(L, 2, NULL), &err);
        if (!report) {
            lua_pushnil(L);
            lua_pushstring(L, err ? err : "no listener");
            g_free(err);
            return 2;
        }
        lua_pushlightuserdata(L, report);
        return 1;
    }
    luaL_checktype(L, 2, LUA_TLIGHTUSERDATA);
    report = lua_touserdata(L, 2);
    if (step == 2) {
        stmt_window_close(report);
        return 0;
    }
    text = g_string_new("");
    stmt_window_text(report, text);
    lua_pushlstring(L, text->str, text->len);
    g_string_free(text, TRUE);
    return 1;
}

/* ---- records.accounts: the statement and execution accounts (account.c) --
 * (issue 34: the advisor and the windows read these numbers, no sums of
 * their own).  A value as -z sqlnet,stmt,format=csv prints it: a number
 * for a number column, a string for a text column, absent (nil) when empty. */

static void
push_value(lua_State *L, const char *name, char *value, gboolean text)
{
    if (value) {
        if (text)
            lua_pushstring(L, value);
        else if (strchr(value, '.'))
            lua_pushnumber(L, (lua_Number)g_ascii_strtod(value, NULL));
        else
            lua_pushinteger(L, (lua_Integer)g_ascii_strtoll(value, NULL, 10));   /* counts: integers on 5.3+ */
        lua_setfield(L, -2, name);
    }
    g_free(value);
}

/* records.accounts(report): { statement rows } in -z sqlnet,stmt's order
 * (the calls outside a statement first, statement nil), each a table keyed
 * by the CSV's column names with `per_execution` = { execution rows } keyed by
 * the JSON executions' names (and reparses, reparse_runs, reparse_first_frame,
 * reparse_sql_bytes: account.h).  The report is one records.statements("open")
 * gave; read it after the retap. */
static int
l_accounts(lua_State *L)
{
    const GPtrArray *stmts;
    sqlnet_account_t *acc;
    guint i, j, c;

    luaL_checktype(L, 1, LUA_TLIGHTUSERDATA);
    acc = stmt_window_account(lua_touserdata(L, 1));
    lua_newtable(L);
    if (!acc)
        return 1;
    stmts = account_statements(acc);
    for (i = 0; i < stmts->len; i++) {
        const sqlnet_acct_stmt_t *s = (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i);
        lua_newtable(L);
        for (c = 0; c < account_stmt_ncolumns(); c++)
            push_value(L, account_stmt_column(c), account_stmt_value(s, c), account_stmt_column_is_text(c));
        /* parsed on every execution (account.h reparse_*; the advisor's section) */
        lua_pushinteger(L, (lua_Integer)s->reparses);
        lua_setfield(L, -2, "reparses");
        lua_pushinteger(L, (lua_Integer)s->reparse_runs);
        lua_setfield(L, -2, "reparse_runs");
        lua_pushinteger(L, (lua_Integer)s->reparse_first_frame);
        lua_setfield(L, -2, "reparse_first_frame");
        lua_pushinteger(L, (lua_Integer)s->reparse_sql_bytes);
        lua_setfield(L, -2, "reparse_sql_bytes");
        lua_newtable(L);
        for (j = 0; j < s->execs->len; j++) {
            const sqlnet_acct_exec_t *e = &g_array_index(s->execs, sqlnet_acct_exec_t, j);
            lua_newtable(L);
            for (c = 0; c < account_exec_ncolumns(); c++)
                push_value(L, account_exec_column(c), account_exec_value(s, e, c), account_exec_column_is_text(c));
            lua_rawseti(L, -2, (int)j + 1);
        }
        lua_setfield(L, -2, "per_execution");
        lua_rawseti(L, -2, (int)i + 1);
    }
    return 1;
}

/* records.account_columns(): { statement = { names in order }, execution = { ... } } */
static int
l_account_columns(lua_State *L)
{
    guint c;

    lua_newtable(L);
    lua_newtable(L);
    for (c = 0; c < account_stmt_ncolumns(); c++) {
        lua_pushstring(L, account_stmt_column(c));
        lua_rawseti(L, -2, (int)c + 1);
    }
    lua_setfield(L, -2, "statement");
    lua_newtable(L);
    for (c = 0; c < account_exec_ncolumns(); c++) {
        lua_pushstring(L, account_exec_column(c));
        lua_rawseti(L, -2, (int)c + 1);
    }
    lua_setfield(L, -2, "execution");
    return 1;
}

/* ---- end of records.accounts ---------------------------------------------- */

static const luaL_Reg collector_methods[] = {
    { "count", l_count },
    { "get", l_get },
    { "fact", l_fact },
    { "record", l_record },
    { "text", l_text },
    { "clear", l_clear },
    { "event_count", l_event_count },
    { "event", l_event },
    { "close", l_close },
    { NULL, NULL }
};

static const luaL_Reg module_functions[] = {
    { "open", l_open },
    { "statements", l_statements },
    { "accounts", l_accounts },
    { "account_columns", l_account_columns },
    { "columns", l_columns },
    { NULL, NULL }
};

WS_DLL_PUBLIC int luaopen_sqlnet_records(lua_State *L);

int
luaopen_sqlnet_records(lua_State *L)
{
    if (luaL_newmetatable(L, COLLECTOR_MT)) {
        luaL_newlib(L, collector_methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, l_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_pop(L, 1);
    luaL_newlib(L, module_functions);
    /* records.open takes options (facts, draw, reset): col:event */
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "events");
    return 1;
}
