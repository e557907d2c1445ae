/* stmt_table.h - Statistics > SQL*Net Statements, Wireshark's table window
 * over -z sqlnet,stmt's statements (see stmt_table.c; the lifecycle is
 * native_table.c's).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STMT_TABLE_H
#define SQLNET_STMT_TABLE_H

/* At protocol registration. */
void stmt_table_register(void);

#endif /* SQLNET_STMT_TABLE_H */
