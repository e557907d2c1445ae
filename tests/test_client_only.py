"""Dialect from client requests alone (issue 25 point 4).

A capture that starts mid-session at an OALL8 whose message begins with a
piggyback (close cursors, OCCA) and which may bind values, with the server's
packets kept or dropped (a client trace, a capture filtered on the client's
packets): the integer encoding is inferred from the client's calls, the SQL of
the OALL8 is extracted, and every later client request is decoded.

Evidence:
- real captures from ../shared (SQL*Plus 10.1 / 11 / 23.3 over OCI's native
  encoding, python-oracledb and go-ora thin), cut here with editcap and a tshark
  filter on the client's port; SQL texts, function codes, the client family and
  integer encoding are EXPECTED.json's (derived from the bytes independently of
  the plugin);
- test-captures/binds_23ai_python: python-oracledb 26.1 (a real client
  accepting the scripted server) binds 14 values; the values are the manifest's
  client report (what the client bound);
- the function of each later client request is also compared with the uncut
  capture's, whose dialect comes from its handshake.
"""
import json
import subprocess

import pytest

from tshark import PUBLIC, TEST_CAPTURES
from test_ttc_public import sql_matches

# (capture, first frame: a client packet with piggyback + OALL8, server port)
OCI = [
    ("junkie/select.pcap", 33),                      # SQL*Plus 10.1, native, 1-byte pointers; 1 bind
    ("john/Oracle-good.pcap", 35),                   # SQL*Plus 11, native, 8-byte pointers; 1 bind
    ("dbbat/sqlplus_cursor_reexec.pcapng", 28),      # SQL*Plus 23.3, native, 8-byte pointers
    ("dbbat/sqlplus_midfetch_fail.pcapng", 29),      # SQL*Plus 23.3 vs 23ai
]
THIN = [
    ("dbbat/python_thin_failed_stmt.pcapng", 12),    # python-oracledb thin vs 23ai
    ("dbbat/go_ora_binds.pcapng", 17),               # go-ora thin vs 19c: OALL8 with 2 binds
    ("dbbat/jdbc_thin_cursor_reexec.pcapng", 9),     # JDBC thin 23: OALL8, re-executes, OCCA + OLOGOFF
]
CASES = [(n, f, keep) for n, f in OCI + THIN for keep in (False, True)]


def cut(src, out, first, keep_server, port=1521):
    """Frames first.. of src; without the server's packets unless keep_server.
    Returns the original frame number of each frame of the cut."""
    part = out.with_suffix(".part.pcapng")
    subprocess.run(["editcap", "-F", "pcapng", "-r", str(src), str(part), f"{first}-99999999"],
                   check=True, capture_output=True)
    flt = "tcp.len > 0" if keep_server else f"tcp.dstport == {port} && tcp.len > 0"
    subprocess.run(["tshark", "-r", str(part), "-Y", flt, "-w", str(out)], check=True, capture_output=True)
    frames = subprocess.run(["tshark", "-r", str(part), "-Y", flt, "-T", "fields", "-e", "frame.number"],
                            check=True, capture_output=True, text=True).stdout.split()
    return [int(f) + first - 1 for f in frames]


FIELDS = ["frame.number", "sqlnet.call", "sqlnet.sql", "_ws.expert.message"]


def per_frame(tshark, capture):
    proc = tshark.run(capture, ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                                "-E", "aggregator=\x1f"] + sum((["-e", f] for f in FIELDS), []))
    assert proc.stderr.strip() == "", proc.stderr
    out = {}
    for line in proc.stdout.splitlines():
        row = line.split("\t")
        out[int(row[0])] = {f: [v for v in row[i].split("\x1f") if v] for i, f in enumerate(FIELDS) if i}
    return out




@pytest.mark.parametrize("name,first,keep", CASES,
                         ids=[f"{c[0]}@{c[1]}-{'both' if c[2] else 'client'}" for c in CASES])
def test_client_requests_alone(tshark, tmp_path, name, first, keep):
    expected = json.loads((PUBLIC / "EXPECTED.json").read_text())[name]
    conv = expected["conversations"][0]
    out = tmp_path / "cut.pcapng"
    orig = cut(PUBLIC / name, out, first, keep)
    got = per_frame(tshark, out)
    full = per_frame(tshark, PUBLIC / name)
    at = {o: i + 1 for i, o in enumerate(orig)}

    # the dialect: inferred once, on the first frame, with the client family's integers
    notes = [(f, m) for f, v in got.items() for m in v["_ws.expert.message"] if "No TTC negotiation" in m]
    assert len(notes) == 1 and notes[0][0] == 1, notes
    want = "native (OCI) integers" if conv["dialect"]["native"] else "universal (thin) integers"
    assert want in notes[0][1], notes
    if conv["dialect"]["native"]:
        assert f"{conv['dialect']['ptr']}-byte pointers" in notes[0][1], notes

    # no client request left undecoded
    undecoded = [f for f, v in got.items() if any("not decoded" in m for m in v["_ws.expert.message"])
                 and (keep is False or orig[f - 1] in {x for rt in conv["round_trips"] for x in rt["req_frames"]})]
    assert undecoded == [], undecoded

    checked = 0
    for rt in conv["round_trips"]:
        if not rt.get("code") or rt["req_frames"][0] < first:
            continue
        frame = at[rt["req_frames"][-1]]
        assert [int(v) for v in got[frame]["sqlnet.call"]] == [int(rt["code"], 16)], (rt["req_frames"], got[frame])
        # the uncut capture (negotiated dialect) names the same call
        assert got[frame]["sqlnet.call"] == full[rt["req_frames"][-1]]["sqlnet.call"]
        if rt.get("sql"):
            assert len(got[frame]["sqlnet.sql"]) == 1 and sql_matches(rt["sql"], got[frame]["sqlnet.sql"]), \
                (rt["req_frames"], got[frame]["sqlnet.sql"], rt["sql"])
        checked += 1
    assert checked >= 2
    # every client request's call as in the uncut capture, and a statement shown for it
    # the uncut capture's; SQL*Plus fetches right after its execute, so without the
    # server a fetch still has its statement (a thin client's re-execute of a cursor
    # opened before other calls has none: only the server's replies name cursors)
    for rt in conv["round_trips"]:
        if rt.get("code") and rt["req_frames"][0] >= first:
            f = rt["req_frames"][-1]
            assert got[at[f]]["sqlnet.call"] == full[f]["sqlnet.call"], f
            if got[at[f]]["sqlnet.sql"] or conv["dialect"]["native"]:
                assert got[at[f]]["sqlnet.sql"] == full[f]["sqlnet.sql"], f
    # the first frame is the piggyback + OALL8 this test is about
    first_rt = next(rt for rt in conv["round_trips"] if rt.get("code") and rt["req_frames"][0] >= first)
    assert first_rt["req_frames"][0] == first and first_rt["code"] == "0x5e"


VISBLANK = "visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng"


@pytest.mark.parametrize("keep", [False, True], ids=["client", "both"])
def test_sqlplus_11_2_32bit(tshark, tmp_path, keep):
    """SQL*Plus 11.2 on 32-bit Linux (visblank, no EXPECTED.json facts) cut at frame 43,
    an OCCA piggyback + OALL8 binding :1 of DBMS_APPLICATION_INFO.SET_MODULE: native
    integers with one-byte pointers (the corpus README: an i386 client), and every
    client request's call and SQL text as in the uncut capture, whose dialect comes from
    its handshake; each SQL text shown is in the frame's bytes."""
    first = 43
    out = tmp_path / "cut.pcapng"
    orig = cut(PUBLIC / VISBLANK, out, first, keep, port=1522)   # the listener on 1522
    got = per_frame(tshark, out)
    full = per_frame(tshark, PUBLIC / VISBLANK)
    notes = [(f, m) for f, v in got.items() for m in v["_ws.expert.message"] if "No TTC negotiation" in m]
    assert len(notes) == 1 and notes[0][0] == 1
    assert "native (OCI) integers, 1-byte pointers" in notes[0][1]
    assert got[1]["sqlnet.sql"] == ["BEGIN DBMS_APPLICATION_INFO.SET_MODULE(:1,NULL); END;"]
    client = subprocess.run(["tshark", "-r", str(PUBLIC / VISBLANK), "-Y", "tcp.dstport == 1522 && tcp.len > 0",
                             "-T", "fields", "-e", "frame.number"], check=True, capture_output=True,
                            text=True).stdout.split()
    calls = 0
    for i, o in enumerate(orig, 1):
        if str(o) not in client:
            continue
        assert got[i]["sqlnet.call"] == full[o]["sqlnet.call"], (o, got[i], full[o])
        assert got[i]["sqlnet.sql"] == full[o]["sqlnet.sql"], (o, got[i], full[o])
        assert not any("not decoded" in m for m in got[i]["_ws.expert.message"]), o
        calls += bool(got[i]["sqlnet.call"])
    assert calls >= 20


@pytest.mark.parametrize("name", ["binds_23ai_python", "binds_23ai_node"])
def test_bind_values_from_client_packets_alone(tshark, tmp_path, name):
    """python-oracledb's and node-oracledb's INSERT with 14 binds, every packet before
    it and every server packet dropped: the values are those the client reports it
    bound."""
    src = TEST_CAPTURES / f"{name}.pcapng"
    m = json.loads(src.with_suffix(".json").read_text())
    stmt = next(st for r in [m["client"]["report"]] for s in r["sessions"] for st in s["statements"]
                if "bind_values" in st)
    rows = tshark.fields(src, ["frame.number"], display_filter="sqlnet.call == 94 && sqlnet.sql contains \"INSERT\"")
    first = int(rows[0][0])
    out = tmp_path / "cut.pcapng"
    cut(src, out, first, keep_server=False)
    proc = tshark.run(out, ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\x1f",
                            "-e", "sqlnet.bind.value", "-e", "sqlnet.sql", "-e", "_ws.expert.message"])
    assert proc.stderr.strip() == ""
    lines = [line.split("\t") for line in proc.stdout.splitlines()]
    assert lines[0][0].split("\x1f") == stmt["bind_values"]
    assert lines[0][1] == stmt["sql"]
    assert "universal (thin) integers" in lines[0][2]
    assert not any("not decoded" in line[2] for line in lines)


def test_two_passes_show_what_one_pass_shows(tshark, tmp_path):
    """The request split of a client-only capture is made on the first pass and kept:
    tshark -2 shows the same calls, statements, round trips and notes (junkie SQL*Plus
    10.1 cut at frame 33, the server's packets dropped)."""
    out = tmp_path / "cut.pcapng"
    cut(PUBLIC / "junkie/select.pcap", out, 33, keep_server=False)
    args = ["-T", "fields", "-E", "occurrence=a", "-e", "frame.number", "-e", "sqlnet.call", "-e", "sqlnet.sql",
            "-e", "sqlnet.execution", "-e", "_ws.expert.message"]
    one = tshark.run(out, args)
    two = tshark.run(out, ["-2"] + args)
    assert one.stderr.strip() == "" and two.stderr.strip() == ""
    assert one.stdout == two.stdout
    assert sum(1 for line in one.stdout.splitlines() if line.split("\t")[1]) >= 8


@pytest.mark.parametrize("keep", [False, True], ids=["client", "both"])
def test_dialect_change_is_noted(tshark, tmp_path, keep):
    """SQL*Plus 11.2 on 32-bit Linux (visblank) cut at frame 202, a fetch inside a query:
    a fetch alone does not tell OCI releases apart, so the first choice may be wrong; the
    note sqlnet.ttc.dialect_changed says where a later call (or reply) moved the choice,
    and the dialect in force at the end is the client's: native integers, one-byte
    pointers (the corpus README: an i386 client)."""
    out = tmp_path / "cut.pcapng"
    cut(PUBLIC / VISBLANK, out, 202, keep, port=1522)
    proc = tshark.run(out, ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\x1f", "-e", "frame.number",
                            "-e", "_ws.expert.message", "-Y",
                            "sqlnet.ttc.dialect_inferred || sqlnet.ttc.dialect_changed"])
    assert proc.stderr.strip() == ""
    notes = [(int(f), [m for m in ms.split("\x1f") if "TTC" in m])
             for f, ms in (line.split("\t") for line in proc.stdout.splitlines())]
    assert notes[0][0] == 1 and "No TTC negotiation" in notes[0][1][0]
    last = notes[-1][1][-1]
    assert "native (OCI) integers, 1-byte pointers" in last, notes
    for frame, msgs in notes[1:]:
        assert any("inferred at frame 1 does not fit" in m for m in msgs), (frame, msgs)
