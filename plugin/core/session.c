/* session.c - per-conversation state (see session.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/conversation.h>
#include <epan/proto_data.h>
#include <epan/dissectors/packet-tcp.h>

#include "sqlnet.h"
#include "session.h"
#include "pkt.h"

/* Per-packet cache of the session (pkt.h, packet scope): the TCP taps find
 * the session of the packet here (session_of_packet: a stream the taps saw
 * before its first TNS packet has none in their own cache), and TLS's
 * plaintext asks again; one conversation lookup per packet is enough.  The
 * ports tell the (rare) frames with two TCP layers apart. */

sqlnet_session_t *
session_get(packet_info *pinfo)
{
    sqlnet_pkt_t *c = sqlnet_pkt(pinfo);
    conversation_t *conv;
    sqlnet_session_t *sess;

    if (c->has_sess && c->srcport == pinfo->srcport && c->destport == pinfo->destport)
        return c->sess;
    conv = find_or_create_conversation(pinfo);
    sess = (sqlnet_session_t *)conversation_get_proto_data(conv, sqlnet_proto());
    if (!sess) {
        sess = wmem_new0(wmem_file_scope(), sqlnet_session_t);
        sess->conv = conv;
        conversation_add_proto_data(conv, sqlnet_proto(), sess);
    }
    c->sess = sess;
    c->srcport = pinfo->srcport;
    c->destport = pinfo->destport;
    c->has_sess = TRUE;
    return sess;
}

sqlnet_session_t *
session_of_packet(packet_info *pinfo, guint32 srcport, guint32 destport)
{
    const sqlnet_pkt_t *c = sqlnet_pkt_find(pinfo);

    if (c && c->has_sess && c->srcport == srcport && c->destport == destport)
        return c->sess;
    return NULL;
}

/* A listener's sessions by TCP stream (th_stream, dense from 0), in file
 * scope: NULL = not looked up yet, `no_session` = none when it was looked
 * up.  A "none" is replaced by the frame's cached session when sqlnet
 * dissected the frame, so a session made after it (its first payload comes
 * after the SYN, the ACK) is taken at the frame that made it, which the tap
 * sees before any later one of the stream; a stream's session, once found,
 * does not change (one TCP conversation, one session).  Forgotten with the
 * file scope (a second file, a redissection): the callback. */
struct sqlnet_tcp_tap_cache {
    protocol_t        *sqlnet;          /* proto_is_protocol_enabled() */
    sqlnet_session_t **by_stream;       /* file scope, n slots */
    guint32            n;
    sqlnet_session_t   no_session;      /* the marker's address only */
};

sqlnet_tcp_tap_cache_t *
session_tcp_tap_cache_new(void)
{
    sqlnet_tcp_tap_cache_t *c = wmem_new0(wmem_epan_scope(), sqlnet_tcp_tap_cache_t);
    c->sqlnet = find_protocol_by_id(sqlnet_proto());
    return c;
}

static sqlnet_wmem_cb_result_t
tap_cache_forget(wmem_allocator_t *allocator _U_, wmem_cb_event_t event _U_, void *user_data)
{
    sqlnet_tcp_tap_cache_t *c = (sqlnet_tcp_tap_cache_t *)user_data;
    c->by_stream = NULL;
    c->n = 0;
    return FALSE;                       /* once: registered again with the next file's array */
}

static sqlnet_session_t **
tap_cache_slot(sqlnet_tcp_tap_cache_t *c, guint32 stream)
{
    if (stream >= c->n) {
        guint32 n = c->n ? c->n : 64;
        while (n <= stream && n < G_MAXUINT32 / 2)
            n *= 2;
        if (n <= stream)
            return NULL;
        if (!c->by_stream)
            wmem_register_callback(wmem_file_scope(), tap_cache_forget, c);
        c->by_stream = (sqlnet_session_t **)wmem_realloc(wmem_file_scope(), c->by_stream, n * sizeof *c->by_stream);
        memset(c->by_stream + c->n, 0, (n - c->n) * sizeof *c->by_stream);
        c->n = n;
    }
    return &c->by_stream[stream];
}

sqlnet_session_t *
session_of_tcp_segment(packet_info *pinfo, const struct tcpheader *th, sqlnet_tcp_tap_cache_t *cache)
{
    sqlnet_session_t *sess, **slot;

    if (!proto_is_protocol_enabled(cache->sqlnet))
        return NULL;                    /* no session without the dissector */
    slot = tap_cache_slot(cache, th->th_stream);
    if (slot && *slot && *slot != &cache->no_session)
        sess = *slot;                   /* a stream's session does not change */
    else if ((sess = session_of_packet(pinfo, th->th_sport, th->th_dport)) != NULL) {
        if (slot)
            *slot = sess;
    } else if (slot && *slot) {
        sess = NULL;                    /* none when looked up, none made since */
    } else {
        conversation_t *conv = find_conversation(pinfo->num, &th->ip_src, &th->ip_dst, CONVERSATION_TCP,
                                                 th->th_sport, th->th_dport, 0);
        sess = conv ? (sqlnet_session_t *)conversation_get_proto_data(conv, sqlnet_proto()) : NULL;
        if (slot)
            *slot = sess ? sess : &cache->no_session;
    }
    if (!sess || !sess->ttc || !sess->srv_known)
        return NULL;
    return sess;
}

gboolean
session_set_server(sqlnet_session_t *sess, packet_info *pinfo, gboolean server_is_dst,
                   sqlnet_side_source_t source)
{
    gboolean changed;

    if (sess->srv_known && sess->srv_source >= (guint8)source)
        return FALSE;
    if (PINFO_FD_VISITED(pinfo) && sess->srv_known)
        return FALSE;
    changed = sess->srv_known &&
              (server_is_dst ? pinfo->destport != sess->srv_port || !addresses_equal(&pinfo->dst, &sess->srv_addr)
                             : pinfo->srcport != sess->srv_port || !addresses_equal(&pinfo->src, &sess->srv_addr));
    if (changed && source == SQLNET_SIDE_CONTENT) {
        /* Correcting a port guess: frames before this one keep it. */
        copy_address_wmem(wmem_file_scope(), &sess->srv_addr_before, &sess->srv_addr);
        sess->srv_port_before = sess->srv_port;
        sess->srv_since = pinfo->num;
    }
    sess->srv_source = (guint8)source;
    if (server_is_dst) {
        copy_address_wmem(wmem_file_scope(), &sess->srv_addr, &pinfo->dst);
        sess->srv_port = pinfo->destport;
    } else {
        copy_address_wmem(wmem_file_scope(), &sess->srv_addr, &pinfo->src);
        sess->srv_port = pinfo->srcport;
    }
    sess->srv_known = TRUE;
    return changed;
}

sqlnet_dir_t
session_direction(sqlnet_session_t *sess, packet_info *pinfo)
{
    if (!sess->srv_known) {
        /* No handshake seen yet: the listener port tells, else the lower port. */
        gboolean dst_is_server;
        if (sqlnet_is_server_port(pinfo->destport) != sqlnet_is_server_port(pinfo->srcport))
            dst_is_server = sqlnet_is_server_port(pinfo->destport);
        else
            dst_is_server = pinfo->destport < pinfo->srcport;
        session_set_server(sess, pinfo, dst_is_server, SQLNET_SIDE_PORTS);
    }
    if (sess->srv_since && pinfo->num < sess->srv_since)
        return pinfo->destport == sess->srv_port_before && addresses_equal(&pinfo->dst, &sess->srv_addr_before)
            ? SQLNET_TO_SERVER : SQLNET_TO_CLIENT;
    if (pinfo->destport == sess->srv_port && addresses_equal(&pinfo->dst, &sess->srv_addr))
        return SQLNET_TO_SERVER;
    return SQLNET_TO_CLIENT;
}

gboolean
session_frame_is(const packet_info *pinfo, guint32 num, gint64 off)
{
    return pinfo->num == num && pinfo->fd->file_off == off;
}

gboolean
session_frame_after(const packet_info *pinfo, guint32 num, gint64 off)
{
    return pinfo->num > num || (pinfo->num == num && pinfo->fd->file_off != off);
}

gboolean
session_negotiated(const sqlnet_session_t *sess, const packet_info *pinfo)
{
    return sess->accept_frame != 0 && pinfo->num >= sess->accept_frame;
}

gboolean
session_ttc_active(const sqlnet_session_t *sess, const packet_info *pinfo)
{
    if (sess->accept_frame)
        return session_frame_after(pinfo, sess->accept_frame, sess->accept_off);
    return sess->guessed_width && !sess->connect_frame && pinfo->num >= sess->guess_frame;
}

gboolean
session_encrypted(const sqlnet_session_t *sess, const packet_info *pinfo)
{
    return sess->nne_algorithm != 0 && session_frame_after(pinfo, sess->ano_reply_frame, sess->ano_reply_off);
}

gboolean
session_integrity(const sqlnet_session_t *sess, const packet_info *pinfo)
{
    return sess->integrity_algorithm != 0 && session_frame_after(pinfo, sess->ano_reply_frame, sess->ano_reply_off);
}
