/* tns_snaplen.c - captures whose snaplen cut TNS packets short.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <stdlib.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "ttc_protocol.h"
#include "tns.h"
#include "tns_internal.h"

/* ---- snaplen-truncated captures ------------------------------------------
 *
 * TCP does not reassemble a segment the capture cut short, so the TNS packet
 * it starts is dissected as far as it was captured and the segments that
 * carry the rest of it arrive here as if they began a new packet.  The
 * sequence number where the next TNS packet begins is remembered per
 * direction, and the bytes before it are shown as a continuation instead of
 * being taken for a (bad) TNS header.  The verdict per frame is stored on the
 * first pass. */



/* Bytes at the start of this segment that continue a cut TNS packet. */
guint32
cut_continuation(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, const struct tcpinfo *tcpi)
{
    guint32 seglen = tvb_reported_length(tvb), skip = 0;
    sqlnet_dir_t dir;
    gint32 ahead;

    if (PINFO_FD_VISITED(pinfo))
        return GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT));
    if (!tcpi || !(sess->cut_pending[0] || sess->cut_pending[1]))
        return 0;
    dir = session_direction(sess, pinfo);
    if (!sess->cut_pending[dir])
        return 0;
    if (sess->cut_unknown[dir]) {
        /* The cut packet's length was not captured: continuation until a
         * segment starts with a header that is beyond doubt a TNS header. */
        if (tvb_captured_length(tvb) >= TNS_HDR_LEN && tns_header_certain(sess, pinfo, tvb, 0)) {
            sess->cut_pending[dir] = sess->cut_unknown[dir] = FALSE;
            return 0;
        }
        skip = seglen;
        p_add_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT, GUINT_TO_POINTER(skip));
        return skip;
    }
    ahead = (gint32)(sess->cut_next_seq[dir] - tcpi->seq);
    if (ahead <= 0) {
        sess->cut_pending[dir] = FALSE;        /* this segment starts a packet */
        return 0;
    }
    skip = MIN((guint32)ahead, seglen);
    if ((guint32)ahead <= seglen)
        sess->cut_pending[dir] = FALSE;
    p_add_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, SQLNET_KEY_CUT, GUINT_TO_POINTER(skip));
    return skip;
}

/* After the PDUs of a cut segment: does its last TNS packet go on beyond
 * the segment?  Walks the captured headers only (bounded by the segment). */
void
note_cut_packet(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, const struct tcpinfo *tcpi,
                guint32 skip)
{
    guint32 captured = tvb_captured_length(tvb), reported = tvb_reported_length(tvb);
    guint32 off = skip;
    sqlnet_dir_t dir;

    if (PINFO_FD_VISITED(pinfo) || !tcpi || captured >= reported)
        return;
    if (off + TNS_HDR_LEN <= captured)
        note_handshake_side(sess, pinfo, tvb, off);   /* a cut CONNECT/ACCEPT still tells the sides */
    dir = session_direction(sess, pinfo);
    while (off < reported) {
        guint width;
        guint32 plen;
        if (off + TNS_HDR_LEN > captured) {
            /* the next header was cut off: where its packet ends is unknown */
            sess->cut_pending[dir] = sess->cut_unknown[dir] = TRUE;
            return;
        }
        width = tns_width_from_session(sess, pinfo, tvb_get_uint8(tvb, off + 4));
        if (width == 0)
            width = sess->guessed_width;
        if (!tns_header_valid(tvb, off, width))
            return;
        plen = tns_read_length(tvb, off, width) + dd_data_length(tvb, (int)off, width);
        if (plen > reported - off) {
            sess->cut_next_seq[dir] = tcpi->seq + off + plen;
            sess->cut_pending[dir] = TRUE;
            sess->cut_unknown[dir] = FALSE;
            return;
        }
        off += plen;
    }
}
