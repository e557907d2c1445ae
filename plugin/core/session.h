/* session.h - per-conversation state of one Oracle Net connection.
 *
 * Everything a later packet needs to know about earlier ones (negotiated
 * version and SDU, which side is the server, framing verdicts, encryption)
 * is stored here, keyed by the TCP conversation.  Values that change during
 * a conversation carry the frame number where they took effect, so that a
 * revisit (second pass, GUI click) decodes exactly as the first pass did.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_SESSION_H
#define SQLNET_SESSION_H

#include <epan/packet.h>
#include <epan/address.h>

typedef enum {
    SQLNET_TO_SERVER,
    SQLNET_TO_CLIENT
} sqlnet_dir_t;

/* How the server endpoint was learned, weakest first: a later, stronger
 * source overrides a weaker one. */
typedef enum {
    SQLNET_SIDE_PORTS = 0,       /* listener port range, else the lower port */
    SQLNET_SIDE_CONTENT = 1,     /* a DATA packet that starts with a client call */
    SQLNET_SIDE_HANDSHAKE = 2    /* CONNECT / ACCEPT */
} sqlnet_side_source_t;

/* What the layers above keep per conversation, opaque here (typed pointers:
 * this header includes no higher one). */
struct ttc_session;              /* ttc_session_t, ttc/ttc_session.h */
struct tls_conv;                 /* transport/tls.c */
struct nne_est;                  /* transport/nne.c */
struct sqlnet_patterns;          /* consumers/patterns.c */
struct sqlnet_follow_conv;       /* consumers/follow.c */

typedef struct sqlnet_session {
    /* Server endpoint: learned from CONNECT/ACCEPT, else from the TTC
     * content, else from the ports. */
    address  srv_addr;
    guint32  srv_port;
    gboolean srv_known;
    guint8   srv_source;             /* sqlnet_side_source_t */
    /* (the one-byte members side by side: no padding between them) */
    guint8   guessed_width;          /* no handshake: the length-field width, 2 or 4 (0 = undecided) */
    guint8   nne_algorithm;          /* ANO (below): encryption algorithm id, 0 = none */
    guint8   integrity_algorithm;    /* ANO (below): data integrity algorithm id, 0 = none */
    /* The endpoint before srv_since (a port guess the content corrected):
     * revisits of earlier frames see what the first pass saw. */
    guint32  srv_since;
    address  srv_addr_before;
    guint32  srv_port_before;
    /* The server's next TCP sequence number (raw), highest so far in frame order:
     * a segment that brings nothing beyond it is a retransmission, not one
     * more segment of a response (ttc/ttc_segments.c). */
    guint32  srv_seq_next;
    gboolean srv_seq_known;

    /* CONNECT (the last one before the ACCEPT, after RESENDs). */
    guint32  connect_frame;
    guint32  connect_version;
    guint32  connect_sdu, connect_tdu;
    gboolean connect_data_deferred;  /* descriptor > 230 bytes sent in a DATA packet */

    /* ACCEPT: the negotiated values, valid from accept_frame on (its file
     * offset: session_frame_after()). */
    guint32  accept_frame;
    gint64   accept_off;
    guint32  version;
    guint32  sdu, tdu;
    guint32  accept_flags2;
    gboolean accept_has_flags2;

    /* REDIRECT whose data follows in the next DATA packet. */
    guint32  redirect_frame;
    gboolean redirect_data_deferred;
    guint32  redirect_data_len;      /* the REDIRECT's data length (offset 8) */
    /* REFUSE whose data follows in the next DATA packet (node-oracledb). */
    guint32  refuse_frame;
    gboolean refuse_data_deferred;
    guint32  refuse_data_len;

    /* No handshake in the capture: the frame where guessed_width was decided
     * (its file offset: session_frame_is()). */
    guint32  guess_frame;
    gint64   guess_off;

    /* Advanced Networking Option negotiation (DE AD BE EF); the algorithms above. */
    guint32  ano_reply_frame;        /* server reply that settled ANO */
    gint64   ano_reply_off;          /* ... its file offset */

    /* A TNS packet cut short by the capture's snaplen (not reassembled):
     * the TCP sequence number where the next one begins, per direction. */
    guint32  cut_next_seq[2];
    gboolean cut_pending[2];
    gboolean cut_unknown[2];         /* its end was not captured either */

    /* TCPS (tls.c): the conversation reached sqlnet through TLS */
    gboolean tls;

    /* The conversation's first payload, when its SYN is in the capture:
     * TNS, or another protocol on an Oracle port (sqlnet_first_t, tns.c). */
    guint8   first_verdict;

    /* The TCP conversation the session is kept in (its index and TCP's
     * record of it are read once a round trip: no lookup). */
    struct conversation *conv;

    /* TTC layer state (ttc_session_t, ttc_stream.c), created on first use. */
    struct ttc_session *ttc;

    struct tls_conv *tls_est;        /* tls.c: the watch, the estimate from TLS record sizes (no secrets) */

    /* nne.c: with native network encryption, the estimate from TNS packet sizes */
    struct nne_est *nne_est;

    /* patterns.c: the chatty-application runs of the conversation (issue 36) */
    struct sqlnet_patterns *patterns;

    /* follow.c: what the Follow SQL*Net transcript tells beyond the round
     * trips (connect descriptor, logon user and program, the values of binds
     * and rows waiting for their round trip); filled only while a Follow
     * listener runs, NULL otherwise */
    struct sqlnet_follow_conv *follow;
} sqlnet_session_t;

/* Frame order with a read filter: the first pass of tshark -2 -R (and of
 * Wireshark's -R) gives a frame that fails the filter the number the next
 * frame gets, so a later frame may carry the number of a frame the filter
 * dropped.  A marker is then the frame number and the record's file offset
 * (pinfo->fd->file_off, distinct for every record of a file):
 * session_frame_is() is that frame, session_frame_after() is a later one
 * (a higher number, or the same number at another offset). */
gboolean session_frame_is(const packet_info *pinfo, guint32 num, gint64 off);
gboolean session_frame_after(const packet_info *pinfo, guint32 num, gint64 off);

/* The session of this packet's TCP conversation (created on first use). */
sqlnet_session_t *session_get(packet_info *pinfo);

/* The session sqlnet looked up for this packet's TCP ports, else NULL. */
sqlnet_session_t *session_of_packet(packet_info *pinfo, guint32 srcport, guint32 destport);

/* For a listener on the "tcp" tap: the session of a TCP segment's
 * conversation once its TTC layer runs and its server side is known (the
 * frame's cached session when sqlnet dissected it), else NULL; NULL at once
 * when sqlnet is disabled.  `th` is the tap's struct tcpheader.  `cache` is
 * the listener's own (session_tcp_tap_cache_new(), its tap data): the
 * session of each TCP stream, so that a segment sqlnet did not dissect
 * (an ACK, a segment TCP keeps inside a reassembly, another protocol's)
 * costs one conversation lookup per stream, not one per segment. */
struct tcpheader;
typedef struct sqlnet_tcp_tap_cache sqlnet_tcp_tap_cache_t;
sqlnet_tcp_tap_cache_t *session_tcp_tap_cache_new(void);
sqlnet_session_t *session_of_tcp_segment(packet_info *pinfo, const struct tcpheader *th,
                                         sqlnet_tcp_tap_cache_t *cache);

/* Direction of this packet; learns the server endpoint when still unknown. */
sqlnet_dir_t session_direction(sqlnet_session_t *sess, packet_info *pinfo);

/* Record the server endpoint (CONNECT: destination; ACCEPT: source; a client
 * call: destination).  A stronger source overrides a weaker one. */
gboolean session_set_server(sqlnet_session_t *sess, packet_info *pinfo, gboolean server_is_dst,
                            sqlnet_side_source_t source);   /* TRUE: the server endpoint changed */

/* Negotiated values known for this frame? (at or after the ACCEPT) */
gboolean session_negotiated(const sqlnet_session_t *sess, const packet_info *pinfo);

/* DATA in this frame carries TTC: after the ACCEPT, or in a conversation
 * captured without its handshake (framing decided from the headers). */
gboolean session_ttc_active(const sqlnet_session_t *sess, const packet_info *pinfo);

/* Payload of DATA packets in this frame is encrypted / integrity-protected? */
gboolean session_encrypted(const sqlnet_session_t *sess, const packet_info *pinfo);
gboolean session_integrity(const sqlnet_session_t *sess, const packet_info *pinfo);

#endif /* SQLNET_SESSION_H */
