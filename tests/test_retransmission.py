"""A retransmitted server segment is the same bytes sent again, not one more
TCP segment of the response (sqlnet.response.segments, sqlnet.rt.response.segments).

Found on a generated capture whose server resent a MARKER segment (the
generator's counters: 3 segments; sqlnet counted 4).  Here the case is made
from committed generated captures: every server data segment of a response
is sent twice (the copy right after the original, 1 ms later, as a
retransmission after a lost segment looks at the sender), and each
response's segments must still be what the generator's manifest counted on
the unmodified capture.  Evidence: the manifests (the server's own writes,
before the copy was planted), in one pass and with -2.
"""
import json
import struct
import subprocess

import pytest

from tshark import TEST_CAPTURES

CAPTURES = ["arraysize_10", "wan_rtt10_arraysize"]


def read_pcap(path):
    """(linktype, [(ts_sec, ts_usec, bytes)]) of a classic little-endian pcap."""
    raw = path.read_bytes()
    magic, _, _, _, _, _, linktype = struct.unpack("<IHHiIII", raw[:24])
    assert magic == 0xA1B2C3D4, hex(magic)
    frames, off = [], 24
    while off + 16 <= len(raw):
        sec, usec, incl, _orig = struct.unpack("<IIII", raw[off:off + 16])
        frames.append((sec, usec, raw[off + 16:off + 16 + incl]))
        off += 16 + incl
    return linktype, frames


def write_pcap(path, linktype, frames):
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, linktype)]
    for sec, usec, data in frames:
        out.append(struct.pack("<IIII", sec, usec, len(data), len(data)) + data)
    path.write_bytes(b"".join(out))


def server_payload_len(frame):
    """TCP payload length of an Ethernet/IPv4 frame from port 1521, else 0."""
    if len(frame) < 54 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
        return 0
    ihl = (frame[14] & 0x0F) * 4
    total = struct.unpack(">H", frame[16:18])[0]
    tcp = 14 + ihl
    if struct.unpack(">H", frame[tcp:tcp + 2])[0] != 1521:
        return 0
    return total - ihl - (frame[tcp + 12] >> 4) * 4


@pytest.mark.parametrize("name", CAPTURES)
def test_a_resent_segment_is_not_one_more(tshark, tmp_path, name):
    src = TEST_CAPTURES / f"{name}.pcapng"
    manifest = json.loads(src.with_suffix(".json").read_text())
    pcap = tmp_path / f"{name}.pcap"
    subprocess.run(["editcap", "-F", "pcap", str(src), str(pcap)], check=True, capture_output=True)
    linktype, frames = read_pcap(pcap)
    assert linktype == 1
    doubled, new_number, n = [], {}, 0
    for i, (sec, usec, data) in enumerate(frames, start=1):
        doubled.append((sec, usec, data))
        n += 1
        new_number[i] = n
        if server_payload_len(data) > 0:
            usec2 = usec + 1000
            doubled.append((sec + usec2 // 1000000, usec2 % 1000000, data))
            n += 1
    assert n > len(frames)
    cap = tmp_path / f"{name}_resent.pcap"
    write_pcap(cap, linktype, doubled)
    want = {}
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            resp = req.get("response") or {}
            if resp.get("last_frame"):
                # the copy follows the last segment: the response ends at the original
                want[str(new_number[resp["last_frame"]])] = str(resp["tcp_segments"])
    assert want
    for extra in ([], ["-2"]):
        got = {f: s for f, s in tshark.fields(cap, ["frame.number", "sqlnet.response.segments"],
                                              "sqlnet.response.segments", extra=extra)}
        assert {f: got.get(f) for f in want} == want, extra
        rt = {f: s for f, s in tshark.fields(cap, ["frame.number", "sqlnet.rt.response.segments"],
                                             "sqlnet.rt.response.segments", extra=extra)}
        assert {f: rt.get(f) for f in want} == want, extra
