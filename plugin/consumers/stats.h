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

/* -z sqlnet,stmt and its window: stmt.h. */

#endif /* SQLNET_STATS_H */
