/* follow.h - Analyze > Follow > SQL*Net Stream (4.4, 4.6) and
 * tshark -z follow,sqlnet,ascii|...,N (every release): see follow.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_FOLLOW_H
#define SQLNET_FOLLOW_H

#include <epan/packet.h>
#include "session.h"
#include "sqlnet_rt.h"

/* The follow tap's name: its records are round trips with what the
 * transcript adds to them (not the "sqlnet" tap's plain records). */
#define SQLNET_FOLLOW_TAP_NAME "sqlnet_follow"

/* At protocol registration. */
void follow_register(int proto);

/* A Follow SQL*Net listener runs (the cost below is paid only then). */
gboolean follow_listening(void);

/* A DATA or MARKER packet begins (after its data flags, before its payload):
 * while a Follow listener runs, the tree keeps the items its payload adds
 * (values, logon) for follow_packet_end to read. */
void follow_packet_begin(packet_info *pinfo, proto_tree *tns_tree);

/* A TNS packet is dissected (its tree complete): while a Follow listener
 * runs, the connect descriptor, the logon's user and program and the values
 * of binds and rows go to the conversation's follow state. */
void follow_packet_end(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tns_tree, sqlnet_session_t *sess);

/* A round trip is published (metrics.c): while a Follow listener runs, it
 * goes to the follow tap with the conversation's follow state. */
void follow_queue_round_trip(packet_info *pinfo, sqlnet_session_t *sess, const sqlnet_rt_t *rt);

#endif /* SQLNET_FOLLOW_H */
