/* sqlnet_rt.h - the round-trip record as the "sqlnet" tap publishes it: the
 * request and response records by reference, plus what exists only where
 * the record is published (the conversation, tcp.stream, the SQL_ID, the
 * negotiated sizes, the response's TCP segments as counted by then).
 *
 * Consumers read it through the accessors below (a record without a
 * request reads as no call, no fetch, zero times), or column by column:
 * SQLNET_RT_COLUMNS (below) and the call facts (TTC_CALL_FACTS,
 * ttc_roundtrip.h) make one table of named values: the sqlnet.rt.* fields,
 * the sqlnet.rt.values string, -z sqlnet,rt (stats.c) and what Lua reads by
 * name (lua_records.c).
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
    /* chatty applications (consumers/patterns.c, issue 36), decided when the
     * record is first published */
    guint32 exec_number;           /* its SQL text's execution number in the conversation (0: none) */
    guint8 pattern;                /* sqlnet_pattern_t once its run is a pattern (0: none) */
    guint8 run_kind;               /* sqlnet_pattern_t of its run (0: not in one) */
    guint32 run_first;             /* first frame of its run */
    guint32 run_index;             /* its call's place in the run (1-based; 0: not in one) */
    guint32 reparse_first;         /* an execute with a parse: first frame of its statement's run of them */
    guint32 reparse_index;         /* ... its place in that run (1-based; 0: not one) */
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
        t = ttc_req_last_time(rt->req);
    return t;
}

/* Request to the response's last packet; zero without a request. */
static inline nstime_t
sqlnet_rt_time(const sqlnet_rt_t *rt)
{
    nstime_t d = NSTIME_INIT_ZERO;
    if (rt->req) {
        nstime_t a = ttc_resp_last_time(rt->resp), b = ttc_req_last_time(rt->req);
        nstime_delta(&d, &a, &b);
    }
    return d;
}

/* Request to the response's first packet; zero without a request. */
static inline nstime_t
sqlnet_rt_time_first(const sqlnet_rt_t *rt)
{
    nstime_t d = NSTIME_INIT_ZERO;
    if (rt->req) {
        nstime_t a = ttc_resp_first_time(rt->resp), b = ttc_req_last_time(rt->req);
        nstime_delta(&d, &a, &b);
    }
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

/* The idle part of the client's gap before the call (sqlnet.rt.time.idle):
 * timing.c fills sqlnet_timing_t.idle; present with a gap (a previous response). */
static inline gboolean
sqlnet_rt_has_idle(const sqlnet_rt_t *rt)
{
    return rt->resp->timing.known && rt->resp->timing.has_gap;
}

/* What the client waited for the round trip (sqlnet.rt.wait): network + server
 * + transfer (the network part is one RTT where the capture shows it, so a
 * capture taken near the server counts the RTT the client lived). */
static inline guint64
sqlnet_rt_wait_ns(const sqlnet_rt_t *rt)
{
    const sqlnet_timing_kept_t *t = &rt->resp->timing;
    return sqlnet_timing_part_ns(t, network) + sqlnet_timing_part_ns(t, server) +
           sqlnet_timing_part_ns(t, transfer);
}

/* The ORA error of the round trip (sqlnet.rt.ora_error): an end-of-call status
 * other than 0 (success) and 1403 (no more rows, the end of a result). */
static inline gboolean
sqlnet_rt_has_ora_error(const sqlnet_rt_t *rt)
{
    return rt->resp->has_oer && rt->resp->ora_error != 0 && rt->resp->ora_error != TTC_ERR_NO_DATA_FOUND;
}

/* ---- the round-trip record: ONE declaration -------------------------------
 * Every column of the record is one row here; from it are generated
 *   - the field sqlnet.rt.<abbrev>, its registration and its item in the
 *     "Round trip" subtree (metrics.c), when KIND is not NONE;
 *   - its place in the sqlnet.rt.values string (metrics.c), when VALUES is V;
 *   - a column of -z sqlnet,rt (stats.c) and the name Lua reads it by
 *     (lua_records.c: col:fact(i, "<column>"), records.columns());
 *   - the batch job's record columns (sqlnet_batch, from the values field's
 *     description as tshark -G fields prints it).
 * Adding a column is one row.
 *
 * X(id, "column", KIND, "abbrev", "Name", "Description", VALUES, present, value)
 *   with `rt` (const sqlnet_rt_t *) in scope; value is read only when present.
 *   KIND (what the field is):
 *     NONE     no field (a column only)
 *     UINT     FT_UINT32, decimal
 *     BYTES    FT_UINT32, decimal, unit "bytes"
 *     CALL     FT_UINT8, the TTC function's name
 *     PARTIAL  FT_UINT8, the ttc_partial_t's name
 *     PATTERN  FT_UINT8, the pattern's name (patterns.h: repeated_query ...)
 *     MS       a time: the column in nanoseconds (its name ends in _ns), the
 *              field an FT_DOUBLE in milliseconds shown with 3 decimals
 *              ("21.675 ms"): every time of sqlnet.rt.* is in ms
 *   VALUES: V = in sqlnet.rt.values (in this order, after "rt1"), N = not.
 *   The first 22 V rows are the string's historical layout, read by position
 *   (lua/sqlnet_advise.lua, lua/sqlnet_report.lua): add V rows after them.
 *
 * One rule per value: the cursor is sqlnet_rt_cursor() everywhere; ora_status
 * is the end-of-call status's number (0 and 1403 included: the readers need
 * 1403, the end of a result), ora_error the same number only when it is an
 * error (neither 0 nor 1403), as field, column and Lua name alike. */
#define SQLNET_RT_COLUMNS(X) \
    X(conversation, "conversation", NONE, "", "", "", N, TRUE, rt->conversation) \
    X(tcp_stream, "tcp_stream", NONE, "", "", "", N, TRUE, rt->tcp_stream) \
    X(number, "number", UINT, "number", "Round trip", \
      "Round trip number in its conversation (1-based)", V, rt->req != NULL, rt->resp->number) \
    X(request_frame, "request_frame", NONE, "", "", "", V, rt->req != NULL, rt->req->frame) \
    X(response_frame, "response_frame", NONE, "", "", "", N, TRUE, rt->resp->last_frame) \
    X(call, "call", CALL, "call", "Call", "The call this round trip answered, when known", V, \
      sqlnet_rt_is_call(rt), rt->req->call.func) \
    X(execution, "execution", UINT, "execution", "Execution", \
      "Statement execution the call belongs to (as sqlnet.execution)", V, \
      sqlnet_rt_execution(rt) != 0, sqlnet_rt_execution(rt)) \
    X(cursor, "cursor", UINT, "cursor", "Cursor", \
      "Cursor of the round trip: the id in its end-of-call status, else the cursor its call named", V, \
      sqlnet_rt_cursor(rt) != 0, sqlnet_rt_cursor(rt)) \
    X(rows_asked, "rows_asked", UINT, "rows_asked", "Rows asked", \
      "Rows the call asked for (as sqlnet.fetch.rows), when it asks: the array size (fetch size) of a fetch; " \
      "also sqlnet.rt.array_size", V, sqlnet_rt_has_fetch_rows(rt), rt->req->call.fetch_rows) \
    X(rows, "rows", UINT, "rows", "Rows", \
      "Rows delivered (always present: COUNT = round trips, SUM = rows, AVG = rows per round trip)", V, \
      TRUE, rt->resp->rows) \
    X(req_ttc_bytes, "request.ttc_bytes", BYTES, "request.ttc_bytes", "Request bytes via SQL*Net", \
      "TTC bytes of the request (as sqlnet.request.ttc_bytes)", V, rt->req != NULL, rt->req->ttc_bytes) \
    X(req_tns_bytes, "request.tns_bytes", BYTES, "request.tns_bytes", "Request TNS bytes", \
      "Bytes of the request's TNS packets, headers included (as sqlnet.request.bytes)", V, \
      rt->req != NULL, rt->req->tns_bytes) \
    X(req_packets, "request.packets", UINT, "request.packets", "Request TNS packets", \
      "TNS packets of the request", V, rt->req != NULL, rt->req->tns_packets) \
    X(resp_ttc_bytes, "response.ttc_bytes", BYTES, "response.ttc_bytes", "Response bytes via SQL*Net", \
      "TTC bytes of the response (as sqlnet.response.ttc_bytes)", V, TRUE, rt->resp->ttc_bytes) \
    X(resp_tns_bytes, "response.tns_bytes", BYTES, "response.tns_bytes", "Response TNS bytes", \
      "Bytes of the response's TNS packets, headers and markers included (as sqlnet.response.bytes)", V, \
      TRUE, rt->resp->bytes) \
    X(resp_packets, "response.packets", UINT, "response.packets", "Response TNS packets", \
      "All TNS packets of the response, markers included (as sqlnet.response.packets)", V, \
      TRUE, rt->resp->packets) \
    X(resp_data_packets, "response.data_packets", UINT, "response.data_packets", "Response TNS DATA packets", \
      "TNS DATA packets of the response (as sqlnet.response.data_packets)", V, TRUE, ttc_resp_data_packets(rt->resp)) \
    X(resp_segments, "response.segments", UINT, "response.segments", "Response TCP segments", \
      "TCP segments with payload that carried the response (as sqlnet.response.segments; a " \
      "retransmission is not one more): its " \
      "fragmentation", V, TRUE, rt->segments) \
    X(row_bytes, "row_bytes", NONE, "", "", "", V, TRUE, rt->resp->row_bytes) \
    X(bvc_bytes, "bvc_bytes", NONE, "", "", "", V, TRUE, rt->resp->bvc_bytes) \
    X(time_ns, "time_ns", MS, "time", "Response time", \
      "Milliseconds from the request's last packet to the response's last packet (sqlnet.time in ms)", V, \
      rt->req != NULL, sqlnet_rt_ns(sqlnet_rt_time(rt))) \
    X(first_ns, "first_ns", NONE, "", "", "", V, rt->req != NULL, sqlnet_rt_ns(sqlnet_rt_time_first(rt))) \
    X(ora_status, "ora_status", UINT, "ora_status", "ORA status", \
      "Error number of the response's end-of-call status, as sqlnet.ora_error (0 = success, " \
      "1403 = no more rows), when the response carries one", V, rt->resp->has_oer, rt->resp->ora_error) \
    X(partial, "partial", PARTIAL, "partial", "Partial", \
      "Only when the round trip was not decoded to its end (1 = cut by the capture, 2 = undecoded)", V, \
      sqlnet_rt_partial(rt) != 0, sqlnet_rt_partial(rt)) \
    X(largest_segment, "largest_segment", NONE, "", "", "", V, rt->largest_segment > 0, rt->largest_segment) \
    X(sdu, "sdu", NONE, "", "", "", V, rt->negotiated, rt->negotiated_sdu) \
    X(tdu, "tdu", NONE, "", "", "", V, rt->negotiated, rt->negotiated_tdu) \
    X(version, "version", NONE, "", "", "", V, rt->negotiated, rt->negotiated_version) \
    X(network_ns, "time.network_ns", MS, "time.network", "Network time", \
      "sqlnet.time.network in milliseconds", V, rt->resp->timing.known && rt->resp->timing.rtt_known, \
      sqlnet_timing_part_ns(&rt->resp->timing, network)) \
    X(server_ns, "time.server_ns", MS, "time.server", "Server time", "sqlnet.time.server in milliseconds", V, \
      rt->resp->timing.known, sqlnet_timing_part_ns(&rt->resp->timing, server)) \
    X(transfer_ns, "time.transfer_ns", MS, "time.transfer", "Transfer time", \
      "sqlnet.time.transfer in milliseconds", V, rt->resp->timing.known, sqlnet_timing_part_ns(&rt->resp->timing, transfer)) \
    X(client_ns, "time.client_ns", MS, "time.client", "Client time", "sqlnet.time.client in milliseconds", V, \
      rt->resp->timing.known, sqlnet_timing_part_ns(&rt->resp->timing, client)) \
    X(rtt_ns, "rtt_ns", NONE, "", "", "", V, rt->resp->timing.known && rt->resp->timing.rtt_known, \
      sqlnet_timing_part_ns(&rt->resp->timing, rtt)) \
    X(vantage, "capture_point", NONE, "", "", "", V, rt->resp->timing.known && rt->resp->timing.rtt_known, \
      rt->resp->timing.vantage) \
    X(ora_error, "ora_error", UINT, "ora_error", "ORA error", \
      "Only when the response carries an error other than 0 and 1403 (sqlnet.rt.ora_status is the status " \
      "whatever it is)", V, sqlnet_rt_has_ora_error(rt), rt->resp->ora_error) \
    X(wait_ns, "wait_ns", MS, "wait", "Response time (client's wait)", \
      "What the client waited for this round trip, in milliseconds: network + server + transfer (one RTT " \
      "included when captured near the server, where sqlnet.rt.time does not show it)", V, \
      rt->resp->timing.known, sqlnet_rt_wait_ns(rt)) \
    X(idle_ns, "time.idle_ns", MS, "time.idle", "Idle time", \
      "The idle part of the client's gap before the call, in milliseconds (apart from the client time)", V, \
      sqlnet_rt_has_idle(rt), sqlnet_timing_part_ns(&rt->resp->timing, idle)) \
    X(array_size, "array_size", UINT, "array_size", "Array size (rows asked per fetch)", \
      "Array size, fetch size: rows the call asked for (as sqlnet.rt.rows_asked and sqlnet.fetch.rows), " \
      "when it asks", N, sqlnet_rt_has_fetch_rows(rt), rt->req->call.fetch_rows) \
    X(exec_number, "execution_number", UINT, "execution_number", "Execution of its SQL", \
      "This SQL text's execution number in the conversation (1 = its first execution; the fetches of an " \
      "execution carry its number; as sqlnet.stmt.execution_number)", V, rt->exec_number != 0, rt->exec_number) \
    X(pattern, "pattern", PATTERN, "pattern", "Avoidable round trips (pattern)", \
      "The chatty-application pattern this round trip is part of, from the call that made its run one " \
      "(docs/time.md): repeated_query (N+1), row_by_row_dml, commit, ping, lob_per_row (as sqlnet.pattern)", \
      V, rt->pattern != 0, rt->pattern) \
    X(run_kind, "pattern.kind", NONE, "", "", "", V, rt->run_index != 0, rt->run_kind) \
    X(run_first, "pattern.run_first", NONE, "", "", "", V, rt->run_index != 0, rt->run_first) \
    X(run_index, "pattern.run_index", NONE, "", "", "", V, rt->run_index != 0, rt->run_index) \
    X(reparse_first, "reparse.run_first", NONE, "", "", "", V, rt->reparse_index != 0, rt->reparse_first) \
    X(reparse_index, "reparse.run_index", NONE, "", "", "", V, rt->reparse_index != 0, rt->reparse_index)

/* The historical name of the record's columns (before the declaration above
 * had a field per row): the same table. */
#define SQLNET_RT_BASE_COLUMNS(X) SQLNET_RT_COLUMNS(X)

typedef enum {
#define SQLNET_RT_COL_ENUM(id, name, kind, abbrev, label, desc, vals, have, val) SQLNET_RT_COL_##id,
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
#define SQLNET_RT_COL_NAME(id, name, kind, abbrev, label, desc, vals, have, val) case SQLNET_RT_COL_##id: return name;
    SQLNET_RT_BASE_COLUMNS(SQLNET_RT_COL_NAME)
#undef SQLNET_RT_COL_NAME
#define SQLNET_RT_FACT_NAME(m, abbrev, name, desc) case SQLNET_RT_COL_call_##m: return abbrev;
    TTC_CALL_FACTS(SQLNET_RT_FACT_NAME)
#undef SQLNET_RT_FACT_NAME
    default: return NULL;
    }
}

/* What a column's field is (SQLNET_RT_COLUMNS's KIND; a call fact: UINT). */
typedef enum {
    SQLNET_RT_KIND_NONE,       /* no field */
    SQLNET_RT_KIND_UINT,
    SQLNET_RT_KIND_BYTES,
    SQLNET_RT_KIND_CALL,
    SQLNET_RT_KIND_PARTIAL,
    SQLNET_RT_KIND_PATTERN,    /* FT_UINT8, sqlnet_pattern_vals */
    SQLNET_RT_KIND_MS          /* the column in ns, the field in ms */
} sqlnet_rt_kind_t;

static inline sqlnet_rt_kind_t
sqlnet_rt_column_kind(guint col)
{
    switch (col) {
#define SQLNET_RT_COL_KIND(id, name, kind, abbrev, label, desc, vals, have, val) \
    case SQLNET_RT_COL_##id: return SQLNET_RT_KIND_##kind;
    SQLNET_RT_COLUMNS(SQLNET_RT_COL_KIND)
#undef SQLNET_RT_COL_KIND
    default: return col < SQLNET_RT_NCOLUMNS ? SQLNET_RT_KIND_UINT : SQLNET_RT_KIND_NONE;
    }
}

/* The column is in the sqlnet.rt.values string (VALUES V). */
#define SQLNET_RT_IN_VALUES_V TRUE
#define SQLNET_RT_IN_VALUES_N FALSE
static inline gboolean
sqlnet_rt_column_in_values(guint col)
{
    switch (col) {
#define SQLNET_RT_COL_INV(id, name, kind, abbrev, label, desc, vals, have, val) \
    case SQLNET_RT_COL_##id: return SQLNET_RT_IN_VALUES_##vals;
    SQLNET_RT_COLUMNS(SQLNET_RT_COL_INV)
#undef SQLNET_RT_COL_INV
    default: return FALSE;
    }
}

/* The names of the sqlnet.rt.values string's numbers, in order, as one
 * string literal (" number request_frame ..."): the values field's
 * description carries it, so a reader learns the layout from the plugin. */
#define SQLNET_RT_VALUES_NAME_V(name) " " name
#define SQLNET_RT_VALUES_NAME_N(name)
#define SQLNET_RT_VALUES_NAME(id, name, kind, abbrev, label, desc, vals, have, val) \
    SQLNET_RT_VALUES_NAME_##vals(name)
#define SQLNET_RT_VALUES_NAMES SQLNET_RT_COLUMNS(SQLNET_RT_VALUES_NAME)

/* Column col of a record: FALSE when absent. */
static inline gboolean
sqlnet_rt_column(const sqlnet_rt_t *rt, guint col, guint64 *v)
{
    switch (col) {
#define SQLNET_RT_COL_GET(id, name, kind, abbrev, label, desc, vals, have, val) \
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
