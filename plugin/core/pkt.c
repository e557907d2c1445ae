/* pkt.c - sqlnet's per-frame packet-scope data (see pkt.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "pkt.h"

sqlnet_pkt_t *
sqlnet_pkt_find(packet_info *pinfo)
{
    return (sqlnet_pkt_t *)p_get_proto_data(pinfo->pool, pinfo, sqlnet_proto(), SQLNET_KEY_PACKET);
}

sqlnet_pkt_t *
sqlnet_pkt(packet_info *pinfo)
{
    sqlnet_pkt_t *p = sqlnet_pkt_find(pinfo);

    if (!p) {
        p = wmem_new0(pinfo->pool, sqlnet_pkt_t);
        p->col.len = G_MAXSIZE;
        p_add_proto_data(pinfo->pool, pinfo, sqlnet_proto(), SQLNET_KEY_PACKET, p);
    }
    return p;
}
