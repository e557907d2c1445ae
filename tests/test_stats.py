"""-z sqlnet,stmt / srt / tree against the generator's manifests.

The scripted server counts every request it answered, the rows, TTC, row data
and TNS bytes it sent and the TNS bytes it received; those counters, not
sqlnet's own output, are the expected values.
"""
import re
from collections import Counter, defaultdict

import pytest

from tshark import TEST_CAPTURES
from test_generated_captures import MANIFESTS, calls

OTHER = "Calls outside a statement"
# A statement's header in -z sqlnet,stmt (and -z sqlnet,advise): its number, its
# SQL on one line, its filter and first/last frame (CONTRACT.md, "Statements").
HEADER = re.compile(r'^Statement (\d+): (.*?)(?: \(sqlnet\.rt\.sql_id == "([0-9a-z]{13})", frames (\d+)-(\d+)\))?$')


def header_key(line):
    """The statement key of a report line that starts a block, else None: the SQL of
    "Statement N: ...", OTHER for the calls outside a statement."""
    if line.startswith(OTHER):
        return OTHER
    m = HEADER.match(line)
    return m.group(2) if m else None


def run_z(tshark, manifest, *z):
    args = ["-q"]
    for item in z:
        args += ["-z", item]
    proc = tshark.run(TEST_CAPTURES / manifest["capture"], args)
    assert "sqlnet" not in proc.stderr.lower(), proc.stderr
    return proc.stdout


def parse_stmt(out):
    stmts, cur = {}, None
    for line in out.splitlines():
        key = header_key(line)
        if key is not None:
            cur = stmts.setdefault(key, {})
            continue
        m = re.match(r"  (.+?)\s{2,}(\S.*)$", line)
        if cur is not None and m:
            cur[m.group(1).strip()] = m.group(2).strip()
    return stmts


def one_line(sql):
    return " ".join(sql.split())


def statement_key(req):
    """The statement a request is reported under, from the manifest's SQL."""
    if req["function"] in ("PRO", "DTY") and not req.get("func_code"):
        return OTHER
    sql = req.get("sql") or ""
    # a REF CURSOR or implicit result set is fetched under the block that opened it
    # (the server labels those fetches "REF CURSOR k of <block>")
    if sql.startswith(("REF CURSOR ", "IMPLICIT RESULT ")) and " of " in sql:
        sql = sql.split(" of ", 1)[1]
    return one_line(sql) if sql else OTHER


def closes_its_cursor(req):
    """go-ora's close of a statement's cursor (docs/time.md): an OPING of its
    own carrying a close-cursors piggyback (OCCA) with the OPING's sequence
    number; go-ora numbers no call (0), JDBC's isValid() OPING with a close
    is numbered and stays a ping.  It belongs to the statement whose cursor
    it closes: go-ora closes right after the statement's last call."""
    return req["function"] == "OPING" and req.get("piggybacks") == ["OCCA"] and req.get("seq") == 0


def expected_by_statement(manifest):
    exp = defaultdict(Counter)
    prev = {}
    for conn, req, resp in calls(manifest):
        key = statement_key(req)
        before = prev.get(id(conn))
        if closes_its_cursor(req) and before is not None:
            key = before
        prev[id(conn)] = key
        e = exp[key]
        e["round trips"] += 1
        e["rows"] += resp["rows_sent"]
        # Oracle's "bytes via SQL*Net": the DATA payload, TNS headers excluded
        e["to client"] += resp["ttc_bytes"]
        e["from client"] += req["request_tns_bytes"] - 10 * req["request_tns_packets"]
        e["tns to client"] += resp["tns_bytes"]
        e["tns from client"] += req["request_tns_bytes"]
        e["row bytes"] += resp["row_bytes"]
        e["fetch calls"] += req.get("func_code") == 5
    return exp


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_stmt_report(tshark, manifest):
    got = parse_stmt(run_z(tshark, manifest, "sqlnet,stmt"))
    for sql, e in expected_by_statement(manifest).items():
        if sql == OTHER:
            continue
        g = got.get(sql)
        assert g is not None, (sql, list(got))
        assert int(g["SQL*Net roundtrips to/from client"]) == e["round trips"], sql
        assert int(g["rows processed"]) == e["rows"], sql
        assert int(g["fetch calls"]) == e["fetch calls"], sql
        assert int(g["bytes sent via SQL*Net to client"]) == e["to client"], sql
        assert int(g["bytes received via SQL*Net from client"]) == e["from client"], sql
        assert int(g["TNS bytes to client (TCP payload)"]) == e["tns to client"], sql
        assert int(g["TNS bytes from client (TCP payload)"]) == e["tns from client"], sql
        assert int(g["row data bytes to client"]) == e["row bytes"], sql


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_stmt_totals_match_server_counters(tshark, manifest):
    got = parse_stmt(run_z(tshark, manifest, "sqlnet,stmt"))
    rts = sum(int(g["SQL*Net roundtrips to/from client"]) for g in got.values())
    rows = sum(int(g["rows processed"]) for g in got.values())
    assert rts == sum(c["stats"]["round_trips"] for c in manifest["connections"])
    assert rows == sum(c["stats"]["rows_sent"] for c in manifest["connections"])
    # The server's bytes_sent_tns also counts non-TTC packets (ANO replies),
    # which it reports separately as other_sent_tns_bytes.
    sent = sum(int(g["TNS bytes to client (TCP payload)"]) for g in got.values())
    assert sent == sum(c["stats"]["bytes_sent_tns"] - c["stats"].get("other_sent_tns_bytes", 0)
                       for c in manifest["connections"])


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_srt_calls_per_function(tshark, manifest):
    out = run_z(tshark, manifest, "sqlnet,srt")
    got = {int(m.group(1)): int(m.group(2))
           for m in re.finditer(r"^\s+(\d+)\s+.+?\s+(\d+)\s+\d+\.\d+\s+\d+\.\d+", out, re.M)}
    want = Counter(req["func_code"] for _, req, resp in calls(manifest) if req.get("func_code"))
    assert got == dict(want)


@pytest.mark.parametrize("manifest", MANIFESTS[:8])
def test_tree_round_trips_and_fetch_sizes(tshark, manifest):
    out = run_z(tshark, manifest, "sqlnet,tree")
    total = int(re.search(r"^Round trips by call\s+(\d+)", out, re.M).group(1))
    assert total == sum(c["stats"]["round_trips"] for c in manifest["connections"])
    wanted = Counter()
    for _, req, _ in calls(manifest):
        if req.get("rows_requested"):
            wanted[req["rows_requested"]] += 1
    buckets = {(1, 1): "1-1", (2, 9): "2-9", (10, 49): "10-49", (50, 99): "50-99", (100, 499): "100-499",
               (500, 999): "500-999", (1000, 4999): "1000-4999", (5000, 10 ** 9): "5000-"}
    section = out.split("Rows requested per call (array size)")[1].split("Rows delivered")[0]
    for (lo, hi), label in buckets.items():
        count = int(re.search(r"^ " + re.escape(label) + r"\s+(\d+)", section, re.M).group(1))
        assert count == sum(n for v, n in wanted.items() if lo <= v <= hi), label


def parse_executions(out):
    """{sql: [(array size, rows, round trips, bytes to client), ...]} from the per-execution tables
    (array size 0 where the table shows "-": none asked)."""
    result, cur, in_table = {}, None, False
    for line in out.splitlines():
        key = header_key(line)
        if key is not None:
            cur, in_table = result.setdefault(key, []), False
            continue
        if line.strip().startswith("exec "):
            in_table = True
            continue
        m = re.match(r"\s+(\d+)\s+(\d+|-)\s+\d+\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+(\s+[\d.]+){6}$", line)
        if in_table and cur is not None and m:
            cur.append(tuple(0 if m.group(i) == "-" else int(m.group(i)) for i in (2, 3, 4, 5)))
    return result


@pytest.mark.parametrize("manifest", [m for m in MANIFESTS if m.values[0]["scenario"] == "sweep_arraysize"])
def test_per_execution_array_sizes(tshark, manifest):
    """The demo sweep: one execution per statement, at the client's configured array size."""
    got = parse_executions(run_z(tshark, manifest, "sqlnet,stmt"))
    exp = expected_by_statement(manifest)
    statements = [st for sess in manifest["client"]["report"]["sessions"] for st in sess["statements"]]
    assert len(statements) == len(manifest["client"]["steps"])      # one per step of the plan
    for st in statements:
        sql = one_line(st["sql"])
        assert len(got[sql]) == 1, sql
        array_size, rows, round_trips, to_client = got[sql][0]
        assert array_size == st["arraysize"]
        assert rows == st["rows"] == exp[sql]["rows"]
        assert round_trips == exp[sql]["round trips"]
        assert to_client == exp[sql]["to client"]


@pytest.mark.parametrize("manifest", [m for m in MANIFESTS if m.values[0]["scenario"] in
                                      ("sweep_arraysize", "arraysize_15", "think_time", "two_sessions")])
def test_stmt_response_times(tshark, manifest):
    """Response time sum and max per statement: from each request frame to the
    last frame of its response, by the frames' own timestamps."""
    frames = {int(r[0]): float(r[1]) for r in tshark.fields(TEST_CAPTURES / manifest["capture"],
                                                            ["frame.number", "frame.time_epoch"])}
    want = defaultdict(list)
    for conn, req, resp in calls(manifest):
        if not req.get("sql"):
            continue
        assert req["request_tns_packets"] == 1      # a request's time is its one frame's
        want[one_line(req["sql"])].append(frames[resp["last_frame"]] - frames[req["request_first_frame"]])
    got = parse_stmt(run_z(tshark, manifest, "sqlnet,stmt"))
    assert want
    for sql, times in want.items():
        g = got[sql]
        assert float(g["response time sum (ms)"]) == pytest.approx(sum(times) * 1000, abs=0.01), sql
        assert float(g["response time max (ms)"]) == pytest.approx(max(times) * 1000, abs=0.002), sql


def expected_errors(manifest):
    """{statement: Counter(ORA code)} of the errors the scripted server sent (1403 excluded)."""
    exp = defaultdict(Counter)
    for conn, req, resp in calls(manifest):
        code = resp.get("ora_error")
        if code and code != 1403:
            exp[statement_key(req)][code] += 1
    return exp


ERROR_MANIFESTS = [m for m in MANIFESTS if expected_errors(m.values[0])]


@pytest.mark.parametrize("manifest", ERROR_MANIFESTS + [m for m in MANIFESTS if not expected_errors(m.values[0])][:4])
def test_stmt_ora_errors(tshark, manifest):
    """Each statement lists its ORA errors with their count, ORA-01403 (end of
    fetch) left out: the codes the scripted server put in its responses."""
    got = parse_stmt(run_z(tshark, manifest, "sqlnet,stmt"))
    want = expected_errors(manifest)
    assert got
    for sql, g in got.items():
        line = g["ORA errors (ORA-01403 end of fetch excluded)"]
        shown = Counter()
        if line != "-":
            for item in line.split(", "):
                m = re.fullmatch(r"ORA-(\d{5}) x (\d+)", item)
                assert m, line
                shown[int(m.group(1))] = int(m.group(2))
        assert shown == want.get(sql, Counter()), sql
        assert 1403 not in shown


def statement_blocks(out):
    """{sql: text of its block} of -z sqlnet,stmt or -z sqlnet,advise output."""
    blocks, cur = {}, None
    for line in out.splitlines():
        key = header_key(line)
        if key is not None:
            cur = key
            blocks[cur] = ""
        elif cur is not None:
            blocks[cur] += line + "\n"
    return blocks


@pytest.mark.parametrize("manifest", [m for m in MANIFESTS if m.values[0]["scenario"] in
                                      ("jdbc_dml", "arraysize_50", "think_time", "error_midfetch")])
def test_stmt_client_time_is_between_calls_of_an_execution(tshark, manifest):
    """A statement's client time is the client's time between the round trips of
    one execution (issue 34: one time, no advisor note): each fetch request's
    frame time back to the last frame of the previous response on the same
    cursor (frame timestamps and the manifest's frame numbers and cursors), less
    one RTT (tcp.analysis.initial_rtt, tshark's own) when the capture was taken
    near the server (sqlnet.capture_point: where the RTT sits is the plugin's
    classification, the arithmetic is the frames'). The old note line is gone."""
    capture = TEST_CAPTURES / manifest["capture"]
    frames = {int(r[0]): float(r[1]) for r in tshark.fields(capture, ["frame.number", "frame.time_epoch"])}
    rtt = max(float(r[0]) for r in tshark.fields(capture, ["tcp.analysis.initial_rtt"]) if r[0])
    points = {r[0] for r in tshark.fields(capture, ["sqlnet.capture_point"]) if r[0]}
    assert len(points) == 1
    near_server = points == {"1"}
    gaps = defaultdict(float)
    for conn in manifest["connections"]:
        prev = None
        for req in conn["requests"]:
            if (prev is not None and req["function"] == "OFETCH" and req.get("cursor")
                    and prev["response"].get("cursor") == req["cursor"]):
                assert req["request_tns_packets"] == 1
                g = frames[req["request_first_frame"]] - frames[prev["response"]["last_frame"]]
                gaps[statement_key(req)] += max(0.0, g - rtt) if near_server else g
            prev = req
    assert any(v > 0 for v in gaps.values())
    out = run_z(tshark, manifest, "sqlnet,stmt")
    assert "observed time adds" not in out
    got = parse_stmt(out)
    for sql, v in got.items():
        if sql == OTHER:
            continue
        assert float(v["client: between calls of an execution (ms)"]) == pytest.approx(gaps.get(sql, 0) * 1000, abs=0.003), sql


TIME_BUCKETS = [(0, 99), (100, 199), (200, 499), (500, 999), (1000, 1999), (2000, 4999), (5000, 9999),
                (10000, 19999), (20000, 49999), (50000, 99999), (100000, 199999), (200000, 499999),
                (500000, 999999), (1000000, None)]


def tree_rows(out):
    """{(group, item or None): [count, average]} of -z sqlnet,tree."""
    rows, group = {}, None
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s{2,}(\d+)(?:\s{2,}([\d.]+|-))?", line)
        if m and not line.startswith(("Topic", "SQL*Net")):
            group = m.group(1)
            rows[(group, None)] = [int(m.group(2)), m.group(3)]
            continue
        m = re.match(r"^ (\S.*?)\s{2,}(\d+)", line)
        if m and group:
            rows[(group, m.group(1))] = [int(m.group(2)), None]
    return rows


@pytest.mark.parametrize("manifest", [m for m in MANIFESTS if m.values[0]["scenario"] in
                                      ("sweep_arraysize", "think_time", "paced_sweep")])
def test_tree_group_rows_and_time_buckets(tshark, manifest):
    """Every group row of the tree has its count (and average of the values);
    response times fall in sub-millisecond buckets. Expected: the manifest's
    responses (rows sent) and, for the times, each request frame to the last
    frame of its response by the frames' own timestamps."""
    capture = TEST_CAPTURES / manifest["capture"]
    rows = tree_rows(run_z(tshark, manifest, "sqlnet,tree"))
    resp = [r for _, _, r in calls(manifest)]
    n = sum(c["stats"]["round_trips"] for c in manifest["connections"])
    assert len(resp) == n
    count, avg = rows[("Rows delivered per round trip", None)]
    assert count == n
    assert float(avg) == pytest.approx(sum(r["rows_sent"] for r in resp) / n, abs=0.006)
    assert rows[("TNS DATA packets per response", None)][0] == n
    asked = [req["rows_requested"] for _, req, _ in calls(manifest) if req.get("rows_requested")]
    count, avg = rows[("Rows requested per call (array size)", None)]
    assert count == len(asked)
    assert float(avg) == pytest.approx(sum(asked) / len(asked), abs=0.006)
    frames = {int(r[0]): float(r[1]) for r in tshark.fields(capture, ["frame.number", "frame.time_epoch"])}
    want = Counter()
    for _, req, r in calls(manifest):
        us = (frames[r["last_frame"]] - frames[req["request_first_frame"]]) * 1e6
        for lo, hi in TIME_BUCKETS:
            if us >= lo and (hi is None or us < hi + 1):
                want[f"{lo}-{hi if hi is not None else ''}"] += 1
                break
    group = "Response time (microseconds)"
    assert rows[(group, None)][0] == n
    got = Counter({item: c for (g, item), (c, _) in rows.items() if g == group and item})
    assert set(got) == {f"{lo}-{hi if hi is not None else ''}" for lo, hi in TIME_BUCKETS}
    # a time within a microsecond of a bucket edge may land on either side
    moved = sum(abs(got[k] - want[k]) for k in got) // 2
    assert moved <= 2, (got, want)
    assert sum(got.values()) == n
