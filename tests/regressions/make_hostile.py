#!/usr/bin/env python3
"""Build the crafted regression captures of issue 11 (hostile input, round two).

Each capture is a real generated conversation (test-captures/arraysize_100.pcapng:
python-oracledb, arraysize 100, 1000 rows, SDU 8192) with one hostile part put
in, so the packets after it have known facts to decode to (the capture's
manifest): the SELECT's text, fetch calls asking for 100 rows, 1000 rows.

  fastauth-nesting-one-packet.pcap   the OSESSKEY request replaced by one DATA
                                      packet of 68 000 bytes of 22 00 00 00
                                      (fast-auth messages nested 17 000 deep)
  fastauth-nesting-ten-packets.pcap  the same as ten 8 KB DATA packets (joined
                                      by the pending-message path)
  heuristic-connect-NN.pcap          on port 2484 (not a sqlnet port, so the
                                      heuristic decides), a CONNECT-like
                                      segment of NN = 24..27 bytes, then the
                                      real conversation of the capture

Run: python3 tests/regressions/make_hostile.py [OUTDIR]  (needs tshark to read
the source capture; writes next to this file by default).
"""
import struct
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import pcapgen as g  # noqa: E402

SOURCE = ROOT / "test-captures" / "arraysize_100.pcapng"
NEST = b"\x22\x00\x00\x00"


def segments(cap):
    """(side, payload) of every TCP segment with payload, in capture order."""
    out = subprocess.run(["tshark", "-r", str(cap), "-Y", "tcp.len > 0", "--disable-protocol", "sqlnet",
                          "--disable-protocol", "tns", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.payload"],
                         check=True, capture_output=True, text=True).stdout
    segs = []
    for line in out.splitlines():
        port, hexes = line.split("\t")
        segs.append(("S" if int(port) == 1521 else "C", bytes.fromhex(hexes.replace(":", ""))))
    return segs


def is_osesskey(side, payload):
    # after the ACCEPT (TNS 319): 4-byte length, DATA type 6, data flags, then
    # the TTC function message 03 76 (OSESSKEY)
    return side == "C" and len(payload) > 12 and payload[4] == 6 and payload[10:12] == b"\x03\x76"


def rebuild(segs, replace, port=1521, before=()):
    conv = g.Conversation(server=(g.SERVER[0], port))
    for side, payload in before:
        conv.send(side, payload)
    done = False
    for side, payload in segs:
        if not done and is_osesskey(side, payload) and replace is not None:
            for pkt in replace:
                conv.send(side, pkt)
            done = True
            continue
        conv.send(side, payload)
    assert done or replace is None
    return conv


def connect_like(n):
    """n bytes (24..27) that pass every CONNECT check the heuristic can make
    on 24 bytes: 2-byte length 300, type 1, version 319, compatible 300,
    SDU 8192; the connect-data length and offset (24..27) are cut off."""
    hdr = struct.pack(">HHBBH", 300, 0, 1, 0, 0)
    body = struct.pack(">HHHHHHHH", 319, 300, 0x0001, 8192, 8192, 0x4F98, 0, 0x0001)
    full = hdr + body + struct.pack(">HH", 200, 74)
    return full[:n]


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    segs = segments(SOURCE)
    assert any(is_osesskey(s, p) for s, p in segs), "no OSESSKEY request in the source capture"
    one = g.data(NEST * 17000)
    rebuild(segs, [one]).write(out / "fastauth-nesting-one-packet.pcap")
    ten = [g.data(NEST * ((8192 - 10) // 4)) for _ in range(10)]
    rebuild(segs, ten).write(out / "fastauth-nesting-ten-packets.pcap")
    for n in range(24, 28):
        rebuild(segs, None, port=2484, before=[("C", connect_like(n))]).write(out / f"heuristic-connect-{n}.pcap")


if __name__ == "__main__":
    main()
