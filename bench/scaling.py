#!/usr/bin/env python3
"""Nothing quadratic in TNS packets per TCP segment (issue 38): the same
stream of tiny TNS packets (fuzz/slow/make_slow.py: 21-byte DATA packets,
the fuzz-found shape) cut into segments of N packets, N doubling from 98 to
3,118, read by tshark with sqlnet (one pass, and -2); and the slow unit of
docs/robustness.md as make_slow.py rebuilds it, per KB of capture.

CPU seconds (user + system of the tshark process, wait4) are medians of
--runs interleaved runs, less the median of a capture holding only the TCP
handshake (tshark's start-up).  It fails (exit 1) when doubling the packets
per segment more than doubles the time, when the widest segments cost more
than 1.2 times the narrowest (the issue's target for 3,118 vs 98), or when a
slow input takes more than 10 ms per KB of capture.

    python3 bench/scaling.py [--packets 199740] [--runs 5] [--sizes 98,196,...] [--out FILE]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "fuzz"))
sys.path.insert(0, str(ROOT / "fuzz" / "slow"))
sys.path.insert(0, str(ROOT / "tests"))

from bench import Runner  # noqa: E402
import make_slow  # noqa: E402
from to_pcap import write_pcap  # noqa: E402

SIZES = [98, 196, 392, 779, 1559, 3118]
MS_PER_KB = 10.0
WIDEST_VS_NARROWEST = 1.2   # issue 38: 3,118 vs 98 packets per segment
MODES = [("one pass", []), ("-2", ["-2"])]


def cpu(runner, capture, args):
    """CPU seconds (user + system) of one tshark run."""
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(runner.cmd(capture, args), stdout=null, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"tshark failed on {capture}: {err.read().decode()[:2000]}")
        err.seek(0)
        msg = err.read().decode().strip()
        if msg:
            sys.exit(f"tshark wrote to stderr on {capture}: {msg[:500]}")
    return ru.ru_utime + ru.ru_stime


def build(work, sizes, packets, slow):
    caps = {"start-up": work / "start-up.pcap"}
    write_pcap(caps["start-up"], bytes([0]))
    for n in sizes:
        caps[n] = work / f"tiny-per-segment-{n}.pcap"
        write_pcap(caps[n], make_slow.tiny_per_segment(n, packets))
    if slow:
        for name, inside in (("gap-before-big-data", False), ("gap-inside-big-data", True)):
            caps[name] = work / f"{name}.pcap"
            write_pcap(caps[name], make_slow.gap_big_data(inside))
    for c in caps.values():
        os.chmod(c, 0o644)
    return caps, {k: c.stat().st_size for k, c in caps.items()}


def measure(runner, caps, runs, modes):
    res = {(k, m): [] for k in caps for m, _ in modes}
    for _ in range(runs):
        for k, cap in caps.items():
            for m, args in modes:
                res[(k, m)].append(cpu(runner, cap, args))
    return res


def report(sizes_of, res, sizes, packets, runs, modes):
    """(text, failures); sizes_of: capture bytes by key."""
    fails = []
    lines = [f"{packets} TNS packets of 21 bytes, N per TCP segment: CPU seconds, median of {runs} "
             "interleaved runs, less tshark's start-up", "",
             "| packets per segment | " + " | ".join(f"{m} | x previous" for m, _ in modes) + " |",
             "|---:|" + "---:|---:|" * len(modes)]
    net = {}
    for m, _ in modes:
        base = statistics.median(res[("start-up", m)])
        for n in sizes:
            net[(n, m)] = max(statistics.median(res[(n, m)]) - base, 0.001)
    prev = None
    for n in sizes:
        row = [str(n)]
        for m, _ in modes:
            row.append("%.3f" % net[(n, m)])
            if prev is None:
                row.append("")
            else:
                r = net[(n, m)] / net[(prev, m)]
                row.append("%.2f" % r)
                if n <= 2 * prev and r > 2.0:
                    fails.append(f"{m}: {prev} -> {n} packets per segment: time x{r:.2f} (more than doubles)")
        lines.append("| " + " | ".join(row) + " |")
        prev = n
    if len(sizes) > 1:
        lines += ["", "%d vs %d packets per segment: " % (sizes[-1], sizes[0]) + ", ".join(
            "%s x%.2f" % (m, net[(sizes[-1], m)] / net[(sizes[0], m)]) for m, _ in modes)]
        for m, _ in modes:
            r = net[(sizes[-1], m)] / net[(sizes[0], m)]
            if r > WIDEST_VS_NARROWEST:
                fails.append(f"{m}: {sizes[-1]} vs {sizes[0]} packets per segment: x{r:.2f} "
                             f"(limit {WIDEST_VS_NARROWEST})")
    slow = [k for k in sizes_of if isinstance(k, str) and k != "start-up"]
    if slow:
        lines += ["", "| slow input | capture KB | " + " | ".join(f"{m} s | ms per KB" for m, _ in modes) + " |",
                  "|---|---:|" + "---:|---:|" * len(modes)]
        for k in slow:
            kb = sizes_of[k] / 1024.0
            row = [k, "%.0f" % kb]
            for m, _ in modes:
                t = statistics.median(res[(k, m)])
                row += ["%.2f" % t, "%.3f" % (1000 * t / kb)]
                if 1000 * t / kb > MS_PER_KB:
                    fails.append(f"{k} ({m}): {1000 * t / kb:.1f} ms per KB (limit {MS_PER_KB})")
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines), fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--packets", type=int, default=199740)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--no-slow", action="store_true", help="skip the slow-unit inputs")
    ap.add_argument("--one-pass", action="store_true", help="without the -2 runs")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--no-limits", action="store_true",
                    help="print the table and the limits crossed, exit 0 (tests: timing on a shared "
                         "machine is no verdict; tshark failing still exits 1)")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    modes = MODES[:1] if a.one_pass else MODES
    work = Path(tempfile.mkdtemp(prefix="sqlnet-scaling-"))
    os.chmod(work, 0o755)
    runner = Runner()
    try:
        caps, sizes_of = build(work, sizes, a.packets, not a.no_slow)
        res = measure(runner, caps, a.runs, modes)
    finally:
        runner.close()
        shutil.rmtree(work, ignore_errors=True)
    text, fails = report(sizes_of, res, sizes, a.packets, a.runs, modes)
    print(text)
    for f in fails:
        print("FAIL:", f)
    if a.out:
        a.out.write_text(text + "\n")
    return 1 if fails and not a.no_limits else 0


if __name__ == "__main__":
    sys.exit(main())
