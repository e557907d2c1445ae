/* stmt_table.c - Statistics > SQL*Net Statements: the statements as a table
 * in Wireshark's own table window (stat_tap_table_ui).
 *
 * Wireshark draws a registered stat_tap_table_ui in its "simple statistics"
 * window (ui/qt/simple_statistics_dialog.cpp, the same on 4.0, 4.4 and 4.6):
 * a header click sorts by that column (numbers as numbers), Copy and
 * "Save as..." write the rows as text, CSV, YAML or XML, a display filter
 * field retaps.  tshark prints the same table for -z sqlnet,stmt_table.  The
 * columns and values are those of -z sqlnet,stmt,format=csv: each cell is
 * account.c's account_stmt_value() for the statement (the one computation
 * behind the CSV, JSON and text), its numbers typed so that they sort:
 *   account_stmt_column_is_text()          text
 *   *_ms                                   a number with three decimals (the
 *                                          CSV's text read back: the same value)
 *   the rest                               an unsigned count (clamped at
 *                                          4294967295, Wireshark's integer)
 * A value the CSV leaves empty (a time the capture cannot tell) is an empty
 * cell; the row of the calls outside a statement has number 0 (the CSV
 * leaves it empty).  docs/reports.md says what the window offers and what it
 * does not (no filter per row: the first_frame and last_frame columns bound
 * the statement's frames).
 *
 * When: the packet callback only hands each round trip to the account; the
 * rows are written when the dissection ends (stmt_table_dissect_cleanup,
 * an epan plugin step plugin.c registers: the end of a retap, of tshark's
 * pass), because the account's pauses, array sizes and numbering need every
 * record and Wireshark draws the table right after the last packet without
 * calling the plugin again.  Writing them after each record instead would
 * cost the whole account per record.
 *
 * State: the table's lifecycle is native_table.c's (shared with the
 * conversation table); the statement accounting behind its rows is the
 * table's state, created with the table and reset with it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>

#include "sqlnet.h"
#include "sqlnet_rt.h"
#include "account.h"
#include "native_table.h"
#include "stmt_table.h"

#define STMT_TABLE_TITLE "SQL*Net Statements"

/* The table's state. */
typedef struct {
    sqlnet_account_t *acc;    /* account.c's statement accounting */
    gboolean dirty;           /* records added since the rows were written */
} stmt_state_t;

static gboolean
column_is_ms(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, "_ms");
}

/* A ratio with one decimal, as the CSV prints it (rows_per_execution). */
static gboolean
column_is_ratio(const char *name)
{
    size_t n = strlen(name);
    return n > 14 && !strcmp(name + n - 14, "_per_execution");
}

/* The window's columns: first what a network engineer reads at a glance
 * at 1,366 px (the statement, its cost in time, round trips and rows, the
 * chatty-application pattern columns of issue 36, where the time went),
 * with short headers; then the other CSV columns in the CSV's order, under
 * the CSV's names.  tshark -z sqlnet,stmt_table prints the same table. */
static const struct {
    const char *csv, *shown;
} lead_columns[] = {
    { "statement", "stmt" }, { "sql", "sql" }, { "elapsed_ms", "elapsed ms" },
    { "round_trips", "round trips" }, { "rows", "rows" }, { "executions", "execs" },
    { "rows_per_execution", "rows/exec" }, { "parses", "parses" }, { "commits", "commits" },
    { "pattern", "pattern" }, { "pattern_calls", "pattern calls" },
    { "pattern_saved_round_trips", "saved rts" }, { "pattern_saved_ms", "saved ms" },
    { "array_size", "array size" }, { "network_ms", "network ms" }, { "server_ms", "server ms" },
    { "client_ms", "client ms" }, { "wait_ms", "wait ms" },
};

/* The SQL text in the window: its first characters (the CSV and the
 * sql_id column have it whole). */
#define SQL_SHOWN 60

/* Built at registration, read-only after: the window's column i is the
 * CSV's column order[i], headed names[i]. */
typedef struct {
    guint *order;
    const char **names;
    guint n;
} stmt_columns_t;

static stmt_columns_t columns;

static guint
csv_index(const char *name)
{
    guint c;

    for (c = 0; c < account_stmt_ncolumns(); c++)
        if (!strcmp(account_stmt_column(c), name))
            return c;
    return G_MAXUINT;
}

static void
columns_build(void)
{
    guint n = account_stmt_ncolumns(), i, c, k = 0;
    gboolean *used = g_new0(gboolean, n);

    columns.order = g_new0(guint, n);
    columns.names = g_new0(const char *, n);
    for (i = 0; i < G_N_ELEMENTS(lead_columns); i++) {
        c = csv_index(lead_columns[i].csv);
        if (c == G_MAXUINT || used[c])
            continue;
        used[c] = TRUE;
        columns.order[k] = c;
        columns.names[k++] = lead_columns[i].shown;
    }
    for (c = 0; c < n; c++) {
        if (used[c])
            continue;
        columns.order[k] = c;
        columns.names[k++] = account_stmt_column(c);
    }
    columns.n = k;
    g_free(used);
}

static const char *
column_name(guint col)
{
    return col < columns.n ? columns.names[col] : "";
}

static sqlnet_table_kind_t
column_kind(guint col)
{
    guint c = col < columns.n ? columns.order[col] : 0;
    const char *name = account_stmt_column(c);

    return account_stmt_column_is_text(c) ? SQLNET_TABLE_TEXT : column_is_ms(name) ? SQLNET_TABLE_MS
         : column_is_ratio(name) ? SQLNET_TABLE_RATIO : SQLNET_TABLE_COUNT;
}

static void *
state_new(sqlnet_table_t *t _U_)
{
    stmt_state_t *st = g_new0(stmt_state_t, 1);
    st->acc = account_new();
    return st;
}

static void
state_free(void *p)
{
    stmt_state_t *st = (stmt_state_t *)p;
    account_free(st->acc);
    g_free(st);
}

static void
state_reset(sqlnet_table_t *t)
{
    stmt_state_t *st = (stmt_state_t *)t->state;
    account_reset(st->acc);
    st->dirty = FALSE;
}

static void
record(sqlnet_table_t *t, packet_info *pinfo _U_, const sqlnet_rt_t *rt)
{
    stmt_state_t *st = (stmt_state_t *)t->state;
    account_add(st->acc, rt);
    st->dirty = TRUE;
}

static char *
stmt_value(const void *obj, guint col)
{
    guint c = col < columns.n ? columns.order[col] : 0;
    char *v = account_stmt_value((const sqlnet_acct_stmt_t *)obj, c);

    if (v && !strcmp(account_stmt_column(c), "sql") && g_utf8_validate(v, -1, NULL) &&
        g_utf8_strlen(v, -1) > SQL_SHOWN) {
        char *cut = g_strdup_printf("%.*s...", (int)(g_utf8_offset_to_pointer(v, SQL_SHOWN) - v), v);
        g_free(v);
        v = cut;
    }
    return v;
}

/* The rows written again from the account: row i is the i-th statement in
 * number order (the calls outside a statement, number 0, first when there
 * are any), every cell account_stmt_value()'s text, typed.  At the end of a
 * dissection, when records came since (see the top). */
static void
dissect_end(sqlnet_table_t *t)
{
    stmt_state_t *st = (stmt_state_t *)t->state;
    const GPtrArray *stmts;
    guint i;

    if (!st->dirty || !t->table)
        return;
    stmts = account_statements(st->acc);
    while (sqlnet_table_rows(t) < stmts->len)
        sqlnet_table_add_row(t);
    for (i = 0; i < stmts->len; i++) {
        const sqlnet_acct_stmt_t *s = (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i);
        sqlnet_table_write_row(t, i, stmt_value, s);
        if (s->number == 0) {
            stat_tap_table_item_type *cell = stat_tap_get_field_data(t->table, i, 0);
            cell->type = TABLE_ITEM_UINT;    /* the calls outside a statement: number 0 */
            cell->value.uint_value = 0;
        }
    }
    st->dirty = FALSE;
}

static const sqlnet_table_ops_t stmt_ops = {
    .state_new = state_new,
    .state_free = state_free,
    .state_reset = state_reset,
    .record = record,
    .dissect_end = dissect_end,
};

/* Wireshark's registration and, in it, the table's state. */
static sqlnet_table_t stmt_table;

void
stmt_table_register(void)
{
    columns_build();
    sqlnet_table_register(&stmt_table, STMT_TABLE_TITLE, "sqlnet,stmt_table", columns.n, column_name,
                          column_kind, &stmt_ops);
}
