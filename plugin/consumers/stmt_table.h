/* stmt_table.h - Statistics > SQL*Net Statements, Wireshark's table window
 * over -z sqlnet,stmt's statements (see stmt_table.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STMT_TABLE_H
#define SQLNET_STMT_TABLE_H

#include <epan/epan.h>

/* At protocol registration. */
void stmt_table_register(void);
/* When a dissection ends (an epan plugin's dissect_cleanup, see plugin.c):
 * the table's rows written from the records heard. */
void stmt_table_dissect_cleanup(epan_dissect_t *edt);

#endif /* SQLNET_STMT_TABLE_H */
