"""One definition of a statement's time, rows and array size (issue 34, points 1
and 3): every number of `-z sqlnet,stmt` comes from one computation in C
(plugin/consumers/account.c), so its text, CSV and JSON agree with each other
and with the sums of `-z sqlnet,rt`'s per-round-trip columns, to the
microsecond and to the row.

Evidence, per test:
- views against views: the text, CSV and JSON of -z sqlnet,stmt against each
  other; each execution's times, rows and round trips against the sums of
  -z sqlnet,rt's time.*_ns / rows columns over its round trips (integer
  nanoseconds, rounded once to the microsecond); idle time against the
  sqlnet.time.idle field (-T fields);
- the generator's manifests: the link's RTT (netem rtt_ms) times round trips
  for the network part, and the frames' own timestamps (tshark's
  frame.time_epoch of the manifest's request and response frames) plus one RTT
  for a statement's elapsed time as the client lived it, captured near the
  server; the client's configured array size (manifest steps) for the array
  size;
- real captures of ../shared/captures/public (python-oracledb, JDBC thin,
  go-ora, OCI SQL*Plus): the views agree with each other there too.
"""
import csv
import io
import json
import re
from collections import defaultdict

import pytest

from tshark import PUBLIC, TEST_CAPTURES
from test_generated_captures import MANIFESTS

GENERATED = ["wan_rtt10_arraysize", "wan_rtt50_arraysize", "wan_rtt10_jdbc_fetchsize", "node_tns315",
             "node_basic", "goora_basic", "jdbc_fetchsize_sweep", "think_time", "pauses_stall", "error_midfetch"]
REAL = ["dbbat/python_thin.pcapng", "dbbat/jdbc_thin_cursor_reexec.pcapng", "dbbat/go_ora_largeresult.pcapng",
        "dbbat/sqlplus_cursor_reexec.pcapng", "visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng"]

# the text report's line for a CSV column
TEXT_OF = {
    "elapsed_ms": "elapsed (ms)", "network_ms": "network: round trips x RTT (ms)",
    "server_ms": "server: call to first byte of answer (ms)", "transfer_ms": "transfer: first to last byte (ms)",
    "client_ms": "client: between calls of an execution (ms)", "idle_ms": "idle: before its executions, apart (ms)",
    "wait_ms": "wait: network + server + transfer (ms)", "rows": "rows processed",
    "round_trips": "SQL*Net roundtrips to/from client", "array_size": "array size (rows asked per fetch)",
    "prefetch_rows": "prefetch (rows the executes brought)",
}
# an execution's column and the -z sqlnet,rt column it sums
RT_SUM = {"network_ms": ["time.network_ns"], "server_ms": ["time.server_ns"], "transfer_ms": ["time.transfer_ns"],
          "client_ms": ["time.client_ns"],
          "elapsed_ms": ["time.network_ns", "time.server_ns", "time.transfer_ns", "time.client_ns"],
          "wait_ms": ["time.network_ns", "time.server_ns", "time.transfer_ns"]}


def ms(ns):
    """Nanoseconds as the reports print milliseconds: rounded to the microsecond."""
    us = (ns + 500) // 1000
    return f"{us // 1000}.{us % 1000:03d}"


def capture_of(name):
    if "/" in name:
        path = PUBLIC / name
        if not path.is_file():
            pytest.skip(f"public capture not available: {path}")
        return path
    return TEST_CAPTURES / f"{name}.pcapng"


def manifest_of(name):
    return next(p.values[0] for p in MANIFESTS if p.values[0]["scenario"] == name)


def run(tshark, cap, z):
    proc = tshark.run(cap, ["-q", "-z", z])
    assert "sqlnet" not in proc.stderr.lower() or "not decrypted" in proc.stderr, proc.stderr
    return proc.stdout


def header_key(line):
    m = re.match(r"^Statement (\d+): .* \(sqlnet\.rt\.sql_id == \"(\w+)\", frames", line)
    if m:
        return m.group(2)
    if line.startswith("Calls outside a statement"):
        return ""
    return None


def text_blocks(out):
    """{sql_id ("" outside): {label: value}} of the text report."""
    blocks, cur = {}, None
    for line in out.splitlines():
        key = header_key(line)
        if key is not None:
            cur = blocks.setdefault(key, {})
            continue
        m = re.match(r"  (.+?)\s{2,}(\S.*)$", line)
        if cur is not None and m:
            cur.setdefault(m.group(1).strip(), m.group(2).strip())
    return blocks


def stmt_views(tshark, cap):
    text = text_blocks(run(tshark, cap, "sqlnet,stmt"))
    rows = list(csv.DictReader(io.StringIO(run(tshark, cap, "sqlnet,stmt,format=csv"), newline="")))
    doc = json.loads(run(tshark, cap, "sqlnet,stmt,format=json"))
    return text, rows, doc["statements"]


def rt_rows(tshark, cap):
    return list(csv.DictReader(io.StringIO(run(tshark, cap, "sqlnet,rt,format=csv"), newline="")))


def idle_by_execution(tshark, cap):
    """(tcp.stream, execution) -> idle ns, from the sqlnet.time.idle field of the
    frames that end one round trip (a frame with several is left out)."""
    out = defaultdict(int)
    for stream, execution, idle in tshark.fields(cap, ["tcp.stream", "sqlnet.rt.execution", "sqlnet.time.idle"],
                                                 "sqlnet.time.idle"):
        if "," in idle or "," in execution or not execution:
            continue
        out[(int(stream), int(execution))] += round(float(idle) * 1e9)
    return out


def check_views_agree(tshark, cap):
    text, rows, stmts = stmt_views(tshark, cap)
    assert rows, cap
    assert [r["sql_id"] or "" for r in rows] == [s["sql_id"] or "" for s in stmts]
    for r, s in zip(rows, stmts):
        block = text[r["sql_id"] or ""]
        for col, label in TEXT_OF.items():
            csv_v, json_v = r[col], s[col]
            if csv_v == "":
                assert json_v is None, (col, r["sql"])
                assert label not in block or block[label] in ("-", "unknown"), (col, r["sql"])
                continue
            assert str(json_v) == csv_v or float(json_v) == float(csv_v), (col, r["sql"], csv_v, json_v)
            assert block[label] == csv_v, (col, r["sql"], block[label], csv_v)
        # elapsed is its parts, wait is elapsed less client (in the one rounding of each)
        if r["elapsed_ms"]:
            parts = sum(float(r[c] or 0) for c in ("network_ms", "server_ms", "transfer_ms", "client_ms"))
            assert float(r["elapsed_ms"]) == pytest.approx(parts, abs=0.0025)
            assert r["wire_time_ms"] == r["elapsed_ms"]
        assert (r["array_sizes"] or None) == (r["array_size"] or None)
    # each execution against the round trips of -z sqlnet,rt and the idle field
    by_exec = defaultdict(list)
    for rt in rt_rows(tshark, cap):
        if rt["execution"]:
            by_exec[(int(rt["conversation"]), int(rt["execution"]))].append(rt)
    idle = idle_by_execution(tshark, cap)
    checked = 0
    for s in stmts:
        sizes = set()
        for e in s["per_execution"]:
            rts = by_exec[(e["conversation"], e["execution"])]
            assert e["round_trips"] == len(rts), e
            assert e["rows"] == sum(int(rt["rows"]) for rt in rts), e
            for col, members in RT_SUM.items():
                if e[col] is None:
                    continue
                ns = sum(int(rt[m] or 0) for rt in rts for m in members)
                assert f"{e[col]:.3f}" == ms(ns), (col, e, ns)
            if (e["tcp_stream"], e["execution"]) in idle and e["idle_ms"] is not None:
                assert f"{e['idle_ms']:.3f}" == ms(idle[(e["tcp_stream"], e["execution"])]), e
            if e["array_size"]:
                sizes.add(e["array_size"])
            checked += 1
        # the statement's array size: its executions' (one number, or the list)
        assert (s["array_size"] or "") == ", ".join(str(x) for x in sorted(sizes)), s["sql"]
    return checked


@pytest.mark.parametrize("name", GENERATED)
def test_views_agree_generated(tshark, name):
    """text == CSV == JSON for every statement; every execution equal to the sums
    of -z sqlnet,rt over its round trips (to the microsecond and to the row) and
    to the sqlnet.time.idle fields; a statement's array size is its executions'."""
    assert check_views_agree(tshark, capture_of(name)) > 0


@pytest.mark.parametrize("name", REAL)
def test_views_agree_real(tshark, name):
    """The same on real captures, one per client family (python-oracledb, JDBC thin,
    go-ora, OCI SQL*Plus 11g and 9i-era sessions)."""
    check_views_agree(tshark, capture_of(name))


@pytest.mark.parametrize("name", ["wan_rtt10_arraysize", "wan_rtt50_arraysize", "wan_rtt10_jdbc_fetchsize"])
def test_elapsed_and_network_against_the_generator(tshark, name):
    """Captured near the server on a WAN link of a known RTT (the manifest's netem
    rtt_ms): every statement with one execution took, as the client lived it, its
    first request frame to its last response frame (frame.time_epoch) plus one RTT
    (half before the capture saw the call, half after the answer left), and its
    network part is its round trips (the scripted server's request log) times
    the RTT (issue 34, symptom 1: the time of a statement is one number)."""
    m = manifest_of(name)
    cap = capture_of(name)
    rtt_ms = m["netem"]["rtt_ms"]
    frames = {int(n): float(t) for n, t in tshark.fields(cap, ["frame.number", "frame.time_epoch"])}
    by_sql = defaultdict(list)
    for conn in m["connections"]:
        for req in conn["requests"]:
            if req.get("sql") and (req.get("response") or {}).get("last_frame"):
                by_sql[" ".join(req["sql"].split())].append(req)
    _, rows, _ = stmt_views(tshark, cap)
    checked = 0
    for r in rows:
        reqs = by_sql.get(r["sql"] or "")
        if not reqs or r["executions"] != "1":
            continue
        assert int(r["round_trips"]) == len(reqs)
        lived = (frames[reqs[-1]["response"]["last_frame"]] - frames[reqs[0]["request_first_frame"]]) * 1000 + rtt_ms
        assert float(r["elapsed_ms"]) == pytest.approx(lived, abs=0.2 + 0.01 * rtt_ms), r["sql"]
        assert float(r["network_ms"]) == pytest.approx(len(reqs) * rtt_ms, rel=0.02), r["sql"]
        checked += 1
    assert checked >= 3


# one or more per client and pattern (all plans with steps pass; these keep the run short)
ARRAY_SIZE_SCENARIOS = ["arraysize_100", "sweep_arraysize", "scroll_19_python", "node_basic", "node_tns315",
                        "batch_19_node", "release_19_node", "jdbc_fetchsize_sweep", "jdbc_default_prefetch",
                        "wan_rtt10_jdbc_fetchsize", "goora_basic", "redirect_goora", "batch_19_python"]
ARRAY_SIZE_CAPTURES = [p for p in MANIFESTS if p.values[0]["scenario"] in ARRAY_SIZE_SCENARIOS]


@pytest.mark.parametrize("manifest", ARRAY_SIZE_CAPTURES)
def test_array_size_is_the_clients(tshark, manifest):
    """Issue 34, symptom 3: one array size per statement, the one the client was
    configured with (the generator's plan: each step's arraysize, go-ora's
    PREFETCH_ROWS, which it asks on every fetch), the same in the text, CSV and
    per execution: python-oracledb's execute asks its prefetch (2) and its
    fetches the array size; node-oracledb's first fetch asks the array size less
    the rows the execute brought (98 of 100) and counts as 100; JDBC's warm-up
    that brought every row on its execute reads its fetch size, not 0.
    Statements without rows (DML) have none."""
    c = manifest["client"]
    cap = TEST_CAPTURES / manifest["capture"]
    text, rows, stmts = stmt_views(tshark, cap)
    got = {r["sql"]: r for r in rows}
    per_exec = {s["sql"]: s["per_execution"] for s in stmts}
    sent = defaultdict(int)       # rows the scripted server sent per SQL text
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            if req.get("sql"):
                sent[" ".join(req["sql"].split())] += (req.get("response") or {}).get("rows_sent", 0)
    checked = 0
    for step in c["steps"]:
        if not isinstance(step, dict) or not step.get("sql"):
            continue
        sql = " ".join(step["sql"].split())
        r = got.get(sql)
        if r is None or not sent.get(sql):
            continue
        want = step.get("arraysize", c.get("arraysize"))
        if c["driver"] == "go-ora":
            want = step.get("prefetchrows", c.get("prefetchrows"))
        assert r["array_size"] == str(want), (sql, r["array_size"], want)
        assert text[r["sql_id"]]["array size (rows asked per fetch)"] == str(want)
        assert {e["array_size"] for e in per_exec[sql]} == {want}, sql
        checked += 1
    if checked == 0:
        pytest.skip("no query with rows in this plan")


def test_node_top_up_reads_the_array_size(tshark):
    """node-oracledb (node_tns315: fetchArraySize 100, prefetchRows 2 in the
    manifest): the execute brings 2 rows, the first fetch asks 98 and the next
    100 (-z sqlnet,rt's rows_asked); the statement's array size is 100, its
    prefetch 2 (issue 34: "a warm-up that asked for 100 rows is reported at 98")."""
    m = manifest_of("node_tns315")
    cap = capture_of("node_tns315")
    asked = [int(rt["rows_asked"]) for rt in rt_rows(tshark, cap) if rt["rows_asked"]]
    assert asked[:3] == [m["client"]["prefetchrows"], m["client"]["arraysize"] - m["client"]["prefetchrows"],
                         m["client"]["arraysize"]]
    _, rows, _ = stmt_views(tshark, cap)
    r = next(r for r in rows if r["sql"])
    assert r["array_size"] == str(m["client"]["arraysize"])
    assert r["prefetch_rows"] == str(m["client"]["prefetchrows"])


def test_jdbc_warmup_array_size_is_not_zero(tshark):
    """jdbc_fetchsize_sweep's warm-up brings all its rows on the execute (no fetch
    call): its array size is the rows its execute asked (the fetch size, the
    manifest's rows_requested), in the statement line and the per-execution line
    alike (issue 34: "array sizes seen 100" beside "array size 0")."""
    m = manifest_of("jdbc_fetchsize_sweep")
    cap = capture_of("jdbc_fetchsize_sweep")
    warm = next(req for conn in m["connections"] for req in conn["requests"] if "warm" in (req.get("sql") or ""))
    text, rows, stmts = stmt_views(tshark, cap)
    r = next(r for r in rows if "warm" in (r["sql"] or ""))
    assert r["fetch_calls"] == "0"
    assert r["array_size"] == str(warm["rows_requested"])
    s = next(s for s in stmts if "warm" in (s["sql"] or ""))
    assert [e["array_size"] for e in s["per_execution"]] == [warm["rows_requested"]]


ACCOUNTS_PROBE = r'''
local open = assert(package.loadlib("sqlnet.so", "luaopen_sqlnet_records"))
local records = open()
local rep = assert(records.statements("open"))
local cols = records.account_columns()
local tap = Listener.new("frame", "frame.number == 0")
function tap.draw()
    for _, s in ipairs(records.accounts(rep)) do
        local parts = {}
        for _, name in ipairs(cols.statement) do
            local v = s[name]
            parts[#parts + 1] = name .. "=" .. (v == nil and "" or (type(v) == "number" and string.format("%.3f", v) or v))
        end
        print("STMT\t" .. table.concat(parts, "\t"))
        for _, e in ipairs(s.per_execution) do
            print("EXEC\t" .. (s.sql_id or "") .. "\t" .. string.format("%.3f", e.elapsed_ms or -1) .. "\t" ..
                  tostring(e.array_size))
        end
    end
end
'''


@pytest.mark.parametrize("name", ["wan_rtt10_arraysize", "node_tns315"])
def test_lua_accounts_are_the_csv(tshark, tmp_path, name):
    """records.accounts (the advisor's and the GUI's way to the accounts) gives, by
    the CSV's column names, the values -z sqlnet,stmt,format=csv prints (numbers
    compared at the CSV's 3 decimals, texts as they are), statement by
    statement, and each execution's elapsed and array size as the JSON's."""
    from test_lua_records import libwireshark_lua
    if libwireshark_lua() is None:
        pytest.skip("libwireshark links no shared Lua library here: no records module")
    cap = capture_of(name)
    script = tmp_path / "accounts.lua"
    script.write_text(ACCOUNTS_PROBE)
    proc = tshark.run(cap, ["-q", "-X", f"lua_script:{tshark.readable(script)}"])
    assert proc.stderr == ""
    lua = [dict(p.split("=", 1) for p in l.split("\t")[1:]) for l in proc.stdout.splitlines() if l.startswith("STMT\t")]
    execs = [l.split("\t")[1:] for l in proc.stdout.splitlines() if l.startswith("EXEC\t")]
    _, rows, stmts = stmt_views(tshark, cap)
    assert len(lua) == len(rows)
    for got, want in zip(lua, rows):
        assert set(got) == set(want)
        for k, v in want.items():
            if v and re.fullmatch(r"-?\d+(\.\d+)?", v):
                assert float(got[k]) == pytest.approx(float(v), abs=0.0005), (k, v, got[k])
            else:
                assert got[k] == v, (k, v, got[k])
    want_execs = [[s["sql_id"] or "", f"{e['elapsed_ms']:.3f}", str(e["array_size"]) if e["array_size"] else "nil"]
                  for s in stmts for e in s["per_execution"]]
    assert execs == want_execs


def test_pauses_where_the_generator_paused(tshark):
    """pauses_stall (the generator's plan: the /* stalled */ statement comes after
    300 ms of client idle time and its client sleeps 80 ms after its 3rd fetch;
    the other statements do not pause): that statement's client stall is the
    80 ms sleep (plus the client's own few ms around it), inside its client
    time; the 300 ms are idle, apart from its elapsed time; no other statement
    has a client stall."""
    m = manifest_of("pauses_stall")
    plan = {" ".join(s["sql"].split()): s for s in m["client"]["steps"]}
    _, rows, _ = stmt_views(tshark, capture_of("pauses_stall"))
    checked = 0
    for r in rows:
        step = plan.get(r["sql"] or "")
        if not step:
            continue
        sleep = (step.get("sleep_after_fetch") or {}).get("ms", 0)
        before = step.get("sleep_before_ms", 0)
        stall = float(r["client_stall_ms"])
        if sleep:
            assert sleep <= stall <= sleep + 10, r
            assert stall <= float(r["client_ms"])
        else:
            assert stall == 0.0, r
        if before:
            assert before <= float(r["idle_ms"]) <= before + 10, r
            assert float(r["elapsed_ms"]) < before
        checked += 1
    assert checked == 4


def client_view(src, dst, server_port, one_way):
    """The capture a client-side tap would have taken of a near-server capture
    on a link of constant delay (the generator's WAN link, no rate limit, no
    loss): the client's packets left `one_way` seconds before the server saw
    them, the server's arrived `one_way` seconds after it sent them. A classic
    pcap (editcap -F pcap) of Ethernet/IPv4/TCP frames, re-timed and re-sorted."""
    import struct
    import subprocess as sp
    tmp = dst.with_suffix(".in.pcap")
    sp.run(["editcap", "-F", "pcap", str(src), str(tmp)], check=True, capture_output=True)
    raw = tmp.read_bytes()
    head, at, frames = raw[:24], 24, []
    magic = struct.unpack("<I", raw[:4])[0]
    nano = magic == 0xa1b23c4d
    scale = 1e9 if nano else 1e6
    while at + 16 <= len(raw):
        sec, frac, incl, orig = struct.unpack("<IIII", raw[at:at + 16])
        data = raw[at + 16:at + 16 + incl]
        at += 16 + incl
        t = sec + frac / scale
        ihl = (data[14] & 0x0F) * 4 if len(data) > 14 else 0
        sport = struct.unpack(">H", data[14 + ihl:16 + ihl])[0] if len(data) >= 16 + ihl else 0
        t += one_way if sport == server_port else -one_way
        frames.append((t, len(frames), incl, orig, data))
    frames.sort()
    out = bytearray(head)
    for t, _, incl, orig, data in frames:
        sec = int(t)
        frac = int(round((t - sec) * scale))
        if frac >= scale:
            sec, frac = sec + 1, frac - int(scale)
        out += struct.pack("<IIII", sec, frac, incl, orig) + data
    dst.write_bytes(bytes(out))
    dst.chmod(0o644)
    return dst


@pytest.mark.parametrize("name", ["wan_rtt10_arraysize", "wan_rtt50_arraysize"])
def test_elapsed_is_the_same_near_the_client(tshark, tmp_path, name):
    """Where the capture was taken changes where the RTT shows, not a statement's
    elapsed time (docs/time.md): the near-server capture re-timed as a client-side
    tap would have seen it (each direction moved by half the manifest's RTT, the
    link's constant one-way delay) is read as captured near the client, and each
    statement's elapsed time, network part and round trips are the near-server
    capture's (within the RTT estimate's error per round trip)."""
    m = manifest_of(name)
    cap = capture_of(name)
    near_client = client_view(cap, tmp_path / "client.pcap", m["server"]["port"], m["netem"]["rtt_ms"] / 2000.0)
    points = {r[0] for r in tshark.fields(near_client, ["sqlnet.capture_point"]) if r[0]}
    assert points == {"2"}, points             # near the client
    _, server_rows, _ = stmt_views(tshark, cap)
    _, client_rows, _ = stmt_views(tshark, near_client)
    assert [r["sql"] for r in server_rows] == [r["sql"] for r in client_rows]
    for s, c in zip(server_rows, client_rows):
        if not s["sql"]:
            continue
        assert c["round_trips"] == s["round_trips"] and c["rows"] == s["rows"] and c["array_size"] == s["array_size"]
        slack = 0.2 * int(s["round_trips"]) + 0.2
        assert float(c["elapsed_ms"]) == pytest.approx(float(s["elapsed_ms"]), abs=slack), s["sql"]
        assert float(c["network_ms"]) == pytest.approx(float(s["network_ms"]), abs=slack), s["sql"]
