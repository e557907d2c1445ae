#!/usr/bin/env python3
"""Write a fuzz/sqlnet_fuzzer input as a pcap that tshark can read.

The frames are the ones the harness builds (fuzz/sqlnet_fuzzer.c): an
Ethernet/IPv4/TCP conversation 10.1.0.0:40000 <-> 10.0.0.1:1521 (2484 with
config bit0), an optional three-way handshake, one frame per chunk with
consistent sequence numbers, snaplen-truncated frames, gaps and
retransmissions as the chunk flags say.

    fuzz/to_pcap.py INPUT OUTPUT.pcap
"""
import struct
import sys

MAX_FRAMES = 4096


def frames(data: bytes):
    """(captured bytes, original length) of every frame, like the harness."""
    config = data[0]
    sport, dport = 40000, (2484 if config & 1 else 1521)
    client, server = bytes([10, 1, 0, 0]), bytes([10, 0, 0, 1])
    seq = [1000, 5000]
    out = []

    def add(direction, flags, payload=b"", truncated=False, retrans=False):
        if len(out) >= MAX_FRAMES:
            return
        num = len(out)
        eth = (b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" if direction else
               b"\x02\x00\x00\x00\x00\x01" + b"\x02\x00\x00\x00\x00\x02") + b"\x08\x00"
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, min(40 + len(payload), 0xFFFF), num & 0xFFFF, 0x4000,
                         64, 6, 0, server if direction else client, client if direction else server)
        s = (seq[direction] - len(payload)) if retrans else seq[direction]
        ack = seq[1 - direction] if flags & 0x10 else 0
        tcp = struct.pack(">HHIIBBHHH", dport if direction else sport, sport if direction else dport,
                          s & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
        frame = eth + ip + tcp + payload
        caplen = 54 + len(payload) // 2 if truncated else len(frame)
        out.append((frame[:caplen], len(frame)))
        if not retrans:
            seq[direction] += len(payload) + (1 if flags & 0x02 else 0)

    if not config & 2:
        seq[0] -= 1
        seq[1] -= 1
        add(0, 0x02)
        add(1, 0x12)
        add(0, 0x10)
    off = 1
    while off + 3 <= len(data) and len(out) < MAX_FRAMES:
        flags = data[off]
        clen = min(int.from_bytes(data[off + 1:off + 3], "big"), len(data) - off - 3)
        direction = flags & 1
        off += 3
        if flags & 4:
            seq[direction] += 1000
        payload = data[off:off + clen]
        if clen == 0 and not flags & 8:
            add(direction, 0x10)
        else:
            add(direction, 0x18, payload, bool(flags & 2), bool(flags & 8) and seq[direction] >= clen)
        off += clen
    return out


def write_pcap(path, data: bytes):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
        for i, (cap, orig) in enumerate(frames(data)):
            f.write(struct.pack("<IIII", 1700000000 + i // 1000, (i % 1000) * 1000, len(cap), orig))
            f.write(cap)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_pcap(sys.argv[2], open(sys.argv[1], "rb").read())
