/* stats.c - statistics over the "sqlnet" tap (one record per round trip).
 *
 *   -z sqlnet,tree[,filter]   Statistics > SQL*Net Overview: distributions of rows
 *                             requested per call (array size), rows per round
 *                             trip, TNS packets per response, TCP segments per
 *                             TNS packet, SDU fill, response time; calls by
 *                             function; ORA errors
 *   -z sqlnet,srt[,filter]    service response time per TTC function
 *   -z sqlnet,stmt[,format=csv|json][,filter]
 *                             wire AUTOTRACE: one block per statement (one
 *                             SQL text), numbered by its first call's frame,
 *                             the calls outside a statement first; or one
 *                             CSV/JSON record per statement, same numbers;
 *                             what it cannot read (TLS without the secrets,
 *                             native network encryption) said under the title
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
    if (rt->resp->data_packets > 0)
        tick_range_and_group(st, st_packets, (int)rt->resp->data_packets);
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

/* ---- wire AUTOTRACE ----------------------------------------------------- */

/* What a set of round trips cost on the wire: a statement's, or one of its
 * executions'. */
typedef struct {
    guint32 round_trips;
    guint64 rows;
    guint64 bytes_to_client, bytes_from_client;   /* TTC bytes (Oracle's definition) */
    guint64 packets_to_client, segments_to_client;
    double time_ms;                               /* of the complete responses */
    /* where the time went (timing.c), over the round trips whose parts are known */
    double net_ms, server_ms, transfer_ms, client_ms;
    guint32 timed, net_round_trips;
    double rtt_ms;                                /* the latest round trip's RTT */
    guint8 rtt_source, vantage;
} rt_totals_t;

static void
totals_add(rt_totals_t *t, const sqlnet_rt_t *rt, double ms)
{
    t->round_trips++;
    t->rows += rt->resp->rows;
    t->bytes_to_client += rt->resp->ttc_bytes;
    t->bytes_from_client += (rt->req ? rt->req->ttc_bytes : 0);
    t->packets_to_client += rt->resp->packets;
    t->segments_to_client += rt->segments;
    if (rt->resp->complete)
        t->time_ms += ms;
    if (rt->resp->timing.known) {
        t->timed++;
        t->net_ms += nstime_to_msec(&rt->resp->timing.network);
        t->server_ms += nstime_to_msec(&rt->resp->timing.server);
        t->transfer_ms += nstime_to_msec(&rt->resp->timing.transfer);
        t->client_ms += nstime_to_msec(&rt->resp->timing.client);
        if (rt->resp->timing.rtt_known) {
            t->rtt_ms = nstime_to_msec(&rt->resp->timing.rtt);
            t->rtt_source = rt->resp->timing.rtt_source;
            t->vantage = rt->resp->timing.vantage;
            if (!nstime_is_zero(&rt->resp->timing.network))
                t->net_round_trips++;
        }
    }
}

/* "1,501": thousands separated, as a DBA reads a count. */
static void
print_count(GString *out, guint64 n)
{
    char digits[24];
    int len, i;

    len = snprintf(digits, sizeof(digits), "%" G_GUINT64_FORMAT, n);
    for (i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            g_string_append_c(out, ',');
        g_string_append_c(out, digits[i]);
    }
}

/* Where a statement's time went: the parts, then one sentence. */
static void
print_breakdown(GString *out, const rt_totals_t *t)
{
    double elapsed = t->net_ms + t->server_ms + t->transfer_ms + t->client_ms;
    GString *s;

    if (!t->timed)
        return;
    g_string_append_printf(out, "  %-48s %12.3f\n", "time on the wire (ms)", elapsed);
    if (t->rtt_ms > 0.0)
        g_string_append_printf(out, "  %-48s %12.3f\n", "  network: round trips x RTT (ms)", t->net_ms);
    else
        g_string_append_printf(out, "  %-48s %12s\n", "  network: round trips x RTT (ms)", "unknown");
    g_string_append_printf(out, "  %-48s %12.3f\n", "  server: call to first byte of answer (ms)", t->server_ms);
    g_string_append_printf(out, "  %-48s %12.3f\n", "  transfer: first to last byte (ms)", t->transfer_ms);
    g_string_append_printf(out, "  %-48s %12.3f\n", "  client: between calls (ms)", t->client_ms);
    s = g_string_new("  Of ");
    g_string_append_printf(s, "%.3f ms, ", elapsed);
    if (t->rtt_ms > 0.0) {
        g_string_append_printf(s, "%.3f ms is ", t->net_ms);
        print_count(s, t->net_round_trips);
        g_string_append_printf(s, " network round trip%s of %.3f ms (RTT from %s, captured %s); ",
                               t->net_round_trips == 1 ? "" : "s", t->rtt_ms,
                               t->rtt_source == SQLNET_RTT_HANDSHAKE ? "the TCP handshake" : "ACK timing",
                               t->vantage == SQLNET_VANTAGE_UNKNOWN ? "at an unknown point"
                                   : val_to_str_const(t->vantage, sqlnet_vantage_vals, "?"));
    } else {
        g_string_append(s, "the network part is unknown (no RTT: no handshake and no ACKs); ");
    }
    g_string_append_printf(s, "the server %.3f ms, transfer %.3f ms, the client %.3f ms.",
                           t->server_ms, t->transfer_ms, t->client_ms);
    g_string_append_printf(out, "%s\n", s->str);
    g_string_free(s, TRUE);
}

typedef struct {
    guint32 conversation, execution;
    guint32 array_size;                  /* rows requested by its fetch calls */
    rt_totals_t t;
} exec_stats_t;

#define MAX_EXECS_SHOWN 1000

typedef struct {
    char *sql;                           /* NULL: the calls outside a statement */
    char sql_id[SQLNET_SQL_ID_LEN + 1];  /* Oracle's SQL_ID of the text, "" outside */
    guint32 number;                      /* 1, 2 ... by first_frame (set when drawn); 0 outside */
    guint32 seen;                        /* order of its first record, a tie-break */
    guint32 first_frame, last_frame;     /* first request frame, last response frame */
    GArray *execs;                       /* exec_stats_t, in order of appearance */
    guint32 executions, fetch_calls, more_data, incomplete;
    guint32 partial;                     /* round trips not decoded to their end */
    rt_totals_t t;
    guint64 tns_to_client, tns_from_client;             /* TNS packets, headers included */
    guint64 row_bytes;
    double time_max;                     /* ms */
    double client_gap_ms;                /* client time between round trips of one execution */
    GArray *array_sizes;                 /* distinct rows-requested values */
    GArray *errors;                      /* ora_count_t: ORA errors but 1403, first-seen order */
} stmt_stats_t;

#define MAX_ERRORS_SHOWN 16

typedef struct {
    guint32 code, count;
} ora_count_t;

/* The last round trip of a conversation: its execution and when its response ended. */
typedef struct {
    guint32 execution;
    nstime_t end;
} conv_last_t;

/* Round trips estimated from sizes (tls.c: TLS without the secrets; nne.c:
 * native network encryption): their own listener on the estimate tap,
 * printed as separate blocks, one per kind.  The same tap tells, once per
 * conversation, of TNS-over-TLS conversations not decrypted (tls.c), which
 * the report names at its top whether or not they are estimated. */
typedef struct {
    GHashTable *convs;                   /* conversation indexes seen */
    guint32 round_trips;
    guint64 records, bytes, tns_bytes, ttc_bytes, req_records, req_bytes;
    double time_ms, time_max;
} est_totals_t;

typedef struct {
    est_totals_t kind[2];                /* by sqlnet_est_kind_t */
    GHashTable *undecrypted;             /* TLS: conversation index + 1 -> server port */
    GHashTable *nne_undecoded;           /* native network encryption: the same */
} stmt_est_t;

typedef enum {
    STMT_TEXT,
    STMT_CSV,
    STMT_JSON
} stmt_format_t;

typedef struct {
    char *filter;
    stmt_format_t format;
    GHashTable *by_sql;                  /* sql -> stmt_stats_t */
    stmt_stats_t *outside;               /* the calls outside a statement, NULL before one */
    GPtrArray *order;                    /* first-seen order */
    GHashTable *last_by_conv;            /* conversation -> conv_last_t */
    stmt_est_t *est;                     /* its own listener (freed by est_finish); the report
                                          * is tshark's (-z), whose listeners all end together */
} stmt_report_t;

static void
est_reset(void *tapdata)
{
    stmt_est_t *e = (stmt_est_t *)tapdata;
    guint k;

    for (k = 0; k < G_N_ELEMENTS(e->kind); k++) {
        GHashTable *convs = e->kind[k].convs;
        g_hash_table_remove_all(convs);
        memset(&e->kind[k], 0, sizeof(e->kind[k]));
        e->kind[k].convs = convs;
    }
    g_hash_table_remove_all(e->undecrypted);
    g_hash_table_remove_all(e->nne_undecoded);
}

static tap_packet_status
est_packet(void *tapdata, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *p,
           tap_flags_t flags _U_)
{
    stmt_est_t *s = (stmt_est_t *)tapdata;
    const sqlnet_est_rec_t *rec = (const sqlnet_est_rec_t *)p;
    est_totals_t *e;
    double ms = nstime_to_msec(&rec->resp_time);

    if (rec->kind == SQLNET_EST_TLS_UNDECRYPTED || rec->kind == SQLNET_EST_NNE_UNDECODED) {
        g_hash_table_insert(rec->kind == SQLNET_EST_TLS_UNDECRYPTED ? s->undecrypted : s->nne_undecoded,
                            GUINT_TO_POINTER(rec->conversation + 1), GUINT_TO_POINTER((guint)rec->port));
        return TAP_PACKET_REDRAW;
    }
    if (rec->kind >= G_N_ELEMENTS(s->kind))
        return TAP_PACKET_DONT_REDRAW;
    e = &s->kind[rec->kind];
    g_hash_table_add(e->convs, GUINT_TO_POINTER(rec->conversation + 1));
    e->round_trips++;
    e->records += rec->records;
    e->bytes += rec->bytes;
    e->tns_bytes += rec->tns_bytes;
    e->ttc_bytes += rec->ttc_bytes;
    e->req_records += rec->req_records;
    e->req_bytes += rec->req_bytes;
    e->time_ms += ms;
    if (ms > e->time_max)
        e->time_max = ms;
    return TAP_PACKET_REDRAW;
}

static void
est_finish(void *tapdata)
{
    stmt_est_t *e = (stmt_est_t *)tapdata;
    guint k;

    for (k = 0; k < G_N_ELEMENTS(e->kind); k++)
        g_hash_table_destroy(e->kind[k].convs);
    g_hash_table_destroy(e->undecrypted);
    g_hash_table_destroy(e->nne_undecoded);
    g_free(e);
}

/* The server ports of the conversations in a notice table, NULL if none. */
static GArray *
est_ports(GHashTable *table)
{
    GHashTableIter it;
    gpointer value;
    GArray *ports;

    if (!table || g_hash_table_size(table) == 0)
        return NULL;
    ports = g_array_new(FALSE, FALSE, sizeof(guint16));
    g_hash_table_iter_init(&it, table);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        guint16 port = (guint16)GPOINTER_TO_UINT(value);
        g_array_append_val(ports, port);
    }
    return ports;
}

/* What the reports cannot read, one kind per row: the sentence each prints
 * ("1 TNS-over-TLS conversation not decrypted (port 2484): give ...") is the
 * count and the sorted distinct ports, then the kind's advice, which depends
 * on whether its estimate is on. */
typedef struct {
    const char *json_kind;
    const char *what;              /* "TNS-over-TLS conversation", with "s" for more */
    const char *verb;              /* after the noun: " not decrypted" */
    gboolean (*estimate_on)(void);
    const char *advice_est_one, *advice_est_many;   /* with the estimate on */
    const char *advice_off;                         /* with it off */
} not_read_kind_t;

static const not_read_kind_t not_read_kinds[] = {
    { "tls_undecrypted", "TNS-over-TLS conversation", " not decrypted", sqlnet_tls_estimate_enabled,
      ", estimated below: to decode it, give Wireshark the TLS key log (tls.keylog_file), see "
      "docs/fields.md#sqlnet-over-tls",
      ", estimated below: to decode them, give Wireshark the TLS key log (tls.keylog_file), see "
      "docs/fields.md#sqlnet-over-tls",
      ": give Wireshark the TLS key log (tls.keylog_file), see docs/fields.md#sqlnet-over-tls, or turn on "
      "sqlnet.tls_estimate (-o sqlnet.tls_estimate:TRUE)" },
    { "nne_undecoded", "conversation", " with native network encryption not decoded", nne_estimate_enabled,
      ", estimated below: sqlnet cannot decrypt Oracle's native network encryption",
      ", estimated below: sqlnet cannot decrypt Oracle's native network encryption",
      ": sqlnet cannot decrypt Oracle's native network encryption; turn on sqlnet.nne_estimate "
      "(-o sqlnet.nne_estimate:TRUE) to estimate its round trips" },
};

/* The ports of one kind's notice table (kind: index in not_read_kinds). */
static GArray *
not_read_ports(const stmt_est_t *s, guint kind)
{
    if (!s)
        return NULL;
    return est_ports(kind == 0 ? s->undecrypted : s->nne_undecoded);
}

static gint
cmp_u16(gconstpointer a, gconstpointer b)
{
    guint16 x = *(const guint16 *)a, y = *(const guint16 *)b;
    return x < y ? -1 : x > y;
}

/* The sentence of one kind about `ports` (sorted here); g_free() it. */
static char *
not_read_text(guint kind, GArray *ports)
{
    const not_read_kind_t *k = &not_read_kinds[kind];
    GString *s = g_string_new("");
    guint i, distinct = 0;

    g_array_sort(ports, cmp_u16);
    for (i = 0; i < ports->len; i++)
        if (i == 0 || g_array_index(ports, guint16, i) != g_array_index(ports, guint16, i - 1))
            distinct++;
    g_string_append_printf(s, "%u %s%s%s (port%s", ports->len, k->what, ports->len == 1 ? "" : "s", k->verb,
                           distinct == 1 ? "" : "s");
    for (i = 0; i < ports->len; i++)
        if (i == 0 || g_array_index(ports, guint16, i) != g_array_index(ports, guint16, i - 1))
            g_string_append_printf(s, "%s%u", i ? ", " : " ", g_array_index(ports, guint16, i));
    g_string_append_c(s, ')');
    if (!k->estimate_on())
        g_string_append(s, k->advice_off);
    else
        g_string_append(s, ports->len == 1 ? k->advice_est_one : k->advice_est_many);
    return g_string_free(s, FALSE);
}

/* Each kind the report could not read: fputs "<prefix><sentence>\n" to `f`. */
static void
not_read_append(GString *out, const char *prefix, const stmt_est_t *est)
{
    guint k;

    for (k = 0; k < G_N_ELEMENTS(not_read_kinds); k++) {
        GArray *ports = not_read_ports(est, k);
        if (ports) {
            char *text = not_read_text(k, ports);
            g_string_append_printf(out, "%s%s\n", prefix, text);
            g_free(text);
            g_array_free(ports, TRUE);
        }
    }
}

static void
print_not_read(FILE *f, const char *prefix, const stmt_est_t *est)
{
    GString *out = g_string_new("");
    not_read_append(out, prefix, est);
    fputs(out->str, f);
    g_string_free(out, TRUE);
}

static void
est_draw_times(GString *out, const est_totals_t *e)
{
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time sum (ms)", e->time_ms);
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time avg (ms)", e->time_ms / e->round_trips);
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time max (ms)", e->time_max);
}

/* The block of one kind of estimate: its title and the names of its units
 * (TLS records or TNS packets) and of the inner bytes it estimates. */
typedef struct {
    const char *title, *convs, *to_units, *to_bytes, *to_inner, *from_units, *from_bytes;
    gboolean inner_is_tns;              /* TLS: TNS bytes inside the records; NNE: TTC bytes */
    const char *key;                    /* its "kind" in JSON */
} est_labels_t;

static const est_labels_t est_labels[] = {
    [SQLNET_EST_TLS] = { "Encrypted conversations (estimated from TLS record sizes, not decoded)",
                         "TLS conversations on a TLS port", "TLS records to client",
                         "TLS record bytes to client", "TNS bytes to client (estimated)",
                         "TLS records from client", "TLS record bytes from client", TRUE, "tls" },
    [SQLNET_EST_NNE] = { "Encrypted conversations (native network encryption, estimated from TNS packet "
                         "sizes, not decoded)",
                         "conversations with native network encryption", "TNS packets to client",
                         "TNS bytes to client", "TTC bytes to client (estimated)",
                         "TNS packets from client", "TNS bytes from client", FALSE, "nne" },
};

/* one label per estimate kind: the loops below walk both arrays with one index */
G_STATIC_ASSERT(G_N_ELEMENTS(est_labels) == G_N_ELEMENTS(((stmt_est_t *)NULL)->kind));

static void
est_draw(GString *out, const stmt_est_t *s)
{
    guint k;

    if (!s)
        return;
    for (k = 0; k < G_N_ELEMENTS(est_labels); k++) {
        const est_labels_t *l = &est_labels[k];
        const est_totals_t *e = &s->kind[k];

        if (!l->title || e->round_trips == 0)
            continue;
        g_string_append_printf(out, "\n%s\n", l->title);
        g_string_append_printf(out, "  %-48s %12u\n", l->convs, g_hash_table_size(e->convs));
        g_string_append_printf(out, "  %-48s %12u\n", "round trips (estimated)", e->round_trips);
        g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", l->to_units, e->records);
        g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", l->to_bytes, e->bytes);
        g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", l->to_inner, l->inner_is_tns ? e->tns_bytes : e->ttc_bytes);
        g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", l->from_units, e->req_records);
        g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", l->from_bytes, e->req_bytes);
        est_draw_times(out, e);
    }
}

static stmt_stats_t *
stmt_new(const char *sql)
{
    stmt_stats_t *s = g_new0(stmt_stats_t, 1);

    if (sql) {
        s->sql = g_strdup(sql);
        sqlnet_sql_id(sql, strlen(sql), s->sql_id);
    }
    s->array_sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
    s->errors = g_array_new(FALSE, FALSE, sizeof(ora_count_t));
    s->execs = g_array_new(FALSE, TRUE, sizeof(exec_stats_t));
    return s;
}

static void
stmt_free(gpointer p)
{
    stmt_stats_t *s = (stmt_stats_t *)p;
    g_free(s->sql);
    g_array_free(s->array_sizes, TRUE);
    g_array_free(s->errors, TRUE);
    g_array_free(s->execs, TRUE);
    g_free(s);
}

static void
stmt_reset(void *tapdata)
{
    stmt_report_t *r = (stmt_report_t *)tapdata;
    g_ptr_array_set_size(r->order, 0);
    g_hash_table_remove_all(r->by_sql);
    if (r->outside)
        stmt_free(r->outside);
    r->outside = NULL;
    g_hash_table_remove_all(r->last_by_conv);
}

static tap_packet_status
stmt_packet(void *tapdata, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *p,
            tap_flags_t flags _U_)
{
    stmt_report_t *r = (stmt_report_t *)tapdata;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)p;
    nstime_t rt_time = sqlnet_rt_time(rt), abs_request = sqlnet_rt_abs_request(rt);
    stmt_stats_t *s = sqlnet_rt_sql(rt) ? (stmt_stats_t *)g_hash_table_lookup(r->by_sql, sqlnet_rt_sql(rt)) : r->outside;
    double ms = nstime_to_msec(&rt_time);
    guint32 first = sqlnet_rt_request_frame(rt) ? sqlnet_rt_request_frame(rt) : rt->resp->last_frame;
    guint i;

    if (!s) {
        s = stmt_new(sqlnet_rt_sql(rt));
        s->seen = r->order->len + (r->outside ? 1 : 0);
        s->first_frame = first;
        if (sqlnet_rt_sql(rt)) {
            g_hash_table_insert(r->by_sql, s->sql, s);
            g_ptr_array_add(r->order, s);
        } else {
            r->outside = s;
        }
    }
    if (first && (first < s->first_frame || !s->first_frame))
        s->first_frame = first;
    if (rt->resp->last_frame > s->last_frame)
        s->last_frame = rt->resp->last_frame;
    totals_add(&s->t, rt, ms);
    if (sqlnet_rt_executes(rt))
        s->executions++;
    if (sqlnet_rt_func(rt) == TTC_FN_FETCH)
        s->fetch_calls++;
    s->tns_to_client += rt->resp->bytes;
    s->tns_from_client += (rt->req ? rt->req->tns_bytes : 0);
    s->row_bytes += rt->resp->row_bytes;
    if (rt->resp->data_packets > 1)
        s->more_data++;
    if (!rt->resp->complete)
        s->incomplete++;
    if (sqlnet_rt_partial(rt))
        s->partial++;
    if (rt->resp->complete && ms > s->time_max)
        s->time_max = ms;
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
    /* The client's time between two round trips of the same execution (the
     * advisor's observed elapsed time includes it, the response time does not). */
    if (rt->resp->complete) {
        conv_last_t *last = (conv_last_t *)g_hash_table_lookup(r->last_by_conv, GUINT_TO_POINTER(rt->conversation));
        if (last && sqlnet_rt_execution(rt) && last->execution == sqlnet_rt_execution(rt) &&
            nstime_cmp(&abs_request, &last->end) > 0) {
            nstime_t gap;
            nstime_delta(&gap, &abs_request, &last->end);
            s->client_gap_ms += nstime_to_msec(&gap);
        }
        if (!last && g_hash_table_size(r->last_by_conv) < 65536) {
            last = g_new0(conv_last_t, 1);
            g_hash_table_insert(r->last_by_conv, GUINT_TO_POINTER(rt->conversation), last);
        }
        if (last) {
            last->execution = sqlnet_rt_execution(rt);
            nstime_sum(&last->end, &abs_request, &rt_time);
        }
    }
    if (sqlnet_rt_execution(rt)) {
        exec_stats_t *e = NULL;
        for (i = s->execs->len; i > 0; i--) {
            exec_stats_t *c = &g_array_index(s->execs, exec_stats_t, i - 1);
            if (c->execution == sqlnet_rt_execution(rt) && c->conversation == rt->conversation) {
                e = c;
                break;
            }
        }
        if (!e && s->execs->len < MAX_EXECS_SHOWN) {
            exec_stats_t fresh;
            memset(&fresh, 0, sizeof(fresh));
            fresh.conversation = rt->conversation;
            fresh.execution = sqlnet_rt_execution(rt);
            g_array_append_val(s->execs, fresh);
            e = &g_array_index(s->execs, exec_stats_t, s->execs->len - 1);
        }
        if (e) {
            totals_add(&e->t, rt, ms);
            if (sqlnet_rt_func(rt) == TTC_FN_FETCH && sqlnet_rt_fetch_rows(rt) > e->array_size)
                e->array_size = sqlnet_rt_fetch_rows(rt);
        }
    }
    if (sqlnet_rt_has_fetch_rows(rt) && sqlnet_rt_fetch_rows(rt) > 0) {
        guint32 fetch = sqlnet_rt_fetch_rows(rt);
        for (i = 0; i < s->array_sizes->len; i++)
            if (g_array_index(s->array_sizes, guint32, i) == fetch)
                break;
        if (i == s->array_sizes->len && s->array_sizes->len < 32)
            g_array_append_val(s->array_sizes, fetch);
    }
    return TAP_PACKET_REDRAW;
}

/* SQL on one line: whitespace runs (newlines, tabs) become one space. */
static char *
one_line(const char *sql)
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

static gint
cmp_u32(gconstpointer a, gconstpointer b)
{
    guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;
    return x < y ? -1 : x > y;
}

/* Statements in the order of the frame of their first call (CONTRACT.md:
 * one numbering for every report); a record that came earlier first on a tie. */
static gint
cmp_first_frame(gconstpointer a, gconstpointer b)
{
    const stmt_stats_t *x = *(const stmt_stats_t *const *)a, *y = *(const stmt_stats_t *const *)b;
    if (x->first_frame != y->first_frame)
        return x->first_frame < y->first_frame ? -1 : 1;
    return x->seen < y->seen ? -1 : x->seen > y->seen;
}

/* The statements numbered (s->number), in number order; the caller frees the array. */
static GPtrArray *
stmt_numbered(stmt_report_t *r)
{
    GPtrArray *v = g_ptr_array_sized_new(r->order->len);
    guint i;

    for (i = 0; i < r->order->len; i++)
        g_ptr_array_add(v, g_ptr_array_index(r->order, i));
    g_ptr_array_sort(v, cmp_first_frame);
    for (i = 0; i < v->len; i++)
        ((stmt_stats_t *)g_ptr_array_index(v, i))->number = i + 1;
    return v;
}

/* The figures every format shows, computed once. */
typedef struct {
    double time_avg, wire_ms;
    GString *sizes, *errors;           /* "2, 50"; "ORA-00942 x 1, ..." ("" if none) */
} stmt_derived_t;

static void
stmt_derive(stmt_stats_t *s, stmt_derived_t *d)
{
    guint j;

    d->time_avg = s->t.round_trips > s->incomplete ? s->t.time_ms / (s->t.round_trips - s->incomplete) : 0.0;
    d->wire_ms = s->t.net_ms + s->t.server_ms + s->t.transfer_ms + s->t.client_ms;
    d->sizes = g_string_new("");
    d->errors = g_string_new("");
    g_array_sort(s->array_sizes, cmp_u32);
    for (j = 0; j < s->array_sizes->len; j++)
        g_string_append_printf(d->sizes, "%s%u", j ? ", " : "", g_array_index(s->array_sizes, guint32, j));
    for (j = 0; j < s->errors->len; j++) {
        ora_count_t *oc = &g_array_index(s->errors, ora_count_t, j);
        g_string_append_printf(d->errors, "%sORA-%05u x %u", j ? ", " : "", oc->code, oc->count);
    }
}

static void
stmt_derived_free(stmt_derived_t *d)
{
    g_string_free(d->sizes, TRUE);
    g_string_free(d->errors, TRUE);
}

static void
stmt_draw_block(GString *out, stmt_stats_t *s)
{
    stmt_derived_t d;
    guint j;

    stmt_derive(s, &d);
    if (s->sql) {
        char *sql = one_line(s->sql);
        g_string_append_printf(out, "\nStatement %u: %s (sqlnet.rt.sql_id == \"%s\", frames %u-%u)\n", s->number, sql, s->sql_id,
               s->first_frame, s->last_frame);
        g_free(sql);
    } else {
        g_string_append_printf(out, "\nCalls outside a statement: logon, commit, ping ... (frames %u-%u)\n",
               s->first_frame, s->last_frame);
    }
    g_string_append_printf(out, "  %-48s %12u\n", "executions", s->executions);
    g_string_append_printf(out, "  %-48s %12u\n", "fetch calls", s->fetch_calls);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "rows processed", s->t.rows);
    g_string_append_printf(out, "  %-48s %12u\n", "SQL*Net roundtrips to/from client", s->t.round_trips);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "bytes sent via SQL*Net to client", s->t.bytes_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "bytes received via SQL*Net from client", s->t.bytes_from_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS bytes to client (TCP payload)", s->tns_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS bytes from client (TCP payload)", s->tns_from_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "row data bytes to client", s->row_bytes);
    g_string_append_printf(out, "  %-48s %12.1f\n", "row data bytes per row", s->t.rows ? (double)s->row_bytes / s->t.rows : 0.0);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS packets to client", s->t.packets_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TCP segments to client", s->t.segments_to_client);
    g_string_append_printf(out, "  %-48s %12s\n", "array sizes seen (rows requested per call)", d.sizes->len ? d.sizes->str : "-");
    g_string_append_printf(out, "  %-48s %12.1f\n", "rows per round trip", s->t.round_trips ? (double)s->t.rows / s->t.round_trips : 0.0);
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time sum (ms)", s->t.time_ms);
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time avg (ms)", d.time_avg);
    g_string_append_printf(out, "  %-48s %12.3f\n", "response time max (ms)", s->time_max);
    g_string_append_printf(out, "  %-48s %12u\n", "responses larger than one SDU (\"more data\")", s->more_data);
    g_string_append_printf(out, "  %-48s %12s\n", "ORA errors (ORA-01403 end of fetch excluded)", d.errors->len ? d.errors->str : "-");
    if (s->client_gap_ms >= 0.0005)
        g_string_append_printf(out, "  note: -z sqlnet,advise's observed time adds %.3f ms of client time between the\n"
               "        round trips of an execution to this sum (about %.3f ms)\n",
               s->client_gap_ms, s->t.time_ms + s->client_gap_ms);
    if (s->partial)
        g_string_append_printf(out, "  %-48s %12u\n", "partial round trips (figures are lower bounds)", s->partial);
    print_breakdown(out, &s->t);
    if (s->execs->len > 0) {
        g_string_append_printf(out, "  per execution:\n");
        g_string_append_printf(out, "  %6s %10s %10s %11s %12s %10s %12s %12s\n", "exec", "array size", "rows",
               "round trips", "bytes to cl.", "packets", "segments", "time (ms)");
        for (j = 0; j < s->execs->len; j++) {
            exec_stats_t *e = &g_array_index(s->execs, exec_stats_t, j);
            g_string_append_printf(out, "  %6u %10u %10" G_GUINT64_FORMAT " %11u %12" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
                   " %12" G_GUINT64_FORMAT " %12.3f\n",
                   j + 1, e->array_size, e->t.rows, e->t.round_trips, e->t.bytes_to_client,
                   e->t.packets_to_client, e->t.segments_to_client, e->t.time_ms);
        }
    }
    stmt_derived_free(&d);
}

/* ---- CSV and JSON: one record per statement, the text's numbers --------- */

/* The columns, in order (CSV header, JSON member names). */
static const char *const stmt_columns[] = {
    "statement", "sql_id", "sql", "first_frame", "last_frame", "executions", "fetch_calls",
    "rows", "round_trips", "bytes_to_client", "bytes_from_client", "tns_bytes_to_client",
    "tns_bytes_from_client", "row_bytes_to_client", "packets_to_client", "segments_to_client",
    "array_sizes", "response_time_sum_ms", "response_time_avg_ms", "response_time_max_ms",
    "wire_time_ms", "network_ms", "server_ms", "transfer_ms", "client_ms", "rtt_ms",
    "more_data_responses", "partial_round_trips", "ora_errors"
};

/* RFC 4180: a field with a comma, quote or line break goes in quotes, its
 * quotes doubled. */
static void
csv_field(GString *out, const char *v)
{
    const char *p;

    if (!strpbrk(v, ",\"\r\n")) {
        g_string_append(out, v);
        return;
    }
    g_string_append_c(out, '"');
    for (p = v; *p; p++) {
        if (*p == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *p);
    }
    g_string_append_c(out, '"');
}

/* A JSON string (RFC 8259), from text made valid UTF-8. */
static void
json_string(GString *out, const char *v)
{
    char *valid = g_utf8_make_valid(v, -1);
    const unsigned char *p;

    g_string_append_c(out, '"');
    for (p = (const unsigned char *)valid; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(out, "\\%c", *p);
        else if (*p < 0x20)
            g_string_append_printf(out, "\\u%04x", *p);
        else
            g_string_append_c(out, (char)*p);
    }
    g_string_append_c(out, '"');
    g_free(valid);
}

/* One statement's values as text, in stmt_columns order: numbers as the text
 * report prints them; NULL for none (the outside block's number and SQL). */
static GPtrArray *
stmt_values(stmt_stats_t *s)
{
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
    stmt_derived_t d;
    gboolean timed = s->t.timed > 0;

    stmt_derive(s, &d);
    g_ptr_array_add(v, s->sql ? g_strdup_printf("%u", s->number) : NULL);
    g_ptr_array_add(v, s->sql ? g_strdup(s->sql_id) : NULL);
    g_ptr_array_add(v, s->sql ? one_line(s->sql) : NULL);
    g_ptr_array_add(v, g_strdup_printf("%u", s->first_frame));
    g_ptr_array_add(v, g_strdup_printf("%u", s->last_frame));
    g_ptr_array_add(v, g_strdup_printf("%u", s->executions));
    g_ptr_array_add(v, g_strdup_printf("%u", s->fetch_calls));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->t.rows));
    g_ptr_array_add(v, g_strdup_printf("%u", s->t.round_trips));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->t.bytes_to_client));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->t.bytes_from_client));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->tns_to_client));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->tns_from_client));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->row_bytes));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->t.packets_to_client));
    g_ptr_array_add(v, g_strdup_printf("%" G_GUINT64_FORMAT, s->t.segments_to_client));
    g_ptr_array_add(v, g_strdup(d.sizes->str));
    g_ptr_array_add(v, g_strdup_printf("%.3f", s->t.time_ms));
    g_ptr_array_add(v, g_strdup_printf("%.3f", d.time_avg));
    g_ptr_array_add(v, g_strdup_printf("%.3f", s->time_max));
    g_ptr_array_add(v, timed ? g_strdup_printf("%.3f", d.wire_ms) : NULL);
    g_ptr_array_add(v, timed && s->t.rtt_ms > 0.0 ? g_strdup_printf("%.3f", s->t.net_ms) : NULL);
    g_ptr_array_add(v, timed ? g_strdup_printf("%.3f", s->t.server_ms) : NULL);
    g_ptr_array_add(v, timed ? g_strdup_printf("%.3f", s->t.transfer_ms) : NULL);
    g_ptr_array_add(v, timed ? g_strdup_printf("%.3f", s->t.client_ms) : NULL);
    g_ptr_array_add(v, timed && s->t.rtt_ms > 0.0 ? g_strdup_printf("%.3f", s->t.rtt_ms) : NULL);
    g_ptr_array_add(v, g_strdup_printf("%u", s->more_data));
    g_ptr_array_add(v, g_strdup_printf("%u", s->partial));
    g_ptr_array_add(v, g_strdup(d.errors->str));
    stmt_derived_free(&d);
    return v;
}

/* Columns whose values are text in JSON (the rest are numbers). */
static gboolean
json_is_text(guint col)
{
    const char *name = stmt_columns[col];
    return !strcmp(name, "sql_id") || !strcmp(name, "sql") || !strcmp(name, "array_sizes") ||
           !strcmp(name, "ora_errors");
}

static void
stmt_draw_csv(stmt_report_t *r, GPtrArray *numbered)
{
    GString *out = g_string_new("");
    guint i, c;

    for (c = 0; c < G_N_ELEMENTS(stmt_columns); c++)
        g_string_append_printf(out, "%s%s", c ? "," : "", stmt_columns[c]);
    g_string_append(out, "\r\n");
    for (i = 0; i <= numbered->len; i++) {
        stmt_stats_t *s = i == 0 ? r->outside : (stmt_stats_t *)g_ptr_array_index(numbered, i - 1);
        GPtrArray *v;
        if (!s)
            continue;
        v = stmt_values(s);
        for (c = 0; c < v->len; c++) {
            const char *value = (const char *)g_ptr_array_index(v, c);
            if (c)
                g_string_append_c(out, ',');
            if (value)
                csv_field(out, value);
        }
        g_string_append(out, "\r\n");
        g_ptr_array_free(v, TRUE);
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
    /* what the CSV cannot hold goes to stderr, the CSV stays one table */
    print_not_read(stderr, "tshark: -z sqlnet,stmt: ", r->est);
}

static void
json_est(GString *out, const stmt_est_t *s)
{
    gboolean first = TRUE;
    guint k, i;

    g_string_append(out, "\"encrypted\": [");
    for (k = 0; k < G_N_ELEMENTS(not_read_kinds); k++) {
        GArray *ports = not_read_ports(s, k);
        char *text;
        if (!ports)
            continue;
        text = not_read_text(k, ports);    /* sorts the ports */
        g_string_append_printf(out, "%s\n  {\"kind\": \"%s\", \"conversations\": %u, \"ports\": [",
                               first ? "" : ",", not_read_kinds[k].json_kind, ports->len);
        for (i = 0; i < ports->len; i++)
            g_string_append_printf(out, "%s%u", i ? ", " : "", g_array_index(ports, guint16, i));
        g_string_append(out, "], \"note\": ");
        json_string(out, text);
        g_string_append(out, "}");
        g_free(text);
        g_array_free(ports, TRUE);
        first = FALSE;
    }
    for (k = 0; s && k < G_N_ELEMENTS(est_labels); k++) {
        const est_labels_t *l = &est_labels[k];
        const est_totals_t *e = &s->kind[k];
        if (e->round_trips == 0)
            continue;
        g_string_append_printf(out, "%s\n  {\"kind\": \"%s_estimate\", \"conversations\": %u, "
                               "\"round_trips\": %u, \"units_to_client\": %" G_GUINT64_FORMAT
                               ", \"bytes_to_client\": %" G_GUINT64_FORMAT ", \"%s\": %" G_GUINT64_FORMAT
                               ", \"units_from_client\": %" G_GUINT64_FORMAT
                               ", \"bytes_from_client\": %" G_GUINT64_FORMAT
                               ", \"response_time_sum_ms\": %.3f, \"response_time_avg_ms\": %.3f"
                               ", \"response_time_max_ms\": %.3f}",
                               first ? "" : ",", l->key, g_hash_table_size(e->convs), e->round_trips,
                               e->records, e->bytes,
                               l->inner_is_tns ? "tns_bytes_to_client" : "ttc_bytes_to_client",
                               l->inner_is_tns ? e->tns_bytes : e->ttc_bytes, e->req_records, e->req_bytes,
                               e->time_ms, e->time_ms / e->round_trips, e->time_max);
        first = FALSE;
    }
    g_string_append(out, first ? "]" : "\n]");
}

static void
stmt_draw_json(stmt_report_t *r, GPtrArray *numbered)
{
    GString *out = g_string_new("{\"report\": \"sqlnet,stmt\", \"filter\": ");
    gboolean first = TRUE;
    guint i, c;

    if (r->filter)
        json_string(out, r->filter);
    else
        g_string_append(out, "null");
    g_string_append(out, ",\n\"statements\": [");
    for (i = 0; i <= numbered->len; i++) {
        stmt_stats_t *s = i == 0 ? r->outside : (stmt_stats_t *)g_ptr_array_index(numbered, i - 1);
        GPtrArray *v;
        if (!s)
            continue;
        v = stmt_values(s);
        g_string_append(out, first ? "\n  {" : ",\n  {");
        first = FALSE;
        for (c = 0; c < v->len; c++) {
            const char *value = (const char *)g_ptr_array_index(v, c);
            g_string_append_printf(out, "%s\"%s\": ", c ? ", " : "", stmt_columns[c]);
            if (!value)
                g_string_append(out, "null");
            else if (json_is_text(c))
                json_string(out, value);
            else
                g_string_append(out, value);
        }
        g_string_append(out, "}");
        g_ptr_array_free(v, TRUE);
    }
    g_string_append(out, first ? "],\n" : "\n],\n");
    json_est(out, r->est);
    g_string_append(out, "}\n");
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
}

static void
stmt_text(stmt_report_t *r, GString *out)
{
    GPtrArray *numbered = stmt_numbered(r);
    guint i;

    g_string_append_printf(out, "\n================================================================================\n");
    g_string_append_printf(out, "SQL*Net statements (wire AUTOTRACE)%s%s\n", r->filter ? "  filter: " : "", r->filter ? r->filter : "");
    g_string_append_printf(out, "Oracle's definitions: a round trip is one client call and its response; bytes via\n"
           "SQL*Net are the TTC bytes (TNS DATA payload after the data flags, headers and markers\n"
           "excluded); TNS bytes include the headers (the TCP payload). Response time: the sum,\n"
           "over round trips, of last request packet to the packet that completes the response.\n");
    not_read_append(out, "Not read: ", r->est);
    g_string_append_printf(out, "================================================================================\n");
    if (r->outside)
        stmt_draw_block(out, r->outside);
    for (i = 0; i < numbered->len; i++)
        stmt_draw_block(out, (stmt_stats_t *)g_ptr_array_index(numbered, i));
    g_ptr_array_free(numbered, TRUE);
    est_draw(out, r->est);
    g_string_append_printf(out, "================================================================================\n");
}

static void
stmt_draw(void *tapdata)
{
    stmt_report_t *r = (stmt_report_t *)tapdata;
    GPtrArray *numbered;
    GString *out;

    if (r->format == STMT_CSV || r->format == STMT_JSON) {
        numbered = stmt_numbered(r);
        if (r->format == STMT_CSV)
            stmt_draw_csv(r, numbered);
        else
            stmt_draw_json(r, numbered);
        g_ptr_array_free(numbered, TRUE);
        return;
    }
    out = g_string_new("");
    stmt_text(r, out);
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
}

static void
stmt_finish(void *tapdata)
{
    stmt_report_t *r = (stmt_report_t *)tapdata;
    g_hash_table_destroy(r->by_sql);
    if (r->outside)
        stmt_free(r->outside);
    g_hash_table_destroy(r->last_by_conv);
    g_ptr_array_free(r->order, TRUE);
    g_free(r->filter);
    g_free(r);
}

/* The one parameter of the -z reports' GUI dialogs (stmt, rt). */
static tap_param filter_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

/* A -z argument "PREFIX[,format=NAME][,FILTER]": *filter (NULL: none) and
 * the format's name and length (*fmt NULL: none given). */
static void
report_arg(const char *opt_arg, const char *prefix, const char **filter, const char **fmt, gsize *fmt_len)
{
    gsize n = strlen(prefix);

    *filter = NULL;
    *fmt = NULL;
    *fmt_len = 0;
    if (strncmp(opt_arg, prefix, n) == 0 && opt_arg[n] == ',')
        *filter = opt_arg + n + 1;
    if (*filter && strncmp(*filter, "format=", 7) == 0) {
        const char *end = strchr(*filter + 7, ',');
        *fmt = *filter + 7;
        *fmt_len = end ? (gsize)(end - *fmt) : strlen(*fmt);
        *filter = end && end[1] ? end + 1 : NULL;
    }
}

/* A statement report on listeners of its own: the statements (with that
 * filter, NULL: all) and the estimates (TLS without the secrets, NNE) and
 * the conversations not decrypted, on their own tap with no filter (the
 * sqlnet fields it could be filtered on are not on those packets).  draw:
 * stmt_draw for tshark, NULL for a window that asks for the text.  NULL and
 * *err when the filter does not compile. */
static stmt_report_t *
stmt_open(const char *filter, stmt_format_t format, tap_draw_cb draw, GString **err)
{
    stmt_report_t *r = g_new0(stmt_report_t, 1);
    GString *e;

    r->filter = g_strdup(filter);
    r->format = format;
    r->by_sql = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, stmt_free);
    r->order = g_ptr_array_new();
    r->last_by_conv = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    *err = register_tap_listener(SQLNET_TAP_NAME, r, filter, TL_REQUIRES_NOTHING, stmt_reset,
                                 stmt_packet, draw, stmt_finish);
    if (*err) {
        stmt_finish(r);
        return NULL;
    }
    r->est = g_new0(stmt_est_t, 1);
    r->est->kind[SQLNET_EST_TLS].convs = g_hash_table_new(g_direct_hash, g_direct_equal);
    r->est->kind[SQLNET_EST_NNE].convs = g_hash_table_new(g_direct_hash, g_direct_equal);
    r->est->undecrypted = g_hash_table_new(g_direct_hash, g_direct_equal);
    r->est->nne_undecoded = g_hash_table_new(g_direct_hash, g_direct_equal);
    e = register_tap_listener(SQLNET_EST_TAP, r->est, NULL, TL_REQUIRES_NOTHING, est_reset,
                              est_packet, NULL, est_finish);
    if (e) {
        g_string_free(e, TRUE);
        est_finish(r->est);
        r->est = NULL;
    }
    return r;
}

/* "sqlnet,stmt[,format=text|csv|json][,filter]" */
static sqlnet_tap_init_result_t
stmt_init(const char *opt_arg, void *userdata _U_)
{
    const char *filter, *name;
    gsize len;
    stmt_format_t format = STMT_TEXT;
    GString *err;

    report_arg(opt_arg, "sqlnet,stmt", &filter, &name, &len);
    if (name) {
        if (len == 4 && strncmp(name, "text", 4) == 0) {
            format = STMT_TEXT;
        } else if (len == 3 && strncmp(name, "csv", 3) == 0) {
            format = STMT_CSV;
        } else if (len == 4 && strncmp(name, "json", 4) == 0) {
            format = STMT_JSON;
        } else {
            fprintf(stderr, "tshark: -z sqlnet,stmt: unknown format \"%.*s\" (text, csv or json)\n",
                    (int)len, name);
            SQLNET_TAP_INIT_RETURN(false);
        }
    }
    if (!stmt_open(filter, format, stmt_draw, &err)) {
        fprintf(stderr, "tshark: couldn't register sqlnet,stmt tap: %s\n", err->str);
        g_string_free(err, TRUE);
        SQLNET_TAP_INIT_RETURN(false);
    }
    SQLNET_TAP_INIT_RETURN(true);
}

static stat_tap_ui stmt_ui = {
    REGISTER_STAT_GROUP_GENERIC,
    "SQL*Net statements (wire AUTOTRACE)",
    "sqlnet,stmt",
    stmt_init,
    G_N_ELEMENTS(filter_params),
    filter_params
};

/* ---- the Lua window "SQL*Net Statements" --------------------------------- */

/* -z sqlnet,stmt's text report for a window (lua_records.c gives it to the
 * Lua window "SQL*Net Statements": the report exists once, here):
 *   STATS_STMT_OPEN   a report on listeners of its own (the statements and
 *                     the estimates, as -z sqlnet,stmt registers them, but
 *                     without a draw: a window asks for the text), with that
 *                     filter (NULL: all); returns it, or NULL and *err (the
 *                     caller frees it with g_free)
 *   STATS_STMT_TEXT   appends the report's text to text: what stmt_draw
 *                     prints for tshark (both from stmt_text)
 *   STATS_STMT_CLOSE  removes its listeners, which frees it
 * (one entry point with three steps: the report's state stays stats.c's) */
void *
stats_stmt_window(stats_stmt_op_t op, void *report, const char *filter, GString *text, char **err)
{
    stmt_report_t *r = (stmt_report_t *)report;
    GString *e;

    switch (op) {
    case STATS_STMT_OPEN:
        r = stmt_open(filter, STMT_TEXT, NULL, &e);
        if (!r) {
            if (err)
                *err = g_strdup(e->str);
            g_string_free(e, TRUE);
        }
        return r;
    case STATS_STMT_TEXT:
        if (!r || !text)
            return r;
        stmt_text(r, text);            /* what stmt_draw prints for tshark */
        return r;
    case STATS_STMT_CLOSE:
        if (r) {
            stmt_est_t *est = r->est;
            remove_tap_listener(r);          /* stmt_finish frees r */
            if (est)
                remove_tap_listener(est);    /* est_finish frees est */
        }
        return NULL;
    }
    return NULL;
}

/* ---- the statements of the GUI table (stmt_table.c) ---------------------- */

/* The accounting -z sqlnet,stmt draws, without listeners of its own: the
 * GUI table (stmt_table.c) feeds it the round trips its table's listener
 * hears and reads each statement's row back, as the CSV's values (one
 * computation, stmt_values, for both). */
void *
stats_stmt_acc_new(void)
{
    stmt_report_t *r = g_new0(stmt_report_t, 1);

    r->by_sql = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, stmt_free);
    r->order = g_ptr_array_new();
    r->last_by_conv = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return r;
}

void
stats_stmt_acc_reset(void *acc)
{
    stmt_reset(acc);
}

void
stats_stmt_acc_free(void *acc)
{
    stmt_finish(acc);
}

/* One round trip (the "sqlnet" tap's record) added; returns its statement
 * (the calls outside a statement: one of their own), NULL if it is none. */
void *
stats_stmt_acc_add(void *acc, packet_info *pinfo, const void *record)
{
    stmt_report_t *r = (stmt_report_t *)acc;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)record;

    if (!rt || !rt->resp)
        return NULL;
    stmt_packet(r, pinfo, NULL, rt, 0);
    return sqlnet_rt_sql(rt) ? g_hash_table_lookup(r->by_sql, sqlnet_rt_sql(rt)) : r->outside;
}

/* The columns of -z sqlnet,stmt,format=csv, in order. */
guint
stats_stmt_ncolumns(void)
{
    return G_N_ELEMENTS(stmt_columns);
}

const char *
stats_stmt_column(guint col)
{
    return col < G_N_ELEMENTS(stmt_columns) ? stmt_columns[col] : NULL;
}

/* Where a statement sorts (statements are numbered by their first call's
 * frame): its first frame; outside: TRUE for the calls outside a statement. */
guint32
stats_stmt_acc_first_frame(const void *stmt, gboolean *outside)
{
    const stmt_stats_t *s = (const stmt_stats_t *)stmt;

    if (outside)
        *outside = s->sql == NULL;
    return s->first_frame;
}

/* A statement's CSV values (stmt_values) as that numbered statement; the
 * caller frees the array. */
GPtrArray *
stats_stmt_acc_values(void *stmt, guint32 number)
{
    stmt_stats_t *s = (stmt_stats_t *)stmt;

    s->number = number;
    return stmt_values(s);
}

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
    register_stat_tap_ui(&stmt_ui, NULL);
    register_stat_tap_ui(&rt_ui, NULL);
}
