#!/usr/bin/env python3
"""What the advisor's predictions cost on a capture of 100,000 round trips (issue 23).

Target: under 1 s of the report's time.  The advisor reads the same round
trips as -z sqlnet,stmt and then fits and predicts; its cost is measured side
by side in one run: -z sqlnet,stmt and -z sqlnet,advise interleaved on the
same capture, the difference of their medians (wall and CPU time, user +
system; CPU time is less sensitive to other load on the machine).  The
difference holds the advisor's reading of the round trips in Lua as well as
its fits, predictions and rendering, so it bounds the predictions' cost from
above.

The capture (not committed): one python-oracledb session fetching ROWS rows
at array sizes 1 and 2 (rows + rows / 2 round trips: 100,000 at 66,666
rows), made by the generator into a temporary folder:

    python3 testgen/generate.py --bench --rows 66666 --sizes 1,2 --out DIR

    bench/predict_bench.py [--runs 3] [--round-trips 100000] [--capture CAP] [--keep DIR] [--lua DIR]
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from advise_bench import Runner  # noqa: E402
import bench_capture  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    bench_capture.add_arguments(ap, 100_000)
    ap.add_argument("--lua", type=Path, help="the Lua reports from this folder (default lua/), e.g. an older "
                    "version's (git show REV:lua/sqlnet_advise.lua)")
    args = ap.parse_args()
    res = {"stmt": [], "advise": []}
    with bench_capture.capture(args, "sqlnet-predict-bench-") as cap:
        # the round trips the scripted server counted (its manifest, when there is one)
        man = cap.with_suffix(".json")
        rts = (sum(c["stats"]["round_trips"] for c in json.loads(man.read_text())["connections"])
               if man.exists() else None)
        r = Runner(args.lua)
        try:
            for i in range(args.runs):
                for key in res:
                    wall, rss, cpu = r.run(cap, ["-z", f"sqlnet,{key}"])
                    res[key].append((wall, cpu, rss))
                    print(f"run {i + 1}/{args.runs} {key}: {wall:.2f} s, {cpu:.2f} s CPU, {rss:.0f} MiB",
                          file=sys.stderr)
        finally:
            r.close()
        size = cap.stat().st_size
        name = cap.name

    def med(key, idx):
        return statistics.median(v[idx] for v in res[key])

    print(f"Capture: {name}, {size / 1e6:.1f} MB, "
          f"{rts if rts is not None else 'unknown'} round trips (server-counted); medians of {args.runs} runs")
    print("| report | wall time (s) | CPU time (s) | peak RSS (MiB) |\n|---|---:|---:|---:|")
    for key in res:
        print(f"| -z sqlnet,{key} | {med(key, 0):.2f} | {med(key, 1):.2f} | {med(key, 2):.0f} |")
    print(f"| advise - stmt | {med('advise', 0) - med('stmt', 0):.2f} | {med('advise', 1) - med('stmt', 1):.2f} | "
          f"{med('advise', 2) - med('stmt', 2):.0f} |  (target: under 1 s)")


if __name__ == "__main__":
    main()
