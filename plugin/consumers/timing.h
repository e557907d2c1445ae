/* timing.h - where a round trip's time goes: one network round trip, the
 * server's work, the transfer of the bytes, the client's own time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TIMING_H
#define SQLNET_TIMING_H

#include <epan/packet.h>
#include "session.h"
#include "ttc.h"

/* Where the network round-trip time comes from. */
typedef enum {
    SQLNET_RTT_UNKNOWN = 0,
    SQLNET_RTT_HANDSHAKE,      /* TCP handshake: SYN to the ACK of the SYN/ACK */
    SQLNET_RTT_ACKS            /* no handshake: the quickest ACK of each side's data */
} sqlnet_rtt_source_t;

/* Where the capture was taken, which decides which gap holds the network
 * round trip (see timing.c). */
typedef enum {
    SQLNET_VANTAGE_UNKNOWN = 0,
    SQLNET_VANTAGE_SERVER,     /* near the server: the RTT is in the client's gap */
    SQLNET_VANTAGE_CLIENT      /* near the client: the RTT is in the wait for the answer */
} sqlnet_vantage_t;

extern const value_string sqlnet_rtt_source_vals[];
extern const value_string sqlnet_vantage_vals[];

void timing_register(int proto);
void timing_handoff(void);
/* The stream's observer (ttc_observer_t, wired by plugin.c), first pass:
 * a packet of the conversation (learns the RTT once) ... */
void timing_note_packet(packet_info *pinfo, ttc_session_t *ts);
/* ... a response ends (completed, or cut short by the next request): its
 * time split, added to the record (ttc_response_set_timing). */
void timing_close_response(packet_info *pinfo, ttc_session_t *ts, ttc_response_t *resp);
/* A later visit of the frame where the response's record goes: a split made
 * without the ACK tap (first pass of -2) made again with it, once. */
void timing_revisit(packet_info *pinfo, ttc_session_t *ts, ttc_response_t *resp);
/* Generated fields of a completed response. */
void timing_add_fields(proto_tree *tree, tvbuff_t *tvb, const ttc_response_t *resp);

#endif /* SQLNET_TIMING_H */
