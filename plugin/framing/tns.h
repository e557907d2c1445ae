/* tns.h - the TNS packet layer: framing, packet types, handshake.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TNS_H
#define SQLNET_TNS_H

#include <epan/packet.h>

#include "session.h"

/* Packet types (byte 4 of every TNS header). */
#define TNS_TYPE_CONNECT    1
#define TNS_TYPE_ACCEPT     2
#define TNS_TYPE_ACK        3
#define TNS_TYPE_REFUSE     4
#define TNS_TYPE_REDIRECT   5
#define TNS_TYPE_DATA       6
#define TNS_TYPE_NULL       7
#define TNS_TYPE_ABORT      9
#define TNS_TYPE_RESEND     11
#define TNS_TYPE_MARKER     12
#define TNS_TYPE_ATTENTION  13
#define TNS_TYPE_CONTROL    14
#define TNS_TYPE_DD         15
#define TNS_TYPE_MAX        19

#define TNS_HDR_LEN         8

/* Header flags (offset 5). */
#define TNS_HF_REDIRECT_SPLIT 0x02   /* NSPFRDS: REDIRECT data = address NUL connect data */
#define TNS_HF_REDIRECTED     0x04   /* NSPFRDR: CONNECT after a REDIRECT */
#define TNS_HF_TLS_RENEG      0x08   /* NSPFSRN: RESEND/ACCEPT: renegotiate TLS first */

/* DATA DESCRIPTOR (type 15, JDBC "zero-copy I/O"): u32 flags, u32 total data
 * length, u32 segment count, 26 u16 segment lengths (a 72-byte packet); the
 * data itself follows on the stream without TNS headers. */
#define TNS_DD_FLAG_LAST      0x00000001u   /* last descriptor of the transfer */
#define TNS_DD_FLAG_SHORT     0x00000002u   /* 16-bit segment lengths */
#define TNS_DD_SEGMENTS       26
#define TNS_DD_FIXED_LEN      20            /* header + flags + total + count */
#define TNS_DD_MAX_DATA       (TNS_DD_SEGMENTS * 65535u)
#define TNS_DATA_HDR_LEN    10

/* Payload of a DATA packet after its 2-byte data flags: what Oracle counts as
 * "bytes sent via SQL*Net" (TNS headers are not counted). */
static inline guint32
tns_data_bytes(guint32 tns_len)
{
    return tns_len > TNS_DATA_HDR_LEN ? tns_len - TNS_DATA_HDR_LEN : 0;
}

/* Versions that change the wire format. */
#define TNS_VERSION_MIN_LARGE_SDU  315   /* 32-bit lengths after ACCEPT; SDU at ACCEPT 32 */
#define TNS_VERSION_MIN_FLAGS2     318   /* ACCEPT flags2 at offset 41 */
#define TNS_VERSION_MIN_EOR        319   /* end-of-response */

/* Largest SDU Oracle Net negotiates (2 MiB); no TNS packet is longer. */
#define TNS_MAX_PACKET_LEN  2097152u

/* DATA flags (offset 8). */
#define TNS_DF_SEND_TOKEN     0x0001
#define TNS_DF_REQ_CONFIRM    0x0002
#define TNS_DF_CONFIRM        0x0004
#define TNS_DF_RESERVED       0x0008
#define TNS_DF_MORE_DATA      0x0020
#define TNS_DF_EOF            0x0040
#define TNS_DF_IMM_CONFIRM    0x0080
#define TNS_DF_RTS            0x0100
#define TNS_DF_NT_TRAILER     0x0200
#define TNS_DF_COMPRESSED     0x0400
#define TNS_DF_END_OF_REQUEST 0x0800
#define TNS_DF_BEGIN_PIPELINE 0x1000
#define TNS_DF_END_OF_RESPONSE 0x2000

/* ACCEPT flags2 (offset 41, version >= 318). */
#define TNS_AF2_CHECK_OOB        0x00000001u
#define TNS_AF2_POLL_AND_CHECK   0x01000000u
#define TNS_AF2_END_OF_RESPONSE  0x02000000u
#define TNS_AF2_FAST_AUTH        0x10000000u

/* What the TNS layer hands to the layers above it: the transports (plain,
 * ANO, NNE, TLS), the TTC stream and the consumers.  The framing layer calls
 * none of them itself: plugin.c gives it these functions at registration
 * (tns_register()), every member set. */
typedef struct {
    /* Every DATA packet (after its data flags) and MARKER packet, in both
     * passes: nne.c's estimate of encrypted round trips (nne_est_packet). */
    void (*packet)(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                   sqlnet_dir_t dir, guint8 type, guint32 tns_len, guint16 data_flags);
    /* The payload of a DATA packet that is no handshake data (deferred
     * connect, redirect or refuse data): the transports tell ANO, encrypted,
     * compressed and TTC apart (transport_data_dissect, transport/data.c). */
    void (*data)(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                 sqlnet_dir_t dir, guint32 tns_len, guint16 data_flags);
    /* The ACCEPT, a MARKER, a DATA packet without payload (not EOF): the
     * TTC stream's response accounting (ttc_note_packet). */
    void (*note_packet)(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                        guint8 type, guint32 tns_len, guint16 data_flags, gboolean is_ano);
    /* Every TCP segment (or TLS plaintext) handed to sqlnet, before its TNS
     * packets; seglen 0 when unknown (ttc_note_segment). */
    void (*note_segment)(packet_info *pinfo, sqlnet_session_t *sess, guint32 seglen);
    /* A TTC function code the TTC layer knows (a DATA packet that starts
     * with a call tells the server side without a handshake). */
    gboolean (*is_function)(guint8 code);
    /* That content corrected the server side (ttc_sides_changed). */
    void (*sides_changed)(sqlnet_session_t *sess);
    /* A TNS packet TCP reassembled from several segments (metrics_note_multi_segment). */
    void (*multi_segment)(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 tns_len);
    /* The transports' generated per-packet facts of the conversation, first
     * in the summary (ano_add_session_summary). */
    void (*session_summary)(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                            const sqlnet_session_t *sess);
    /* The dissector of a conversation whose first payload is a TLS
     * ClientHello (sqlnet_tls_watch_handle); NULL: TLS's own. */
    dissector_handle_t (*tls_watch)(void);
} tns_hooks_t;

/* Fields of the TNS layer; `hooks` (static, kept) reaches the layers above. */
void tns_register(int proto, const tns_hooks_t *hooks);

/* How the payload of a DATA packet the transports do not decode is shown:
 * sqlnet.data.payload (TTC not active yet), sqlnet.data.encrypted, sqlnet.data.compressed. */
typedef enum {
    TNS_PAYLOAD_RAW,
    TNS_PAYLOAD_ENCRYPTED,
    TNS_PAYLOAD_COMPRESSED
} tns_payload_kind_t;
void tns_add_undecoded_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                               tns_payload_kind_t kind);

/* TCP entry point: reassembles TNS packets and dissects each. */
int tns_dissect_tcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data);
/* Handles of the protocols a conversation on an Oracle port may carry instead. */
void tns_handoff(void);

/* Heuristic test: does the segment start with a TNS CONNECT or ACCEPT? */
gboolean tns_looks_like_handshake(tvbuff_t *tvb, packet_info *pinfo);

#endif /* SQLNET_TNS_H */
