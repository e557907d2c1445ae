"""The array-size / SDU advisor (lua/sqlnet_advise.lua).

Two sources of truth, neither of them the advisor:
- the published AUTOTRACE table in ../shared/docs/published-measurements.md
  section A (SQL*Plus, 624,084 rows): the model, given that table's own
  parameters, must give its round trips exactly, its bytes within 1% and its
  elapsed times within 10%;
- the generator's array-size sweep (test-captures/arraysize_*.json): the
  advisor run on one capture must predict the round trips the scripted server
  counted in every other capture exactly, and its bytes within 2%.
"""
import json
import math
import os
import re
import shutil
import statistics
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from tshark import PUBLIC, ROOT, SHARED, TEST_CAPTURES

ADVISOR = ROOT / "lua" / "sqlnet_advise.lua"
PUBLISHED = SHARED / "docs" / "published-measurements.md"
SWEEP = [1, 2, 10, 15, 50, 100, 500, 1000, 5000]


# ---- the published table --------------------------------------------------

def published_table():
    if not PUBLISHED.is_file():
        pytest.skip(f"published measurements not available ({PUBLISHED})")
    text = PUBLISHED.read_text()
    section = text.split("## A.")[1].split("## B.")[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip().replace(",", "") for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.fullmatch(r"\d+", cells[0]):
            a, gets, to, frm, rts, elapsed = cells
            rows[int(a)] = {"to": int(to), "from": int(frm), "round_trips": int(rts), "elapsed": float(elapsed)}
    total = re.search(r"([\d,]+) rows", section)
    assert len(rows) == 11 and total
    return int(total.group(1).replace(",", "")), rows


DRIVER = r"""
local M = dofile(arg[1])
local rows, first, min_array = tonumber(arg[2]), tonumber(arg[3]), tonumber(arg[4])
local payload, per_rt_to = tonumber(arg[5]), tonumber(arg[6])
local from_fixed, per_rt_from = tonumber(arg[7]), tonumber(arg[8])
local points = {}
for i = 9, #arg, 2 do
    points[#points + 1] = { round_trips = tonumber(arg[i]), elapsed = tonumber(arg[i + 1]) }
end
local t_fixed, t_rt = M.fit_time(points)
-- SQL*Plus: one round trip returns the first row, then fetches of the array size;
-- every round trip carries the same overhead, every row its share of the payload.
local s = {
    execs = { { rem = rows - first, ended = false } }, min_array = min_array,
    fixed_rts = 1, fixed_to = per_rt_to + first * payload / rows, fixed_from = from_fixed + per_rt_from,
    fixed_sizes = {}, row_bytes = payload / rows, bvc_bytes = 0,
    overhead = per_rt_to, overhead_last = per_rt_to, request_bytes = per_rt_from,
    t_fixed = t_fixed, t_rt = t_rt, t_byte = 0, sdu = 2048,
}
for _, a in ipairs({ 1, 5, 10, 15, 50, 100, 200, 300, 400, 500, 1000 }) do
    local p = M.predict(s, a)
    print(string.format("%d\t%d\t%.3f\t%.3f\t%.4f", a, p.round_trips, p.to, p.from, p.elapsed))
end
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_published_table(lua, tmp_path):
    if not shutil.which(lua):
        pytest.skip(f"{lua} not installed")
    rows, table = published_table()
    # The table's parameters, read off the table itself: SQL*Plus returns one
    # row with the first call and treats array size 1 as 2 (section A's own
    # observations); the per-round-trip byte overheads and the payload come
    # from the two extreme rows, the time parameters from a fit of all rows.
    lo, hi = table[1], table[1000]
    per_rt_to = (lo["to"] - hi["to"]) / (lo["round_trips"] - hi["round_trips"])
    payload = hi["to"] - per_rt_to * hi["round_trips"]
    per_rt_from = (lo["from"] - hi["from"]) / (lo["round_trips"] - hi["round_trips"])
    from_fixed = hi["from"] - per_rt_from * hi["round_trips"]
    assert round(per_rt_to) == 86          # "86 bytes per round trip" (section A)
    points = []
    for a in sorted(table):
        points += [str(table[a]["round_trips"]), str(table[a]["elapsed"])]
    driver = tmp_path / "driver.lua"
    driver.write_text(DRIVER)
    proc = subprocess.run([lua, str(driver), str(ADVISOR), str(rows), "1", "2", repr(payload), repr(per_rt_to),
                           repr(from_fixed), repr(per_rt_from)] + points, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    got = {}
    for line in proc.stdout.splitlines():
        a, rts, to, frm, elapsed = line.split("\t")
        got[int(a)] = (int(rts), float(to), float(frm), float(elapsed))
    assert sorted(got) == sorted(table)
    off_by = {}
    for a, want in table.items():
        rts, to, frm, elapsed = got[a]
        assert rts == want["round_trips"], a
        assert to == pytest.approx(want["to"], rel=0.01), a
        assert frm == pytest.approx(want["from"], rel=0.01), a
        off_by[a] = abs(elapsed - want["elapsed"]) / want["elapsed"]
    # Elapsed: within 10% for every row but one. The table's arraysize 200 run
    # (14.76 s) is 3.8 s slower than its neighbours' trend (17.59 s at 100,
    # 11.00 s at 300): no model linear in round trips puts both it and the
    # 1000 row within 10% (see docs/reports.md, "How it is validated").
    assert {a for a, e in off_by.items() if e > 0.10} == {200}, off_by
    assert off_by[200] < 0.20


# ---- the generated sweep ----------------------------------------------------

def sweep_manifest(a):
    path = TEST_CAPTURES / f"arraysize_{a}.json"
    if not path.is_file():
        pytest.skip(f"{path.name} missing")
    return json.loads(path.read_text())


def measured(a):
    """What the server counted for the query in capture arraysize_<a>."""
    m = sweep_manifest(a)
    reqs = [r for c in m["connections"] for r in c["requests"] if r.get("sql")]
    return {
        "round_trips": len(reqs),
        "rows": sum(r["response"]["rows_sent"] for r in reqs),
        "to": sum(r["response"]["ttc_bytes"] for r in reqs),
        "from": sum(r["request_tns_bytes"] - 10 * r["request_tns_packets"] for r in reqs),
        "packets": sum(r["response"]["tns_packets"] for r in reqs),
        "segments": sum(r["response"]["tcp_segments"] for r in reqs),
    }


def advise(tshark, capture, *extra):
    proc = tshark.run(capture, ["-q", "-z", "sqlnet,advise" + "".join("," + e for e in extra)])
    assert proc.stderr.strip() == "", proc.stderr
    return proc.stdout


def predicted(out):
    """{array size: (round trips, to client, from client, packets, segments)} of the first statement."""
    return {r[0]: r[1:6] for r in table_rows(out)}


@pytest.mark.parametrize("a0", [2, 15, 50, 100, 500])
def test_sweep_predictions(tshark, a0):
    out = advise(tshark, TEST_CAPTURES / f"arraysize_{a0}.pcapng")
    table = predicted(out)
    assert set(SWEEP) <= set(table), out
    for a in SWEEP:
        want = measured(a)
        rts, to, frm, packets, segments = table[a]
        assert rts == want["round_trips"], (a0, a)
        assert to == pytest.approx(want["to"], rel=0.02), (a0, a)
        assert frm == pytest.approx(want["from"], rel=0.02), (a0, a)
        assert packets == pytest.approx(want["packets"], rel=0.02), (a0, a)


def test_observed_line_matches_server(tshark):
    out = advise(tshark, TEST_CAPTURES / "arraysize_50.pcapng")
    want = measured(50)
    m = re.search(r"observed: 1 execution\(s\), (\d+) rows, array size (\d+), (\d+) round trips, (\d+) bytes "
                  r"to client, (\d+) from client, (\d+) TNS packets, (\d+) TCP segments", out)
    assert m, out
    assert [int(x) for x in m.groups()] == [want["rows"], 50, want["round_trips"], want["to"], want["from"],
                                            want["packets"], want["segments"]]
    assert re.search(r"^\s+50\s.*observed", out, re.M)


# (the SDU advice: tests/test_advise_sdu.py)


def test_filter_argument(tshark):
    """-z sqlnet,advise,<filter>: a filter that matches no statement leaves none."""
    out = advise(tshark, TEST_CAPTURES / "arraysize_50.pcapng", 'sqlnet.sql contains "no_such_table"')
    assert "(no statements)" in out
    out = advise(tshark, TEST_CAPTURES / "arraysize_50.pcapng", "tcp.port == 1521")
    assert "Statement 1: SELECT * FROM sqlnet_rows" in out


HEADER_TAIL = r" \((?:sqlnet\.rt\.sql_id == \"\w+\", )?frames (\d+)-(\d+)\)$"


def statements(out):
    """{sql: block text} of the advisor's report (headers: CONTRACT's form,
    'Statement N: SQL (sqlnet.rt.sql_id == "...", frames A-B)')."""
    blocks = re.split(r"^Statement \d+: ", out, flags=re.M)[1:]
    return {re.sub(HEADER_TAIL, "", b.splitlines()[0].strip()): b for b in blocks}


def test_bundled_sweep(tshark):
    """The demo capture: one table fetched at nine array sizes in one session.
    Each statement's observed figures are the server's; its predictions for the
    other array sizes are what the server counted for the other statements."""
    m = json.loads((TEST_CAPTURES / "sweep_arraysize.json").read_text())
    frames = {int(r[0]): float(r[1]) for r in tshark.fields(TEST_CAPTURES / m["capture"],
                                                            ["frame.number", "frame.time_epoch"])}
    want = {}
    for conn in m["connections"]:
        for r in conn["requests"]:
            if not r.get("sql"):
                continue
            w = want.setdefault(" ".join(r["sql"].split()), {"round_trips": 0, "rows": 0, "to": 0, "from": 0,
                                                              "packets": 0, "segments": 0, "frames": []})
            if w["round_trips"] == 0:       # the execute call, which carries the SQL text
                w["exec_from"] = r["request_tns_bytes"] - 10 * r["request_tns_packets"]
            w["round_trips"] += 1
            w["rows"] += r["response"]["rows_sent"]
            w["to"] += r["response"]["ttc_bytes"]
            w["from"] += r["request_tns_bytes"] - 10 * r["request_tns_packets"]
            w["packets"] += r["response"]["tns_packets"]
            w["segments"] += r["response"]["tcp_segments"]
            w["frames"] += [r["request_first_frame"], r["response"]["last_frame"]]
    sizes = {st["sql"]: st["arraysize"] for s in m["client"]["report"]["sessions"] for st in s["statements"]}
    by_size = {sizes[sql]: w for sql, w in want.items()}
    got = statements(advise(tshark, TEST_CAPTURES / m["capture"]))
    assert set(got) == set(want)
    for sql, block in got.items():
        w, a0 = want[sql], sizes[sql]
        o = re.search(r"observed: 1 execution\(s\), (\d+) rows, array size (\d+), (\d+) round trips, (\d+) bytes "
                      r"to client, (\d+) from client, (\d+) TNS packets, (\d+) TCP segments, ([\d.]+) ms", block)
        assert [int(x) for x in o.groups()[:7]] == [w["rows"], a0, w["round_trips"], w["to"], w["from"],
                                                    w["packets"], w["segments"]], sql
        # first request to the end of the last response, from the frames' own timestamps
        # (single-packet requests: a request's time is its frame's)
        span = frames[max(w["frames"])] - frames[min(w["frames"])]
        assert float(o.group(8)) == pytest.approx(span * 1000, abs=0.002), sql
        if a0 == 1 or w["round_trips"] <= 2:
            # single-row fetches show no bit vectors, a single fetch no mid-fetch
            # overhead: the advisor notes it and the prediction is not held to 2%
            assert "note:" in block, sql
            continue
        table = predicted(block)
        for a, other in by_size.items():
            rts, to, frm, packets, _ = table[a]
            assert rts == other["round_trips"], (a0, a)
            assert to == pytest.approx(other["to"], rel=0.02), (a0, a)
            # the other statement's execute call carries a different SQL text
            # (its comment): compare what the fetches sent
            assert frm - w["exec_from"] == pytest.approx(other["from"] - other["exec_from"], rel=0.02, abs=1), (a0, a)
            assert packets == pytest.approx(other["packets"], rel=0.02), (a0, a)


@pytest.mark.parametrize("scenario", ["jdbc_dml", "release_19_jdbc", "batch_19_python", "plsql_19_python",
                                      "error_midfetch"])
def test_advises_only_queries(tshark, scenario):
    """Advice (array size, SDU) only for statements that fetched rows; the
    others (DML, DDL, failed or empty queries) are only listed. Which statement
    fetched rows comes from the scripted server's per-request rows (the manifest;
    REF CURSOR and implicit result fetches count for the block that opened them)."""
    from test_stats import statement_key, OTHER
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    rows = defaultdict(int)
    for conn in m["connections"]:
        for req in conn["requests"]:
            rows[statement_key(req)] += req["response"]["rows_sent"]
    queries = [s for s, n in rows.items() if n > 0 and s != OTHER]
    others = [s for s, n in rows.items() if n == 0 and s != OTHER]
    out = advise(tshark, TEST_CAPTURES / f"{scenario}.pcapng")
    advised = [re.sub(HEADER_TAIL, "", a) for a in re.findall(r"^Statement \d+: (.*)$", out, re.M)]
    assert sorted(advised) == sorted(queries)
    head, _, tail = out.partition("Not advised")
    assert bool(tail) == bool(others)
    listed = [l.strip() for l in tail.splitlines()[1:] if l.startswith("  ")]
    assert sorted(re.sub(r"(  \(ORA-\d{5}\))?(  \(\d+ bind values sent\))?$", "", l) for l in listed) == sorted(others)
    # nothing recommended for statements that fetched nothing
    assert not re.search(r"(?<![0-9])0-byte fetch response", out)
    assert out.count(" recommended") >= len(queries)
    assert "array size 1 recommended" not in out


def run_lua(lua, tmp_path, source):
    """Run a plain-Lua driver on the advisor's model (skips without that Lua)."""
    if not shutil.which(lua):
        pytest.skip(f"{lua} not installed")
    driver = tmp_path / "driver.lua"
    driver.write_text(source)
    proc = subprocess.run([lua, str(driver), str(ADVISOR)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc


TRANSFER_DRIVER = r"""
local M = dofile(arg[1])
-- responses of a connection: (bytes, transfer seconds); the two near 5000 B are
-- one size class (within 10 %), the dip at 12000 B is noise under 8000 B's time
local responses = {
    { bytes = 1000, transfer = 0.000 }, { bytes = 5000, transfer = 0.002 },
    { bytes = 5200, transfer = 0.004 }, { bytes = 12000, transfer = 0.001 },
    { bytes = 20000, transfer = 0.024 },
}
local curve = M.transfer_curve(responses)
for _, p in ipairs(curve) do print(string.format("point\t%.1f\t%.6f", p.bytes, p.time)) end
local tm = { transfer = curve, t_byte = 0 }
for _, b in ipairs({ 0, 500, 3050, 15000, 40000 }) do
    print(string.format("at\t%d\t%.6f", b, M.transfer_time(tm, b)))
end
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_transfer_time_by_response_size(lua, tmp_path):
    """The transfer part of the time model (issue 14: TCP moves a large response
    at a lower rate per byte than a small one) against hand-computed values:
    size classes merge responses within 10 % (5000 and 5200 B: mean 5100 B,
    3 ms), a larger size never moves faster (12000 B keeps 3 ms), between
    points the time is linear, beyond the largest it moves at the largest's
    average rate (40000 B at 24 ms / 20000 B)."""
    proc = run_lua(lua, tmp_path, TRANSFER_DRIVER)
    points = [tuple(map(float, l.split("\t")[1:])) for l in proc.stdout.splitlines() if l.startswith("point")]
    at = {int(l.split("\t")[1]): float(l.split("\t")[2]) for l in proc.stdout.splitlines() if l.startswith("at")}
    assert points == [(1000.0, 0.0), (5100.0, 0.003), (12000.0, 0.003), (20000.0, 0.024)]
    assert at[0] == 0.0
    assert at[500] == pytest.approx(0.0)                       # (0, 0) to (1000, 0)
    assert at[3050] == pytest.approx(0.003 * 2050 / 4100)      # halfway from 1000 to 5100 B
    assert at[15000] == pytest.approx(0.003 + 0.021 * 3000 / 8000)
    assert at[40000] == pytest.approx(0.048)


FIT_DRIVER = r"""
local M = dofile(arg[1])
-- round trips of a connection on the line 0.05 ms + 0.1 ms per row, executes
-- 0.3 ms more: fetches of 1, 10 and 50 rows (weights as executions give them),
-- executes of 2 and 100 rows, and one 50-row fetch with a 2.8 ms pause in it
local pts = {
    { x = 1, y = 0.15, w = 0.01 }, { x = 1, y = 0.15, w = 0.01 }, { x = 1, y = 0.15, w = 0.98 },
    { x = 10, y = 1.05, w = 0.9 }, { x = 0, y = 0.05, w = 0.1 },
    { x = 50, y = 5.05 + 2.8, w = 0.5 }, { x = 0, y = 0.05, w = 0.5 },
    { x = 2, e = 1, y = 0.55, w = 1 }, { x = 100, e = 1, y = 10.35, w = 1 },
    { x = 100, e = 1, y = 10.35, w = 1 },
}
for _, rel in ipairs({ false, true }) do
    local a, b, c = M.fit_line(pts, rel)
    print(string.format("fit\t%s\t%.9f\t%.9f\t%.9f", tostring(rel), a, b, c))
end
-- without executes (no e column): c is 0
local a, b, c = M.fit_line({ { x = 1, y = 0.15 }, { x = 10, y = 1.05 }, { x = 20, y = 2.05 } })
print(string.format("line\t%.9f\t%.9f\t%.9f", a, b, c))
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_connection_fit_leaves_out_a_pause(lua, tmp_path):
    """The per-connection time fit (issue 14) on hand-made round trips that lie on
    0.05 ms + 0.1 ms per row (+ 0.3 ms for an execute), but for one 50-row fetch
    with a 2.8 ms pause: the only fetch of its size, half an execution's weight.
    A least-squares line through all of them takes its slope from the pause (0.15
    ms per row); the fit must give back the line the other points lie on, with
    absolute and with relative misses."""
    proc = run_lua(lua, tmp_path, FIT_DRIVER)
    fits = [l.split("\t") for l in proc.stdout.splitlines() if l.startswith("fit")]
    assert len(fits) == 2
    for _, _, a, b, c in fits:
        assert (float(a), float(b), float(c)) == pytest.approx((0.05, 0.1, 0.3), abs=1e-6)
    line = [l.split("\t") for l in proc.stdout.splitlines() if l.startswith("line")][0]
    assert tuple(map(float, line[1:])) == pytest.approx((0.05, 0.1, 0.0), abs=1e-9)


DIALOG_DRIVER = r"""
local M = dofile(arg[1])
local function show(...)
    local o, err = M.dialog_options(...)
    if not o then print("error\t" .. err); return end
    print(string.format("ok\t%s\t%s\t%s", table.concat(o.sizes or {}, ","), table.concat(o.sdus or {}, ","),
                        o.prefetch or "-"))
end
show(" 1, 7 ,250", "", "")
show("", "2048,8192", "Tied")
show("", "", "")
show("1,x", "", "")
show("0", "", "")
show("", "100", "")
show("", "", "sometimes")
show("5,", "", "")
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_gui_dialog_options(lua, tmp_path):
    """The GUI advisor's Predict... dialog reads its three fields as
    -z sqlnet,advise,sizes=,sdus=,prefetch= does: spaces ignored, empty keeps
    the default, anything else refused with a message naming the field
    (array sizes from 1, SDUs 512 to 2 MiB, prefetch tied or fixed)."""
    proc = run_lua(lua, tmp_path, DIALOG_DRIVER)
    got = [l.split("\t") for l in proc.stdout.splitlines()]
    assert got[0] == ["ok", "1,7,250", "", "-"]
    assert got[1] == ["ok", "", "2048,8192", "tied"]
    assert got[2] == ["ok", "", "", "-"]
    assert got[3][0] == "error" and got[3][1].startswith("array sizes:") and '"x"' in got[3][1]
    assert got[4][0] == "error" and got[4][1].startswith("array sizes:")
    assert got[5][0] == "error" and got[5][1].startswith("SDUs:")
    assert got[6][0] == "error" and got[6][1].startswith("prefetch:")
    assert got[7][0] == "error" and got[7][1].startswith("array sizes:")


LOSS_DRIVER = r"""
local M = dofile(arg[1])
-- two streams; stream 0 has round trips starting at 1.0, 2.0 and 3.0 s and
-- segments sent again at 0.5 (before its first round trip), 1.5, 2.5 and 2.7 s;
-- stream 1 has none
local rts = { { stream = 0, start = 2.0 }, { stream = 0, start = 1.0 }, { stream = 0, start = 3.0 },
              { stream = 1, start = 1.2 } }
local st = { rts = rts, streams = { [0] = { retrans = { 0.5, 1.5, 2.5, 2.7 } }, [1] = {} } }
for pass = 1, 2 do          -- a window draws again with the same round trips
    M.mark_losses(st)
    local out = {}
    for _, rt in ipairs(rts) do out[#out + 1] = tostring(rt.lost or 0) end
    print("pass" .. pass .. "\t" .. table.concat(out, ","))
end
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_retransmissions_to_round_trips(lua, tmp_path):
    """A segment sent again belongs to the round trip of its stream that started
    last before it (hand-made times): 1.5 s to the one at 1.0 s, 2.5 and 2.7 s to
    the one at 2.0 s, 0.5 s to none, nothing to another stream; and drawing
    again counts them once, not twice."""
    proc = run_lua(lua, tmp_path, LOSS_DRIVER)
    assert proc.stdout.splitlines() == ["pass1\t2,1,0,0", "pass2\t2,1,0,0"]


def manifest_statements(m):
    """The scripted server's statements in the order of their first request
    frame: [{sql, round_trips, rows, to, packets, segments, first, last}]."""
    from test_stats import statement_key, OTHER
    by = {}
    for conn in m["connections"]:
        for r in conn["requests"]:
            key = statement_key(r)
            if key == OTHER:
                continue
            w = by.setdefault(key, {"sql": key, "round_trips": 0, "rows": 0, "to": 0, "packets": 0,
                                    "segments": 0, "first": r["request_first_frame"], "last": 0})
            w["round_trips"] += 1
            w["rows"] += r["response"]["rows_sent"]
            w["to"] += r["response"]["ttc_bytes"]
            w["packets"] += r["response"]["tns_packets"]
            w["segments"] += r["response"]["tcp_segments"]
            w["first"] = min(w["first"], r["request_first_frame"])
            w["last"] = max(w["last"], r["response"]["last_frame"])
    return sorted(by.values(), key=lambda w: w["first"])


@pytest.mark.parametrize("scenario", ["sweep_arraysize", "wan_rtt10_arraysize", "jdbc_fetchsize_sweep", "jdbc_dml"])
def test_formats_agree(tshark, scenario):
    """-z sqlnet,advise,format=json and format=csv: one record per advised
    statement with the text's numbers and figures; the numbers count every
    statement (distinct SQL text) in the order of its first request frame, and
    the figures are the scripted server's (its manifest: round trips, rows,
    TTC bytes, TNS packets, TCP segments, first request and last response
    frame). JSON parses with json.loads, CSV with the csv module (RFC 4180)."""
    import csv
    import io
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    want = manifest_statements(m)
    number = {w["sql"]: i + 1 for i, w in enumerate(want)}
    cap = TEST_CAPTURES / f"{scenario}.pcapng"
    text = advise(tshark, cap)
    doc = json.loads(advise(tshark, cap, "format=json"))
    rows = list(csv.DictReader(io.StringIO(advise(tshark, cap, "format=csv"), newline="")))
    # the text's headers: numbers and frames
    heads = re.findall(r"^Statement (\d+): (.*)$", text, re.M)
    assert heads
    by_sql = {w["sql"]: w for w in want}
    for n, rest in heads:
        sql = re.sub(HEADER_TAIL, "", rest)
        first, last = map(int, re.search(HEADER_TAIL, rest).groups())
        w = by_sql[sql]
        assert int(n) == number[sql], (sql, n)
        assert (first, last) == (w["first"], w["last"]), sql
    assert [s["statement"] for s in doc["statements"]] == [int(n) for n, _ in heads]
    stmt_rows = [r for r in rows if r["kind"] == "statement"]
    assert [int(r["statement"]) for r in stmt_rows] == [int(n) for n, _ in heads]
    blocks = statements(text)
    for s, r in zip(doc["statements"], stmt_rows):
        w = by_sql[s["sql"]]
        o = s["observed"]
        assert r["sql"] == s["sql"]
        for key, mkey in (("round_trips", "round_trips"), ("rows", "rows"), ("bytes_to_client", "to"),
                          ("tns_packets", "packets"), ("tcp_segments", "segments")):
            assert o[key] == w[mkey], (s["sql"], key)
            assert int(r[key]) == w[mkey], (s["sql"], key)
        assert (s["first_frame"], s["last_frame"]) == (w["first"], w["last"])
        assert (int(r["first_frame"]), int(r["last_frame"])) == (w["first"], w["last"])
        # the text's observed line and recommendation
        block = blocks[s["sql"]]
        ob = re.search(r"observed: (\d+) execution\(s\), (\d+) rows, array size (\S+), (\d+) round trips, "
                       r"(\d+) bytes to client, (\d+) from client, (\d+) TNS packets, (\d+) TCP segments, "
                       r"([\d.]+) ms", block)
        assert ob, block[:300]
        assert ob.group(9) == f"{o['elapsed_ms']:.3f}" == r["elapsed_ms"]
        assert int(ob.group(6)) == o["bytes_from_client"] == int(r["bytes_from_client"])
        preds = predicted(block)
        assert {p["array_size"] for p in s["predictions"]} == set(preds)
        csv_preds = {int(x["array_size"]): x for x in rows
                     if x["kind"] == "array_size" and x["statement"] == r["statement"]}
        for p in s["predictions"]:
            rts, to, frm, packets, segments = preds[p["array_size"]]
            assert (p["round_trips"], p["bytes_to_client"], p["bytes_from_client"], p["tns_packets"],
                    p["tcp_segments"]) == (rts, to, frm, packets, segments)
            c = csv_preds[p["array_size"]]
            assert (int(c["round_trips"]), int(c["bytes_to_client"]), float(c["elapsed_ms"])) == \
                (rts, to, p["elapsed_ms"])
            if p["recommended"]:
                assert s["recommended"]["array_size"] == p["array_size"] == int(r["recommended_array_size"])
        assert re.search(rf"^\s+{s['recommended']['array_size']}\s.*recommended", block, re.M)
    # every statement of the manifest that fetched nothing is listed as not advised, with its number
    listed = {x["sql"]: x["statement"] for x in doc["not_advised"]}
    for w in want:
        if w["sql"] in listed:
            assert listed[w["sql"]] == number[w["sql"]]


TLS_DRIVER = r"""
local M = dofile(arg[1])
-- tcp.stream -> server port of the conversations that carry
-- sqlnet.tls.undecrypted: two on 2484, one on 1522
for _, l in ipairs(M.undecrypted_lines({ [3] = 2484, [7] = 2484, [9] = 1522 })) do print(l) end
print("--")
for _, l in ipairs(M.undecrypted_lines({})) do print(l) end
"""


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_undecrypted_tls_sentence(lua, tmp_path):
    """A capture whose TNS-over-TLS conversations carry sqlnet.tls.undecrypted
    (CONTRACT.md: the server port, on the first TLS application-data frame)
    gets one sentence per port saying how many were not decrypted and what to
    do, instead of a bare "(no statements)" (the inputs are hand-made: the
    field comes with the plugin's TLS work)."""
    out = run_lua(lua, tmp_path, TLS_DRIVER).stdout.split("--\n")
    assert out[0].splitlines() == [
        "1 TNS-over-TLS conversation not decrypted (port 1522): give Wireshark the TLS key log "
        "(tls.keylog_file), or turn on sqlnet.tls_estimate",
        "2 TNS-over-TLS conversations not decrypted (port 2484): give Wireshark the TLS key log "
        "(tls.keylog_file), or turn on sqlnet.tls_estimate"]
    assert out[1].strip() == ""


def run_with_fake_fields(tshark, tmp_path, capture, zarg):
    """tshark with the build's plugin and Lua reports plus
    tests/lua/fake_contract_fields.lua (the contract's sqlnet.rt.* and
    sqlnet.tls.undecrypted, faked) in a plugin folder of its own."""
    box = Path(tshark.sandbox) / "plugins_fake_contract"      # where the unprivileged tshark can read
    if not box.exists():
        shutil.copytree(tshark.plugin_dir, box)
        shutil.copy2(Path(__file__).parent / "lua" / "fake_contract_fields.lua", box / "a_fake_contract_fields.lua")
        for d in [box] + list(box.rglob("*")):
            os.chmod(d, 0o755 if d.is_dir() else 0o644)
    cmd = [c.replace(f"WIRESHARK_PLUGIN_DIR={tshark.plugin_dir}", f"WIRESHARK_PLUGIN_DIR={box}")
           for c in tshark.command(["-r", str(tshark.readable(capture)), "-q", "-z", zarg])]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stderr.strip() == "", proc.stderr
    return proc.stdout


@pytest.mark.parametrize("scenario", ["sweep_arraysize", "jdbc_dml", "error_midfetch"])
def test_contract_fields_used(tshark, tmp_path, scenario):
    """With the contract's once-per-round-trip fields (faked by a Lua
    postdissector from the request's own fields: the same values), the
    advisor takes the call and rows asked from the completing packet instead
    of remembering every request, and names each statement's sqlnet.rt.sql_id
    in its header: the report is the same but for those ids."""
    if "sqlnet.rt.call" in {l.split("\t")[2] for l in tshark.run_plain(["-G", "fields"]).stdout.splitlines()
                            if l.startswith("F\t")}:
        pytest.skip("the plugin publishes sqlnet.rt.* itself")
    cap = TEST_CAPTURES / f"{scenario}.pcapng"
    plain = advise(tshark, cap)
    faked = run_with_fake_fields(tshark, tmp_path, cap, "sqlnet,advise")
    ids = re.findall(r'^Statement \d+: .* \(sqlnet\.rt\.sql_id == "(fake\d{9})", frames \d+-\d+\)$', faked, re.M)
    assert len(ids) == len(re.findall(r"^Statement \d+: ", plain, re.M)) > 0
    assert len(set(ids)) == len(ids)
    assert re.sub(r'sqlnet\.rt\.sql_id == "fake\d{9}", ', "", faked) == plain


def test_undecrypted_tls_named(tshark, tmp_path):
    """A TNS-over-TLS capture without its secrets, its conversation marked
    with sqlnet.tls.undecrypted (faked: the server port on the first TLS
    application-data frame): the advisor names it instead of a bare
    "(no statements)", in the text, the JSON and the CSV."""
    import csv
    import io
    import test_tls
    cap = tmp_path / "tls13_arraysize_nosecrets.pcapng"
    cap.write_bytes(test_tls.discard_secrets((TEST_CAPTURES / "tls13_arraysize.pcapng").read_bytes()))
    os.chmod(cap, 0o644)
    sentence = ("1 TNS-over-TLS conversation not decrypted (port 2484): give Wireshark the TLS key log "
                "(tls.keylog_file), or turn on sqlnet.tls_estimate")
    text = run_with_fake_fields(tshark, tmp_path, cap, "sqlnet,advise")
    assert sentence in text.splitlines() and "(no statements)" not in text
    doc = json.loads(run_with_fake_fields(tshark, tmp_path, cap, "sqlnet,advise,format=json"))
    assert doc["statements"] == [] and doc["undecrypted_tls"] == [{"port": 2484, "conversations": 1}]
    rows = list(csv.DictReader(io.StringIO(run_with_fake_fields(tshark, tmp_path, cap, "sqlnet,advise,format=csv"),
                                           newline="")))
    assert [(r["kind"], r["note"]) for r in rows] == [("undecrypted_tls", sentence)]


# ---- prefetch from the capture, array-size advice by its own rule (issue 23) --

def client_statements(m):
    """sql -> the client's own settings for it ({arraysize, prefetchrows, rows}) from its report."""
    reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
    return {" ".join(st["sql"].split()): st for r in reps for s in r["sessions"] for st in s["statements"]
            if st.get("sql")}


def server_round_trips(m):
    """sql -> round trips the scripted server counted for it (every request naming it)."""
    out = defaultdict(int)
    for conn in m["connections"]:
        for r in conn["requests"]:
            if r.get("sql"):
                out[" ".join(r["sql"].split())] += 1
    return out


def test_prefetch_tied_from_the_capture(tshark):
    """python-oracledb with prefetchrows = arraysize (the client's own settings, its
    report), one connection per array size, so no connection shows two sizes: every
    execute brings as many rows as its fetches ask, the advisor says it ties prefetch
    to the array size, and each statement predicts the round trips the scripted
    server counted for every other statement exactly. prefetch=fixed keeps each
    statement's own prefetch: 1 + floor((rows - prefetch) / A) + 1 round trips at
    array size A (hand arithmetic on the manifest's rows)."""
    m = json.loads((TEST_CAPTURES / "prefetch_tied_19_python.json").read_text())
    client = client_statements(m)
    rts = server_round_trips(m)
    assert len(client) >= 4 and all(st["prefetchrows"] == st["arraysize"] for st in client.values())
    assert len({st["rows"] for st in client.values()}) == 1
    cap = TEST_CAPTURES / m["capture"]
    sizes = sorted(st["arraysize"] for st in client.values())
    sz = "sizes=" + ",".join(map(str, sizes))
    blocks = statements(advise(tshark, cap, sz))
    assert set(blocks) == set(client)
    for sql, block in blocks.items():
        assert re.search(r"^  prefetch: tied to the array size \(seen: .+\)$", block, re.M), block[:800]
        table = predicted(block)
        for other, st in client.items():
            if other != sql:
                assert table[st["arraysize"]][0] == rts[other], (sql, other)
    doc = json.loads(advise(tshark, cap, sz, "format=json"))
    assert [s["prefetch_assumption"] for s in doc["statements"]] == ["tied"] * len(client)
    # the override
    blocks = statements(advise(tshark, cap, sz, "prefetch=fixed"))
    for sql, block in blocks.items():
        pf, rows = client[sql]["prefetchrows"], client[sql]["rows"]
        assert f"  prefetch: kept as given: prefetch=fixed (at {pf})\n" in block
        table = predicted(block)
        for a in sizes:
            want = 1 if rows < pf else 1 + (rows - pf) // a + 1
            assert table[a][0] == want, (sql, a)


@pytest.mark.parametrize("scenario", ["arraysize_50", "arraysize_2", "node_basic"])
def test_prefetch_fixed_where_the_capture_shows_it(tshark, scenario):
    """A client whose prefetch is not its array size (python-oracledb's and
    node-oracledb's default prefetch against another fetch array size; python's
    arraysize 2 against its default prefetch 2 as well, which looks the same at
    one size): "fixed at" the client's prefetchrows (its report)."""
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    (st,) = [s for s in client_statements(m).values() if not s.get("dml")]
    out = advise(tshark, TEST_CAPTURES / m["capture"])
    assert re.search(rf"^  prefetch: fixed at {st['prefetchrows']} \(seen: .+\)$", out, re.M), out[:3000]


def table_rows(block):
    """[(array size, round trips, to, from, packets, segments, elapsed ms, mark)] of a block's table."""
    out, on = [], False
    for line in block.splitlines():
        if "predicted by array size" in line:
            on = True
            continue
        if on:
            mt = re.match(r"\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)(.*)$", line)
            if mt:
                out.append(tuple(int(mt.group(i)) for i in range(1, 7)) + (float(mt.group(7)), mt.group(8)))
            elif out:
                break
    return out


def test_array_advice_follows_its_rule(tshark):
    """wan_rtt10_arraysize (prefetch = array size, the client's settings): the
    table's title states the rule (the observed size if predicted within 10 % of
    the fastest, else the smallest size that is) and the recommended row follows
    it (the model's value at the observed size, printed beside it); on the 10-row statement array size 10 takes 2 round
    trips (the execute's 10 rows fill what it asked, a fetch must learn the end:
    hand arithmetic on the manifest's rows) and 15 one, so 10 is not recommended;
    the observed row is the observed line's figures and the statement's span in the
    capture's own frame times plus the network round trip of its first call (issue 34:
    elapsed as the client lived it; the link's RTT from the manifest); a recommended size that only exceeds an
    execution's rows says so."""
    m = json.loads((TEST_CAPTURES / "wan_rtt10_arraysize.json").read_text())
    client = client_statements(m)
    frames = {int(r[0]): float(r[1]) for r in tshark.fields(TEST_CAPTURES / m["capture"],
                                                            ["frame.number", "frame.time_epoch"])}
    want = {w["sql"]: w for w in manifest_statements(m)}
    blocks = statements(advise(tshark, TEST_CAPTURES / m["capture"]))
    assert set(blocks) == set(client)
    for sql, block in blocks.items():
        st, w = client[sql], want[sql]
        assert ("recommended: the observed size if its predicted time is within 10% of the fastest, else the "
                "smallest size that is:" in block), block[:1500]
        rows = table_rows(block)
        model = {}
        for a, rts, to, frm, packets, segments, el, mark in rows:
            mm = re.search(r"\(model: (?:.*, )?([\d.]+) ms\)", mark)
            model[a] = float(mm.group(1)) if mm else el
        best = min(model.values())
        rec = [r for r in rows if "recommended" in r[7]]
        assert len(rec) == 1
        if model[st["arraysize"]] <= best * 1.10:
            assert rec[0][0] == st["arraysize"], (sql, model)
        else:
            assert rec[0][0] == min(a for a, el in model.items() if el <= best * 1.10), (sql, model)
        # the observed row: the observed line's figures, the frames' span
        (obs,) = [r for r in rows if "observed" in r[7]]
        ob = re.search(r"observed: 1 execution\(s\), (\d+) rows, array size (\d+), (\d+) round trips, (\d+) bytes "
                       r"to client, (\d+) from client, (\d+) TNS packets, (\d+) TCP segments, ([\d.]+) ms", block)
        assert obs[0] == st["arraysize"] == int(ob.group(2))
        assert obs[1:6] == tuple(int(ob.group(i)) for i in range(3, 8))
        assert obs[1] == w["round_trips"] and obs[2] == w["to"]
        # (the elapsed time as the client lived it, -z sqlnet,stmt's: captured near the server, the frames'
        # span and the network round trip of the first call, which the span does not hold; the WAN link's
        # RTT within the generator's own tolerance for it, 10 % + 0.3 ms)
        rtt = m["netem"]["rtt_ms"]
        assert obs[6] == float(ob.group(8))
        assert abs(obs[6] - ((frames[w["last"]] - frames[w["first"]]) * 1000 + rtt)) <= 0.10 * rtt + 0.3
        # all rows in one call: said so, with the manifest's rows per execution
        a_rec = rec[0][0]
        if a_rec > st["rows"]:
            assert (f"  array size: {a_rec} fetches all {st['rows']} rows of an execution in one call "
                    f"(the execute's; any size above {st['rows']} does the same)") in block, block[-1500:]
        else:
            assert "in one call" not in block
    few = [sql for sql, st in client.items() if st["arraysize"] == 1]
    assert len(few) == 1 and client[few[0]]["rows"] == 10
    rows = {r[0]: r for r in table_rows(blocks[few[0]])}
    assert rows[10][1] == 2 and rows[15][1] == 1
    assert "recommended" not in rows[10][7]


def test_all_rows_with_the_execute(tshark):
    """jdbc_fetchsize_sweep's warm-up: fetch size 100 (= prefetch, the client's
    report) on a 20-row table, every row with the execute, no fetch. With prefetch
    tied the observed array size is the fetch size; one round trip (the scripted
    server's count) is the fewest there is, so the observed size is kept ("is
    enough", not a smaller size that needs a fetch more), and the advice says it
    merely exceeds the 20 rows."""
    m = json.loads((TEST_CAPTURES / "jdbc_fetchsize_sweep.json").read_text())
    client = client_statements(m)
    sql = next(s for s in client if "warm-up" in s)
    st, rts = client[sql], server_round_trips(m)[sql]
    assert st["arraysize"] == st["prefetchrows"] > st["rows"] and rts == 1
    block = statements(advise(tshark, TEST_CAPTURES / m["capture"]))[sql]
    assert re.search(rf"observed: 1 execution\(s\), {st['rows']} rows, array size {st['arraysize']}, {rts} round "
                     "trips,", block), block[:400]
    (obs,) = [r for r in table_rows(block) if "observed" in r[7]]
    assert obs[0] == st["arraysize"] and obs[1] == rts and "recommended" in obs[7]
    assert f"  array size: {st['arraysize']} is enough" in block
    assert (f"  array size: {st['arraysize']} fetches all {st['rows']} rows of an execution in one call "
            f"(the execute's; any size above {st['rows']} does the same)") in block


def test_prefetch_tied_for_go_ora_without_a_fetch(tshark):
    """A real go-ora session whose queries all came with their execute (no fetch
    after an execute to compare): go-ora's PREFETCH_ROWS is the execute's and
    every fetch's, so the advisor ties them, names go-ora (the logon's
    SESSION_CLIENT_DRIVER_NAME, OracleClientGo, read here with tshark's own
    field), and takes the rows the execute asked for (sqlnet.fetch.rows on the
    OALL8 request) as the array size."""
    cap = PUBLIC / "dbbat" / "go_ora_mixed.pcapng"
    if not cap.is_file():
        pytest.skip(f"{cap} not available")
    values = [v for (v,) in tshark.fields(cap, ["sqlnet.auth.value"], "sqlnet.auth.value")]
    assert any("OracleClientGo" in v for v in values)
    asked = {int(r) for (r,) in tshark.fields(cap, ["sqlnet.fetch.rows"], "sqlnet.call == 94 && sqlnet.fetch.rows")}
    assert len(asked) == 1
    out = advise(tshark, cap)
    blocks = re.split(r"^Statement \d+: ", out, flags=re.M)[1:]
    assert blocks
    for block in blocks:
        assert ("  prefetch: tied to the array size (seen: no fetch after an execute on its connection; go-ora, "
                "whose PREFETCH_ROWS is the execute's and every fetch's)") in block, block[:600]
        assert re.search(rf"observed: 1 execution\(s\), \d+ rows, array size {min(asked)},",
                         block), block[:400]


MEDIAN_DRIVER = r"""
local M = dofile(arg[1])
-- arrays from a linear congruential generator (exact in doubles: the same in
-- Lua 5.2 and 5.4 and in the test):
-- each line "n seed kind" gives one; kind 1: few distinct values (many ties),
-- 2: sorted, 3: reversed, 4: a long run then outliers, else uniform
for line in io.lines(arg[2]) do
    local n, seed, kind = line:match("(%d+) (%d+) (%d+)")
    n, seed, kind = tonumber(n), tonumber(seed), tonumber(kind)
    local t, x = {}, seed
    for i = 1, n do
        x = (x * 65793 + 4282663) % 8388608
        local v = x / 8388608
        if kind == 1 then v = math.floor(v * 7) / 7
        elseif kind == 2 then v = i
        elseif kind == 3 then v = n - i
        elseif kind == 4 then v = (i < n * 0.9) and 1.0 or v * 1000 end
        t[i] = v
    end
    print(string.format("%d %d %d %.17g", n, seed, kind, M.median(t)))
end
"""


def _lcg_array(n, seed, kind):
    t, x = [], seed
    for i in range(1, n + 1):
        x = (x * 65793 + 4282663) % 8388608
        v = x / 8388608
        if kind == 1:
            v = math.floor(v * 7) / 7
        elif kind == 2:
            v = float(i)
        elif kind == 3:
            v = float(n - i)
        elif kind == 4:
            v = 1.0 if i < n * 0.9 else v * 1000
        t.append(v)
    return t


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_median_is_exact(lua, tmp_path):
    """M.median (the pauses' and the per-statement fallback's median; past 4096
    values it sorts only a sample's middle) against Python's statistics.median
    of the same arrays: sizes around the switch, odd and even, ties, sorted,
    reversed and skewed inputs."""
    cases = [(n, seed, kind) for n in (1, 2, 3, 4095, 4096, 4097, 4098, 9999, 20000, 100001)
             for seed, kind in ((7, 0), (11, 1), (13, 2), (17, 3), (19, 4))]
    spec = tmp_path / "cases.txt"
    spec.write_text("".join(f"{n} {seed} {kind}\n" for n, seed, kind in cases))
    driver = tmp_path / "median.lua"
    driver.write_text(MEDIAN_DRIVER)
    if not shutil.which(lua):
        pytest.skip(f"{lua} not installed")
    proc = subprocess.run([lua, str(driver), str(ADVISOR), str(spec)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    got = {tuple(map(int, l.split()[:3])): float(l.split()[3]) for l in proc.stdout.splitlines()}
    assert len(got) == len(cases)
    for case in cases:
        assert got[case] == statistics.median(_lcg_array(*case)), case
