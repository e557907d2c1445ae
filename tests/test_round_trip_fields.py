"""What each field of a round trip means (issue 13): responses carry their
call, one meaning per field, one back link per response, small fetches on the
response that delivered rows, constant expert summaries (but for ORA errors,
named).

Evidence: the generated captures' manifests (the client's calls as the
scripted server parsed them, its per-response counters: rows, TNS packets
with their lengths, frames; per connection round trips and markers sent), and
the TNS rule that a MARKER packet is 11 bytes long (8-byte header, type,
data byte, marker byte), used to tell the markers in the manifest's
`packet_lengths` apart from DATA packets.
"""
import json
import re
from collections import Counter

import pytest

from tshark import TEST_CAPTURES

DEMO = TEST_CAPTURES / "sweep_arraysize.pcapng"
ERRORS = TEST_CAPTURES / "error_midfetch.pcapng"
MARKER_LEN = 11
SMALL_FETCH = 50            # the preference's default


def manifest(capture):
    return json.loads(capture.with_suffix(".json").read_text())


def completed(capture):
    for conn in manifest(capture)["connections"]:
        for req in conn["requests"]:
            resp = req.get("response") or {}
            if resp.get("last_frame"):
                yield conn, req, resp


def marker_captures():
    out = []
    for path in sorted(TEST_CAPTURES.glob("*.json")):
        m = json.loads(path.read_text())
        if not isinstance(m, dict) or not (TEST_CAPTURES / m.get("capture", "")).is_file():
            continue
        if m.get("nne"):
            continue        # native network encryption: no response is decoded (tests/test_nne.py)
        if any(c["stats"].get("markers_sent") for c in m["connections"]):
            out.append(TEST_CAPTURES / m["capture"])
    return out


def data_packets(resp):
    if not resp.get("markers"):
        return resp["tns_packets"]
    return sum(1 for n in resp["packet_lengths"] if n != MARKER_LEN)


def count(tshark, capture, dfilter, extra=()):
    return len(tshark.fields(capture, ["frame.number"], dfilter, extra=extra))


# ---- 1. responses carry their call -------------------------------------------

@pytest.mark.parametrize("capture", [DEMO, ERRORS], ids=lambda p: p.stem)
def test_completing_packet_carries_the_call(tshark, capture):
    """Manifest: per request its function code and rows requested; the packet
    that completes its response carries the same sqlnet.call / fetch.rows."""
    rows = tshark.fields(capture, ["frame.number", "sqlnet.direction", "sqlnet.call", "sqlnet.fetch.rows",
                                   "sqlnet.request_in"], "sqlnet.request_in")
    got = {int(r[0]): r[1:] for r in rows}
    problems = []
    for conn, req, resp in completed(capture):
        direction, call, fetch, _ = got.get(resp["last_frame"], [None] * 4)
        want_fetch = "" if req.get("rows_requested") is None else str(req["rows_requested"])
        want_call = "" if req.get("func_code") is None else str(req["func_code"])   # PRO, DTY: no function
        if direction != "1" or call != want_call or fetch != want_fetch:
            problems.append((req["index"], req["function"], resp["last_frame"], direction, call, fetch))
    assert problems == []


def test_one_fields_line_per_round_trip(tshark):
    """`-Y sqlnet.request_in -T fields` gives one line per round trip with the
    fetch size, the rows and a time: the server's round trips and rows sent."""
    rows = tshark.fields(DEMO, ["sqlnet.fetch.rows", "sqlnet.rows", "sqlnet.time"], "sqlnet.request_in")
    want = [("" if req.get("rows_requested") is None else str(req["rows_requested"]), str(resp["rows_sent"]))
            for _, req, resp in completed(DEMO)]
    stats = manifest(DEMO)["connections"][0]["stats"]
    assert len(rows) == len(want) == stats["round_trips"]
    assert [(f, r) for f, r, _ in rows] == want
    assert all(t for _, _, t in rows)
    assert sum(int(r) for _, r, _ in rows) == stats["rows_sent"]


def test_fetch_filter_matches_responses(tshark):
    """`sqlnet.fetch.rows < 10 && sqlnet.rows` selects the responses to the
    calls that asked fewer than 10 rows (manifest), one each."""
    want = sum(1 for _, req, _ in completed(DEMO)
               if req.get("rows_requested") is not None and req["rows_requested"] < 10)
    assert want > 0
    assert count(tshark, DEMO, "sqlnet.fetch.rows < 10 && sqlnet.rows") == want
    # and with a response time, as the issue asked
    assert count(tshark, DEMO, "sqlnet.fetch.rows < 10 && sqlnet.time > 0") == want


def test_calls_counted_with_direction(tshark):
    """sqlnet.direction == 0 tells the call from the response that repeats it."""
    reqs = [req for _, req, _ in completed(DEMO)]
    fetches = sum(1 for r in reqs if r["func_code"] == 5)
    assert count(tshark, DEMO, "sqlnet.call == 5 && sqlnet.direction == 0") == fetches
    assert count(tshark, DEMO, "sqlnet.call == 5 && sqlnet.direction == 1") == fetches


def test_response_info_names_the_call(tshark):
    """The response's Info line starts with its call's short name."""
    info = [r[0] for r in tshark.fields(ERRORS, ["_ws.col.Info"], "sqlnet.request_in")]
    names = Counter(m.group(1) for line in info for m in [re.search(r" (\w+) response: \d+ rows", line)] if m)
    want = Counter(req["function"] for _, req, _ in completed(ERRORS))
    assert names["OFETCH"] == want["OFETCH"] > 0
    assert names["OALL8"] == want["OALL8"] > 0


# ---- 2. one meaning per field: DATA packets and markers -------------------------

@pytest.mark.parametrize("capture", marker_captures(), ids=lambda p: p.stem)
def test_data_packets_and_markers(tshark, capture):
    """Per response: DATA packets and markers from the manifest's packet
    lengths; per connection the markers add up to the server's markers_sent."""
    rows = tshark.fields(capture, ["frame.number", "tcp.stream", "sqlnet.response.packets",
                                   "sqlnet.response.data_packets", "sqlnet.response.markers"],
                         "sqlnet.request_in")
    got = {int(r[0]): r[1:] for r in rows}
    problems = []
    for conn, req, resp in completed(capture):
        g = got.get(resp["last_frame"])
        want = [str(resp["tns_packets"]), str(data_packets(resp)), str(resp["tns_packets"] - data_packets(resp))]
        if g is None or g[1:] != want:
            problems.append((req["index"], resp["last_frame"], want, g))
    assert problems == []
    markers = sum(int(g[3]) for g in got.values())
    assert markers == sum(c["stats"]["markers_sent"] for c in manifest(capture)["connections"]) > 0


def test_more_data_counts_data_packets(tshark):
    """The error response (2 markers + 1 DATA packet) is not "more data": the
    filter, the expert and the statistics tree agree with the manifest."""
    resps = [resp for _, _, resp in completed(ERRORS)]
    more = sum(1 for r in resps if data_packets(r) > 1)
    assert any(r.get("markers") for r in resps) and more > 0
    assert count(tshark, ERRORS, "sqlnet.response.data_packets > 1") == more
    assert count(tshark, ERRORS, "sqlnet.more_data") == more
    assert count(tshark, ERRORS, "sqlnet.response.packets > 1") == sum(1 for r in resps if r["tns_packets"] > 1) > more
    tree = tshark.run(ERRORS, ["-q", "-z", "sqlnet,tree"]).stdout
    one = re.search(r"TNS DATA packets per response.*\n\s+1-1\s+(\d+)", tree)
    assert one and int(one.group(1)) == sum(1 for r in resps if data_packets(r) == 1)


# ---- 3. one back link per response ----------------------------------------------

@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_request_in_once_per_response(tshark, passes):
    """Counting sqlnet.request_in counts the server's round trips, also where
    responses span several frames (demo: 37 segments for the largest)."""
    stats = manifest(DEMO)["connections"][0]["stats"]
    rows = tshark.fields(DEMO, ["sqlnet.request_in"], "sqlnet.request_in", extra=passes)
    assert len(rows) == stats["round_trips"]
    assert len({r[0] for r in rows}) == len(rows)


def test_forward_link_to_completing_packet(tshark):
    """Two passes: every other sqlnet packet of a multi-frame response links to
    the manifest's last frame of that response, and lies within its frames."""
    rows = tshark.fields(DEMO, ["frame.number", "sqlnet.response.last_in"], "sqlnet.response.last_in",
                         extra=["-2"])
    links = {int(f): int(l.split(",")[0]) for f, l in rows}
    spans = {resp["last_frame"]: resp["first_frame"] for _, _, resp in completed(DEMO)}
    multi = [last for last, first in spans.items() if last > first]
    assert links and multi
    for frame, last in links.items():
        assert last in spans and spans[last] <= frame < last, (frame, last)
    # a response of several TNS packets has its earlier packets linked
    several = {resp["last_frame"] for _, _, resp in completed(DEMO) if resp["tns_packets"] > 1}
    assert several <= set(links.values())


# ---- 4. small fetches on the response; constant expert summaries ------------------------

def test_small_fetch_on_the_response_with_rows(tshark):
    """Manifest: responses to OFETCH calls asking fewer than 50 rows that
    delivered rows are the small fetches (on the packet that completes them);
    executes (OALL8 with prefetch 2, whose result may fit), calls and fetches
    that got no rows are not."""
    rows = tshark.fields(DEMO, ["frame.number", "sqlnet.direction", "sqlnet.call"], "sqlnet.small_fetch")
    want = {resp["last_frame"] for _, req, resp in completed(DEMO)
            if req["func_code"] == 5 and req["rows_requested"] < SMALL_FETCH and resp["rows_sent"] > 0}
    assert want
    assert {int(r[0]) for r in rows} == want
    assert {(r[1], r[2]) for r in rows} == {("1", "5")}


def test_execute_whose_result_fits_is_not_small(tshark):
    """An execute that asks 2 rows and gets its whole result with ORA-01403
    (manifest) carries no small-fetch expert, nor does its response."""
    caps = [p for p in sorted(TEST_CAPTURES.glob("*.pcap*")) if p.with_suffix(".json").is_file()]
    seen = 0
    for cap in caps:
        m = manifest(cap)
        fits = [(req, resp) for conn in m.get("connections", []) for req in conn["requests"]
                for resp in [req.get("response") or {}]
                if req.get("function") == "OALL8" and req.get("rows_requested") is not None
                and 0 < req["rows_requested"] < SMALL_FETCH and resp.get("ora_error") == 1403
                and resp.get("last_frame")]
        if not fits:
            continue
        flagged = {int(r[0]) for r in tshark.fields(cap, ["frame.number"], "sqlnet.small_fetch")}
        for req, resp in fits:
            assert req["request_first_frame"] not in flagged and resp["last_frame"] not in flagged, cap.name
            seen += 1
        if seen >= 3:
            break
    assert seen > 0


def expert_summaries(tshark, capture):
    out = tshark.run(capture, ["-q", "-z", "expert"]).stdout
    return [m.group(1).strip() for m in re.finditer(r"^\s+\d+\s+\S+\s+SQL\*Net\s+(.*)$", out, re.M)]


def test_expert_summaries_are_constant(tshark):
    """Every sqlnet expert summary is a constant text (no counts or sizes), so
    -z expert groups each kind on one line: on the captures with errors,
    markers, more data and multi-segment packets, and one cut by a snaplen."""
    caps = [DEMO, ERRORS, TEST_CAPTURES / "jdbc_error_midfetch.pcapng"]
    summaries = []
    for cap in caps:
        s = expert_summaries(tshark, cap)
        assert len(s) == len(set(s)), s          # one line per kind
        summaries += s
    # ORA errors are the exception: their summary names the error (issue 22),
    # so that each error is one line
    errors = [s for s in summaries if s.startswith("ORA-")]
    assert errors and all(re.fullmatch(r"ORA-\d{5}(: \S.*)?", s) for s in errors)
    assert any("Small fetch size" in s for s in summaries)
    for s in set(summaries) - set(errors):
        assert not re.search(r"\d", s.replace("sqlnet.", "")), s
