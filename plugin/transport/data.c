/* data.c - the payload of a TNS DATA packet: which transport carries it
 * (see data.h).
 *
 * The transports are siblings above the TNS framing: plain TTC, the ANO
 * negotiation and native network encryption (ano.c, nne.c), TLS (tls.c,
 * below TCP: its plaintext comes back through the framing).  After the
 * ANO reply that switched encryption on, the payload is not readable
 * (nne.c estimates the round trips from the TNS headers); compressed
 * payload is not decoded either.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>

#include "session.h"
#include "tns.h"
#include "ano.h"
#include "data.h"

static const transport_data_hooks_t *hooks;     /* the layers above (plugin.c) */

void
transport_data_register(const transport_data_hooks_t *data_hooks)
{
    hooks = data_hooks;
}

void
transport_data_dissect(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                       sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 tns_len,
                       guint16 data_flags)
{
    if (ano_is_ano(payload)) {
        hooks->note_packet(pinfo, sess, dir, TNS_TYPE_DATA, tns_len, data_flags, TRUE);
        ano_dissect(payload, pinfo, tree, sess, dir == SQLNET_TO_CLIENT);
        return;
    }
    hooks->note_packet(pinfo, sess, dir, TNS_TYPE_DATA, tns_len, data_flags, FALSE);
    if (session_encrypted(sess, pinfo)) {
        tns_add_undecoded_payload(payload, pinfo, tree, TNS_PAYLOAD_ENCRYPTED);
        return;
    }
    if (data_flags & TNS_DF_COMPRESSED) {
        tns_add_undecoded_payload(payload, pinfo, tree, TNS_PAYLOAD_COMPRESSED);
        return;
    }
    if (!session_ttc_active(sess, pinfo)) {
        tns_add_undecoded_payload(payload, pinfo, tree, TNS_PAYLOAD_RAW);
        return;
    }
    hooks->ttc(payload, pinfo, tree, sess, dir, data_flags, tns_len);
    hooks->summary(payload, pinfo, tree, sess, dir);
}
