"""Hostile input, round two (issue 11): crafted captures and snaplen cuts.

Evidence: every capture here is a generated conversation
(test-captures/arraysize_100.pcapng) with a hostile part put in by
tests/regressions/make_hostile.py; what the packets after the hostile part
must decode to comes from that capture's manifest (the client's settings and
the scripted server's per-request record), never from the dissector.

- fast-auth messages (0x22) nested 17 000 deep, in one 68 KB DATA packet and
  across ten 8 KB packets: tshark crashed (stack overflow, exit 139) before;
- a CONNECT-like segment of 24..27 bytes on a port sqlnet does not own: the
  heuristic read past the captured bytes ("Malformed Packet");
- the capture cut at a 200-byte snaplen: fetches were filed outside their
  statement and nothing said the figures were partial.
"""
import json
import re
import subprocess
from pathlib import Path

import pytest

from test_stats import OTHER, header_key

ROOT = Path(__file__).resolve().parent.parent
REG = ROOT / "tests" / "regressions"
SOURCE = ROOT / "test-captures" / "arraysize_100.pcapng"
MANIFEST = json.loads(SOURCE.with_suffix(".json").read_text())
CONN = MANIFEST["connections"][0]
SELECT = MANIFEST["client"]["statements"][0]


def manifest_round_trips():
    """Round trips of the SELECT (its execute and the fetches on its cursor)
    and of everything else, from the server's record of each request."""
    cursors = {r["response"]["cursor"] for r in CONN["requests"] if r.get("sql") == SELECT}
    mine = [r for r in CONN["requests"]
            if r.get("sql") == SELECT or (r.get("function") == "OFETCH" and r.get("cursor") in cursors)]
    return len(mine), len(CONN["requests"]) - len(mine)


def stmt_report(tshark, cap, extra=()):
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,stmt"] + list(extra))
    assert proc.stderr.strip() == "", proc.stderr[-2000:]
    stmts = {}
    for block in re.split(r"\n(?=Statement \d+: |Calls outside a statement)", proc.stdout)[1:]:
        head, body = block.split("\n", 1)
        vals = dict(re.findall(r"^  (\S.*?)\s{2,}(\S+)$", body, re.M))
        stmts[header_key(head) or head.strip()] = vals
    return stmts


def outside(stmts):
    return stmts.get(OTHER, {})


def test_regression_captures_are_current(tmp_path):
    """The committed captures are what make_hostile.py builds from the source
    capture today (so the facts above apply to them)."""
    import sys
    subprocess.run([sys.executable, str(REG / "make_hostile.py"), str(tmp_path)], check=True)
    built = sorted(p.name for p in tmp_path.glob("*.pcap"))
    assert built == sorted(p.name for p in REG.glob("*.pcap"))
    for name in built:
        assert (tmp_path / name).read_bytes() == (REG / name).read_bytes(), name


@pytest.mark.parametrize("name", ["fastauth-nesting-one-packet", "fastauth-nesting-ten-packets"])
@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_deep_fast_auth_nesting_is_not_followed(tshark, name, passes):
    cap = REG / f"{name}.pcap"
    proc = tshark.run(cap, ["-T", "fields", "-e", "sqlnet.fetch.rows", "-Y", "sqlnet.call == 5 && sqlnet.direction == 0"] + passes,
                      check=False)
    assert proc.returncode == 0, f"tshark exit {proc.returncode}: {proc.stderr[-1000:]}"
    assert proc.stderr.strip() == ""
    # every fetch after the hostile request still asks for the client's arraysize
    fetches = [r for r in proc.stdout.split()]
    expected = [str(r["rows_requested"]) for r in CONN["requests"] if r.get("function") == "OFETCH"]
    assert fetches == expected
    stmts = stmt_report(tshark, cap, passes)
    select, _ = manifest_round_trips()
    assert stmts[SELECT]["SQL*Net roundtrips to/from client"] == str(select)
    assert stmts[SELECT]["rows processed"] == str(CONN["stats"]["rows_sent"])


@pytest.mark.parametrize("n", [24, 25, 26, 27])
def test_heuristic_gives_up_cleanly_on_short_connect_like_segment(tshark, n):
    cap = REG / f"heuristic-connect-{n}.pcap"
    malformed = tshark.fields(cap, ["frame.number"], "_ws.malformed || _ws.expert.severity >= error")
    assert malformed == []
    # the real CONNECT in the next segment still claims the conversation
    sdu = tshark.fields(cap, ["sqlnet.sdu"], "sqlnet.type == 2")
    assert sdu == [[str(CONN["negotiated_sdu"])]]
    stmts = stmt_report(tshark, cap)
    assert stmts[SELECT]["rows processed"] == str(CONN["stats"]["rows_sent"])


@pytest.fixture(scope="module")
def cut200(tmp_path_factory):
    out = tmp_path_factory.mktemp("cut") / "cut200.pcapng"
    subprocess.run(["editcap", "-s", "200", str(SOURCE), str(out)], check=True, capture_output=True)
    return out


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_snaplen_cut_files_every_fetch_under_its_statement(tshark, cut200, passes):
    stmts = stmt_report(tshark, cut200, passes)
    select, other = manifest_round_trips()
    assert stmts[SELECT]["SQL*Net roundtrips to/from client"] == str(select)
    assert stmts[SELECT]["fetch calls"] == str(CONN["stats"]["fetch_calls"])
    assert outside(stmts)["SQL*Net roundtrips to/from client"] == str(other)
    # rows are a lower bound, and the report says how many round trips are partial
    assert int(stmts[SELECT]["rows processed"]) <= CONN["stats"]["rows_sent"]
    partial = int(stmts[SELECT]["partial round trips (figures are lower bounds)"])
    assert 0 < partial <= select


def test_snaplen_cut_marks_partial_round_trips(tshark, cut200):
    cuts = tshark.fields(cut200, ["frame.number"], "sqlnet.ttc.capture_cut")
    assert cuts, "no packet says the capture cut it"
    partial = tshark.fields(cut200, ["sqlnet.ttc.partial"], "sqlnet.ttc.partial", extra=["-2"])
    assert partial and all(p[0] in ("1", "2") for p in partial)
    # the uncut capture has none
    assert tshark.fields(SOURCE, ["frame.number"], "sqlnet.ttc.partial || sqlnet.ttc.capture_cut") == []


def test_oer_flags_as_go_ora_reads_them(tshark):
    """Issue 12, family 1: the end-of-call status of an execute on a real
    table, with non-zero flags and a rowid, was "TTC message type 4 not
    decoded", so the cursor id was never learned.  Evidence: go-ora's OER
    reader (v2/network/summary_object.go: flags and user cursor options are
    ub2 from TTC field version 4 on; python-oracledb and node-oracledb read
    single bytes) applied to a generated go-ora capture; cursor and row count
    from that capture's manifest."""
    cap = REG / "oer-flags-ub2.pcap"
    src = json.loads((ROOT / "test-captures" / "goora_basic.json").read_text())["connections"][0]
    first = next(r for r in src["requests"] if r["function"] == "OALL8" and r.get("sql", "").startswith("SELECT *"))
    assert tshark.fields(cap, ["frame.number"], "sqlnet.ttc.not_decoded") == []
    rows = tshark.fields(cap, ["sqlnet.response.cursor", "sqlnet.rowcount"], "sqlnet.response.cursor")
    assert [str(first["response"]["cursor"]), str(first["response"]["rowcount"])] in rows


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_pipelined_requests_pair_with_responses_in_order(tshark, passes):
    """Issue 12, item 6: 23ai pipelines send several calls before their
    responses (each request's last packet with the end-of-request flag,
    python-oracledb messages/base.pyx send()); the responses come back in the
    same order.  Evidence: the generated capture's manifest (rows per fetch,
    cumulative row counts), its fetches regrouped two by two."""
    cap = REG / "pipeline-fetches.pcap"
    stmts = stmt_report(tshark, cap, passes)
    select, other = manifest_round_trips()
    assert stmts[SELECT]["fetch calls"] == str(CONN["stats"]["fetch_calls"])
    assert stmts[SELECT]["SQL*Net roundtrips to/from client"] == str(select)
    assert stmts[SELECT]["rows processed"] == str(CONN["stats"]["rows_sent"])
    # each fetch's response: the cumulative row count the server reported for it, in order
    want = [str(r["response"]["rowcount"]) for r in CONN["requests"] if r["function"] == "OFETCH"]
    got = tshark.fields(cap, ["sqlnet.rowcount"], "sqlnet.rowcount && sqlnet.request_in", extra=passes)
    assert [r[0] for r in got][-len(want):] == want


def test_final_end_of_call_status_is_found_after_an_undecoded_stretch(tshark):
    """Issue 12, item 5: when a message of a response does not decode, the
    response's final end-of-call status still gives the cursor id and the
    cumulative row count; the round trip is marked partial.  Evidence: the
    generated capture's manifest, with three bytes of an unknown message put
    at the start of the execute's response (make_hostile.py)."""
    cap = REG / "undecodable-then-oer.pcap"
    want = [[str(r["response"]["cursor"]), str(r["response"]["rowcount"])]
            for r in CONN["requests"] if r["function"] in ("OALL8", "OFETCH")]
    got = tshark.fields(cap, ["sqlnet.response.cursor", "sqlnet.rowcount"], "sqlnet.response.cursor")
    assert got[-len(want):] == want
    partial = tshark.fields(cap, ["sqlnet.ttc.partial"], "sqlnet.ttc.partial")
    assert partial and {p[0] for p in partial} == {"2"}
