"""Today's OCI: a 64-bit Linux OCI client against a 64-bit Linux 19c server
(jkstill19c/cdb01_ora_26589.pcap, issue 35 point 2).

Evidence: the real capture's bytes, decoded by hand below; every test reads
the raw TCP payload itself (tshark's core field tcp.payload) and checks the
hand decoding against it before comparing the plugin's fields with it.

The session, as the bytes say (offsets are from the start of the TCP payload,
the TNS packet; a DATA packet's TTC starts at 0x0a):
- frame 12 (PRO): client platform "x86_64/Linux 2.4.xx"; frame 14 (PRO
  reply): the server's compile-time capabilities, field version (index 7)
  0x0c = 12.
- frame 16 (DTY): "02 6903 6903 02 28 | 06 01 01 01 2f 01 01 07 ..." the
  client's field version (index 7) is 07 = 12.1, so the session runs at
  field version 7 (the lower of the two, as python-oracledb takes it); the
  message ends with the time zone "80 00 00 00 3c 3c 3c 80 00 00 00", the
  time-zone file version "00 00 00 12" and ncharset "d0 07": no type table,
  the same-platform case, where the server copies its in-memory structs,
  here with 8-byte pointers.
- frame 31, the describe (message 0x10 at 0x0a): ub4 17000000 (23 opaque
  bytes at 0x0f), max row size d7000000 (215) at 0x26, columns 05000000 at
  0x2a, one byte 59 at 0x2e, then per column a marker 01 and a 40-byte
  struct: type @+1, flags @+2, precision @+3, scale @+4 (0x81 = -127 on the
  NUMBERs), buffer size u32 @+5, charset u16 @+29 (6903 = 873, AL32UTF8 on
  the VARCHAR2s), csfrm @+31, max size u32 @+33, a u32 @+37 (fe3f0000 on the
  VARCHAR2s); nulls allowed @+41, the v7 name length @+42, the name's ub4
  length @+43, its DALC length @+47 and text @+48; after the name 14 bytes:
  schema ub4 0, type name ub4 0, position u16 (0 to 4), UDS flags ub4 0.
      marker  type  size  name
      0x02f   01    128   USERNAME  (text at 0x05f)
      0x075   02     22   SID       (0x0a5)
      0x0b6   02     22   SERIAL#   (0x0e6)
      0x0fb   01     24   SPID      (0x12b)
      0x13d   01     19   LOGON_TIME (0x16d)
  then the current date at 0x185: ub4 07000000, DALC 07 "78 77 06 19 15 19
  20" (2019-06-25 20:24:31), dcbflag 0, dcbmdbz e81f0000, dcbmnpr and dcbmxpr
  13000000, dcbqcky ub4 0; return parameters 08 at 0x1a5 (al8o4: 6 ub4, the
  third 01000000 = cursor 1; al8txl 0, no key/value pairs, registration 0)
  and the OER 04 at 0x1c8: call status 01000000, sequence 7200 (114), marker
  01, then a 136-byte struct from 0x1d0: cursor u16 @10 = 1, sql type @14 = 3
  (a SELECT), call number @41 = 5 (the OALL8's sequence number).
- frame 35, the fetch's reply: row header 06 at 0x0a, marker 01, a 48-byte
  struct (flags 22, columns 0500, iteration 0, iterations 64000000 = 100);
  row data 07 at 0x3c: DALC 07 "JKSTILL" (USERNAME), 03 "c2 03 40" (SID: an
  Oracle NUMBER, exponent byte c2 = two base-100 digits, 03-1 = 2 and 40-1 =
  63: 263), 04 "c3 03 2f 3d" (SERIAL#: 2, 46, 60 = 24660), 05 "26589"
  (SPID: the server process, the trace file's name), 13 "2019-06-25
  20:24:31" (LOGON_TIME, 19 bytes): the row message is 0x3c..0x67, 44 bytes;
  return parameters 08 at 0x68 (35 bytes); the OER 04 at 0x8b: call status
  1, sequence 7300, marker 01, struct from 0x93: current row 01000000 @0,
  error16 7b05 (1403) @4, cursor 0100 @10, sql type 03 @14, call number 06
  @41, successful iterations 01000000 @44, the extended error 7b050000 @124
  and row count 0100000000000000 @128 (one row), then the message DALC 19
  "ORA-01403: no data found\\n" at 0x11b, the last byte of the packet.
"""
import re
import struct

import pytest

from tshark import corpus_file

CAP = "jkstill19c/cdb01_ora_26589.pcap"

# (marker offset, type, buffer size, name) from the hand decoding above
COLUMNS = [(0x2F, 1, 128, "USERNAME"), (0x75, 2, 22, "SID"), (0xB6, 2, 22, "SERIAL#"),
           (0xFB, 1, 24, "SPID"), (0x13D, 1, 19, "LOGON_TIME")]
# row values of frame 35's row: (offset of the length byte, bytes)
ROW = [(0x3D, b"JKSTILL"), (0x45, bytes.fromhex("c20340")), (0x49, bytes.fromhex("c3032f3d")),
       (0x4E, b"26589"), (0x54, b"2019-06-25 20:24:31")]


def oracle_number(b):
    """A positive Oracle NUMBER (exponent byte, base-100 digits + 1) as an int;
    written here from the format, not taken from the plugin."""
    exp = b[0] - 0xC1
    value = 0
    for i, d in enumerate(b[1:]):
        value += (d - 1) * 100 ** (exp - i)
    return value


@pytest.fixture(scope="module")
def cap(public_dir):
    return corpus_file(public_dir, CAP, "jkstill19c")


@pytest.fixture(scope="module")
def payload(tshark, cap):
    out = {}
    for frame, hexbytes in tshark.fields(cap, ["frame.number", "tcp.payload"], "tcp.len > 0"):
        out[int(frame)] = bytes.fromhex(hexbytes.replace(":", ""))
    return out


def test_session_runs_at_field_version_7_same_platform(payload):
    """The facts the decoding rests on, read off the bytes: client field
    version 7 (DTY, frame 16), server 12 (PRO reply, frame 14), a DTY without
    a type table (it ends with the time zone, its file version and ncharset),
    a 64-bit client platform."""
    dty = payload[16]
    assert dty[0x0A] == 0x02 and dty[0x10] == 0x28 and dty[0x11 + 7] == 7
    assert dty.endswith(bytes.fromhex("80000000 3c3c3c 80000000 00000012 d007"))
    assert b"x86_64/Linux" in payload[12]
    pro = payload[14]
    caps = pro.index(bytes.fromhex("2a06010101"))        # ccap length 0x2a, then the caps
    assert pro[caps + 1 + 7] == 12


def test_describe_five_columns_with_names_and_types(tshark, cap, payload):
    """Frame 31's describe: the five columns of the hand decoding (names
    readable in the bytes at the offsets above), against the plugin's
    sqlnet.describe.column / .type / .size."""
    b = payload[31]
    assert b[0x0A] == 0x10 and struct.unpack_from("<I", b, 0x2A)[0] == 5
    for marker, typ, size, name in COLUMNS:
        assert b[marker] == 1 and b[marker + 1] == typ
        assert struct.unpack_from("<I", b, marker + 5)[0] == size
        assert b[marker + 42] == len(name) and b[marker + 47] == len(name)
        assert b[marker + 48:marker + 48 + len(name)] == name.encode()
    rows = tshark.fields(cap, ["sqlnet.describe.columns", "sqlnet.describe.column", "sqlnet.describe.column.type",
                               "sqlnet.describe.column.size"], "frame.number == 31")
    assert len(rows) == 1
    ncols, names, types, sizes = rows[0]
    assert ncols == "5"
    assert names.split(",") == [c[3] for c in COLUMNS]
    assert types.split(",") == [str(c[1]) for c in COLUMNS]
    assert sizes.split(",") == [str(c[2]) for c in COLUMNS]


def test_row_counted_and_equal_to_the_end_of_call_row_count(tshark, cap, payload):
    """Frame 35: one row (hand-decoded values: JKSTILL, 263, 24660, 26589 and
    the logon time), 44 bytes of row data; its OER's current row (@0) and
    extended row count (@128) both say 1 and the error is 1403.  The plugin's
    rows delivered, row bytes, cumulative row count and ORA error must say the
    same, and the rows must equal the row count (two different wire fields)."""
    b = payload[35]
    for off, value in ROW:
        assert b[off] == len(value) and b[off + 1:off + 1 + len(value)] == value
    assert oracle_number(ROW[1][1]) == 263 and oracle_number(ROW[2][1]) == 24660
    assert b[0x3C] == 0x07 and b[0x68] == 0x08     # row data, then the return parameters
    oer = 0x8B
    assert b[oer] == 0x04 and b[oer + 7] == 1
    base = oer + 8
    assert struct.unpack_from("<IH", b, base) == (1, 1403)
    assert struct.unpack_from("<IQ", b, base + 124) == (1403, 1)
    assert b[base + 136] == 0x19 and b[base + 137:].startswith(b"ORA-01403")
    rows = tshark.fields(cap, ["sqlnet.rows", "sqlnet.rowcount", "sqlnet.ora_error", "sqlnet.response.row_bytes",
                               "sqlnet.oer.rowcount", "sqlnet.oer.cur_row", "sqlnet.response.cursor"],
                         "frame.number == 35")
    assert rows == [["1", "1", "1403", str(0x68 - 0x3C), "1", "1", "1"]]


def test_oer_call_number_is_the_calls_sequence_number(tshark, cap):
    """Every end-of-call status of the 64-bit struct names the call it answers
    (call number @41): the same number as the request's own sequence number
    (sqlnet.seq on the request frame the response points to), two frames'
    bytes; and its 16-bit and extended error agree."""
    reqs = {int(f): s.split(",")[-1] for f, s in tshark.fields(cap, ["frame.number", "sqlnet.seq"], "sqlnet.seq")}
    resp = tshark.fields(cap, ["sqlnet.request_in", "sqlnet.oer.call_num", "sqlnet.oer.error16", "sqlnet.oer.error"],
                         "sqlnet.oer.call_num")
    assert len(resp) == 4                                # OSESSKEY, OAUTH, OALL8, the fetch
    for req, num, e16, err in resp:
        assert reqs[int(req)] == num
        assert e16 == err


def test_nothing_left_undecoded(tshark, cap):
    """Decoded to the last byte: no Undecoded expert info, no malformed frame
    (the OER struct and the describe used to leave bytes as message type 0)."""
    assert tshark.fields(cap, ["frame.number"], "sqlnet.ttc.undecoded || _ws.expert.group == 0x05000000 || "
                                                "_ws.malformed") == []


def test_statement_listed_with_its_row(tshark, cap):
    """-z sqlnet,stmt lists the SELECT (its text from frame 29's bytes) with
    one execution and one row processed, the row of frame 35's bytes."""
    out = tshark.run(cap, ["-q", "-z", "sqlnet,stmt"]).stdout
    m = re.search(r"\nStatement 1: select s\.username, s\.sid, s\.serial#, p\.spid spid, .*?\n(.*?)(?=\n\S|\Z)",
                  out, re.S)
    assert m, out[:2000]
    block = m.group(1)
    assert re.search(r"executions\s+1\n", block)
    assert re.search(r"rows processed\s+1\n", block)
    assert "Statement 2:" not in out
