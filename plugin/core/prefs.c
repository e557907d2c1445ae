/* prefs.c - the protocol id and every sqlnet preference (see sqlnet.h).
 *
 * The bottom of the plugin: every layer reads the preferences here
 * (sqlnet_prefs()), none registers its own.  plugin.c registers the protocol
 * and hands its id to sqlnet_prefs_register(), which registers the
 * preferences module and the preferences in the order Wireshark shows them;
 * the port ranges ("tcp.port", "tls.port") come from the handoffs of
 * plugin.c and tls.c (dissector_add_uint_range_with_preference()), and
 * sqlnet.tls_estimate after them (sqlnet_prefs_handoff()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>
#include <epan/prefs.h>

#include "sqlnet.h"

static int proto_sqlnet = -1;
static sqlnet_prefs_t pref_values = {
    .desegment = TRUE,
    .small_fetch = 50,
    .max_cursors = 10000,
    .show_bind_values = TRUE,
    .nne_estimate = TRUE,
    .tls_estimate = TRUE,     /* on: it builds no tree (tls.c) */
};

int
sqlnet_proto(void)
{
    return proto_sqlnet;
}

const sqlnet_prefs_t *
sqlnet_prefs(void)
{
    return &pref_values;
}

gboolean
sqlnet_is_server_port(guint32 port)
{
    range_t *ports = prefs_get_range_value(SQLNET_FILTER, "tcp.port");
    return ports != NULL && value_is_in_range(ports, port);
}

void
sqlnet_prefs_register(int proto, void (*apply)(void))
{
    module_t *module;

    proto_sqlnet = proto;
    module = prefs_register_protocol(proto, apply);
    prefs_register_bool_preference(module, "desegment",
        "Reassemble TNS packets spanning multiple TCP segments",
        "Whether sqlnet should reassemble TNS packets that span several TCP segments. "
        "To use this option, you must also enable \"Allow subdissectors to reassemble "
        "TCP streams\" in the TCP protocol settings.",
        &pref_values.desegment);
    prefs_register_uint_preference(module, "small_fetch",
        "Small fetch size threshold",
        "Flag fetch calls that ask for fewer rows than this while the statement has more rows to come "
        "(the client's array size / fetch size is too small)",
        10, &pref_values.small_fetch);
    prefs_register_uint_preference(module, "max_cursors",
        "Cursors remembered per conversation",
        "Upper bound on the cursors (statement text, describe) kept per connection",
        10, &pref_values.max_cursors);
    prefs_register_bool_preference(module, "show_bind_values",
        "Show bind values",
        "Show the values an execute call binds (sqlnet.bind.value: text, numbers, dates ...) "
        "and the column values of rows (sqlnet.row.value). "
        "Turn off where the values are sensitive: the items are then not added (the bytes stay "
        "in the capture and in the call data).",
        &pref_values.show_bind_values);
    prefs_register_bool_preference(module, "nne_estimate",
        "Estimate round trips of natively encrypted sessions",
        "For a session with native network encryption (ANO), estimate round trips, bytes and "
        "response times from the TNS packet headers (shown apart from decoded round trips).",
        &pref_values.nne_estimate);
}

void
sqlnet_prefs_handoff(void)
{
    module_t *module = prefs_find_module(SQLNET_FILTER);

    if (!module)
        return;
    prefs_register_bool_preference(module, "tls_estimate",
        "Estimate TLS round trips without the secrets",
        "For a TLS conversation on a TLS port that cannot be decrypted, estimate round trips, "
        "bytes and response times from the TLS record headers (shown apart from decoded "
        "round trips). Read from the record headers the TLS port's conversations pass "
        "through sqlnet anyway: no protocol tree.",
        &pref_values.tls_estimate);
}
