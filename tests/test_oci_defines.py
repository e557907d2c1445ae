"""OCI's bind and define metadata (plugin/decoders/ttc_bindmeta.c): the
same-platform struct of a 19c OCI client and the packed native entries of
OCI 10g/11g.

Evidence: hand decoding of the real captures' bytes (below); each test reads
the raw TCP payload (tshark's core field tcp.payload), checks the hand
decoding against it, then compares the plugin's fields with it.  Offsets are
from the start of the TCP payload (the TNS packet; a DATA packet's TTC data
starts at 0x0a).

jkstill19c/cdb01_ora_26589.pcap frame 33 (462 bytes; a 64-bit Linux OCI
client and server, the same-platform dialect with 8-byte pointers, field
version 7): the OALL8 "03 5e 06" at 0x0a, options 70800000 (define, execute,
fetch, not PL/SQL), cursor 01000000, no binds, 5 defines; from 0x101 to the
end of the packet five entries of 41 bytes, each a marker 01 and a 40-byte
struct:

    0x101  01 | 01 07 00 00 80010000 00000000 (16 x 00) 00000000 6903 01 00 00000000 00000000
           marker, type 1 (VARCHAR2) @+1, flags 07 @+2, precision 0 @+3,
           scale 0 @+4, buffer size u32 @+5, max elements u32 @+9 (0),
           charset u16 @+29 (0x369 = 873, AL32UTF8), form @+31 (1), a pad
           byte, max characters u32 @+33 (0), collation u32 @+37 (0)

    entry  offset  type  buffer   column (frame 31's describe, 128/22/22/24/19)
      1    0x101   1     384      USERNAME    VARCHAR2(128): 3 x 128
      2    0x12a   1     513      SID         NUMBER, defined as a string
      3    0x153   1     513      SERIAL#     NUMBER, defined as a string
      4    0x17c   1      72      SPID        VARCHAR2(24): 3 x 24
      5    0x1a5   1      57      LOGON_TIME  19 characters: 3 x 19
    0x1a5 + 41 = 0x1ce = 462: the metadata ends the packet (no call data).

junkie/select.pcap (SQL*Plus 10.1 against 10g XE, native integers of
another platform, field version 4): frame 33's OALL8 binds one value, the
entry at 0xb3, 29 bytes, then the value as row data at 0xd0 to the end:

    01 03 00 00 18000000 00000000 00000000 00000000 0000 6903 01 00000000 | 07 08 "SQL*Plus"
    type 1, flags 3, precision, scale (one byte each), buffer size u32 24,
    max elements u32, continuation flags u32, OID length u32, version u16,
    charset u16 873, form 1, max characters u32

frame 35's OALL8 defines one column at 0xa5: "02 03 00 00 16000000" and 21
zero bytes: NUMBER, flags 3, buffer 22, charset 0, form 0 (the end of the
packet).  john/Oracle-good.pcap (SQL*Plus 11 against 11.1, field version 5)
has the same two calls: frame 35's bind at 0x137 (buffer 8, charset 0xb2 =
178, WE8MSWIN1252) and frame 37's define at 0x129.
"""
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tshark import corpus_file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import fetch_corpus  # noqa: E402

JK = "jkstill19c/cdb01_ora_26589.pcap"
META = ["frame.number", "tcp.payload", "sqlnet.oall8.binds", "sqlnet.oall8.defines", "sqlnet.bind.type",
        "sqlnet.bind.flags", "sqlnet.bind.buffer_size", "sqlnet.bind.charset", "sqlnet.bind.csfrm",
        "sqlnet.bind.max_chars", "sqlnet.bind.collation", "sqlnet.bind.value", "sqlnet.ttc.call_data",
        "sqlnet.describe.column", "sqlnet.describe.column.size", "sqlnet.oer.error", "_ws.expert.message",
        "_ws.malformed"]

# hand decoding above: (offset of the marker, buffer size)
JK_DEFINES = [(0x101, 384), (0x12A, 513), (0x153, 513), (0x17C, 72), (0x1A5, 57)]


def frames(tshark, cap):
    """{frame: {field: value}} for the TCP segments with data; one tshark run."""
    out = {}
    for row in tshark.fields(cap, META, "tcp.len > 0"):
        row += [""] * (len(META) - len(row))
        d = dict(zip(META, row))
        d["payload"] = bytes.fromhex(d["tcp.payload"].replace(":", ""))
        out[int(d["frame.number"])] = d
    return out


def ints(value):
    return [int(v, 0) for v in value.split(",")] if value else []


@pytest.fixture(scope="module")
def jk(tshark, public_dir):
    path = corpus_file(public_dir, JK, "jkstill19c")
    return frames(tshark, path)


def test_define_struct_bytes_as_hand_decoded(jk):
    """The bytes are what the docstring says: five 41-byte entries from
    0x101 to the end of frame 33, each marker 01, VARCHAR2, flags 7,
    charset 873, form 1."""
    p = jk[33]["payload"]
    assert p[0x0A:0x0D] == bytes.fromhex("035e06") and len(p) == 0x101 + 5 * 41
    for off, size in JK_DEFINES:
        assert p[off] == 1 and p[off + 1] == 1 and p[off + 2] == 7
        assert struct.unpack_from("<I", p, off + 5)[0] == size
        assert struct.unpack_from("<H", p, off + 29)[0] == 873 and p[off + 31] == 1
        assert p[off + 9:off + 29] == bytes(20) and p[off + 32:off + 41] == bytes(9)


def test_defines_decoded_as_fields_under_the_call(jk):
    """The plugin shows the five defines with the hand-decoded values, and no
    call data is left in the frame."""
    f = jk[33]
    assert f["sqlnet.oall8.defines"] == "5"
    assert ints(f["sqlnet.bind.type"]) == [1] * 5
    assert ints(f["sqlnet.bind.flags"]) == [7] * 5
    assert ints(f["sqlnet.bind.buffer_size"]) == [s for _, s in JK_DEFINES]
    assert ints(f["sqlnet.bind.charset"]) == [873] * 5
    assert ints(f["sqlnet.bind.csfrm"]) == [1] * 5
    assert ints(f["sqlnet.bind.max_chars"]) == [0] * 5
    assert ints(f["sqlnet.bind.collation"]) == [0] * 5
    assert f["sqlnet.ttc.call_data"] == "" and f["_ws.expert.message"] == ""


def test_character_defines_are_three_bytes_per_described_character(jk):
    """Two views of the same columns: the server's describe (frame 31) and
    the client's defines (frame 33).  The client, in AL32UTF8 (charset 873,
    up to 3 bytes a character), asks 3 bytes for each character the
    describe gives its VARCHAR2 columns (USERNAME, SPID, LOGON_TIME)."""
    described = dict(zip(jk[31]["sqlnet.describe.column"].split(","), ints(jk[31]["sqlnet.describe.column.size"])))
    defined = ints(jk[33]["sqlnet.bind.buffer_size"])
    assert [described[c] * 3 for c in ("USERNAME", "SPID", "LOGON_TIME")] == [defined[0], defined[3], defined[4]]


@pytest.mark.parametrize("cap,bind_frame,bind_at,define_frame,define_at,size,charset", [
    ("junkie/select.pcap", 33, 0xB3, 35, 0xA5, 24, 873),
    ("john/Oracle-good.pcap", 35, 0x137, 37, 0x129, 8, 178),
])
def test_packed_native_entries(tshark, public_dir, cap, bind_frame, bind_at, define_frame, define_at, size, charset):
    """OCI 10g/11g against another platform: 29-byte entries (hand decoding
    above), the bind's value after them as row data, shown as the bind's
    value; the define ends its packet."""
    path = corpus_file(public_dir, cap)
    fr = frames(tshark, path)
    b, d = fr[bind_frame], fr[define_frame]
    p = b["payload"]
    assert p[bind_at:bind_at + 4] == bytes.fromhex("01030000") and struct.unpack_from("<I", p, bind_at + 4)[0] == size
    assert struct.unpack_from("<H", p, bind_at + 22)[0] == charset and p[bind_at + 24] == 1
    assert p[bind_at + 29:] == b"\x07\x08SQL*Plus"
    q = d["payload"]
    assert q[define_at:define_at + 8] == bytes.fromhex("0203000016000000") and len(q) == define_at + 29
    assert (b["sqlnet.bind.type"], b["sqlnet.bind.flags"], b["sqlnet.bind.buffer_size"]) == ("1", "0x03", str(size))
    assert (b["sqlnet.bind.charset"], b["sqlnet.bind.csfrm"]) == (str(charset), "1")
    assert b["sqlnet.bind.value"] == "SQL*Plus"
    assert b["sqlnet.ttc.call_data"].replace(":", "") == p[bind_at + 29:].hex()   # the value only
    assert (d["sqlnet.bind.type"], d["sqlnet.bind.buffer_size"], d["sqlnet.bind.charset"]) == ("2", "22", "0")
    assert d["sqlnet.ttc.call_data"] == ""


def rebuilt(public_dir, tmp_path, name, change):
    """jkstill19c's TNS packets as a new capture (scripts/fetch_corpus.py's
    writer), frame 33's packet changed by `change`."""
    src = public_dir / JK
    out = subprocess.run(["tshark", "-r", str(src), "-Y", "tcp.len > 0", "-T", "fields", "-e", "frame.number",
                          "-e", "tcp.srcport", "-e", "tcp.payload"], capture_output=True, text=True, check=True).stdout
    packets = []
    for line in out.splitlines():
        frame, port, hexes = line.split("\t")
        data = bytearray(bytes.fromhex(hexes.replace(":", "")))
        packets.append(("S" if port == "1521" else "C", bytes(change(data) if frame == "33" else data)))
    dest = tmp_path / name
    fetch_corpus.write_pcap(dest, packets)
    return dest


def test_flipped_marker_is_undecoded_call_data_and_the_reply_still_decodes(tshark, public_dir, jk, tmp_path):
    """The third define's marker 01 flipped to 02 (hand decoding: offset
    0x153): the metadata no longer fits, so the call keeps its header
    fields, its metadata is call data with the Undecoded expert item, nothing
    is malformed, and the reply after it still decodes (one row, ORA-01403,
    as in the original)."""
    def flip(d):
        assert d[0x153] == 1
        d[0x153] = 2
        return d
    fr = frames(tshark, rebuilt(public_dir, tmp_path, "flip.pcap", flip))
    call = [f for f in fr.values() if f["sqlnet.oall8.defines"] == "5"]
    assert len(call) == 1
    call = call[0]
    assert call["sqlnet.bind.type"] == "" and call["sqlnet.ttc.call_data"].replace(":", "") == \
        call["payload"][0x101:].hex()
    assert "not decoded" in call["_ws.expert.message"]
    assert all(f["_ws.malformed"] == "" for f in fr.values())
    last = fr[max(fr)]
    assert ints(last["sqlnet.oer.error"]) == [1403] and ints(jk[35]["sqlnet.oer.error"]) == [1403]


def test_truncated_metadata_no_crash_and_the_reply_still_decodes(tshark, public_dir, jk, tmp_path):
    """Frame 33's packet cut 100 bytes short (its TNS length field made to
    match, so the cut falls in the third define): tshark reads the capture
    without error, the call keeps its fields, what is left of the metadata is
    call data (it may continue in a next TNS packet, so no expert item), and
    the reply still decodes."""
    def cut(d):
        d = d[:len(d) - 100]
        d[0:4] = len(d).to_bytes(4, "big")
        return d
    fr = frames(tshark, rebuilt(public_dir, tmp_path, "cut.pcap", cut))
    call = [f for f in fr.values() if f["sqlnet.oall8.defines"] == "5"][0]
    assert call["sqlnet.ttc.call_data"].replace(":", "") == call["payload"][0x101:].hex()
    assert all(f["_ws.malformed"] == "" for f in fr.values())
    assert ints(fr[max(fr)]["sqlnet.oer.error"]) == [1403]
