/* stmt.c - -z sqlnet,stmt: wire AUTOTRACE, one block per statement (one
 * SQL text), numbered by its first call's frame, the calls outside a
 * statement first; or one CSV/JSON record per statement with the same
 * numbers (JSON: each with its executions, "per_execution"); what it cannot read (TLS
 * without the secrets, native network encryption) said under the title.
 *
 * Every number is account.c's (the statement and execution accounting,
 * computed once): this file only lays them out.  The text for the Lua
 * window "SQL*Net Statements" and the accounts for records.accounts
 * (lua_records.c) come from the same report (stmt_window).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>

#include "sqlnet.h"
#include "ttc.h"
#include "metrics.h"
#include "timing.h"
#include "tls.h"
#include "nne.h"
#include "account.h"
#include "patterns.h"
#include "report_arg.h"
#include "stmt.h"

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
    sqlnet_account_t *account;           /* every number */
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

/* A line "  label   value" of a time (ms, 3 decimals, from account_ms). */
static void
line_ms(GString *out, const char *label, guint64 ns)
{
    char buf[32];
    account_ms(buf, sizeof(buf), ns);
    g_string_append_printf(out, "  %-48s %12s\n", label, buf);
}

/* Where a statement's time went: elapsed and its parts, idle apart, then one sentence. */
static void
print_breakdown(GString *out, const sqlnet_acct_sums_t *t)
{
    char e[32], n[32], rtt[32], s_[32], x[32], c[32], i[32];
    GString *s;

    if (!t->timed)
        return;
    account_ms(e, sizeof(e), t->elapsed_ns);
    account_ms(n, sizeof(n), t->network_ns);
    account_ms(rtt, sizeof(rtt), t->rtt_ns);
    account_ms(s_, sizeof(s_), t->server_ns);
    account_ms(x, sizeof(x), t->transfer_ns);
    account_ms(c, sizeof(c), t->client_ns);
    account_ms(i, sizeof(i), t->idle_ns);
    line_ms(out, "elapsed (ms)", t->elapsed_ns);
    if (t->rtt_ns)
        line_ms(out, "  network: round trips x RTT (ms)", t->network_ns);
    else
        g_string_append_printf(out, "  %-48s %12s\n", "  network: round trips x RTT (ms)", "unknown");
    line_ms(out, "  server: call to first byte of answer (ms)", t->server_ns);
    if (t->server_stalls)
        line_ms(out, "    of which server stalls (ms)", t->server_stall_ns);
    line_ms(out, "  transfer: first to last byte (ms)", t->transfer_ns);
    line_ms(out, "  client: between calls of an execution (ms)", t->client_ns);
    if (t->client_stalls)
        line_ms(out, "    of which client stalls (ms)", t->client_stall_ns);
    line_ms(out, "idle: before its executions, apart (ms)", t->idle_ns);
    line_ms(out, "wait: network + server + transfer (ms)", t->wait_ns);
    s = g_string_new("  Of ");
    g_string_append_printf(s, "%s ms elapsed, ", e);
    if (t->rtt_ns) {
        g_string_append_printf(s, "%s ms is ", n);
        print_count(s, t->net_round_trips);
        g_string_append_printf(s, " network round trip%s of %s ms (RTT from %s, captured %s); ",
                               t->net_round_trips == 1 ? "" : "s", rtt,
                               t->rtt_source == SQLNET_RTT_HANDSHAKE ? "the TCP handshake" : "ACK timing",
                               t->vantage == SQLNET_VANTAGE_UNKNOWN ? "at an unknown point"
                                   : val_to_str_const(t->vantage, sqlnet_vantage_vals, "?"));
    } else {
        g_string_append(s, "the network part is unknown (no RTT: no handshake and no ACKs); ");
    }
    g_string_append_printf(s, "the server %s ms, transfer %s ms, the client %s ms; idle %s ms apart.", s_, x, c, i);
    g_string_append_printf(out, "%s\n", s->str);
    g_string_free(s, TRUE);
}

/* A chatty application's pattern (patterns.h): only when there is one, so
 * that statements without one read as before. */
static void
print_pattern(GString *out, const sqlnet_acct_stmt_t *st)
{
    const sqlnet_acct_sums_t *s = &st->s;
    char saved[32];

    g_string_append_printf(out, "  %-48s %12s\n", "pattern (sqlnet.pattern)", pattern_name(st->pattern));
    g_string_append_printf(out, "  %-48s %12u\n", "calls in its runs", st->pattern_calls);
    g_string_append_printf(out, "  %-48s %12.1f\n", "rows per execution",
                           s->executions ? (double)s->rows / s->executions : 0.0);
    g_string_append_printf(out, "  %-48s %12u\n", "parses", s->parses);
    g_string_append_printf(out, "  %-48s %12u\n", "commits", s->commits);
    g_string_append_printf(out, "  %-48s %12u\n", "round trips beyond each run's first call",
                           st->pattern_s.round_trips);
    line_ms(out, "their network + server + client (ms)", account_pattern_saved_ns(st));
    account_ms(saved, sizeof(saved), account_pattern_saved_ns(st));
    g_string_append_printf(out, "  One call per run would save %u round trips and about %s ms (first run from "
                           "frame %u; -z sqlnet,advise names the fix).\n",
                           st->pattern_s.round_trips, saved, st->pattern_first_frame);
}

/* Parsed on every execution (reparse, account.h): only when it was, as the
 * pattern block.  No round trip to save: the SQL text not sent again. */
static void
print_reparse(GString *out, const sqlnet_acct_stmt_t *st)
{
    g_string_append_printf(out, "  %-48s %12u\n", "executions parsed each time (reparse)", st->reparses);
    g_string_append_printf(out, "  A statement cache would keep the cursor: %u runs of executions each with a parse "
                           "(first from frame %u), %" G_GUINT64_FORMAT " bytes of SQL text sent again.\n",
                           st->reparse_runs, st->reparse_first_frame, st->reparse_sql_bytes);
}

static void
stmt_draw_block(GString *out, const sqlnet_acct_stmt_t *st)
{
    const sqlnet_acct_sums_t *s = &st->s;
    guint32 answered = s->round_trips > s->incomplete ? s->round_trips - s->incomplete : 0;
    guint j;

    if (st->sql) {
        char *sql = account_one_line(st->sql);
        g_string_append_printf(out, "\nStatement %u: %s (sqlnet.rt.sql_id == \"%s\", frames %u-%u)\n", st->number, sql,
                               st->sql_id, st->first_frame, st->last_frame);
        g_free(sql);
    } else {
        g_string_append_printf(out, "\nCalls outside a statement: logon, commit, ping ... (frames %u-%u)\n",
                               st->first_frame, st->last_frame);
    }
    g_string_append_printf(out, "  %-48s %12u\n", "executions", s->executions);
    g_string_append_printf(out, "  %-48s %12u\n", "fetch calls", s->fetch_calls);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "rows processed", s->rows);
    g_string_append_printf(out, "  %-48s %12u\n", "SQL*Net roundtrips to/from client", s->round_trips);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "bytes sent via SQL*Net to client", s->bytes_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "bytes received via SQL*Net from client", s->bytes_from_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS bytes to client (TCP payload)", s->tns_bytes_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS bytes from client (TCP payload)", s->tns_bytes_from_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "row data bytes to client", s->row_bytes);
    g_string_append_printf(out, "  %-48s %12.1f\n", "row data bytes per row", s->rows ? (double)s->row_bytes / s->rows : 0.0);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TNS packets to client", s->packets_to_client);
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "TCP segments to client", s->segments_to_client);
    g_string_append_printf(out, "  %-48s %12s\n", "array size (rows asked per fetch)", st->array_size[0] ? st->array_size : "-");
    g_string_append_printf(out, "  %-48s %12" G_GUINT64_FORMAT "\n", "prefetch (rows the executes brought)", s->prefetch_rows);
    g_string_append_printf(out, "  %-48s %12.1f\n", "rows per round trip", s->round_trips ? (double)s->rows / s->round_trips : 0.0);
    line_ms(out, "response time sum (ms)", s->response_time_ns);
    line_ms(out, "response time avg (ms)", answered ? (s->response_time_ns + answered / 2) / answered : 0);
    line_ms(out, "response time max (ms)", s->response_time_max_ns);
    g_string_append_printf(out, "  %-48s %12u\n", "responses larger than one SDU (\"more data\")", s->more_data);
    g_string_append_printf(out, "  %-48s %12s\n", "ORA errors (ORA-01403 end of fetch excluded)", st->errors[0] ? st->errors : "-");
    if (s->partial)
        g_string_append_printf(out, "  %-48s %12u\n", "partial round trips (figures are lower bounds)", s->partial);
    print_breakdown(out, s);
    if (st->pattern)
        print_pattern(out, st);
    if (st->reparses)
        print_reparse(out, st);
    if (st->execs->len > 0) {
        g_string_append_printf(out, "  per execution:\n");
        g_string_append_printf(out, "  %6s %10s %8s %10s %11s %12s %8s %8s %12s %10s %10s %10s %10s %10s\n", "exec",
                               "array size", "prefetch", "rows", "round trips", "bytes to cl.", "packets", "segments",
                               "elapsed ms", "network", "server", "transfer", "client", "idle");
        for (j = 0; j < st->execs->len; j++) {
            const sqlnet_acct_exec_t *e = &g_array_index(st->execs, sqlnet_acct_exec_t, j);
            char el[32], ne[32], se[32], tr[32], cl[32], id[32], as[16];
            account_ms(el, sizeof(el), e->s.elapsed_ns);
            account_ms(ne, sizeof(ne), e->s.network_ns);
            account_ms(se, sizeof(se), e->s.server_ns);
            account_ms(tr, sizeof(tr), e->s.transfer_ns);
            account_ms(cl, sizeof(cl), e->s.client_ns);
            account_ms(id, sizeof(id), e->s.idle_ns);
            if (e->array_size)
                snprintf(as, sizeof(as), "%u", e->array_size);
            else
                g_strlcpy(as, "-", sizeof(as));
            g_string_append_printf(out, "  %6u %10s %8" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %11u %12" G_GUINT64_FORMAT
                                   " %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %12s %10s %10s %10s %10s %10s\n",
                                   j + 1, as, e->s.prefetch_rows, e->s.rows, e->s.round_trips, e->s.bytes_to_client,
                                   e->s.packets_to_client, e->s.segments_to_client, el, ne, se, tr, cl, id);
        }
    }
}

/* ---- CSV and JSON: one record per statement, the text's numbers --------- */

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

static void
stmt_draw_csv(stmt_report_t *r)
{
    const GPtrArray *stmts = account_statements(r->account);
    GString *out = g_string_new("");
    guint i, c, n = account_stmt_ncolumns();

    for (c = 0; c < n; c++)
        g_string_append_printf(out, "%s%s", c ? "," : "", account_stmt_column(c));
    g_string_append(out, "\r\n");
    for (i = 0; i < stmts->len; i++) {
        const sqlnet_acct_stmt_t *s = (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i);
        for (c = 0; c < n; c++) {
            char *value = account_stmt_value(s, c);
            if (c)
                g_string_append_c(out, ',');
            if (value)
                csv_field(out, value);
            g_free(value);
        }
        g_string_append(out, "\r\n");
    }
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
    /* what the CSV cannot hold goes to stderr, the CSV stays one table */
    print_not_read(stderr, "tshark: -z sqlnet,stmt: ", r->est);
}

/* "name": value of one column (null, a JSON string or a number). */
static void
json_member(GString *out, gboolean first, const char *name, char *value, gboolean text)
{
    g_string_append_printf(out, "%s\"%s\": ", first ? "" : ", ", name);
    if (!value)
        g_string_append(out, "null");
    else if (text)
        json_string(out, value);
    else
        g_string_append(out, value);
    g_free(value);
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
stmt_draw_json(stmt_report_t *r)
{
    const GPtrArray *stmts = account_statements(r->account);
    GString *out = g_string_new("{\"report\": \"sqlnet,stmt\", \"filter\": ");
    guint i, j, c;

    if (r->filter)
        json_string(out, r->filter);
    else
        g_string_append(out, "null");
    g_string_append(out, ",\n\"statements\": [");
    for (i = 0; i < stmts->len; i++) {
        const sqlnet_acct_stmt_t *s = (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i);
        g_string_append(out, i == 0 ? "\n  {" : ",\n  {");
        for (c = 0; c < account_stmt_ncolumns(); c++)
            json_member(out, c == 0, account_stmt_column(c), account_stmt_value(s, c), account_stmt_column_is_text(c));
        g_string_append(out, ", \"per_execution\": [");
        for (j = 0; j < s->execs->len; j++) {
            const sqlnet_acct_exec_t *e = &g_array_index(s->execs, sqlnet_acct_exec_t, j);
            g_string_append(out, j == 0 ? "\n    {" : ",\n    {");
            for (c = 0; c < account_exec_ncolumns(); c++)
                json_member(out, c == 0, account_exec_column(c), account_exec_value(s, e, c),
                            account_exec_column_is_text(c));
            g_string_append(out, "}");
        }
        g_string_append(out, s->execs->len ? "\n  ]}" : "]}");
    }
    g_string_append(out, stmts->len ? "\n],\n" : "],\n");
    json_est(out, r->est);
    g_string_append(out, "}\n");
    fputs(out->str, stdout);
    g_string_free(out, TRUE);
}

static void
stmt_text(stmt_report_t *r, GString *out)
{
    const GPtrArray *stmts = account_statements(r->account);
    guint i;

    g_string_append_printf(out, "\n================================================================================\n");
    g_string_append_printf(out, "SQL*Net statements (wire AUTOTRACE)%s%s\n", r->filter ? "  filter: " : "", r->filter ? r->filter : "");
    g_string_append_printf(out, "Oracle's definitions: a round trip is one client call and its response; bytes via\n"
           "SQL*Net are the TTC bytes (TNS DATA payload after the data flags, headers and markers\n"
           "excluded); TNS bytes include the headers (the TCP payload). Response time: the sum,\n"
           "over round trips, of last request packet to the packet that completes the response.\n"
           "Elapsed: network + server + transfer + client of its round trips, as the client lived\n"
           "it; idle time before its executions apart (docs/time.md).\n");
    not_read_append(out, "Not read: ", r->est);
    g_string_append_printf(out, "================================================================================\n");
    for (i = 0; i < stmts->len; i++)
        stmt_draw_block(out, (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i));
    est_draw(out, r->est);
    g_string_append_printf(out, "================================================================================\n");
}

static void
stmt_reset(void *tapdata)
{
    account_reset(((stmt_report_t *)tapdata)->account);
}

static tap_packet_status
stmt_packet(void *tapdata, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *p,
            tap_flags_t flags _U_)
{
    account_add(((stmt_report_t *)tapdata)->account, (const sqlnet_rt_t *)p);
    return TAP_PACKET_REDRAW;
}

static void
stmt_draw(void *tapdata)
{
    stmt_report_t *r = (stmt_report_t *)tapdata;
    GString *out;

    if (r->format == STMT_CSV) {
        stmt_draw_csv(r);
        return;
    }
    if (r->format == STMT_JSON) {
        stmt_draw_json(r);
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
    account_free(r->account);
    g_free(r->filter);
    g_free(r);
}

static tap_param filter_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

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
    r->account = account_new();
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

/* ---- the report for a window (lua_records.c) ----------------------------- */

void *
stmt_window_open(const char *filter, char **err)
{
    GString *e;
    stmt_report_t *r = stmt_open(filter, STMT_TEXT, NULL, &e);

    if (!r) {
        if (err)
            *err = g_strdup(e->str);
        g_string_free(e, TRUE);
    }
    return r;
}

void
stmt_window_text(void *report, GString *text)
{
    if (report && text)
        stmt_text((stmt_report_t *)report, text);   /* what stmt_draw prints for tshark */
}

sqlnet_account_t *
stmt_window_account(void *report)
{
    return report ? ((stmt_report_t *)report)->account : NULL;
}

void
stmt_window_close(void *report)
{
    stmt_report_t *r = (stmt_report_t *)report;
    stmt_est_t *est;

    if (!r)
        return;
    est = r->est;
    remove_tap_listener(r);            /* stmt_finish frees r */
    if (est)
        remove_tap_listener(est);      /* est_finish frees est */
}

void
stmt_register_taps(void)
{
    register_stat_tap_ui(&stmt_ui, NULL);
}
