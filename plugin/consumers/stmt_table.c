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
 * State: Wireshark keeps the table in the registration (stmt_table_ui.tables:
 * one table per registration, shared by every window that shows it and reset
 * by each window's retap); the statement accounting behind its rows is kept
 * beside it, one per registration, created with the table and reset with it.
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
#include "stmt_table.h"

#define STMT_TABLE_TITLE "SQL*Net Statements"

typedef struct {
    stat_tap_table *table;    /* the table this accounting fills (Wireshark's) */
    sqlnet_account_t *acc;    /* account.c's statement accounting */
    guint capacity;           /* rows allocated in table->elements (kept across resets) */
    gboolean dirty;           /* records added since the rows were written */
} stmt_table_state_t;

/* One per registration, as the table it fills (see the comment at the top). */
static stmt_table_state_t *table_state;

static stat_tap_table_item *table_fields;   /* the columns, built at registration */

static gboolean
column_is_text(guint col)
{
    return account_stmt_column_is_text(col);
}

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

/* A row's cells emptied: owned strings freed, every cell "no value". */
static void
row_clear(stat_tap_table_item_type *cells, guint n)
{
    guint c;

    for (c = 0; c < n; c++) {
        if (cells[c].type == TABLE_ITEM_STRING)
            g_free((char *)cells[c].value.string_value);
        memset(&cells[c], 0, sizeof(cells[c]));
        cells[c].type = TABLE_ITEM_NONE;
    }
}

static void
state_clear(stmt_table_state_t *st)
{
    guint r;

    if (st->table) {
        for (r = 0; r < st->table->num_elements; r++)
            row_clear(st->table->elements[r], st->table->num_fields);
        st->table->num_elements = 0;      /* the rows stay allocated: st->capacity */
    }
    account_reset(st->acc);
    st->dirty = FALSE;
}

static stmt_table_state_t *
state_new(stat_tap_table *table)
{
    stmt_table_state_t *st = g_new0(stmt_table_state_t, 1);

    st->table = table;
    st->acc = account_new();
    st->capacity = table->num_elements;
    return st;
}

static void
state_free(stmt_table_state_t *st)
{
    account_free(st->acc);
    g_free(st);
}

/* One cell from the CSV's text of that column. */
static void
cell_set(stat_tap_table_item_type *cell, guint col, const char *text)
{
    const char *name = account_stmt_column(col);

    if (cell->type == TABLE_ITEM_STRING)
        g_free((char *)cell->value.string_value);
    memset(cell, 0, sizeof(*cell));
    if (column_is_text(col)) {
        cell->type = TABLE_ITEM_STRING;
        cell->value.string_value = g_strdup(text ? text : "");
    } else if (!text || !*text) {
        cell->type = TABLE_ITEM_NONE;        /* shown empty, sorts first */
        if (column_is_ms(name))
            cell->value.float_value = -1.0;
    } else if (column_is_ms(name) || column_is_ratio(name)) {
        cell->type = TABLE_ITEM_FLOAT;
        cell->value.float_value = g_ascii_strtod(text, NULL);
    } else {
        guint64 v = g_ascii_strtoull(text, NULL, 10);
        cell->type = TABLE_ITEM_UINT;
        cell->value.uint_value = v > G_MAXUINT32 ? G_MAXUINT32 : (guint)v;
    }
}

/* A new row at the end of the table (rows allocated before are reused: a
 * window that shows the table may still point at them). */
static guint
row_add(stmt_table_state_t *st)
{
    stat_tap_table *t = st->table;
    guint row = t->num_elements;

    if (row < st->capacity) {
        t->num_elements = row + 1;
        row_clear(t->elements[row], t->num_fields);
    } else {
        stat_tap_table_item_type *blank = g_new0(stat_tap_table_item_type, t->num_fields);
        guint c;
        for (c = 0; c < t->num_fields; c++)
            blank[c].type = TABLE_ITEM_NONE;
        stat_tap_init_table_row(t, row, t->num_fields, blank);
        g_free(blank);
        st->capacity = t->num_elements;
    }
    return row;
}

/* The rows written again from the account: row i is the i-th statement in
 * number order (the calls outside a statement, number 0, first when there
 * are any), every cell account_stmt_value()'s text, typed. */
static void
rows_refresh(stmt_table_state_t *st)
{
    const GPtrArray *stmts = account_statements(st->acc);
    guint i, c, ncols = MIN(account_stmt_ncolumns(), st->table->num_fields);

    while (st->table->num_elements < stmts->len)
        row_add(st);
    for (i = 0; i < stmts->len; i++) {
        const sqlnet_acct_stmt_t *s = (const sqlnet_acct_stmt_t *)g_ptr_array_index(stmts, i);
        for (c = 0; c < ncols; c++) {
            char *v = account_stmt_value(s, c);
            cell_set(stat_tap_get_field_data(st->table, i, c), c, v);
            g_free(v);
        }
        if (s->number == 0) {
            stat_tap_table_item_type *cell = stat_tap_get_field_data(st->table, i, 0);
            cell->type = TABLE_ITEM_UINT;    /* the calls outside a statement: number 0 */
            cell->value.uint_value = 0;
        }
    }
}

static stat_tap_table_ui stmt_table_ui;

/* A dissection ends (epan_dissect_cleanup: Wireshark's retap, tshark's
 * pass, a packet shown; plugin.c hands it over as an epan plugin's
 * dissect_cleanup), before Wireshark draws the table: the rows are written
 * then, from every record so far (the account's pauses, array sizes and
 * numbering need them all), and only when records came since. */
void
stmt_table_dissect_cleanup(epan_dissect_t *edt _U_)
{
    stmt_table_state_t *st = table_state;

    if (st && st->dirty && st->table && stmt_table_ui.tables && stmt_table_ui.tables->len > 0 &&
        g_array_index(stmt_table_ui.tables, stat_tap_table *, 0) == st->table) {
        rows_refresh(st);
        st->dirty = FALSE;
    }
}

static tap_packet_status
stmt_table_packet(void *tapdata, packet_info *pinfo _U_, epan_dissect_t *edt _U_, const void *data,
                  tap_flags_t flags _U_)
{
    stat_data_t *sd = (stat_data_t *)tapdata;
    stmt_table_state_t *st = table_state;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)data;

    if (!st || !st->table || !sd || !sd->stat_tap_data->tables || sd->stat_tap_data->tables->len == 0 ||
        g_array_index(sd->stat_tap_data->tables, stat_tap_table *, 0) != st->table || !rt)
        return TAP_PACKET_DONT_REDRAW;
    account_add(st->acc, rt);
    st->dirty = TRUE;
    return TAP_PACKET_REDRAW;
}

/* A window's (or tshark's) start: the table, made once, else emptied. */
static void
stmt_table_init(stat_tap_table_ui *ui)
{
    stat_tap_table *table = stat_tap_find_table(ui, STMT_TABLE_TITLE);

    if (!table) {
        table = stat_tap_init_table(STMT_TABLE_TITLE, (int)ui->nfields, 0, NULL);
        stat_tap_add_table(ui, table);
        if (table_state) {
            state_free(table_state);  /* its table was freed with the last window */
            table_state = NULL;
        }
    }
    if (table_state && table_state->table != table) {
        state_free(table_state);
        table_state = NULL;
    }
    if (!table_state)
        table_state = state_new(table);
    state_clear(table_state);
}

static void
stmt_table_reset(stat_tap_table *table)
{
    if (table_state && table_state->table == table)
        state_clear(table_state);
}

/* Wireshark frees the table (the last window closed): the cells' strings
 * go with it; the accounting is renewed by the next init. */
static void
stmt_table_free_item(stat_tap_table *table, guint row, guint column,
                     stat_tap_table_item_type *field_data)
{
    if (table_state && table_state->table == table && row == 0 && column == 0) {
        /* rows kept from before a reset, past the ones Wireshark frees */
        guint r;
        for (r = table->num_elements; r < table_state->capacity; r++) {
            row_clear(table->elements[r], table->num_fields);
            g_free(table->elements[r]);
            table->elements[r] = NULL;
        }
    }
    if (field_data->type == TABLE_ITEM_STRING) {
        g_free((char *)field_data->value.string_value);
        field_data->value.string_value = NULL;
        field_data->type = TABLE_ITEM_NONE;
    }
    if (table_state && table_state->table == table) {
        table_state->capacity = 0;
        table_state->table = NULL;       /* never touched again */
    }
}

static tap_param stmt_table_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

static stat_tap_table_ui stmt_table_ui = {
    REGISTER_PACKET_STAT_GROUP_UNSORTED,
    STMT_TABLE_TITLE,
    SQLNET_TAP_NAME,
    "sqlnet,stmt_table",
    stmt_table_init,
    stmt_table_packet,
    stmt_table_reset,
    stmt_table_free_item,
    NULL,
    0, NULL,
    G_N_ELEMENTS(stmt_table_params), stmt_table_params,
    NULL,
    0
};

void
sqlnet_table_item(stat_tap_table_item *it, const char *name, sqlnet_table_kind_t kind)
{
    static const char *const formats[] = { "%s", "%.3f", "%.1f", "%u" };

    it->column_name = name;
    it->type = kind == SQLNET_TABLE_TEXT ? TABLE_ITEM_STRING
             : kind == SQLNET_TABLE_COUNT ? TABLE_ITEM_UINT : TABLE_ITEM_FLOAT;
    it->align = kind == SQLNET_TABLE_TEXT ? TAP_ALIGN_LEFT : TAP_ALIGN_RIGHT;
    it->field_format = formats[kind];
}

void
stmt_table_register(void)
{
    guint n = account_stmt_ncolumns(), c;

    table_fields = g_new0(stat_tap_table_item, n);
    for (c = 0; c < n; c++) {
        const char *name = account_stmt_column(c);
        sqlnet_table_item(&table_fields[c], name,
                          column_is_text(c) ? SQLNET_TABLE_TEXT : column_is_ms(name) ? SQLNET_TABLE_MS
                          : column_is_ratio(name) ? SQLNET_TABLE_RATIO : SQLNET_TABLE_COUNT);
    }
    stmt_table_ui.nfields = n;
    stmt_table_ui.fields = table_fields;
    register_stat_tap_table_ui(&stmt_table_ui);
}
