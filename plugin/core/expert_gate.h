/* expert_gate.h - whether an expert info added now changes anything.
 *
 * expert_add_info() on no item (a pass without a tree: tshark -q, a tap's
 * pass) formats its summary and builds nothing; what it still does is set
 * the Expert column, queue the info for the expert tap, and raise the
 * file's highest severity (the GUI's status bar).  The round trip's notes
 * (a small fetch, a response in several packets or segments) come with
 * every round trip: gated by this, a pass where none of that is there
 * skips them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_EXPERT_GATE_H
#define SQLNET_EXPERT_GATE_H

#include <epan/packet.h>
#include <epan/expert.h>

/* Looked up when a capture is opened (register_init_routine: Wireshark
 * registers them after the plugins): the "expert" tap and the _ws.expert
 * protocol.  Not found (0, -1): every expert info is wanted, and a display
 * pass always decodes its messages again (ttc_stream.c). */
void sqlnet_expert_gate_init(void);

/* _ws.expert's protocol (-1: not found). */
int  sqlnet_expert_proto(void);

/* Whether an expert info reaches anyone without a tree item: the expert
 * tap is listened to, or the packet list has an Expert column (or the tap
 * was not found: TRUE). */
gboolean sqlnet_expert_listened(packet_info *pinfo);

/* The severity of the expert info `which` as registered in ei[0..n-1] (a
 * static array: read where it is, so that a severity the user changed in
 * the Expert Info Severity preferences counts), NULL if not there. */
const int *sqlnet_expert_severity_of(const ei_register_info *ei, gsize n, const expert_field *which);

/* Whether expert_add_info(pinfo, pi, ei) with ei of this severity (from
 * sqlnet_expert_severity_of; NULL: unknown) has an effect: an item, an
 * Expert column, the expert tap listened to, or a severity above the
 * highest so far. */
gboolean sqlnet_expert_wanted(packet_info *pinfo, proto_item *pi, const int *severity);

/* The item to put the expert info `ei` on: `pi`, or NULL when pi is in a
 * tree that is not shown and nothing reads the info's items there (neither
 * _ws.expert's fields nor ei's own field is referenced: a tree built for
 * other fields, such as the profile's columns or a filter on sqlnet
 * fields).  On NULL, expert_add_info() still sets the Expert column,
 * queues the tap and raises the highest severity, as without a tree. */
proto_item *sqlnet_expert_item(proto_item *pi, const expert_field *ei);

#endif /* SQLNET_EXPERT_GATE_H */
