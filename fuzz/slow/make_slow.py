#!/usr/bin/env python3
"""The fuzz-found slow shapes of issue 38, rebuilt as fuzz/sqlnet_fuzzer
inputs (fuzz/fz_input.h) and pcaps (fuzz/to_pcap.py), so that anyone can
replay them:

  tiny-per-segment-N   TNS DATA packets of 21 bytes, N of them per TCP segment,
                       client to server, on port 1521 after a handshake: the
                       same stream of tiny packets cut into segments of
                       N * 21 bytes.  N = 3118 is what the fuzzer found (one
                       chunk of 21 bytes repeated: 27 bytes of input that
                       expand to 4 MiB, 65,495-byte segments); N = 98 is the
                       same packets in small segments.
  gap-before-big-data  the slow unit of docs/robustness.md as described there
  gap-inside-big-data  (7.8 KB of input, a 1.3 MB DATA packet reassembled
                       from 64 KB segments after a lost one; the input was
                       not kept): a real handshake, then 1.3 MB DATA packets,
                       4 MB in all, a segment lost before or inside the first.

    fuzz/slow/make_slow.py OUTDIR [--packets P]        writes OUTDIR/<name>.in and .pcap
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from to_pcap import DIR_SERVER, GAP, MAX_SEGMENT, chunk, write_pcap  # noqa: E402

# A TNS DATA packet of 21 bytes: header (length 21, type 6), data flags 0,
# then 11 bytes of TTC: a piggyback-less function call header (03 = TTIFUN)
# for function 0x5e, sequence 1, and padding that decodes as nothing more.
TINY = bytes([0x00, 0x15, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
              0x00, 0x00,
              0x03, 0x5e, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
assert len(TINY) == 21


def tiny_per_segment(per_segment, packets):
    """Config byte 0 (handshake, port 1521), then chunks of per_segment
    packets until `packets` are sent; one repeated chunk when a segment holds
    all it can (the fuzzer's 27-byte shape)."""
    seg = TINY * per_segment
    if len(seg) > MAX_SEGMENT:
        raise ValueError("a segment holds at most %d packets" % (MAX_SEGMENT // len(TINY)))
    if per_segment == MAX_SEGMENT // len(TINY) and packets > per_segment:
        # one chunk: the harness cuts the repeated payload into full segments
        out = bytes([0])
        left = packets
        while left > 0:
            n = min(left, 0xFFFF)
            out += chunk(0, TINY, n)
            left -= n
        return out
    out = bytearray([0])
    for i in range(0, packets, per_segment):
        out += chunk(0, TINY * min(per_segment, packets - i))
    return bytes(out)


def handshake_segments():
    """(side, payload) of test-captures/arraysize_100.pcapng up to its first
    query's answer: CONNECT/ACCEPT at TNS version 319 (4-byte lengths after
    it), login, OALL8 and its response (tshark reads the capture)."""
    sys.path.insert(0, str(HERE.parent.parent / "tests" / "regressions"))
    sys.path.insert(0, str(HERE.parent.parent / "tests"))
    from make_hostile import SOURCE, segments  # noqa: E402
    return segments(SOURCE)[:14]


def gap_big_data(inside=False, big=1300000, count=3):
    """The slow unit of docs/robustness.md as described there (the input
    itself was not kept): a real handshake and login, then server DATA
    packets of 1.3 MB (4-byte length) sent as 64 KB segments, 4 MB in all,
    with a segment lost before the first one (inside=False) or in its
    middle (inside=True).  The body repeats 10-byte TNS DATA headers, so
    that the search for the next header after the gap finds candidates."""
    unit = bytes([0x00, 0x15, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00]) * 10
    out = bytearray([0])
    for side, payload in handshake_segments():
        out += chunk(DIR_SERVER if side == "S" else 0, payload)
    body = big - 10
    for i in range(count):
        gap = GAP if i == 0 else 0
        out += chunk(DIR_SERVER | (0 if inside else gap), big.to_bytes(4, "big") + bytes([6, 0, 0, 0, 0, 0]))
        half = (body // 2) // len(unit) if inside else 0
        if half:
            out += chunk(DIR_SERVER, unit, half)
        rest = body - half * len(unit)
        out += chunk(DIR_SERVER | (gap if inside else 0), unit, rest // len(unit))
        if rest % len(unit):
            out += chunk(DIR_SERVER, unit[:rest % len(unit)])
    return bytes(out)


def shapes(packets):
    return {
        "tiny-per-segment-98": tiny_per_segment(98, packets),
        "tiny-per-segment-3118": tiny_per_segment(3118, packets),
        "gap-before-big-data": gap_big_data(False),
        "gap-inside-big-data": gap_big_data(True),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--packets", type=int, default=199740)
    args = ap.parse_args()
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in shapes(args.packets).items():
        (out / (name + ".in")).write_bytes(data)
        write_pcap(out / (name + ".pcap"), data)
        print(name, len(data), "bytes of input")


if __name__ == "__main__":
    main()
