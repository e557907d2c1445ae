/* tls.h - SQL*Net inside TLS (TCPS): decrypted application data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TLS_H
#define SQLNET_TLS_H

#include <epan/packet.h>

/* The dissector for decrypted TLS application data (registered as "sqlnet_tls"). */
void sqlnet_tls_register(int proto);

/* The "tls.port" range (preference "TLS ports") and the heuristic on "tls". */
void sqlnet_tls_handoff(void);

#endif /* SQLNET_TLS_H */
