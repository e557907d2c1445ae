/* native_table.c - the SQL*Net tables' shared lifecycle (see native_table.h).
 *
 * Wireshark keeps one stat_tap_table per registration (ui->tables), shared
 * by every window that shows it and reset by each window's retap; it frees
 * the table, and the rows it counts (num_elements), when the last window
 * closes.  Rows allocated before a reset are kept (capacity) and reused,
 * and freed here with the table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>

#include "sqlnet.h"
#include "native_table.h"

/* The registered tables, written at registration only: the callbacks that
 * get a stat_tap_table and no ui (reset, free) find their table here. */
#define MAX_TABLES 4
static sqlnet_table_t *registered[MAX_TABLES];

static sqlnet_table_t *
owner_of_ui(stat_tap_table_ui *ui)
{
    return (sqlnet_table_t *)ui;   /* the ui is the first member */
}

static sqlnet_table_t *
owner_of_table(const stat_tap_table *table)
{
    guint i;

    for (i = 0; i < MAX_TABLES && registered[i]; i++)
        if (registered[i]->table == table)
            return registered[i];
    return NULL;
}

static void
cells_clear(stat_tap_table_item_type *cells, guint n)
{
    guint c;

    for (c = 0; c < n; c++) {
        if (cells[c].type == TABLE_ITEM_STRING)
            g_free((char *)cells[c].value.string_value);
        memset(&cells[c], 0, sizeof(cells[c]));
        cells[c].type = TABLE_ITEM_NONE;
    }
}

void
sqlnet_table_clear(sqlnet_table_t *t)
{
    guint r;

    if (!t->table)
        return;
    for (r = 0; r < t->capacity; r++)
        cells_clear(t->table->elements[r], t->table->num_fields);
    t->table->num_elements = 0;
}

guint
sqlnet_table_rows(const sqlnet_table_t *t)
{
    return t->table ? t->table->num_elements : 0;
}

guint
sqlnet_table_add_row(sqlnet_table_t *t)
{
    stat_tap_table *tab = t->table;
    guint row = tab->num_elements;

    if (row < t->capacity) {
        tab->num_elements = row + 1;
        cells_clear(tab->elements[row], tab->num_fields);
    } else {
        stat_tap_table_item_type *blank = g_new0(stat_tap_table_item_type, tab->num_fields);
        guint c;
        for (c = 0; c < tab->num_fields; c++)
            blank[c].type = TABLE_ITEM_NONE;
        stat_tap_init_table_row(tab, row, tab->num_fields, blank);
        g_free(blank);
        t->capacity = tab->num_elements;
    }
    return row;
}

/* A cell from its column's text: text, a number with decimals, a count
 * (clamped at Wireshark's 32-bit integer); no text: empty (sorts first). */
static void
cell_set(stat_tap_table_item_type *cell, sqlnet_table_kind_t kind, const char *text)
{
    if (cell->type == TABLE_ITEM_STRING)
        g_free((char *)cell->value.string_value);
    memset(cell, 0, sizeof(*cell));
    if (kind == SQLNET_TABLE_TEXT) {
        cell->type = TABLE_ITEM_STRING;
        cell->value.string_value = g_strdup(text ? text : "");
    } else if (!text || !*text) {
        cell->type = TABLE_ITEM_NONE;
        if (kind == SQLNET_TABLE_MS)
            cell->value.float_value = -1.0;
    } else if (kind == SQLNET_TABLE_MS || kind == SQLNET_TABLE_RATIO) {
        cell->type = TABLE_ITEM_FLOAT;
        cell->value.float_value = g_ascii_strtod(text, NULL);
    } else {
        guint64 v = g_ascii_strtoull(text, NULL, 10);
        cell->type = TABLE_ITEM_UINT;
        cell->value.uint_value = v > G_MAXUINT32 ? G_MAXUINT32 : (guint)v;
    }
}

void
sqlnet_table_write_row(sqlnet_table_t *t, guint row, char *(*value)(const void *obj, guint col), const void *obj)
{
    guint c, n = MIN(t->ui.nfields, t->table->num_fields);

    for (c = 0; c < n; c++) {
        char *v = value(obj, c);
        cell_set(stat_tap_get_field_data(t->table, row, c), t->kinds[c], v);
        g_free(v);
    }
}

static void
state_renew(sqlnet_table_t *t)
{
    if (t->state && t->ops->state_free)
        t->ops->state_free(t->state);
    t->state = t->ops->state_new ? t->ops->state_new(t) : NULL;
}

/* A window's (or tshark's) start: the table, made once, else emptied; the
 * state made again with a new table (the old one went with the last window). */
static void
table_init(stat_tap_table_ui *ui)
{
    sqlnet_table_t *t = owner_of_ui(ui);
    stat_tap_table *table = stat_tap_find_table(ui, ui->title);

    if (!table) {
        table = stat_tap_init_table(ui->title, (int)ui->nfields, 0, NULL);
        stat_tap_add_table(ui, table);
    }
    if (t->table != table || !t->state) {
        t->table = table;
        t->capacity = table->num_elements;
        state_renew(t);
    }
    sqlnet_table_clear(t);
    if (t->ops->state_reset)
        t->ops->state_reset(t);
}

static tap_packet_status
table_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data, tap_flags_t flags _U_)
{
    stat_data_t *sd = (stat_data_t *)tapdata;
    sqlnet_table_t *t;

    if (!sd || !data || !sd->stat_tap_data)
        return TAP_PACKET_DONT_REDRAW;
    t = owner_of_ui(sd->stat_tap_data);
    if (!t->table || !t->state || !sd->stat_tap_data->tables || sd->stat_tap_data->tables->len == 0 ||
        g_array_index(sd->stat_tap_data->tables, stat_tap_table *, 0) != t->table)
        return TAP_PACKET_DONT_REDRAW;
    t->ops->record(t, pinfo, (const sqlnet_rt_t *)data);
    return TAP_PACKET_REDRAW;
}

static void
table_reset(stat_tap_table *table)
{
    sqlnet_table_t *t = owner_of_table(table);

    if (t) {
        sqlnet_table_clear(t);
        if (t->ops->state_reset)
            t->ops->state_reset(t);
    }
}

/* Wireshark frees the table (the last window closed), cell by cell: the
 * strings go with it, and the rows kept from before a reset past the ones
 * it frees; the table is not touched again. */
static void
table_free_item(stat_tap_table *table, guint row, guint column, stat_tap_table_item_type *field_data)
{
    sqlnet_table_t *t = owner_of_table(table);

    if (t && row == 0 && column == 0) {
        guint r;
        for (r = table->num_elements; r < t->capacity; r++) {
            cells_clear(table->elements[r], table->num_fields);
            g_free(table->elements[r]);
            table->elements[r] = NULL;
        }
    }
    if (field_data->type == TABLE_ITEM_STRING) {
        g_free((char *)field_data->value.string_value);
        field_data->value.string_value = NULL;
        field_data->type = TABLE_ITEM_NONE;
    }
    if (t) {
        t->table = NULL;
        t->capacity = 0;
        if (t->ops->closed)
            t->ops->closed(t);
    }
}

void
sqlnet_tables_dissect_cleanup(epan_dissect_t *edt _U_)
{
    guint i;

    for (i = 0; i < MAX_TABLES && registered[i]; i++) {
        sqlnet_table_t *t = registered[i];
        if (t->ops->dissect_end && t->state && (!t->table || (t->ui.tables && t->ui.tables->len > 0 &&
            g_array_index(t->ui.tables, stat_tap_table *, 0) == t->table)))
            t->ops->dissect_end(t);
    }
}

static tap_param table_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

void
sqlnet_table_register(sqlnet_table_t *t, const char *title, const char *cli, guint ncols,
                      const char *(*column)(guint col), sqlnet_table_kind_t (*kind)(guint col),
                      const sqlnet_table_ops_t *ops)
{
    static const char *const formats[] = { "%s", "%.3f", "%.1f", "%u" };
    stat_tap_table_item *fields = g_new0(stat_tap_table_item, ncols);
    guint c, i;

    t->kinds = g_new0(sqlnet_table_kind_t, ncols);
    for (c = 0; c < ncols; c++) {
        sqlnet_table_kind_t k = kind(c);
        t->kinds[c] = k;
        fields[c].column_name = column(c);
        fields[c].type = k == SQLNET_TABLE_TEXT ? TABLE_ITEM_STRING
                       : k == SQLNET_TABLE_COUNT ? TABLE_ITEM_UINT : TABLE_ITEM_FLOAT;
        fields[c].align = k == SQLNET_TABLE_TEXT ? TAP_ALIGN_LEFT : TAP_ALIGN_RIGHT;
        fields[c].field_format = formats[k];
    }
    t->ops = ops;
    t->ui.group = REGISTER_PACKET_STAT_GROUP_UNSORTED;
    t->ui.title = title;
    t->ui.tap_name = SQLNET_TAP_NAME;
    t->ui.cli_string = cli;
    t->ui.stat_tap_init_cb = table_init;
    t->ui.packet_func = table_packet;
    t->ui.stat_tap_reset_table_cb = table_reset;
    t->ui.stat_tap_free_table_item_cb = table_free_item;
    t->ui.nfields = ncols;
    t->ui.fields = fields;
    t->ui.nparams = G_N_ELEMENTS(table_params);
    t->ui.params = table_params;
    for (i = 0; i < MAX_TABLES; i++) {
        if (!registered[i]) {
            registered[i] = t;
            break;
        }
    }
    register_stat_tap_table_ui(&t->ui);
}
