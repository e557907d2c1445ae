/* follow.h - Analyze > Follow > SQL*Net Stream (4.4, 4.6) and
 * tshark -z follow,sqlnet,ascii|...,N (every release): see follow.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_FOLLOW_H
#define SQLNET_FOLLOW_H

/* At protocol registration. */
void follow_register(int proto);

#endif /* SQLNET_FOLLOW_H */
