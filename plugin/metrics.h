/* metrics.h - per-response metrics: generated fields, expert advice, TCP
 * segment counting and (later) the tap record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_METRICS_H
#define SQLNET_METRICS_H

#include <epan/packet.h>
#include "session.h"

void metrics_register(int proto);
void metrics_handoff(void);

/* Cap on cursors remembered per conversation. */
guint32 metrics_max_cursors(void);

/* Generated request/response fields and Info text for one DATA packet. */
void metrics_add_summary(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                         sqlnet_session_t *sess, sqlnet_dir_t dir);

/* This TNS packet was reassembled from several TCP segments. */
void metrics_note_multi_segment(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                                guint32 tns_len);

#endif /* SQLNET_METRICS_H */
