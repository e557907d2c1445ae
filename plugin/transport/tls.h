/* tls.h - SQL*Net inside TLS (TCPS): decrypted application data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TLS_H
#define SQLNET_TLS_H

#include <epan/packet.h>

#include "session.h"
#include "estimate.h"

/* The dissector for decrypted TLS application data (registered as "sqlnet_tls"). */
void sqlnet_tls_register(int proto);

/* The "tls.port" range (preference "TLS ports"), the heuristic on "tls", the
 * preference sqlnet.tls_estimate and the estimate's postdissector. */
void sqlnet_tls_handoff(void);

/* Preferences applied: the estimate wants the TLS record fields only when on. */
void sqlnet_tls_prefs_apply(void);

/* The estimates of encrypted round trips and the notices of conversations
 * sqlnet cannot read (sqlnet_est_rec_t, the tap SQLNET_EST_TAP): estimate.h. */

/* The handle a TCP conversation whose first payload is a TLS ClientHello
 * gets as its dissector (tns.c's hook `tls_watch`, plugin.c): it hands
 * every segment to TLS and notes a TNS-over-TLS conversation that is not
 * decrypted; NULL without TLS. */
dissector_handle_t sqlnet_tls_watch_handle(void);

/* The preference sqlnet.tls_estimate is on. */
gboolean sqlnet_tls_estimate_enabled(void);



#endif /* SQLNET_TLS_H */
