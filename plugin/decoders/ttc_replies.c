/* ttc_replies.c - the server's TTC messages: one table from message type to
 * its decoder, one from function code to the decoder of the return
 * parameters (message 8) that answer it.  The decoders live with their
 * message family (see ttc_msg.h).
 *
 * Layouts follow ../shared/docs/tns-wire-format.md section 5 and the open
 * clients named in each family's file.  Every decoder reads through a
 * ttc_rd_t, so a message cut by a TNS packet boundary is reported as
 * incomplete, never misread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <epan/packet.h>

#include "sqlnet.h"
#include "ttc_msg.h"

static gint ett_msg = -1;

/* ---- messages that are their type byte (and little more) ---------------- */

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

/* ---- return parameters, by the function they answer --------------------- */

static const ttc_rpa_fn rpa_by_function[256] = {
    [TTC_FN_AUTH_PHASE_ONE]   = ttc_rpa_auth,
    [TTC_FN_AUTH_PHASE_TWO]   = ttc_rpa_auth,
    [TTC_FN_VERSION]          = ttc_rpa_version,
    [TTC_FN_OALL8]            = ttc_rpa_execute,
    [TTC_FN_FETCH]            = ttc_rpa_execute,
    [TTC_FN_REEXECUTE]        = ttc_rpa_execute,
    [TTC_FN_REEXECUTE_FETCH]  = ttc_rpa_execute,
    [TTC_FN_OALL7]            = ttc_rpa_execute,
    [TTC_FN_LOB_OP]           = ttc_rpa_lob_op,
    [TTC_FN_TXN_SWITCH]       = ttc_rpa_txn_switch,
    [TTC_FN_TXN_CHANGE_STATE] = ttc_rpa_txn_change_state,
    [TTC_FN_AQ_ENQ]           = ttc_rpa_aq_enq,
    [TTC_FN_AQ_DEQ]           = ttc_rpa_aq_deq,
    [TTC_FN_AQ_ARRAY]         = ttc_rpa_aq_array,
    [TTC_FN_DP_PREPARE]       = ttc_rpa_dp_prepare,
    [TTC_FN_DP_LOAD_STREAM]   = ttc_rpa_dp_out_values,
    [TTC_FN_DP_OP]            = ttc_rpa_dp_out_values,
};

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
msg_parameters(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res _U_,
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
    decode = st->req ? rpa_by_function[func] : guess_rpa(r, scope);
    if (!decode) {
        r->bad = TRUE;                /* layout depends on a call we do not decode */
        return;
    }
    decode(r, tree, st->req, scope);
}

/* ---- dispatcher ---------------------------------------------------------- */

static const ttc_msg_fn server_messages[256] = {
    [TTC_MSG_PROTOCOL]           = ttc_msg_protocol_reply,
    [TTC_MSG_DATA_TYPES]         = ttc_msg_data_types_reply,
    [TTC_MSG_ERROR]              = ttc_msg_error,
    [TTC_MSG_ROW_HEADER]         = ttc_msg_row_header,
    [TTC_MSG_ROW_DATA]           = ttc_msg_row_data,
    [TTC_MSG_PARAMETER]          = msg_parameters,
    [TTC_MSG_STATUS]             = ttc_msg_status,
    [TTC_MSG_IO_VECTOR]          = ttc_msg_io_vector,
    [TTC_MSG_LOB_DATA]           = ttc_msg_lob_data,
    [TTC_MSG_WARNING]            = ttc_msg_warning,
    [TTC_MSG_DESCRIBE_INFO]      = ttc_msg_describe,
    [TTC_MSG_FLUSH_OUT_BINDS]    = msg_flush_out_binds,
    [TTC_MSG_BIT_VECTOR]         = ttc_msg_bit_vector,
    [TTC_MSG_SERVER_PIGGYBACK]   = ttc_msg_server_piggyback,
    [TTC_MSG_IMPLICIT_RESULTSET] = ttc_msg_implicit_results,
    [TTC_MSG_END_OF_RESPONSE]    = msg_end_of_response,
    [TTC_MSG_TOKEN]              = msg_token,
};

void
ttc_decode_server(ttc_rd_t *r, proto_tree *tree, packet_info *pinfo _U_,
                  ttc_state_t *st, ttc_msg_result_t *res, wmem_allocator_t *scope)
{
    gint start = r->off;
    guint8 type = ttc_rd_u8(r);
    proto_item *mi = NULL;
    proto_tree *mt = NULL;
    ttc_msg_fn decode;

    if (!ttc_rd_ok(r))
        return;
    res->type = type;
    if (tree) {
        mi = proto_tree_add_uint(tree, hf_ttc_msg, r->tvb, start, 1, type);
        mt = proto_item_add_subtree(mi, ett_msg);
    }
    decode = server_messages[type];
    if (!decode) {
        r->bad = TRUE;
        return;
    }
    decode(r, mt, st, res, scope);
    if (mi && ttc_rd_ok(r))
        proto_item_set_len(mi, r->off - start);
}

void
ttc_replies_register(int proto)
{
    static gint *ett[] = { &ett_msg };

    proto_register_subtree_array(ett, array_length(ett));
    ttc_negotiate_register(proto);
    ttc_auth_register(proto);
    ttc_execute_register(proto);
    ttc_describe_register(proto);
    ttc_rows_register(proto);
    ttc_lob_register(proto);
    ttc_oer_register(proto);
    ttc_piggyback_register(proto);
}
