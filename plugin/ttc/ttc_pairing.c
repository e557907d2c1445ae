/* ttc_pairing.c - requests and responses (first pass only).
 *
 * TTC is half-duplex.  A request is the client's DATA from its first packet
 * until the server answers; a response is the server's packets from then on,
 * until its terminal message (OER/STA before 23ai), the end-of-response flag
 * 0x2000 (23ai), or the next request.  What a decoded message tells (a call,
 * rows, an end-of-call status) is added to its request or response here.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_LOG_DOMAIN "sqlnet"

#include <string.h>

#include <epan/packet.h>
#include <epan/proto_data.h>

#include "sqlnet.h"
#include "session.h"
#include "tns.h"
#include "ttc.h"
#include "ttc_internal.h"

/* Given once at registration (plugin.c): who hears of packets and of
 * responses that end. */
static const ttc_observer_t *stream_observer;

void
ttc_set_observer(const ttc_observer_t *observer)
{
    stream_observer = observer;
}

/* First pass: the request (client) or response (server) this stream is in
 * was not decoded to its end; the first reason is kept. */
void
mark_partial(ttc_session_t *ts, sqlnet_dir_t dir, ttc_partial_t why)
{
    if (dir == SQLNET_TO_CLIENT) {
        if (ts->resp && !ts->resp->partial)
            ts->resp->partial = (guint8)why;
    } else if (ts->req && !ts->req->response && !ts->req->partial) {
        ts->req->partial = (guint8)why;
    }
}

/* ---- request / response bookkeeping (first pass only) ------------------- */

void
close_response(ttc_session_t *ts, packet_info *pinfo, guint32 frame, const nstime_t *when, gboolean complete)
{
    ttc_response_t *resp = ts->resp;
    if (!resp)
        return;
    resp->last_frame = frame;
    resp->last_ns = sqlnet_ns_pack(when);
    resp->complete = complete;
    ts->last_close_frame = frame;
    ts->resp = NULL;
    /* the next call's client time starts here */
    ts->last_resp_end = *when;
    ts->has_last_resp_end = TRUE;
    if (stream_observer && stream_observer->response_closed)
        stream_observer->response_closed(pinfo, ts, resp);
    /* An execute answered without a cursor id (its end-of-call status was
     * cut off or not decoded): the cursor is learned from the next call
     * that names a cursor not seen before. */
    if (resp->req && ttc_req_executes(resp->req) && !resp->has_oer &&
        !(resp->req->call.has_cursor && resp->req->call.cursor != 0))
        ts->unbound = resp->req;
    /* A new response starts a clean row state on the server stream. */
    ts->dir[SQLNET_TO_CLIENT].state.bitvec = NULL;
    ts->dir[SQLNET_TO_CLIENT].state.bitvec_len = 0;
}

/* The session's responses by cover_from: an array in the order they open
 * (8 bytes each, where a tree node took 56), one with the key of the latest
 * taking its place (as a tree would).  The keys never decrease (a response
 * opens after the previous one closed, at or after its frame); one that
 * would goes into a tree, looked up as well. */
static void
responses_add(ttc_session_t *ts, ttc_response_t *resp)
{
    ttc_response_t *last = ts->nresponses ? ts->responses[ts->nresponses - 1] : NULL;

    if (last && resp->cover_from < last->cover_from) {
        if (!ts->responses_later)
            ts->responses_later = wmem_tree_new(wmem_file_scope());
        wmem_tree_insert32(ts->responses_later, resp->cover_from, resp);
        return;
    }
    if (last && resp->cover_from == last->cover_from) {
        ts->responses[ts->nresponses - 1] = resp;
        return;
    }
    if (ts->nresponses == ts->responses_cap) {
        ts->responses_cap = ts->responses_cap ? ts->responses_cap * 2 : 4;
        ts->responses = (ttc_response_t **)wmem_realloc(wmem_file_scope(), ts->responses,
                                                        ts->responses_cap * sizeof(ttc_response_t *));
    }
    ts->responses[ts->nresponses++] = resp;
}

/* A request joins the queue of those awaiting their response.  When the
 * queue reaches its end it is doubled if more than half full, and its
 * requests moved to its front: a move of n leaves at least n free places
 * (amortized constant time per request, whatever the pipeline's depth). */
static void
waiting_add(ttc_session_t *ts, ttc_request_t *req)
{
    if (ts->wait_head + ts->wait_n == ts->wait_cap) {
        if (ts->wait_n * 2 >= ts->wait_cap) {
            ts->wait_cap = ts->wait_cap ? ts->wait_cap * 2 : 2;
            ts->waitq = (ttc_request_t **)wmem_realloc(wmem_file_scope(), ts->waitq,
                                                       ts->wait_cap * sizeof(ttc_request_t *));
        }
        if (ts->wait_head > 0) {
            memmove(ts->waitq, ts->waitq + ts->wait_head, ts->wait_n * sizeof(ttc_request_t *));
            ts->wait_head = 0;
        }
    }
    ts->waitq[ts->wait_head + ts->wait_n++] = req;
}

/* The response a request cut short (it came before the response's end):
 * few do, so the session keeps them by request. */
ttc_response_t *
ttc_req_closed(const sqlnet_session_t *sess, const ttc_request_t *req)
{
    const ttc_session_t *ts = (const ttc_session_t *)sess->ttc;

    if (!req->cut_short || !ts || !ts->closed)
        return NULL;
    return (ttc_response_t *)wmem_map_lookup(ts->closed, req);
}

ttc_response_t *
open_response(ttc_session_t *ts, packet_info *pinfo)
{
    ttc_response_t *resp;
    ttc_stream_t *cs = &ts->dir[SQLNET_TO_SERVER];

    if (ts->resp)
        return ts->resp;
    resp = ttc_response_new(ts);
    resp->first_frame = pinfo->num;
    resp->first_ns = sqlnet_ns_pack(&pinfo->abs_ts);
    if (ts->pending_segments > 0) {
        /* it began in an earlier segment (its first TNS packet spanned
         * segments): those segments and its first byte's time */
        resp->segments = ts->pending_segments;
        resp->first_frame = ts->next_first_frame;
        resp->first_ns = sqlnet_ns_pack(&ts->next_first_time);
        resp->multi_segment_packet = ts->pending_unseen;
        resp->largest_segment = ts->pending_largest_segment;
        ts->pending_segments = 0;
        ts->pending_unseen = FALSE;
        ts->pending_largest_segment = 0;
    }
    /* Responses answer requests in the order they were sent. */
    if (ts->wait_n > 0) {
        resp->req = ts->waitq[ts->wait_head];
        resp->req->response = resp;
        ts->wait_head++;
        if (--ts->wait_n == 0)
            ts->wait_head = 0;
    }
    /* The frames from the one after its request (or after the previous
     * response) on are its: a later pass finds its segments there. */
    resp->cover_from = resp->req ? resp->req->frame + 1 : resp->first_frame;
    if (ts->last_close_frame + 1 > resp->cover_from)
        resp->cover_from = ts->last_close_frame + 1;
    if (resp->cover_from > resp->first_frame)
        resp->cover_from = resp->first_frame;
    responses_add(ts, resp);
    ts->resp = resp;
    /* The latest request is over: whatever of it was still pending stays
     * undecoded (in a pipeline the client may be sending the next one). */
    if (resp->req == ts->req) {
        /* ... and the round trip was not decoded to its end (an OALL7
         * shorter than its counts say, any call cut short by the client) */
        if (cs->pending_len > 0 && resp->req && !resp->req->partial)
            resp->req->partial = (guint8)TTC_PARTIAL_UNDECODED;
        pending_drop(cs);
        cs->opaque = FALSE;
    }
    /* The server stream starts afresh with the new response. */
    ts->dir[SQLNET_TO_CLIENT].opaque = FALSE;
    pending_drop(&ts->dir[SQLNET_TO_CLIENT]);
    ts->dir[SQLNET_TO_CLIENT].state.req = resp->req;
    ts->dir[SQLNET_TO_CLIENT].state.resp = resp;
    if (resp->req && resp->req->call.has_cursor && resp->req->call.cursor != 0) {
        ttc_cursor_t *c = cursor_get(ts, resp->req->call.cursor, FALSE, NULL);
        if (c && c->describe && !(resp->req->call.func == TTC_FN_OALL8 && resp->req->call.sql))
            ts->dir[SQLNET_TO_CLIENT].state.describe = c->describe;
    }
    /* A define call: the cursor's columns as the client defined them (what
     * its LOB values carry: JDBC's LOB prefetch; a LOB the client fetches as
     * LONG or LONG RAW, python-oracledb's fetch_lobs=False and
     * node-oracledb's fetchInfo as a string or buffer, comes as one: its
     * text with the row, not a locator - the clients decode a row by the
     * types they defined). */
    if (resp->req && ttc_req_rare(resp->req)->defines && ts->dir[SQLNET_TO_CLIENT].state.describe) {
        const ttc_describe_t *cur = ts->dir[SQLNET_TO_CLIENT].state.describe;
        const ttc_describe_t *def = ttc_req_rare(resp->req)->defines;
        if (cur->kind == TTC_ROWS_COLUMNS && cur->has_lob) {
            ttc_describe_t *m = (ttc_describe_t *)describe_keep(cur);
            guint32 i;
            m->has_lob = FALSE;
            for (i = 0; i < m->ncols; i++) {
                ttc_column_t *col = &m->cols[i];
                if (i < def->ncols) {
                    guint8 dt = def->cols[i].type;
                    col->lob_prefetch = def->cols[i].lob_prefetch;
                    /* go-ora's LOB FETCH=PRE defines a CLOB as LONG VARCHAR and
                     * reads it as a LONG (command.go writeDefine; isLongType) */
                    if (dt == ORA_LONG_VARCHAR)
                        dt = ORA_LONG;
                    else if (dt == ORA_LONG_VARRAW)
                        dt = ORA_LONG_RAW;
                    if ((col->type == ORA_CLOB || col->type == ORA_BLOB) && (dt == ORA_LONG || dt == ORA_LONG_RAW)) {
                        col->type = dt;
                        col->buffer_size = def->cols[i].buffer_size;
                    }
                }
                if (col->type == ORA_CLOB || col->type == ORA_BLOB || col->type == ORA_BFILE)
                    m->has_lob = TRUE;
            }
            ts->dir[SQLNET_TO_CLIENT].state.describe = m;
            if (resp->req->call.has_cursor && resp->req->call.cursor) {
                ttc_cursor_t *c = cursor_get(ts, resp->req->call.cursor, FALSE, NULL);
                if (c)
                    c->describe = m;
            }
        }
    }
    /* DML RETURNING: the rows that come back are the return binds' values
     * (python-oracledb ExecuteMessage.preprocess: out vars = return binds). */
    if (resp->req && ttc_req_rare(resp->req)->binds && ttc_req_rare(resp->req)->returning_binds) {
        const ttc_describe_t *b = ttc_req_rare(resp->req)->binds;
        ttc_describe_t *rb = wmem_new0(wmem_file_scope(), ttc_describe_t);
        rb->kind = TTC_ROWS_RETURNING;
        rb->ncols = ttc_req_rare(resp->req)->returning_binds;
        rb->cols = b->cols + (b->ncols - rb->ncols);
        ts->dir[SQLNET_TO_CLIENT].state.describe = rb;
    }
    return resp;
}

ttc_request_t *
open_request(ttc_session_t *ts, packet_info *pinfo, ttc_req_kind_t kind)
{
    ttc_request_t *req;

    gboolean pipelined = ts->req && ts->req->ended;

    if (ts->req && !ts->req->response && !ts->req->ended)
        return ts->req;                /* still the same request */
    req = ttc_request_new(ts);
    /* A new request cuts the open response short, unless the client is
     * pipelining (23ai: each request ended by the end-of-request flag, the
     * responses follow in order, each ended by the end-of-response flag). */
    if (ts->resp && !pipelined) {
        nstime_t last = ttc_resp_last_time(ts->resp);
        if (!ts->closed)
            ts->closed = wmem_map_new(wmem_file_scope(), g_direct_hash, g_direct_equal);
        wmem_map_insert(ts->closed, req, ts->resp);
        req->cut_short = TRUE;
        close_response(ts, pinfo, ts->resp->last_frame ? ts->resp->last_frame : pinfo->num, &last, FALSE);
    }
    if (!pipelined)
        ts->wait_head = ts->wait_n = 0;   /* unanswered requests stay so */
    waiting_add(ts, req);
    req->call.kind = kind;
    req->first_frame = req->frame = pinfo->num;
    req->last_ns = req->first_ns = sqlnet_ns_pack(&pinfo->abs_ts);
    req->prev_end_ns = sqlnet_ns_pack(&ts->last_resp_end);
    req->has_prev_end = ts->has_last_resp_end;
    ts->req = req;
    ts->nrequests++;
    pending_drop(&ts->dir[SQLNET_TO_SERVER]);
    ts->dir[SQLNET_TO_SERVER].opaque = FALSE;
    ts->dir[SQLNET_TO_SERVER].state.req = req;
    return req;
}

void
ttc_sides_changed(sqlnet_session_t *sess)
{
    ttc_session_t *ts = (ttc_session_t *)sess->ttc;
    guint d;

    if (!ts)
        return;
    /* What was taken for requests and responses came from the other side:
     * start both streams afresh (the packets before keep their records). */
    for (d = 0; d < 2; d++) {
        pending_drop(&ts->dir[d]);
        ts->dir[d].opaque = ts->dir[d].opaque_cut = FALSE;
        ts->dir[d].state.req = NULL;
        ts->dir[d].state.resp = NULL;
        ts->dir[d].state.describe = NULL;
        ts->dir[d].state.bitvec = NULL;
        ts->dir[d].state.bitvec_len = 0;
    }
    ts->req = NULL;
    ts->resp = NULL;
    ts->wait_head = ts->wait_n = 0;
    if (ts->dialect.inferred) {
        /* inferred from a server packet taken for a call: infer again */
        ts->dialect.known = ts->dialect.inferred = FALSE;
        ts->infer_verify = FALSE;
        ts->inferred_frame = 0;
    }
}

/* A client packet of the request: its frame, time and byte counts. */
static void
request_add_packet(ttc_request_t *req, packet_info *pinfo, guint32 tns_len, guint16 data_flags)
{
    req->frame = pinfo->num;
    req->last_ns = sqlnet_ns_pack(&pinfo->abs_ts);
    req->tns_packets++;
    req->tns_bytes += tns_len;
    req->ttc_bytes += tns_data_bytes(tns_len);
    if (data_flags & TNS_DF_END_OF_REQUEST)
        req->ended = TRUE;
}


void
ttc_note_packet(packet_info *pinfo, sqlnet_session_t *sess, sqlnet_dir_t dir,
                guint8 type, guint32 tns_len, guint16 data_flags, gboolean is_ano)
{
    ttc_session_t *ts;
    ttc_response_t *resp;

    if (PINFO_FD_VISITED(pinfo))
        return;
    if (type == TNS_TYPE_ACCEPT && dir == SQLNET_TO_CLIENT) {
        /* The first call's client time starts here: the ACCEPT ends the
         * connect round trip. */
        ts = ttc_session_at(sess, pinfo);
        ts->last_resp_end = pinfo->abs_ts;
        ts->has_last_resp_end = TRUE;
        return;
    }
    if (!session_ttc_active(sess, pinfo))
        return;
    ts = ttc_session_at(sess, pinfo);
    if (stream_observer && stream_observer->packet)
        stream_observer->packet(pinfo, ts);
    if (dir == SQLNET_TO_SERVER) {
        ttc_request_t *req;
        if (type != TNS_TYPE_DATA || (data_flags & TNS_DF_EOF))
            return;                    /* markers answer a break; EOF ends the session */
        req = open_request(ts, pinfo, is_ano ? TTC_REQ_ANO : TTC_REQ_NONE);
        ts->client_prev_frame = req->frame;
        ts->client_prev_time = ttc_req_last_time(req);
        ts->pending_segments = 0;          /* what the server sends next answers it */
        ts->pending_largest_segment = 0;
        ts->pending_unseen = FALSE;
        request_add_packet(req, pinfo, tns_len, data_flags);
        return;
    }
    if (type != TNS_TYPE_DATA && type != TNS_TYPE_MARKER)
        return;
    ts->server_seen = TRUE;
    resp = open_response(ts, pinfo);
    resp->packets++;
    resp->bytes += tns_len;
    if (type == TNS_TYPE_MARKER) {
        resp->markers++;
    } else {
        resp->ttc_bytes += tns_data_bytes(tns_len);
    }
    if (tns_len > resp->largest_packet)
        resp->largest_packet = tns_len;
    resp->last_frame = pinfo->num;     /* provisional until it completes */
    resp->last_ns = sqlnet_ns_pack(&pinfo->abs_ts);
    /* An ANO reply is the whole answer to an ANO request. */
    if (is_ano && ts->req && ts->req->call.kind == TTC_REQ_ANO)
        close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
}

/* A close-cursors piggyback of req: the first cursor it names that the map
 * knows with an execution, for the call that carries it. */
static void
note_close(ttc_session_t *ts, const ttc_request_t *req, const ttc_msg_result_t *res)
{
    guint32 i;

    ts->close_req = req;
    ts->close_seq = res->close_seq;
    ts->close_execution = 0;
    ts->close_sql = NULL;
    for (i = 0; i < res->nclosed; i++) {
        const ttc_cursor_t *cur = cursor_get(ts, res->closed[i], FALSE, NULL);
        if (cur && cur->execution) {
            ts->close_execution = cur->execution;
            ts->close_sql = cur->sql;
            return;
        }
    }
}

void
apply_client_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                    ttc_msg_result_t *res, ttc_pdu_rec_t *rec)
{
    ttc_request_t *req = ts->req;

    if (res->dialect_update)
        set_dialect(ts, sess, &res->dialect);
    if (res->closes_cursors && req && !req->response)
        note_close(ts, req, res);
    if (!res->is_call || !req || req->response)
        return;
    /* PRO (and DTY) followed by a call in the same request: ojdbc 23 with a
     * connection cookie sends PRO, cookie (message 30), DTY and OSESSKEY
     * together (T4CConnection.cookieBasedNegotiateSession); the call is the
     * request's, and the negotiation replies lead its response. */
    if ((req->call.kind == TTC_REQ_PROTOCOL || req->call.kind == TTC_REQ_DATA_TYPES) &&
        res->call.kind == TTC_REQ_FUNCTION) {
        req->negotiates = TRUE;
        req->call.kind = TTC_REQ_NONE;
    }
    if (req->call.kind == TTC_REQ_NONE || req->call.kind == TTC_REQ_FUNCTION) {
        const ttc_call_t *c = &res->call;
        if (req->call.kind == TTC_REQ_FUNCTION)
            return;                    /* keep the first call of a request */
        ttc_call_keep(&req->call, c, wmem_file_scope());
        /* what the decoder found lives in packet scope */
        if (c->sql)
            req->call.sql = wmem_strdup(wmem_file_scope(), c->sql);
        if (c->binds || c->defines) {
            ttc_call_rare_t *rare = (ttc_call_rare_t *)req->call.rare;
            if (c->binds)
                rare->binds = describe_keep(c->binds);
            if (c->defines)
                rare->defines = describe_keep(c->defines);
        }
        req->stmt_sql = req->call.sql;
        if (req->call.has_cursor && req->call.cursor && ts->unbound && !ttc_req_executes(req) &&
            (!cursor_get(ts, req->call.cursor, FALSE, NULL) || (!ts->server_seen && !sess->accept_frame))) {
            /* The first call on a cursor never seen, after an execute whose
             * response did not name its cursor: the cursor is that one's.
             * With the client's packets alone, the first call on any cursor
             * (the server reuses the ids of closed cursors). */
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
            if (cur) {
                cur->sql = ts->unbound->call.sql;
                cur->execution = ts->unbound->execution;
            }
            ts->unbound = NULL;
        }
        if (!req->stmt_sql && req->call.has_cursor && req->call.cursor) {
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, FALSE, NULL);
            if (cur)
                req->stmt_sql = cur->sql;
        }
        /* A fetch that does not execute: the client wants rows still to come
         * (the cursor's last end-of-call status did not end the result set). */
        if (req->call.has_fetch_rows && !ttc_req_executes(req)) {
            ttc_cursor_t *cur = req->call.has_cursor && req->call.cursor ? cursor_get(ts, req->call.cursor, FALSE, NULL) : NULL;
            req->fetch_more = !(cur && cur->exhausted);
        }
        /* Executions: an execute starts one; fetches continue their cursor's. */
        if (ttc_req_executes(req)) {
            req->execution = ++ts->executions;
            ts->unbound = NULL;
            if (req->call.has_cursor && req->call.cursor) {
                ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
                if (cur) {
                    cur->execution = req->execution;
                    if (req->call.sql)
                        cur->sql = req->call.sql;   /* OCI: the call names its cursor */
                    else if (cur->sql && !req->stmt_sql)
                        req->stmt_sql = cur->sql;   /* OALL7 after OPARSE */
                }
            }
        } else if ((req->call.func == TTC_FN_PARSE || req->call.func == TTC_FN_OALL7) && req->call.has_cursor &&
                   req->call.cursor && req->call.sql) {
            /* OCI's parse (or a parse-only OALL7) names the statement its cursor will execute */
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, TRUE, rec);
            if (cur)
                cur->sql = req->call.sql;
        } else if (req->call.has_cursor && req->call.cursor) {
            ttc_cursor_t *cur = cursor_get(ts, req->call.cursor, FALSE, NULL);
            if (cur)
                req->execution = cur->execution;
        } else if (req->call.func == TTC_FN_LOB_OP && ts->lob_execution) {
            /* A LOB read or write belongs to the statement whose rows brought
             * the locator: python-oracledb and JDBC read a row's LOBs as they
             * fetch it, so the latest execution whose rows carried locators. */
            req->execution = ts->lob_execution;
            req->stmt_sql = ts->lob_sql;
        }
        if (ts->close_req == req && req->call.func == TTC_FN_PING && req->call.seq == ts->close_seq &&
            !req->execution) {
            /* go-ora's statement Close: an OPING of its own carrying the
             * close (the same sequence number, 0: go-ora numbers no call; a
             * client that numbers its calls gives a piggybacked close a
             * number of its own, and JDBC's isValid() OPING that carries one
             * is a ping).  The round trip is part of the execution it ends. */
            req->closes_cursor = TRUE;
            req->execution = ts->close_execution;
            req->stmt_sql = ts->close_sql;
        }
        req->frame = pinfo->num;
        rec->carries_call = TRUE;
    }
}

void
apply_server_result(ttc_session_t *ts, const sqlnet_session_t *sess, packet_info *pinfo,
                    ttc_msg_result_t *res, gint msg_len, const ttc_state_t *st, ttc_pdu_rec_t *rec)
{
    ttc_response_t *resp = ts->resp;
    ttc_request_t *req;

    if (res->dialect_update)
        set_dialect(ts, sess, &res->dialect);
    if (!resp)
        return;
    req = resp->req;
    if (res->row) {
        resp->rows += 1 + res->more_rows;
        if (st->describe && st->describe->has_lob && req && req->execution) {
            ts->lob_execution = req->execution;
            ts->lob_sql = req->stmt_sql;
        }
    }
    /* Row data of a result set (out-bind values are not rows). */
    if ((res->row || res->type == TTC_MSG_BIT_VECTOR) && msg_len > 0)
        resp->row_bytes += (guint32)msg_len;
    if (res->type == TTC_MSG_BIT_VECTOR && msg_len > 0)
        resp->bvc_bytes += (guint32)msg_len;
    resp->bvc_bytes += res->more_bvc_bytes;
    /* Cursors the reply opened (REF cursors, implicit results): their
     * fetches walk rows with the describe that came with them and count
     * as an execution of the statement that opened them. */
    for (guint32 i = 0; i < res->ncursors; i++) {
        ttc_cursor_t *c = cursor_get(ts, res->cursors[i].id, TRUE, rec);
        if (c) {
            c->describe = describe_keep(res->cursors[i].describe);
            c->binds = NULL;
            c->sql = req ? (req->stmt_sql ? req->stmt_sql : req->call.sql) : NULL;
            c->execution = req ? req->execution : 0;
            c->rowcount = 0;
        }
    }
    if (res->has_oer) {
        resp->has_oer = TRUE;
        resp->cursor = res->oer_cursor;
        resp->rowcount = res->oer_rowcount;
        resp->ora_error = res->oer_error;
        resp->call_status = res->call_status;
        if (res->oer_message)
            resp->ora_message = wmem_strdup(wmem_file_scope(), res->oer_message);
        if (res->oer_cursor != 0) {
            ttc_cursor_t *c = cursor_get(ts, res->oer_cursor, TRUE, rec);
            if (c && req && req->call.func == TTC_FN_DP_PREPARE) {
                /* A direct path load's cursor (python-oracledb
                 * DirectPathPrepareMessage: a table and its columns, no
                 * SQL text; the reply names the cursor it opened): what an
                 * earlier cursor of the same number ran is not its text,
                 * nor are its binds, describe or execution its own. */
                c->sql = NULL;
                c->binds = NULL;
                c->returning_binds = 0;
                c->describe = NULL;
                c->execution = 0;
            }
            if (c) {
                if (req && req->execution && req->call.func == TTC_FN_OALL8)
                    c->execution = req->execution;   /* cursor id known only now */
                if (req && req->call.sql)
                    c->sql = req->call.sql;
                if (req && req->call.func == TTC_FN_OALL8 && (req->call.sql || ttc_req_rare(req)->binds)) {
                    /* the binds its execute laid out (none: NULL), for the
                     * re-executes that send the values alone */
                    c->binds = ttc_req_rare(req)->binds;
                    c->returning_binds = ttc_req_rare(req)->returning_binds;
                }
                if (st->describe && req && req->call.func == TTC_FN_OALL8)
                    c->describe = st->describe;
                c->rowcount = res->oer_rowcount;
                c->exhausted = res->oer_error == TTC_ERR_NO_DATA_FOUND;
                if (req && !req->stmt_sql)
                    req->stmt_sql = c->sql;
            }
        }
    }
    /* Inside a fast-auth reply the PRO and DTY answers are only the start. */
    if ((res->type == TTC_MSG_PROTOCOL || res->type == TTC_MSG_DATA_TYPES) && req &&
        (req->call.kind == TTC_REQ_FAST_AUTH || req->negotiates))
        res->terminal = FALSE;
    if (res->eor ||
        (res->terminal && (!ts->dialect.eor ||
                           (req && (req->call.kind == TTC_REQ_PROTOCOL || req->call.kind == TTC_REQ_DATA_TYPES))))) {
        rec->completes = TRUE;
        close_response(ts, pinfo, pinfo->num, &pinfo->abs_ts, TRUE);
    }
}

/* This packet was noted as more of the latest request (ttc_note_packet):
 * it starts the next one instead. */
void
split_request(ttc_session_t *ts, packet_info *pinfo, guint32 tns_len, guint16 data_flags)
{
    ttc_request_t *old = ts->req, *req;

    old->tns_packets--;
    old->tns_bytes -= tns_len;
    old->ttc_bytes -= tns_data_bytes(tns_len);
    old->frame = ts->client_prev_frame;
    old->last_ns = sqlnet_ns_pack(&ts->client_prev_time);
    old->ended = TRUE;                 /* over: the next one starts here */
    /* An execute on a new cursor: no reply names its cursor, so the next
     * call on a cursor not seen before is taken to be on it (as after a
     * response cut before its end-of-call status). */
    if (ttc_req_executes(old) && !(old->call.has_cursor && old->call.cursor != 0))
        ts->unbound = old;
    ts->wait_head = ts->wait_n = 0;   /* no answer to wait for */
    req = open_request(ts, pinfo, TTC_REQ_NONE);
    request_add_packet(req, pinfo, tns_len, data_flags);
}


guint32
ttc_round_trip_number(ttc_session_t *ts, ttc_response_t *resp)
{
    if (resp->number == 0 && resp->req)
        ttc_response_set_number(resp, ++ts->round_trips);
    return resp->number;
}
