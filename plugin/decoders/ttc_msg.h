/* ttc_msg.h - the TTC message decoders: one file per message family, one
 * file of tables that dispatches to them.
 *
 *   ttc_dispatch.c    the message-type table and the function-code table
 *                     (names, decoders of calls, return parameters and
 *                     piggybacks, family registration); the client's and
 *                     the server's messages, fast authentication
 *   ttc_negotiate.c   PRO and DTY, both directions (the session's dialect)
 *   ttc_caps.c        their capability arrays, one named field per byte
 *   ttc_auth.c        authentication and OVERSION
 *   ttc_execute.c     OALL8, OFETCH, re-execute, OPARSE/OALL7; their return
 *                     parameters; the I/O vector of a PL/SQL execute
 *   ttc_binds.c       the values an OALL8 binds, as text (sqlnet.bind.value)
 *   ttc_describe.c    describe information, implicit result sets
 *   ttc_rows.c        row header, row data, bit vector, values in rows
 *   ttc_lob.c         LOB operations and LOB data
 *   ttc_oer.c         end of call: OER, status, warning
 *   ttc_piggyback.c   the bodies of piggybacked calls, server piggybacks
 *   ttc_extensions.c  return parameters of two-phase commit, AQ, direct path
 *
 * Adding a message type or a function code is a decoder in its family's
 * file and one row in a table of ttc_dispatch.c.  The decoders never call
 * the dispatcher (tests/test_no_recursion.py follows the tables too).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_TTC_MSG_H
#define SQLNET_TTC_MSG_H

#include "ttc.h"
#include "ttc_decoders.h"

/* Bounds on counts read from the wire. */
#define TTC_MAX_COLUMNS   4096
#define TTC_MAX_KV_PAIRS  4096
#define TTC_MAX_LIST      65536

/* A field covering the bytes the reader consumed since `start`. */
#define SPAN(r, start) (start), ((r)->off - (start))

static inline proto_item *
ttc_add_uint(proto_tree *tree, int hf, ttc_rd_t *r, gint start, guint32 v)
{
    if (!tree || !ttc_rd_ok(r))
        return NULL;
    return proto_tree_add_uint(tree, hf, r->tvb, SPAN(r, start), v);
}

/* Same-platform sessions (dialect `structs`): the server copies some of its
 * in-memory structs onto the wire.  Each struct is announced by a one-byte
 * marker (01 in every sample) and is laid out with natural alignment from
 * its first byte, padding included; its size depends on the pointer width.
 * Sizes for 4-byte pointers are from wsSC_TNS_Oracle1.pcap (32-bit Windows
 * 10.2 server); those for 8-byte pointers from jkstill19c (64-bit Linux
 * 19c server, field version 7): a 136-byte OER (frames 22, 27, 31, 35), a
 * 48-byte row header (frame 35), 40-byte describe columns (frame 31). */
#define STRUCT_OER_SIZE(d)  ((d)->ptr_width == 8 ? 136 : 88)
#define STRUCT_COL_SIZE(d)  ((d)->ptr_width == 8 ? 40 : 32)
#define STRUCT_RXH_SIZE(d)  ((d)->fv < TTC_FV_9_2 ? 28 : (d)->ptr_width == 8 ? 48 : 32)

/* A message's body after its type byte (both directions; client decoders
 * get st == NULL). */
typedef void (*ttc_msg_fn)(ttc_rd_t *r, proto_tree *tree, ttc_state_t *st, ttc_msg_result_t *res,
                           wmem_allocator_t *scope);
/* A function call's body after its header (function code, sequence, token). */
typedef void (*ttc_call_fn)(ttc_rd_t *r, proto_tree *tree, ttc_call_t *call, ttc_msg_result_t *res,
                            wmem_allocator_t *scope);
/* The return parameters (message 8) answering one function; req may be NULL. */
typedef void (*ttc_rpa_fn)(ttc_rd_t *r, proto_tree *tree, const ttc_request_t *req, wmem_allocator_t *scope);
/* A piggybacked call's body after its header (the dispatcher tries it on a
 * copy of the reader first, with tree NULL). */
typedef void (*ttc_pb_fn)(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope);

/* ttc_negotiate.c */
void ttc_negotiate_register(int proto);
void ttc_msg_protocol_request(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_data_types_request(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_protocol_reply(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_data_types_reply(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
/* ttc_caps.c: the capability arrays as named fields (called by ttc_negotiate.c) */
void ttc_caps_register(int proto);
void ttc_caps_add_compile(proto_tree *tree, tvbuff_t *tvb, gint off, guint len);
void ttc_caps_add_runtime(proto_tree *tree, tvbuff_t *tvb, gint off, guint len);
void ttc_msg_cookie_request(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_auth.c */
void ttc_auth_register(int proto);
void ttc_call_auth(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_rpa_auth(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
/* The same with the packet: what the values sqlnet.auth.value shows name
 * is kept with their frame on the first pass, with or without a tree (the
 * dispatch calls these for the authentication calls and their return
 * parameters); ttc_auth_frame_drivers gives it on any pass, to readers that
 * build no tree (consumers/lua_facts.c): 0 for a frame without such values,
 * else TTC_AUTH_VALUES and the drivers a value names (any case: "jdbc",
 * "oracleclientgo", "node-oracledb", "python-oracledb"). */
#define TTC_AUTH_DRIVER_JDBC   0x01u
#define TTC_AUTH_DRIVER_GOORA  0x02u
#define TTC_AUTH_DRIVER_NODE   0x04u
#define TTC_AUTH_DRIVER_PYTHON 0x08u
#define TTC_AUTH_VALUES        0x10u
guint32 ttc_auth_frame_drivers(packet_info *pinfo);
void ttc_call_auth_values(ttc_rd_t *, proto_tree *, packet_info *, ttc_call_t *, ttc_msg_result_t *,
                          wmem_allocator_t *);
void ttc_rpa_auth_values(ttc_rd_t *, proto_tree *, packet_info *, const ttc_request_t *, wmem_allocator_t *);
void ttc_call_version(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_rpa_version(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);

/* ttc_execute.c */
void ttc_execute_register(int proto);
void ttc_call_oall8(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
/* An OALL8 that re-executes its open cursor with the values alone (ojdbc):
 * lays them out by the bind metadata the cursor's execute sent. */
void ttc_carry_binds(const ttc_rd_t *r, proto_tree *tree, packet_info *pinfo, const ttc_state_t *st,
                     ttc_msg_result_t *res, wmem_allocator_t *scope);
void ttc_call_fetch(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_call_reexecute(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_call_parse(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_call_oall7(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_rpa_execute(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_msg_io_vector(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_describe.c */
void ttc_describe_register(int proto);
void ttc_describe_column(ttc_rd_t *r, proto_tree *tree, ttc_column_t *col, wmem_allocator_t *scope);
const ttc_describe_t *ttc_describe_body(ttc_rd_t *r, proto_tree *tree, wmem_allocator_t *scope);
void ttc_note_new_cursor(ttc_msg_result_t *res, guint32 id, const ttc_describe_t *desc);
void ttc_msg_describe(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_implicit_results(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_rows.c */
void ttc_rows_register(int proto);
guint32 ttc_skip_object_image(ttc_rd_t *r);   /* returns the image length */
void ttc_msg_row_header(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_row_data(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_bit_vector(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_lob.c */
void ttc_lob_register(int proto);
void ttc_call_lob_op(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_rpa_lob_op(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_msg_lob_data(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_oer.c */
void ttc_oer_register(int proto);
void ttc_msg_error(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_status(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_msg_warning(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_piggyback.c */
void ttc_piggyback_register(int proto);
void ttc_pb_close_cursors(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_pb_close_cursors_note(ttc_rd_t *, guint8 seq, ttc_msg_result_t *);
void ttc_pb_session_state(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_pb_client_features(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_pb_set_schema(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_pb_pipeline_begin(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_pb_end_to_end(ttc_rd_t *, proto_tree *, wmem_allocator_t *);
void ttc_msg_server_piggyback(ttc_rd_t *, proto_tree *, ttc_state_t *, ttc_msg_result_t *, wmem_allocator_t *);

/* ttc_extensions.c */
void ttc_extensions_register(int proto);
void ttc_call_txn_switch(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_call_txn_change_state(ttc_rd_t *, proto_tree *, ttc_call_t *, ttc_msg_result_t *, wmem_allocator_t *);
void ttc_rpa_txn_switch(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_txn_change_state(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_aq_enq(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_aq_deq(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_aq_array(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_dp_prepare(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);
void ttc_rpa_dp_out_values(ttc_rd_t *, proto_tree *, const ttc_request_t *, wmem_allocator_t *);

#endif /* SQLNET_TTC_MSG_H */
