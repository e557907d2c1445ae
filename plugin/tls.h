/* tls.h - SQL*Net inside TLS (TCPS): decrypted application data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TLS_H
#define SQLNET_TLS_H

#include <epan/packet.h>

#include "session.h"
#include "ttc.h"

/* The dissector for decrypted TLS application data (registered as "sqlnet_tls"). */
void sqlnet_tls_register(int proto);

/* The "tls.port" range (preference "TLS ports") and the heuristic on "tls". */
void sqlnet_tls_handoff(void);

/* A response opens (first pass): under TLS, the server segments that carried
 * the start of its first TLS record before sqlnet got the record count into
 * it, and it starts at the first of them (as over TCP, where sqlnet sees the
 * first segment of a TNS packet). */
void sqlnet_tls_response_opened(sqlnet_session_t *sess, ttc_response_t *resp);

#endif /* SQLNET_TLS_H */
