/* native_table.h - the lifecycle the SQL*Net tables share in Wireshark's
 * own table window (stat_tap_table_ui: Statistics > SQL*Net Statements,
 * stmt_table.c; Statistics > SQL*Net Conversations, conv_table.c): the
 * table made once per registration and emptied by each retap, its rows
 * allocated once and reused (a window may still point at them), the cells
 * typed by column kind so that they sort, the rows Wireshark does not know
 * of freed with the table, the end of a dissection handed to the table.
 *
 * State: a table's state (its accounting) belongs to its sqlnet_table_t,
 * whose first member is the stat_tap_table_ui Wireshark calls back with:
 * the callbacks find it from the ui they are given (init, packet) or from
 * the stat_tap_table (reset, free), never from a file-scope variable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_NATIVE_TABLE_H
#define SQLNET_NATIVE_TABLE_H

#include <epan/packet.h>
#include <epan/epan_dissect.h>
#include <epan/stat_tap_ui.h>
#include "sqlnet_rt.h"

/* How a column shows its numbers. */
typedef enum { SQLNET_TABLE_TEXT, SQLNET_TABLE_MS, SQLNET_TABLE_RATIO, SQLNET_TABLE_COUNT } sqlnet_table_kind_t;

typedef struct sqlnet_table sqlnet_table_t;

/* What a table does with its state (NULL: nothing). */
typedef struct {
    void *(*state_new)(sqlnet_table_t *t);
    void (*state_free)(void *state);
    void (*state_reset)(sqlnet_table_t *t);              /* a retap: the records start again */
    void (*record)(sqlnet_table_t *t, packet_info *pinfo, const sqlnet_rt_t *rt);
    void (*dissect_end)(sqlnet_table_t *t);              /* a dissection ended (rows from the records) */
    void (*closed)(sqlnet_table_t *t);                   /* the last window closed (the table freed) */
} sqlnet_table_ops_t;

struct sqlnet_table {
    stat_tap_table_ui ui;          /* first: Wireshark's registration, the callbacks' argument */
    const sqlnet_table_ops_t *ops;
    sqlnet_table_kind_t *kinds;    /* per column */
    stat_tap_table *table;         /* Wireshark's, while it lives */
    guint capacity;                /* rows allocated in table->elements (kept across resets) */
    void *state;                   /* the table's own (ops->state_new) */
};

/* Register the table: title, the columns (name and kind), its -z name
 * ("sqlnet,stmt_table"). */
void sqlnet_table_register(sqlnet_table_t *t, const char *title, const char *cli, guint ncols,
                           const char *(*column)(guint col), sqlnet_table_kind_t (*kind)(guint col),
                           const sqlnet_table_ops_t *ops);

/* Every row emptied (allocated rows kept). */
void sqlnet_table_clear(sqlnet_table_t *t);
/* A new row at the end, its cells empty; its index. */
guint sqlnet_table_add_row(sqlnet_table_t *t);
/* Row `row`'s cells from value(obj, col)'s text (g_free()d here; NULL:
 * empty), typed by the column's kind. */
void sqlnet_table_write_row(sqlnet_table_t *t, guint row, char *(*value)(const void *obj, guint col),
                            const void *obj);
/* The rows shown. */
guint sqlnet_table_rows(const sqlnet_table_t *t);

/* A dissection ends (plugin.c's epan plugin step): each table's dissect_end. */
void sqlnet_tables_dissect_cleanup(epan_dissect_t *edt);

#endif /* SQLNET_NATIVE_TABLE_H */
