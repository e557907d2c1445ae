/* stats.h - statistics over the "sqlnet" tap (see stats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_STATS_H
#define SQLNET_STATS_H

/* At protocol registration: service response time tables. */
void stats_register(int proto);
/* At tap registration (tap plugin): stats tree and report commands. */
void stats_register_taps(void);

#endif /* SQLNET_STATS_H */
