/* stmt_table.h - Statistics > SQL*Net Statements, Wireshark's table window
 * over -z sqlnet,stmt's statements (see stmt_table.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STMT_TABLE_H
#define SQLNET_STMT_TABLE_H

#include <epan/epan.h>
#include <epan/stat_tap_ui.h>

/* How a native table's column shows its numbers (both SQL*Net tables). */
typedef enum { SQLNET_TABLE_TEXT, SQLNET_TABLE_MS, SQLNET_TABLE_RATIO, SQLNET_TABLE_COUNT } sqlnet_table_kind_t;

/* Fill a stat_tap_table_item: its name, type, alignment and format by kind
 * (text left, "%s"; milliseconds "%.3f"; ratios "%.1f"; counts "%u"). */
void sqlnet_table_item(stat_tap_table_item *it, const char *name, sqlnet_table_kind_t kind);

/* At protocol registration. */
void stmt_table_register(void);
/* When a dissection ends (an epan plugin's dissect_cleanup, see plugin.c):
 * the table's rows written from the records heard. */
void stmt_table_dissect_cleanup(epan_dissect_t *edt);

#endif /* SQLNET_STMT_TABLE_H */
