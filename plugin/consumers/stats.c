/* stats.c - statistics over the "sqlnet" tap (one record per round trip).
 *
 *   -z sqlnet,tree[,filter]   Statistics > SQL*Net Overview: distributions of rows
 *                             requested per call (array size), rows per round
 *                             trip, TNS packets per response, TCP segments per
 *                             TNS packet, SDU fill, response time; calls by
 *                             function; ORA errors
 *   -z sqlnet,srt[,filter]    service response time per TTC function
 *   -z sqlnet,stmt[,format=csv|json][,filter]
 *                             wire AUTOTRACE: stmt.c (registered from here)
 *   -z sqlnet,rt[,format=csv][,filter]
 *                             every round trip, one line each, with every
 *                             column of the record (sqlnet_rt.h): name=value
 *                             for the present ones, or CSV with a header
 *
 * All state belongs to the listener instance that a -z argument or a GUI
 * window creates.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stats_tree.h>
#include <epan/stats_tree_priv.h>
#include <epan/srt_table.h>
#include <epan/stat_tap_ui.h>

#include "sqlnet.h"
#include "ttc.h"
#include "metrics.h"
#include "timing.h"
#include "stats.h"
#include "tls.h"
#include "sql_id.h"
#include "nne.h"
#include "report_arg.h"
#include "stmt.h"

/* ---- stats tree -------------------------------------------------------- */

static const char st_calls[] = "Round trips by call";
static const char st_fetch[] = "Rows requested per call (array size)";
static const char st_rows[] = "Rows delivered per round trip";
static const char st_packets[] = "TNS DATA packets per response";
static const char st_segs[] = "TCP segments per TNS packet (response average)";
static const char st_fill[] = "SDU fill of response packets (%)";
/* In microseconds, so that the buckets resolve a LAN's sub-millisecond round
 * trips (range nodes take integers, and keep their order in every report). */
static const char st_time[] = "Response time (microseconds)";
static const char st_errors[] = "ORA errors";
static const char st_partial[] = "Partial round trips (counts are lower bounds)";

/* ---- the estimates in the tree -------------------------------------------
 *
 * Round trips of encrypted conversations that sqlnet cannot decode, estimated
 * from sizes (tls.c, nne.c), come on their own tap (SQLNET_EST_TAP), never on
 * the "sqlnet" tap the tree listens to.  The tree's init registers a second
 * listener on the estimate tap that ticks the same stats tree, in nodes of
 * their own created with its first record (a capture without encrypted
 * traffic shows the tree as before); the tree's cleanup removes it.
 *
 * Wireshark calls a stats tree's init once in tshark and on every reset in
 * the GUI, and removes the tree's listener by its tapdata (the stats tree):
 * the second listener's tapdata is its own record, found from the tree in
 * est_trees (stats tree -> tree_est_t), which holds the listeners alive now
 * (an entry leaves it when its listener is removed).  The GUI removes the
 * tree's listener after drawing and frees the tree when the window closes or
 * reloads, so another window's retap reaches the second listener alone: its
 * reset marks it stale and it ticks nothing until the tree's own init (which
 * the GUI calls from the tree's reset, after this listener's: a listener
 * registered later is reset first) arms it again.  Without that, the open
 * window's Copy showed the estimate counted twice.  tshark never resets. */

static const char st_undecrypted[] = "TNS-over-TLS conversations not decrypted: give Wireshark the TLS key log "
    "(tls.keylog_file), see docs//fields.md#sqlnet-over-tls, or turn on sqlnet.tls_estimate";
static const char st_undecrypted_est[] = "TNS-over-TLS conversations not decrypted, estimated below: to decode them, "
    "give Wireshark the TLS key log (tls.keylog_file), see docs//fields.md#sqlnet-over-tls";
/* (a root row's "/" is a path separator to the stats tree: "//" shows one) */
static const char st_nne_undecoded[] = "Conversations with native network encryption not decoded: sqlnet "
    "cannot decrypt them; turn on sqlnet.nne_estimate to estimate their round trips";
static const char st_nne_undecoded_est[] = "Conversations with native network encryption not decoded, estimated "
    "below: sqlnet cannot decrypt them";
static const char st_est_tls[] = "Encrypted (TLS), estimated from TLS record sizes (not decoded)";
static const char st_est_tls_records[] = "TLS records per response (estimated)";
static const char st_est_tls_bytes[] = "TLS record bytes per response (estimated)";
static const char st_est_tls_time[] = "TLS response time (microseconds, estimated)";
static const char st_est_nne[] = "Encrypted (native network encryption), estimated from TNS packet sizes (not decoded)";
static const char st_est_nne_packets[] = "TNS packets per response (encrypted, estimated)";
static const char st_est_nne_bytes[] = "TNS bytes per response (encrypted, estimated)";
static const char st_est_nne_time[] = "Response time (microseconds, encrypted, estimated)";

typedef struct {
    stats_tree *st;
    gboolean stale;                     /* reset by a retap the tree itself is not in */
} tree_est_t;

static GHashTable *est_trees;            /* stats_tree * -> tree_est_t *: the listeners alive */

static void tick_range_and_group(stats_tree *st, const char *name, int value);

/* The estimate part of one kind, created with its first round trip. */
static void
tree_est_nodes(stats_tree *st, const char *top, const char *units, const char *bytes, const char *times)
{
    int id;

    if (stats_tree_parent_id_by_name(st, top) != 0)
        return;
    id = stats_tree_create_node(st, top, 0, STAT_DT_INT, TRUE);
    stats_tree_create_range_node(st, units, id, "1-1", "2-2", "3-4", "5-9", "10-99", "100-", NULL);
    stats_tree_create_range_node(st, bytes, id, "0-499", "500-1999", "2000-7999", "8000-31999",
                                 "32000-127999", "128000-", NULL);
    stats_tree_create_range_node(st, times, id, "0-99", "100-199", "200-499", "500-999",
                                 "1000-1999", "2000-4999", "5000-9999", "10000-19999", "20000-49999",
                                 "50000-99999", "100000-199999", "200000-499999", "500000-999999",
                                 "1000000-", NULL);
}

static tap_packet_status
tree_est_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *p,
                tap_flags_t flags _U_)
{
    tree_est_t *t = (tree_est_t *)tapdata;
    stats_tree *st = t->st;
    const sqlnet_est_rec_t *rec = (const sqlnet_est_rec_t *)p;
    const char *top, *units, *bytes, *times;
    int us = (int)MIN((gint64)rec->resp_time.secs * 1000000 + rec->resp_time.nsecs / 1000, G_MAXINT);

    if (t->stale)
        return TAP_PACKET_DONT_REDRAW;
    /* the tree's clock, as stats_tree_packet() keeps it for the sqlnet tap */
    st->now = nstime_to_msec(&pinfo->rel_ts);
    if (st->start < 0.0)
        st->start = st->now;
    st->elapsed = st->now - st->start;
    if (rec->kind == SQLNET_EST_TLS_UNDECRYPTED || rec->kind == SQLNET_EST_NNE_UNDECODED) {
        /* what the tree cannot read, said where it is read: the top row counts
         * the conversations, one row per server port */
        const char *note = rec->kind == SQLNET_EST_NNE_UNDECODED
            ? (nne_estimate_enabled() ? st_nne_undecoded_est : st_nne_undecoded)
            : sqlnet_tls_estimate_enabled() ? st_undecrypted_est : st_undecrypted;
        int id = stats_tree_parent_id_by_name(st, note);
        char port[32];

        if (id == 0)
            id = stats_tree_create_pivot(st, note, 0);
        snprintf(port, sizeof(port), "port %u", rec->port);
        stats_tree_tick_pivot(st, id, port);
        return TAP_PACKET_REDRAW;
    }
    if (rec->kind == SQLNET_EST_TLS) {
        top = st_est_tls, units = st_est_tls_records, bytes = st_est_tls_bytes, times = st_est_tls_time;
    } else if (rec->kind == SQLNET_EST_NNE) {
        top = st_est_nne, units = st_est_nne_packets, bytes = st_est_nne_bytes, times = st_est_nne_time;
    } else {
        return TAP_PACKET_DONT_REDRAW;
    }
    tree_est_nodes(st, top, units, bytes, times);
    tick_stat_node(st, top, 0, TRUE);
    tick_range_and_group(st, units, (int)MIN(rec->records, G_MAXINT));
    tick_range_and_group(st, bytes, (int)MIN(rec->bytes, G_MAXINT));
    tick_range_and_group(st, times, MAX(us, 0));
    return TAP_PACKET_REDRAW;
}

static void
tree_est_reset(void *tapdata)
{
    ((tree_est_t *)tapdata)->stale = TRUE;
}

static void
tree_est_finish(void *tapdata)
{
    tree_est_t *t = (tree_est_t *)tapdata;
    if (est_trees)
        g_hash_table_remove(est_trees, t->st);
    g_free(t);
}

/* From the tree's init: its listener on the estimate tap, once per tree,
 * with the tree's filter. */
static void
tree_est_attach(stats_tree *st)
{
    tree_est_t *t;
    GString *err;

    if (!est_trees)
        return;
    t = (tree_est_t *)g_hash_table_lookup(est_trees, st);
    if (t) {                        /* the tree's own reset: count again */
        t->stale = FALSE;
        return;
    }
    t = g_new0(tree_est_t, 1);
    t->st = st;
    g_hash_table_insert(est_trees, st, t);
    err = register_tap_listener(SQLNET_EST_TAP, t, st->filter, TL_REQUIRES_NOTHING, tree_est_reset,
                                tree_est_packet, NULL, tree_est_finish);
    if (err) {                      /* the tree goes on without the estimates */
        g_string_free(err, TRUE);
        g_hash_table_remove(est_trees, st);
        g_free(t);
    }
}

static void
tree_cleanup(stats_tree *st)
{
    tree_est_t *t = est_trees ? (tree_est_t *)g_hash_table_lookup(est_trees, st) : NULL;
    if (t)
        remove_tap_listener(t);     /* tree_est_finish() */
}

static void
tree_init(stats_tree *st)
{
    stats_tree_create_pivot(st, st_calls, 0);
    stats_tree_create_range_node(st, st_fetch, 0, "1-1", "2-9", "10-49", "50-99",
                                 "100-499", "500-999", "1000-4999", "5000-", NULL);
    stats_tree_create_range_node(st, st_rows, 0, "0-0", "1-1", "2-9", "10-49", "50-99",
                                 "100-499", "500-999", "1000-", NULL);
    stats_tree_create_range_node(st, st_packets, 0, "1-1", "2-2", "3-4", "5-9", "10-99", "100-", NULL);
    stats_tree_create_range_node(st, st_segs, 0, "1-1", "2-2", "3-4", "5-9", "10-", NULL);
    stats_tree_create_range_node(st, st_fill, 0, "0-9", "10-24", "25-49", "50-74", "75-89", "90-100", NULL);
    stats_tree_create_range_node(st, st_time, 0, "0-99", "100-199", "200-499", "500-999",
                                 "1000-1999", "2000-4999", "5000-9999", "10000-19999", "20000-49999",
                                 "50000-99999", "100000-199999", "200000-499999", "500000-999999",
                                 "1000000-", NULL);
    stats_tree_create_pivot(st, st_errors, 0);
    stats_tree_create_pivot(st, st_partial, 0);
    tree_est_attach(st);
}

/* A range bucket, and its group row: stats_tree_tick_range() adds the value
 * to the group's total, minimum and maximum but expects its count ticked by
 * the caller (left alone, the row shows Count 0 and no average). */
static void
tick_range_and_group(stats_tree *st, const char *name, int value)
{
    tick_stat_node(st, name, 0, FALSE);
    stats_tree_tick_range(st, name, 0, value);
}

static tap_packet_status
tree_packet(stats_tree *st, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *p,
            tap_flags_t flags _U_)
{
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)p;
    nstime_t rt_time = sqlnet_rt_time(rt);
    char name[64];

    stats_tree_tick_pivot(st, stats_tree_parent_id_by_name(st, st_calls),
                          sqlnet_rt_kind(rt) == TTC_REQ_FUNCTION || sqlnet_rt_kind(rt) == TTC_REQ_FAST_AUTH
                              ? val_to_str_const(sqlnet_rt_func(rt), ttc_function_vals, "unknown function")
                              : sqlnet_rt_kind(rt) == TTC_REQ_PROTOCOL ? "PRO"
                              : sqlnet_rt_kind(rt) == TTC_REQ_DATA_TYPES ? "DTY" : "other");
    if (sqlnet_rt_has_fetch_rows(rt) && sqlnet_rt_fetch_rows(rt) > 0)
        tick_range_and_group(st, st_fetch, (int)MIN(sqlnet_rt_fetch_rows(rt), G_MAXINT));
    tick_range_and_group(st, st_rows, (int)MIN(rt->resp->rows, G_MAXINT));
    /* DATA packets, as sqlnet.response.data_packets, the "more data" expert
     * and -z sqlnet,stmt count them: a BREAK/RESET marker is not more data. */
    if (ttc_resp_data_packets(rt->resp) > 0)
        tick_range_and_group(st, st_packets, (int)ttc_resp_data_packets(rt->resp));
    if (rt->resp->packets > 0) {
        tick_range_and_group(st, st_segs,
                             (int)((rt->segments + rt->resp->packets - 1) / rt->resp->packets));
        if (rt->sdu > 0)
            tick_range_and_group(st, st_fill,
                                 (int)MIN(100, (guint64)rt->resp->bytes * 100 / ((guint64)rt->resp->packets * rt->sdu)));
    }
    if (rt->resp->complete)
        tick_range_and_group(st, st_time, (int)MIN((gint64)rt_time.secs * 1000000 + rt_time.nsecs / 1000, G_MAXINT));
    if (rt->resp->ora_error) {
        snprintf(name, sizeof(name), "ORA-%05u%s", rt->resp->ora_error,
                 rt->resp->ora_error == TTC_ERR_NO_DATA_FOUND ? " (no more rows)" : "");
        stats_tree_tick_pivot(st, stats_tree_parent_id_by_name(st, st_errors), name);
    }
    if (sqlnet_rt_partial(rt))
        stats_tree_tick_pivot(st, stats_tree_parent_id_by_name(st, st_partial),
                              sqlnet_rt_partial(rt) == TTC_PARTIAL_CUT ? "capture cut (snaplen)" : "message not decoded");
    return TAP_PACKET_REDRAW;
}

/* ---- service response time --------------------------------------------- */

#define SRT_ROWS 256

static void
srt_init(struct register_srt *srt _U_, GArray *srt_array)
{
    srt_stat_table *t = init_srt_table("SQL*Net", NULL, srt_array, SRT_ROWS, "Function",
                                       "sqlnet.call", NULL);
    int i;
    for (i = 0; i < SRT_ROWS; i++)
        init_srt_table_row(t, i, val_to_str_const(i, ttc_function_vals, "unknown"));
}

static tap_packet_status
srt_packet(void *pss, packet_info *pinfo, epan_dissect_t *edt _U_, const void *p, tap_flags_t flags _U_)
{
    srt_data_t *data = (srt_data_t *)pss;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)p;
    nstime_t abs_request = sqlnet_rt_abs_request(rt);
    srt_stat_table *t;

    if (!rt->resp->complete || !sqlnet_rt_request_frame(rt) ||
        (sqlnet_rt_kind(rt) != TTC_REQ_FUNCTION && sqlnet_rt_kind(rt) != TTC_REQ_FAST_AUTH))
        return TAP_PACKET_DONT_REDRAW;
    t = g_array_index(data->srt_array, srt_stat_table *, 0);
    add_srt_table_data(t, sqlnet_rt_func(rt), &abs_request, pinfo);
    return TAP_PACKET_REDRAW;
}

/* ---- wire AUTOTRACE: -z sqlnet,stmt is stmt.c's ------------------------ */

/* The one parameter of the -z reports' GUI dialogs (rt). */
static tap_param filter_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

/* ---- every round trip, every column (-z sqlnet,rt) ----------------------- */

typedef struct {
    GString *lines;            /* one per round trip, as taken */
    guint32 count;
    gboolean csv;
    char *filter;
} rt_report_t;

static void
rt_reset(void *tapdata)
{
    rt_report_t *r = (rt_report_t *)tapdata;
    g_string_truncate(r->lines, 0);
    r->count = 0;
}

static tap_packet_status
rt_packet(void *tapdata, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *p,
          tap_flags_t flags _U_)
{
    rt_report_t *r = (rt_report_t *)tapdata;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)p;
    gboolean first = TRUE;
    guint64 v;
    guint k;

    if (!rt->req)
        return TAP_PACKET_DONT_REDRAW;   /* no request: not a round trip (no sqlnet.rt) */
    for (k = 0; k < SQLNET_RT_NCOLUMNS; k++) {
        gboolean have = sqlnet_rt_column(rt, k, &v);
        if (r->csv) {
            if (k > 0)
                g_string_append_c(r->lines, ',');
            if (have)
                g_string_append_printf(r->lines, "%" G_GUINT64_FORMAT, v);
        } else if (have) {
            g_string_append_printf(r->lines, "%s%s=%" G_GUINT64_FORMAT, first ? "" : " ",
                                   sqlnet_rt_column_name(k), v);
            first = FALSE;
        }
    }
    g_string_append_c(r->lines, '\n');
    r->count++;
    return TAP_PACKET_REDRAW;
}

static void
rt_draw(void *tapdata)
{
    rt_report_t *r = (rt_report_t *)tapdata;
    guint k;

    if (r->csv) {
        for (k = 0; k < SQLNET_RT_NCOLUMNS; k++)
            printf("%s%s", k > 0 ? "," : "", sqlnet_rt_column_name(k));
        printf("\n%s", r->lines->str);
        return;
    }
    printf("\n================================================================================\n");
    printf("SQL*Net round trips: %u\n", r->count);
    if (r->filter)
        printf("Filter: %s\n", r->filter);
    printf("================================================================================\n");
    printf("%s", r->lines->str);
    printf("================================================================================\n");
}

static void
rt_finish(void *tapdata)
{
    rt_report_t *r = (rt_report_t *)tapdata;
    g_string_free(r->lines, TRUE);
    g_free(r->filter);
    g_free(r);
}

/* "sqlnet,rt[,format=text|csv][,filter]" */
static sqlnet_tap_init_result_t
rt_init(const char *opt_arg, void *userdata _U_)
{
    const char *filter, *name;
    gsize len;
    gboolean csv = FALSE;
    rt_report_t *r;
    GString *err;

    report_arg(opt_arg, "sqlnet,rt", &filter, &name, &len);
    if (name) {
        if (len == 3 && strncmp(name, "csv", 3) == 0) {
            csv = TRUE;
        } else if (!(len == 4 && strncmp(name, "text", 4) == 0)) {
            fprintf(stderr, "tshark: -z sqlnet,rt: unknown format \"%.*s\" (text or csv)\n", (int)len, name);
            SQLNET_TAP_INIT_RETURN(false);
        }
    }
    r = g_new0(rt_report_t, 1);
    r->lines = g_string_new(NULL);
    r->csv = csv;
    r->filter = g_strdup(filter);
    err = register_tap_listener(SQLNET_TAP_NAME, r, filter, TL_REQUIRES_NOTHING, rt_reset, rt_packet,
                                rt_draw, rt_finish);
    if (err) {
        fprintf(stderr, "tshark: couldn't register sqlnet,rt tap: %s\n", err->str);
        g_string_free(err, TRUE);
        rt_finish(r);
        SQLNET_TAP_INIT_RETURN(false);
    }
    SQLNET_TAP_INIT_RETURN(true);
}

static stat_tap_ui rt_ui = {
    REGISTER_STAT_GROUP_GENERIC,
    "SQL*Net round trips",
    "sqlnet,rt",
    rt_init,
    G_N_ELEMENTS(filter_params),
    filter_params
};

/* ---- registration ------------------------------------------------------- */

void
stats_register(int proto)
{
    register_srt_table(proto, SQLNET_TAP_NAME, 1, srt_packet, srt_init, NULL);
}

void
stats_register_taps(void)
{
    /* Statistics > SQL*Net Overview, window "SQL*Net Overview": Wireshark puts
     * the Lua reports (SQL*Net Advisor, Array sizes, Statements) flat in the
     * Statistics menu, a stats tree of a plugin flat at its end, so the names
     * make them one family; a "SQL*Net/Overview" submenu would hold this one
     * item and title its window "Overview". */
    est_trees = g_hash_table_new(g_direct_hash, g_direct_equal);
    stats_tree_register_plugin(SQLNET_TAP_NAME, "sqlnet", "SQL*Net Overview", 0,
                               tree_packet, tree_init, tree_cleanup);
    stmt_register_taps();
    register_stat_tap_ui(&rt_ui, NULL);
}
