/* tls.c - SQL*Net inside TLS (TCPS).
 *
 * Wireshark's TLS dissector decrypts application data when it has the
 * session secrets (a key log file, or secrets embedded in the pcapng) and
 * hands the plaintext to the dissector registered for the server port in the
 * "tls.port" table, or first to the heuristics on "tls".  sqlnet takes both:
 * the TLS ports 1522 and 2484 (preference "TLS ports") and, on any port, a
 * TLS conversation whose first decrypted record starts with a TNS CONNECT.
 *
 * The plaintext goes through the same TNS framing as TCP (tns_dissect_tcp():
 * tcp_dissect_pdus() works on the decrypted stream, TLS reassembles a TNS
 * packet that spans records the way TCP does across segments) and the same
 * conversation (TLS keeps the TCP addresses and ports in pinfo), so every
 * field, tap and report works as over TCP.  What TLS passes as dissector data
 * (a pointer to its application handle in 4.0, a struct tlsinfo from 4.2) is
 * not TCP's tcpinfo: the TNS layer gets NULL, as for a segment without TCP
 * information.  The TCP tap that counts response segments sees the TCP
 * segments that carried the TLS records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>

#include "sqlnet.h"
#include "tns.h"
#include "tls.h"

#define SQLNET_TLS_DEFAULT_PORTS "1522,2484"

static int proto_sqlnet_tls = -1;
static dissector_handle_t sqlnet_tls_handle;

/* Decrypted application data of a TLS conversation sqlnet owns. */
static int
dissect_sqlnet_tls(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    return tns_dissect_tcp(tvb, pinfo, tree, NULL);
}

/* TLS application data on any port: a TNS CONNECT (or ACCEPT) claims the TLS
 * session, so that its later records come to sqlnet without the heuristic. */
static sqlnet_heur_result_t
dissect_sqlnet_tls_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    dissector_handle_t *app_handle = SQLNET_TLS_APP_HANDLE(data);

    if (!tns_looks_like_handshake(tvb, pinfo))
        return FALSE;
    if (app_handle)
        *app_handle = sqlnet_tls_handle;
    dissect_sqlnet_tls(tvb, pinfo, tree, NULL);
    return TRUE;
}

void
sqlnet_tls_register(int proto)
{
    proto_sqlnet_tls = proto;
    sqlnet_tls_handle = register_dissector(SQLNET_FILTER "_tls", dissect_sqlnet_tls, proto);
}

void
sqlnet_tls_handoff(void)
{
    dissector_add_uint_range_with_preference("tls.port", SQLNET_TLS_DEFAULT_PORTS, sqlnet_tls_handle);
    heur_dissector_add("tls", dissect_sqlnet_tls_heur, "Oracle SQL*Net over TLS (TNS CONNECT)",
                       "sqlnet_tls", proto_sqlnet_tls, HEURISTIC_ENABLE);
}
