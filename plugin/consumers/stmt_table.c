/* stmt_table.c - Statistics > SQL*Net Statements: the statements as a table
 * in Wireshark's own table window (stat_tap_table_ui).
 *
 * Wireshark draws a registered stat_tap_table_ui in its "simple statistics"
 * window (ui/qt/simple_statistics_dialog.cpp, the same on 4.0, 4.4 and 4.6):
 * a header click sorts by that column (numbers as numbers), Copy and
 * "Save as..." write the rows as text, CSV, YAML or XML, a display filter
 * field retaps.  tshark prints the same table for -z sqlnet,stmt_table.  The
 * columns and values are those of -z sqlnet,stmt,format=csv: each row is
 * stats.c's stmt_values() for the statement (the one computation behind the
 * CSV), its numbers typed so that they sort:
 *   sql_id, sql, array_sizes, ora_errors   text
 *   *_ms                                   a number with three decimals (the
 *                                          CSV's text read back: the same value)
 *   the rest                               an unsigned count (clamped at
 *                                          4294967295, Wireshark's integer)
 * A value the CSV leaves empty (a time the capture cannot tell: no RTT, a
 * statement not timed) is an empty cell; the row of the calls outside a
 * statement has number 0 (the CSV leaves it empty).  docs/reports.md says
 * what the window offers and what it does not (no filter per row: the
 * first_frame and last_frame columns bound the statement's frames).
 *
 * State: Wireshark keeps the table in the registration (stmt_table_ui.tables:
 * one table per registration, shared by every window that shows it and reset
 * by each window's retap); the statement accounting behind its rows is kept
 * beside it, one per registration, created with the table and reset with it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>

#include "sqlnet.h"
#include "sqlnet_rt.h"
#include "stats.h"
#include "stmt_table.h"

#define STMT_TABLE_TITLE "SQL*Net Statements"

typedef struct {
    stat_tap_table *table;    /* the table this accounting fills (Wireshark's) */
    void *acc;                /* stats.c's statement accounting */
    GHashTable *row_of;       /* statement -> its row + 1 */
    GPtrArray *stmt_of;       /* row -> statement */
    GArray *ranked;           /* rows of numbered statements, by (first frame, row) */
    guint capacity;           /* rows allocated in table->elements (kept across resets) */
} stmt_table_state_t;

/* One per registration, as the table it fills (see the comment at the top). */
static stmt_table_state_t *table_state;

static stat_tap_table_item *table_fields;   /* the columns, built at registration */

static gboolean
column_is_text(const char *name)
{
    return !strcmp(name, "sql_id") || !strcmp(name, "sql") || !strcmp(name, "array_sizes") ||
           !strcmp(name, "ora_errors");
}

static gboolean
column_is_ms(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, "_ms");
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
    stats_stmt_acc_reset(st->acc);
    g_hash_table_remove_all(st->row_of);
    g_ptr_array_set_size(st->stmt_of, 0);
    g_array_set_size(st->ranked, 0);
}

static stmt_table_state_t *
state_new(stat_tap_table *table)
{
    stmt_table_state_t *st = g_new0(stmt_table_state_t, 1);

    st->table = table;
    st->acc = stats_stmt_acc_new();
    st->row_of = g_hash_table_new(g_direct_hash, g_direct_equal);
    st->stmt_of = g_ptr_array_new();
    st->ranked = g_array_new(FALSE, FALSE, sizeof(guint));
    st->capacity = table->num_elements;
    return st;
}

static void
state_free(stmt_table_state_t *st)
{
    stats_stmt_acc_free(st->acc);
    g_hash_table_destroy(st->row_of);
    g_ptr_array_free(st->stmt_of, TRUE);
    g_array_free(st->ranked, TRUE);
    g_free(st);
}

/* One cell from the CSV's text of that column. */
static void
cell_set(stat_tap_table_item_type *cell, guint col, const char *text)
{
    const char *name = stats_stmt_column(col);

    if (cell->type == TABLE_ITEM_STRING)
        g_free((char *)cell->value.string_value);
    memset(cell, 0, sizeof(*cell));
    if (column_is_text(name)) {
        cell->type = TABLE_ITEM_STRING;
        cell->value.string_value = g_strdup(text ? text : "");
    } else if (!text || !*text) {
        cell->type = TABLE_ITEM_NONE;        /* shown empty, sorts first */
        if (column_is_ms(name))
            cell->value.float_value = -1.0;
    } else if (column_is_ms(name)) {
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

/* Rank of (first frame, row) among the numbered statements: binary search. */
static guint
rank_find(stmt_table_state_t *st, guint32 first, guint row)
{
    guint lo = 0, hi = st->ranked->len;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        guint r = g_array_index(st->ranked, guint, mid);
        guint32 f = stats_stmt_acc_first_frame(g_ptr_array_index(st->stmt_of, r), NULL);
        if (f < first || (f == first && r < row))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The statement numbers of ranks from..to-1 written to their rows' first cell. */
static void
renumber(stmt_table_state_t *st, guint from, guint to)
{
    guint k;

    for (k = from; k < to && k < st->ranked->len; k++) {
        guint r = g_array_index(st->ranked, guint, k);
        stat_tap_table_item_type *cell = stat_tap_get_field_data(st->table, r, 0);
        cell->type = TABLE_ITEM_UINT;
        cell->value.uint_value = k + 1;
    }
}

/* Where a numbered statement's row goes among the ranked: after every
 * (first frame, row) smaller than its own. */
static gboolean
ranked_before(stmt_table_state_t *st, guint k, guint32 first, guint row)
{
    guint r = g_array_index(st->ranked, guint, k);
    guint32 f = stats_stmt_acc_first_frame(g_ptr_array_index(st->stmt_of, r), NULL);
    return f < first || (f == first && r < row);
}

/* A statement's rank after its record: a new one inserted, an old one moved
 * up if its first frame moved down (a record of an earlier call came later);
 * the rows whose rank changed renumbered.  Records come in frame order, so
 * a statement almost always ranks last and nothing moves. */
static guint
rank_update(stmt_table_state_t *st, guint row, gboolean fresh, guint32 first)
{
    guint rank, old_rank;

    if (fresh) {
        rank = rank_find(st, first, row);
        g_array_insert_val(st->ranked, rank, row);
        renumber(st, rank, st->ranked->len);
        return rank;
    }
    /* its rank is the number its row shows */
    old_rank = stat_tap_get_field_data(st->table, row, 0)->value.uint_value - 1;
    if (old_rank >= st->ranked->len || g_array_index(st->ranked, guint, old_rank) != row)
        return old_rank;               /* cannot happen: the rows are numbered by renumber() */
    if (old_rank == 0 || ranked_before(st, old_rank - 1, first, row))
        return old_rank;
    g_array_remove_index(st->ranked, old_rank);
    rank = rank_find(st, first, row);
    g_array_insert_val(st->ranked, rank, row);
    renumber(st, rank, old_rank + 1);
    return rank;
}

static tap_packet_status
stmt_table_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data,
                  tap_flags_t flags _U_)
{
    stat_data_t *sd = (stat_data_t *)tapdata;
    stmt_table_state_t *st = table_state;
    void *stmt;
    gpointer found = NULL;
    guint row, rank = 0, c;
    guint32 first;
    gboolean outside = FALSE, fresh;
    GPtrArray *values;

    if (!st || !st->table || !sd || !sd->stat_tap_data->tables || sd->stat_tap_data->tables->len == 0 ||
        g_array_index(sd->stat_tap_data->tables, stat_tap_table *, 0) != st->table)
        return TAP_PACKET_DONT_REDRAW;
    stmt = stats_stmt_acc_add(st->acc, pinfo, data);
    if (!stmt)
        return TAP_PACKET_DONT_REDRAW;
    fresh = !g_hash_table_lookup_extended(st->row_of, stmt, NULL, &found);
    if (fresh) {
        row = row_add(st);
        g_hash_table_insert(st->row_of, stmt, GUINT_TO_POINTER(row + 1));
        g_ptr_array_add(st->stmt_of, stmt);
    } else {
        row = GPOINTER_TO_UINT(found) - 1;
    }
    first = stats_stmt_acc_first_frame(stmt, &outside);
    if (!outside)
        rank = rank_update(st, row, fresh, first);
    values = stats_stmt_acc_values(stmt, outside ? 0 : rank + 1);
    for (c = 1; c < values->len && c < st->table->num_fields; c++)
        cell_set(stat_tap_get_field_data(st->table, row, c), c, (const char *)g_ptr_array_index(values, c));
    if (outside) {
        stat_tap_table_item_type *cell = stat_tap_get_field_data(st->table, row, 0);
        cell->type = TABLE_ITEM_UINT;    /* the calls outside a statement: number 0 */
        cell->value.uint_value = 0;
    }
    g_ptr_array_free(values, TRUE);
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
stmt_table_register(void)
{
    guint n = stats_stmt_ncolumns(), c;

    table_fields = g_new0(stat_tap_table_item, n);
    for (c = 0; c < n; c++) {
        const char *name = stats_stmt_column(c);
        table_fields[c].column_name = name;
        if (column_is_text(name)) {
            table_fields[c].type = TABLE_ITEM_STRING;
            table_fields[c].align = TAP_ALIGN_LEFT;
            table_fields[c].field_format = "%s";
        } else if (column_is_ms(name)) {
            table_fields[c].type = TABLE_ITEM_FLOAT;
            table_fields[c].align = TAP_ALIGN_RIGHT;
            table_fields[c].field_format = "%.3f";
        } else {
            table_fields[c].type = TABLE_ITEM_UINT;
            table_fields[c].align = TAP_ALIGN_RIGHT;
            table_fields[c].field_format = "%u";
        }
    }
    stmt_table_ui.nfields = n;
    stmt_table_ui.fields = table_fields;
    register_stat_tap_table_ui(&stmt_table_ui);
}
