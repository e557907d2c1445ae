#!/usr/bin/env python3
"""The SQL*Net views of issue 37 against their TCP-only equivalents on a
capture of about 5,000 round trips: each view within 1.5x of the time
Wireshark takes for the same view of TCP.

    flow     tshark -z flow,sqlnet,standard    vs  -z flow,tcp,standard
    follow   tshark -z follow,sqlnet,ascii,0   vs  -z follow,tcp,ascii,0
    conv     tshark -z sqlnet,conv             vs  -z conv,tcp
    table    tshark -z sqlnet,conv_table       vs  -z conv,tcp

tshark does what the window does when it opens (Wireshark retaps the file
with the view's listener), so the time of a tshark run is the time the view
takes to fill, dissection included.  The runs are interleaved (a b a b ...)
so that background load hits both alike; medians of wall and CPU time
(user + system) come from wait4() on the tshark process.

The capture (not committed): one python-oracledb session fetching rows at
array sizes 1 and 2 (rows + rows / 2 round trips), made by the generator:

    python3 testgen/generate.py --bench --rows 3334 --sizes 1,2 --out DIR

    bench/flow_bench.py [--runs 5] [--round-trips 5000] [--capture CAP] [--keep DIR]
"""
import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from advise_bench import Runner  # noqa: E402

LIMIT = 1.5
VIEWS = [
    ("flow", ["-z", "flow,sqlnet,standard"], ["-z", "flow,tcp,standard"]),
    ("follow", ["-z", "follow,sqlnet,ascii,0"], ["-z", "follow,tcp,ascii,0"]),
    ("conv", ["-z", "sqlnet,conv"], ["-z", "conv,tcp"]),
    ("table", ["-z", "sqlnet,conv_table"], ["-z", "conv,tcp"]),
]


def generate(round_trips, out):
    rows = round_trips * 2 // 3          # array size 1 and 2: rows + rows / 2 round trips
    proc = subprocess.run([sys.executable, str(ROOT / "testgen" / "generate.py"), "--bench", "--rows", str(rows),
                           "--sizes", "1,2", "--out", str(out)], capture_output=True, text=True)
    print(proc.stdout.strip(), file=sys.stderr)
    if proc.returncode != 0:
        sys.exit(f"generate.py failed:\n{proc.stderr[-2000:]}")
    return out / "bench.pcapng"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--round-trips", type=int, default=5000)
    ap.add_argument("--capture", type=Path, help="use this capture instead of generating one")
    ap.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = ap.parse_args()
    tmp = None
    cap = args.capture
    if cap is None:
        out = args.keep or Path(tempfile.mkdtemp(prefix="sqlnet-flow-bench-"))
        tmp = None if args.keep else out
        out.mkdir(parents=True, exist_ok=True)
        cap = generate(args.round_trips, out)
    cap = cap.resolve()
    r = Runner()
    res = {(v, side): [] for v, _, _ in VIEWS for side in ("sqlnet", "tcp")}
    try:
        subprocess.run(["cat", str(cap)], stdout=subprocess.DEVNULL, check=True)     # page cache
        for i in range(args.runs):
            for view, zs, zt in VIEWS:
                for side, z in (("sqlnet", zs), ("tcp", zt)):
                    wall, rss, cpu = r.run(cap, z)
                    res[(view, side)].append((wall, cpu))
            print(f"run {i + 1}/{args.runs} done", file=sys.stderr)
    finally:
        r.close()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"capture: {cap.name}, {cap.stat().st_size / 1e6:.1f} MB, runs: {args.runs} (medians)")
    print(f"{'view':8} {'sqlnet wall':>12} {'tcp wall':>10} {'ratio':>6} {'sqlnet cpu':>11} {'tcp cpu':>9} "
          f"{'ratio':>6}  verdict")
    worst = 0.0
    for view, _, _ in VIEWS:
        sw = statistics.median(w for w, _ in res[(view, "sqlnet")])
        tw = statistics.median(w for w, _ in res[(view, "tcp")])
        sc = statistics.median(c for _, c in res[(view, "sqlnet")])
        tc = statistics.median(c for _, c in res[(view, "tcp")])
        ratio = sc / tc if tc else float("inf")
        worst = max(worst, ratio)
        print(f"{view:8} {sw:11.2f}s {tw:9.2f}s {sw / tw:6.2f} {sc:10.2f}s {tc:8.2f}s {ratio:6.2f}  "
              f"{'ok' if ratio <= LIMIT else 'OVER ' + str(LIMIT) + 'x'}")
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
