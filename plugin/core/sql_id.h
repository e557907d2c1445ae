/* sql_id.h - Oracle's SQL_ID of a statement text.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_SQL_ID_H
#define SQLNET_SQL_ID_H

#include <glib.h>

#define SQLNET_SQL_ID_LEN 13

/* Writes the 13-character SQL_ID (as V$SQL.SQL_ID shows it) of the text
 * `sql` (length `len`, without a terminator) into out[14], NUL-terminated. */
void sqlnet_sql_id(const char *sql, gsize len, char out[SQLNET_SQL_ID_LEN + 1]);

#endif
