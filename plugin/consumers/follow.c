/* follow.c - a SQL*Net conversation as a transcript: Wireshark's follow
 * stream API (epan/follow.h) with the "sqlnet" tap.  Each round trip the
 * tap publishes becomes two records: the client's call (its frame, time,
 * call, statement text or rows asked, binds sent) and the server's answer
 * (rows, TNS packets, response time, the ORA error and its message).  The
 * first record of a stream carries a header: tcp.stream, TNS version, SDU
 * and TDU as negotiated.  Text from rt_text.c, numbers from the record.
 *
 * Where it shows: tshark -z follow,sqlnet,ascii,N (4.0, 4.4, 4.6; N is
 * tcp.stream) and, from 4.4 on, Analyze > Follow > SQL*Net Stream (4.0's
 * Follow menu lists only the built-in protocols).
 *
 * Bind values and row values are not in the round-trip record: the
 * transcript counts the bind values sent (sqlnet.rt.bind_values) and the
 * rows; FOLLOW_VALUES_HOOK marks where the values go once the record
 * carries them (shown only when sqlnet.show_bind_values is on).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>
#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/follow.h>
#include <epan/addr_resolv.h>
#include <epan/to_str.h>
#include <epan/conversation.h>
#include <epan/dissectors/packet-tcp.h>

#include "compat.h"
#include "sqlnet.h"
#include "sqlnet_rt.h"
#include "rt_text.h"
#include "follow.h"

static int proto_tcp_id = -1;

/* "[    0.017588] " : seconds since the first packet, as the Time column. */
static void
stamp(GString *s, packet_info *pinfo, nstime_t t)
{
    nstime_t first, rel;

    nstime_delta(&first, &pinfo->abs_ts, &pinfo->rel_ts);
    nstime_delta(&rel, &t, &first);
    g_string_append_printf(s, "[%13.6f] ", nstime_to_sec(&rel));
}

static void
record_add(follow_info_t *fi, gboolean is_server, guint32 frame, nstime_t ts, GString *text)
{
    follow_record_t *rec = g_new0(follow_record_t, 1);

    rec->is_server = is_server;
    rec->packet_num = frame;
    rec->abs_ts = ts;
    rec->data = g_byte_array_sized_new((guint)text->len);
    g_byte_array_append(rec->data, (const guint8 *)text->str, (guint)text->len);
    fi->bytes_written[is_server ? 1 : 0] += (guint)text->len;
    fi->payload = g_list_prepend(fi->payload, rec);
}

static void
request_text(GString *s, const sqlnet_rt_t *rt, packet_info *pinfo)
{
    char *req = rt_text_request(rt, 0), *group = rt_text_group(rt);

    stamp(s, pinfo, rt->req->last_time);
    g_string_append_printf(s, "%s\n", req);
    g_string_append_printf(s, "    (%s, frame %u)\n", group, rt->req->frame);
    if (rt->req->call.bind_values)
        g_string_append_printf(s, "    binds: %u values sent\n", rt->req->call.bind_values);
    /* FOLLOW_VALUES_HOOK: bind values here, when the record carries them
     * and sqlnet_prefs()->show_bind_values is on. */
    g_free(req);
    g_free(group);
}

static void
response_text(GString *s, const sqlnet_rt_t *rt, packet_info *pinfo)
{
    char *resp = rt_text_response(rt);

    stamp(s, pinfo, rt->resp->last_time);
    g_string_append_printf(s, "%s\n", resp);
    if (sqlnet_rt_has_ora_error(rt) && rt->resp->ora_message && *rt->resp->ora_message)
        g_string_append_printf(s, "    %s\n", rt->resp->ora_message);
    /* FOLLOW_VALUES_HOOK: row values here, when the record carries them. */
    g_free(resp);
}

static tap_packet_status
follow_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data, tap_flags_t flags _U_)
{
    follow_info_t *fi = (follow_info_t *)tapdata;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)data;
    GString *s;

    if (!fi || !rt || !rt->resp)
        return TAP_PACKET_DONT_REDRAW;
    if (fi->client_port == 0 && fi->server_port == 0) {
        /* published on a packet of the response: the server sent it */
        copy_address(&fi->server_ip, &pinfo->src);
        fi->server_port = pinfo->srcport;
        copy_address(&fi->client_ip, &pinfo->dst);
        fi->client_port = pinfo->destport;
    }
    s = g_string_new(NULL);
    if (fi->bytes_written[0] == 0 && fi->bytes_written[1] == 0) {
        g_string_append_printf(s, "SQL*Net conversation, tcp.stream %u", rt->tcp_stream);
        if (rt->negotiated)
            g_string_append_printf(s, ", TNS version %u, SDU %u, TDU %u", rt->negotiated_version,
                                   rt->negotiated_sdu, rt->negotiated_tdu);
        g_string_append(s, "\n");
    }
    if (rt->req) {
        request_text(s, rt, pinfo);
        record_add(fi, FALSE, rt->req->frame, rt->req->last_time, s);
        g_string_truncate(s, 0);
    }
    response_text(s, rt, pinfo);
    record_add(fi, TRUE, pinfo->num, pinfo->abs_ts, s);
    g_string_free(s, TRUE);
    return TAP_PACKET_REDRAW;
}

/* tcp.stream of the packet's conversation, if TCP saw it. */
static gboolean
packet_stream(packet_info *pinfo, guint *stream)
{
    conversation_t *conv = find_conversation_pinfo(pinfo, 0);
    const struct tcp_analysis *tcpd;

    if (proto_tcp_id <= 0)
        proto_tcp_id = proto_get_id_by_filter_name("tcp");
    if (!conv || proto_tcp_id <= 0)
        return FALSE;
    tcpd = (const struct tcp_analysis *)conversation_get_proto_data(conv, proto_tcp_id);
    if (!tcpd)
        return FALSE;
    *stream = tcpd->stream;
    return TRUE;
}

static gchar *
follow_conv_filter(epan_dissect_t *edt _U_, packet_info *pinfo, guint *stream, guint *sub_stream _U_)
{
    if (!proto_is_frame_protocol(pinfo->layers, SQLNET_FILTER) || !packet_stream(pinfo, stream))
        return NULL;
    return g_strdup_printf(SQLNET_FILTER " && tcp.stream eq %u", *stream);
}

static gchar *
follow_index_filter(guint stream, guint sub_stream _U_)
{
    return g_strdup_printf(SQLNET_FILTER " && tcp.stream eq %u", stream);
}

static gchar *
follow_address_filter(address *src_addr, address *dst_addr, int src_port, int dst_port)
{
    const char *ip = src_addr->type == AT_IPv6 ? "ipv6" : "ip";
    char *src = address_to_str(NULL, src_addr), *dst = address_to_str(NULL, dst_addr);
    gchar *f = g_strdup_printf(SQLNET_FILTER " && ((%s.src eq %s && tcp.srcport eq %d && %s.dst eq %s && "
                               "tcp.dstport eq %d) || (%s.src eq %s && tcp.srcport eq %d && %s.dst eq %s && "
                               "tcp.dstport eq %d))",
                               ip, src, src_port, ip, dst, dst_port, ip, dst, dst_port, ip, src, src_port);
    wmem_free(NULL, src);
    wmem_free(NULL, dst);
    return f;
}

static gchar *
follow_port_to_display(wmem_allocator_t *allocator, guint port)
{
    return wmem_strdup_printf(allocator, "%u", port);
}

#if SQLNET_FOLLOW_HAS_STREAM_COUNT
static uint32_t
follow_stream_count(void)
{
    return get_tcp_stream_count();
}
#else
#define follow_stream_count NULL
#endif

void
follow_register(int proto)
{
    SQLNET_REGISTER_FOLLOW_STREAM(proto, SQLNET_TAP_NAME, follow_conv_filter, follow_index_filter,
                                  follow_address_filter, follow_port_to_display, follow_packet, follow_stream_count);
}
