/* plugin.c - the Wireshark plugin entry points for sqlnet.
 *
 * Wireshark loads plugins/<release>/epan/sqlnet.so and calls plugin_register();
 * the protocol, its preferences and handoffs are registered here
 * (sqlnet_register() / sqlnet_handoff()), the fields of each layer by that
 * layer's own register function (tns.c, ano.c, ttc_stream.c, metrics.c,
 * stats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/tap.h>

#include "compat.h"
#include "sqlnet.h"
#include "stats.h"

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = SQLNET_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void
plugin_register(void)
{
    static proto_plugin plug;

    static tap_plugin tap_plug;

    plug.register_protoinfo = sqlnet_register;
    plug.register_handoff = sqlnet_handoff;
    proto_register_plugin(&plug);
    tap_plug.register_tap_listener = stats_register_taps;
    tap_register_plugin(&tap_plug);
}

/* From 4.2: what kind of plugin this is (nothing on older releases). */
SQLNET_PLUGIN_DESCRIBE(WS_PLUGIN_DESC_DISSECTOR)

/* ---- protocol, preferences, handoff ------------------------------------ */

#include <epan/prefs.h>
#include <epan/conversation.h>

#include "tns.h"
#include "ano.h"
#include "ttc.h"
#include "metrics.h"
#include "timing.h"
#include "tls.h"
#include "nne.h"

static int proto_sqlnet = -1;
static dissector_handle_t sqlnet_tcp_handle;
static sqlnet_prefs_t sqlnet_pref_values = { TRUE, 50, 10000, TRUE };

int
sqlnet_proto(void)
{
    return proto_sqlnet;
}

const sqlnet_prefs_t *
sqlnet_prefs(void)
{
    return &sqlnet_pref_values;
}

gboolean
sqlnet_is_server_port(guint32 port)
{
    range_t *ports = prefs_get_range_value(SQLNET_FILTER, "tcp.port");
    return ports != NULL && value_is_in_range(ports, port);
}

/* TNS on a port outside the range: claim the conversation at its CONNECT. */
static sqlnet_heur_result_t
dissect_sqlnet_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    conversation_t *conv;

    if (!tns_looks_like_handshake(tvb, pinfo))
        return FALSE;
    conv = find_or_create_conversation(pinfo);
    conversation_set_dissector(conv, sqlnet_tcp_handle);
    tns_dissect_tcp(tvb, pinfo, tree, data);
    return TRUE;
}

void
sqlnet_register(void)
{
    module_t *module;

    proto_sqlnet = proto_register_protocol(SQLNET_PROTO_NAME, SQLNET_PROTO_SHORT, SQLNET_FILTER);
    tns_register(proto_sqlnet);
    ano_register(proto_sqlnet);
    ttc_register(proto_sqlnet);
    {
        /* the stream's observer: timing hears of packets and ended responses */
        static const ttc_observer_t timing_observer = { timing_note_packet, timing_close_response };
        ttc_set_observer(&timing_observer);
    }
    metrics_register(proto_sqlnet);
    timing_register(proto_sqlnet);
    stats_register(proto_sqlnet);
    sqlnet_tls_register(proto_sqlnet);
    nne_register(proto_sqlnet);

    sqlnet_tcp_handle = register_dissector(SQLNET_FILTER, tns_dissect_tcp, proto_sqlnet);

    module = prefs_register_protocol(proto_sqlnet, sqlnet_tls_prefs_apply);
    prefs_register_bool_preference(module, "desegment",
        "Reassemble TNS packets spanning multiple TCP segments",
        "Whether sqlnet should reassemble TNS packets that span several TCP segments. "
        "To use this option, you must also enable \"Allow subdissectors to reassemble "
        "TCP streams\" in the TCP protocol settings.",
        &sqlnet_pref_values.desegment);
    prefs_register_uint_preference(module, "small_fetch",
        "Small fetch size threshold",
        "Flag fetch calls that ask for fewer rows than this while the statement has more rows to come "
        "(the client's array size / fetch size is too small)",
        10, &sqlnet_pref_values.small_fetch);
    prefs_register_uint_preference(module, "max_cursors",
        "Cursors remembered per conversation",
        "Upper bound on the cursors (statement text, describe) kept per connection",
        10, &sqlnet_pref_values.max_cursors);
    prefs_register_bool_preference(module, "show_bind_values",
        "Show bind values",
        "Show the values an execute call binds (sqlnet.bind.value: text, numbers, dates ...). "
        "Turn off where the values are sensitive: the items are then not added (the bytes stay "
        "in the capture and in the call data).",
        &sqlnet_pref_values.show_bind_values);
    nne_register_prefs(module);
}

void
sqlnet_handoff(void)
{
    /* Registered after the built-in dissectors, so these ports are ours;
     * the built-in "tns" stays available through Decode As. */
    dissector_add_uint_range_with_preference("tcp.port", SQLNET_DEFAULT_PORTS, sqlnet_tcp_handle);
    heur_dissector_add("tcp", dissect_sqlnet_heur, "Oracle SQL*Net over TCP (handshake)",
                       "sqlnet_tcp", proto_sqlnet, HEURISTIC_ENABLE);
    tns_handoff();
    ttc_handoff();
    metrics_handoff();
    timing_handoff();
    sqlnet_tls_handoff();
}
