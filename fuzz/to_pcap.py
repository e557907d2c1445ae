#!/usr/bin/env python3
"""Write a fuzz/sqlnet_fuzzer input as a pcap that tshark can read.

The frames are the ones the harness builds (fuzz/sqlnet_fuzzer.c): an
Ethernet/IPv4/TCP conversation 10.1.0.0:40000 <-> 10.0.0.1:1521 (2484 with
config bit0), an optional three-way handshake, one frame per chunk with
consistent sequence numbers, snaplen-truncated frames, gaps and
retransmissions as the chunk flags say, repeated payloads expanded and
chunks over FZ_MAX_SEGMENT bytes sent as several segments.

    fuzz/to_pcap.py INPUT OUTPUT.pcap
"""
import struct
import sys

MAX_FRAMES = 4096
DIR_SERVER, TRUNCATED, GAP, RETRANS, REPEAT, LONG = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
MAX_STREAM = 4 * 1024 * 1024
MAX_SEGMENT = 65535 - 40


def chunks(data: bytes):
    """(flags, count, payload) of every chunk (fz_next_chunk in fuzz/fz_input.h)."""
    off = 1
    while off < len(data):
        flags = data[off]
        hdr = 3 + (2 if flags & LONG else 0) + (2 if flags & REPEAT else 0)
        if len(data) - off < hdr:
            return
        off += 1
        width = 4 if flags & LONG else 2
        clen = int.from_bytes(data[off:off + width], "big")
        off += width
        count = 1
        if flags & REPEAT:
            count = int.from_bytes(data[off:off + 2], "big") or 1
            off += 2
        payload = data[off:off + clen]
        off += len(payload)
        yield flags, count, payload


def chunk(flags: int, payload: bytes, count: int = 1) -> bytes:
    """One chunk in the shortest form that holds it."""
    if len(payload) > 0xFFFF:
        flags |= LONG
    if count > 1:
        flags |= REPEAT
    out = bytes([flags]) + len(payload).to_bytes(4 if flags & LONG else 2, "big")
    if flags & REPEAT:
        out += count.to_bytes(2, "big")
    return out + payload


def frames(data: bytes):
    """(captured bytes, original length) of every frame, like the harness."""
    config = data[0]
    sport, dport = 40000, (2484 if config & 1 else 1521)
    client, server = bytes([10, 1, 0, 0]), bytes([10, 0, 0, 1])
    seq = [1000, 5000]
    out = []

    def add(direction, flags, payload=b"", truncated=False, s=None):
        if len(out) >= MAX_FRAMES:
            return
        num = len(out)
        eth = (b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" if direction else
               b"\x02\x00\x00\x00\x00\x01" + b"\x02\x00\x00\x00\x00\x02") + b"\x08\x00"
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, min(40 + len(payload), 0xFFFF), num & 0xFFFF, 0x4000,
                         64, 6, 0, server if direction else client, client if direction else server)
        ack = seq[1 - direction] if flags & 0x10 else 0
        tcp = struct.pack(">HHIIBBHHH", dport if direction else sport, sport if direction else dport,
                          (seq[direction] if s is None else s) & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4, flags,
                          65535, 0, 0)
        frame = eth + ip + tcp + payload
        caplen = 54 + len(payload) // 2 if truncated else len(frame)
        out.append((frame[:caplen], len(frame)))

    if not config & 2:
        seq[0] -= 1
        seq[1] -= 1
        add(0, 0x02)
        seq[0] += 1
        add(1, 0x12)
        seq[1] += 1
        add(0, 0x10)
    budget = MAX_STREAM
    for flags, count, payload in chunks(data):
        if len(out) >= MAX_FRAMES:
            break
        direction = flags & DIR_SERVER
        want = len(payload) * count
        total = min(want, budget)
        if want > 0 and total == 0:
            break
        budget -= total
        if flags & GAP:
            seq[direction] += 1000
        if total == 0 and not flags & RETRANS:
            add(direction, 0x10)
            continue
        body = (payload * count)[:total] if count > 1 else payload
        retrans = bool(flags & RETRANS) and seq[direction] >= total
        base = seq[direction] - total if retrans else seq[direction]
        off = 0
        while True:
            n = min(total - off, MAX_SEGMENT)
            add(direction, 0x18, body[off:off + n], bool(flags & TRUNCATED), base + off)
            off += n
            if off >= total or len(out) >= MAX_FRAMES:
                break
        if not retrans:
            seq[direction] += total
        if budget == 0:
            break
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
