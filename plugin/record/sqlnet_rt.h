/* sqlnet_rt.h - the round-trip record as the "sqlnet" tap publishes it: the
 * request and response records by reference, plus what exists only where
 * the record is published (the conversation, tcp.stream, the SQL_ID, the
 * negotiated sizes, the response's TCP segments as counted by then).
 *
 * Consumers read it through the accessors below (a record without a
 * request reads as no call, no fetch, zero times), or column by column:
 * SQLNET_RT_BASE_COLUMNS and the call facts (TTC_CALL_FACTS,
 * ttc_roundtrip.h) make one table of named values, printed by
 * -z sqlnet,rt (stats.c) and read by name from Lua (lua_records.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SQLNET_RT_H
#define SQLNET_RT_H

#include <epan/packet.h>
#include "ttc_roundtrip.h"

#define SQLNET_TAP_NAME "sqlnet"

typedef struct sqlnet_rt {
    const ttc_request_t *req;      /* NULL: a response without a request */
    const ttc_response_t *resp;
    guint32 conversation;          /* conversation index */
    guint32 tcp_stream;            /* tcp.stream */
    const char *sql_id;            /* SQL_ID of the statement text (NULL: no text) */
    guint32 sdu;                   /* the session's SDU as it stands */
    gboolean negotiated;           /* the ACCEPT was seen: the three below */
    guint32 negotiated_sdu, negotiated_tdu, negotiated_version;
    /* the response's TCP segments as counted when the record is published
     * (a listener on the tcp tap may count more of the frame later) */
    guint32 segments;
    guint32 largest_segment;       /* payload bytes of its largest segment; 0 = unknown (TLS) */
    gboolean multi_segment;        /* a TNS packet of the response spanned TCP segments */
} sqlnet_rt_t;

/* ---- accessors ---------------------------------------------------------- */

static inline ttc_req_kind_t
sqlnet_rt_kind(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->call.kind : TTC_REQ_NONE;
}

/* The round trip answered a function call (sqlnet.rt.call is shown). */
static inline gboolean
sqlnet_rt_is_call(const sqlnet_rt_t *rt)
{
    return sqlnet_rt_kind(rt) == TTC_REQ_FUNCTION || sqlnet_rt_kind(rt) == TTC_REQ_FAST_AUTH;
}

static inline guint8
sqlnet_rt_func(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->call.func : 0;
}

static inline gboolean
sqlnet_rt_has_fetch_rows(const sqlnet_rt_t *rt)
{
    return rt->req && rt->req->call.has_fetch_rows;
}

static inline guint32
sqlnet_rt_fetch_rows(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->call.fetch_rows : 0;
}

static inline gboolean
sqlnet_rt_executes(const sqlnet_rt_t *rt)
{
    return rt->req && ttc_req_executes(rt->req);
}

static inline guint32
sqlnet_rt_execution(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->execution : 0;
}

static inline guint32
sqlnet_rt_request_frame(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->frame : 0;
}

/* Statement text (the cursor's), NULL if unknown. */
static inline const char *
sqlnet_rt_sql(const sqlnet_rt_t *rt)
{
    return rt->req ? rt->req->stmt_sql : NULL;
}

/* As sqlnet.rt.cursor: the end-of-call status's, else the call's; 0 = none. */
static inline guint32
sqlnet_rt_cursor(const sqlnet_rt_t *rt)
{
    if (rt->resp->has_oer && rt->resp->cursor != 0)
        return rt->resp->cursor;
    if (rt->req && rt->req->call.has_cursor)
        return rt->req->call.cursor;
    return 0;
}

/* ttc_partial_t of the round trip: its response's, else its request's. */
static inline guint8
sqlnet_rt_partial(const sqlnet_rt_t *rt)
{
    if (rt->resp->partial)
        return rt->resp->partial;
    return rt->req ? rt->req->partial : TTC_PARTIAL_NONE;
}

/* When the request was sent (its last packet); zero without one. */
static inline nstime_t
sqlnet_rt_abs_request(const sqlnet_rt_t *rt)
{
    nstime_t t = NSTIME_INIT_ZERO;
    if (rt->req)
        t = rt->req->last_time;
    return t;
}

/* Request to the response's last packet; zero without a request. */
static inline nstime_t
sqlnet_rt_time(const sqlnet_rt_t *rt)
{
    nstime_t d = NSTIME_INIT_ZERO;
    if (rt->req)
        nstime_delta(&d, &rt->resp->last_time, &rt->req->last_time);
    return d;
}

/* Request to the response's first packet; zero without a request. */
static inline nstime_t
sqlnet_rt_time_first(const sqlnet_rt_t *rt)
{
    nstime_t d = NSTIME_INIT_ZERO;
    if (rt->req)
        nstime_delta(&d, &rt->resp->first_time, &rt->req->last_time);
    return d;
}

/* A time in nanoseconds (0 when negative). */
static inline guint64
sqlnet_rt_ns(nstime_t t)
{
    if (t.secs < 0 || t.nsecs < 0)
        return 0;
    return (guint64)t.secs * 1000000000u + (guint64)t.nsecs;
}

/* ---- the record as named columns ----------------------------------------
 * X(id, "name", present, value) with `rt` in scope; a value is read only
 * when present.  Names: as the sqlnet.rt.* field where there is one. */
#define SQLNET_RT_BASE_COLUMNS(X) \
    X(conversation, "conversation", TRUE, rt->conversation) \
    X(tcp_stream, "tcp_stream", TRUE, rt->tcp_stream) \
    X(number, "number", rt->req != NULL, rt->resp->number) \
    X(request_frame, "request_frame", rt->req != NULL, rt->req->frame) \
    X(response_frame, "response_frame", TRUE, rt->resp->last_frame) \
    X(call, "call", sqlnet_rt_is_call(rt), rt->req->call.func) \
    X(execution, "execution", sqlnet_rt_execution(rt) != 0, sqlnet_rt_execution(rt)) \
    X(cursor, "cursor", sqlnet_rt_cursor(rt) != 0, sqlnet_rt_cursor(rt)) \
    X(rows_asked, "rows_asked", sqlnet_rt_has_fetch_rows(rt), rt->req->call.fetch_rows) \
    X(rows, "rows", TRUE, rt->resp->rows) \
    X(req_ttc_bytes, "request.ttc_bytes", rt->req != NULL, rt->req->ttc_bytes) \
    X(req_tns_bytes, "request.tns_bytes", rt->req != NULL, rt->req->tns_bytes) \
    X(req_packets, "request.packets", rt->req != NULL, rt->req->tns_packets) \
    X(resp_ttc_bytes, "response.ttc_bytes", TRUE, rt->resp->ttc_bytes) \
    X(resp_tns_bytes, "response.tns_bytes", TRUE, rt->resp->bytes) \
    X(resp_packets, "response.packets", TRUE, rt->resp->packets) \
    X(resp_data_packets, "response.data_packets", TRUE, rt->resp->data_packets) \
    X(resp_segments, "response.segments", TRUE, rt->segments) \
    X(row_bytes, "row_bytes", TRUE, rt->resp->row_bytes) \
    X(bvc_bytes, "bvc_bytes", TRUE, rt->resp->bvc_bytes) \
    X(time_ns, "time_ns", rt->req != NULL, sqlnet_rt_ns(sqlnet_rt_time(rt))) \
    X(first_ns, "first_ns", rt->req != NULL, sqlnet_rt_ns(sqlnet_rt_time_first(rt))) \
    X(ora_error, "ora_error", rt->resp->has_oer, rt->resp->ora_error) \
    X(partial, "partial", sqlnet_rt_partial(rt) != 0, sqlnet_rt_partial(rt)) \
    X(largest_segment, "largest_segment", rt->largest_segment > 0, rt->largest_segment) \
    X(sdu, "sdu", rt->negotiated, rt->negotiated_sdu) \
    X(tdu, "tdu", rt->negotiated, rt->negotiated_tdu) \
    X(version, "version", rt->negotiated, rt->negotiated_version) \
    X(network_ns, "time.network_ns", rt->resp->timing.known && rt->resp->timing.rtt_known, \
      sqlnet_rt_ns(rt->resp->timing.network)) \
    X(server_ns, "time.server_ns", rt->resp->timing.known, sqlnet_rt_ns(rt->resp->timing.server)) \
    X(transfer_ns, "time.transfer_ns", rt->resp->timing.known, sqlnet_rt_ns(rt->resp->timing.transfer)) \
    X(client_ns, "time.client_ns", rt->resp->timing.known, sqlnet_rt_ns(rt->resp->timing.client)) \
    X(rtt_ns, "rtt_ns", rt->resp->timing.known && rt->resp->timing.rtt_known, sqlnet_rt_ns(rt->resp->timing.rtt)) \
    X(vantage, "capture_point", rt->resp->timing.known && rt->resp->timing.rtt_known, rt->resp->timing.vantage)

typedef enum {
#define SQLNET_RT_COL_ENUM(id, name, have, val) SQLNET_RT_COL_##id,
    SQLNET_RT_BASE_COLUMNS(SQLNET_RT_COL_ENUM)
#undef SQLNET_RT_COL_ENUM
#define SQLNET_RT_FACT_ENUM(m, abbrev, name, desc) SQLNET_RT_COL_call_##m,
    TTC_CALL_FACTS(SQLNET_RT_FACT_ENUM)
#undef SQLNET_RT_FACT_ENUM
    SQLNET_RT_NCOLUMNS
} sqlnet_rt_column_t;

/* Column col's name ("rows", "request.ttc_bytes", a call fact's abbrev). */
static inline const char *
sqlnet_rt_column_name(guint col)
{
    switch (col) {
#define SQLNET_RT_COL_NAME(id, name, have, val) case SQLNET_RT_COL_##id: return name;
    SQLNET_RT_BASE_COLUMNS(SQLNET_RT_COL_NAME)
#undef SQLNET_RT_COL_NAME
#define SQLNET_RT_FACT_NAME(m, abbrev, name, desc) case SQLNET_RT_COL_call_##m: return abbrev;
    TTC_CALL_FACTS(SQLNET_RT_FACT_NAME)
#undef SQLNET_RT_FACT_NAME
    default: return NULL;
    }
}

/* Column col of a record: FALSE when absent. */
static inline gboolean
sqlnet_rt_column(const sqlnet_rt_t *rt, guint col, guint64 *v)
{
    switch (col) {
#define SQLNET_RT_COL_GET(id, name, have, val) \
    case SQLNET_RT_COL_##id: if (!(have)) return FALSE; *v = (guint64)(val); return TRUE;
    SQLNET_RT_BASE_COLUMNS(SQLNET_RT_COL_GET)
#undef SQLNET_RT_COL_GET
#define SQLNET_RT_FACT_GET(m, abbrev, name, desc) \
    case SQLNET_RT_COL_call_##m: if (!rt->req || !rt->req->call.m) return FALSE; *v = rt->req->call.m; return TRUE;
    TTC_CALL_FACTS(SQLNET_RT_FACT_GET)
#undef SQLNET_RT_FACT_GET
    default: return FALSE;
    }
}

#endif /* SQLNET_RT_H */
