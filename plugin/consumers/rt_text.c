/* rt_text.c - a round trip in words (see rt_text.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>
#include <glib.h>
#include <epan/packet.h>

#include "ttc.h"
#include "account.h"
#include "rt_text.h"

const char *
rt_text_call(const sqlnet_rt_t *rt)
{
    if (!rt->req)
        return "response";
    switch (rt->req->call.kind) {
    case TTC_REQ_PROTOCOL: return "PRO";
    case TTC_REQ_DATA_TYPES: return "DTY";
    case TTC_REQ_FAST_AUTH: return "FAST_AUTH";
    case TTC_REQ_ANO: return "ANO";
    case TTC_REQ_FUNCTION: return val_to_str_const(rt->req->call.func, ttc_function_vals, "function");
    default: return "request";
    }
}

/* The statement text the call sent, else its cursor's. */
static const char *
request_sql(const sqlnet_rt_t *rt)
{
    if (!rt->req)
        return NULL;
    if (rt->req->call.sql && *rt->req->call.sql)
        return rt->req->call.sql;
    return rt->req->stmt_sql;
}

char *
rt_text_request(const sqlnet_rt_t *rt, gsize sql_max)
{
    GString *s = g_string_new(rt_text_call(rt));
    const char *sql = request_sql(rt);

    if (sqlnet_rt_has_fetch_rows(rt) && !sqlnet_rt_executes(rt)) {
        g_string_append_printf(s, " %u %s", sqlnet_rt_fetch_rows(rt), sqlnet_rt_fetch_rows(rt) == 1 ? "row" : "rows");
    } else if (sql) {
        char *one = account_one_line(sql);
        glong n = g_utf8_strlen(one, -1);
        g_string_append_c(s, ' ');
        if (sql_max > 0 && n > (glong)sql_max) {
            const char *end = g_utf8_offset_to_pointer(one, (glong)sql_max);
            g_string_append_len(s, one, end - one);
            g_string_append(s, "...");
        } else {
            g_string_append(s, one);
        }
        g_free(one);
    }
    return g_string_free(s, FALSE);
}

char *
rt_text_response(const sqlnet_rt_t *rt)
{
    GString *s = g_string_new(NULL);
    guint32 pkts = rt->resp->packets;

    if (sqlnet_rt_has_ora_error(rt))
        g_string_append_printf(s, "ORA-%05u", rt->resp->ora_error);
    else
        g_string_append_printf(s, "%u %s", rt->resp->rows, rt->resp->rows == 1 ? "row" : "rows");
    g_string_append_printf(s, ", %u %s", pkts, pkts == 1 ? "pkt" : "pkts");
    if (rt->req) {
        char ms[32];
        account_ms(ms, sizeof(ms), sqlnet_rt_ns(sqlnet_rt_time(rt)));
        g_string_append_printf(s, ", %s ms", ms);
    }
    return g_string_free(s, FALSE);
}

char *
rt_text_group(const sqlnet_rt_t *rt)
{
    GString *s = g_string_new(NULL);

    if (sqlnet_rt_execution(rt))
        g_string_append_printf(s, "exec %u ", sqlnet_rt_execution(rt));
    if (rt->sql_id)
        g_string_append_printf(s, "sql %s ", rt->sql_id);
    if (rt->req)
        g_string_append_printf(s, "rt %u", rt->resp->number);
    else
        g_string_append(s, "response");
    return g_string_free(s, FALSE);
}
