/* flow.c - the "SQL*Net" flow type of Statistics > Flow Graph (and
 * tshark -z flow,sqlnet,standard|network[,filter]): one arrow per request
 * and one per response of every round trip the "sqlnet" tap publishes.
 *
 *   client -> server  "OALL8 SELECT ..." / "OFETCH 10 rows"   (the request's frame)
 *   server -> client  "10 rows, 2 pkts, 1.234 ms" / "ORA-01722, ..."
 *
 * Labels come from rt_text.c (the round-trip record's numbers).  The
 * comment column groups the round trips: "exec 3 sql <SQL_ID> rt 17"; the
 * arrows of one execution share a colour (conv_num = execution).
 *
 * Wireshark's sequence analysis API (register_seq_analysis, the item and
 * info structures) is exported by libwireshark in 4.0, 4.4 and 4.6 but its
 * header, epan/sequence_analysis.h, is not installed with the development
 * files.  The declarations below are the leading members of those
 * structures as each release lays them out (gboolean flags in 4.0, bool
 * from 4.2 on; the members after `dst_node` are never touched).  Every item
 * is made by Wireshark's own sequence_analysis_create_sai_with_addresses()
 * and checked against the packet's addresses before it is used: a layout
 * that does not match adds no arrow rather than a wrong one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>
#include <glib.h>

#include <epan/packet.h>
#include <epan/tap.h>
#include <epan/address.h>
#include <epan/timestamp.h>

#include "compat.h"
#include "sqlnet_rt.h"
#include "rt_text.h"
#include "flow.h"

typedef sqlnet_seq_bool_t flow_bool_t;

/* The leading members of seq_analysis_item_t (epan/sequence_analysis.h). */
typedef struct {
    guint32 frame_number;
    address src_addr;
    guint16 port_src;
    address dst_addr;
    guint16 port_dst;
    char *frame_label;           /* above the arrow */
    char *time_str;
    char *comment;               /* the column right of the graph */
    guint16 conv_num;            /* colour */
    unsigned fg_color, bg_color;
    flow_bool_t has_color_filter;
    flow_bool_t display;
    unsigned src_node, dst_node;
    guint16 line_style;
} flow_item_t;

/* The leading members of seq_analysis_info_t. */
typedef struct {
    const char *name;
    flow_bool_t any_addr;
    int nconv;
    GQueue *items;
} flow_info_t;

/* exported by libwireshark, declared in the uninstalled header */
WS_DLL_PUBLIC void register_seq_analysis(const char *name, const char *ui_name, const int proto_id,
                                         const char *tap_listener, guint tap_flags, tap_packet_cb tap_func);
WS_DLL_PUBLIC flow_item_t *sequence_analysis_create_sai_with_addresses(packet_info *pinfo, flow_info_t *sainfo);

#define FLOW_SQL_MAX 60          /* characters of statement text on an arrow */

/* The item Wireshark made for this packet, if its layout is the one above. */
static flow_item_t *
item_new(packet_info *pinfo, flow_info_t *sainfo)
{
    flow_item_t *sai = sequence_analysis_create_sai_with_addresses(pinfo, sainfo);

    if (!sai)
        return NULL;
    if (!sai->time_str ||
        !(addresses_equal(&sai->src_addr, &pinfo->net_src) || addresses_equal(&sai->src_addr, &pinfo->src)) ||
        !(addresses_equal(&sai->dst_addr, &pinfo->net_dst) || addresses_equal(&sai->dst_addr, &pinfo->dst))) {
        /* not the layout this plugin was built for: add nothing (the item
         * itself freed; what its unknown members hold is not touched) */
        g_free(sai);
        return NULL;
    }
    return sai;
}

/* A time as the Flow Graph's Time column shows it by default: seconds since
 * the first packet (since the epoch when the time format is epoch); the
 * request's arrow is made on the response's packet, so both arrows' times
 * are computed here rather than formatted by Wireshark from their frames. */
static char *
time_text(packet_info *pinfo, nstime_t t)
{
    nstime_t first, rel;

    if (timestamp_get_type() == TS_EPOCH)
        return g_strdup_printf("%.6f", nstime_to_sec(&t));
    nstime_delta(&first, &pinfo->abs_ts, &pinfo->rel_ts);
    nstime_delta(&rel, &t, &first);
    return g_strdup_printf("%.6f", nstime_to_sec(&rel));
}

static void
item_fill(flow_item_t *sai, guint32 frame, guint16 sport, guint16 dport, char *label, char *comment,
          guint32 group)
{
    sai->frame_number = frame;
    sai->port_src = sport;
    sai->port_dst = dport;
    sai->frame_label = label;
    sai->comment = comment;
    sai->conv_num = (guint16)(group & 0xFFFF);
    sai->line_style = 1;
    sai->display = TRUE;
}

static tap_packet_status
flow_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt _U_, const void *data, tap_flags_t flags _U_)
{
    flow_info_t *sainfo = (flow_info_t *)tapdata;
    const sqlnet_rt_t *rt = (const sqlnet_rt_t *)data;
    flow_item_t *resp, *req = NULL;
    char *group;

    if (!sainfo || !rt || !rt->resp)
        return TAP_PACKET_DONT_REDRAW;
    /* published on a packet of the response: server -> client */
    resp = item_new(pinfo, sainfo);
    if (!resp)
        return TAP_PACKET_DONT_REDRAW;
    group = rt_text_group(rt);
    if (rt->req && rt->req->frame != 0 && rt->req->frame != pinfo->num) {
        req = item_new(pinfo, sainfo);
        if (req) {
            address tmp;
            /* the same endpoints the other way round */
            tmp = req->src_addr;
            req->src_addr = req->dst_addr;
            req->dst_addr = tmp;
            g_free(req->time_str);
            req->time_str = time_text(pinfo, ttc_req_last_time(rt->req));
            item_fill(req, rt->req->frame, (guint16)pinfo->destport, (guint16)pinfo->srcport,
                      rt_text_request(rt, FLOW_SQL_MAX), g_strdup(group), sqlnet_rt_execution(rt));
        }
    }
    /* both arrows' times alike (the request's frame is not at hand here) */
    g_free(resp->time_str);
    resp->time_str = time_text(pinfo, pinfo->abs_ts);
    item_fill(resp, pinfo->num, (guint16)pinfo->srcport, (guint16)pinfo->destport, rt_text_response(rt), group,
              sqlnet_rt_execution(rt));
    if (req)
        g_queue_push_tail(sainfo->items, req);
    g_queue_push_tail(sainfo->items, resp);
    return TAP_PACKET_REDRAW;
}

void
flow_register(int proto)
{
    register_seq_analysis("sqlnet", "SQL*Net", proto, "sqlnet", TL_REQUIRES_NOTHING, flow_packet);
}
