"""The array-size advisor's inputs over a set's records, per SQL text.

-z sqlnet,advise (lua/sqlnet_advise.lua, docs/reports.md "The model") starts
from a statement's executions: the first round trip of an execution is its
execute call (with the rows it prefetched), the others are its fetches.  From
them it takes the rows after each execute call, the fetch sizes, the bytes
per row and per fetch, and predicts the fetch round trips at array size A:

    fetches(A) = floor(rows after the execute call / A) + 1 per execution
                 (0 when the execute call ended the cursor: ORA-01403, or no
                 fetch followed), as M.fetches / M.execution_calls

These statements compute those inputs over the whole set, in plain SQL over
the table `records` (the carried records of every file), for DuckDB and
Spark SQL.  An execution that spans files: the plugin numbers executions per
file (`execution`), so an execution is found across files by its cursor: in
a conversation and cursor, in capture order (file_index, frame), an
execution starts at the first round trip of a (file, conversation,
execution) that is not a fetch (as stmt.py counts executions), and the
round trips of that cursor up to the next start belong to it - the ones a
later file numbered on its own, and its fetches that file could not place
(no execution: the execute call was in an earlier file).

SPDX-License-Identifier: GPL-2.0-or-later
"""

FETCH = 5
# outside the fetch plan (account.c's account_rt_fixed, the Lua model's
# rt.fixed): an execution's LOB operations (a LOB read per row) and its OPING
# (go-ora's close of the cursor): as many round trips at every array size
LOB_OP = 96
PING = 147
DEFAULT_SIZES = (1, 10, 100, 1000)


def _cur(dialect):
    return "`cursor`" if dialect == "spark" else '"cursor"'


def _round_trips(dialect):
    """The records with the execution they belong to across files
    (conversation, cursor, exec_seq), exec_start (its execute call), is_fetch
    (not its LOB operations and cursor closes: LOB_OP, PING), and from_end (1:
    the execution's last round trip, of its fetches the last fetch)."""
    cur = _cur(dialect)
    return f"""
WITH p AS (
  SELECT *,
         row_number() OVER (PARTITION BY file_index, conversation, execution ORDER BY frame) AS nth_piece
  FROM records
), s AS (
  SELECT *,
         CASE WHEN execution IS NOT NULL AND nth_piece = 1 AND (call IS NULL OR call <> {FETCH})
              THEN 1 ELSE 0 END AS exec_start
  FROM p
), g AS (
  SELECT *,
         sum(exec_start) OVER (PARTITION BY conversation, {cur} ORDER BY file_index, frame
                               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS exec_seq
  FROM s
), x AS (
  SELECT *,
         CASE WHEN exec_seq > 0 AND (execution IS NOT NULL OR call = {FETCH}) THEN 1 ELSE 0 END AS in_exec
  FROM g
), y AS (
  SELECT *,
         CASE WHEN in_exec = 1 AND exec_start = 0 AND coalesce(call, -1) NOT IN ({LOB_OP}, {PING})
              THEN 1 ELSE 0 END AS is_fetch,
         row_number() OVER (PARTITION BY conversation, {cur}, exec_seq, in_exec,
                                         coalesce(call, -1) IN ({LOB_OP}, {PING})
                            ORDER BY file_index DESC, frame DESC) AS from_end
  FROM x
)"""


def statements(dialect, sizes=DEFAULT_SIZES):
    """(name, query) of the three queries assemble() takes."""
    cur = _cur(dialect)
    rt = _round_trips(dialect)
    last = "(is_fetch = 1 AND from_end = 1 AND coalesce(ora_status, -1) = 1403)"
    per_sql = rt + f"""
SELECT sql,
  count(*) AS round_trips,
  sum(exec_start) AS executions,
  sum(coalesce(rows, 0)) AS rows_total,
  sum(CASE WHEN exec_start = 1 THEN coalesce(rows, 0) ELSE 0 END) AS execute_rows,
  sum(CASE WHEN is_fetch = 1 THEN coalesce(rows, 0) ELSE 0 END) AS fetch_rows,
  sum(is_fetch) AS fetch_round_trips,
  sum(CASE WHEN is_fetch = 1 THEN coalesce(row_bytes, 0) - coalesce(bvc_bytes, 0) ELSE 0 END) AS fetch_row_data,
  sum(CASE WHEN exec_start = 1 THEN coalesce(row_bytes, 0) - coalesce(bvc_bytes, 0) ELSE 0 END)
    AS execute_row_data,
  sum(CASE WHEN is_fetch = 1 AND rows > 1 THEN coalesce(bvc_bytes, 0) ELSE 0 END) AS bvc,
  sum(CASE WHEN is_fetch = 1 AND rows > 1 THEN rows - 1 ELSE 0 END) AS bvc_rows,
  sum(CASE WHEN is_fetch = 1 AND NOT {last}
      THEN coalesce(response_ttc_bytes, 0) - coalesce(row_bytes, 0) ELSE 0 END) AS overhead_sum,
  sum(CASE WHEN is_fetch = 1 AND NOT {last} THEN 1 ELSE 0 END) AS overhead_n,
  sum(CASE WHEN {last} THEN coalesce(response_ttc_bytes, 0) - coalesce(row_bytes, 0) ELSE 0 END)
    AS last_overhead_sum,
  sum(CASE WHEN {last} THEN 1 ELSE 0 END) AS last_overhead_n,
  sum(CASE WHEN is_fetch = 1 THEN coalesce(request_ttc_bytes, 0) ELSE 0 END) AS fetch_request_bytes,
  sum(CASE WHEN is_fetch = 1 AND from_end = 1 AND coalesce(ora_status, -1) <> 1403 THEN 1 ELSE 0 END)
    AS undrained,
  sum(response_ttc_bytes) AS bytes_to_client,
  sum(CASE WHEN complete THEN time_ms ELSE 0 END) AS response_time_sum_ms,
  sum(CASE WHEN complete THEN 1 ELSE 0 END) AS complete_round_trips,
  sum(CASE WHEN client_ms IS NOT NULL THEN coalesce(network_ms, 0) ELSE 0 END) AS network_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN server_ms ELSE 0 END) AS server_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN transfer_ms ELSE 0 END) AS transfer_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN client_ms ELSE 0 END) AS client_ms,
  sum(CASE WHEN client_ms IS NOT NULL THEN 1 ELSE 0 END) AS timed
FROM y
GROUP BY sql"""
    fetches = ",\n  ".join(
        f"sum(CASE WHEN ended = 1 THEN 0 ELSE CAST(floor(rem / {int(a)}) AS BIGINT) + 1 END) AS fetches_{int(a)}"
        for a in sizes)
    predicted = rt + f""",
e AS (
  SELECT sql, conversation, {cur}, exec_seq,
         sum(CASE WHEN is_fetch = 1 THEN coalesce(rows, 0) ELSE 0 END) AS rem,
         CASE WHEN count(*) = 1 OR max(CASE WHEN exec_start = 1 AND coalesce(ora_status, -1) = 1403
                                       THEN 1 ELSE 0 END) = 1 THEN 1 ELSE 0 END AS ended
  FROM y WHERE in_exec = 1
  GROUP BY sql, conversation, {cur}, exec_seq
)
SELECT sql,
  {fetches}
FROM e
GROUP BY sql"""
    asked = rt + """
SELECT DISTINCT sql, is_fetch, rows_asked FROM y WHERE in_exec = 1 AND rows_asked > 0"""
    sdus = "SELECT DISTINCT sql, sdu FROM records WHERE sdu IS NOT NULL"
    return [("per_sql", per_sql), ("predicted", predicted), ("asked", asked), ("sdus", sdus)]


def compute(rows_of, stmts, sizes=DEFAULT_SIZES, dialect="duckdb"):
    """rows_of(query) -> list of dicts (the engine); stmts: stmt.assemble's
    statements (their numbers).  Returns the inputs per SQL text, in the
    statements' order."""
    res = {name: rows_of(q) for name, q in statements(dialect, sizes)}
    return assemble(res["per_sql"], res["predicted"], res["asked"], res["sdus"], stmts, sizes)


def assemble(per_sql, predicted, asked, sdus, stmts, sizes=DEFAULT_SIZES):
    pred = {r["sql"]: r for r in predicted}
    fetch_sizes, prefetch, sdu = {}, {}, {}
    for r in asked:
        (fetch_sizes if int(r["is_fetch"]) else prefetch).setdefault(r["sql"], set()).add(int(r["rows_asked"]))
    for r in sdus:
        sdu.setdefault(r["sql"], set()).add(int(r["sdu"]))
    number = {s["sql"]: (s["statement"], s.get("sql_id")) for s in stmts}
    out = []
    for r in per_sql:
        sql = r["sql"]
        if sql is None:
            continue
        i = {k: int(r[k] or 0) for k in ("round_trips", "executions", "execute_rows", "fetch_rows",
                                           "fetch_round_trips", "undrained", "complete_round_trips", "timed",
                                           "bytes_to_client")}
        f = {k: float(r[k] or 0) for k in ("fetch_row_data", "execute_row_data", "bvc", "bvc_rows",
                                             "overhead_sum", "overhead_n", "last_overhead_sum", "last_overhead_n",
                                             "fetch_request_bytes", "response_time_sum_ms", "network_ms",
                                             "server_ms", "transfer_ms", "client_ms")}
        rows = int(r["rows_total"] or 0)
        d = {"statement": number.get(sql, (None, None))[0], "sql": sql, "sql_id": number.get(sql, (None, None))[1]}
        d["executions"] = i["executions"]
        d["rows"] = rows
        d["rows_per_execution"] = rows / i["executions"] if i["executions"] else None
        d["execute_rows"] = i["execute_rows"]
        d["rows_after_execute"] = i["fetch_rows"]
        d["prefetch_sizes"] = sorted(prefetch.get(sql, ()))
        d["fetch_sizes"] = sorted(fetch_sizes.get(sql, ()))
        d["array_size"] = d["fetch_sizes"][-1] if d["fetch_sizes"] else None
        d["round_trips"] = i["round_trips"]
        d["fetch_round_trips"] = i["fetch_round_trips"]
        d["other_round_trips"] = i["round_trips"] - i["fetch_round_trips"]
        d["rows_per_fetch"] = i["fetch_rows"] / i["fetch_round_trips"] if i["fetch_round_trips"] else None
        # as the advisor: row data without the bit vectors, per row fetched
        # (the execute calls' rows when no fetch brought any); bit-vector bytes
        # per row after a response's first
        if i["fetch_rows"]:
            d["row_bytes_per_row"] = f["fetch_row_data"] / i["fetch_rows"]
        else:
            d["row_bytes_per_row"] = f["execute_row_data"] / i["execute_rows"] if i["execute_rows"] else 0.0
        d["bvc_bytes_per_row"] = f["bvc"] / f["bvc_rows"] if f["bvc_rows"] else 0.0
        # a fetch response's bytes less its rows: the fetches that do not end
        # the cursor; the last one (ORA-01403) apart
        over = f["overhead_sum"] / f["overhead_n"] if f["overhead_n"] else None
        last = f["last_overhead_sum"] / f["last_overhead_n"] if f["last_overhead_n"] else None
        d["fetch_overhead_bytes"] = over if over is not None else (last if last is not None else 0.0)
        d["last_fetch_overhead_bytes"] = last if last is not None else d["fetch_overhead_bytes"]
        d["fetch_request_bytes"] = (f["fetch_request_bytes"] / i["fetch_round_trips"]
                                    if i["fetch_round_trips"] else None)
        d["undrained_executions"] = i["undrained"]
        d["sdus"] = sorted(sdu.get(sql, ()))
        d["bytes_to_client"] = i["bytes_to_client"]
        d["response_time_sum_ms"] = f["response_time_sum_ms"]
        d["complete_round_trips"] = i["complete_round_trips"]
        d["timed"] = i["timed"]
        for k in ("network_ms", "server_ms", "transfer_ms", "client_ms"):
            d[k] = f[k]
        p = pred.get(sql) or {}
        d["predicted"] = [{"array_size": int(a), "fetches": int(p.get(f"fetches_{int(a)}") or 0),
                           "round_trips": d["other_round_trips"] + int(p.get(f"fetches_{int(a)}") or 0)}
                          for a in sizes]
        out.append(d)
    order = {s["sql"]: n for n, s in enumerate(stmts)}
    out.sort(key=lambda d: (order.get(d["sql"], len(order)), d["sql"]))
    return out


def parse_sizes(text):
    sizes = sorted({int(x) for x in str(text).split(",") if x.strip()})
    if not sizes or sizes[0] < 1:
        raise ValueError("array sizes are whole numbers from 1")
    return sizes


def render(inputs, files_count):
    """Text: one block per SQL text, as -z sqlnet,stmt's."""
    line = "=" * 80
    out = [line, "SQL*Net array-size advisor's inputs over %d file%s" % (files_count, "" if files_count == 1 else "s"),
           "What -z sqlnet,advise's model starts from, per SQL text over the whole set: the first",
           "round trip of an execution is its execute call, the others its fetches. Predicted:",
           "fetch round trips at array size A = floor(rows after the execute call / A) + 1 per",
           "execution (none when the execute call ended the cursor), plus the other round trips",
           "(execute calls and calls outside an execution; prefetch as observed).",
           line]

    def sizes(v):
        return ", ".join(str(x) for x in v) or "-"

    def opt(v, fmt):
        return "-" if v is None else fmt % v

    for d in inputs:
        out.append("")
        head = "Statement %s" % d["statement"] if d["statement"] is not None else "SQL"
        out.append(f"{head}: {' '.join(d['sql'].split())}"
                   + (f" (sqlnet.rt.sql_id == \"{d['sql_id']}\")" if d.get("sql_id") else ""))

        def row(label, value):
            out.append("  %-52s %12s" % (label, value))
        row("executions", d["executions"])
        row("rows", d["rows"])
        row("rows per execution", opt(d["rows_per_execution"], "%.1f"))
        row("rows with the execute calls", d["execute_rows"])
        row("rows after the execute calls", d["rows_after_execute"])
        row("rows asked by the execute calls (prefetch)", sizes(d["prefetch_sizes"]))
        row("rows asked by the fetches (fetch sizes seen)", sizes(d["fetch_sizes"]))
        row("fetch round trips", d["fetch_round_trips"])
        row("other round trips (execute calls, other calls)", d["other_round_trips"])
        row("rows per fetch round trip", opt(d["rows_per_fetch"], "%.1f"))
        row("row bytes per row (bit vectors apart)", "%.1f" % d["row_bytes_per_row"])
        row("bit-vector bytes per row after a response's first", "%.1f" % d["bvc_bytes_per_row"])
        row("bytes of a fetch response besides its rows", "%.1f" % d["fetch_overhead_bytes"])
        row("  of the last fetch (ORA-01403)", "%.1f" % d["last_fetch_overhead_bytes"])
        row("bytes of a fetch call from the client", opt(d["fetch_request_bytes"], "%.1f"))
        if d["undrained_executions"]:
            row("executions that stopped fetching before the end", d["undrained_executions"])
        row("SDU", sizes(d["sdus"]))
        row("response time sum (ms)", "%.3f" % d["response_time_sum_ms"])
        if d["timed"]:
            row("elapsed (ms)", "%.3f" % (d["network_ms"] + d["server_ms"] + d["transfer_ms"]
                                          + d["client_ms"]))
            row("  network: round trips x RTT (ms)", "%.3f" % d["network_ms"])
            row("  server: call to first byte of answer (ms)", "%.3f" % d["server_ms"])
            row("  transfer: first to last byte (ms)", "%.3f" % d["transfer_ms"])
            row("  client: between calls of an execution (ms)", "%.3f" % d["client_ms"])
        if d["executions"]:
            out.append("  %-22s" % "array size" + "".join("%10d" % p["array_size"] for p in d["predicted"]))
            out.append("  %-22s" % "fetch round trips" + "".join("%10d" % p["fetches"] for p in d["predicted"]))
            out.append("  %-22s" % "round trips" + "".join("%10d" % p["round_trips"] for p in d["predicted"]))
    out.append(line)
    return "\n".join(out) + "\n"
