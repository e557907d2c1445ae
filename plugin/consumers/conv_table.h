/* conv_table.h - Statistics > SQL*Net Conversations (see conv_table.c; the
 * lifecycle is native_table.c's).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_CONV_TABLE_H
#define SQLNET_CONV_TABLE_H

/* At protocol registration. */
void conv_table_register(void);

#endif /* SQLNET_CONV_TABLE_H */
