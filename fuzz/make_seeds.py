#!/usr/bin/env python3
"""Turn pcap/pcapng captures into seed inputs for fuzz/sqlnet_fuzzer.

Seeds of mixed sizes from every TCP stream of every capture (the stream's
payload-carrying segments as direction-tagged chunks; fuzz/sqlnet_fuzzer.c
documents the format), each cut at a chunk boundary:

* the stream's start (handshake, login, first calls) up to --start-len bytes
  (default 16 KiB: dissection time grows with the bytes, and the mutator's
  repeat operations make long streams from short seeds);
* for a stream longer than that, up to --windows (default 6) pieces of its
  middle, --max-len bytes each (default 4 KiB), beginning at a client
  packet, as inputs without the TCP handshake (config bit 1): the plugin
  picks such a conversation up mid-session;
* the --big (default 12) longest streams also whole, up to --big-len bytes
  (default 1 MiB).

scripts/pcap_tcp.py reads the captures (no tshark: one Python process); the server
side is the port that received the SYN, else the port in the sqlnet range,
else the lower one.  A segment over 64 KB becomes one long chunk.

    fuzz/make_seeds.py --out fuzz/seeds test-captures/*.pcapng ../shared/captures/public/...
"""
import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from to_pcap import chunk  # noqa: E402  (the chunk format, fuzz/fz_input.h)
from pcap_tcp import packets, tcp_of  # noqa: E402  (a capture reader of our own)

SQLNET_PORTS = {1521, 1522, 1526}


def streams(capture: Path):
    """Each TCP conversation's segments in frame order (numbered as Wireshark
    numbers tcp.stream: by first appearance of the address and port pair),
    read by scripts/pcap_tcp.py."""
    by_stream, index = {}, {}
    for link, _ts, frame in packets(capture):
        t = tcp_of(link, frame)
        if t is None:
            continue
        sport, dport, _ln, payload, _seq, flags, src, dst = t
        key = frozenset(((src, sport), (dst, dport)))
        n = index.setdefault(key, len(index))
        by_stream.setdefault(n, []).append((sport, dport, bool(flags & 0x02), bool(flags & 0x10), payload))
    return by_stream


def server_port(segs):
    for sport, dport, syn, ack, _ in segs:
        if syn and not ack:
            return dport
    ports = {segs[0][0], segs[0][1]}
    inrange = ports & SQLNET_PORTS
    return min(inrange) if inrange else min(ports)


def seed(segs, max_len: int, start: int = 0, config_bits: int = 0):
    """The chunks of segs[start:] up to max_len bytes (whole chunks)."""
    srv = server_port(segs)
    config = (0x00 if srv in SQLNET_PORTS else 0x01) | config_bits
    out = bytearray([config])
    for sport, _dport, _syn, _ack, payload in segs[start:]:
        if not payload:
            continue
        direction = 1 if sport == srv else 0
        c = chunk(direction, payload)
        if len(out) + len(c) > max_len:
            return bytes(out)
        out += c
    return bytes(out)


def window_starts(segs, max_len: int, count: int):
    """Up to count evenly spread indexes of client segments past the first
    max_len bytes of the stream (the start seed)."""
    srv = server_port(segs)
    total, starts = 0, []
    for i, (sport, _dport, _syn, _ack, payload) in enumerate(segs):
        if payload and total > max_len and sport != srv:
            starts.append((total, i))
        total += len(payload)
    if not starts or count <= 0:
        return []
    picked, step = [], max(total - max_len, 1) / (count + 1)
    for k in range(1, count + 1):
        want = max_len + k * step
        best = min(starts, key=lambda s: abs(s[0] - want))[1]
        if best not in picked:
            picked.append(best)
    return picked


def histogram(sizes):
    bins = [(1024, "<1K"), (4096, "1-4K"), (16385, "4-16K"), (65536, "16-64K"), (262144, "64-256K"),
            (1 << 40, ">=256K")]
    out, lo = [], 0
    for hi, label in bins:
        out.append(f"{label} {sum(1 for x in sizes if lo <= x < hi)}")
        lo = hi
    return ", ".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--start-len", type=int, default=16384)
    ap.add_argument("--max-len", type=int, default=4096)
    ap.add_argument("--windows", type=int, default=6)
    ap.add_argument("--big", type=int, default=12)
    ap.add_argument("--big-len", type=int, default=1048576)
    ap.add_argument("captures", nargs="+", type=Path)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seeds, whole = {}, []
    for cap in args.captures:
        for _stream, segs in sorted(streams(cap).items()):
            size = sum(len(s[4]) for s in segs)
            pieces = [seed(segs, args.start_len)]
            if size > args.start_len:
                pieces += [seed(segs, args.max_len, i, 0x02)
                           for i in window_starts(segs, args.start_len, args.windows)]
                whole.append((size, cap.stem, segs))
            for data in pieces:
                if len(data) > 1:
                    seeds[f"{cap.stem}-{hashlib.sha1(data).hexdigest()[:12]}"] = data
    whole.sort(key=lambda w: -w[0])
    for _size, stem, segs in whole[:args.big]:
        data = seed(segs, args.big_len)
        seeds[f"{stem}-{hashlib.sha1(data).hexdigest()[:12]}"] = data
    for name, data in seeds.items():
        (args.out / name).write_bytes(data)
    sizes = sorted(len(d) for d in seeds.values())
    print(f"{len(seeds)} seeds in {args.out} (bytes: {histogram(sizes)}; largest {sizes[-1] if sizes else 0})",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
