/* conv_table.c - Statistics > SQL*Net Conversations: a native statistics
 * table (Wireshark's stat_tap_table_ui, as stmt_table.c), one row per
 * conversation, the columns of conv.c (the same as tshark -z sqlnet,conv),
 * sortable by clicking a header; the "filter" column is the display filter
 * of the conversation (tcp.stream eq N) to copy into the filter bar.
 *
 * Why not Statistics > Conversations: its columns are Wireshark's own
 * (addresses, ports, packets, bytes, times); a plugin can add a tab
 * (register_conversation_table) but no column, so user, service, program,
 * statements and round trips would have nowhere to go.
 *
 * The rows are updated as the records come (a row per conversation: a
 * record touches one row).  The user, service and program come from the
 * logon and the connect descriptor, packets the "sqlnet" tap does not
 * publish on: conv.c's facts listener, registered when the window opens,
 * removed after the window closed (at the next end of a dissection, never
 * while Wireshark walks its listeners).
 *
 * One window at a time, as the statement table: the state below is the
 * table Wireshark made for this registration.
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
#include "conv.h"
#include "conv_table.h"
#include "stmt_table.h"

#define CONV_TABLE_TITLE "SQL*Net Conversations"

typedef struct {
    stat_tap_table *table;
    conv_acc_t *acc;
    guint used;                /* rows shown (table->num_elements) */
    guint capacity;            /* rows allocated (kept across resets) */
    gboolean stop_pending;     /* the window closed: remove the facts listener */
} conv_table_state_t;

static conv_table_state_t *table_state;
static stat_tap_table_item *table_fields;
static stat_tap_table_ui conv_table_ui;

static void
cell_set(stat_tap_table_item_type *cell, guint col, const char *text)
{
    if (cell->type == TABLE_ITEM_STRING)
        g_free((char *)cell->value.string_value);
    memset(cell, 0, sizeof(*cell));
    if (conv_column_is_text(col)) {
        cell->type = TABLE_ITEM_STRING;
        cell->value.string_value = g_strdup(text ? text : "");
    } else if (!text || !*text) {
        cell->type = TABLE_ITEM_NONE;
    } else if (conv_column_is_ms(col)) {
        cell->type = TABLE_ITEM_FLOAT;
        cell->value.float_value = g_ascii_strtod(text, NULL);
    } else {
        guint64 v = g_ascii_strtoull(text, NULL, 10);
        cell->type = TABLE_ITEM_UINT;
        cell->value.uint_value = v > G_MAXUINT32 ? G_MAXUINT32 : (guint)v;
    }
}

/* The conversation's row written again (added when new); a conversation
 * the records have not reached (only its logon seen, or filtered out) has
 * none. */
static void
row_write(conv_table_state_t *st, conv_row_t *r)
{
    stat_tap_table *t = st->table;
    guint c, n = MIN(conv_ncolumns(), t->num_fields);

    if (r->server.type == AT_NONE)
        return;
    if (!r->table_row) {
        if (st->used < st->capacity) {
            t->num_elements = st->used + 1;
        } else {
            stat_tap_table_item_type *blank = g_new0(stat_tap_table_item_type, t->num_fields);
            for (c = 0; c < t->num_fields; c++)
                blank[c].type = TABLE_ITEM_NONE;
            stat_tap_init_table_row(t, st->used, t->num_fields, blank);
            g_free(blank);
            st->capacity = t->num_elements;
        }
        r->table_row = ++st->used;
    }
    for (c = 0; c < n; c++) {
        char *v = conv_value(r, c);
        cell_set(stat_tap_get_field_data(t, r->table_row - 1, c), c, v);
        g_free(v);
    }
}

static void
facts_changed(conv_acc_t *a _U_, conv_row_t *row, void *user)
{
    conv_table_state_t *st = (conv_table_state_t *)user;

    if (st == table_state && st->table && !st->stop_pending)
        row_write(st, row);
}

static tap_packet_status
conv_table_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data,
                  tap_flags_t flags _U_)
{
    stat_data_t *sd = (stat_data_t *)tapdata;
    conv_table_state_t *st = table_state;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)data;

    if (!st || !st->table || !sd || !rt || !sd->stat_tap_data->tables || sd->stat_tap_data->tables->len == 0 ||
        g_array_index(sd->stat_tap_data->tables, stat_tap_table *, 0) != st->table)
        return TAP_PACKET_DONT_REDRAW;
    row_write(st, conv_acc_add(st->acc, pinfo, rt));
    return TAP_PACKET_REDRAW;
}

/* Every row emptied; the rows stay allocated (a window may still point at
 * them) and are used again as the records come. */
static void
rows_clear(conv_table_state_t *st)
{
    stat_tap_table *t = st->table;
    guint r, c;

    for (r = 0; r < st->capacity; r++) {
        for (c = 0; c < t->num_fields; c++) {
            stat_tap_table_item_type *cell = stat_tap_get_field_data(t, r, c);
            if (cell->type == TABLE_ITEM_STRING)
                g_free((char *)cell->value.string_value);
            memset(cell, 0, sizeof(*cell));
            cell->type = TABLE_ITEM_NONE;
        }
    }
    t->num_elements = 0;
    st->used = 0;
}

static void
conv_table_init(stat_tap_table_ui *ui)
{
    stat_tap_table *table = stat_tap_find_table(ui, CONV_TABLE_TITLE);

    if (!table) {
        table = stat_tap_init_table(CONV_TABLE_TITLE, (int)ui->nfields, 0, NULL);
        stat_tap_add_table(ui, table);
    }
    if (!table_state) {
        table_state = g_new0(conv_table_state_t, 1);
        table_state->acc = conv_acc_new();
    }
    if (table_state->table != table) {
        table_state->table = table;
        table_state->capacity = table->num_elements;
        table_state->used = table->num_elements;
    }
    table_state->stop_pending = FALSE;
    rows_clear(table_state);
    conv_acc_reset(table_state->acc);
    conv_facts_listen(table_state->acc, facts_changed, table_state);
}

static void
conv_table_reset(stat_tap_table *table)
{
    if (table_state && table_state->table == table) {
        rows_clear(table_state);
        conv_acc_reset(table_state->acc);
    }
}

/* Wireshark frees the table (the last window closed): the cells' strings go
 * with it, and the rows kept from before a reset past the ones it frees. */
static void
conv_table_free_item(stat_tap_table *table, guint row, guint column,
                     stat_tap_table_item_type *field_data)
{
    conv_table_state_t *st = table_state;

    if (st && st->table == table && row == 0 && column == 0) {
        guint r, c;
        for (r = table->num_elements; r < st->capacity; r++) {
            for (c = 0; c < table->num_fields; c++) {
                stat_tap_table_item_type *cell = &table->elements[r][c];
                if (cell->type == TABLE_ITEM_STRING)
                    g_free((char *)cell->value.string_value);
            }
            g_free(table->elements[r]);
            table->elements[r] = NULL;
        }
    }
    if (field_data->type == TABLE_ITEM_STRING) {
        g_free((char *)field_data->value.string_value);
        field_data->value.string_value = NULL;
        field_data->type = TABLE_ITEM_NONE;
    }
    if (st && st->table == table) {
        st->table = NULL;          /* never touched again */
        st->capacity = st->used = 0;
        st->stop_pending = TRUE;
    }
}

void
conv_table_dissect_cleanup(epan_dissect_t *edt _U_)
{
    if (table_state && table_state->stop_pending) {
        conv_facts_stop(table_state->acc);
        table_state->stop_pending = FALSE;
    }
}

static tap_param conv_table_params[] = {
    { PARAM_FILTER, "filter", "Filter", NULL, TRUE }
};

static stat_tap_table_ui conv_table_ui = {
    REGISTER_PACKET_STAT_GROUP_UNSORTED,
    CONV_TABLE_TITLE,
    SQLNET_TAP_NAME,
    "sqlnet,conv_table",
    conv_table_init,
    conv_table_packet,
    conv_table_reset,
    conv_table_free_item,
    NULL,
    0, NULL,
    G_N_ELEMENTS(conv_table_params), conv_table_params,
    NULL,
    0
};

void
conv_table_register(void)
{
    guint n = conv_ncolumns(), c;

    table_fields = g_new0(stat_tap_table_item, n);
    for (c = 0; c < n; c++) {
        sqlnet_table_item(&table_fields[c], conv_column(c), conv_column_is_text(c) ? SQLNET_TABLE_TEXT
                          : conv_column_is_ms(c) ? SQLNET_TABLE_MS : SQLNET_TABLE_COUNT);
    }
    conv_table_ui.nfields = n;
    conv_table_ui.fields = table_fields;
    register_stat_tap_table_ui(&conv_table_ui);
}
