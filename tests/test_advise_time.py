"""The advisor's elapsed-time predictions (issue 14): fitted per connection,
they must hold on sweeps they were not tuned to.

Evidence, none of it the advisor's: on every generated array-size sweep (LAN
and WAN, every client that sets its array size), the round trips the scripted
server counted for each statement (its manifest) and the statement's elapsed
time from the capture's own frame timestamps (its first request frame to its
last response frame, as the manifest names them).  Each statement's
predictions, made from that statement's profile and its connection's time
model, must give every other statement of the sweep on the same table its
round trips exactly and its elapsed time within 25 %.  The worst ratio is
printed (pytest -s).

Losses: on the lossy WAN sweep a retransmission's recovery (a retransmission
timeout of 3.5 round trips, or a fast retransmission's round trip) falls on
whichever statement the loss hits, which no array size predicts.  The
advisor says so: it reports the retransmitted segments of each statement,
leaves their round trips out of its fit, and predicts without them.  So a
statement with a retransmission (Wireshark's TCP analysis in the frames from
its first request to the next statement's, cross-checked with the WAN link's
own drop counter) is predicted from but not predicted: its own observed time
is chance.

Held-out sweeps (issue 23, manifests with "held_out": true): made with
parameters nothing in the advisor was tuned on (another server release, row
size, SDU, client family, WAN delay).  They are predicted here and read by
nothing else (test_held_out_sweeps_read_by_nothing_else).  Their statements
set prefetch equal to the array size; the advisor detects that by itself
(issue 23 point 1: no prefetch option is given, and each statement's
"prefetch:" line must say "tied").

Each statement also predicts itself: its prediction at its own array size is
within 5 % of its observed elapsed time.  Both comparisons leave the pauses
out of the observed time (pauses(): found from the frame times alone), as the
predictions leave them out.
"""
import json
import re
from collections import defaultdict

import pytest

from tshark import TEST_CAPTURES
from test_generated_captures import MANIFESTS


SWEEP_ROWS = 50


def sweeps():
    """The generated captures where one connection (a client session) fetched at
    more than one array size. The time model is fitted per connection, on its
    own round trips: a connection that ran one array size cannot tell its time
    per call from its time per row, so a capture of one array size per
    connection (prefetch_tied_19_python) is no sweep for it; its round trips
    are checked in tests/test_advise.py.  A sweep fetches a table of at least
    SWEEP_ROWS rows at each of its sizes: the values captures (7 rows of typed
    columns at array sizes 2 and 5, one LOB read per row) check decoding; one
    or two fetches per size fit no time per call and per row."""
    out = []
    for p in MANIFESTS:
        m = p.values[0]
        reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
        if any(len({st["arraysize"] for st in s["statements"]
                    if st.get("sql") and not st.get("dml") and "arraysize" in st
                    and (st.get("rows") or 0) >= SWEEP_ROWS}) > 1
               for r in reps for s in r["sessions"]):
            out.append(p)
    return out


# Where the model does not hold yet (strict, so a fix turns the mark into a
# failure to remove).
NOT_YET: dict[str, str] = {}


# The self-prediction within 5 % (issue 23): where it does not hold yet.
NOT_YET_SELF: dict[str, str] = {
    "sweep_arraysize": "array size 1 predicts itself at 1.06: the client's gap after a one- or two-row "
                       "fetch is two-valued (0.011 or 0.021 ms); the fit drops the short ones as misses "
                       "and its gap line (0.022 ms + 0.0012 ms a row) is 0.002 ms too long there",
}


def sweeps_marked(not_yet=NOT_YET):
    out = []
    for p in sweeps():
        name = p.values[0]["scenario"]
        if name in not_yet:
            out.append(pytest.param(p.values[0], id=name,
                                    marks=pytest.mark.xfail(strict=True, reason=not_yet[name])))
        else:
            out.append(p)
    return out


SWEEPS = sweeps_marked()
SWEEPS_SELF = sweeps_marked(NOT_YET_SELF)


def statements(m, frame_times, retransmissions=()):
    """sql -> {array_size, rows, round_trips, elapsed (s), retransmissions} from the manifest,
    the frame times and the frames Wireshark's TCP analysis calls retransmissions (counted
    from the statement's first request to the next statement's)."""
    reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
    size = {st["sql"]: st["arraysize"] for r in reps for s in r["sessions"] for st in s["statements"]
            if st.get("sql") and "arraysize" in st}
    out = {}
    for conn in m["connections"]:
        for r in conn["requests"]:
            sql = r.get("sql")
            if not sql or sql not in size:
                continue
            w = out.setdefault(" ".join(sql.split()), {"array_size": size[sql], "rows": 0, "round_trips": 0,
                                                       "frames": []})
            w["round_trips"] += 1
            w["rows"] += r["response"]["rows_sent"]
            w["frames"] += [r["request_first_frame"], r["response"]["last_frame"]]
    # elapsed as the client lived it (docs/time.md): the statement's span on the wire,
    # plus, at a capture taken near the server, the round trip its first call and its
    # last answer spent on the link (the handshake's RTT from tshark's core TCP fields,
    # in the manifest; a LAN's is a few microseconds)
    near_server = m.get("capture_at", "server") == "server"
    rtt = (m["connections"][0].get("handshake_rtt_ms") or 0) / 1000.0 if near_server else 0.0
    for w in out.values():
        w["elapsed"] = frame_times[max(w["frames"])] - frame_times[min(w["frames"])] + rtt
    for conn in m["connections"]:
        by_sql = {}
        for r in conn["requests"]:
            if r.get("sql") in size:
                by_sql.setdefault(r["sql"], []).append(r)
        for sql, reqs in by_sql.items():
            w = out[" ".join(sql.split())]
            w["pauses"] = w.get("pauses", 0.0) + pauses(reqs, size[sql], frame_times)
    starts = sorted(min(w["frames"]) for w in out.values())
    for w in out.values():
        lo = min(w["frames"])
        hi = next((f for f in starts if f > lo), max(frame_times) + 1)
        w["retransmissions"] = sum(1 for f in retransmissions if lo <= f < hi)
    return out


# A pause (issue 23 point 3): a round trip, or the client's time after it, that lasted
# far longer than the statement's typical one of the same kind - the scheduler gave the
# core to another process, a garbage collector ran.  The advisor names them and leaves
# them out of its predictions, as it leaves out a retransmission's recovery; so the
# observed time a prediction is compared with leaves them out too.  Measured here from
# the frame times alone: among the fetches that brought a full array (the same rows and
# bytes each), a round trip or a following client gap that exceeds the median of its
# kind by more than half the median and by more than 0.1 ms; its excess over the
# median is the pause.  Statements with fewer than PAUSE_MIN_FETCHES such fetches keep
# their observed time.
PAUSE_MIN_FETCHES = 5


def pauses(reqs, array_size, frame_times):
    """Seconds of pauses in one statement's requests (in order) from the frame times."""
    if not reqs:
        return 0.0
    rts, gaps = [], []
    for i, r in enumerate(reqs):
        if r["func_code"] != 5 or r["response"]["rows_sent"] != array_size:
            continue
        start = frame_times[r["request_first_frame"]]
        end = frame_times[r["response"]["last_frame"]]
        rts.append(end - start)
        nxt = reqs[i + 1] if i + 1 < len(reqs) else None
        if nxt is not None and nxt["func_code"] == 5:
            gaps.append(frame_times[nxt["request_first_frame"]] - end)
    total = 0.0
    for xs in (rts, gaps):
        if len(xs) < PAUSE_MIN_FETCHES:
            continue
        med = sorted(xs)[len(xs) // 2]
        total += sum(x - med for x in xs if x - med > max(0.5 * med, 0.0001))
    return total


def predictions(block):
    """{array size: (round trips, elapsed ms)} of one advisor statement block: the
    model's. The observed row shows the observed figures, with the model's time
    beside them where it differs ("observed (model: X ms)"), and the model's round
    trips at the observed size in the "array size:" sentence where they differ
    ("at N it predicts R round trips where O were observed")."""
    table, on = {}, False
    for line in block.splitlines():
        if "predicted by array size" in line:
            on = True
            continue
        if on:
            mt = re.match(r"\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+([\d.]+)(?: observed \(model: ([\d.]+) ms\))?",
                          line)
            if mt:
                table[int(mt.group(1))] = (int(mt.group(2)), float(mt.group(4) or mt.group(3)))
            elif table:
                break
    miss = re.search(r"at (\d+) it predicts (\d+) round trips? where \d+ were observed", block)
    if miss and int(miss.group(1)) in table:
        table[int(miss.group(1))] = (int(miss.group(2)), table[int(miss.group(1))][1])
    return table


_EVALUATED: dict[str, dict] = {}


def evaluate(tshark, manifest):
    """The sweep's predictions against its manifest and frame times (once per sweep: the
    cross and the self-prediction tests share it): worst cross ratio, worst self ratio."""
    key = manifest["scenario"]
    if key not in _EVALUATED:
        _EVALUATED[key] = _evaluate(tshark, manifest)
    return _EVALUATED[key]


def _evaluate(tshark, manifest):
    cap = TEST_CAPTURES / manifest["capture"]
    times = {int(f): float(t) for f, t in tshark.fields(cap, ["frame.number", "frame.time_epoch"])}
    retx = [int(f) for (f,) in tshark.fields(cap, ["frame.number"], "tcp.analysis.retransmission")]
    want = statements(manifest, times, retx)
    lossy = {sql for sql, w in want.items() if w["retransmissions"]}
    if manifest.get("netem"):
        # every loss is seen: the WAN link dropped as many frames as Wireshark saw sent again
        # (a server-side capture sees both ends of a server segment's loss only; the
        # client's losses would go unseen, and there were none to miss)
        drops = manifest["netem"]
        s2c = (drops.get("server_to_client") or {}).get("link_counters", {}).get("dropped_loss")
        c2s = (drops.get("client_to_server") or {}).get("link_counters", {}).get("dropped_loss")
        if s2c is not None and c2s is not None:
            assert c2s == 0 and len(retx) == s2c, (s2c, c2s, retx)
    if manifest.get("netem", {}).get("server_to_client", {}).get("loss_pct"):
        assert lossy, "a lossy sweep without a loss in any statement: regenerate it"
    else:
        assert not lossy, f"retransmissions in a sweep without loss: {retx}"
    sizes = sorted({w["array_size"] for w in want.values()})
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,advise,sizes=" + ",".join(map(str, sizes))])
    assert proc.stderr.strip() == "", proc.stderr
    if manifest.get("held_out"):
        # prefetch = array size in every statement (the client's settings): detected, not given
        lines = re.findall(r"^  prefetch: (.*)$", proc.stdout, re.M)
        assert lines and all(l.startswith("tied to the array size") for l in lines), lines
    from test_advise import HEADER_TAIL
    blocks = {re.sub(HEADER_TAIL, "", b.splitlines()[0].strip()): b
              for b in re.split(r"^Statement \d+: ", proc.stdout, flags=re.M)[1:]}
    worst, checked = (1.0, None), 0
    worst_self = (1.0, None)
    for sql, w in want.items():
        # the same table's other statements (the WAN sweeps fetch array size 1 on a small
        # table, the LAN ones start with a warm-up query on one)
        others = [o for other_sql, o in want.items() if other_sql != sql and o["rows"] == w["rows"]
                  and other_sql not in lossy]
        if not others:
            continue
        table = predictions(blocks[sql])
        assert table, (sql, blocks[sql][:600])
        # the advisor reports the statement's retransmitted segments, or none
        mt = re.search(r"^  loss: (\d+) retransmitted TCP segment", blocks[sql], re.M)
        assert (int(mt.group(1)) if mt else 0) == w["retransmissions"], (sql, w["retransmissions"])
        if sql not in lossy:
            # the statement predicts itself
            rts, elapsed_ms = table[w["array_size"]]
            assert rts == w["round_trips"], (sql, rts, w["round_trips"])
            ratio = elapsed_ms / 1000.0 / (w["elapsed"] - w["pauses"])
            if max(ratio, 1 / ratio) > max(worst_self[0], 1 / worst_self[0]):
                worst_self = (ratio, w["array_size"])
        for o in others:
            rts, elapsed_ms = table[o["array_size"]]
            assert rts == o["round_trips"], (w["array_size"], o["array_size"])
            ratio = elapsed_ms / 1000.0 / (o["elapsed"] - o["pauses"])
            if max(ratio, 1 / ratio) > max(worst[0], 1 / worst[0]):
                worst = (ratio, (w["array_size"], o["array_size"]))
            checked += 1
    print(f"{manifest['scenario']}: {checked} predictions, worst elapsed ratio {worst[0]:.3f} "
          f"(array size {worst[1][0] if worst[1] else '-'} predicting {worst[1][1] if worst[1] else '-'})"
          + (f"; {len(lossy)} statement(s) with a retransmission predicted from only" if lossy else "")
          + f"; worst self-prediction {worst_self[0]:.3f} (array size {worst_self[1]})"
          + f"; pauses {1000 * sum(w['pauses'] for w in want.values()):.3f} ms of "
            f"{1000 * sum(w['elapsed'] for w in want.values()):.3f} ms")
    return {"checked": checked, "worst": worst, "worst_self": worst_self}


@pytest.mark.parametrize("manifest", SWEEPS)
def test_predictions_hold_across_the_sweep(tshark, manifest):
    r = evaluate(tshark, manifest)
    assert r["checked"] > 0
    assert 1 / 1.25 <= r["worst"][0] <= 1.25, r["worst"]


@pytest.mark.parametrize("manifest", SWEEPS_SELF)
def test_statement_predicts_itself(tshark, manifest):
    """Each statement's prediction at its own array size: its round trips exactly (asserted
    in evaluate) and its observed time without pauses within 5 %."""
    r = evaluate(tshark, manifest)
    assert r["worst_self"][1] is not None or r["checked"] > 0
    assert 1 / 1.05 <= r["worst_self"][0] <= 1.05, r["worst_self"]


HELD_OUT = [p.values[0] for p in MANIFESTS if p.values[0].get("held_out")]


def test_held_out_sweeps_exist():
    """The held-out sweeps are generated, marked and among the sweeps predicted here."""
    names = {m["scenario"] for m in HELD_OUT}
    assert {"heldout_19c_sdu2048", "heldout_node_wan4"} <= names, names
    swept = {p.values[0]["scenario"] for p in sweeps()}
    assert names <= swept


def test_held_out_sweeps_read_by_nothing_else():
    """No code, profile or other test names a held-out capture: nothing is fitted or tuned
    on them (the catalogue that makes them, its README and this test excepted; the docs
    may name them)."""
    from tshark import ROOT
    names = [m["scenario"] for m in HELD_OUT]
    allowed = {ROOT / "tests" / "test_advise_time.py", ROOT / "testgen" / "sqlnetgen" / "catalog.py",
               ROOT / "testgen" / "README.md"}
    hits = []
    for top in ("lua", "plugin", "scripts", "profiles", "bench", "tests", "testgen"):
        base = ROOT / top
        files = [base] if base.is_file() else [f for f in base.rglob("*") if f.is_file()]
        for f in files:
            # (pytest's own cache lists the test ids another run collected: not code)
            if f in allowed or {"node_modules", ".pytest_cache", "__pycache__"} & set(f.parts) or \
                    f.suffix in (".pcapng", ".png", ".pyc"):
                continue
            try:
                text = f.read_text(errors="ignore")
            except OSError:
                continue
            hits += [f"{f.relative_to(ROOT)}: {n}" for n in names if n in text]
    assert not hits, hits


SUMMARY_CAPTURES = ["wan_rtt10_arraysize", "sweep_arraysize", "pauses_stall"]


@pytest.mark.parametrize("name", SUMMARY_CAPTURES)
def test_summary_ranks_by_wire_time(tshark, name):
    """The report's summary (issue 23 point 4: rank by what a statement costs
    on the wire): one line per query, in decreasing order of its time on the
    wire, each with its observed round trips and array size. Evidence: the
    scripted server's round trips and the client's array sizes (manifest), the
    capture's frame times (first request frame to last response frame) less
    the client's own measured sleeps inside a statement (pauses_stall's
    sleep_after_fetch; its 300 ms idle time before the stalled statement is
    outside that span anyway)."""
    m = json.loads((TEST_CAPTURES / f"{name}.json").read_text())
    cap = TEST_CAPTURES / m["capture"]
    times = {int(f): float(t) for f, t in tshark.fields(cap, ["frame.number", "frame.time_epoch"])}
    want = statements(m, times)
    reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
    for r in reps:
        for sess in r["sessions"]:
            for st in sess["statements"]:
                w = want.get(" ".join((st.get("sql") or "").split()))
                if w is not None:
                    w["elapsed"] -= (st.get("slept_after_fetch") or {}).get("ms", 0) / 1000.0
    out = tshark.run(cap, ["-q", "-z", "sqlnet,advise"]).stdout
    lines = out.splitlines()
    start = lines.index("Summary (elapsed time, idle time apart; the costliest first, its pauses left out):")
    rows = []
    for l in lines[start + 1:]:
        mt = re.match(r"  Statement (\d+): ([\d.]+) ms(?: \([\d.]+ ms of it pauses\))?, (\d+) round trips? at array size (\d+)", l)
        if not mt:
            break
        rows.append((int(mt.group(1)), float(mt.group(2)), int(mt.group(3)), int(mt.group(4))))
    # each statement's SQL by its number, from its header below
    sql = {int(n): " ".join(t.split()) for n, t in re.findall(r"^Statement (\d+): (.*?) \(sqlnet\.rt\.sql_id", out, re.M)}
    queries = {k: w for k, w in want.items() if w["rows"] > 0}
    assert sorted(sql[n] for n, *_ in rows) == sorted(queries), (rows, sorted(queries))
    for n, wire_ms, rts, size in rows:
        w = queries[sql[n]]
        assert (rts, size) == (w["round_trips"], w["array_size"]), (n, rts, size, w)
    # the order: by the outside times, where they differ by more than 2 ms
    # (the client's sleep is measured by the client, not on the wire)
    elapsed = [queries[sql[n]]["elapsed"] for n, *_ in rows]
    for a, b in zip(elapsed, elapsed[1:]):
        assert a >= b - 0.002, (rows, elapsed)


@pytest.mark.parametrize("name", ["values_19_python", "values_23ai_node", "values_23ai_python"])
def test_lob_reads_are_round_trips_at_every_size(tshark, name):
    """An execution's LOB reads (one per non-NULL CLOB value python-oracledb
    and node-oracledb read by its locator) cost as many round trips at every
    array size: at each size the model predicts at least those, the execute and
    the fetches the rows need (it took the LOB reads for fetches and predicted 5
    round trips where the client made 11).  Evidence: the values each client
    reports it read (the manifest), the statement's rows.  (JDBC prefetches the
    LOB data with the row: its values captures have no LOB call.  The exact
    count is not asserted: the scripted server ends these cursors with an empty
    fetch the model does not predict.)"""
    m = json.loads((TEST_CAPTURES / f"{name}.json").read_text())
    cap = TEST_CAPTURES / m["capture"]
    reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
    stmts = [st for r in reps for s in r["sessions"] for st in s["statements"] if st.get("values")]
    sizes = sorted({st["arraysize"] for st in stmts})
    out = tshark.run(cap, ["-q", "-z", "sqlnet,advise,sizes=" + ",".join(map(str, sizes))]).stdout
    from test_advise import HEADER_TAIL
    blocks = {re.sub(HEADER_TAIL, "", b.splitlines()[0].strip()): b
              for b in re.split(r"^Statement \d+: ", out, flags=re.M)[1:]}
    for st in stmts:
        lobs = sum(1 for row in st["values"] for v in row if isinstance(v, str) and v.startswith("LOB "))
        assert lobs > 0
        table = predictions(blocks[st["sql"]])
        for a in sizes:
            need = lobs + 1 + -(-st["rows"] // a)
            assert table[a][0] >= need, (st["sql"], a, table[a], lobs)


def _request_sqls(man):
    # (an execute: OALL8, or python-oracledb's re-execute on its cursor, OEXFEN)
    return [r.get("sql") for c in man["connections"] for r in c["requests"]
            if r.get("function") in ("OALL8", "OEXFEN", "OEXEC")]


@pytest.mark.parametrize("family", ["jdbc", "goora"])
def test_statement_without_fetches_predicts_its_observed_time(tshark, family):
    """A statement whose executions bring their one row with the execute (no
    fetch call: the N+1 captures over WAN50, the same query once per row) is
    predicted at its own array size as observed: the model's time is the
    observed one (it left out the network round trip before each execute,
    which -z sqlnet,stmt counts when captured near the server: JDBC's 614.9
    ms observed against 11.9 ms predicted at every size), and at array size 1,
    where each execution needs a fetch more (one row each, as the scripted
    server sent it), the round trips added cost at least the link's round
    trip each.  go-ora's close of each query's cursor (an OPING of its own
    after each execution in the server's log) stays a round trip at every
    array size.  Evidence: the scripted server's request log and the WAN
    link's round-trip time (the manifest's netem); the observed time is
    -z sqlnet,stmt's.  (python-oracledb's and node-oracledb's prefetch is not
    their array size: no array size is predicted for their N+1.)"""
    from test_advise import HEADER_TAIL
    from test_patterns import goora_closes
    m = json.loads((TEST_CAPTURES / f"pattern_nplus1_19_wan50_{family}.json").read_text())
    cap = TEST_CAPTURES / m["capture"]
    sqls = [s for s in _request_sqls(m) if s]
    sql = max(set(sqls), key=sqls.count)
    n = sqls.count(sql)
    assert n >= 10
    out = tshark.run(cap, ["-q", "-z", "sqlnet,advise"]).stdout
    blocks = {re.sub(HEADER_TAIL, "", b.splitlines()[0].strip()): b
              for b in re.split(r"^Statement \d+: ", out, flags=re.M)[1:]}
    block = blocks[sql]
    obs_line = next(ln for ln in block.splitlines() if re.match(r"\s+\d+\s+\d+\s.* observed", ln))
    assert "(model:" not in obs_line, obs_line
    observed = int(obs_line.split()[0])
    table = predictions(block)
    closes = goora_closes(m, sql) if family == "goora" else []
    assert len(closes) == (n if family == "goora" else 0)
    for a, (rts, _ms) in table.items():
        assert rts >= n + len(closes), (a, rts)
    assert table[1][0] == table[observed][0] + n
    assert table[1][1] - table[observed][1] >= n * m["netem"]["rtt_ms"] * 0.9, (table[1], table[observed])
