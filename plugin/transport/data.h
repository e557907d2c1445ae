/* data.h - the payload of a TNS DATA packet: which transport carries it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_DATA_H
#define SQLNET_DATA_H

#include <epan/packet.h>

#include "session.h"

/* The TTC stream and the consumers, above the transports: plugin.c gives
 * them at registration (transport_data_register()), every member set. */
typedef struct {
    /* Every DATA packet with payload (is_ano: an ANO message): the TTC
     * stream's response accounting (ttc_note_packet). */
    void (*note_packet)(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                        guint8 type, guint32 tns_len, guint16 data_flags, gboolean is_ano);
    /* A payload in the clear once TTC is active: the TTC stream (ttc_dissect_payload). */
    void (*ttc)(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                sqlnet_dir_t dir, guint16 data_flags, guint32 tns_len);
    /* After the TTC stream: the round trip's fields (metrics_add_summary). */
    void (*summary)(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                    sqlnet_session_t *sess, sqlnet_dir_t dir);
} transport_data_hooks_t;

/* `hooks` (static, kept) reaches the layers above. */
void transport_data_register(const transport_data_hooks_t *hooks);

/* The payload of a DATA packet (tns.c's hook `data`, after the handshake
 * data): an ANO negotiation (ano.c), payload encrypted by native network
 * encryption or compressed (shown undecoded), before TTC is active (shown
 * as bytes), else TTC. */
void transport_data_dissect(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                            sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 tns_len,
                            guint16 data_flags);

#endif /* SQLNET_DATA_H */
