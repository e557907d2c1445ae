#!/usr/bin/env python3
"""Peak RSS of one long conversation of single-row round trips (issue 38):
test-captures/arraysize_1.pcapng's fetch round trips (python-oracledb,
arraysize 1: each fetch asks for one row and gets one) repeated after its
logon until the conversation holds N round trips, read by the built-in tns
(b) and by sqlnet (c), interleaved, medians of --runs.  Prints the RSS of
each, their ratio (target <= 1.2 at every N) and the bytes sqlnet keeps per
added round trip beyond what tns keeps.

    python3 bench/rt_memory.py [--sizes 25000,50000,100000,200000] [--runs 3] [--out FILE]
"""
import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "regressions"))

from bench import Runner, machine  # noqa: E402

SOURCE = ROOT / "test-captures" / "arraysize_1.pcapng"
CONFIGS = [
    ("b", "built-in tns", ["--disable-protocol", "sqlnet", "-d", "tcp.port==1521,tns"]),
    ("c", "sqlnet", []),
]


def single_row_capture(n, out):
    """The logon of arraysize_1.pcapng, then n single-row fetch round trips
    (its fetches that return one row, repeated), then its close."""
    import make_hostile as mh
    import pcapgen as g
    segs = mh.segments(SOURCE)
    fetch = [i for i, s in enumerate(segs) if mh.is_fetch(*s)]
    first, last = fetch[0], fetch[-1]
    end = last + 1
    while end < len(segs) and segs[end][0] == "S":
        end += 1
    units, i = [], first
    while i < end:
        k = i + 1
        while k < end and segs[k][0] == "S":
            k += 1
        units.append(segs[i:k])
        i = k
    unit = units[len(units) // 2]          # one fetch asking one row, answered with one
    conv = g.Conversation()
    for side, p in segs[:first]:
        conv.send(side, p)
    for _ in range(n):
        for side, p in unit:
            conv.send(side, p)
    for side, p in segs[end:]:
        conv.send(side, p)
    conv.write(out)
    return out


def format_table(sizes, res, runs):
    lines = [f"Machine: {machine()}", "",
             f"One conversation of single-row round trips: peak RSS (MiB, median of {runs} runs)", "",
             "| round trips | (b) tns | (c) sqlnet | ratio c/b | kept per added round trip (bytes) |",
             "|---:|---:|---:|---:|---:|"]
    prev = None
    for n in sizes:
        b, c = res[n]["b"], res[n]["c"]
        per = "" if prev is None else "%.0f" % (((c - b) - (prev[1] - prev[0])) * 1048576 / (n - prev[2]))
        lines.append(f"| {n} | {b:.1f} | {c:.1f} | {c / b:.3f} | {per} |")
        prev = (b, c, n)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="25000,50000,100000,200000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="sqlnet-rtmem-"))
    os.chmod(work, 0o755)
    caps = {}
    for n in sizes:
        caps[n] = single_row_capture(n, work / f"single_{n}.pcap")
        os.chmod(caps[n], 0o644)
    runner = Runner()
    res = {n: {c: [] for c, _, _ in CONFIGS} for n in sizes}
    try:
        for _ in range(a.runs):
            for n in sizes:
                for c, _, args in CONFIGS:
                    res[n][c].append(runner.run(caps[n], ["-q"] + args)[1])
    finally:
        runner.close()
    med = {n: {c: statistics.median(v) for c, v in d.items()} for n, d in res.items()}
    text = format_table(sizes, med, a.runs)
    print(text)
    if a.out:
        a.out.write_text(text + "\n")
    return 0 if all(med[n]["c"] / med[n]["b"] <= 1.2 for n in sizes) else 1


if __name__ == "__main__":
    sys.exit(main())
