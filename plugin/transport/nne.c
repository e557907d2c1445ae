/* nne.c - native network encryption: round trips estimated from TNS packet sizes.
 *
 * After the ANO reply that switches native network encryption on (ano.c,
 * session_encrypted()), the payload of every DATA packet is encrypted and
 * TTC is not decoded.  The TNS headers stay in the clear, so the exchange
 * can still be followed: client DATA packets followed by server packets
 * (DATA and BREAK/RESET markers) up to the next client DATA packet are one
 * round trip; ANO packets after the reply (the client's Diffie-Hellman key,
 * go-ora and JDBC) are in the clear and no part of one.  Per round trip: the
 * client's DATA packets and TNS bytes, the server's TNS packets and TNS
 * bytes, an estimate of the TTC bytes inside the server's DATA payloads and
 * the response time (last client packet to last server packet).
 *
 * A response ends at a server DATA packet with the end-of-response data flag
 * (when the session negotiated it: the record is known at once, in a single
 * pass too) or else at the next client DATA packet (an EOF DATA packet, the
 * end of the session, ends it too).  The fields go on the server packet that
 * ends the response; when the next client packet was needed they show once
 * the first pass has seen it (a second pass: tshark -2, the GUI).  The round
 * trip in progress when the capture ends without another client packet and
 * without the flag is not counted.  Each round trip is queued on the
 * estimate tap (tls.h, kind SQLNET_EST_NNE), never on the "sqlnet" tap.
 *
 * The TTC-byte estimate follows go-ora's implementation of the algorithms
 * (network/data_packet.go, network/security/): the plaintext gets the
 * integrity hash appended when data integrity is on (MD5 16, SHA1 20,
 * SHA256 32, SHA384 48, SHA512 64 bytes), a block cipher pads it with zeros
 * to its block (AES 16, DES and 3DES 8 bytes) and appends one byte (the pad
 * count + 1; RC4 appends a zero byte), and every encrypted payload ends with
 * a one-byte "folding key".  The pad count byte is outside the cipher text,
 * so each DATA payload is counted as its length less those 2 bytes, the
 * hash and the padding that byte names: exact for a block cipher.  When the
 * byte is not captured or names no padding a block can have, half a block
 * is taken (the padding is 0 to block - 1 bytes: within half a block per
 * packet).  Stream ciphers (RC4) and unknown algorithms: the 2 bytes and the
 * hash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/conversation.h>
#include <epan/proto_data.h>
#include <epan/unit_strings.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "estimate.h"
#include "ano.h"
#include "nne.h"

static int proto_nne = -1;
static int hf_nest = -1;
static int hf_nest_round_trip = -1;
static int hf_nest_req_packets = -1;
static int hf_nest_req_bytes = -1;
static int hf_nest_packets = -1;
static int hf_nest_bytes = -1;
static int hf_nest_ttc_bytes = -1;
static int hf_nest_time = -1;
static gint ett_nest = -1;

/* the encryption's fixed bytes per DATA payload: the pad-count (RC4: zero)
 * byte and the folding key */
#define NNE_FIXED_OVERHEAD 2

typedef enum {
    NNE_IDLE,                   /* no request open */
    NNE_REQUEST,                /* client DATA packets of a request */
    NNE_RESPONSE                /* server packets answering it */
} nne_phase_t;

/* A round trip, stored under the frame of the server packet that ends it. */
typedef struct {
    sqlnet_est_rec_t rec;
    guint32 pkt_index;          /* that packet: the index-th TNS packet of the session in the frame */
} nne_end_t;

typedef struct nne_est {
    guint32 conv;                       /* conversation index */
    guint8  phase;                      /* nne_phase_t */
    guint32 round_trips;                /* closed round trips */
    sqlnet_est_rec_t cur;               /* the round trip in progress */
    nstime_t req_last_time, resp_last_time;
    guint32 resp_last_frame, resp_last_index;
    wmem_tree_t *by_frame;              /* frame of the last server packet -> nne_end_t */
    guint32 notice_frame;               /* the session's first encrypted packet */
    sqlnet_est_rec_t notice;            /* SQLNET_EST_NNE_UNDECODED, queued there in every pass */
} nne_est_t;

/* Cipher block size of an encryption algorithm id (ano.c's encryption_vals):
 * 0 for a stream cipher or an unknown id. */
static guint32
cipher_block(guint8 algorithm)
{
    switch (algorithm) {
    case 15: case 16: case 17:              /* AES128, AES192, AES256 */
        return 16;
    case 2: case 3: case 11: case 12:       /* DES56C, DES40C, 3DES112, 3DES168 */
        return 8;
    default:                                /* RC4_40/56/128/256: stream */
        return 0;
    }
}

/* Length of the integrity hash appended to the plaintext (ano.c's integrity_vals). */
static guint32
hash_length(guint8 algorithm)
{
    switch (algorithm) {
    case 1: return 16;                      /* MD5 */
    case 3: return 20;                      /* SHA1 */
    case 4: return 64;                      /* SHA512 */
    case 5: return 32;                      /* SHA256 */
    case 6: return 48;                      /* SHA384 */
    default: return 0;
    }
}

/* The TTC bytes of one encrypted DATA packet of tns_len bytes (tvb: the TNS
 * packet): its payload less the encryption's overhead. */
static guint32
ttc_estimate(tvbuff_t *tvb, const sqlnet_session_t *sess, packet_info *pinfo, guint32 tns_len)
{
    guint32 payload = tns_data_bytes(tns_len);
    guint32 block = cipher_block(sess->nne_algorithm);
    guint32 overhead = NNE_FIXED_OVERHEAD;

    if (block) {
        /* the pad count + 1, just before the folding key */
        guint32 pad_at = tns_len - NNE_FIXED_OVERHEAD;
        guint8 count = (tns_len >= TNS_DATA_HDR_LEN + NNE_FIXED_OVERHEAD && tvb_bytes_exist(tvb, pad_at, 1))
                       ? tvb_get_uint8(tvb, pad_at) : 0;
        overhead += (count >= 1 && count <= block) ? count - 1u : (block - 1) / 2;
    }

    if (session_integrity(sess, pinfo))
        overhead += hash_length(sess->integrity_algorithm);
    return payload > overhead ? payload - overhead : 0;
}

static void
add_estimate(tvbuff_t *tvb, proto_tree *tree, const sqlnet_est_rec_t *rec)
{
    proto_item *ti, *pi;
    proto_tree *t;

    if (!tree)
        return;
    ti = proto_tree_add_item(tree, hf_nest, tvb, 0, 0, ENC_NA);
    proto_item_set_generated(ti);
    t = proto_item_add_subtree(ti, ett_nest);
    proto_item_append_text(ti, ": round trip %u, %u packets, %u bytes", rec->round_trip,
                           rec->records, rec->bytes);
    pi = proto_tree_add_uint(t, hf_nest_round_trip, tvb, 0, 0, rec->round_trip);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_nest_req_packets, tvb, 0, 0, rec->req_records);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_nest_req_bytes, tvb, 0, 0, rec->req_bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_nest_packets, tvb, 0, 0, rec->records);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_nest_bytes, tvb, 0, 0, rec->bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_uint(t, hf_nest_ttc_bytes, tvb, 0, 0, rec->ttc_bytes);
    proto_item_set_generated(pi);
    pi = proto_tree_add_time(t, hf_nest_time, tvb, 0, 0, &rec->resp_time);
    proto_item_set_generated(pi);
}

/* First pass: the round trip in progress ends (at the packet resp_last_*);
 * queued on the estimate tap with this packet. */
static const nne_end_t *
close_round_trip(nne_est_t *e, packet_info *pinfo)
{
    nne_end_t *end = wmem_new(wmem_file_scope(), nne_end_t);

    e->round_trips++;
    end->rec = e->cur;
    end->rec.kind = SQLNET_EST_NNE;
    end->rec.conversation = e->conv;
    end->rec.round_trip = e->round_trips;
    nstime_delta(&end->rec.resp_time, &e->resp_last_time, &e->req_last_time);
    end->pkt_index = e->resp_last_index;
    wmem_tree_insert32(e->by_frame, e->resp_last_frame, end);
    tap_queue_packet(sqlnet_est_tap(), pinfo, &end->rec);
    memset(&e->cur, 0, sizeof(e->cur));
    e->phase = NNE_IDLE;
    return end;
}

/* The index of this TNS packet among the NNE session packets of the frame
 * (1, 2, ...): the same in every pass, it names the packet that ends a
 * response when its frame holds several. */
static guint32
packet_index(packet_info *pinfo)
{
    guint32 *n = (guint32 *)p_get_proto_data(pinfo->pool, pinfo, proto_nne, SQLNET_KEY_NNE_INDEX);

    if (!n) {
        n = wmem_new0(pinfo->pool, guint32);
        p_add_proto_data(pinfo->pool, pinfo, proto_nne, SQLNET_KEY_NNE_INDEX, n);
    }
    return ++*n;
}

void
nne_est_packet(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
               sqlnet_dir_t dir, guint8 type, guint32 tns_len, guint16 data_flags)
{
    nne_est_t *e;
    guint32 pkt_index;

    if (!session_encrypted(sess, pinfo) || (type != TNS_TYPE_DATA && type != TNS_TYPE_MARKER))
        return;
    /* ANO after the reply (go-ora's and JDBC's Diffie-Hellman public key) is
     * in the clear and not a call */
    if (type == TNS_TYPE_DATA && ano_is_ano_at(tvb, TNS_DATA_HDR_LEN))
        return;
    e = sess->nne_est;
    if (!e && !PINFO_FD_VISITED(pinfo)) {
        conversation_t *conv = find_conversation_pinfo(pinfo, 0);
        e = wmem_new0(wmem_file_scope(), nne_est_t);
        e->conv = conv ? conv->conv_index : 0;
        e->by_frame = wmem_tree_new(wmem_file_scope());
        e->notice_frame = pinfo->num;
        e->notice.kind = SQLNET_EST_NNE_UNDECODED;
        e->notice.conversation = e->conv;
        e->notice.port = (guint16)(dir == SQLNET_TO_SERVER ? pinfo->destport : pinfo->srcport);
        sess->nne_est = e;
    }
    /* what the reports cannot read, said once per session, estimate or not */
    if (e && e->notice_frame == pinfo->num &&
        !p_get_proto_data(pinfo->pool, pinfo, proto_nne, SQLNET_KEY_NNE_NOTICE)) {
        p_add_proto_data(pinfo->pool, pinfo, proto_nne, SQLNET_KEY_NNE_NOTICE, GUINT_TO_POINTER(1));
        tap_queue_packet(sqlnet_est_tap(), pinfo, &e->notice);
    }
    if (!sqlnet_prefs()->nne_estimate)
        return;
    pkt_index = packet_index(pinfo);
    if (PINFO_FD_VISITED(pinfo)) {
        const nne_end_t *end;
        if (!e)
            return;
        end = (const nne_end_t *)wmem_tree_lookup32(e->by_frame, pinfo->num);
        if (end && end->pkt_index == pkt_index) {
            add_estimate(tvb, tree, &end->rec);
            tap_queue_packet(sqlnet_est_tap(), pinfo, &end->rec);
        }
        return;
    }
    if (!e)
        return;
    if (dir == SQLNET_TO_SERVER) {
        /* a client marker answers a server break: the round trip goes on */
        if (type != TNS_TYPE_DATA)
            return;
        if (e->phase == NNE_RESPONSE)
            close_round_trip(e, pinfo);
        if (data_flags & TNS_DF_EOF) {        /* the end of the session: nothing asked */
            memset(&e->cur, 0, sizeof(e->cur));
            e->phase = NNE_IDLE;
            return;
        }
        e->phase = NNE_REQUEST;
        e->cur.req_records++;
        e->cur.req_bytes += tns_len;
        e->req_last_time = pinfo->abs_ts;
        return;
    }
    if (e->phase == NNE_IDLE)                 /* nothing asked: not an answer */
        return;
    e->phase = NNE_RESPONSE;
    e->cur.records++;
    e->cur.bytes += tns_len;
    e->cur.tns_bytes += tns_len;
    if (type == TNS_TYPE_DATA)
        e->cur.ttc_bytes += ttc_estimate(tvb, sess, pinfo, tns_len);
    e->resp_last_time = pinfo->abs_ts;
    e->resp_last_frame = pinfo->num;
    e->resp_last_index = pkt_index;
    if (type == TNS_TYPE_DATA && (data_flags & TNS_DF_END_OF_RESPONSE))
        add_estimate(tvb, tree, &close_round_trip(e, pinfo)->rec);
}

void
nne_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_nest, { "SQL*Net (encrypted, estimated from TNS packet sizes)", "sqlnet.nne_estimate",
            FT_NONE, BASE_NONE, NULL, 0x0,
            "A round trip of a session with native network encryption, estimated from the TNS "
            "packet headers: not decoded, never counted with decoded round trips; on the server "
            "packet that ends the response", HFILL } },
        { &hf_nest_round_trip, { "Round trip (estimated)", "sqlnet.nne_estimate.round_trip",
            FT_UINT32, BASE_DEC, NULL, 0x0,
            "Client DATA packets followed by server packets, after the ANO reply that switched "
            "encryption on", HFILL } },
        { &hf_nest_req_packets, { "Client packets", "sqlnet.nne_estimate.request_packets",
            FT_UINT32, BASE_DEC, NULL, 0x0, "TNS DATA packets of the request", HFILL } },
        { &hf_nest_req_bytes, { "Client TNS bytes", "sqlnet.nne_estimate.request_bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "TNS DATA packets of the request, headers included", HFILL } },
        { &hf_nest_packets, { "Server packets", "sqlnet.nne_estimate.packets",
            FT_UINT32, BASE_DEC, NULL, 0x0,
            "TNS packets of the response: DATA packets and BREAK/RESET markers", HFILL } },
        { &hf_nest_bytes, { "Server TNS bytes", "sqlnet.nne_estimate.bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "TNS packets of the response, headers included", HFILL } },
        { &hf_nest_ttc_bytes, { "TTC bytes (estimated)", "sqlnet.nne_estimate.ttc_bytes",
            FT_UINT32, BASE_DEC|BASE_UNIT_STRING, &units_byte_bytes, 0x0,
            "The response's DATA payloads less the encryption's overhead per packet: the "
            "integrity hash, the pad-count byte and folding key, and the padding the pad-count "
            "byte names (half a cipher block when it is not captured)",
            HFILL } },
        { &hf_nest_time, { "Response time (estimated)", "sqlnet.nne_estimate.time",
            FT_RELATIVE_TIME, BASE_NONE, NULL, 0x0,
            "Last client packet of the request to the last server packet of the response", HFILL } },
    };
    static gint *ett[] = { &ett_nest };

    proto_nne = proto;
    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}

gboolean
nne_estimate_enabled(void)
{
    return sqlnet_prefs()->nne_estimate;
}
