#!/usr/bin/env python3
"""Turn pcap/pcapng captures into seed inputs for fuzz/sqlnet_fuzzer.

One seed per TCP stream of every capture: the stream's payload-carrying
segments as direction-tagged chunks (fuzz/sqlnet_fuzzer.c documents the
format).  tshark reads the captures (no desegmentation, no sqlnet needed);
the server side is the port that received the SYN, else the port in the
sqlnet range, else the lower one.  Seeds are cut at a chunk boundary at
--max-len bytes (default 64 KiB: the harness fuzzes inputs up to 1 MiB, but
a whole 500 KB stream costs a second per execution; the mutator's repeat
operations make long streams from short seeds).  A segment over 64 KB becomes
one long chunk.

    fuzz/make_seeds.py --out fuzz/corpus test-captures/*.pcapng ../shared/captures/public/...
"""
import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from to_pcap import chunk  # noqa: E402  (the chunk format, fuzz/fz_input.h)

SQLNET_PORTS = {1521, 1522, 1526}
FIELDS = ["tcp.stream", "tcp.srcport", "tcp.dstport", "tcp.flags.syn", "tcp.flags.ack",
          "tcp.payload"]


def streams(capture: Path):
    cmd = ["tshark", "-n", "-r", str(capture), "-Y", "tcp", "-o", "tcp.desegment_tcp_streams:FALSE",
           "-o", "tcp.analyze_sequence_numbers:FALSE", "-T", "fields", "-E", "separator=\t"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    by_stream = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < len(FIELDS) or not parts[0]:
            continue
        stream, sport, dport, syn, ack, payload = parts[:6]
        by_stream.setdefault(int(stream), []).append(
            (int(sport), int(dport), syn in ("1", "True"), ack in ("1", "True"),
             bytes.fromhex(payload.replace(":", "")) if payload else b""))
    return by_stream


def server_port(segs):
    for sport, dport, syn, ack, _ in segs:
        if syn and not ack:
            return dport
    ports = {segs[0][0], segs[0][1]}
    inrange = ports & SQLNET_PORTS
    return min(inrange) if inrange else min(ports)


def seed(segs, max_len: int):
    srv = server_port(segs)
    config = 0x00 if srv in SQLNET_PORTS else 0x01
    out = bytearray([config])
    for sport, dport, _syn, _ack, payload in segs:
        if not payload:
            continue
        direction = 1 if sport == srv else 0
        c = chunk(direction, payload)
        if len(out) + len(c) > max_len:
            return bytes(out)
        out += c
    return bytes(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--max-len", type=int, default=65536)
    ap.add_argument("captures", nargs="+", type=Path)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    n = 0
    for cap in args.captures:
        for _stream, segs in sorted(streams(cap).items()):
            data = seed(segs, args.max_len)
            if len(data) <= 1:
                continue
            name = f"{cap.stem}-{hashlib.sha1(data).hexdigest()[:12]}"
            (args.out / name).write_bytes(data)
            n += 1
    print(f"{n} seeds in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
