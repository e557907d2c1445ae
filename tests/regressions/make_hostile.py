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

  pipeline-fetches.pcap              the ten OFETCH round trips sent as five
                                      23ai pipelines of two: both requests
                                      (end-of-request data flag 0x0800) before
                                      both responses (end-of-response 0x2000)

  undecodable-then-oer.pcap          the execute's response starts with three
                                      bytes of an unknown message (55 00 00):
                                      nothing of it decodes until its final
                                      end-of-call status

and one built from test-captures/goora_basic.pcapng (go-ora v2.9.0, TTC field
version 11):

  oer-flags-ub2.pcap                 the end-of-call status (OER) of the first
                                      SELECT's execute (frame 37) with its
                                      "flags" field set to 0x0120 and written as
                                      go-ora reads it (a ub2: 02 01 20, not the
                                      single byte python-oracledb and
                                      node-oracledb read) and a rowid filled in
                                      (rba 0x12345, partition 5, table 7, block
                                      0x10000, slot 2); the TNS packet's length
                                      (frame 35) grows by the added bytes

Run: python3 tests/regressions/make_hostile.py [OUTDIR]  (needs tshark to read
the source capture; writes next to this file by default).
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import pcapgen as g  # noqa: E402

SOURCE = ROOT / "test-captures" / "arraysize_100.pcapng"
GOORA = ROOT / "test-captures" / "goora_basic.pcapng"
NEST = b"\x22\x00\x00\x00"


def segments(cap):
    """(side, payload) of every TCP segment with payload, in capture order."""
    # tcp.payload is TCP's own field: whatever dissects the payload (the
    # stock tshark has no sqlnet, and --disable-protocol of an unknown
    # protocol is an error from 4.6 on)
    out = subprocess.run(["tshark", "-r", str(cap), "-Y", "tcp.len > 0",
                          "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.payload"],
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
    full = g.header(300, g.TYPE_CONNECT) + g.connect(b"x" * 200, version=319, sdu=8192)[8:28]
    return full[:n]


def universal(b, i):
    """(value, next offset) of a TTC universal integer at b[i]."""
    n = b[i] & 0x7F
    return int.from_bytes(b[i + 1:i + 1 + n], "big"), i + 1 + n


def oer_flags_ub2(segs):
    """Rewrite the OER that ends the first SELECT's execute response (frames
    35-37 of the source) as a query on a real table fills it in: flags 0x0120
    written as go-ora reads it (ub2: 02 01 20) and a rowid."""
    # frame 35 starts the TNS packet, frame 37 ends it with the OER
    idx = [i for i, (side, p) in enumerate(segs) if side == "S"]
    start = next(i for i in idx if len(segs[i][1]) == 1448 and segs[i][1][4] == 6 and
                 segs[i + 2][1].endswith(bytes.fromhex("011e")))
    head, tail = segs[start][1], segs[start + 2][1]
    # hand-decode the OER backwards from its known shape (python layout, fv 11):
    # 04 | call status | seq | row | err | arr | arr | cursor | pos | sqltype |
    # fatal flags ucur upi warn | rowid(5) | oserr stmt call pad | iters | oerrdd |
    # 3 batch lists | error | rowcount
    at = tail.rindex(b"\x04\x01\x01\x01")
    i = at + 1
    for _ in range(4):                 # call status, seq, current row, error
        _, i = universal(tail, i)
    for _ in range(3):                 # array errors x2, cursor
        _, i = universal(tail, i)
    _, i = universal(tail, i)          # error position
    i += 1                             # sql type
    fatal = i
    # fatal, flags, user cursor options, UPI, warning flags, then the rowid's
    # rba, partition, table, block, slot: all zero in the capture
    assert tail[fatal:fatal + 10] == bytes(10)
    rowid = bytes.fromhex("03012345" "0105" "07" "03010000" "0102")   # a real table's rowid
    patched = b"\x00" + b"\x02\x01\x20" + b"\x00\x00\x00" + rowid
    tail = tail[:fatal] + patched + tail[fatal + 10:]
    length = int.from_bytes(head[0:4], "big") + len(patched) - 10
    head = length.to_bytes(4, "big") + head[4:]
    out = list(segs)
    out[start] = ("S", head)
    out[start + 2] = ("S", tail)
    return out


def is_fetch(side, payload):
    return side == "C" and len(payload) > 12 and payload[4] == 6 and payload[10:12] == b"\x03\x05"


def pipelined(segs):
    """Fetches sent two at a time before their answers, as python-oracledb's
    pipelines send them (TNS_DATA_FLAGS_END_OF_REQUEST on each request)."""
    out, i = [], 0
    while i < len(segs):
        if not is_fetch(*segs[i]):
            out.append(segs[i])
            i += 1
            continue
        units = []
        while i < len(segs) and is_fetch(*segs[i]) and len(units) < 2:
            req = segs[i][1]
            flags = int.from_bytes(req[8:10], "big") | 0x0800
            j = i + 1
            while j < len(segs) and segs[j][0] == "S":
                j += 1
            units.append((("C", req[:8] + flags.to_bytes(2, "big") + req[10:]), segs[i + 1:j]))
            i = j
        out += [u[0] for u in units]
        for u in units:
            out += u[1]
    return out


def is_oall8(side, payload):
    return side == "C" and len(payload) > 12 and payload[4] == 6 and payload[10:12] == b"\x03\x5e"


def unknown_message_first(segs):
    """Three bytes of an unknown message type at the start of the execute's
    response (one segment), the TNS length grown to match."""
    out = list(segs)
    i = next(k for k, (side, p) in enumerate(segs) if is_oall8(side, p)) + 1
    side, p = segs[i]
    assert side == "S" and int.from_bytes(p[0:4], "big") == len(p)
    p = (len(p) + 3).to_bytes(4, "big") + p[4:10] + b"\x55\x00\x00" + p[10:]
    out[i] = (side, p)
    return out


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
    rebuild(oer_flags_ub2(segments(GOORA)), None).write(out / "oer-flags-ub2.pcap")
    rebuild(pipelined(segs), None).write(out / "pipeline-fetches.pcap")
    rebuild(unknown_message_first(segs), None).write(out / "undecodable-then-oer.pcap")


if __name__ == "__main__":
    main()
