/* estimate.h - the tap of encrypted round trips that sqlnet estimates from
 * sizes, and its record: shared by the transports that post on it (tls.c,
 * nne.c) and the reports that read it (stats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_ESTIMATE_H
#define SQLNET_ESTIMATE_H

#include <glib.h>
#include <wsutil/nstime.h>

/* Encrypted round trips that sqlnet cannot decode, estimated from sizes:
 * one record per estimated round trip, queued on the tap SQLNET_EST_TAP
 * (never on the "sqlnet" tap: an estimate is not mixed into decoded counts).
 *   SQLNET_EST_TLS  tls.c: a TLS conversation on a TLS port without the
 *                   secrets, from the TLS record headers (preference
 *                   sqlnet.tls_estimate);
 *   SQLNET_EST_NNE  nne.c: a session with native network encryption (ANO),
 *                   from the TNS packet headers. */
#define SQLNET_TLS_EST_TAP "sqlnet_tls_estimate"
#define SQLNET_EST_TAP SQLNET_TLS_EST_TAP

typedef enum {
    SQLNET_EST_TLS = 0,
    SQLNET_EST_NNE = 1,
    /* tls.c: not an estimate but a notice, once per conversation, whether or
     * not sqlnet.tls_estimate is on: a TNS-over-TLS conversation (TLS on a
     * TLS port, or on a sqlnet TCP port handed to TLS) that sqlnet does not
     * decode (no secrets); only conversation and port are set. */
    SQLNET_EST_TLS_UNDECRYPTED = 2,
    /* nne.c: the same notice, once per session with native network
     * encryption (on its first encrypted packet), whether or not
     * sqlnet.nne_estimate is on: conversation and port (the server's) */
    SQLNET_EST_NNE_UNDECODED = 3
} sqlnet_est_kind_t;

typedef struct {
    guint32 conversation;       /* conversation index */
    guint32 round_trip;         /* 1, 2, ... (TLS: after the CONNECT/ACCEPT exchange;
                                 * NNE: after the ANO reply that switched encryption on) */
    guint32 req_records, req_bytes;   /* TLS: client application-data records, bytes with headers;
                                       * NNE: client TNS DATA packets, their TNS bytes */
    guint32 records, bytes;     /* TLS: server application-data records, bytes with headers;
                                 * NNE: server TNS packets (DATA and markers), their TNS bytes */
    guint32 tns_bytes;          /* TLS: bytes less headers and the cipher's per-record overhead;
                                 * NNE: the TNS bytes (= bytes) */
    guint32 ttc_bytes;          /* NNE: DATA payloads less the encryption's overhead (estimate); TLS: 0 */
    nstime_t resp_time;         /* last client record/packet to last server record/packet */
    guint8  kind;               /* sqlnet_est_kind_t */
    guint16 port;               /* the notices: the server port */
} sqlnet_est_rec_t;

/* Registers the tap SQLNET_EST_TAP (plugin.c, before tls.c and nne.c queue on it). */
void sqlnet_est_register(void);
/* The estimate tap's id. */
int sqlnet_est_tap(void);

#endif /* SQLNET_ESTIMATE_H */
