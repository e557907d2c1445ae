/* conv_table.h - Statistics > SQL*Net Conversations (see conv_table.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_CONV_TABLE_H
#define SQLNET_CONV_TABLE_H

#include <epan/epan_dissect.h>

/* At protocol registration. */
void conv_table_register(void);
/* The end of a dissection (plugin.c's epan plugin): the facts listener of a
 * closed window is removed here, outside any walk of the tap listeners. */
void conv_table_dissect_cleanup(epan_dissect_t *edt);

#endif /* SQLNET_CONV_TABLE_H */
