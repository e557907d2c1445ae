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

#endif /* SQLNET_STATS_H */
