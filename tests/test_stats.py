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

OTHER = "(calls outside a statement: logon, commit, ping ...)"


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
        m = re.match(r"Statement \d+: (.*)$", line)
        if m:
            cur = stmts.setdefault(m.group(1), {})
            continue
        m = re.match(r"  (.+?)\s{2,}(\S.*)$", line)
        if cur is not None and m:
            cur[m.group(1).strip()] = m.group(2).strip()
    return stmts


def one_line(sql):
    return " ".join(sql.split())


def expected_by_statement(manifest):
    exp = defaultdict(Counter)
    for conn, req, resp in calls(manifest):
        if req["function"] in ("PRO", "DTY") and not req.get("func_code"):
            key = OTHER
        else:
            sql = req.get("sql") or ""
            # a REF CURSOR or implicit result set is fetched under the block that opened it
            # (the server labels those fetches "REF CURSOR k of <block>")
            if sql.startswith(("REF CURSOR ", "IMPLICIT RESULT ")) and " of " in sql:
                sql = sql.split(" of ", 1)[1]
            key = one_line(sql) if sql else OTHER
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
    """{sql: [(array size, rows, round trips, bytes to client), ...]} from the per-execution tables."""
    result, cur, in_table = {}, None, False
    for line in out.splitlines():
        m = re.match(r"Statement \d+: (.*)$", line)
        if m:
            cur, in_table = result.setdefault(m.group(1), []), False
            continue
        if line.strip().startswith("exec "):
            in_table = True
            continue
        m = re.match(r"\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+[\d.]+$", line)
        if in_table and cur is not None and m:
            cur.append(tuple(int(m.group(i)) for i in (2, 3, 4, 5)))
    return result


@pytest.mark.parametrize("manifest", [m for m in MANIFESTS if m.values[0]["scenario"] == "sweep_arraysize"])
def test_per_execution_array_sizes(tshark, manifest):
    """The demo sweep: one execution per statement, at the client's configured array size."""
    got = parse_executions(run_z(tshark, manifest, "sqlnet,stmt"))
    exp = expected_by_statement(manifest)
    statements = [st for sess in manifest["client"]["report"]["sessions"] for st in sess["statements"]]
    assert len(statements) == 9
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
