/* nne.h - native network encryption: round trips estimated from TNS packet sizes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_NNE_H
#define SQLNET_NNE_H

#include <epan/packet.h>

#include "session.h"

/* Fields of the estimate (sqlnet.nne_estimate.*). */
void nne_register(int proto);

/* The preference sqlnet.nne_estimate (core/prefs.c, on by default) is on. */
gboolean nne_estimate_enabled(void);

/* One TNS DATA or MARKER packet (type, its length from the header, the data
 * flags of a DATA packet, else 0), in both passes.  Does nothing unless the
 * session's payload is encrypted in this frame (session_encrypted()).
 * tns.c's hook `packet` (plugin.c). */
void nne_est_packet(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                    sqlnet_dir_t dir, guint8 type, guint32 tns_len, guint16 data_flags);

#endif /* SQLNET_NNE_H */
