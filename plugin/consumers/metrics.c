/* metrics.c - what a response cost on the wire, as fields a person can filter on.
 *
 * TCP segments per response: TCP hands a subdissector only the segments that
 * start or complete a TNS packet, so the middle segments of a large packet
 * are never seen by sqlnet.  The stream layer counts each server segment
 * once (ttc_count_segment): the ones TCP hands over when sqlnet gets them,
 * the others from its listener on the "tcp" tap (ttc_stream.c).  Taps run in
 * the first pass (tshark, the GUI) or only in the second (tshark -2): a
 * per-frame marker keeps the count the same in every mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/conversation.h>
#include <epan/tap.h>
#include <epan/strutil.h>
#include <epan/unit_strings.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc.h"
#include "coltext.h"
#include "metrics.h"
#include "timing.h"
#include "sql_id.h"
#include "ora_errors.h"
#include "patterns.h"
#include "follow.h"
#include "expert_gate.h"

static int hf_fetch_rows = -1;
static int hf_pattern = -1;
static int hf_stmt_exec_number = -1;
static expert_field ei_pattern = EI_INIT;
static expert_field ei_reparse = EI_INIT;
static int hf_array_size = -1;
static int hf_rows = -1;
static int hf_rowcount = -1;
static int hf_ora_error = -1;
static int hf_ora_error_msg = -1;
static int hf_ora = -1;
static int hf_resp_packets = -1;
static int hf_resp_data_packets = -1;
static int hf_resp_markers = -1;
static int hf_resp_last_in = -1;
static int hf_resp_segments = -1;
static int hf_resp_bytes = -1;
static int hf_resp_ttc_bytes = -1;
static int hf_resp_row_bytes = -1;
static int hf_resp_bvc_bytes = -1;
static int hf_req_bytes = -1;
static int hf_req_ttc_bytes = -1;
static int hf_time = -1;
static int hf_time_first = -1;
static int hf_request_in = -1;
static int hf_response_in = -1;
static int hf_resp_cursor = -1;
static int hf_req_func = -1;
static int hf_execution = -1;
static int hf_partial = -1;

/* The round-trip record (sqlnet.rt): one subtree per round trip. */
static int hf_rt = -1;
static int hf_rt_sql = -1;
static int hf_rt_sql_id = -1;
static int hf_rt_sdu_fill = -1;
static int hf_rt_values = -1;
/* sqlnet.rt.<abbrev> of each column of the record that is a field
 * (SQLNET_RT_COLUMNS, kind not NONE) and of each call fact (TTC_CALL_FACTS),
 * by its column (a column without a field keeps 0 and is never added) */
static int hf_rt_col[SQLNET_RT_NCOLUMNS];
static gint ett_rt = -1;

/* The severities of the expert infos a round trip may add, for
 * sqlnet_expert_wanted() (expert_gate.h): where their registration keeps
 * them (set once, in metrics_register). */
static const int *sev_small_fetch, *sev_more_data, *sev_multi_segment, *sev_partial;

static expert_field ei_small_fetch = EI_INIT;
static expert_field ei_more_data = EI_INIT;
static expert_field ei_multi_segment = EI_INIT;
static expert_field ei_ora_error = EI_INIT;

/* One expert field per common ORA error (ora_errors.h), in the table's order. */
#define ORA_ERR_NUMBER(num, digits, text) num,
static const guint32 ora_numbers[] = { SQLNET_ORA_ERRORS(ORA_ERR_NUMBER) };
#undef ORA_ERR_NUMBER
#define ORA_NERRORS array_length(ora_numbers)
/* one per ORA error of ora_errors.h, registered in a loop (metrics_register) */
static expert_field ora_known_ei[ORA_NERRORS];
static expert_field ei_partial = EI_INIT;

static const value_string partial_vals[] = {
    { TTC_PARTIAL_CUT, "capture cut (snaplen)" },
    { TTC_PARTIAL_UNDECODED, "message not decoded" },
    { 0, NULL }
};

static int proto_metrics = -1;
static int tap_sqlnet = -1;
static int proto_tcp = -1;         /* its conversation data gives tcp.stream */

void
metrics_note_multi_segment(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 tns_len)
{
    ttc_session_t *ts;
    (void)tns_len;
    if (PINFO_FD_VISITED(pinfo) || dir != SQLNET_TO_CLIENT || !sess->ttc)
        return;
    ts = (ttc_session_t *)sess->ttc;
    if (ts->resp)
        ttc_response_note_multi_segment(ts->resp);
}

static const char *
func_name(const ttc_request_t *req)
{
    switch (req->call.kind) {
    case TTC_REQ_PROTOCOL: return "PRO";
    case TTC_REQ_DATA_TYPES: return "DTY";
    case TTC_REQ_FAST_AUTH: return "FAST_AUTH";
    case TTC_REQ_ANO: return "ANO";
    case TTC_REQ_FUNCTION: return val_to_str_const(req->call.func, ttc_function_vals, "function");
    default: return "request";
    }
}

/* A statement text as a generated field, with its SQL_ID next to it (made
 * once per text, kept in the session; only when someone looks at it). */
static void
add_sql(proto_tree *tree, tvbuff_t *tvb, const sqlnet_session_t *sess, int hf_text, int hf_id,
        const char *sql)
{
    proto_item_set_generated(proto_tree_add_string(tree, hf_text, tvb, 0, 0, sql));
    if (sess->ttc && proto_field_is_referenced(tree, hf_id))
        proto_item_set_generated(proto_tree_add_string(tree, hf_id, tvb, 0, 0,
                                                       ttc_sql_id((ttc_session_t *)sess->ttc, sql)));
}

static void
add_request(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const sqlnet_session_t *sess,
            const ttc_request_t *req)
{
    proto_item *pi;
    sqlnet_coltext_t info;

    /* Fetches are most packets of a capture: one column call, no printf. */
    if (pinfo->cinfo) {
        coltext_init(&info);
        coltext_str(&info, " ");
        coltext_str(&info, func_name(req));
        if (req->call.has_cursor) {
            coltext_str(&info, " cursor=");
            coltext_uint(&info, req->call.cursor);
        }
        if (req->call.has_fetch_rows) {
            coltext_str(&info, " rows=");
            coltext_uint(&info, req->call.fetch_rows);
        }
        sqlnet_col_append(pinfo, info.buf);
        /* the call's SQL text goes to the column only (the decoder shows it) */
        if (req->call.sql)
            sqlnet_col_append(pinfo, wmem_strdup_printf(pinfo->pool, " %s", sqlnet_format_text(pinfo->pool, req->call.sql, MIN(strlen(req->call.sql), 60))));
    }
    if (!tree)
        return;
    if (req->call.kind == TTC_REQ_FUNCTION || req->call.kind == TTC_REQ_FAST_AUTH) {
        pi = proto_tree_add_uint(tree, hf_req_func, tvb, 0, 0, req->call.func);
        proto_item_set_generated(pi);
    }
    if (req->call.has_fetch_rows) {
        pi = proto_tree_add_uint(tree, hf_fetch_rows, tvb, 0, 0, req->call.fetch_rows);
        proto_item_set_generated(pi);
        /* the same number under the name a user searches for */
        proto_item_set_generated(proto_tree_add_uint(tree, hf_array_size, tvb, 0, 0, req->call.fetch_rows));
    }
    if (req->execution)
        proto_item_set_generated(proto_tree_add_uint(tree, hf_execution, tvb, 0, 0, req->execution));
    if (req->stmt_sql && req->stmt_sql != req->call.sql)
        add_sql(tree, tvb, sess, hf_ttc_sql, hf_ttc_sql_id, req->stmt_sql);
    if (req->response && req->response->complete && req->response->last_frame) {
        pi = proto_tree_add_uint(tree, hf_response_in, tvb, 0, 0, req->response->last_frame);
        proto_item_set_generated(pi);
    }
}

/* A round trip's number in its conversation, given when its record is
 * first published: the first pass publishes every record (tree or not), in
 * frame order, so the numbers are the same in every mode. */
static const sqlnet_pattern_mark_t *
number_round_trip(packet_info *pinfo, const sqlnet_session_t *sess, ttc_response_t *resp)
{
    if (sess->ttc)
        ttc_round_trip_number((ttc_session_t *)sess->ttc, resp);
    /* the chatty-application runs: decided here, in the first pass, for
     * every round trip (tree or not, tap or not); the mark it gives back is
     * the one the record, the tap and the subtree read (looked up once) */
    return patterns_note(pinfo, (sqlnet_session_t *)sess, resp);
}

/* The round-trip record of a response: the request and response by
 * reference, with what exists only here (conversation, tcp.stream, the
 * SQL_ID when with_sql_id (no column reads it), negotiated sizes, the
 * segments counted so far).  The tap record and the subtree are made from
 * it, so they read the same columns. */
static void
fill_round_trip(sqlnet_rt_t *rt, packet_info *pinfo, const sqlnet_session_t *sess,
                const ttc_response_t *resp, gboolean with_sql_id, const sqlnet_pattern_mark_t *m)
{
    const conversation_t *conv = sess->conv;

    memset(rt, 0, sizeof(*rt));
    rt->req = resp->req;
    rt->resp = resp;
    rt->conversation = conv ? conv->conv_index : 0;
    if (conv && proto_tcp > 0) {
        const struct tcp_analysis *tcpd =
            (const struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp);
        if (tcpd)
            rt->tcp_stream = tcpd->stream;
    }
    if (with_sql_id && resp->req && sess->ttc)
        rt->sql_id = ttc_sql_id((ttc_session_t *)sess->ttc, resp->req->stmt_sql);
    rt->sdu = sess->sdu;
    if (session_negotiated(sess, pinfo)) {
        rt->negotiated = TRUE;
        rt->negotiated_sdu = sess->sdu;
        rt->negotiated_tdu = sess->tdu;
        rt->negotiated_version = sess->version;
    }
    rt->segments = resp->segments;
    if (!sess->tls)
        rt->largest_segment = resp->largest_segment;
    rt->multi_segment = resp->multi_segment_packet;
    if (m) {
        rt->exec_number = m->exec_number;
        rt->pattern = m->pattern;
        rt->run_kind = m->kind;
        rt->run_first = m->run_first;
        rt->run_index = m->run_index;
        rt->reparse_first = m->reparse_first;
        rt->reparse_index = m->reparse_index;
    }
}

/* Publish one round trip on the "sqlnet" tap (and the Follow tap). */
static void
queue_round_trip(packet_info *pinfo, const sqlnet_session_t *sess, const ttc_response_t *resp,
                 const sqlnet_pattern_mark_t *m)
{
    sqlnet_rt_t *rt;
    gboolean to_sqlnet = have_tap_listener(tap_sqlnet), to_follow = follow_listening();

    if (!to_sqlnet && !to_follow)
        return;
    rt = wmem_new(pinfo->pool, sqlnet_rt_t);
    fill_round_trip(rt, pinfo, sess, resp, TRUE, m);
    if (to_sqlnet)
        tap_queue_packet(tap_sqlnet, pinfo, rt);
    if (to_follow)   /* the Follow transcript's tap: the record with the conversation's values */
        follow_queue_round_trip(pinfo, (sqlnet_session_t *)sess, rt);
}

/* An ORA error as a user writes it: "ORA-01722" (five digits). */
static const char *
ora_name(packet_info *pinfo, guint32 error)
{
    return wmem_strdup_printf(pinfo->pool, "ORA-%05u", error);
}

/* The expert field of an ORA error: its own for a common one (its summary
 * "ORA-01722: invalid number" is the group's line in Expert Info), else the
 * generic one.  Bisection over the sorted table. */
static expert_field *
ora_expert(guint32 error)
{
    gsize lo = 0, hi = ORA_NERRORS;

    while (lo < hi) {
        gsize mid = lo + (hi - lo) / 2;
        if (ora_numbers[mid] == error)
            return &ora_known_ei[mid];
        if (ora_numbers[mid] < error)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &ei_ora_error;
}

/* The expert item of an ORA error names it: "ORA-00942: table or view does
 * not exist" (the first line of the server's message), or "ORA-00942"
 * without one; its expert field (ora_expert) gives the group. */
static void
add_ora_error_expert(packet_info *pinfo, proto_item *pi, const ttc_response_t *resp)
{
    char number[16];
    const char *msg = resp->ora_message;
    gsize len = 0;
    expert_field *ei = ora_expert(resp->ora_error);

    snprintf(number, sizeof(number), "ORA-%05u", resp->ora_error);
    pi = sqlnet_expert_item(pi, ei);
    if (msg) {
        while (*msg == ' ' || *msg == '\t' || *msg == '\r' || *msg == '\n')
            msg++;
        while (msg[len] && msg[len] != '\n' && msg[len] != '\r')
            len++;
        while (len > 0 && (msg[len - 1] == ' ' || msg[len - 1] == '\t'))
            len--;
        if (len > 200)
            len = 200;
    }
    if (len == 0)
        expert_add_info_format(pinfo, pi, ei, "%s", number);
    else if (strncmp(msg, number, strlen(number)) == 0)
        expert_add_info_format(pinfo, pi, ei, "%.*s", (int)len, msg);
    else
        expert_add_info_format(pinfo, pi, ei, "%s: %.*s", number, (int)len, msg);
}

/* A time field's display (SQLNET_RT_KIND_MS): milliseconds with a fixed
 * precision, "21.675 ms" (the value keeps the nanoseconds; BASE_CUSTOM
 * because Wireshark 4.0 prints no unit string on an FT_DOUBLE). */
static void
format_ms(gchar *buf, double ms)
{
    snprintf(buf, ITEM_LABEL_LENGTH, "%.3f ms", ms);
}

/* sqlnet.rt.values: the round trip's numbers in one string, for scripts
 * that read many of them (a Lua report pays per field it reads: one string
 * and one pattern match cost a tenth of twenty field reads).  Only built
 * when a filter, column or script asks for it.  "rt1" then, space-separated,
 * the columns of SQLNET_RT_COLUMNS marked V, in order, "-" for one that is
 * absent (the field's description names them: SQLNET_RT_VALUES_NAMES). */
static void
add_rt_values(proto_tree *tree, tvbuff_t *tvb, packet_info *pinfo, const sqlnet_rt_t *rt)
{
    GString *s = g_string_sized_new(192);
    guint64 v;
    guint k;

    g_string_append(s, "rt1");
    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++) {
        if (!sqlnet_rt_column_in_values(k))
            continue;
        if (sqlnet_rt_column(rt, k, &v)) {
            /* the decimal digits as %" G_GUINT64_FORMAT " prints them, without
             * printf's cost (this string is built on every round trip while
             * any script names the field) */
            char d[24];
            guint n = sizeof(d);
            d[--n] = '\0';
            do {
                d[--n] = (char)('0' + v % 10u);
                v /= 10u;
            } while (v);
            d[--n] = ' ';
            g_string_append_len(s, d + n, (gssize)(sizeof(d) - 1 - n));
        } else
            g_string_append(s, " -");
    }
    proto_item_set_generated(proto_tree_add_string(tree, hf_rt_values, tvb, 0, 0,
                                                   wmem_strdup(pinfo->pool, s->str)));
    g_string_free(s, TRUE);
}

/* Nanoseconds in milliseconds, as nstime_to_msec() computes them (the same
 * double as the other views that convert an nstime_t). */
static double
ns_to_ms(guint64 ns)
{
    return (double)(ns / 1000000000u) * 1000.0 + (double)(ns % 1000000000u) / 1000000.0;
}

/* One column of the record as its field, in the subtree. */
static proto_item *
add_rt_column(proto_tree *tree, tvbuff_t *tvb, guint k, guint64 v)
{
    proto_item *pi;

    if (sqlnet_rt_column_kind(k) == SQLNET_RT_KIND_MS)
        pi = proto_tree_add_double(tree, hf_rt_col[k], tvb, 0, 0, ns_to_ms(v));
    else
        pi = proto_tree_add_uint(tree, hf_rt_col[k], tvb, 0, 0, (guint32)MIN(v, G_MAXUINT32));
    proto_item_set_generated(pi);
    return pi;
}

/* The round trip's execution number and pattern under the names a user
 * filters by (sqlnet.stmt.execution_number, sqlnet.pattern: the same values
 * as sqlnet.rt.execution_number and sqlnet.rt.pattern), and the Expert Info
 * on the call that made a run a pattern: how many calls, how many round trips
 * beyond the first call (in one pass: as far as read; two passes and the GUI:
 * the whole run).  Its time and the fix: -z sqlnet,advise, -z sqlnet,stmt. */
static void
add_pattern(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const sqlnet_session_t *sess,
            const sqlnet_rt_t *rt, const sqlnet_pattern_mark_t *m)
{
    proto_item *pi;

    if (rt->exec_number)
        proto_item_set_generated(proto_tree_add_uint(tree, hf_stmt_exec_number, tvb, 0, 0, rt->exec_number));
    if (m && m->reparse_index >= PATTERN_MIN_RUN) {
        /* a run of its own: the execute may be in another kind's run too */
        pi = proto_tree_add_string(tree, hf_pattern, tvb, 0, 0, pattern_name(SQLNET_PATTERN_REPARSE));
        proto_item_set_generated(pi);
        if (m->reparse_expert)
            expert_add_info_format(pinfo, sqlnet_expert_item(pi, &ei_reparse), &ei_reparse,
                                   "Parsed on every execution (reparse): %u executions in a row from frame %u, "
                                   "each with its SQL text and a parse; a statement cache saves no round trip, "
                                   "the SQL text sent again and the parses: -z sqlnet,advise",
                                   m->reparse_length, m->reparse_first);
    }
    if (!rt->pattern)
        return;
    pi = proto_tree_add_string(tree, hf_pattern, tvb, 0, 0, pattern_name(rt->pattern));
    proto_item_set_generated(pi);
    if (m && m->expert) {
        const char *sql_id = rt->req && rt->req->stmt_sql && sess->ttc
                             ? ttc_sql_id((ttc_session_t *)sess->ttc, rt->req->stmt_sql) : NULL;
        expert_add_info_format(pinfo, sqlnet_expert_item(pi, &ei_pattern), &ei_pattern,
                               "Avoidable round trips (%s): %u calls in a row from frame %u%s%s, %u round trips "
                               "beyond the first call; the time they cost and the fix: -z sqlnet,advise",
                               pattern_name(rt->pattern), m->run_length, m->run_first,
                               sql_id ? ", SQL_ID " : "", sql_id ? sql_id : "", m->run_saved_rts);
    }
}

/* A small fetch: a fetch (not an execute) on a result set with rows still
 * to come that asked fewer rows than the threshold, and got some (one that
 * gets none only learns the result set has ended).  Here, with the
 * response, every mode (one pass, two, the GUI) knows the rows. */
static void
small_fetch(packet_info *pinfo, proto_item *pi, const ttc_request_t *req, const ttc_response_t *resp,
            guint64 rows_asked)
{
    if (req->fetch_more && rows_asked > 0 && rows_asked < sqlnet_prefs()->small_fetch && resp->rows > 0) {
        pi = sqlnet_expert_item(pi, &ei_small_fetch);
        if (sqlnet_expert_wanted(pinfo, pi, sev_small_fetch))
            expert_add_info(pinfo, pi, &ei_small_fetch);
    }
}

/* One record per round trip: the "Round trip" subtree (sqlnet.rt), on the
 * packet that completes the response (the one with sqlnet.request_in), or,
 * for a response the next request cut short, on that request's first
 * packet (where the tap record goes: no packet of the response knew it was
 * the last).  Each round trip gets it once, so COUNT(sqlnet.rt.rows) counts
 * round trips and SUM(sqlnet.rt.rows) rows.  Its items are the record's
 * columns that are fields (SQLNET_RT_COLUMNS, then the call facts), in the
 * declaration's order, with the SQL text after the cursor and the SDU fill
 * after the TCP segments. */
static void
add_round_trip(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const sqlnet_session_t *sess,
               const ttc_response_t *resp, const sqlnet_pattern_mark_t *m)
{
    const ttc_request_t *req = resp->req;
    proto_item *ti, *pi;
    proto_tree *tr;
    sqlnet_rt_t rt;
    guint64 v;
    guint k;
    gboolean sql_done = FALSE;

    if (!req)
        return;                       /* no request: not a round trip (no sqlnet.request_in) */
    if (!tree) {
        /* No tree (a pass that only builds columns or feeds taps): of the
         * record's items only the expert infos have an effect (small fetch,
         * the call that makes a run a pattern). */
        memset(&rt, 0, sizeof(rt));
        rt.req = req;
        rt.resp = resp;
        if (sqlnet_rt_column(&rt, SQLNET_RT_COL_rows_asked, &v))
            small_fetch(pinfo, NULL, req, resp, v);
        if (m && (m->pattern || m->reparse_index >= PATTERN_MIN_RUN)) {
            rt.pattern = m->pattern;
            rt.exec_number = m->exec_number;
            add_pattern(tvb, pinfo, NULL, sess, &rt, m);
        }
        return;
    }
    fill_round_trip(&rt, pinfo, sess, resp, FALSE, m);
    ti = proto_tree_add_item(tree, hf_rt, tvb, 0, 0, ENC_NA);
    proto_item_set_generated(ti);
    tr = proto_item_add_subtree(ti, ett_rt);
    proto_item_append_text(ti, " %u: %u rows", resp->number, resp->rows);
    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++) {
        if (!sql_done && k > SQLNET_RT_COL_cursor) {
            if (req->stmt_sql)
                add_sql(tr, tvb, sess, hf_rt_sql, hf_rt_sql_id, req->stmt_sql);
            sql_done = TRUE;
        }
        if (sqlnet_rt_column_kind(k) == SQLNET_RT_KIND_NONE)
            continue;
        /* A tree that is not shown (columns, filters, taps) fakes the items
         * nobody references: skip them before their value is computed.  The
         * rows asked (its expert info) and the segments (the SDU fill after
         * it) are added always. */
        if (k != SQLNET_RT_COL_rows_asked && k != SQLNET_RT_COL_resp_segments &&
            !proto_field_is_referenced(tr, hf_rt_col[k]))
            continue;
        if (!sqlnet_rt_column(&rt, k, &v))
            continue;
        pi = add_rt_column(tr, tvb, k, v);
        if (k == SQLNET_RT_COL_rows_asked) {
            small_fetch(pinfo, pi, req, resp, v);
        } else if (k == SQLNET_RT_COL_resp_segments && sess->sdu > 0 && resp->packets > 0) {
            double fill = 100.0 * resp->bytes / ((double)resp->packets * sess->sdu);
            proto_item_set_generated(proto_tree_add_double_format_value(tr, hf_rt_sdu_fill, tvb, 0, 0, fill,
                                                                        "%.1f %%", fill));
        }
    }
    if (proto_field_is_referenced(tree, hf_rt_values))
        add_rt_values(tr, tvb, pinfo, &rt);
    add_pattern(tvb, pinfo, tree, sess, &rt, m);
}

/* bytes / 1024 in tenths, rounded like printf("%.1f", bytes / 1024.0):
 * to nearest, ties to even (the quotient is exact in a double). */
static guint32
kb_tenths(guint32 bytes)
{
    guint64 n = (guint64)bytes * 10u;
    guint64 q = n / 1024u, r = n % 1024u;
    if (r > 512u || (r == 512u && (q & 1u)))
        q++;
    return (guint32)q;
}

/* A time in tenths of milliseconds, rounded as printf("%.1f", nstime_to_msec(t))
 * does: below 10^6 s the double is within a nanosecond of the exact value,
 * so only an exact decimal tie (x.x5 ms) is left to printf. */
static gboolean
ms_tenths(const nstime_t *t, guint64 *tenths)
{
    guint64 ns, q, r;

    if (t->secs < 0 || t->secs >= 1000000 || t->nsecs < 0 || t->nsecs >= 1000000000)
        return FALSE;
    ns = (guint64)t->secs * 1000000000u + (guint64)t->nsecs;
    q = ns / 100000u;
    r = ns % 100000u;
    if (r == 50000u)
        return FALSE;
    *tenths = q + (r > 50000u ? 1u : 0u);
    return TRUE;
}

static void
add_response(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const sqlnet_session_t *sess,
             ttc_response_t *resp, gboolean completes)
{
    const ttc_request_t *req = resp->req;
    const sqlnet_pattern_mark_t *m;
    proto_item *pi = NULL;
    nstime_t dt, rt;              /* rt: the response time */
    guint32 segs, kb10;
    sqlnet_coltext_t info;
    guint64 ms10;

    if (!completes) {
        /* Only the completing packet links back to the request (so that
         * counting sqlnet.request_in counts responses); the other packets of
         * the response link forward to it once it is known (two passes, GUI). */
        if (tree && resp->complete && resp->last_frame > pinfo->num) {
            pi = proto_tree_add_uint(tree, hf_resp_last_in, tvb, 0, 0, resp->last_frame);
            proto_item_set_generated(pi);
        }
        return;
    }
    m = number_round_trip(pinfo, sess, resp);
    /* Without a tree (tshark -q, a tap's pass, columns only) the items
     * below are not made; what has an effect there is kept, in the same
     * order: the expert infos (on no item), the tap record, the column. */
    if (tree && req) {
        pi = proto_tree_add_uint(tree, hf_request_in, tvb, 0, 0, req->frame);
        proto_item_set_generated(pi);
        /* The call this response answers, as on the request. */
        if (req->call.kind == TTC_REQ_FUNCTION || req->call.kind == TTC_REQ_FAST_AUTH)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_req_func, tvb, 0, 0, req->call.func));
        if (req->call.has_fetch_rows) {
            proto_item_set_generated(proto_tree_add_uint(tree, hf_fetch_rows, tvb, 0, 0, req->call.fetch_rows));
            proto_item_set_generated(proto_tree_add_uint(tree, hf_array_size, tvb, 0, 0, req->call.fetch_rows));
        }
    }

    if (tree) {
        pi = proto_tree_add_uint(tree, hf_rows, tvb, 0, 0, resp->rows);
        proto_item_set_generated(pi);
    }
    if (ttc_round_trip_partial(resp)) {
        proto_item *pp = proto_tree_add_uint(tree, hf_partial, tvb, 0, 0, ttc_round_trip_partial(resp));
        proto_item_set_generated(pp);
        pp = sqlnet_expert_item(pp, &ei_partial);
        if (sqlnet_expert_wanted(pinfo, pp, sev_partial))
            expert_add_info(pinfo, pp, &ei_partial);
    }
    if (resp->has_oer) {
        if (tree) {
            proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_cursor, tvb, 0, 0, resp->cursor));
            proto_item_set_generated(proto_tree_add_uint64(tree, hf_rowcount, tvb, 0, 0, resp->rowcount));
            pi = proto_tree_add_uint(tree, hf_ora_error, tvb, 0, 0, resp->ora_error);
            proto_item_set_generated(pi);
            if (resp->ora_error != 0)      /* as a user writes it: ORA-01403 too, as sqlnet.ora_error */
                proto_item_set_generated(proto_tree_add_string(tree, hf_ora, tvb, 0, 0,
                                                               ora_name(pinfo, resp->ora_error)));
        } else {
            pi = NULL;
        }
        if (resp->ora_error != 0 && resp->ora_error != TTC_ERR_NO_DATA_FOUND)
            add_ora_error_expert(pinfo, pi, resp);
        if (tree && resp->ora_message)
            proto_item_set_generated(proto_tree_add_string(tree, hf_ora_error_msg, tvb, 0, 0, resp->ora_message));
    } else if (tree && req && req->call.has_cursor && req->call.cursor != 0) {
        /* No end-of-call status: the cursor the call named. */
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_cursor, tvb, 0, 0, req->call.cursor));
    }
    if (tree) {
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_packets, tvb, 0, 0, resp->packets));
        pi = proto_tree_add_uint(tree, hf_resp_data_packets, tvb, 0, 0, ttc_resp_data_packets(resp));
        proto_item_set_generated(pi);
    } else {
        pi = NULL;
    }
    if (ttc_resp_data_packets(resp) > 1) {
        pi = sqlnet_expert_item(pi, &ei_more_data);
        if (sqlnet_expert_wanted(pinfo, pi, sev_more_data))
            expert_add_info(pinfo, pi, &ei_more_data);
    }
    if (tree)
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_markers, tvb, 0, 0, resp->markers));
    segs = resp->segments;
    queue_round_trip(pinfo, sess, resp, m);
    if (tree) {
        pi = proto_tree_add_uint(tree, hf_resp_segments, tvb, 0, 0, segs);
        proto_item_set_generated(pi);
    } else {
        pi = NULL;
    }
    if (resp->multi_segment_packet) {
        pi = sqlnet_expert_item(pi, &ei_multi_segment);
        if (sqlnet_expert_wanted(pinfo, pi, sev_multi_segment))
            expert_add_info(pinfo, pi, &ei_multi_segment);
    }
    if (tree) {
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_bytes, tvb, 0, 0, resp->bytes));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_ttc_bytes, tvb, 0, 0, resp->ttc_bytes));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_row_bytes, tvb, 0, 0, resp->row_bytes));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_resp_bvc_bytes, tvb, 0, 0, resp->bvc_bytes));
    }
    if (req && (tree || pinfo->cinfo)) {
        nstime_t req_last = ttc_req_last_time(req), resp_last = ttc_resp_last_time(resp);
        nstime_delta(&rt, &resp_last, &req_last);
    }
    if (req && tree) {
        nstime_t req_last = ttc_req_last_time(req), resp_first = ttc_resp_first_time(resp);
        proto_item_set_generated(proto_tree_add_uint(tree, hf_req_bytes, tvb, 0, 0, req->tns_bytes));
        proto_item_set_generated(proto_tree_add_uint(tree, hf_req_ttc_bytes, tvb, 0, 0, req->ttc_bytes));
        if (req->execution)
            proto_item_set_generated(proto_tree_add_uint(tree, hf_execution, tvb, 0, 0, req->execution));
        proto_item_set_generated(proto_tree_add_time(tree, hf_time, tvb, 0, 0, &rt));
        nstime_delta(&dt, &resp_first, &req_last);
        proto_item_set_generated(proto_tree_add_time(tree, hf_time_first, tvb, 0, 0, &dt));
        if (req->stmt_sql)
            add_sql(tree, tvb, sess, hf_ttc_sql, hf_ttc_sql_id, req->stmt_sql);
        timing_add_fields(tree, tvb, resp);
    }
    add_round_trip(tvb, pinfo, tree, sess, resp, m);
    if (!pinfo->cinfo)
        return;                   /* no columns in this pass */

    /* One column call, KB and ms in integer tenths, no printf: this runs for
     * every response.  Text: " CALL response: R rows, P pkts, S segs, K.k KB[, M.m ms][ ORA-nnnnn]"
     * with the short name of the call it answers ("Response:" when unknown). */
    kb10 = kb_tenths(resp->bytes);
    coltext_init(&info);
    coltext_str(&info, " ");
    if (req && req->call.kind != TTC_REQ_NONE && req->call.kind != TTC_REQ_OTHER) {
        coltext_str(&info, func_name(req));
        coltext_str(&info, " response: ");
    } else {
        coltext_str(&info, "Response: ");
    }
    coltext_uint(&info, resp->rows);
    coltext_str(&info, " rows, ");
    coltext_uint(&info, resp->packets);
    coltext_str(&info, " pkts, ");
    coltext_uint(&info, segs);
    coltext_str(&info, " segs, ");
    coltext_tenths(&info, kb10);
    coltext_str(&info, " KB");
    if (req) {
        coltext_str(&info, ", ");
        if (ms_tenths(&rt, &ms10)) {
            coltext_tenths(&info, ms10);
        } else {
            char ms[32];
            snprintf(ms, sizeof(ms), "%.1f", nstime_to_msec(&rt));   /* exact ties only */
            coltext_str(&info, ms);
        }
        coltext_str(&info, " ms");
    }
    if (resp->has_oer && resp->ora_error != 0) {
        guint32 e = resp->ora_error, pad;
        coltext_str(&info, " ORA-");
        for (pad = 10000; pad > 1 && e < pad; pad /= 10)
            coltext_str(&info, "0");      /* %05u */
        coltext_uint(&info, e);
    }
    sqlnet_col_append(pinfo, info.buf);
}

void
metrics_add_summary(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                    sqlnet_session_t *sess, sqlnet_dir_t dir)
{
    ttc_request_t *req;
    ttc_response_t *resp;
    gboolean completes, carries_call;

    if (!ttc_pdu_lookup(sess, pinfo, payload, &req, &resp, &completes, &carries_call))
        return;
    if (dir == SQLNET_TO_SERVER) {
        /* A response the next request cut short is still a round trip. */
        ttc_response_t *closed = req ? ttc_req_closed(sess, req) : NULL;
        if (closed && !closed->complete && ttc_pdu_starts_request(sess, pinfo, payload)) {
            if (sess->ttc)
                timing_revisit(pinfo, (ttc_session_t *)sess->ttc, closed);
            const sqlnet_pattern_mark_t *m = number_round_trip(pinfo, sess, closed);
            queue_round_trip(pinfo, sess, closed, m);
            /* no packet of the response knew it was the last (one pass):
             * its record goes with the packet that ended it, as the tap's */
            add_round_trip(payload, pinfo, tree, sess, closed, m);
        }
        if (req && carries_call)
            add_request(payload, pinfo, tree, sess, req);
    } else if (resp) {
        if (completes && sess->ttc)
            timing_revisit(pinfo, (ttc_session_t *)sess->ttc, resp);
        add_response(payload, pinfo, tree, sess, resp, completes);
    }
}

void
metrics_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_fetch_rows, { "Rows requested", "sqlnet.fetch.rows", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Rows this call asks the server to return now: OFETCH rows, re-execute-and-fetch iterations, "
            "OALL8 prefetch rows or execution count (the array size); on the call and on the packet that "
            "completes its response (the same value as sqlnet.array_size)", HFILL } },
        { &hf_array_size, { "Array size (rows asked per fetch, the fetch size)", "sqlnet.array_size", FT_UINT32,
            BASE_DEC, NULL, 0x0,
            "Rows this call asks the server to return now (the array size or fetch size of the client): "
            "an OFETCH's rows, a re-execute-and-fetch's iterations, an execute's (OALL8) prefetch rows or "
            "execution count; on the call and on the packet that completes its response; the same value "
            "as sqlnet.fetch.rows", HFILL } },
        { &hf_req_func, { "Call", "sqlnet.call", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0,
            "Main function of the request: on the packet that carries the call and on the packet that "
            "completes its response (sqlnet.direction tells them apart)", HFILL } },
        { &hf_execution, { "Execution", "sqlnet.execution", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Statement execution this call or response belongs to, numbered per conversation: an execute "
            "call starts one, the fetches of its cursor continue it", HFILL } },
        { &hf_rows, { "Rows delivered", "sqlnet.rows", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Rows returned by this response (row data messages), on the packet that completes it", HFILL } },
        { &hf_rowcount, { "Cumulative row count", "sqlnet.rowcount", FT_UINT64, BASE_DEC, NULL, 0x0,
            "Rows fetched so far on the cursor (rows affected for DML), from the end-of-call status", HFILL } },
        { &hf_ora_error, { "ORA error", "sqlnet.ora_error", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Oracle error of the response (0 = success, 1403 = no more rows)", HFILL } },
        { &hf_ora_error_msg, { "ORA error message", "sqlnet.ora_error.msg", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_ora, { "ORA error", "sqlnet.ora", FT_STRING, BASE_NONE, NULL, 0x0,
            "Oracle error of the response as written: \"ORA-01722\" (five digits); on every response whose "
            "end-of-call status carries an error, ORA-01403 (no more rows) included, as sqlnet.ora_error "
            "(absent where sqlnet.ora_error is 0)", HFILL } },
        { &hf_resp_cursor, { "Response cursor", "sqlnet.response.cursor", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Cursor of the response: the id in its end-of-call status, else the cursor its call named", HFILL } },
        { &hf_resp_packets, { "TNS packets", "sqlnet.response.packets", FT_UINT32, BASE_DEC, NULL, 0x0,
            "All TNS packets of this response: DATA packets and BREAK/RESET markers", HFILL } },
        { &hf_resp_data_packets, { "TNS DATA packets", "sqlnet.response.data_packets", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TNS DATA packets of this response, markers excluded: above 1, the response was larger than "
            "one SDU (\"SQL*Net more data to client\")", HFILL } },
        { &hf_resp_markers, { "Marker packets", "sqlnet.response.markers", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TNS MARKER packets (BREAK, RESET) of this response: an error or a cancel", HFILL } },
        { &hf_resp_last_in, { "Response completed in", "sqlnet.response.last_in", FT_FRAMENUM, BASE_NONE,
            FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0,
            "On the other packets of a response: the frame that completes it (known after the first pass)", HFILL } },
        { &hf_resp_segments, { "TCP segments", "sqlnet.response.segments", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TCP segments with payload that carried this response (a retransmission is not one more)", HFILL } },
        { &hf_resp_bytes, { "TNS bytes", "sqlnet.response.bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of the response's TNS packets, headers included", HFILL } },
        { &hf_resp_ttc_bytes, { "Bytes via SQL*Net", "sqlnet.response.ttc_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TTC bytes of the response: DATA payload after the data flags, TNS headers and markers "
            "excluded (Oracle's \"bytes sent via SQL*Net to client\")", HFILL } },
        { &hf_resp_row_bytes, { "Row bytes", "sqlnet.response.row_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of row data in the response: row data (RXD) and bit vector (BVC) messages", HFILL } },
        { &hf_resp_bvc_bytes, { "Bit vector bytes", "sqlnet.response.bvc_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of bit vector (BVC) messages in the response: the column-suppression vectors the server "
            "puts in front of rows that repeat values of the row before (part of the row bytes)", HFILL } },
        { &hf_req_bytes, { "Request TNS bytes", "sqlnet.request.bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "Bytes of the request's TNS packets, headers included", HFILL } },
        { &hf_req_ttc_bytes, { "Request bytes via SQL*Net", "sqlnet.request.ttc_bytes", FT_UINT32, BASE_DEC, NULL, 0x0,
            "TTC bytes of the request (Oracle's \"bytes received via SQL*Net from client\")", HFILL } },
        { &hf_time, { "Response time", "sqlnet.time", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "From the request to the end of its response", HFILL } },
        { &hf_time_first, { "Time to first response packet", "sqlnet.time.first", FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "From the request to the first response segment: server think time, before transfer", HFILL } },
        { &hf_partial, { "Partial", "sqlnet.ttc.partial", FT_UINT8, BASE_DEC, VALS(partial_vals), 0x0,
            "The round trip was not decoded to its end: its rows, bytes and cursor are lower bounds or unknown "
            "(1 = the capture cut a packet short, 2 = a message could not be decoded)", HFILL } },
        { &hf_request_in, { "Request in", "sqlnet.request_in", FT_FRAMENUM, BASE_NONE, FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0x0,
            "Frame of the request this response answers, on the packet that completes the response", HFILL } },
        { &hf_response_in, { "Response in", "sqlnet.response_in", FT_FRAMENUM, BASE_NONE, FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0x0,
            "Frame that completes the response to this request", HFILL } },
        { &hf_pattern, { "Avoidable round trips (pattern)", "sqlnet.pattern", FT_STRING, BASE_NONE, NULL, 0x0,
            "The chatty-application pattern this round trip is part of (as sqlnet.rt.pattern): "
            "repeated_query (N+1), row_by_row_dml, commit, ping, lob_per_row; and reparse on an execute "
            "parsed again (a second occurrence when the round trip is in another run too) (docs/time.md)",
            HFILL } },
        { &hf_stmt_exec_number, { "Execution of its SQL", "sqlnet.stmt.execution_number", FT_UINT32, BASE_DEC,
            NULL, 0x0, "This SQL text's execution number in the conversation (as sqlnet.rt.execution_number)",
            HFILL } },
        { &hf_rt, { "Round trip", "sqlnet.rt", FT_NONE, BASE_NONE, NULL, 0x0,
            "One record per round trip, on the packet that completes its response (for a response the next "
            "request cut short: on that request's first packet): COUNT(sqlnet.rt.rows) counts round trips", HFILL } },
        { &hf_rt_sql, { "SQL", "sqlnet.rt.sql", FT_STRING, BASE_NONE, NULL, 0x0,
            "SQL text of the statement (as sqlnet.sql)", HFILL } },
        { &hf_rt_sql_id, { "SQL_ID", "sqlnet.rt.sql_id", FT_STRING, BASE_NONE, NULL, 0x0,
            "Oracle's SQL_ID of the statement text (13 characters, as V$SQL.SQL_ID)", HFILL } },
        { &hf_rt_sdu_fill, { "SDU fill", "sqlnet.rt.sdu_fill", FT_DOUBLE, BASE_NONE, NULL, 0x0,
            "Response TNS bytes / (response TNS packets x SDU) x 100", HFILL } },
        { &hf_rt_values, { "Values", "sqlnet.rt.values", FT_STRING, BASE_NONE, NULL, 0x0,
            "The round trip's numbers in one string, for scripts: \"rt1\" then, space-separated, \"-\" when "
            "absent, the columns of -z sqlnet,rt (times in ns):" SQLNET_RT_VALUES_NAMES, HFILL } },
        /* the record's columns that are fields (SQLNET_RT_COLUMNS) */
#define RT_HF_NONE(id, abbrev, name, desc)
#define RT_HF_UINT(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_UINT32, BASE_DEC, NULL, 0x0, desc, HFILL } },
#define RT_HF_BYTES(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_UINT32, BASE_DEC|BASE_UNIT_STRING, \
            &units_byte_bytes, 0x0, desc, HFILL } },
#define RT_HF_CALL(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_UINT8, BASE_DEC, VALS(ttc_function_vals), \
            0x0, desc, HFILL } },
#define RT_HF_PARTIAL(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_UINT8, BASE_DEC, VALS(partial_vals), \
            0x0, desc, HFILL } },
#define RT_HF_PATTERN(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_UINT8, BASE_DEC, \
            VALS(sqlnet_pattern_vals), 0x0, desc, HFILL } },
#define RT_HF_MS(id, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_##id], { name, "sqlnet.rt." abbrev, FT_DOUBLE, BASE_CUSTOM, CF_FUNC(format_ms), \
            0x0, desc, HFILL } },
#define RT_HF(id, col, kind, abbrev, name, desc, vals, have, val) RT_HF_##kind(id, abbrev, name, desc)
        SQLNET_RT_COLUMNS(RT_HF)
#undef RT_HF
#undef RT_HF_NONE
#undef RT_HF_UINT
#undef RT_HF_BYTES
#undef RT_HF_CALL
#undef RT_HF_PARTIAL
#undef RT_HF_PATTERN
#undef RT_HF_MS
        /* the call facts (TTC_CALL_FACTS) */
#define CALL_FACT_HF(m, abbrev, name, desc) \
        { &hf_rt_col[SQLNET_RT_COL_call_##m], { name, "sqlnet.rt." abbrev, FT_UINT32, BASE_DEC, NULL, 0x0, \
            desc, HFILL } },
        TTC_CALL_FACTS(CALL_FACT_HF)
#undef CALL_FACT_HF
    };
    static gint *ett[] = { &ett_rt };
    static ei_register_info ei[] = {
        { &ei_small_fetch, { "sqlnet.small_fetch", PI_PROTOCOL, PI_WARN,
            "Small fetch size: this fetch asked for fewer rows than the small-fetch threshold and got rows "
            "while the statement had more to come; a larger array size saves round trips", EXPFILL } },
        { &ei_pattern, { "sqlnet.pattern.expert", PI_SEQUENCE, PI_WARN,
            "Avoidable round trips: a run of calls one call could do (N+1 query, row-by-row DML, commit "
            "or ping per statement, LOB call per row)", EXPFILL } },
        { &ei_reparse, { "sqlnet.pattern.reparse", PI_SEQUENCE, PI_NOTE,
            "Parsed on every execution: the tenth execution in a row of one statement that each carry its SQL "
            "text and a parse (no statement cache)", EXPFILL } },
        { &ei_more_data, { "sqlnet.more_data", PI_PROTOCOL, PI_NOTE,
            "Response spans several TNS DATA packets (SQL*Net more data to client)", EXPFILL } },
        { &ei_multi_segment, { "sqlnet.multi_segment", PI_PROTOCOL, PI_NOTE,
            "TNS packets of this response were cut into several TCP segments (SDU above the path MTU?)",
            EXPFILL } },
        { &ei_partial, { "sqlnet.ttc.partial.expert", PI_UNDECODED, PI_NOTE,
            "Round trip not decoded to its end: its counts are lower bounds", EXPFILL } },
        { &ei_ora_error, { "sqlnet.ora_error.expert", PI_RESPONSE_CODE, PI_WARN,
            "Response carries an ORA error (number: sqlnet.ora_error, text: sqlnet.ora_error.msg)", EXPFILL } },
    };
    /* the common ORA errors' expert fields, from the table (registered once) */
#define ORA_EI(num, digits, text) { "sqlnet.ora_error.ora" digits, "ORA-" digits ": " text },
    static const struct { const char *abbrev, *summary; } ora_ei[] = { SQLNET_ORA_ERRORS(ORA_EI) };
#undef ORA_EI
    static const ei_register_info ora_tmpl = { NULL, { NULL, PI_RESPONSE_CODE, PI_WARN, NULL, EXPFILL } };
    static ei_register_info ora_reg[ORA_NERRORS];
    const expert_field ei_init = EI_INIT;
    gsize i;
    expert_module_t *expert;

    proto_metrics = proto;
    tap_sqlnet = register_tap(SQLNET_TAP_NAME);
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert = expert_register_protocol(proto);
    expert_register_field_array(expert, ei, array_length(ei));
    sev_small_fetch = sqlnet_expert_severity_of(ei, array_length(ei), &ei_small_fetch);
    sev_more_data = sqlnet_expert_severity_of(ei, array_length(ei), &ei_more_data);
    sev_multi_segment = sqlnet_expert_severity_of(ei, array_length(ei), &ei_multi_segment);
    sev_partial = sqlnet_expert_severity_of(ei, array_length(ei), &ei_partial);
    for (i = 0; i < ORA_NERRORS; i++) {
        ora_known_ei[i] = ei_init;
        ora_reg[i] = ora_tmpl;
        ora_reg[i].ids = &ora_known_ei[i];
        ora_reg[i].eiinfo.name = ora_ei[i].abbrev;
        ora_reg[i].eiinfo.summary = ora_ei[i].summary;
    }
    expert_register_field_array(expert, ora_reg, ORA_NERRORS);
}

void
metrics_handoff(void)
{
    proto_tcp = proto_get_id_by_filter_name("tcp");
}
