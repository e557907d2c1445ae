/* ttc_binds.h - bind values of an execute (ttc_binds.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_BINDS_H
#define SQLNET_TTC_BINDS_H

#include "ttc_msg.h"

/* Show the values of the rows at `at` (row data messages after the bind
 * metadata) as sqlnet.bind.value items; `at` is not moved. */
void ttc_show_bind_values(const ttc_rd_t *at, proto_tree *tree, const ttc_describe_t *binds,
                          guint32 returning, gboolean plsql, guint32 executions,
                          wmem_allocator_t *scope);
void ttc_binds_register(int proto);

#endif
