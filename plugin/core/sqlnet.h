/* sqlnet.h - declarations shared by the sqlnet modules.
 *
 * Data flows one way, up the layers of plugin/ (one folder each, bottom to
 * top: core, record, framing, transport, ttc, decoders, consumers): TCP ->
 * TNS packet (framing/tns.c) -> transport (transport/data.c: plain TTC, ANO,
 * native network encryption; TLS plaintext comes back through the framing)
 * -> TTC stream -> decoders -> round-trip record -> consumers.  A layer calls
 * only its own and lower ones; it reaches a higher one through the hooks
 * plugin.c gives it at registration (tns_hooks_t, transport_data_hooks_t)
 * or a tap.  Per-conversation state lives in session.c, the protocol id and
 * the preferences in prefs.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_H
#define SQLNET_H

#include <glib.h>

#include "compat.h"

#define SQLNET_PROTO_NAME   "Oracle SQL*Net (TNS/TTC)"
#define SQLNET_PROTO_SHORT  "SQL*Net"
#define SQLNET_FILTER       "sqlnet"
#define SQLNET_DEFAULT_PORTS "1521,1522,1526"

/* Keys of the data sqlnet keeps per frame (p_add_proto_data), one namespace
 * for the protocol: even keys below 16 name one datum, even ones from 16 on
 * the framing's record of the TNS packet that starts at a raw offset of the
 * frame.  The odd ones (SQLNET_KEY_PDU) key a TTC record by that offset in
 * its session's own store (ttc_records.c), not in the frame's data. */
#define SQLNET_KEY_PACKET        0u                  /* packet scope: pkt.h (session, Info column) */
#define SQLNET_KEY_CUT           2u                  /* file scope: bytes continuing a cut packet */
#define SQLNET_KEY_NNE_INDEX     8u                  /* packet scope: TNS packets of an NNE session in this frame */
#define SQLNET_KEY_NNE_NOTICE   12u                  /* packet scope: nne.c queued its notice in this frame */
#define SQLNET_KEY_TLS_WATCH    10u                  /* packet scope: tls.c noted this frame's undecrypted TLS */
#define SQLNET_KEY_RESYNC       14u                  /* packet scope: bytes tns.c's resynchronisation may still scan */
/* file scope: what the values sqlnet.auth.value shows in this frame name
 * (ttc_auth.c, bits); the even key of a raw offset no frame reaches */
#define SQLNET_KEY_AUTH_VALUES  0xFFFFFFFEu
#define SQLNET_KEY_PDU(raw_off)  ((((guint32)(raw_off)) << 1) | 1u)
#define SQLNET_KEY_TNS_PDU(raw_off) ((((guint32)(raw_off)) + 8u) << 1)   /* file scope: tns_pdu_first() */

/* User preferences (read-only outside core/prefs.c). */
typedef struct {
    sqlnet_pref_bool_t desegment;       /* reassemble TNS packets spanning TCP segments */
    guint    small_fetch;       /* expert: fetch sizes below this are small */
    guint    max_cursors;       /* cursors remembered per conversation */
    sqlnet_pref_bool_t show_bind_values; /* show the values of an execute's binds */
    sqlnet_pref_bool_t nne_estimate;     /* estimate round trips of NNE sessions (nne.c) */
    sqlnet_pref_bool_t tls_estimate;     /* estimate undecrypted TLS round trips (tls.c) */
} sqlnet_prefs_t;

/* plugin.c: the plugin's registration and handoff */
void sqlnet_register(void);
void sqlnet_handoff(void);

/* core/prefs.c: the protocol id, the preferences */
int  sqlnet_proto(void);
const sqlnet_prefs_t *sqlnet_prefs(void);
/* The port is in the "tcp.port" range (preference sqlnet.tcp.port). */
gboolean sqlnet_is_server_port(guint32 port);
/* Registers the preferences module of protocol `proto` (sqlnet_proto() from
 * then on) and its preferences; `apply` is called when they change. */
void sqlnet_prefs_register(int proto, void (*apply)(void));
/* The preference registered after the handoffs' port ranges (tls_estimate). */
void sqlnet_prefs_handoff(void);

#endif /* SQLNET_H */
