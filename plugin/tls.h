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

/* The "tls.port" range (preference "TLS ports"), the heuristic on "tls", the
 * preference sqlnet.tls_estimate and the estimate's postdissector. */
void sqlnet_tls_handoff(void);

/* Preferences applied: the estimate wants the TLS record fields only when on. */
void sqlnet_tls_prefs_apply(void);

/* Without the secrets: one record per estimated round trip of a TLS
 * conversation on a TLS port, queued on the tap SQLNET_TLS_EST_TAP (never on
 * the "sqlnet" tap: the estimate is not mixed into decoded counts). */
#define SQLNET_TLS_EST_TAP "sqlnet_tls_estimate"

typedef struct {
    guint32 conversation;       /* conversation index */
    guint32 round_trip;         /* 1, 2, ... after the CONNECT/ACCEPT exchange */
    guint32 req_records, req_bytes;   /* client application-data records, bytes with headers */
    guint32 records, bytes;     /* server application-data records, bytes with headers */
    guint32 tns_bytes;          /* bytes less headers and the cipher's per-record overhead */
    nstime_t time;              /* last client record to last server record */
} sqlnet_tls_est_rec_t;


#endif /* SQLNET_TLS_H */
