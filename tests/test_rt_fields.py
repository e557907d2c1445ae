"""One round-trip record, published once (issue 22): the sqlnet.rt subtree.

Evidence: the generated captures' manifests (the scripted server's own
per-request counters: rows, TNS packets and bytes, TTC bytes, TCP segments,
frames, the call it parsed), the TNS rule that a MARKER packet is 11 bytes
long, Oracle's published SQL_ID of "select * from dual" (a5ks9fhw2v9s1, as
V$SQL shows it) and an independent Python computation of the SQL_ID (MD5 of
the text and a NUL byte, the last 8 bytes as two little-endian 32-bit words,
high word first, in Oracle's base 32), tshark's own sqlnet.time and
-z expert / -z io,stat.
"""
import json
import re
from collections import defaultdict

import pytest

from oracle_sql_id import PUBLISHED, oracle_sql_id
from tshark import PUBLIC, TEST_CAPTURES

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
MARKER_LEN = 11
SMALL_FETCH = 50            # the preference's default

RT_FIELDS = ["sqlnet.rt", "sqlnet.rt.number", "sqlnet.rt.call", "sqlnet.rt.execution", "sqlnet.rt.cursor",
             "sqlnet.rt.sql", "sqlnet.rt.sql_id", "sqlnet.rt.rows_asked", "sqlnet.rt.rows",
             "sqlnet.rt.request.ttc_bytes", "sqlnet.rt.request.tns_bytes", "sqlnet.rt.request.packets",
             "sqlnet.rt.response.ttc_bytes", "sqlnet.rt.response.tns_bytes", "sqlnet.rt.response.packets",
             "sqlnet.rt.response.data_packets", "sqlnet.rt.response.segments", "sqlnet.rt.sdu_fill",
             "sqlnet.rt.time", "sqlnet.rt.time.network", "sqlnet.rt.time.server", "sqlnet.rt.time.transfer",
             "sqlnet.rt.time.client", "sqlnet.rt.ora_error", "sqlnet.rt.partial"]
# one value per round trip: numbers only (no commas inside a value)
NUMERIC = ["frame.number", "tcp.stream", "sqlnet.rt.number", "sqlnet.rt.call", "sqlnet.rt.rows_asked",
           "sqlnet.rt.rows", "sqlnet.rt.request.tns_bytes", "sqlnet.rt.request.ttc_bytes",
           "sqlnet.rt.request.packets", "sqlnet.rt.response.ttc_bytes", "sqlnet.rt.response.tns_bytes",
           "sqlnet.rt.response.packets", "sqlnet.rt.response.data_packets", "sqlnet.rt.response.segments",
           "sqlnet.rt.ora_error", "sqlnet.rt.sql_id"]

def test_python_sql_id_matches_the_published_value():
    """The independent computation itself gives Oracle's value (V$SQL)."""
    assert oracle_sql_id(PUBLISHED[0]) == PUBLISHED[1]


def load(path):
    return json.loads(path.read_text())


def manifests():
    out = []
    for path in sorted(TEST_CAPTURES.glob("*.json")):
        if path.name == "INDEX.json":
            continue
        m = load(path)
        if m.get("nne") or not (TEST_CAPTURES / m["capture"]).is_file():
            continue        # native network encryption: no TTC to decode
        out.append(pytest.param(m, id=m["scenario"]))
    return out


MANIFESTS = manifests()


def completed(manifest):
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            resp = req.get("response") or {}
            if resp.get("last_frame"):
                yield conn, req, resp


def data_packets(resp):
    if not resp.get("markers"):
        return resp["tns_packets"]
    return sum(1 for n in resp["packet_lengths"] if n != MARKER_LEN)


def rt_rows(tshark, capture, extra=()):
    """One dict per round trip (a frame with two records gives two)."""
    rows = tshark.fields(capture, NUMERIC, "sqlnet.rt", extra=extra)
    out = []
    for row in rows:
        cols = [v.split(",") if v else [] for v in row]
        n = len(cols[2])
        for i in range(n):
            rec = {"frame": int(row[0]), "stream": int(row[1])}
            for name, vals in zip(NUMERIC[2:], cols[2:]):
                if vals and len(vals) != n:
                    raise AssertionError(f"frame {row[0]}: {name} {vals} for {n} round trips")
                rec[name[len("sqlnet.rt."):]] = vals[i] if vals else None
            out.append(rec)
    return out


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_one_record_per_round_trip(tshark, manifest):
    """Every completed response of the manifest has exactly one record on its
    last frame, with the server's rows, packets, bytes and segments, the
    call's function, rows asked and request bytes; nothing else has one."""
    capture = TEST_CAPTURES / manifest["capture"]
    got = defaultdict(list)
    for rec in rt_rows(tshark, capture):
        got[rec["frame"]].append(rec)
    problems = []
    want_total = 0
    for conn, req, resp in completed(manifest):
        want_total += 1
        want = {"rows": resp["rows_sent"], "response.tns_bytes": resp["tns_bytes"],
                "response.packets": resp["tns_packets"], "response.data_packets": data_packets(resp),
                "response.ttc_bytes": resp["ttc_bytes"], "response.segments": resp["tcp_segments"],
                "request.tns_bytes": req["request_tns_bytes"], "request.packets": req["request_tns_packets"],
                # the request's DATA payload: its TNS bytes less 8 header + 2 flag bytes per packet
                "request.ttc_bytes": req["request_tns_bytes"] - 10 * req["request_tns_packets"],
                "rows_asked": req.get("rows_requested"), "call": req.get("func_code"),
                "ora_error": resp.get("ora_error") if resp.get("ora_error") not in (None, 0, 1403) else None}
        if req.get("rows_requested") is None:
            # the server gives no rows requested for an execute it failed
            # (sqlnet.fetch.rows still shows the call's prefetch)
            del want["rows_asked"]
        want = {k: (None if v is None else str(v)) for k, v in want.items()}
        cands = got.get(resp["last_frame"], [])
        match = [r for r in cands if all(r[k] == v for k, v in want.items())]
        if not match:
            problems.append((req["index"], req["function"], resp["last_frame"], want, cands))
        else:
            cands.remove(match[0])
    assert problems == []
    left = [r for recs in got.values() for r in recs]
    assert left == []                       # no record that the manifest has no round trip for
    assert want_total > 0


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_round_trip_numbers_and_sums(tshark, manifest):
    """Per connection: records numbered 1..n in frame order, n the round trips
    with a response in the capture, the rows adding up to the server's."""
    capture = TEST_CAPTURES / manifest["capture"]
    recs = rt_rows(tshark, capture)
    by_stream = defaultdict(list)
    for r in recs:
        by_stream[r["stream"]].append(r)
    assert sum(1 for _ in completed(manifest)) == len(recs)
    assert sum(int(r["rows"]) for r in recs) == sum(resp["rows_sent"] for _, _, resp in completed(manifest))
    for stream, rs in by_stream.items():
        assert [int(r["number"]) for r in sorted(rs, key=lambda r: (r["frame"], int(r["number"])))] == \
            list(range(1, len(rs) + 1)), stream


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_io_stat_counts_round_trips_and_rows(tshark, passes):
    """tshark -z io,stat: COUNT(sqlnet.rt.rows) = the server's round trips,
    SUM(sqlnet.rt.rows) = its rows, in one pass and in two."""
    stats = load(SWEEP.with_suffix(".json"))["connections"][0]["stats"]
    out = tshark.run(SWEEP, ["-q", "-z", "io,stat,0,COUNT(sqlnet.rt.rows)sqlnet.rt.rows,"
                                         "SUM(sqlnet.rt.rows)sqlnet.rt.rows"] + passes).stdout
    m = re.search(r"\|\s*0\.000 <> [\d.]+\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|", out)
    assert m, out
    assert (int(m.group(1)), int(m.group(2))) == (stats["round_trips"], stats["rows_sent"])


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_each_field_once_per_frame(tshark, passes):
    """No frame carries an rt field twice (display filter count()), on captures
    with multi-frame responses, markers and errors; the two passes find the
    same records."""
    caps = [SWEEP, TEST_CAPTURES / "error_midfetch.pcapng", TEST_CAPTURES / "jdbc_error_midfetch.pcapng",
            TEST_CAPTURES / "mtu_576.pcapng"]
    twice = " || ".join(f"count({f}) > 1" for f in RT_FIELDS)
    for cap in caps:
        assert tshark.fields(cap, ["frame.number"], twice, extra=passes) == [], cap.name
    one = rt_rows(tshark, SWEEP)
    assert rt_rows(tshark, SWEEP, extra=passes) == one


def test_time_is_sqlnet_time_in_ms(tshark):
    """sqlnet.rt.time is sqlnet.time (tshark's relative time, seconds) in ms,
    and the breakdown the sqlnet.time.* fields in ms."""
    fields = ["sqlnet.rt.time", "sqlnet.time", "sqlnet.rt.time.server", "sqlnet.time.server",
              "sqlnet.rt.time.client", "sqlnet.time.client"]
    rows = tshark.fields(SWEEP, fields, "sqlnet.rt")
    assert len(rows) == load(SWEEP.with_suffix(".json"))["connections"][0]["stats"]["round_trips"]
    for row in rows:
        for ms, s in zip(row[0::2], row[1::2]):
            assert abs(float(ms) - float(s) * 1000.0) < 1e-6, row


def test_sdu_fill(tshark):
    """sdu_fill = response TNS bytes / (TNS packets x negotiated SDU) x 100,
    from the manifest's bytes, packets and SDU."""
    man = load(SWEEP.with_suffix(".json"))
    sdu = man["connections"][0]["negotiated_sdu"]
    got = {int(f): float(v) for f, v in tshark.fields(SWEEP, ["frame.number", "sqlnet.rt.sdu_fill"], "sqlnet.rt")}
    for _, _, resp in completed(man):
        want = 100.0 * resp["tns_bytes"] / (resp["tns_packets"] * sdu)
        assert abs(got[resp["last_frame"]] - want) < 1e-9


def test_sql_and_sql_id_per_statement(tshark):
    """Every record of a statement names its SQL text (the manifest's) and the
    SQL_ID of that text (computed here); sqlnet.sql_id stands next to every
    sqlnet.sql."""
    man = load(SWEEP.with_suffix(".json"))
    rows = tshark.fields(SWEEP, ["frame.number", "sqlnet.rt.sql", "sqlnet.rt.sql_id"], "sqlnet.rt")
    got = {int(r[0]): r[1:] for r in rows}
    checked = set()
    for _, req, resp in completed(man):
        if not req.get("sql"):
            continue
        sql, sql_id = got[resp["last_frame"]]
        assert sql == req["sql"]
        assert sql_id == oracle_sql_id(req["sql"]), sql
        checked.add(sql)
    assert len(checked) >= 10            # the warm-up and one per array size
    pairs = tshark.fields(SWEEP, ["sqlnet.sql", "sqlnet.sql_id"], "sqlnet.sql")
    assert pairs
    for texts, ids in pairs:
        # a text may hold commas: compare the set of IDs with those of the known texts
        assert set(ids.split(",")) <= {oracle_sql_id(t) for t in checked}, (texts, ids)
        assert len(ids.split(",")) >= 1


def corpus(name):
    path = PUBLIC / name
    if not path.is_file():
        pytest.skip(f"{path} not present (scripts/fetch_corpus.py)")
    return path


@pytest.mark.parametrize("name", ["dbbat/go_ora.pcapng", "dbbat/python_thin.pcapng"])
def test_select_star_from_dual_has_oracles_sql_id(tshark, tmp_path, name):
    """A real session's "SELECT 1 FROM DUAL" rewritten in place (same length)
    to "select * from dual": its round trips carry a5ks9fhw2v9s1, the SQL_ID
    Oracle publishes for that text in V$SQL."""
    raw = corpus(name).read_bytes()
    old, new = b"SELECT 1 FROM DUAL", b"select * from dual"
    assert len(old) == len(new) and raw.count(old) >= 1 and new not in raw
    cap = tmp_path / ("dual_" + name.split("/")[-1])
    cap.write_bytes(raw.replace(old, new))
    rows = tshark.fields(cap, ["sqlnet.rt.sql", "sqlnet.rt.sql_id"], 'sqlnet.rt.sql == "select * from dual"')
    assert rows
    assert {r[1] for r in rows} == {"a5ks9fhw2v9s1"}
    calls = tshark.fields(cap, ["sqlnet.sql_id"], 'sqlnet.sql == "select * from dual"')
    assert calls and {r[0] for r in calls} == {"a5ks9fhw2v9s1"}


# ---- Expert Info names the ORA error -----------------------------------------

@pytest.mark.parametrize("capture", ["error_midfetch", "jdbc_error_midfetch"])
def test_expert_names_the_ora_error(tshark, capture):
    """-z expert lists the error the manifest's server sent, as
    "ORA-nnnnn: message", once per error with its count."""
    man = load(TEST_CAPTURES / f"{capture}.json")
    errors = defaultdict(int)
    for _, _, resp in completed(man):
        if resp.get("ora_error") not in (None, 0, 1403):
            errors[resp["ora_message"].strip().splitlines()[0]] += 1
    assert errors
    out = tshark.run(TEST_CAPTURES / f"{capture}.pcapng", ["-q", "-z", "expert"]).stdout
    for msg, n in errors.items():
        assert re.match(r"ORA-\d{5}: ", msg)
        line = re.search(r"^\s+(\d+)\s+Response\s+SQL\*Net\s+(.*?)\s*$", out, re.M)
        assert line, out
        assert (int(line.group(1)), line.group(2)) == (n, msg)


# ---- small fetches: only where rows came back -----------------------------------

def small_fetch_cases():
    out = []
    for p in MANIFESTS:
        m = p.values[0]
        zero = [1 for _, req, resp in completed(m) if req.get("func_code") == 5
                and req.get("rows_requested") is not None and req["rows_requested"] < SMALL_FETCH
                and resp["rows_sent"] == 0]
        if zero and not m.get("tls") and "tls" not in m["scenario"]:
            out.append(p)
    return out[:4]


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_small_fetch_only_where_rows_came_back(tshark, passes):
    """sweep_arraysize (array sizes 1 to 5000): the small fetches are the
    responses to OFETCH calls asking fewer than 50 rows that delivered rows
    (manifest); its two small OFETCHes that got no rows are not, nor any call."""
    man = load(SWEEP.with_suffix(".json"))
    small = [(req, resp) for _, req, resp in completed(man)
             if req["func_code"] == 5 and req["rows_requested"] < SMALL_FETCH]
    want = {resp["last_frame"] for req, resp in small if resp["rows_sent"] > 0}
    empty = {resp["last_frame"] for req, resp in small if resp["rows_sent"] == 0}
    assert want and empty
    rows = tshark.fields(SWEEP, ["frame.number", "sqlnet.direction", "sqlnet.rt.rows_asked", "sqlnet.rt.rows"],
                         "sqlnet.small_fetch", extra=passes)
    assert {int(r[0]) for r in rows} == want
    assert {r[1] for r in rows} == {"1"}
    assert all(0 < int(r[2]) < SMALL_FETCH and int(r[3]) > 0 for r in rows)


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_small_fetch_reaches_the_tap_and_the_column(tshark, passes):
    """Passes without a tree still carry the small-fetch expert where it
    shows (plugin/core/expert_gate.c skips it only where nothing sees it):
    the expert tap (-q -z expert) counts one per small fetch of the
    manifest (OFETCH asking fewer than 50 rows that got rows), and summary
    lines with an Expert column say Warning on exactly those responses.
    Evidence: the generator's manifest (what its server sent)."""
    man = load(SWEEP.with_suffix(".json"))
    want = {resp["last_frame"] for _, req, resp in completed(man)
            if req["func_code"] == 5 and req["rows_requested"] < SMALL_FETCH and resp["rows_sent"] > 0}
    assert len(want) > 100
    out = tshark.run(SWEEP, [*passes, "-q", "-z", "expert"]).stdout
    line = re.search(r"^\s+(\d+)\s+Protocol\s+SQL\*Net\s+Small fetch size:", out, re.M)
    assert line, out
    assert int(line.group(1)) == len(want)
    cols = ["-o", 'gui.column.format:"No.","%m","Expert","%a"']
    lines = tshark.run(SWEEP, [*passes, *cols]).stdout.splitlines()
    warned = {int(x.split()[0]) for x in lines if x.split()[1:2] == ["Warning"]}
    assert warned == want


@pytest.mark.parametrize("manifest", small_fetch_cases())
def test_no_small_fetch_without_rows(tshark, manifest):
    """Captures whose manifest has a small OFETCH answered with no rows: that
    response is never flagged; the flagged ones are small OFETCHes with rows."""
    capture = TEST_CAPTURES / manifest["capture"]
    flagged = {int(r[0]) for r in tshark.fields(capture, ["frame.number"], "sqlnet.small_fetch")}
    small = [(req, resp) for _, req, resp in completed(manifest) if req.get("func_code") == 5
             and req.get("rows_requested") is not None and req["rows_requested"] < SMALL_FETCH]
    empty = {resp["last_frame"] for req, resp in small if resp["rows_sent"] == 0}
    with_rows = {resp["last_frame"] for req, resp in small if resp["rows_sent"] > 0}
    assert empty and not (flagged & empty)
    assert flagged <= with_rows


def test_sqlplus_fetch_without_rows_is_not_small(tshark):
    """Real SQL*Plus sessions (dbbat, EXPECTED.json): their OFETCH rows=2 (and
    other small OFETCHes) answered with no rows carry no small-fetch expert,
    neither on the call nor on the response."""
    expected = json.loads(corpus("EXPECTED.json").read_text())
    seen = 0
    for name, facts in sorted(expected.items()):
        if not name.startswith("dbbat/sqlplus") or not (PUBLIC / name).is_file():
            continue
        frames = set()
        for conv in facts.get("conversations", []):
            for rt in conv.get("round_trips", []):
                resp = rt.get("response") or {}
                if rt.get("function") == "OFETCH" and rt.get("rows_requested") is not None \
                        and rt["rows_requested"] < SMALL_FETCH and resp.get("rows") == 0:
                    frames.update((resp.get("frames") or []) + (rt.get("req_frames") or []))
        if not frames:
            continue
        flagged = {int(r[0]) for r in tshark.fields(PUBLIC / name, ["frame.number"], "sqlnet.small_fetch")}
        assert not (flagged & frames), name
        seen += 1
    assert seen > 0


# ---- round trips a later request cut short ---------------------------------------

@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_cut_round_trip_recorded_on_the_request_that_ended_it(tshark, passes):
    """SQL*Plus 9i (visblank): responses whose end sqlnet cannot tell (old
    calls) are closed by the next request; their record goes on that request's
    packet, in one pass and in two.  Its time is, from the frames' own
    timestamps and TCP ports, the last server frame before it less the last
    client frame before that server burst."""
    cap = corpus("visblank/sqlplus9i_vs_9.0.1_full_session.pcapng")
    frames = tshark.fields(cap, ["frame.number", "frame.time_epoch", "tcp.srcport", "tcp.stream"], "tcp.len > 0")
    recs = tshark.fields(cap, ["frame.number", "sqlnet.direction", "sqlnet.rt.time", "tcp.stream",
                               "sqlnet.rt.number"], "sqlnet.rt", extra=passes)
    cut = [r for r in recs if r[1] == "0"]
    assert len(cut) >= 5
    server_port = {r[3]: p for r in recs if r[1] == "1" for f in frames if f[0] == r[0] for p in [f[2]]}
    for frame, _, ms, stream, _ in cut:
        before = [f for f in frames if f[3] == stream and int(f[0]) < int(frame)]
        last_server = max((f for f in before if f[2] == server_port[stream]), key=lambda f: int(f[0]))
        last_client = max((f for f in before if f[2] != server_port[stream] and int(f[0]) < int(last_server[0])),
                          key=lambda f: int(f[0]))
        want = (float(last_server[1]) - float(last_client[1])) * 1000.0
        assert abs(float(ms) - want) < 1e-3, (frame, ms, want)
    # numbered with the others, 1..n in frame order
    assert [int(r[4]) for r in recs] == list(range(1, len(recs) + 1))


# ---- sqlnet.rt.values: the record in one string, for scripts -----------------

VALUES_KEYS = ["number", "request_frame", "call", "execution", "cursor", "rows_asked", "rows",
               "request.ttc_bytes", "request.tns_bytes", "request.packets", "response.ttc_bytes",
               "response.tns_bytes", "response.packets", "response.data_packets", "response.segments",
               "row_bytes", "bvc_bytes", "time_ns", "first_ns", "ora_error", "partial", "largest_segment"]


def parse_values(text):
    """The string's first 22 numbers: its historical layout, which the Lua
    readers match by position (the columns added since follow them)."""
    parts = text.split(" ")
    assert parts[0] == "rt1" and len(parts) >= len(VALUES_KEYS) + 1, text
    return {k: (None if v == "-" else int(v)) for k, v in zip(VALUES_KEYS, parts[1:])}


@pytest.mark.parametrize("name", ["wan_rtt10_arraysize", "sweep_arraysize", "error_midfetch",
                                  "jdbc_fetchsize_sweep", "sdu_8192_mtu_1500", "tls13_demo"])
def test_values_string_against_the_manifest(tshark, name):
    """Each completed response's sqlnet.rt.values holds the server's own
    counts (rows, TNS and TTC bytes, packets, segments, row and bit-vector
    bytes, the end-of-call ORA error 1403 included), the request frame
    sqlnet.request_in names, sqlnet.time in ns, and as its largest segment the
    largest TCP payload (Wireshark's tcp.len) of the server's frames from the
    response's first to its last frame ("-" over TLS)."""
    capture = TEST_CAPTURES / f"{name}.pcapng"
    if not capture.is_file():
        pytest.skip(f"{name} not generated")
    manifest = load(capture.with_suffix(".json"))
    rows = tshark.fields(capture, ["frame.number", "tcp.srcport", "tcp.len", "sqlnet.rt.values",
                                   "sqlnet.request_in", "frame.time_epoch"])
    tcp_len = {int(r[0]): (int(r[1]), int(r[2] or 0)) for r in rows}
    values = {int(r[0]): r[3] for r in rows if r[3]}
    problems = []
    for conn, req, resp in completed(manifest):
        text = values.get(resp["last_frame"])
        if text is None:
            problems.append((resp["last_frame"], "no values"))
            continue
        v = parse_values(text.split(",")[0])
        want = {"rows": resp["rows_sent"], "response.tns_bytes": resp["tns_bytes"],
                "response.ttc_bytes": resp["ttc_bytes"], "response.packets": resp["tns_packets"],
                "response.data_packets": data_packets(resp), "response.segments": resp["tcp_segments"],
                "request.tns_bytes": req["request_tns_bytes"], "request.packets": req["request_tns_packets"],
                "row_bytes": resp["row_bytes"], "bvc_bytes": resp["bvc_bytes"], "call": req.get("func_code"),
                # no end-of-call status ("-") is the manifest's 0
                "ora_error": resp.get("ora_error") or 0}
        srv = [n for f, (port, n) in tcp_len.items()
               if resp["first_frame"] <= f <= resp["last_frame"] and port != conn["client_port"]]
        # over TLS the plugin does not know it when it writes the record
        want["largest_segment"] = None if name.startswith("tls") else max(srv) if srv else None
        got = {k: v[k] for k in want}
        got["ora_error"] = got["ora_error"] or 0
        if got != want:
            problems.append((resp["last_frame"], {k: (want[k], got[k]) for k in want if want[k] != got[k]}))
    assert problems == [], problems[:3]
    # the request frame and the time agree with the fields that say the same
    for r in rows:
        if r[3] and "," not in r[3]:
            v = parse_values(r[3])
            assert v["request_frame"] == int(r[4])
