/* flow.h - the "SQL*Net" flow type of Statistics > Flow Graph and
 * tshark -z flow,sqlnet,... (see flow.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_FLOW_H
#define SQLNET_FLOW_H

/* At protocol registration. */
void flow_register(int proto);

#endif /* SQLNET_FLOW_H */
