/* metrics.h - per-response metrics: generated fields, expert advice, TCP
 * segment counting and (later) the tap record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_METRICS_H
#define SQLNET_METRICS_H

#include <epan/packet.h>
#include "session.h"
#include "sqlnet_rt.h"

/* One record per round trip (a completed response, or one closed by the
 * next request) is queued on the "sqlnet" tap (SQLNET_TAP_NAME): a
 * sqlnet_rt_t (sqlnet_rt.h), the request and response by reference. */

void metrics_register(int proto);
void metrics_handoff(void);

/* Generated request/response fields and Info text for one DATA packet. */
void metrics_add_summary(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                         sqlnet_session_t *sess, sqlnet_dir_t dir);

/* This TNS packet was reassembled from several TCP segments. */
void metrics_note_multi_segment(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                                guint32 tns_len);

#endif /* SQLNET_METRICS_H */
