/* ano.h - Oracle Advanced Networking Option negotiation (DE AD BE EF).
 *
 * ANO is not TTC: it is the first DATA exchange after the ACCEPT for OCI,
 * JDBC and go-ora clients.  The server's reply says whether native network
 * encryption and data integrity are switched on, after which TTC payload is
 * no longer readable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_ANO_H
#define SQLNET_ANO_H

#include <epan/packet.h>
#include "session.h"

void ano_register(int proto);

/* Does this DATA payload start an ANO message? */
gboolean ano_is_ano(tvbuff_t *payload);
/* Does an ANO message start at this offset (a DATA packet's payload)? */
gboolean ano_is_ano_at(tvbuff_t *tvb, guint offset);

/* Dissects one ANO message; a server reply updates the session. */
void ano_dissect(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                 sqlnet_session_t *sess, gboolean from_server);

/* Generated "native network encryption" facts for packets after the reply
 * (tns.c's hook `session_summary`, plugin.c). */
void ano_add_session_summary(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                             const sqlnet_session_t *sess);

#endif /* SQLNET_ANO_H */
