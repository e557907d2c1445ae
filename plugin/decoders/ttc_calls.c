/* ttc_calls.c - the client's TTC messages: one table from message type to
 * its decoder, one from function code to the decoder of the call's body,
 * and fast authentication (23ai), a message that wraps PRO, DTY and the
 * first authentication call.  The decoders live with their message family
 * (see ttc_msg.h).
 *
 * A call is decoded as far as the facts this plugin reports (function,
 * cursor, rows asked for, SQL text, options, bind metadata); bind values
 * are shown as call data, not walked.  Authentication shows the user and
 * key names, never secret values.
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

/* Function code, sequence number and (23ai) token of a call or piggyback. */
void
ttc_call_header(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, gboolean piggyback)
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

static const ttc_call_fn calls_by_function[256] = {
    [TTC_FN_OALL8]           = ttc_call_oall8,
    [TTC_FN_FETCH]           = ttc_call_fetch,
    [TTC_FN_REEXECUTE]       = ttc_call_reexecute,
    [TTC_FN_REEXECUTE_FETCH] = ttc_call_reexecute,
    [TTC_FN_PARSE]           = ttc_call_parse,
    [TTC_FN_OALL7]           = ttc_call_oall7,
    [TTC_FN_AUTH_PHASE_ONE]  = ttc_call_auth,
    [TTC_FN_AUTH_PHASE_TWO]  = ttc_call_auth,
    [TTC_FN_LOB_OP]          = ttc_call_lob_op,
    [TTC_FN_LOGOFF]          = call_empty,
    [TTC_FN_COMMIT]          = call_empty,
    [TTC_FN_ROLLBACK]        = call_empty,
    [TTC_FN_PING]            = call_empty,
};

/* A function call (message 3): its header, then the body its function
 * code's decoder reads; a function without one is named and its body
 * shown as call data. */
static void
msg_function(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st _U_, ttc_msg_result_t *res,
             wmem_allocator_t *scope)
{
    ttc_call_t *call = &res->call;
    ttc_call_fn decode;
    gint body;

    ttc_call_header(r, tree, call, FALSE);
    if (!ttc_rd_ok(r))
        return;
    res->is_call = TRUE;
    call->kind = TTC_REQ_FUNCTION;
    body = r->off;
    decode = calls_by_function[call->func];
    if (decode)
        decode(r, tree, call, res, scope);
    else
        res->stop = TRUE;              /* named, body not decoded */
    if (r->bad && !r->strict) {
        /* A body we cannot walk: keep the call, show the rest as call data. */
        guint8 func = call->func, seq = call->seq;
        memset(call, 0, sizeof(*call));
        call->kind = TTC_REQ_FUNCTION;
        call->func = func;
        call->seq = seq;
        r->bad = FALSE;
        r->off = body;
        res->stop = TRUE;
    }
}

/* Flush out binds (19) from the client: the type byte alone. */
static void
msg_flush_out_binds(ttc_rd_t *r _U_, proto_tree *tree _U_, ttc_state_t *st _U_, ttc_msg_result_t *res _U_,
                    wmem_allocator_t *scope _U_)
{
}

/* Client messages other than fast authentication, which is a wrapper (see
 * below), never nested in another message. */
static const ttc_msg_fn client_messages[256] = {
    [TTC_MSG_PROTOCOL]        = ttc_msg_protocol_request,
    [TTC_MSG_DATA_TYPES]      = ttc_msg_data_types_request,
    [TTC_MSG_FUNCTION]        = msg_function,
    [TTC_MSG_PIGGYBACK]       = ttc_msg_piggyback,
    [TTC_MSG_FLUSH_OUT_BINDS] = msg_flush_out_binds,
};

/* The body of one client message whose type byte has been read. */
static void
decode_body(ttc_rd_t *r, proto_tree *mt, guint8 type, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_msg_fn decode = client_messages[type];

    if (!decode) {
        r->bad = TRUE;
        return;
    }
    decode(r, mt, NULL, res, scope);
}

/* Type byte and tree item of a message; FALSE when the byte is not there. */
static gboolean
start_message(ttc_rd_t *r, proto_tree *tree, guint8 *type, proto_item **mi, proto_tree **mt)
{
    gint start = r->off;

    *type = ttc_rd_u8(r);
    *mi = NULL;
    *mt = NULL;
    if (!ttc_rd_ok(r))
        return FALSE;
    if (tree) {
        *mi = proto_tree_add_uint(tree, hf_ttc_msg, r->tvb, start, 1, *type);
        *mt = proto_item_add_subtree(*mi, ett_call);
    }
    return TRUE;
}

/* Piggybacked calls allowed before the call inside a fast-auth message. */
#define MAX_NESTED_PIGGYBACKS 16

/* One message inside a fast-auth message: its type must be `want` (PRO, DTY
 * or the authentication call, which piggybacks may precede).  Not
 * recursive: a fast-auth byte here is an error, whatever the wire says. */
static void
decode_nested(ttc_rd_t *r, proto_tree *tree, guint8 want, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    guint n;

    for (n = 0; n <= MAX_NESTED_PIGGYBACKS; n++) {
        gint start = r->off;
        guint8 type;
        proto_item *mi;
        proto_tree *mt;

        if (!start_message(r, tree, &type, &mi, &mt))
            return;
        if (type != want && !(want == TTC_MSG_FUNCTION && type == TTC_MSG_PIGGYBACK)) {
            r->bad = TRUE;
            return;
        }
        decode_body(r, mt, type, res, scope);
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
decode_fast_auth(ttc_rd_t *r, proto_tree *mt, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    ttc_dialect_t fa = *r->d;
    ttc_rd_t sub;
    ttc_msg_result_t part;

    ttc_rd_skip(r, 3);                 /* version, flags */
    if (!ttc_rd_ok(r))
        return;
    memset(&part, 0, sizeof(part));
    decode_nested(r, mt, TTC_MSG_PROTOCOL, &part, scope);
    ttc_rd_skip(r, 5);                 /* server charset, flag, ncharset (unused) */
    fa.fv = ttc_rd_u8(r);
    if (!ttc_rd_ok(r))
        return;
    ttc_rd_init(&sub, r->tvb, r->off, r->end, &fa);
    memset(&part, 0, sizeof(part));
    decode_nested(&sub, mt, TTC_MSG_DATA_TYPES, &part, scope);
    if (part.dialect_update)
        res->dialect_update = TRUE, res->dialect = part.dialect;
    if (ttc_rd_ok(&sub)) {
        ttc_msg_result_t call;
        memset(&call, 0, sizeof(call));
        decode_nested(&sub, mt, TTC_MSG_FUNCTION, &call, scope);
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

    (void)pinfo;
    (void)st;
    if (!start_message(r, tree, &type, &mi, &mt))
        return;
    res->type = type;
    if (type == TTC_MSG_FAST_AUTH)
        decode_fast_auth(r, mt, res, scope);
    else
        decode_body(r, mt, type, res, scope);
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

void
ttc_calls_register(int proto)
{
    static hf_register_info hf[] = {
        { &hf_func, { "Function", "sqlnet.func", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_piggyback, { "Piggybacked function", "sqlnet.piggyback", FT_UINT8, BASE_DEC, VALS(ttc_function_vals), 0x0, NULL, HFILL } },
        { &hf_seq, { "Sequence number", "sqlnet.seq", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
    };
    static gint *ett[] = { &ett_call };

    proto_register_field_array(proto, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
}
