"""OALL7 (function 71), OCI's bundled call before OALL8, and its replies.

Two kinds of evidence:
- the real SQL*Plus 9.0 session of ../shared/captures/public/visblank (no
  EXPECTED.json facts): the values asserted are bytes hand-decoded from its
  frames 64-69 and 80-85 (quoted beside each assertion), not the plugin's
  output;
- a generated 9.2-style session (OCI native, same platform, TTC field version
  3) built here.  Its layout rests on OUR BELIEF: the OALL7 header read off the
  9.0 frames 66 and 82, extended to the parts the 9.0 calls leave empty (SQL
  text, binds, bind values, fetch) by OALL8's order (python-oracledb
  _write_execute_message); the replies use the layouts the plugin already
  decodes for same-platform servers (row header and OER structs of wsSC's
  10.2 server).  The counts asserted are the ones this script put on the wire.
"""
import csv
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pcapgen as g  # noqa: E402

NINE_O = "visblank/sqlplus9i_vs_9.0.1_full_session.pcapng"
DESC = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db92)(PORT=1521))(CONNECT_DATA=(SID=ORA92)))"

FIELDS = ["frame.number", "sqlnet.call", "sqlnet.cursor", "sqlnet.sql", "sqlnet.fetch.rows", "sqlnet.rows",
          "sqlnet.rowcount", "sqlnet.ora_error", "sqlnet.oall8.exec_count", "sqlnet.oall8.binds",
          "sqlnet.oall8.defines", "sqlnet.bind.buffer_size", "sqlnet.bind.value", "sqlnet.oall8.options",
          "_ws.expert.message", "sqlnet.ttc.undecoded", "sqlnet.ttc.call_data"]


def rows_by_frame(tshark, path):
    out = {}
    for row in tshark.fields(path, FIELDS):
        out[int(row[0])] = dict(zip(FIELDS[1:], row[1:]))
    return out


# ---- the real 9.0 session: hand-decoded bytes ------------------------------

@pytest.fixture(scope="module")
def nine_o(tshark, public_dir):
    path = public_dir / NINE_O
    if not path.exists():
        pytest.skip("public corpus not available")
    return rows_by_frame(tshark, path)


def test_9i_oall7_header_and_define(nine_o):
    """Frame 66, after "03 47 09": options 30 80 00 00, cursor 01 00 00 00,
    al8i4 count 07 (@28), define count 01 (@48), al8i4 "00000000 01000000 ..."
    (@60: no parse, one execution), the define's oac at @88: type 01, buffer
    size 1d 00 00 00 (29).  Frame 82 the same with buffer size f9 00 00 00 (249)."""
    for frame, size in ((66, "29"), (82, "249")):
        f = nine_o[frame]
        assert f["sqlnet.call"] == "71"
        assert f["sqlnet.cursor"] == "1"
        assert f["sqlnet.oall8.options"] == "0x00008030"
        assert f["sqlnet.oall8.exec_count"] == "1"
        assert f["sqlnet.oall8.defines"] == "1"
        assert f["sqlnet.oall8.binds"] == "0"
        assert f["sqlnet.bind.buffer_size"] == size
        # the whole call is decoded: nothing left as call data or undecoded
        assert f["sqlnet.ttc.call_data"] == "" and f["sqlnet.ttc.undecoded"] == ""


def test_9i_oall7_and_fetch_under_the_parsed_statement(nine_o):
    """Frame 64 (OPARSE) names cursor 1 "SELECT USER FROM DUAL" (DALC 16 ...);
    frame 66 (OALL7) executes cursor 1 and frame 68 (OFETCH "03 05 0a 01000000
    01000000": cursor 1, 1 row) fetches it: both are the parsed statement's.
    Frame 69 carries one row ("07 06 COANOR"); frame 80 parses the
    PRODUCT_PRIVS query on cursor 1 again, frame 84 fetches one row and frame
    85 answers ORA-01403 ("7b 05" = 1403) with no row."""
    select_user = "SELECT USER FROM DUAL"
    assert nine_o[64]["sqlnet.sql"] == select_user
    assert nine_o[66]["sqlnet.sql"] == select_user
    assert nine_o[68]["sqlnet.sql"] == select_user
    assert nine_o[68]["sqlnet.fetch.rows"] == "1"
    assert nine_o[69]["sqlnet.rows"] == "1"
    assert nine_o[82]["sqlnet.sql"].startswith("SELECT CHAR_VALUE FROM SYSTEM.PRODUCT_PRIVS")
    assert nine_o[84]["sqlnet.sql"] == nine_o[82]["sqlnet.sql"]
    assert nine_o[85]["sqlnet.ora_error"] == "1403"
    assert nine_o[85]["sqlnet.rows"] == "0"


def test_9i_oall8_native_bind_and_define_entries(nine_o):
    """The same client's OALL8 carries the 33-byte entries OALL7 has: frame 88
    (SET_MODULE(:1, NULL)) one bind "01 01 03 0000 08000000 ... b200 01 ...",
    then the row "07 08 53514c2a506c7573" ('SQL*Plus'); frame 90 (SELECT
    DECODE(...)) one define "01 02 03 0000 16000000 ..." (22 bytes) and
    nothing after it."""
    f88, f90 = nine_o[88], nine_o[90]
    assert f88["sqlnet.oall8.binds"] == "1"
    assert f88["sqlnet.bind.buffer_size"] == "8"
    assert f88["sqlnet.bind.value"] == "SQL*Plus"
    assert f90["sqlnet.oall8.defines"] == "1"
    assert f90["sqlnet.bind.buffer_size"] == "22"
    assert f90["sqlnet.ttc.call_data"] == "" and f90["sqlnet.ttc.undecoded"] == ""


def test_9i_oexec_without_second_options(nine_o):
    """Frame 96 is SQL*Plus 9.0's OEXEC of the COMMIT parsed in frame 94:
    "03 04 1e 01000000 01000000 00000000", 15 bytes (cursor 1, one iteration,
    options 0, no second options word); its reply (frame 97) ends the round
    trip decoded to its end."""
    assert nine_o[96]["sqlnet.call"] == "4"
    assert nine_o[96]["sqlnet.cursor"] == "1"
    assert nine_o[96]["sqlnet.sql"] == "commit"
    assert nine_o[97]["sqlnet.ora_error"] == "0"


def test_9i_no_partial_round_trip(tshark, public_dir):
    """Every round trip of the 9.0 session is decoded to its end (a call left
    incomplete when its reply starts now marks its round trip partial)."""
    path = public_dir / NINE_O
    if not path.exists():
        pytest.skip("public corpus not available")
    assert tshark.fields(path, ["frame.number"], display_filter="sqlnet.rt.partial") == []


# ---- a generated 9.2-style session (OUR BELIEF) ------------------------------

PLATFORM = b"IBMPC/WIN_NT-8.1.0"
FV = 3                      # TTC field version of 9.2 (ttc_protocol.h TTC_FV_9_2)
OPT_PARSE, OPT_BIND, OPT_DEFINE, OPT_EXECUTE, OPT_FETCH, OPT_NOT_PLSQL = 0x01, 0x08, 0x10, 0x20, 0x40, 0x8000
ORA_VARCHAR, ORA_NUMBER = 1, 2


def u32(v):
    return struct.pack("<I", v)


def dalc(b):
    return bytes([len(b)]) + b


def number(n):
    """Oracle NUMBER bytes of a small positive integer (< 100)."""
    return bytes([0xC1, n + 1])


def ccaps():
    """SQL*Plus 9.0's compile-time capabilities (visblank frame 48) with field version 3."""
    c = bytearray(bytes.fromhex("060101010501010101010101010101070703050300"))
    c[7] = FV
    return bytes(c)


def pro_request():
    return b"\x01\x06\x05\x04\x03\x02\x01\x00" + PLATFORM + b"\x00"


def pro_reply():
    c = ccaps()
    return (b"\x01\x06\x00" + PLATFORM + b"\x00" + b"\xb2\x00" + b"\x01" + b"\x00\x00" + b"\x00\x00" +
            bytes([len(c)]) + c + b"\x02\x02\x01")


TZ = bytes.fromhex("800000003c3c3c80000000")


def dty_request():
    c = ccaps()
    # charsets, flags, caps, runtime caps (time zone), the time zone, the
    # national charset (sent from field version 3, as SQL*Plus 10.2 does)
    return b"\x02\xb2\x00\xb2\x00\x02" + bytes([len(c)]) + c + b"\x02\x02\x01" + TZ + b"\xd0\x07"


def dty_reply():
    return b"\x02" + TZ


def oac(dtype, size, csfrm=1):
    """One bind or define entry: 33 bytes, the oac of visblank frame 88's bind
    (type @0, buffer size @5, charset 178 @25, charset form @27)."""
    e = bytearray(33)
    e[0] = dtype
    e[5:9] = u32(size)
    e[25:27] = struct.pack("<H", 178)
    e[27] = csfrm
    return bytes(e)


def oall7(seq, options, cursor, sql=b"", binds=(), defines=(), execs=1, values=()):
    """OALL7 as the 9.0 frames lay it out (header @0-@59), with its text,
    al8i4 (7 values), metadata and bind values after it."""
    parse = 1 if sql else 0
    text = sql + b"\x00" if sql else b""
    body = (u32(options) + u32(cursor) +
            u32(0x00FCCCA0 if text else 0) + u32(len(text)) +
            u32(0x00FCCD20 if binds else 0) + u32(len(binds)) +
            u32(0x00FAEB10) + u32(7) +
            u32(0x010123F0) + u32(2) +
            u32(0) +
            u32(0x01012338 if defines else 0) + u32(len(defines)) +
            u32(0) + u32(0))
    if text:
        body += dalc(text)
    body += u32(parse) + u32(execs) + u32(0) * 5
    for b in binds:
        body += b
    for d in defines:
        body += d
    for row in values:
        body += b"\x07" + b"".join(dalc(v) for v in row)
    return b"\x03\x47" + bytes([seq]) + body


def ofetch(seq, cursor, rows):
    return b"\x03\x05" + bytes([seq]) + u32(cursor) + u32(rows)


def row_header(columns):
    """Marker 01, the 32-byte struct: flags @0, columns u16 @2, iteration u32 @4, iterations u32 @8."""
    s = bytearray(32)
    s[0] = 1
    s[2:4] = struct.pack("<H", columns)
    s[8:12] = u32(1)
    return b"\x06\x01" + bytes(s)


def row(values):
    return b"\x07" + b"".join(dalc(v) for v in values)


def rpa_al8o4(values=(0x458DA, 0)):
    """Return parameters: al8o4 (count ub2, ub4s), transaction id and key/value pairs empty."""
    return b"\x08" + struct.pack("<H", len(values)) + b"".join(u32(v) for v in values) + b"\x00\x00" + b"\x00\x00"


def oer(cursor, rowcount, error=0, message=b""):
    """Call status u32, sequence u16, marker 01, the 88-byte struct (row count
    u32 @0, error u16 @4, cursor u16 @10), the message when error != 0."""
    s = bytearray(88)
    s[0:4] = u32(rowcount)
    s[4:6] = struct.pack("<H", error)
    s[10:12] = struct.pack("<H", cursor)
    out = b"\x04" + u32(1 if error else 0) + b"\x00\x00" + b"\x01" + bytes(s)
    if error:
        out += dalc(message)
    return out


SELECT = b"SELECT ENAME, SAL FROM EMP WHERE DEPTNO = :1"
UPDATE = b"UPDATE EMP SET SAL = SAL * 1.1 WHERE DEPTNO = :1"
ODD_SQL = b"DELETE FROM BONUS"
NO_DATA = b"ORA-01403: no data found\n"
EMP = [(b"SMITH%d" % i, number(i + 10)) for i in range(13)]

# (name, client message, server messages, facts the script put on the wire)
SCRIPT = [
    ("parse-bind-define-execute-fetch",
     oall7(9, OPT_PARSE | OPT_BIND | OPT_DEFINE | OPT_EXECUTE | OPT_FETCH | OPT_NOT_PLSQL, 1, SELECT,
           binds=[oac(ORA_NUMBER, 22, 0)], defines=[oac(ORA_VARCHAR, 10), oac(ORA_NUMBER, 22, 0)],
           execs=10, values=[[number(20)]]),
     row_header(2) + b"".join(row(v) for v in EMP[:10]) + rpa_al8o4() + oer(1, 10),
     dict(sql=SELECT, cursor=1, fetch_rows=10, rows=10, rowcount=10, binds=1, defines=2, bind_value="20")),
    ("fetch", ofetch(10, 1, 10),
     row_header(2) + b"".join(row(v) for v in EMP[10:12]) + oer(1, 12, 1403, NO_DATA),
     dict(sql=SELECT, cursor=1, fetch_rows=10, rows=2, rowcount=12, error=1403)),
    ("re-execute-and-fetch",
     oall7(11, OPT_BIND | OPT_EXECUTE | OPT_FETCH | OPT_NOT_PLSQL, 1, binds=[oac(ORA_NUMBER, 22, 0)],
           execs=10, values=[[number(30)]]),
     row_header(2) + row(EMP[12]) + rpa_al8o4() + oer(1, 1, 1403, NO_DATA),
     dict(sql=SELECT, cursor=1, fetch_rows=10, rows=1, rowcount=1, error=1403, binds=1, bind_value="30")),
    ("dml", oall7(12, OPT_PARSE | OPT_BIND | OPT_EXECUTE | OPT_NOT_PLSQL, 2, UPDATE,
                  binds=[oac(ORA_NUMBER, 22, 0)], values=[[number(20)]]),
     rpa_al8o4() + oer(2, 3),
     dict(sql=UPDATE, cursor=2, rows=0, rowcount=3, binds=1, bind_value="20")),
]


def odd_oall7(seq):
    """An OALL7 whose bind count is absurd (0xffffffff): the layout cannot
    hold; its text is still the DALC of the announced SQL length."""
    text = ODD_SQL + b"\x00"
    body = (u32(OPT_PARSE | OPT_EXECUTE) + u32(3) + u32(0x00FCCCA0) + u32(len(text)) +
            u32(0x00FCCD20) + u32(0xFFFFFFFF) + u32(0x00FAEB10) + u32(7) + u32(0) * 7 + dalc(text) +
            u32(1) + u32(1) + u32(0) * 5)
    return b"\x03\x47" + bytes([seq]) + body


def nine_two_session(tmp_path, odd=False, split=None, short=False):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC, version=312, sdu=2048))
    conv.send("S", g.accept(version=312, sdu=2048, tdu=32767))
    frames = {}

    def exchange(name, call, reply):
        packets = [call[:split], call[split:]] if split and len(call) > split else [call]
        for p in packets:
            conv.send("C", g.data(p, wide=False))
        frames[name] = (len(conv.frames), None)
        conv.send("S", g.data(reply, wide=False))
        frames[name] = (frames[name][0], len(conv.frames))

    exchange("pro", pro_request(), pro_reply())
    exchange("dty", dty_request(), dty_reply())
    for name, call, reply, _ in SCRIPT:
        exchange(name, call, reply)
    if short:
        # cut inside its header: the reply comes while the call is incomplete
        exchange("short", oall7(13, OPT_PARSE | OPT_EXECUTE, 3, ODD_SQL)[:40], oer(3, 1))
        exchange("after", ofetch(14, 1, 5), oer(1, 13, 1403, NO_DATA))
    if odd:
        exchange("odd", odd_oall7(13), oer(3, 1))
        exchange("after", ofetch(14, 1, 5), oer(1, 13, 1403, NO_DATA))
    return conv.write(tmp_path / "oall7_92.pcap"), frames


@pytest.mark.parametrize("split", [None, 60], ids=["one-packet", "split-call"])
def test_92_session_calls_and_replies(tshark, tmp_path, split):
    """Every call and reply of the generated session decodes to its end; each
    OALL7 and OFETCH carries the cursor, statement, rows asked and bind values
    the script wrote, each reply the rows and row count it wrote.  split=60:
    every call longer than 60 bytes cut over two TNS packets (the OALL7 is
    reassembled before it is decoded; its bind values, call data in the second
    packet, are not shown then, as for an OALL8)."""
    path, frames = nine_two_session(tmp_path, split=split)
    got = rows_by_frame(tshark, path)
    for name, _, _, want in SCRIPT:
        req, resp = got[frames[name][0]], got[frames[name][1]]
        assert req["sqlnet.sql"] == want["sql"].decode(), name
        assert req["sqlnet.cursor"] == str(want["cursor"]), name
        if "fetch_rows" in want:
            assert req["sqlnet.fetch.rows"] == str(want["fetch_rows"]), name
        if "binds" in want:
            assert req["sqlnet.oall8.binds"] == str(want["binds"]), name
            if not split:       # (a split call's values are call data: not shown, as for OALL8)
                assert req["sqlnet.bind.value"] == want["bind_value"], name
        if "defines" in want:
            assert req["sqlnet.oall8.defines"] == str(want["defines"]), name
        assert resp["sqlnet.rows"] == str(want["rows"]), name
        assert resp["sqlnet.rowcount"] == str(want["rowcount"]), name
        assert resp["sqlnet.ora_error"] == str(want.get("error", 0)), name
    for f in got.values():
        assert f["sqlnet.ttc.undecoded"] == ""
        assert "OALL7" not in f["_ws.expert.message"]
        assert "not decoded" not in f["_ws.expert.message"]


def test_92_statement_report_files_fetches_under_the_statement(tshark, tmp_path):
    """-z sqlnet,stmt: the SELECT has its two OALL7 executions and the OFETCH
    between them, 13 rows in all (10 + 2 + 1 written); the UPDATE one
    execution and no rows."""
    path, _ = nine_two_session(tmp_path)
    out = tshark.run(path, ["-q", "-z", "sqlnet,stmt,format=csv"]).stdout
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("statement,"))
    by_sql = {r["sql"]: r for r in csv.DictReader(lines[start:])}
    select, update = by_sql[SELECT.decode()], by_sql[UPDATE.decode()]
    assert select["executions"] == "2", out
    assert select["rows"] == "13", out
    assert update["executions"] == "1", out
    assert update["rows"] == "0", out


def test_92_odd_oall7_expert_info_and_later_packets(tshark, tmp_path):
    """An OALL7 with an absurd bind count keeps its options and cursor, finds
    its SQL text by the length field, says so in expert info on the bytes
    after its cursor; its reply and the OFETCH after it decode."""
    path, frames = nine_two_session(tmp_path, odd=True)
    got = rows_by_frame(tshark, path)
    odd = got[frames["odd"][0]]
    assert odd["sqlnet.call"] == "71"
    assert odd["sqlnet.cursor"] == "3"
    assert odd["sqlnet.sql"] == ODD_SQL.decode()
    assert "OALL7 does not fit its layout" in odd["_ws.expert.message"]
    assert got[frames["odd"][1]]["sqlnet.rowcount"] == "1"
    after_req, after_resp = got[frames["after"][0]], got[frames["after"][1]]
    assert after_req["sqlnet.sql"] == SELECT.decode()
    assert after_resp["sqlnet.ora_error"] == "1403"
    assert after_resp["sqlnet.ttc.undecoded"] == ""


def test_92_short_oall7_marks_its_round_trip_and_later_packets_decode(tshark, tmp_path):
    """An OALL7 cut inside its header (40 bytes of it sent, then the server
    answers): its round trip is marked partial (sqlnet.rt.partial 2, a message
    not decoded) with the expert on the response; the OFETCH after it decodes
    under its statement."""
    path, frames = nine_two_session(tmp_path, short=True)
    got = rows_by_frame(tshark, path)
    resp = tshark.fields(path, ["sqlnet.rt.partial", "_ws.expert.message"],
                         display_filter=f"frame.number == {frames['short'][1]}")[0]
    assert resp[0] == "2"
    assert "not decoded to its end" in resp[1]
    after_req, after_resp = got[frames["after"][0]], got[frames["after"][1]]
    assert after_req["sqlnet.sql"] == SELECT.decode()
    assert after_resp["sqlnet.ora_error"] == "1403"
    assert after_resp["sqlnet.ttc.undecoded"] == ""


def test_92_advisor_files_oall7_under_its_statement(tshark, tmp_path):
    """The advisor (-z sqlnet,advise) sees the SELECT's two OALL7 executions
    and its OFETCH as one statement with the 13 rows the script wrote."""
    path, _ = nine_two_session(tmp_path)
    out = tshark.run(path, ["-q", "-z", "sqlnet,advise"]).stdout
    assert f"Statement 1: {SELECT.decode()}" in out, out
    assert "observed: 2 execution(s), 13 rows" in out, out
