/* stmt.h - -z sqlnet,stmt (stmt.c): the statement report, and the same
 * report for a window (the Lua window "SQL*Net Statements" and
 * records.accounts, lua_records.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STMT_H
#define SQLNET_STMT_H

#include <glib.h>
#include "account.h"

/* At tap registration: -z sqlnet,stmt. */
void stmt_register_taps(void);

/* A report on listeners of its own (the statements with that filter, NULL:
 * all; the estimates), without a draw: a window asks.  NULL and *err (the
 * caller g_free()s it) when the filter does not compile. */
void *stmt_window_open(const char *filter, char **err);
/* Appends the report's text: what -z sqlnet,stmt prints for tshark. */
void stmt_window_text(void *report, GString *text);
/* Its account (account.h): the numbers every format shows. */
sqlnet_account_t *stmt_window_account(void *report);
/* Removes its listeners, which frees it. */
void stmt_window_close(void *report);

#endif /* SQLNET_STMT_H */
