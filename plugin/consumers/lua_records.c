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
 *   records.open(filter)  a collector: a listener on the "sqlnet" tap with
 *                         that display filter (nil, or the error text)
 *   col:count()           the records taken so far
 *   col:get(i)            record i's values (1-based; see push_record)
 *   col:text(k)           an interned SQL text or SQL_ID (k > 0)
 *   col:clear()           forget the records (the texts stay)
 *   col:close()           remove the listener (also on garbage collection)
 * A retap resets the collector (its records, not its texts).
 *   records.statements("open"[, filter])   -z sqlnet,stmt's report on a
 *                         listener of its own (stats.c), for the window
 *                         "SQL*Net Statements" (nil, or the error text)
 *   records.statements("text", report)     its text (as tshark prints it)
 *   records.statements("close", report)    remove it (the window's end)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/tap.h>

#include <lua.h>
#include <lauxlib.h>

#include "compat.h"
#include "metrics.h"
#include "stats.h"
#include "ttc_roundtrip.h"

#define COLLECTOR_MT "sqlnet_records_collector"   /* a Lua metatable name, not a field */

/* what a record holds besides numbers */
enum {
    RR_CALL = 1 << 0,        /* call: the main call's function code */
    RR_FETCH = 1 << 1,       /* fetch: the rows the call asked for */
    RR_OER = 1 << 2,         /* ora_error: the end-of-call status's */
    RR_CLIENT = 1 << 3,      /* client_ms: the time split is known */
    RR_RTT = 1 << 4,         /* rtt, vantage */
    RR_LARGEST = 1 << 5      /* largest_segment (not over TLS) */
};

typedef struct {
    guint32 stream, src_port, dst_port, frame, request_frame, call, execution, fetch, rows;
    guint32 req_ttc, req_bytes, resp_ttc, resp_bytes, resp_packets, resp_segments;
    guint32 row_bytes, bvc_bytes, ora_error, largest_segment, sdu, tdu, version;
    guint32 sql, sql_id;     /* interned text index, 0 = none */
    guint8 vantage, flags;
    guint64 time_ns, first_ns;
    double abs_ts, client_ms, rtt;
} rt_record_t;

typedef struct {
    GArray *records;         /* rt_record_t */
    GHashTable *text_index;  /* text -> index (GUINT_TO_POINTER) */
    GPtrArray *texts;        /* index - 1 -> text (owned) */
    guint32 last_frame;      /* the frame of the last record taken */
    gboolean registered;
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

static void
collector_reset(void *data)
{
    collector_t *c = (collector_t *)data;

    g_array_set_size(c->records, 0);
    c->last_frame = 0;
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
    const sqlnet_tap_rec_t *r = (const sqlnet_tap_rec_t *)p;
    rt_record_t rec;

    if (!r || r->request_frame == 0 || r->response_frame != pinfo->num || c->last_frame == pinfo->num)
        return TAP_PACKET_DONT_REDRAW;
    c->last_frame = pinfo->num;
    memset(&rec, 0, sizeof(rec));
    rec.stream = r->tcp_stream;
    rec.src_port = pinfo->srcport;
    rec.dst_port = pinfo->destport;
    rec.frame = pinfo->num;
    rec.request_frame = r->request_frame;
    if (r->kind == TTC_REQ_FUNCTION || r->kind == TTC_REQ_FAST_AUTH) {
        rec.flags |= RR_CALL;
        rec.call = r->func;
    }
    rec.execution = r->execution;
    if (r->has_fetch_rows) {
        rec.flags |= RR_FETCH;
        rec.fetch = r->fetch_rows;
    }
    rec.rows = r->rows;
    rec.req_ttc = r->req_ttc_bytes;
    rec.req_bytes = r->req_bytes;
    rec.resp_ttc = r->resp_ttc_bytes;
    rec.resp_bytes = r->resp_bytes;
    rec.resp_packets = r->resp_packets;
    rec.resp_segments = r->resp_segments;
    rec.row_bytes = r->resp_row_bytes;
    rec.bvc_bytes = r->resp_bvc_bytes;
    if (r->has_oer) {
        rec.flags |= RR_OER;
        rec.ora_error = r->ora_error;
    }
    if (r->largest_segment > 0) {
        rec.flags |= RR_LARGEST;
        rec.largest_segment = r->largest_segment;
    }
    rec.sdu = r->negotiated_sdu;
    rec.tdu = r->negotiated_tdu;
    rec.version = r->negotiated_version;
    rec.sql = intern(c, r->sql);
    rec.sql_id = intern(c, r->sql_id);
    /* as Wireshark's Lua gives pinfo.abs_ts */
    rec.abs_ts = (double)pinfo->abs_ts.secs + (double)pinfo->abs_ts.nsecs / 1000000000.0;
    if (r->time.secs >= 0 && r->time.nsecs >= 0)
        rec.time_ns = (guint64)r->time.secs * 1000000000u + (guint64)r->time.nsecs;
    if (r->time_first.secs >= 0 && r->time_first.nsecs >= 0)
        rec.first_ns = (guint64)r->time_first.secs * 1000000000u + (guint64)r->time_first.nsecs;
    if (r->timing_known) {
        rec.flags |= RR_CLIENT;
        rec.client_ms = nstime_to_msec(&r->t_client);
        if (r->rtt_known) {
            rec.flags |= RR_RTT;
            rec.rtt = (double)r->rtt.secs + (double)r->rtt.nsecs / 1000000000.0;
            rec.vantage = r->vantage;
        }
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
}

static int
l_open(lua_State *L)
{
    const char *filter = luaL_optstring(L, 1, NULL);
    collector_t *c = (collector_t *)lua_newuserdata(L, sizeof(collector_t));
    GString *err;

    memset(c, 0, sizeof(*c));
    c->records = g_array_new(FALSE, FALSE, sizeof(rt_record_t));
    c->text_index = g_hash_table_new(g_str_hash, g_str_equal);
    c->texts = g_ptr_array_new_with_free_func(g_free);
    luaL_setmetatable(L, COLLECTOR_MT);
    err = register_tap_listener(SQLNET_TAP_NAME, c, filter, TL_REQUIRES_NOTHING, collector_reset,
                                collector_packet, NULL, NULL);
    if (err) {
        lua_pushnil(L);
        lua_pushstring(L, err->str);
        g_string_free(err, TRUE);
        return 2;
    }
    c->registered = TRUE;
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

/* stream, src_port, dst_port, frame, abs_ts, request_frame, call, execution,
 * fetch, rows, req_ttc, req_bytes, resp_ttc, resp_bytes, resp_packets,
 * resp_segments, row_bytes, bvc_bytes, time_ns, first_ns, ora_error,
 * largest_segment, sdu, tdu, version, sql, sql_id, client_ms, rtt, vantage
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
    push_int(L, TRUE, r->stream);
    push_int(L, TRUE, r->src_port);
    push_int(L, TRUE, r->dst_port);
    push_int(L, TRUE, r->frame);
    push_num(L, TRUE, r->abs_ts);
    push_int(L, TRUE, r->request_frame);
    push_int(L, r->flags & RR_CALL, r->call);
    push_int(L, TRUE, r->execution);
    push_int(L, r->flags & RR_FETCH, r->fetch);
    push_int(L, TRUE, r->rows);
    push_int(L, TRUE, r->req_ttc);
    push_int(L, TRUE, r->req_bytes);
    push_int(L, TRUE, r->resp_ttc);
    push_int(L, TRUE, r->resp_bytes);
    push_int(L, TRUE, r->resp_packets);
    push_int(L, TRUE, r->resp_segments);
    push_int(L, TRUE, r->row_bytes);
    push_int(L, TRUE, r->bvc_bytes);
    push_int(L, TRUE, r->time_ns);
    push_int(L, TRUE, r->first_ns);
    push_int(L, r->flags & RR_OER, r->ora_error);
    push_int(L, r->flags & RR_LARGEST, r->largest_segment);
    push_int(L, TRUE, r->sdu);
    push_int(L, TRUE, r->tdu);
    push_int(L, TRUE, r->version);
    push_int(L, r->sql != 0, r->sql);
    push_int(L, r->sql_id != 0, r->sql_id);
    push_num(L, r->flags & RR_CLIENT, r->client_ms);
    push_num(L, r->flags & RR_RTT, r->rtt);
    push_int(L, r->flags & RR_RTT, r->vantage);
    return 30;
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
    return 0;
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
 * (stats.c); the window holds it as a light userdata from "open" to "close" */
static int
l_statements(lua_State *L)
{
    static const char *const steps[] = { "open", "text", "close", NULL };
    int step = luaL_checkoption(L, 1, NULL, steps);
    char *err = NULL;
    void *report;
    GString *text;

    if (step == 0) {
        report = stats_stmt_window(STATS_STMT_OPEN, NULL, luaL_optstring(L, 2, NULL), NULL, &err);
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
        stats_stmt_window(STATS_STMT_CLOSE, report, NULL, NULL, NULL);
        return 0;
    }
    text = g_string_new("");
    stats_stmt_window(STATS_STMT_TEXT, report, NULL, text, NULL);
    lua_pushlstring(L, text->str, text->len);
    g_string_free(text, TRUE);
    return 1;
}

static const luaL_Reg collector_methods[] = {
    { "count", l_count },
    { "get", l_get },
    { "text", l_text },
    { "clear", l_clear },
    { "close", l_close },
    { NULL, NULL }
};

static const luaL_Reg module_functions[] = {
    { "open", l_open },
    { "statements", l_statements },
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
    return 1;
}
