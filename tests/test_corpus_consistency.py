"""Real captures without derived facts: the protocol's own consistency.

../shared/captures/public/visblank/, rust-oracledb/ and jkstill19c/ come without
EXPECTED.json.  The checks here (the corpus README's) use two independent
sources each:
- SQL text: the printable text of every OALL8 request, found in the raw TCP
  payload by this test (a run of SQL starting with a keyword), against the
  plugin's sqlnet.sql on that frame;
- every OFETCH filed under a statement (none under "calls outside a
  statement" in -z sqlnet,stmt);
- rows per execution: the row data messages counted per response
  (sqlnet.rows) add up to the cumulative row count of the execution's last
  end-of-call status (sqlnet.rowcount), two different fields of the wire;
- decoded to the last byte: no Undecoded expert info, no malformed frame.
Captures that do not meet a check yet are marked xfail (strict) with the
reason, so fixing them turns the mark into a failure to remove.
"""
import re
from collections import defaultdict

import pytest

from tshark import PUBLIC

SETS = ["visblank", "rust-oracledb", "jkstill19c"]
CAPS = sorted(p for s in SETS for p in (PUBLIC / s).glob("*.pcap*")) if PUBLIC.is_dir() else []
IDS = [f"{p.parent.name}/{p.name}" for p in CAPS]

# What is not decoded yet (issue 12): nothing in the public corpus.
NOT_YET: dict = {}

SQL_START = re.compile(rb"(?i)(SELECT|INSERT|UPDATE|DELETE|MERGE|BEGIN|DECLARE|CREATE|DROP|ALTER|WITH|CALL|TRUNCATE)\b")


@pytest.mark.parametrize("cap", CAPS, ids=IDS)
def test_decoded_to_the_last_byte(tshark, cap, request):
    name = f"{cap.parent.name}/{cap.name}"
    if name in NOT_YET:
        request.applymarker(pytest.mark.xfail(strict=True, reason=NOT_YET[name]))
    bad = tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)")
    assert bad == []


def alnum(text):
    return re.sub(r"[^0-9A-Za-z]", "", text)


def not_yet(request, cap):
    name = f"{cap.parent.name}/{cap.name}"
    if name in NOT_YET:
        request.applymarker(pytest.mark.xfail(strict=False, reason=NOT_YET[name]))


@pytest.mark.parametrize("cap", CAPS, ids=IDS)
def test_sql_text_on_every_oall8(tshark, cap, request):
    not_yet(request, cap)
    rows = tshark.fields(cap, ["frame.number", "tcp.payload", "sqlnet.sql", "sqlnet.call"], "sqlnet.call == 94")
    checked = 0
    for frame, payload, sql, _ in rows:
        raw = bytes.fromhex(payload.replace(":", "").replace(",", ""))
        m = SQL_START.search(raw)
        if not m:
            continue                   # a re-execute without text
        text = raw[m.start():]
        text = text[:next((i for i, b in enumerate(text) if b < 0x09 or b > 0x7e), len(text))]
        if len(text) < 12 or len(text) + m.start() >= len(raw):
            continue                   # text runs into the next packet: not checked here
        checked += 1
        # -T fields escapes newlines and tabs: compare the letters and digits
        assert sql and alnum(sql.replace("\\n", " ").replace("\\t", " "))[:24] == alnum(text.decode())[:24], (frame, sql, text)
    if not rows:
        pytest.skip("no OALL8 in this capture")


@pytest.mark.parametrize("cap", CAPS, ids=IDS)
def test_every_fetch_under_its_statement(tshark, cap, request):
    not_yet(request, cap)
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,stmt"])
    blocks = re.split(r"\n(?=Statement \d+: |Calls outside a statement)", proc.stdout)[1:]
    outside = [b for b in blocks if b.startswith("Calls outside a statement")]
    for b in outside:
        fetches = re.search(r"fetch calls\s+(\d+)", b)
        assert fetches and fetches.group(1) == "0", b[:400]


@pytest.mark.parametrize("cap", CAPS, ids=IDS)
def test_rows_per_execution_add_up_to_the_row_count(tshark, cap, request):
    name = f"{cap.parent.name}/{cap.name}"
    rows = tshark.fields(cap, ["tcp.stream", "sqlnet.execution", "sqlnet.rows", "sqlnet.rowcount", "sqlnet.call"],
                         "sqlnet.rows && sqlnet.execution")
    per = defaultdict(lambda: [0, None, set()])
    for stream, execution, n, rowcount, call in rows:
        key = (stream, execution.split(",")[0])
        per[key][0] += int(n.split(",")[0])
        if rowcount:
            per[key][1] = int(rowcount.split(",")[0])
    checked = {k: v for k, v in per.items() if v[1] is not None and v[0] > 0}
    if not checked:
        pytest.skip("no query execution with rows in this capture")
    wrong = {k: v[:2] for k, v in checked.items() if v[0] != v[1]}
    if wrong and name in NOT_YET:
        pytest.xfail(NOT_YET[name])
    assert wrong == {}


# Mid-session cuts (issue 12, family 4): the same checks on a capture that starts after
# the logon, where the TTC encoding must be inferred from the first call.  Frame 55 of the
# SQL*Plus 11.2 session is its first packet after the logon (the 80-second pause before the
# user's first query: frame 54 ends at 0.019 s, frame 55 starts at 80.9 s).
# The later cuts start at a fetch call inside a 375-fetch query at ARRAYSIZE 15
# (frames 202, 502, 901): its describe is not in the capture, rows are walked
# with the row header's counts and bit vectors (the row header's count is the
# columns sent, fewer than the columns when a bit vector follows), and the
# fetches alone cannot tell OCI releases apart: a later OALL8 and describe do.
# (A capture that starts with a server reply has that reply undecoded: the
# encoding is inferred from the client's calls.)
MID_CUTS = [("visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng", cut) for cut in (55, 202, 502, 901)]


@pytest.mark.parametrize("name,cut", MID_CUTS, ids=[f"{c[0]}@{c[1]}" for c in MID_CUTS])
def test_midsession_cut_consistency(tshark, public_dir, tmp_path, name, cut):
    import subprocess
    out = tmp_path / "cut.pcapng"
    subprocess.run(["editcap", "-F", "pcapng", "-r", str(public_dir / name), str(out), f"{cut}-1000000"],
                   check=True, capture_output=True)
    out.chmod(0o644)
    assert len(tshark.fields(out, ["frame.number"], display_filter="sqlnet.ttc.dialect_inferred")) == 1
    assert tshark.fields(out, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    # a fetch outside any statement only on a cursor whose OALL8 is not in the capture
    # (the query the cut started in)
    # (cursor ids are reused: an OALL8 that opens the same id later does not count)
    opened = [(int(f), st, c) for f, st, c in tshark.fields(
        out, ["frame.number", "tcp.stream", "sqlnet.response.cursor"], "sqlnet.response.cursor && sqlnet.sql")]
    stray = [(int(f), st, c) for f, st, c, e in tshark.fields(
        out, ["frame.number", "tcp.stream", "sqlnet.cursor", "sqlnet.execution"], "sqlnet.func == 5") if not e]
    assert not [k for k in stray if any(o[0] < k[0] and o[1:] == k[1:] for o in opened)], stray[:5]
    if cut == 55:                       # starts between statements: no stray fetch at all
        assert stray == []
    # rows add up: each response's cumulative row count is the previous one's plus
    # the rows it delivered (for a query the cut started in, from its first response on)
    rows = tshark.fields(out, ["tcp.stream", "sqlnet.cursor", "sqlnet.execution", "sqlnet.rows",
                               "sqlnet.rowcount"], "sqlnet.rows && sqlnet.rowcount")
    last = {}
    checked = 0
    for stream, cursor, execution, n, rowcount in rows:
        key = (stream, execution.split(",")[0] if execution else "cursor " + cursor.split(",")[0])
        n, rowcount = int(n.split(",")[0]), int(rowcount.split(",")[0])
        if key in last:
            assert rowcount == last[key] + n, (key, last[key], n, rowcount)
            checked += 1
        last[key] = rowcount
    assert checked > 0
