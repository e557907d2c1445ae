/* ttc_dispatch.c - the TTC message decoders' two tables and the dispatch
 * through them: message types (their name and the decoder of their body
 * from either side) and function codes (their name, the decoder of a call's
 * body, of its return parameters and of its body as a piggyback).  The
 * decoders live with their message family (see ttc_msg.h); each table row
 * also names the function that registers its decoders' fields.
 *
 * A new function code is one decoder in its family's file and one row in
 * `functions` below (and its constant in ttc_protocol.h); a new message type
 * one row in `messages`.  Nothing else names them: the names shown in
 * sqlnet.func, sqlnet.call and sqlnet.ttc.msg come from these rows (the
 * stream gets them through ttc_decoder_ops at registration), and
 * ttc_decoders_register() registers the families the rows name.
 *
 * The family files never call this file (tests/test_no_recursion.py follows
 * the tables too); this file calls only the family decoders.
 *
 * A call is decoded as far as the facts this plugin reports (function,
 * cursor, rows asked for, SQL text, options, bind metadata); bind values
 * are shown as call data, not walked.  Authentication shows the user and
 * key names, never secret values.  Layouts follow
 * ../shared/docs/tns-wire-format.md section 5 and the open clients named in
 * each family's file.  Every decoder reads through a ttc_rd_t, so a message
 * cut by a TNS packet boundary is reported as incomplete, never misread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static int hf_func = -1;
static int hf_seq = -1;
static int hf_piggyback = -1;

static gint ett_call = -1;
static gint ett_msg = -1;

/* One message type. */
typedef struct ttc_message {
    const char *name;          /* sqlnet.ttc.msg */
    ttc_msg_fn client;         /* its body from the client; NULL: not a client message */
    ttc_msg_fn server;         /* its body from the server; NULL: not a server message */
    void (*reg)(int proto);    /* registers the fields its decoders add; NULL: none */
} ttc_message_t;

/* One function code. */
typedef struct ttc_function {
    const char *name;          /* sqlnet.func, sqlnet.piggyback, sqlnet.call */
    ttc_call_fn call;          /* the call's body (message 3) after its header; NULL: the
                                * call is named and its body shown as call data */
    ttc_rpa_fn rpa;            /* its return parameters (message 8); NULL: not decoded */
    ttc_pb_fn piggyback;       /* its body as a piggyback (message 17); NULL: the next call
                                * header is searched for instead */
    gboolean after_piggyback;  /* a call a client sends after piggybacks: the search after
                                * a piggyback not walked looks for its header */
    void (*reg)(int proto);    /* registers the fields its decoders add; NULL: none */
} ttc_function_t;

/* Messages this file decodes itself (their body is a dispatch). */
static void msg_function(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void msg_piggyback(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void msg_parameters(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void client_flush_out_binds(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void msg_flush_out_binds(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void msg_end_of_response(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void msg_token(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
static void call_empty(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* Message types by their type byte.  Fast authentication (34) has no
 * decoder here: it wraps other client messages (decode_fast_auth). */
static const ttc_message_t messages[256] = {
    [TTC_MSG_PROTOCOL]           = { "Protocol negotiation (PRO)", ttc_msg_protocol_request,
                                     ttc_msg_protocol_reply, ttc_negotiate_register },
    [TTC_MSG_DATA_TYPES]         = { "Data type negotiation (DTY)", ttc_msg_data_types_request,
                                     ttc_msg_data_types_reply, ttc_negotiate_register },
    [TTC_MSG_FUNCTION]           = { "Function call", msg_function, NULL, NULL },
    [TTC_MSG_ERROR]              = { "End of call / error (OER)", NULL, ttc_msg_error, ttc_oer_register },
    [TTC_MSG_ACCESS_USER_SPACE]  = { "Access user address space", NULL, NULL, NULL },
    [TTC_MSG_ROW_HEADER]         = { "Row header (RXH)", NULL, ttc_msg_row_header, ttc_rows_register },
    [TTC_MSG_ROW_DATA]           = { "Row data (RXD)", NULL, ttc_msg_row_data, ttc_rows_register },
    [TTC_MSG_PARAMETER]          = { "Return parameters (RPA)", NULL, msg_parameters, NULL },
    [TTC_MSG_STATUS]             = { "Status (STA)", NULL, ttc_msg_status, ttc_oer_register },
    [TTC_MSG_IO_VECTOR]          = { "I/O vector", NULL, ttc_msg_io_vector, ttc_execute_register },
    [TTC_MSG_LOB_DATA]           = { "LOB data", NULL, ttc_msg_lob_data, ttc_lob_register },
    [TTC_MSG_WARNING]            = { "Warning", NULL, ttc_msg_warning, ttc_oer_register },
    [TTC_MSG_DESCRIBE_INFO]      = { "Describe information (DCB)", NULL, ttc_msg_describe,
                                     ttc_describe_register },
    [TTC_MSG_PIGGYBACK]          = { "Piggybacked call", msg_piggyback, NULL, ttc_piggyback_register },
    [TTC_MSG_FLUSH_OUT_BINDS]    = { "Flush out binds", client_flush_out_binds, msg_flush_out_binds, NULL },
    [TTC_MSG_BIT_VECTOR]         = { "Bit vector (BVC)", NULL, ttc_msg_bit_vector, ttc_rows_register },
    [TTC_MSG_SERVER_PIGGYBACK]   = { "Server piggyback", NULL, ttc_msg_server_piggyback, ttc_piggyback_register },
    [TTC_MSG_ONEWAY_FN]          = { "One-way call", NULL, NULL, NULL },
    [TTC_MSG_IMPLICIT_RESULTSET] = { "Implicit result set", NULL, ttc_msg_implicit_results,
                                     ttc_describe_register },
    [TTC_MSG_RENEGOTIATE]        = { "Renegotiate", NULL, NULL, NULL },
    [TTC_MSG_END_OF_RESPONSE]    = { "End of response", NULL, msg_end_of_response, NULL },
    [TTC_MSG_COOKIE]             = { "Connection cookie (JDBC)", ttc_msg_cookie_request, NULL,
                                     ttc_negotiate_register },
    [TTC_MSG_TOKEN]              = { "Token", NULL, msg_token, NULL },
    [TTC_MSG_FAST_AUTH]          = { "Fast authentication", NULL, NULL, NULL },
};

/* Function codes: name, call body, return parameters, piggyback body,
 * sent after piggybacks, family registration. */
static const ttc_function_t functions[256] = {
    [TTC_FN_OPEN]              = { "OOPEN", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_PARSE]             = { "OPARSE", ttc_call_parse, NULL, NULL, FALSE, ttc_execute_register },
    [TTC_FN_REEXECUTE]         = { "OEXEC (re-execute)", ttc_call_reexecute, ttc_rpa_execute, NULL, TRUE,
                                   ttc_execute_register },
    [TTC_FN_FETCH]             = { "OFETCH", ttc_call_fetch, ttc_rpa_execute, NULL, TRUE, ttc_execute_register },
    [TTC_FN_CLOSE]             = { "OCLOSE", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_LOGOFF]            = { "OLOGOFF", call_empty, NULL, NULL, TRUE, NULL },
    [TTC_FN_AUTOCOMMIT_ON]     = { "Autocommit on", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_AUTOCOMMIT_OFF]    = { "Autocommit off", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_COMMIT]            = { "OCOMMIT", call_empty, NULL, NULL, TRUE, NULL },
    [TTC_FN_ROLLBACK]          = { "OROLLBACK", call_empty, NULL, NULL, TRUE, NULL },
    [TTC_FN_CANCEL]            = { "OCANCEL", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_VERSION]           = { "OVERSION", ttc_call_version, ttc_rpa_version, NULL, TRUE, ttc_auth_register },
    [TTC_FN_OALL7]             = { "OALL7", ttc_call_oall7, ttc_rpa_execute, NULL, TRUE, ttc_execute_register },
    [TTC_FN_REEXECUTE_FETCH]   = { "OEXFEN (re-execute and fetch)", ttc_call_reexecute, ttc_rpa_execute, NULL,
                                   TRUE, ttc_execute_register },
    [TTC_FN_O3LOGON]           = { "O3LOGON", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_O3LOGA]            = { "O3LOGA", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_OALL8]             = { "OALL8", ttc_call_oall8, ttc_rpa_execute, NULL, TRUE, ttc_execute_register },
    [TTC_FN_LOB_OP]            = { "OLOBOPS", ttc_call_lob_op, ttc_rpa_lob_op, NULL, TRUE, ttc_lob_register },
    [TTC_FN_DESCRIBE]          = { "ODNY (describe)", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_TXN_SWITCH]        = { "OTXSE (transaction switch)", ttc_call_txn_switch, ttc_rpa_txn_switch, NULL,
                                   FALSE, ttc_extensions_register },
    [TTC_FN_TXN_CHANGE_STATE]  = { "OTXEN (transaction state)", ttc_call_txn_change_state, ttc_rpa_txn_change_state,
                                   NULL, FALSE, ttc_extensions_register },
    [TTC_FN_CLOSE_CURSORS]     = { "OCCA (close cursors)", NULL, NULL, ttc_pb_close_cursors, TRUE,
                                   ttc_piggyback_register },
    [TTC_FN_SESSION_SWITCH]    = { "O80SES (session switch)", NULL, NULL, NULL, TRUE, NULL },
    [TTC_FN_AUTH_PHASE_TWO]    = { "OAUTH (authentication)", ttc_call_auth, ttc_rpa_auth, NULL, TRUE,
                                   ttc_auth_register },
    [TTC_FN_AUTH_PHASE_ONE]    = { "OSESSKEY (session key)", ttc_call_auth, ttc_rpa_auth, NULL, TRUE,
                                   ttc_auth_register },
    [TTC_FN_CANCEL_ALL]        = { "OCANA (cancel all)", NULL, NULL, NULL, TRUE, NULL },
    [TTC_FN_AQ_ENQ]            = { "AQ enqueue", NULL, ttc_rpa_aq_enq, NULL, FALSE, NULL },
    [TTC_FN_AQ_DEQ]            = { "AQ dequeue", NULL, ttc_rpa_aq_deq, NULL, FALSE, NULL },
    [TTC_FN_SUBSCRIBE]         = { "Subscribe", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_DP_PREPARE]        = { "Direct path prepare", NULL, ttc_rpa_dp_prepare, NULL, FALSE, NULL },
    [TTC_FN_DP_LOAD_STREAM]    = { "Direct path load stream", NULL, ttc_rpa_dp_out_values, NULL, FALSE, NULL },
    [TTC_FN_DP_OP]             = { "Direct path operation", NULL, ttc_rpa_dp_out_values, NULL, FALSE, NULL },
    [TTC_FN_END_TO_END]        = { "Set end-to-end attributes", NULL, NULL, ttc_pb_end_to_end, TRUE,
                                   ttc_piggyback_register },
    [TTC_FN_AQ_ARRAY]          = { "Array AQ", NULL, ttc_rpa_aq_array, NULL, FALSE, NULL },
    [TTC_FN_PING]              = { "OPING", call_empty, NULL, NULL, TRUE, NULL },
    [TTC_FN_SET_SCHEMA]        = { "Set schema", NULL, NULL, ttc_pb_set_schema, FALSE,
                                   ttc_piggyback_register },
    [TTC_FN_KEY_VALUE]         = { "Key/value", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_SESSION_GET]       = { "Session get", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_SESSION_RELEASE]   = { "Session release", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_SESSION_STATE]     = { "Session state", NULL, NULL, ttc_pb_session_state, TRUE,
                                   ttc_piggyback_register },
    [TTC_FN_NOTIFY]            = { "Notify", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_CLIENT_FEATURES]   = { "OCLFEATURES (client features)", NULL, NULL, ttc_pb_client_features, TRUE,
                                   ttc_piggyback_register },
    [TTC_FN_PIPELINE_BEGIN]    = { "Pipeline begin", NULL, NULL, ttc_pb_pipeline_begin, FALSE,
                                   ttc_piggyback_register },
    [TTC_FN_PIPELINE_END]      = { "Pipeline end", NULL, NULL, NULL, FALSE, NULL },
    [TTC_FN_END_USER_SECURITY_CONTEXT] = { "End-user security context", NULL, NULL, NULL, FALSE, NULL },
};

static const char *
message_name(guint8 type)
{
    return messages[type].name;
}

static const char *
function_name(guint8 code)
{
    return functions[code].name;
}

/* ---- client messages ----------------------------------------------------- */

/* Function code, sequence number and (23ai) token of a call or piggyback. */
static void
call_header(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, gboolean piggyback)
{
    gint s = r->off;

    call->func = ttc_rd_u8(r);
    ttc_add_uint(tree, piggyback ? hf_piggyback : hf_func, r, s, call->func);
    s = r->off; call->seq = ttc_rd_u8(r); ttc_add_uint(tree, hf_seq, r, s, call->seq);
    if (r->d->fv >= TTC_FV_23_1_EXT_1) {
        guint64 tok;
        s = r->off;
        tok = ttc_rd_ub8(r);
        if (tree && ttc_rd_ok(r))
            proto_tree_add_uint64(tree, hf_ttc_token, r->tvb, SPAN(r, s), tok);
    }
}

/* Calls with no body. */
static void
call_empty(ttc_rd_t *r _U_, proto_tree *tree _U_, ttc_call_t *call _U_, ttc_msg_result_t *res _U_,
           wmem_allocator_t *scope _U_)
{
}

/* A function call (message 3): its header, then the body its function
 * code's decoder reads; a function without one is named and its body
 * shown as call data; a body its decoder cannot walk is shown as call data
 * said not decoded (with the SQL text it holds in the long form, when there
 * is one). */
static void
function_message(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, ttc_msg_result_t *res,
                 wmem_allocator_t *scope)
{
    ttc_call_t *call = &res->call;
    ttc_call_fn decode;
    gint body;

    call_header(r, tree, call, FALSE);
    if (!ttc_rd_ok(r))
        return;
    res->is_call = TRUE;
    call->kind = TTC_REQ_FUNCTION;
    body = r->off;
    decode = functions[call->func].call;
    if (decode == ttc_call_auth) {
        ttc_call_auth_values(r, tree, pinfo, call, res, scope);   /* its values to the tap too */
    } else if (decode) {
        decode(r, tree, call, res, scope);
    } else {
        /* named, body shown as call data (no expert, as for bind data) */
        res->stop = TRUE;
    }
    if (r->bad && !r->strict) {
        /* A body we cannot walk: keep the call, show the rest as call data,
         * not decoded; its SQL text when it is there in the long form. */
        guint8 func = call->func, seq = call->seq;
        gint ss = 0, sl = 0;
        const char *sql;
        memset(call, 0, sizeof(*call));
        call->kind = TTC_REQ_FUNCTION;
        call->func = func;
        call->seq = seq;
        r->bad = FALSE;
        r->off = body;
        res->stop = TRUE;
        res->body_undecoded = TRUE;
        /* shown by the stream with the call data (its display pass reads
         * the call only up to where its body starts) */
        sql = ttc_find_long_sql(r, body, &ss, &sl, scope);
        if (sql)
            call->sql = sql;
    }
}

/* The table's entry (no packet: nothing published) */
static void
msg_function(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
             wmem_allocator_t *scope)
{
    function_message(r, tree, NULL, res, scope);
}

/* After a piggyback we cannot walk: find the next call header. */
static void
resync_to_next_call(ttc_rd_t *r, guint8 seq)
{
    gint p;
    for (p = r->off; p + 3 <= r->end; p++) {
        guint8 t = tvb_get_uint8(r->tvb, p);
        guint8 f = tvb_get_uint8(r->tvb, p + 1);
        guint8 q = tvb_get_uint8(r->tvb, p + 2);
        if ((t == TTC_MSG_FUNCTION || t == TTC_MSG_PIGGYBACK) && functions[f].after_piggyback &&
            (q == (guint8)(seq + 1) || q == seq || (seq == 255 && q == 1))) {
            r->off = p;
            return;
        }
    }
    r->need_more = TRUE;
}

/* A piggybacked call (message 17): its header, then its body as the
 * function's piggyback decoder reads it. */
static void
msg_piggyback(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
              wmem_allocator_t *scope)
{
    ttc_call_t pb;
    ttc_pb_fn decode;
    ttc_rd_t body;

    memset(&pb, 0, sizeof(pb));
    call_header(r, tree, &pb, TRUE);
    if (!ttc_rd_ok(r))
        return;
    /* Walk the body on a copy: layouts differ between clients (OCI's
     * end-to-end piggyback is not python's); if it does not fit, find the
     * next call header instead. */
    body = *r;
    decode = functions[pb.func].piggyback;
    if (decode) {
        decode(&body, NULL, scope);
        if (ttc_rd_ok(&body) &&
            (body.off == body.end || tvb_get_uint8(body.tvb, body.off) == TTC_MSG_FUNCTION ||
             tvb_get_uint8(body.tvb, body.off) == TTC_MSG_PIGGYBACK)) {
            if (pb.func == TTC_FN_CLOSE_CURSORS) {
                /* the cursors it closes, for the call that carries it */
                ttc_rd_t ids = *r;
                ttc_pb_close_cursors_note(&ids, pb.seq, res);
            }
            decode(r, tree, scope);
            return;
        }
    }
    if (res->pb_skipped < 255)
        res->pb_skipped++;
    {
        ttc_rd_t scan = *r;
        resync_to_next_call(&scan, pb.seq);
        if (!scan.need_more) {
            *r = scan;
            return;
        }
    }
    if (body.need_more) {
        r->need_more = TRUE;           /* the piggyback continues in the next packet */
        return;
    }
    resync_to_next_call(r, pb.seq);
}

/* Flush out binds (19) from the client: the type byte alone. */
static void
client_flush_out_binds(ttc_rd_t *r _U_, proto_tree *tree _U_, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                       wmem_allocator_t *scope _U_)
{
}

/* The body of one client message whose type byte has been read. */
static void
decode_body(ttc_rd_t *r, proto_tree *mt, packet_info *pinfo, guint8 type, ttc_msg_result_t *res,
            wmem_allocator_t *scope)
{
    ttc_msg_fn decode = messages[type].client;

    if (!decode) {
        r->bad = TRUE;
        return;
    }
    if (decode == msg_function)
        function_message(r, mt, pinfo, res, scope);
    else
        decode(r, mt, NULL, res, scope);
}

/* Type byte and tree item of a message; FALSE when the byte is not there. */
static gboolean
start_message(ttc_rd_t *r, proto_tree *tree, gint ett, guint8 *type, proto_item **mi, proto_tree **mt)
{
    gint start = r->off;

    *type = ttc_rd_u8(r);
    *mi = NULL;
    *mt = NULL;
    if (!ttc_rd_ok(r))
        return FALSE;
    if (tree) {
        *mi = proto_tree_add_uint(tree, hf_ttc_msg, r->tvb, start, 1, *type);
        *mt = proto_item_add_subtree(*mi, ett);
    }
    return TRUE;
}

/* Piggybacked calls allowed before the call inside a fast-auth message. */
#define MAX_NESTED_PIGGYBACKS 16

/* One message inside a fast-auth message: its type must be `want` (PRO, DTY
 * or the authentication call, which piggybacks may precede).  Not
 * recursive: a fast-auth byte here is an error, whatever the wire says. */
static void
decode_nested(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, guint8 want, ttc_msg_result_t *res,
              wmem_allocator_t *scope)
{
    guint n;

    for (n = 0; n <= MAX_NESTED_PIGGYBACKS; n++) {
        gint start = r->off;
        guint8 type;
        proto_item *mi;
        proto_tree *mt;

        if (!start_message(r, tree, ett_call, &type, &mi, &mt))
            return;
        if (type != want && !(want == TTC_MSG_FUNCTION && type == TTC_MSG_PIGGYBACK)) {
            r->bad = TRUE;
            return;
        }
        decode_body(r, mt, pinfo, type, res, scope);
        if (mi && ttc_rd_ok(r))
            proto_item_set_len(mi, r->off - start);
        if (type == want || !ttc_rd_ok(r))
            return;
    }
    r->bad = TRUE;                     /* more piggybacks than any client sends */
}

/* Fast authentication (python-oracledb FastAuthMessage, 23ai): version,
 * flags, then PRO, the server's charsets, the field version the rest is
 * written in, DTY and the OSESSKEY call, in that order. */
static void
decode_fast_auth(ttc_rd_t *r, proto_tree *mt, packet_info *pinfo, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_dialect_t fa = *r->d;
    ttc_rd_t sub;
    ttc_msg_result_t part;

    ttc_rd_skip(r, 3);                 /* version, flags */
    if (!ttc_rd_ok(r))
        return;
    memset(&part, 0, sizeof(part));
    decode_nested(r, mt, pinfo, TTC_MSG_PROTOCOL, &part, scope);
    ttc_rd_skip(r, 5);                 /* server charset, flag, ncharset (unused) */
    fa.fv = ttc_rd_u8(r);
    if (!ttc_rd_ok(r))
        return;
    ttc_rd_init(&sub, r->tvb, r->off, r->end, &fa);
    memset(&part, 0, sizeof(part));
    decode_nested(&sub, mt, pinfo, TTC_MSG_DATA_TYPES, &part, scope);
    if (part.dialect_update)
        res->dialect_update = TRUE, res->dialect = part.dialect;
    if (ttc_rd_ok(&sub)) {
        ttc_msg_result_t call;
        memset(&call, 0, sizeof(call));
        decode_nested(&sub, mt, pinfo, TTC_MSG_FUNCTION, &call, scope);
        res->stop = call.stop;
    }
    r->off = sub.off;
    r->need_more = sub.need_more;
    if (sub.bad)
        res->stop = TRUE;              /* the rest is shown as call data */
    res->is_call = TRUE;
    res->call.kind = TTC_REQ_FAST_AUTH;
    res->call.func = TTC_FN_AUTH_PHASE_ONE;
}

void
ttc_decode_client(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                  ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint start = r->off;
    guint8 type;
    proto_item *mi;
    proto_tree *mt;

    if (!start_message(r, tree, ett_call, &type, &mi, &mt))
        return;
    res->type = type;
    if (type == TTC_MSG_FAST_AUTH)
        decode_fast_auth(r, mt, pinfo, res, scope);
    else
        decode_body(r, mt, pinfo, type, res, scope);
    if (type == TTC_MSG_FUNCTION)
        ttc_carry_binds(r, mt, pinfo, st, res, scope);
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

/* ---- server messages ----------------------------------------------------- */

/* End of response (29, 23ai with the end-of-response capability). */
static void
msg_end_of_response(ttc_rd_t *r _U_, proto_tree *tree _U_, ttc_state_t *st _U_, ttc_msg_result_t *res,
                    wmem_allocator_t *scope _U_)
{
    res->eor = TRUE;
}

/* Token (33, 23ai): the token of the call answered. */
static void
msg_token(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
          wmem_allocator_t *scope _U_)
{
    gint s = r->off;
    guint64 tok = ttc_rd_ub8(r);

    if (tree && ttc_rd_ok(r))
        proto_tree_add_uint64(tree, hf_ttc_token, r->tvb, SPAN(r, s), tok);
}

/* Flush out binds (19): the server wants the client to send its out-bind
 * buffers; it ends this response. */
static void
msg_flush_out_binds(ttc_rd_t *r _U_, proto_tree *tree _U_, ttc_state_t *st _U_, ttc_msg_result_t *res,
                    wmem_allocator_t *scope _U_)
{
    res->terminal = TRUE;
}

/* Does a reader stop where a message that may follow return parameters
 * starts (or at the end of the data)? */
static gboolean
ends_before_reply_tail(const ttc_rd_t *r)
{
    guint8 next;

    if (!ttc_rd_ok(r))
        return FALSE;
    if (r->off == r->end)
        return TRUE;
    next = tvb_get_uint8(r->tvb, r->off);
    return next == TTC_MSG_ERROR || next == TTC_MSG_STATUS || next == TTC_MSG_SERVER_PIGGYBACK ||
           next == TTC_MSG_END_OF_RESPONSE;
}

/* Return parameters whose call is not in the capture (lost, or before the
 * capture started): the layouts of the calls that carry some are tried in
 * turn, and the first that ends where an end-of-call message starts is
 * taken (john/Oracle-bunch-Nmap-11gR2 frame 4669: the OSESSKEY reply of a
 * call the capture lost, AUTH_SESSKEY, AUTH_VFR_DATA and
 * AUTH_GLOBALLY_UNIQUE_DBID in OCI's native layout, then the OER). */
static ttc_rpa_fn
guess_rpa(const ttc_rd_t *r, wmem_allocator_t *scope)
{
    static const ttc_rpa_fn tried[] = { ttc_rpa_auth, ttc_rpa_execute, ttc_rpa_version };
    guint i;

    for (i = 0; i < G_N_ELEMENTS(tried); i++) {
        ttc_rd_t probe = *r;
        tried[i](&probe, NULL, NULL, scope);
        if (ends_before_reply_tail(&probe))
            return tried[i];
    }
    return NULL;
}

/* Return parameters (message 8): their layout is the call's. */
static void
parameters_message(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, ttc_state_t *st,
                   wmem_allocator_t *scope)
{
    guint8 func = st->req ? st->req->call.func : 0;
    ttc_rpa_fn decode;

    if (r->d->structs && r->d->fv < TTC_FV_9_2 && func != TTC_FN_OALL7 && func != TTC_FN_OALL8 &&
        func != TTC_FN_VERSION && func != TTC_FN_AUTH_PHASE_ONE && func != TTC_FN_AUTH_PHASE_TWO) {
        /* SQL*Plus 9.0's server (field version 1, visblank 9i session): the
         * return parameters of its older calls (OOPEN: the cursor; function
         * 84: three ub4) run up to the status message that ends the reply
         * (frames 57, 63: "... 09 01000000"); an OALL7's are al8o4 alone
         * (frames 67, 83: "08 02 00" and two ub4, then the OER), which the
         * execute family reads. */
        if (r->end - 5 >= r->off && tvb_get_uint8(r->tvb, r->end - 5) == TTC_MSG_STATUS)
            r->off = r->end - 5;
        else
            r->bad = TRUE;
        return;
    }
    decode = st->req ? functions[func].rpa : guess_rpa(r, scope);
    if (!decode) {
        r->bad = TRUE;                /* layout depends on a call we do not decode */
        return;
    }
    if (decode == ttc_rpa_auth)
        ttc_rpa_auth_values(r, tree, pinfo, st->req, scope);   /* its values to the tap too */
    else
        decode(r, tree, st->req, scope);
}

/* The table's entry (no packet: nothing published) */
static void
msg_parameters(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res _U_,
               wmem_allocator_t *scope)
{
    parameters_message(r, tree, NULL, st, scope);
}

void
ttc_decode_server(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo,
                  ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint start = r->off;
    guint8 type;
    proto_item *mi;
    proto_tree *mt;
    ttc_msg_fn decode;

    if (!start_message(r, tree, ett_msg, &type, &mi, &mt))
        return;
    res->type = type;
    decode = messages[type].server;
    if (!decode) {
        r->bad = TRUE;
        return;
    }
    if (decode == msg_parameters)
        parameters_message(r, mt, pinfo, st, scope);
    else
        decode(r, mt, st, res, scope);
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

/* ---- registration --------------------------------------------------------- */

/* The fields the decoders registered (their expert infos' fields too), by
 * their header_field_info, which lives as long as the registration: made
 * once by ttc_decoders_register(), read per TNS packet by
 * fields_referenced(). */
static header_field_info **decoder_fields;
static guint decoder_nfields;

/* Any of them referenced by a filter, a custom column or a tap's field
 * (a field's ref_type, which Wireshark sets when it primes a tree with the
 * fields it needs and clears when it frees the tree: the test
 * proto_field_is_referenced makes, without a call per field). */
static gboolean
fields_referenced(void)
{
    guint i;

    for (i = 0; i < decoder_nfields; i++)
        if (decoder_fields[i]->ref_type != HF_REF_TYPE_NONE)
            return TRUE;
    return FALSE;
}

const ttc_decoder_ops_t ttc_decoder_ops = {
    .decode_client = ttc_decode_client,
    .decode_server = ttc_decode_server,
    .message_name = message_name,
    .function_name = function_name,
    .fields_referenced = fields_referenced,
};

/* Each family the tables name registers its fields once, in the order the
 * tables first name it (message types, then function codes). */
static void
register_family(void (*reg)(int proto), void (**done)(int proto), guint *ndone, int proto)
{
    guint i;

    if (!reg)
        return;
    for (i = 0; i < *ndone; i++)
        if (done[i] == reg)
            return;
    done[(*ndone)++] = reg;
    reg(proto);
}

void
ttc_decoders_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_func, { "Function", "sqlnet.func", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_piggyback, { "Piggybacked function", "sqlnet.piggyback", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_seq, { "Sequence number", "sqlnet.seq", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
    };
    static gint *ett[] = { &ett_call, &ett_msg };
    void (*done[2 * 256])(int proto);
    guint ndone = 0, i;

    header_field_info *f;
    void *cookie = NULL;
    int first;

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    for (i = 0; i < G_N_ELEMENTS(messages); i++)
        register_family(messages[i].reg, done, &ndone, proto);
    for (i = 0; i < G_N_ELEMENTS(functions); i++)
        register_family(functions[i].reg, done, &ndone, proto);

    /* Field ids are given in the order of registration: the decoders' are
     * those of the protocol from hf_func (the first registered here) on. */
    first = hf_func;
    decoder_nfields = 0;
    for (f = proto_get_first_protocol_field(proto, &cookie); f; f = proto_get_next_protocol_field(proto, &cookie))
        if (f->id >= first)
            decoder_nfields++;
    decoder_fields = g_new(header_field_info *, decoder_nfields ? decoder_nfields : 1);
    decoder_nfields = 0;
    cookie = NULL;
    for (f = proto_get_first_protocol_field(proto, &cookie); f; f = proto_get_next_protocol_field(proto, &cookie))
        if (f->id >= first)
            decoder_fields[decoder_nfields++] = f;
}
