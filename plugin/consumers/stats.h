/* stats.h - statistics over the "sqlnet" tap (see stats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STATS_H
#define SQLNET_STATS_H

#include <glib.h>

/* At protocol registration: service response time tables. */
void stats_register(int proto);
/* At tap registration (tap plugin): stats tree and report commands. */
void stats_register_taps(void);

/* -z sqlnet,stmt's text for the Lua window "SQL*Net Statements" (see stats.c). */
typedef enum {
    STATS_STMT_OPEN,
    STATS_STMT_TEXT,
    STATS_STMT_CLOSE
} stats_stmt_op_t;
void *stats_stmt_window(stats_stmt_op_t op, void *report, const char *filter, GString *text, char **err);

/* -z sqlnet,stmt's accounting for the GUI statement table (stmt_table.c):
 * the same statements and the same CSV values (see stats.c). */
struct _packet_info;
void *stats_stmt_acc_new(void);
void stats_stmt_acc_reset(void *acc);
void stats_stmt_acc_free(void *acc);
void *stats_stmt_acc_add(void *acc, struct _packet_info *pinfo, const void *record);
guint stats_stmt_ncolumns(void);
const char *stats_stmt_column(guint col);
guint32 stats_stmt_acc_first_frame(const void *stmt, gboolean *outside);
GPtrArray *stats_stmt_acc_values(void *stmt, guint32 number);

#endif /* SQLNET_STATS_H */
