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
 * The lifecycle is native_table.c's (shared with the statement table); the
 * conversations and the facts listener are the table's state.
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
#include "native_table.h"
#include "conv_table.h"

#define CONV_TABLE_TITLE "SQL*Net Conversations"

/* The table's state. */
typedef struct {
    conv_acc_t *acc;
    gboolean stop_pending;     /* the window closed: remove the facts listener */
} conv_state_t;

static sqlnet_table_kind_t
column_kind(guint col)
{
    return conv_column_is_text(col) ? SQLNET_TABLE_TEXT : conv_column_is_ms(col) ? SQLNET_TABLE_MS
         : SQLNET_TABLE_COUNT;
}

static char *
row_value(const void *obj, guint col)
{
    return conv_value((const conv_row_t *)obj, col);
}

/* The conversation's row written again (added when new); a conversation
 * the records have not reached (only its logon seen, or filtered out) has
 * none. */
static void
row_write(sqlnet_table_t *t, conv_row_t *r)
{
    if (r->server.type == AT_NONE || !t->table)
        return;
    if (!r->table_row)
        r->table_row = sqlnet_table_add_row(t) + 1;
    sqlnet_table_write_row(t, r->table_row - 1, row_value, r);
}

static void
facts_changed(conv_acc_t *a _U_, conv_row_t *row, void *user)
{
    sqlnet_table_t *t = (sqlnet_table_t *)user;
    conv_state_t *st = (conv_state_t *)t->state;

    if (st && !st->stop_pending)
        row_write(t, row);
}

static void *
state_new(sqlnet_table_t *t _U_)
{
    conv_state_t *st = g_new0(conv_state_t, 1);
    st->acc = conv_acc_new();
    return st;
}

static void
state_free(void *p)
{
    conv_state_t *st = (conv_state_t *)p;
    conv_acc_free(st->acc);     /* its facts listener removed */
    g_free(st);
}

/* A window's start or retap: the conversations again, the facts heard. */
static void
state_reset(sqlnet_table_t *t)
{
    conv_state_t *st = (conv_state_t *)t->state;

    conv_acc_reset(st->acc);
    st->stop_pending = FALSE;
    conv_facts_listen(st->acc, facts_changed, t);
}

static void
record(sqlnet_table_t *t, packet_info *pinfo, const sqlnet_rt_t *rt)
{
    conv_state_t *st = (conv_state_t *)t->state;
    row_write(t, conv_acc_add(st->acc, pinfo, rt));
}

/* The last window closed: its facts listener goes at the next end of a
 * dissection (never while Wireshark walks its listeners). */
static void
closed(sqlnet_table_t *t)
{
    if (t->state)
        ((conv_state_t *)t->state)->stop_pending = TRUE;
}

static void
dissect_end(sqlnet_table_t *t)
{
    conv_state_t *st = (conv_state_t *)t->state;

    if (st->stop_pending) {
        conv_facts_stop(st->acc);
        st->stop_pending = FALSE;
    }
}

static const sqlnet_table_ops_t conv_ops = {
    .state_new = state_new,
    .state_free = state_free,
    .state_reset = state_reset,
    .record = record,
    .dissect_end = dissect_end,
    .closed = closed,
};

/* Wireshark's registration and, in it, the table's state. */
static sqlnet_table_t conv_table;

void
conv_table_register(void)
{
    sqlnet_table_register(&conv_table, CONV_TABLE_TITLE, "sqlnet,conv_table", conv_ncolumns(), conv_column,
                          column_kind, &conv_ops);
}
