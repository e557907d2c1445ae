/* plugin.c - the Wireshark plugin entry points for sqlnet.
 *
 * Wireshark loads plugins/<release>/epan/sqlnet.so and calls plugin_register();
 * the protocol and its handoffs are registered here (sqlnet_register() /
 * sqlnet_handoff()), the preferences by core/prefs.c, the fields of each
 * layer by that layer's own register function (tns.c, ano.c, ttc_stream.c,
 * metrics.c, stats.c).
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
#include "stmt_table.h"
#include "flow.h"
#include "follow.h"
#include "conv.h"
#include "conv_table.h"
#include "native_table.h"

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = SQLNET_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

/* The -z reports and tap windows (the tap plugin). */
static void
register_taps(void)
{
    stats_register_taps();
    conv_register_taps();
}

/* The end of a dissection: the GUI tables' turn (native_table.c: the
 * statement and conversation tables). */
static void
tables_dissect_cleanup(epan_dissect_t *edt)
{
    sqlnet_tables_dissect_cleanup(edt);
}

/* An epan plugin's other steps (Wireshark calls every one: none may be NULL). */
static void epan_step_none(void) { }
static void epan_edt_none(epan_dissect_t *edt _U_) { }
static void epan_register_none(register_cb cb _U_, gpointer client_data _U_) { }

void
plugin_register(void)
{
    static proto_plugin plug;

    static tap_plugin tap_plug;
    /* the end of a dissection (retap, tshark's pass): the statement table's
     * rows are written then (consumers/stmt_table.c) */
    static const epan_plugin epan_plug = {
        .init = epan_step_none,
        .post_init = epan_step_none,
        .dissect_init = epan_edt_none,
        .dissect_cleanup = tables_dissect_cleanup,
        .cleanup = epan_step_none,
        .register_all_protocols = epan_register_none,
        .register_all_handoffs = epan_register_none,
        .register_all_tap_listeners = epan_step_none,
    };

    plug.register_protoinfo = sqlnet_register;
    plug.register_handoff = sqlnet_handoff;
    proto_register_plugin(&plug);
    tap_plug.register_tap_listener = register_taps;
    tap_register_plugin(&tap_plug);
    epan_register_plugin(&epan_plug);
}

/* From 4.2: what kind of plugin this is (nothing on older releases). */
SQLNET_PLUGIN_DESCRIBE(WS_PLUGIN_DESC_DISSECTOR)

/* ---- protocol, preferences, handoff ------------------------------------ */

#include <epan/conversation.h>

#include "tns.h"
#include "ano.h"
#include "ttc.h"
#include "ttc_decoders.h"
#include "metrics.h"
#include "timing.h"
#include "estimate.h"
#include "tls.h"
#include "nne.h"
#include "expert_gate.h"
#include "data.h"

static int proto_sqlnet = -1;
static dissector_handle_t sqlnet_tcp_handle;

/* ---- the layers wired together ------------------------------------------
 * A lower layer reaches a higher one only through the functions given here. */

/* A DATA packet that starts with a call of a known function code comes from
 * the client (tns.c's server side from the content). */
static gboolean
ttc_is_function_code(guint8 code)
{
    return try_val_to_str(code, ttc_function_vals) != NULL;
}

/* Every DATA and MARKER packet: nne.c's estimate; the Follow transcript
 * keeps the tree's items while its listener runs (follow.c). */
static void
data_packet_begin(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, sqlnet_session_t *sess,
                  sqlnet_dir_t dir, guint8 type, guint32 tns_len, guint16 data_flags)
{
    follow_packet_begin(pinfo, tree);
    nne_est_packet(tvb, pinfo, tree, sess, dir, type, tns_len, data_flags);
}

/* Every TNS packet, its tree complete: the transports' summary; what the
 * Follow transcript reads of it (follow.c). */
static void
packet_summary(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, const sqlnet_session_t *sess)
{
    ano_add_session_summary(tvb, pinfo, tree, sess);
    follow_packet_end(tvb, pinfo, tree, (sqlnet_session_t *)sess);
}

/* framing -> transports, TTC stream, consumers */
static const tns_hooks_t tns_hooks = {
    .packet = data_packet_begin,
    .data = transport_data_dissect,
    .note_packet = ttc_note_packet,
    .note_segment = ttc_note_segment,
    .is_function = ttc_is_function_code,
    .sides_changed = ttc_sides_changed,
    .multi_segment = metrics_note_multi_segment,
    .session_summary = packet_summary,
    .tls_watch = sqlnet_tls_watch_handle,
};

/* transports -> TTC stream, consumers */
/* The TTC stream's observer: timing hears of packets and ended responses. */
static const ttc_observer_t timing_observer = {
    .packet = timing_note_packet,
    .response_closed = timing_close_response,
};

static const transport_data_hooks_t data_hooks = {
    .note_packet = ttc_note_packet,
    .ttc = ttc_dissect_payload,
    .summary = metrics_add_summary,
};

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
    proto_sqlnet = proto_register_protocol(SQLNET_PROTO_NAME, SQLNET_PROTO_SHORT, SQLNET_FILTER);
    register_init_routine(sqlnet_expert_gate_init);
    tns_register(proto_sqlnet, &tns_hooks);
    transport_data_register(&data_hooks);
    ano_register(proto_sqlnet);
    ttc_set_decoders(&ttc_decoder_ops);
    ttc_register(proto_sqlnet);
    ttc_decoders_register(proto_sqlnet);
    ttc_set_observer(&timing_observer);
    metrics_register(proto_sqlnet);
    timing_register(proto_sqlnet);
    stats_register(proto_sqlnet);
    stmt_table_register();
    conv_table_register();
    flow_register(proto_sqlnet);
    follow_register(proto_sqlnet);
    sqlnet_est_register();
    sqlnet_tls_register(proto_sqlnet);
    nne_register(proto_sqlnet);

    sqlnet_tcp_handle = register_dissector(SQLNET_FILTER, tns_dissect_tcp, proto_sqlnet);

    sqlnet_prefs_register(proto_sqlnet, sqlnet_tls_prefs_apply);
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
    sqlnet_prefs_handoff();
}
