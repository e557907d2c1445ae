"""The wire AUTOTRACE table (-z sqlnet,stmt) over a set's records.

The statements are plain SQL over the table `records` (the carried records of
every file), the same text for DuckDB and Spark SQL.  One row per SQL text
(NULL: the calls outside a statement), with the -z sqlnet,stmt figures that
the records carry:
  executions   round trips that start an execution: the first round trip of
               a (file, conversation, sqlnet.rt.execution) that is not a fetch
               (a fetch continuing an execution of an earlier file is not one)
  fetch calls  round trips of call 5 (OFETCH)
  response time sum/avg/max over the complete round trips (`complete`: not
               cut short by the next call)
  time parts   sums over the round trips whose parts are known: network,
               server, transfer, client and idle (the idle part of the
               client's gaps, apart); elapsed = network + server +
               transfer + client
"""

FETCH = 5

AGGREGATE = """
WITH r AS (
  SELECT *,
         CASE WHEN request_file = file OR request_file IS NULL THEN file_index ELSE file_index - 1 END
           AS request_file_index,
         row_number() OVER (PARTITION BY file_index, conversation, execution ORDER BY frame) AS nth_in_execution
  FROM records
)
SELECT sql,
  max(sql_id) AS sql_id,
  min(request_file_index * 4294967296 + coalesce(request_frame, frame)) AS first_pos,
  max(file_index * 4294967296 + frame) AS last_pos,
  sum(CASE WHEN execution IS NOT NULL AND nth_in_execution = 1 AND (call IS NULL OR call <> 5) AND sql IS NOT NULL
      THEN 1 ELSE 0 END) AS executions,
  sum(CASE WHEN call = 5 THEN 1 ELSE 0 END) AS fetch_calls,
  sum(rows) AS rows_processed,
  count(*) AS round_trips,
  sum(response_ttc_bytes) AS bytes_to_client,
  sum(request_ttc_bytes) AS bytes_from_client,
  sum(response_tns_bytes) AS tns_bytes_to_client,
  sum(request_tns_bytes) AS tns_bytes_from_client,
  sum(row_bytes) AS row_bytes_to_client,
  sum(response_packets) AS packets_to_client,
  sum(response_segments) AS segments_to_client,
  sum(CASE WHEN complete THEN time_ms ELSE 0 END) AS response_time_sum_ms,
  sum(CASE WHEN complete THEN 1 ELSE 0 END) AS complete_round_trips,
  max(CASE WHEN complete THEN time_ms END) AS response_time_max_ms,
  sum(CASE WHEN response_data_packets > 1 THEN 1 ELSE 0 END) AS more_data_responses,
  sum(CASE WHEN partial <> 0 THEN 1 ELSE 0 END) AS partial_round_trips,
  sum(CASE WHEN file_partial THEN 1 ELSE 0 END) AS in_truncated_file,
  sum(CASE WHEN client_ms IS NOT NULL THEN coalesce(network_ms, 0) ELSE 0 END) AS network_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN server_ms ELSE 0 END) AS server_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN transfer_ms ELSE 0 END) AS transfer_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN client_ms ELSE 0 END) AS client_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN coalesce(idle_ms, 0) ELSE 0 END) AS idle_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN 1 ELSE 0 END) AS timed,
  min(file_index) AS first_file_index, max(file_index) AS last_file_index,
  sum(CASE WHEN sql_carried THEN 1 ELSE 0 END) AS sql_carried
FROM r
GROUP BY sql
"""

# Chatty applications (issue 36, plugin/consumers/patterns.c): the runs the
# plugin marked on each round trip (pattern_kind, pattern_run_first: the run's
# first frame, pattern_run_index: its call's place in the run), summed per SQL
# text and kind as account.c sums them: a run of PATTERN_MIN_RUN calls or more
# is a pattern; its calls (each run's length), the round trips of its calls
# after the first and their network + server + client time (what one call
# would save).  assemble() keeps, per text, the kind that saves the most.
PATTERN_MIN_RUN = 10
PATTERN_NAMES = {1: "repeated_query", 2: "row_by_row_dml", 3: "commit", 4: "ping", 5: "lob_per_row"}
PATTERN_COLUMNS = ("pattern_kind", "pattern_run_first", "pattern_run_index")
PATTERNS = """
WITH runs AS (
  SELECT file_index, conversation, pattern_kind, pattern_run_first, max(pattern_run_index) AS run_length
  FROM records WHERE pattern_run_index > 0
  GROUP BY file_index, conversation, pattern_kind, pattern_run_first
), p AS (
  SELECT r.sql, r.file_index, r.conversation, r.pattern_kind, r.pattern_run_first, r.pattern_run_index,
         CASE WHEN r.client_ms IS NOT NULL
              THEN coalesce(r.network_ms, 0) + coalesce(r.server_ms, 0) + coalesce(r.client_ms, 0)
              ELSE 0 END AS cost_ms
  FROM records r JOIN runs u
    ON r.file_index = u.file_index AND r.conversation = u.conversation AND r.pattern_kind = u.pattern_kind
   AND r.pattern_run_first = u.pattern_run_first
  WHERE u.run_length >= %d
)
SELECT sql, pattern_kind,
  count(DISTINCT concat(CAST(file_index AS STRING), '/', conversation, '/', CAST(pattern_run_first AS STRING),
                        '/', CAST(pattern_run_index AS STRING))) AS pattern_calls,
  sum(CASE WHEN pattern_run_index > 1 THEN 1 ELSE 0 END) AS pattern_saved_round_trips,
  sum(CASE WHEN pattern_run_index > 1 THEN cost_ms ELSE 0 END) AS pattern_saved_ms,
  min(file_index * 4294967296 + pattern_run_first) AS pattern_first_pos
FROM p
GROUP BY sql, pattern_kind
""" % PATTERN_MIN_RUN

# Parsed on every execution (reparse, plugin/consumers/patterns.c): the
# plugin marks each execute that parses with its place in its statement's
# run of such executes in the conversation (reparse_run_first: the run's
# first frame, reparse_run_index); as account.c counts them, a run of
# PATTERN_MIN_RUN or more is one: its executions (the run's length), summed
# per SQL text, and the first frame of its first run.
REPARSE_COLUMNS = ("reparse_run_first", "reparse_run_index")
REPARSES = """
WITH runs AS (
  SELECT sql, file_index, conversation, reparse_run_first, max(reparse_run_index) AS run_length
  FROM records WHERE reparse_run_index > 0 AND sql IS NOT NULL
  GROUP BY sql, file_index, conversation, reparse_run_first
)
SELECT sql, sum(run_length) AS reparses, min(file_index * 4294967296 + reparse_run_first) AS reparse_first_pos
FROM runs WHERE run_length >= %d
GROUP BY sql
""" % PATTERN_MIN_RUN


def statement_queries(have):
    """The pattern and reparse queries the records' columns allow (records of
    a plugin that marks the runs), as (patterns, reparses): None for one the
    records cannot answer."""
    have = set(have)
    return (PATTERNS if set(PATTERN_COLUMNS) <= have else None,
            REPARSES if set(REPARSE_COLUMNS) <= have else None)


# The array size of an execution as -z sqlnet,stmt defines it (docs/time.md,
# plugin/consumers/account.c): the rows its fetches asked (the round trips
# after the one that started it that ask rows: OFETCH, OCI's fetch-only
# OALL8, a scrollable cursor's positioned execute), the largest of them; an
# execution without a fetch: the rows its executing call asked.  (A
# node-oracledb execution with a single, topped-up fetch reads here as that
# fetch's rows, where the plugin adds the rows the execute brought.)
ARRAY_SIZES = """
WITH n AS (
  SELECT sql, file_index, conversation, execution, rows_asked,
         row_number() OVER (PARTITION BY file_index, conversation, execution ORDER BY frame) AS nth
  FROM records WHERE execution IS NOT NULL AND sql IS NOT NULL
), e AS (
  SELECT sql, file_index, conversation, execution,
         sum(CASE WHEN nth > 1 AND rows_asked > 0 THEN 1 ELSE 0 END) AS fetches,
         max(CASE WHEN nth > 1 THEN rows_asked END) AS fetch_max,
         max(CASE WHEN nth = 1 THEN rows_asked END) AS first_asked
  FROM n GROUP BY sql, file_index, conversation, execution
)
SELECT DISTINCT sql, CASE WHEN fetches > 0 THEN fetch_max ELSE first_asked END AS rows_asked FROM e
WHERE (CASE WHEN fetches > 0 THEN fetch_max ELSE first_asked END) > 0
"""

ERRORS = """
SELECT sql, ora_error, count(*) AS n FROM records
WHERE ora_error IS NOT NULL AND ora_error NOT IN (0, 1403)
GROUP BY sql, ora_error
"""

FILES = """
SELECT DISTINCT file_index, file FROM records
"""

INT_KEYS = ["executions", "fetch_calls", "rows_processed", "round_trips", "bytes_to_client",
            "bytes_from_client", "tns_bytes_to_client", "tns_bytes_from_client", "row_bytes_to_client",
            "packets_to_client", "segments_to_client", "more_data_responses", "partial_round_trips",
            "in_truncated_file", "timed", "sql_carried", "complete_round_trips"]


def assemble(rows, sizes, errors, files, patterns=(), reparses=()):
    """rows/sizes/errors/files (/patterns/reparses): lists of dicts from the queries.
    Returns the statements like -z sqlnet,stmt,format=json's: the calls
    outside a statement first, then numbered by their first call."""
    by_sql_sizes, by_sql_errors, by_sql_pattern = {}, {}, {}
    for p in patterns:
        best = by_sql_pattern.get(p["sql"])
        if best is None or float(p["pattern_saved_ms"] or 0) > float(best["pattern_saved_ms"] or 0):
            by_sql_pattern[p["sql"]] = p
    by_sql_reparse = {r["sql"]: r for r in reparses}
    for s in sizes:
        by_sql_sizes.setdefault(s["sql"], []).append(int(s["rows_asked"]))
    for e in errors:
        by_sql_errors.setdefault(e["sql"], []).append((int(e["ora_error"]), int(e["n"])))
    names = {int(f["file_index"]): f["file"] for f in files}
    out = []
    for r in rows:
        d = dict(r)
        for k in INT_KEYS:
            d[k] = int(d[k] or 0)
        for k in ("response_time_sum_ms", "network_ms", "server_ms", "transfer_ms", "client_ms", "idle_ms"):
            d[k] = float(d[k] or 0.0)
        d["response_time_max_ms"] = float(d["response_time_max_ms"] or 0.0)
        d["response_time_avg_ms"] = (d["response_time_sum_ms"] / d["complete_round_trips"]
                                     if d["complete_round_trips"] else 0.0)
        d["wire_time_ms"] = d["network_ms"] + d["server_ms"] + d["transfer_ms"] + d["client_ms"]
        # a statement's elapsed time (docs/time.md): the sum of its round trips'
        # network + server + transfer + client; the idle time apart
        d["elapsed_ms"] = d["wire_time_ms"]
        d["array_sizes"] = ", ".join(str(x) for x in sorted(by_sql_sizes.get(d["sql"], [])))
        d["ora_errors"] = ", ".join(f"ORA-{c:05d} x {n}" for c, n in sorted(by_sql_errors.get(d["sql"], [])))
        fp, lp = int(d.pop("first_pos")), int(d.pop("last_pos"))
        pat = by_sql_pattern.get(d["sql"])
        d["pattern"] = PATTERN_NAMES.get(int(pat["pattern_kind"]), "") if pat else ""
        d["pattern_calls"] = int(pat["pattern_calls"]) if pat else 0
        d["pattern_saved_round_trips"] = int(pat["pattern_saved_round_trips"]) if pat else 0
        d["pattern_saved_ms"] = float(pat["pattern_saved_ms"] or 0.0) if pat else 0.0
        d["pattern_first_frame"] = int(pat["pattern_first_pos"]) & 0xFFFFFFFF if pat else 0
        rep = by_sql_reparse.get(d["sql"])
        d["reparses"] = int(rep["reparses"]) if rep else 0
        d["reparse_first_frame"] = int(rep["reparse_first_pos"]) & 0xFFFFFFFF if rep else 0
        d["first_file"], d["first_frame"] = names.get(fp >> 32), fp & 0xFFFFFFFF
        d["last_file"], d["last_frame"] = names.get(lp >> 32), lp & 0xFFFFFFFF
        d["first_file"] = d["first_file"] or names.get(int(d["first_file_index"]))
        d["_first"] = fp
        out.append(d)
    out.sort(key=lambda d: (d["sql"] is not None, d["_first"], d["sql"] or ""))
    n = 0
    for d in out:
        del d["_first"]
        if d["sql"] is None:
            d["statement"] = None
        else:
            n += 1
            d["statement"] = n
    return out


def one_line(sql):
    return " ".join(sql.split())


def render(stmts, files_count, title_extra=""):
    """Text like -z sqlnet,stmt's blocks (the lines the records carry)."""
    line = "=" * 80
    out = [line, "SQL*Net statements (wire AUTOTRACE) over %d file%s%s" % (
        files_count, "" if files_count == 1 else "s", title_extra),
        "Oracle's definitions: a round trip is one client call and its response; bytes via",
        "SQL*Net are the TTC bytes (TNS DATA payload after the data flags, headers and markers",
        "excluded); TNS bytes include the headers (the TCP payload). Response time: the sum,",
        "over round trips, of last request packet to the packet that completes the response.",
        line]

    def where(s):
        a = f"{s['first_file']} frame {s['first_frame']}"
        b = f"{s['last_file']} frame {s['last_frame']}"
        return a if a == b else f"{a} to {b}"

    for s in stmts:
        out.append("")
        if s["sql"] is None:
            out.append(f"Calls outside a statement: logon, commit, ping ... ({where(s)})")
        else:
            out.append(f"Statement {s['statement']}: {one_line(s['sql'])} "
                       f"(sqlnet.rt.sql_id == \"{s['sql_id']}\", {where(s)})")

        def row(label, value, fmt="%12s"):
            out.append("  %-48s " % label + fmt % value)
        row("executions", s["executions"], "%12d")
        row("fetch calls", s["fetch_calls"], "%12d")
        row("rows processed", s["rows_processed"], "%12d")
        row("SQL*Net roundtrips to/from client", s["round_trips"], "%12d")
        row("bytes sent via SQL*Net to client", s["bytes_to_client"], "%12d")
        row("bytes received via SQL*Net from client", s["bytes_from_client"], "%12d")
        row("TNS bytes to client (TCP payload)", s["tns_bytes_to_client"], "%12d")
        row("TNS bytes from client (TCP payload)", s["tns_bytes_from_client"], "%12d")
        row("row data bytes to client", s["row_bytes_to_client"], "%12d")
        row("row data bytes per row", s["row_bytes_to_client"] / s["rows_processed"]
            if s["rows_processed"] else 0.0, "%12.1f")
        row("TNS packets to client", s["packets_to_client"], "%12d")
        row("TCP segments to client", s["segments_to_client"], "%12d")
        row("array size (rows asked per fetch)", s["array_sizes"] or "-")
        row("rows per round trip", s["rows_processed"] / s["round_trips"] if s["round_trips"] else 0.0,
            "%12.1f")
        row("response time sum (ms)", s["response_time_sum_ms"], "%12.3f")
        row("response time avg (ms)", s["response_time_avg_ms"], "%12.3f")
        row("response time max (ms)", s["response_time_max_ms"], "%12.3f")
        row('responses larger than one SDU ("more data")', s["more_data_responses"], "%12d")
        row("ORA errors (ORA-01403 end of fetch excluded)", s["ora_errors"] or "-")
        if s["partial_round_trips"]:
            row("partial round trips (figures are lower bounds)", s["partial_round_trips"], "%12d")
        if s["in_truncated_file"]:
            row("round trips in a truncated file", s["in_truncated_file"], "%12d")
        if s["sql_carried"]:
            row("round trips whose SQL came from an earlier file", s["sql_carried"], "%12d")
        if s["timed"]:
            row("elapsed (ms)", s["elapsed_ms"], "%12.3f")
            row("  network: round trips x RTT (ms)", s["network_ms"], "%12.3f")
            row("  server: call to first byte of answer (ms)", s["server_ms"], "%12.3f")
            row("  transfer: first to last byte (ms)", s["transfer_ms"], "%12.3f")
            row("  client: between calls of an execution (ms)", s["client_ms"], "%12.3f")
            row("idle: before its executions, apart (ms)", s["idle_ms"], "%12.3f")
    out.append(line)
    return "\n".join(out) + "\n"


COMPARE_COLUMNS = [
    ("round trips", "round_trips", "%d"), ("rows", "rows_processed", "%d"),
    ("executions", "executions", "%d"),
    ("bytes to client", "bytes_to_client", "%d"), ("TNS bytes to client", "tns_bytes_to_client", "%d"),
    ("TNS packets to client", "packets_to_client", "%d"), ("TCP segments to client", "segments_to_client", "%d"),
    ("response time sum (ms)", "response_time_sum_ms", "%.3f"),
    ("elapsed (ms)", "elapsed_ms", "%.3f"),
    ("  network (ms)", "network_ms", "%.3f"), ("  server (ms)", "server_ms", "%.3f"),
    ("  transfer (ms)", "transfer_ms", "%.3f"), ("  client (ms)", "client_ms", "%.3f"),
]


def compare(before, after):
    """Per SQL text: before, after, difference (after - before).  Returns
    (list of {sql, before, after}, text)."""
    b = {s["sql"]: s for s in before}
    a = {s["sql"]: s for s in after}
    keys = [s["sql"] for s in before] + [s["sql"] for s in after if s["sql"] not in b]
    pairs, out = [], []
    out.append("=" * 80)
    out.append("SQL*Net statements compared: before -> after, per SQL text")
    out.append("=" * 80)
    for k in keys:
        x, y = b.get(k), a.get(k)
        pairs.append({"sql": k, "before": x, "after": y})
        out.append("")
        out.append("SQL: " + (one_line(k) if k is not None else "(calls outside a statement)") +
                   ("" if x and y else ("  [after only]" if y else "  [before only]")))
        out.append("  %-28s %14s %14s %14s %8s" % ("", "before", "after", "difference", "ratio"))
        for label, key, fmt in COMPARE_COLUMNS:
            bv = x[key] if x else 0
            av = y[key] if y else 0
            diff = av - bv
            ratio = ("%.2f" % (av / bv)) if bv else "-"
            d = fmt % diff
            d = d.lstrip("-") if float(d) == 0 else ("+" + d if diff > 0 else d)
            out.append("  %-28s %14s %14s %14s %8s" % (label, fmt % bv, fmt % av, d, ratio))
    out.append("=" * 80)
    return pairs, "\n".join(out) + "\n"
