/* tns_length.c - where a TNS packet ends: the width of the length
 * field (16 bits, or 32 after a version >= 315 ACCEPT; taken from the
 * conversation's handshake, never guessed per packet; only when the
 * handshake is not in the capture decided once, from the headers), the
 * length itself, and which side is the server.
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

static gboolean
tns_type_has_short_length(guint8 type)
{
    return type == TNS_TYPE_CONNECT || type == TNS_TYPE_ACCEPT ||
           type == TNS_TYPE_REFUSE || type == TNS_TYPE_REDIRECT ||
           type == TNS_TYPE_RESEND;
}

/* Length-field width fixed by the handshake for this packet, 0 if unknown. */
guint
tns_width_from_session(const sqlnet_session_t *sess, const packet_info *pinfo, guint8 type)
{
    if (tns_type_has_short_length(type))
        return 2;
    if (sess->accept_frame && session_frame_after(pinfo, sess->accept_frame, sess->accept_off))
        return sess->version >= TNS_VERSION_MIN_LARGE_SDU ? 4 : 2;
    if (sess->connect_frame && pinfo->num >= sess->connect_frame)
        return 2;           /* between CONNECT and ACCEPT: still 16-bit */
    if (sess->guessed_width && pinfo->num >= sess->guess_frame)
        return sess->guessed_width;
    return 0;
}

/* Width suggested by the header bytes alone (mid-stream capture), 0 if the
 * bytes do not look like a TNS header in either form. */
static guint
tns_width_from_header(tvbuff_t *tvb, int offset)
{
    guint16 hi = tvb_get_ntohs(tvb, offset);
    guint16 lo = tvb_get_ntohs(tvb, offset + 2);
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    guint32 len32 = ((guint32)hi << 16) | lo;
    gboolean ok16, ok32;

    if (type == 0 || type > TNS_TYPE_MAX || tvb_get_ntohs(tvb, offset + 6) != 0)
        return 0;
    ok16 = lo == 0 && hi >= TNS_HDR_LEN;
    ok32 = len32 >= TNS_HDR_LEN && len32 <= TNS_MAX_PACKET_LEN;
    if (ok16)   /* 16-bit form; a 32-bit packet of an exact multiple of 64 KiB is rarer */
        return 2;
    if (ok32)
        return 4;
    return 0;
}

guint32
tns_read_length(tvbuff_t *tvb, int offset, guint width)
{
    return width == 4 ? tvb_get_ntohl(tvb, offset) : tvb_get_ntohs(tvb, offset);
}

gboolean
tns_header_valid(tvbuff_t *tvb, int offset, guint width)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    guint32 len;

    if (width == 0 || type == 0 || type > TNS_TYPE_MAX)
        return FALSE;
    len = tns_read_length(tvb, offset, width);
    return len >= TNS_HDR_LEN && len <= TNS_MAX_PACKET_LEN;
}

/* What the first pass saw of the TNS packet at offset of tvb, kept for the
 * packets of the window in which the session's facts still change: after a
 * CONNECT, up to its ACCEPT.  A later CONNECT (after a RESEND) moves
 * connect_frame past the packets sent after the first one, and the ACCEPT
 * settles the width of the packets after it only; a later pass reads the
 * packet as the first did (its length-field width, and for a DATA packet
 * whether it carried the connect descriptor).  NULL outside that window, or
 * when the first pass kept nothing for the packet. */
tns_pdu_first_t *
tns_pdu_first(const sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    guint32 key;
    tns_pdu_first_t *rec;

    if (!sess->connect_frame ||
        (sess->accept_frame && session_frame_after(pinfo, sess->accept_frame, sess->accept_off)))
        return NULL;
    key = SQLNET_KEY_TNS_PDU((guint32)tvb_raw_offset(tvb) + (guint32)offset);
    rec = (tns_pdu_first_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, key);
    if (!rec && !PINFO_FD_VISITED(pinfo) && !sess->accept_frame) {
        rec = wmem_new0(wmem_file_scope(), tns_pdu_first_t);
        p_add_proto_data(wmem_file_scope(), pinfo, proto_tns_layer, key, rec);
    }
    return rec;
}

/* Width for the packet at offset: from the session, else decided once per
 * conversation from the headers (first pass only); a packet of the handshake
 * window gets the width its first pass gave it (tns_pdu_first). */
guint
tns_width(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    tns_pdu_first_t *first = tns_pdu_first(sess, pinfo, tvb, offset);
    guint width;

    if (first && first->width_known)
        return first->width;
    width = tns_width_from_session(sess, pinfo, type);
    if (width == 0 && !PINFO_FD_VISITED(pinfo)) {
        width = tns_width_from_header(tvb, offset);
        if (width) {
            sess->guessed_width = (guint8)width;
            sess->guess_frame = pinfo->num;
            sess->guess_off = pinfo->fd->file_off;
        }
    }
    if (first && !PINFO_FD_VISITED(pinfo)) {
        first->width = (guint8)width;
        first->width_known = TRUE;
    }
    return width;
}

/* A CONNECT is sent to the server, an ACCEPT by it: that settles which side
 * is the server before any direction is computed from the ports. */
void
note_handshake_side(sqlnet_session_t *sess, packet_info *pinfo, tvbuff_t *tvb, int offset)
{
    guint8 type = tvb_get_uint8(tvb, offset + 4);
    gboolean plausible = tvb_captured_length_remaining(tvb, offset) < 10 ||
                         TNS_VERSION_PLAUSIBLE(tvb_get_ntohs(tvb, offset + 8));
    if (type == TNS_TYPE_CONNECT && tvb_get_ntohs(tvb, offset + 2) == 0 && plausible)
        session_set_server(sess, pinfo, TRUE, SQLNET_SIDE_HANDSHAKE);
    else if (type == TNS_TYPE_ACCEPT && tvb_get_ntohs(tvb, offset + 2) == 0 && plausible)
        session_set_server(sess, pinfo, FALSE, SQLNET_SIDE_HANDSHAKE);
    else if (type == TNS_TYPE_DATA && sess->srv_source < SQLNET_SIDE_CONTENT && !PINFO_FD_VISITED(pinfo) &&
             tvb_captured_length_remaining(tvb, offset) >= TNS_HDR_LEN + 4 &&
             tvb_get_ntohs(tvb, offset + 6) == 0) {
        /* No handshake: a DATA packet whose TTC starts with a function call
         * (message 3, a known function code) or a piggyback (message 17,
         * a known function code) comes from the client, whatever the ports
         * say (Decode As on a port that is not a listener's). */
        guint8 msg = tvb_get_uint8(tvb, offset + TNS_HDR_LEN + 2);
        guint8 fn = tvb_get_uint8(tvb, offset + TNS_HDR_LEN + 3);
        if ((msg == TTC_MSG_FUNCTION || msg == TTC_MSG_PIGGYBACK) && fn != 0 &&
            tns_layer_hooks->is_function(fn) &&
            session_set_server(sess, pinfo, TRUE, SQLNET_SIDE_CONTENT))
            tns_layer_hooks->sides_changed(sess);
    }
}


/* A DATA DESCRIPTOR is followed on the stream by the data it describes,
 * without TNS headers (JDBC writeZeroCopyIO): its length, counted into the
 * descriptor's PDU, when the descriptor's header is captured and its total is
 * one a short descriptor can describe; 0 otherwise. */
guint32
dd_data_length(tvbuff_t *tvb, int offset, guint width)
{
    guint32 len, total;

    if (tvb_get_uint8(tvb, offset + 4) != TNS_TYPE_DD ||
        tvb_captured_length_remaining(tvb, offset) < TNS_DD_FIXED_LEN)
        return 0;
    len = tns_read_length(tvb, offset, width);
    if (len < TNS_DD_FIXED_LEN || !(tvb_get_ntohl(tvb, offset + 8) & TNS_DD_FLAG_SHORT))
        return 0;
    total = tvb_get_ntohl(tvb, offset + 12);
    return total <= TNS_DD_MAX_DATA ? total : 0;
}
