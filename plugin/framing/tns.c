/* tns.c - the TNS packet layer of Oracle Net.
 *
 * Framing: every TNS packet starts with an 8-byte header.  CONNECT, ACCEPT,
 * REFUSE, REDIRECT and RESEND always carry a 16-bit length.  After an ACCEPT
 * with version >= 315 every other packet, in both directions, carries a
 * 32-bit length.  The width is therefore taken from the conversation's
 * handshake, never guessed per packet; only when the handshake is not in
 * the capture is it decided once, from the headers, and flagged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/exceptions.h>
#include <epan/expert.h>
#include <epan/dissectors/packet-tcp.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "coltext.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"


/* What tns_dissect_tcp() hands its two callbacks through tcp_dissect_pdus():
 * TCP's data for the segment and the session it looked up (one lookup per
 * call, not one per callback), and what get_tns_pdu_len() found of the
 * header it read last.  tcp_dissect_pdus() calls the dissector for a PDU
 * right after the length callback read that PDU's header, nothing between
 * them, so the dissector takes the header's facts from there instead of
 * working them out again (`have_hdr`: set by the length callback, taken by
 * the dissector). */
typedef struct {
    const struct tcpinfo *tcpi;
    sqlnet_session_t *sess;
    guint width;                      /* the header's length-field width (tns_width) */
    gboolean hdr_valid;               /* tns_header_valid() of it */
    gboolean have_hdr;
} tns_pdus_data_t;

static guint
get_tns_pdu_len(packet_info *pinfo, tvbuff_t *tvb, int offset, void *data)
{
    tns_pdus_data_t *pd = (tns_pdus_data_t *)data;
    sqlnet_session_t *sess = pd->sess;
    guint width;

    pd->have_hdr = FALSE;
    note_handshake_side(sess, pinfo, tvb, offset);
    width = tns_width(sess, pinfo, tvb, offset);
    pd->width = width;
    pd->hdr_valid = tns_header_valid(tvb, offset, width);
    pd->have_hdr = TRUE;

    /* Not at a packet boundary or a corrupt header: take the rest of the
     * segment as one undecodable chunk so that the next segment starts afresh
     * instead of waiting for a bogus length to be reassembled. */
    if (!pd->hdr_valid) {
        /* Skip to the next certain header in the segment, else to its end. */
        int next = next_certain_header(sess, pinfo, tvb, offset);
        if (next >= offset + TNS_HDR_LEN)   /* a PDU shorter than a header is "malformed" to TCP */
            return (guint)(next - offset);
        return (guint)tvb_reported_length_remaining(tvb, offset);
    }
    return tns_read_length(tvb, offset, width) + dd_data_length(tvb, offset, width);
}


/* An item without an expert info of its own: in a shown tree, or in a
 * hidden one when referenced (else Wireshark fakes it, for about 200
 * instructions); none without a tree. */
static gboolean
item_wanted(proto_tree *tree, int hf)
{
    return tree && proto_field_is_referenced(tree, hf);
}

/* A bitmask's items (the header field, its subtree, one item and one piece
 * of label per bit) in a shown tree, or in a hidden one (custom columns, a
 * filter, -T fields) when the field or one of its bits is referenced; else
 * its value alone.  Per packet (filters change between passes). */
static gboolean
bitmask_wanted(proto_tree *tree, int hf, int * const *bits)
{
    if (!tree)
        return FALSE;
    if (proto_field_is_referenced(tree, hf))     /* TRUE in a shown tree */
        return TRUE;
    for (; *bits; bits++)
        if (proto_field_is_referenced(tree, **bits))
            return TRUE;
    return FALSE;
}

static void
dissect_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
             sqlnet_session_t *sess, sqlnet_dir_t dir, guint32 len)
{
    guint32 payload_len;
    guint64 dflags = 0;
    proto_item *pi;
    tvbuff_t *payload;
    tns_pdu_first_t *first;
    gboolean connect_data;

    if (!FITS(TNS_DATA_HDR_LEN, 0, len)) {
        proto_tree_add_expert_format(tree, pinfo, &ei_short_packet, tvb, 0, len,
                                     "DATA packet without data flags");
        return;
    }
    if (bitmask_wanted(tree, hf_data_flags, data_flags_bits))
        proto_tree_add_bitmask_ret_uint64(tree, tvb, 8, hf_data_flags, ett_data_flags,
                                          data_flags_bits, ENC_BIG_ENDIAN, &dflags);
    else
        dflags = tvb_get_ntohs(tvb, 8);  /* what the bitmask reads (and throws) without its items */
    tns_layer_hooks->packet(tvb, pinfo, tree, sess, dir, TNS_TYPE_DATA, len, (guint16)dflags);
    payload_len = len - TNS_DATA_HDR_LEN;
    pi = NULL;
    if (tree) {
        pi = proto_tree_add_uint(tree, hf_data_len, tvb, TNS_DATA_HDR_LEN, payload_len, payload_len);
        proto_item_set_generated(pi);
    }

    if (dflags & TNS_DF_EOF)
        expert_add_info(pinfo, pi, &ei_eof);

    if (dflags & TNS_DF_EOF)
        sqlnet_col_append(pinfo, " EOF");
    if (dflags & TNS_DF_END_OF_RESPONSE)
        sqlnet_col_append(pinfo, dir == SQLNET_TO_CLIENT ? " end-of-response" : " end-of-request");

    if (payload_len == 0) {
        if (!(dflags & TNS_DF_EOF))
            tns_layer_hooks->note_packet(pinfo, sess, dir, TNS_TYPE_DATA, len, (guint16)dflags, FALSE);
        return;
    }
    payload = tvb_new_subset_length(tvb, TNS_DATA_HDR_LEN, payload_len);

    /* Connect descriptor longer than 230 bytes: sent after the CONNECT (a
     * later pass: as the first pass saw it, tns_pdu_first()). */
    first = tns_pdu_first(sess, pinfo, tvb, 0);
    if (!PINFO_FD_VISITED(pinfo) || !first) {
        connect_data = dir == SQLNET_TO_SERVER && sess->connect_data_deferred && sess->connect_frame &&
                       pinfo->num >= sess->connect_frame &&
                       (sess->accept_frame == 0 || pinfo->num < sess->accept_frame);
        if (first)
            first->connect_data = connect_data;
    } else {
        connect_data = first->connect_data;
    }
    if (connect_data) {
        add_connect_data(tree, payload, 0, payload_len, pinfo);
        sqlnet_col_append(pinfo, " (connect data)");
        return;
    }
    if (dir == SQLNET_TO_CLIENT && dissect_deferred_listener_data(payload, pinfo, tree, sess, payload_len))
        return;
    tns_layer_hooks->data(payload, pinfo, tree, sess, dir, len, (guint16)dflags);
}

void
tns_add_undecoded_payload(tvbuff_t *payload, packet_info *pinfo, proto_tree *tree,
                          tns_payload_kind_t kind)
{
    guint32 payload_len = tvb_reported_length(payload);
    proto_item *pi;

    switch (kind) {
    case TNS_PAYLOAD_ENCRYPTED:
        pi = proto_tree_add_item(tree, hf_data_encrypted, payload, 0, payload_len, ENC_NA);
        expert_add_info(pinfo, pi, &ei_encrypted);
        sqlnet_col_append(pinfo, " (encrypted)");
        break;
    case TNS_PAYLOAD_COMPRESSED:
        pi = proto_tree_add_item(tree, hf_data_compressed, payload, 0, payload_len, ENC_NA);
        expert_add_info(pinfo, pi, &ei_compressed);
        sqlnet_col_append(pinfo, " (compressed)");
        break;
    case TNS_PAYLOAD_RAW:
    default:
        proto_tree_add_item(tree, hf_data_payload, payload, 0, payload_len, ENC_NA);
        break;
    }
}

/* Generated per-packet facts from the conversation. */
static void
add_session_summary(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                    const sqlnet_session_t *sess, guint32 len)
{
    proto_item *pi;

    tns_layer_hooks->session_summary(tvb, pinfo, tree, sess);
    if (!session_negotiated(sess, pinfo))
        return;
    if (item_wanted(tree, hf_version)) {
        pi = proto_tree_add_uint(tree, hf_version, tvb, 0, 0, sess->version);
        proto_item_set_generated(pi);
    }
    /* 0: the capture cut the ACCEPT before its SDU/TDU fields */
    if (sess->sdu && item_wanted(tree, hf_sdu)) {
        pi = proto_tree_add_uint(tree, hf_sdu, tvb, 0, 0, sess->sdu);
        proto_item_set_generated(pi);
    }
    if (sess->tdu && item_wanted(tree, hf_tdu)) {
        pi = proto_tree_add_uint(tree, hf_tdu, tvb, 0, 0, sess->tdu);
        proto_item_set_generated(pi);
    }
    if (sess->sdu > 0) {
        pi = proto_tree_add_double(tree, hf_sdu_fill, tvb, 0, 0, 100.0 * len / sess->sdu);
        proto_item_set_generated(pi);
        if (len > sess->sdu && !session_frame_is(pinfo, sess->accept_frame, sess->accept_off))
            expert_add_info(pinfo, pi, &ei_exceeds_sdu);   /* sqlnet.length, sqlnet.sdu */
    }
}

/* 100 * num / den rounded like printf("%.0f", 100.0 * num / den): to the
 * nearest integer, ties to even (the quotient is exact in a double here). */
static guint32
percent_rounded(guint32 num, guint32 den)
{
    guint64 n = (guint64)num * 100u;
    guint64 q = n / den, r2 = (n % den) * 2u;
    if (r2 > den || (r2 == den && (q & 1u)))
        q++;
    return (guint32)q;
}

static int
dissect_tns_pdu_body(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    tns_pdus_data_t *pd = (tns_pdus_data_t *)data;
    const struct tcpinfo *tcpi = pd->tcpi;
    sqlnet_session_t *sess = pd->sess;
    sqlnet_dir_t dir;
    guint width;
    gboolean hdr_valid;

    /* The header's facts as get_tns_pdu_len() found them reading the same
     * bytes.  The sides again when this PDU is shorter than what
     * note_handshake_side() reads (12 bytes): the segment's bytes after it
     * were in view there, this PDU's end is here. */
    if (pd->have_hdr) {
        pd->have_hdr = FALSE;
        if (tvb_captured_length(tvb) < TNS_HDR_LEN + 4)
            note_handshake_side(sess, pinfo, tvb, 0);
        width = pd->width;
        hdr_valid = pd->hdr_valid;
    } else {
        note_handshake_side(sess, pinfo, tvb, 0);
        width = tns_width(sess, pinfo, tvb, 0);
        hdr_valid = tns_header_valid(tvb, 0, width);
    }
    dir = session_direction(sess, pinfo);
    guint32 len = tvb_reported_length(tvb);
    guint8 type;
    const char *type_name;
    proto_item *ti, *pi;
    proto_tree *tns_tree;

    ti = tree ? proto_tree_add_item(tree, proto_tns_layer, tvb, 0, -1, ENC_NA) : NULL;
    tns_tree = proto_item_add_subtree(ti, ett_tns);
    if (item_wanted(tns_tree, hf_direction)) {
        pi = proto_tree_add_uint(tns_tree, hf_direction, tvb, 0, 0, dir == SQLNET_TO_CLIENT);
        proto_item_set_generated(pi);
    }

    claim_columns(pinfo);
    sqlnet_col_append_sep(pinfo, " | ", dir == SQLNET_TO_SERVER ? "C\u2192S" : "S\u2192C");

    if (!hdr_valid) {
        pi = proto_tree_add_item(tns_tree, hf_unsync, tvb, 0, -1, ENC_NA);
        if (width == 0)
            expert_add_info(pinfo, pi, &ei_unsync);       /* bytes skipped: the item's length */
        else
            expert_add_info(pinfo, pi, &ei_bad_header);
        sqlnet_col_append(pinfo, " [not a TNS header]");
        return tvb_captured_length(tvb);
    }

    type = tvb_get_uint8(tvb, 4);
    if (type == TNS_TYPE_DD)   /* the PDU holds the data that follows the descriptor too */
        len = MIN(len, tns_read_length(tvb, 0, width));
    if (tcpi && tcpi->is_reassembled)
        tns_layer_hooks->multi_segment(pinfo, sess, dir, len);
    type_name = try_val_to_str(type, tns_type_vals);    /* no copy of a known name */
    if (!type_name)
        type_name = sqlnet_val_to_str(pinfo->pool, type, tns_type_vals, "type %u");
    proto_item_append_text(ti, ", %s", type_name);
    /* One column call per packet, integer arithmetic and no printf: this runs
     * for every TNS packet of the capture (see bench/); none in a pass
     * without columns (tshark -q, a tap's pass). */
    if (pinfo->cinfo) {
        sqlnet_coltext_t info;
        coltext_init(&info);
        coltext_str(&info, " ");
        coltext_str(&info, type_name);
        if (type != TNS_TYPE_CONNECT && type != TNS_TYPE_ACCEPT) {
            coltext_str(&info, " len ");
            coltext_uint(&info, len);
            if (session_negotiated(sess, pinfo) && sess->sdu) {
                coltext_str(&info, "/");
                coltext_uint(&info, sess->sdu);
                coltext_str(&info, " (");
                coltext_uint(&info, percent_rounded(len, sess->sdu));
                coltext_str(&info, "%)");
            }
        }
        sqlnet_col_append(pinfo, info.buf);
    }

    pi = NULL;
    if (tns_tree) {
        if (item_wanted(tns_tree, hf_length))
            proto_tree_add_item(tns_tree, hf_length, tvb, 0, width == 4 ? 4 : 2, ENC_BIG_ENDIAN);
        if (width != 4 && item_wanted(tns_tree, hf_packet_checksum))
            proto_tree_add_item(tns_tree, hf_packet_checksum, tvb, 2, 2, ENC_BIG_ENDIAN);
        pi = proto_tree_add_uint(tns_tree, hf_length_width, tvb, 0, width, width);
        proto_item_set_generated(pi);
    }
    if (sess->guessed_width && session_frame_is(pinfo, sess->guess_frame, sess->guess_off))
        expert_add_info(pinfo, pi, &ei_framing_guessed);   /* the width: sqlnet.length_width */
    if (item_wanted(tns_tree, hf_type))
        proto_tree_add_item(tns_tree, hf_type, tvb, 4, 1, ENC_NA);
    if (bitmask_wanted(tns_tree, hf_flags, flags_bits))
        proto_tree_add_bitmask(tns_tree, tvb, 5, hf_flags, ett_flags, flags_bits, ENC_NA);
    if (item_wanted(tns_tree, hf_header_checksum))
        proto_tree_add_item(tns_tree, hf_header_checksum, tvb, 6, 2, ENC_BIG_ENDIAN);
    /* what the header's items check (and throw) in the order they check it:
     * a no-op after them, the same exception without them */
    tvb_ensure_bytes_exist(tvb, 0, TNS_HDR_LEN);

    switch (type) {
    case TNS_TYPE_CONNECT:  dissect_connect(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_ACCEPT:   dissect_accept(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_REFUSE:   dissect_refuse(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_REDIRECT: dissect_redirect(tvb, pinfo, tns_tree, sess, len); break;
    case TNS_TYPE_DATA:     dissect_data(tvb, pinfo, tns_tree, sess, dir, len); break;
    case TNS_TYPE_MARKER:   dissect_marker(tvb, pinfo, tns_tree, len, sess, dir); break;
    case TNS_TYPE_CONTROL:  dissect_control(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_ABORT:    dissect_abort(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_RESEND:   dissect_resend(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_ATTENTION: dissect_attention(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_DD:       dissect_dd(tvb, pinfo, tns_tree, len); break;
    case TNS_TYPE_NULL:
    case TNS_TYPE_ACK:      dissect_header_only(tvb, pinfo, tns_tree, len); break;
    default:
        if (len > TNS_HDR_LEN)
            proto_tree_add_item(tns_tree, hf_raw, tvb, TNS_HDR_LEN, len - TNS_HDR_LEN, ENC_NA);
        break;
    }

    add_session_summary(tvb, pinfo, tns_tree, sess, len);
    return tvb_captured_length(tvb);
}

/* One TNS packet; its Info-column text goes to the column in one append
 * (coltext.h), also when an exception leaves it: before tcp_dissect_pdus()
 * adds "[Malformed Packet]". */
static int
dissect_tns_pdu(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    volatile int ret = 0;             /* (set inside TRY: volatile for longjmp) */

    if (!pinfo->cinfo)                 /* no columns: nothing to hold (tshark -q, a tap's pass) */
        return dissect_tns_pdu_body(tvb, pinfo, tree, data);
    sqlnet_col_hold(pinfo);
    TRY {
        ret = dissect_tns_pdu_body(tvb, pinfo, tree, data);
    }
    FINALLY {
        sqlnet_col_release(pinfo);
    }
    ENDTRY;
    return ret;
}


int
tns_dissect_tcp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    const struct tcpinfo *tcpi = (const struct tcpinfo *)data;
    sqlnet_session_t *sess = session_get(pinfo);
    tns_pdus_data_t pdus;
    guint32 skip;
    int foreign;

    foreign = foreign_protocol(tvb, pinfo, sess);
    if (foreign >= 0)
        return foreign;
    /* a server segment: a response's segments, with its payload length
     * (unknown here when TCP hands over a reassembled PDU or TLS its
     * plaintext, tcpi NULL: the tcp tap listener gives it) */
    tns_layer_hooks->note_segment(pinfo, sess, tcpi && !tcpi->is_reassembled ? tvb_reported_length(tvb) : 0);
    skip = cut_continuation(sess, pinfo, tvb, tcpi);
    if (skip > 0) {
        /* the bytes that were captured of it: the snaplen cut this segment too */
        gint shown = (gint)MIN(skip, tvb_captured_length(tvb));
        proto_item *ti;
        proto_tree *t;
        claim_columns(pinfo);
        sqlnet_col_append(pinfo, "[continuation of a TNS packet cut by the snaplen]");
        ti = proto_tree_add_item(tree, proto_tns_layer, tvb, 0, shown, ENC_NA);
        t = proto_item_add_subtree(ti, ett_tns);
        proto_tree_add_item(t, hf_cut_continuation, tvb, 0, shown, ENC_NA);
        if (skip >= tvb_reported_length(tvb))
            return tvb_captured_length(tvb);
    }
    skip += stray_bytes(sess, pinfo, tvb, tree, skip);
    if (skip >= tvb_reported_length(tvb))
        return tvb_captured_length(tvb);
    /* before the PDUs: dissecting a cut one ends in an exception */
    note_cut_packet(sess, pinfo, tvb, tcpi, skip);
    pdus.tcpi = tcpi;
    pdus.sess = sess;
    pdus.have_hdr = FALSE;
    tcp_dissect_pdus(skip ? tvb_new_subset_remaining(tvb, skip) : tvb, pinfo, tree,
                     sqlnet_prefs()->desegment, TNS_HDR_LEN, get_tns_pdu_len, dissect_tns_pdu, &pdus);
    return tvb_captured_length(tvb);
}

gboolean
tns_looks_like_handshake(tvbuff_t *tvb, packet_info *pinfo _U_)
{
    guint16 len, version;
    guint8 type;

    if (tvb_captured_length(tvb) < 24)
        return FALSE;
    len = tvb_get_ntohs(tvb, 0);
    type = tvb_get_uint8(tvb, 4);
    version = tvb_get_ntohs(tvb, 8);
    if (tvb_get_ntohs(tvb, 2) != 0 || tvb_get_ntohs(tvb, 6) != 0)
        return FALSE;
    if (!TNS_VERSION_PLAUSIBLE(version))
        return FALSE;
    if (type == TNS_TYPE_CONNECT) {
        guint16 compat, dlen, doff, sdu;
        /* every offset read below is within the 28 bytes checked here */
        if (tvb_captured_length(tvb) < 28)
            return FALSE;
        compat = tvb_get_ntohs(tvb, 10);
        sdu = tvb_get_ntohs(tvb, 14);
        dlen = tvb_get_ntohs(tvb, 24);
        if (len < 34 || compat > version || compat < 200 || sdu < 256)
            return FALSE;
        doff = tvb_get_ntohs(tvb, 26);
        if (doff < 28 || doff > len)
            return FALSE;
        if (dlen > 0 && doff + dlen <= len && tvb_captured_length(tvb) > doff)
            return tvb_get_uint8(tvb, doff) == '(';
        return TRUE;
    }
    if (type == TNS_TYPE_ACCEPT)
        return len >= 24 && tvb_get_ntohs(tvb, 20) <= len;
    return FALSE;
}
