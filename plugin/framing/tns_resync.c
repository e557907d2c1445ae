/* tns_resync.c - resynchronisation: a TNS header beyond doubt, the
 * byte-wise search for the next one inside a segment that does not start with
 * a header, and the stray bytes before it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"
#include "coltext.h"

/* A header no payload byte sequence is likely to imitate (8 captured bytes
 * at off): valid type and length for the conversation's width, zero
 * checksums, length within the negotiated SDU. */
gboolean
tns_header_certain(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int off)
{
    guint8 type = tvb_get_uint8(tvb, off + 4);
    guint width = tns_width_from_session(sess, pinfo, type);
    guint32 len;

    if (width == 0)
        width = sess->guessed_width;
    if (!tns_header_valid(tvb, off, width) || tvb_get_ntohs(tvb, off + 6) != 0)
        return FALSE;
    if (width == 2 && tvb_get_ntohs(tvb, off + 2) != 0)
        return FALSE;
    len = tns_read_length(tvb, off, width);
    return !sess->sdu || len <= MAX(sess->sdu, 65535u);
}

/* Bytes the byte-wise resynchronisation below may scan in one dissection of
 * one frame, over all its calls.  TCP hands the rest of a segment over again
 * after each PDU, so a segment of headers that are certain but lead nowhere
 * (a crafted one: a header every 11 bytes, each announcing 768 bytes) was
 * scanned once per PDU, quadratic in the segment (fuzz/slow/
 * stray-scan-quadratic.in: 78 KB took 3 s).  1 MiB covers the longest
 * stretch of bytes before a header in any real capture (a capture that starts
 * mid-packet: at most one SDU, 2 MiB only with the largest SDU, then the
 * next segment starts afresh).  Per dissection (packet scope), so a frame
 * decodes the same every time it is dissected. */
#define TNS_RESYNC_BUDGET (1u << 20)

static guint32 *
resync_budget(packet_info *pinfo)
{
    guint32 *left = (guint32 *)p_get_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_RESYNC);

    if (!left) {
        left = wmem_new(pinfo->pool, guint32);
        *left = TNS_RESYNC_BUDGET;
        p_add_proto_data(pinfo->pool, pinfo, proto_tns_layer, SQLNET_KEY_RESYNC, left);
    }
    return left;
}

/* Byte-wise resynchronisation inside a segment that does not start with a
 * TNS header (a stray byte before a RESEND, say): the first later offset
 * with a header beyond doubt whose packet ends at the segment's end, runs
 * past it, or is followed by another such header.  Bounded by the captured
 * bytes of the segment and by the frame's budget; -1 when there is none. */
int
next_certain_header(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    int captured = (int)tvb_captured_length(tvb), end = (int)tvb_reported_length(tvb);
    guint32 *left = resync_budget(pinfo);
    const guint8 *p;
    int k, stop;

    if (offset + 1 + TNS_HDR_LEN > captured || *left == 0)
        return -1;
    /* one flat copy of the bytes scanned (a reassembled PDU is a composite
     * tvb, where a byte read walks its parts) */
    stop = captured - TNS_HDR_LEN;
    if ((guint32)(stop - offset) > *left)
        stop = offset + (int)*left;
    *left -= (guint32)(stop - offset);
    p = tvb_get_ptr(tvb, offset, stop + TNS_HDR_LEN - offset) - offset;
    for (k = offset + 1; k <= stop; k++) {
        guint width;
        guint32 len;
        /* A certain header has a zero checksum (bytes 6 and 7): a non-zero
         * byte at k + 7 rules out k and k + 1, one at k + 6 rules out k.
         * The same offsets as testing tns_header_certain() at each, with a
         * read or two per offset instead of a header's worth (this scan
         * ran over whole 64 KB segments: half the fuzz harness's time on
         * inputs of 64-256 KiB). */
        if (p[k + 7] != 0) {
            k++;
            continue;
        }
        if (p[k + 6] != 0 || !tns_header_certain(sess, pinfo, tvb, k))
            continue;
        width = tns_width_from_session(sess, pinfo, p[k + 4]);
        if (width == 0)
            width = sess->guessed_width;
        len = tns_read_length(tvb, k, width);
        if ((guint32)(end - k) <= len)
            return k;                  /* ends here or continues in the next segment */
        if (k + (int)len + TNS_HDR_LEN <= captured && tns_header_certain(sess, pinfo, tvb, k + (int)len))
            return k;                  /* and another header follows it */
    }
    return -1;
}

/* Bytes at `off` (the start of what TCP handed over) that come before a
 * header beyond doubt further on: a stray byte before a RESEND, say.  Shown
 * and skipped here, since tcp_dissect_pdus cannot take a PDU shorter than a
 * TNS header; 0 when the data starts with a valid header or none follows. */
guint32
stray_bytes(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, proto_tree *tree, guint32 off)
{
    guint width;
    int next;
    proto_item *ti, *pi;
    proto_tree *t;

    if (tvb_captured_length_remaining(tvb, off) < TNS_HDR_LEN)
        return 0;
    width = tns_width_from_session(sess, pinfo, tvb_get_uint8(tvb, off + 4));
    if (width == 0)
        width = sess->guessed_width;
    if (width == 0 || tns_header_valid(tvb, off, width))
        return 0;
    next = next_certain_header(sess, pinfo, tvb, (int)off);
    if (next <= (int)off)
        return 0;
    ti = proto_tree_add_item(tree, proto_tns_layer, tvb, off, next - (int)off, ENC_NA);
    t = proto_item_add_subtree(ti, ett_tns);
    pi = proto_tree_add_item(t, hf_unsync, tvb, off, next - (int)off, ENC_NA);
    expert_add_info_format(pinfo, pi, &ei_bad_header,
                           "Invalid TNS header: stray bytes before a TNS header skipped");
    claim_columns(pinfo);
    sqlnet_col_append(pinfo, "[stray bytes]");
    return (guint32)(next - (int)off);
}
