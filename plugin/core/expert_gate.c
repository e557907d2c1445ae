/* expert_gate.c - whether an expert info added now changes anything
 * (expert_gate.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/tap.h>
#include <epan/column-utils.h>

#include "expert_gate.h"

/* Set when a capture is opened, from Wireshark's registries (read only
 * afterwards, like a field's id). */
static int expert_tap_id = 0;
static int expert_proto_id = -1;

void
sqlnet_expert_gate_init(void)
{
    expert_proto_id = proto_get_id_by_filter_name("_ws.expert");
    expert_tap_id = find_tap_id("expert");
}

int
sqlnet_expert_proto(void)
{
    return expert_proto_id;
}

const int *
sqlnet_expert_severity_of(const ei_register_info *ei, gsize n, const expert_field *which)
{
    gsize i;

    for (i = 0; i < n; i++)
        if (ei[i].ids == which)
            return &ei[i].eiinfo.severity;
    return NULL;
}

gboolean
sqlnet_expert_listened(packet_info *pinfo)
{
    return expert_tap_id <= 0 || have_tap_listener(expert_tap_id) ||
           (pinfo->cinfo && col_get_writable(pinfo->cinfo, COL_EXPERT));
}

gboolean
sqlnet_expert_wanted(packet_info *pinfo, proto_item *pi, const int *severity)
{
    /* expert.c, expert_set_info_vformat(): an item gets the info's subtree
     * and flags; else only the column, the tap and the highest severity */
    if (pi != NULL || sqlnet_expert_listened(pinfo))
        return TRUE;
    return !severity || expert_get_highest_severity() < *severity;
}

proto_item *
sqlnet_expert_item(proto_item *pi, const expert_field *ei)
{
    if (pi == NULL || PTREE_DATA(pi)->visible || expert_proto_id < 0)
        return pi;
    if (proto_field_is_referenced(pi, expert_proto_id) || (ei->hf > 0 && proto_field_is_referenced(pi, ei->hf)))
        return pi;
    return NULL;
}
