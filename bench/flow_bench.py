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

The capture (not committed; bench/bench_capture.py, shared with
predict_bench.py): one python-oracledb session fetching rows at array sizes 1
and 2 (rows + rows / 2 round trips), made by the generator.  The table has
the medians of CPU time (user + system) with their spread (lowest-highest of
the runs) and the ratio of the medians; --save writes it, with the machine,
to bench/saved/flow_bench.md, which docs/views.md quotes (tests/
test_conv_views.py checks the page against the saved file).

    bench/flow_bench.py [--runs 5] [--round-trips 5000] [--capture CAP] [--keep DIR] [--save]
"""
import argparse
import json
import os
import platform
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from advise_bench import Runner  # noqa: E402
import bench_capture  # noqa: E402

LIMIT = 1.5
SAVED = ROOT / "bench" / "saved" / "flow_bench.md"
VIEWS = [
    ("Flow Graph", "flow,sqlnet", ["-z", "flow,sqlnet,standard"], "flow,tcp", ["-z", "flow,tcp,standard"]),
    ("Follow", "follow,sqlnet", ["-z", "follow,sqlnet,ascii,0"], "follow,tcp", ["-z", "follow,tcp,ascii,0"]),
    ("Conversations", "sqlnet,conv", ["-z", "sqlnet,conv"], "conv,tcp", ["-z", "conv,tcp"]),
    ("the table", "sqlnet,conv_table", ["-z", "sqlnet,conv_table"], "conv,tcp", ["-z", "conv,tcp"]),
]


def machine():
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def format_table(res, runs, rts_note):
    """The markdown table of the runs: res[(view, side)] = [cpu seconds]."""
    out = [f"Medians of {runs} interleaved runs, CPU time (user + system), spread lowest-highest; {rts_note}",
           "",
           "| view | SQL*Net | TCP equivalent | ratio | within 1.5x |",
           "|---|---|---|---|---|"]
    for view, sq, _, tc, _ in VIEWS:
        a, b = res[(view, "sqlnet")], res[(view, "tcp")]
        ma, mb = statistics.median(a), statistics.median(b)
        ratio = ma / mb if mb else float("inf")
        out.append(f"| {view} (`{sq}` vs `{tc}`) | {ma:.2f} s ({min(a):.2f}-{max(a):.2f}) | "
                   f"{mb:.2f} s ({min(b):.2f}-{max(b):.2f}) | {ratio:.2f} | {'yes' if ratio <= LIMIT else 'NO'} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    bench_capture.add_arguments(ap, 5000)
    ap.add_argument("--save", action="store_true", help=f"write the table to {SAVED.relative_to(ROOT)}")
    args = ap.parse_args()
    res = {(v[0], side): [] for v in VIEWS for side in ("sqlnet", "tcp")}
    with bench_capture.capture(args, "sqlnet-flow-bench-") as cap:
        r = Runner()
        try:
            for i in range(args.runs):
                for view, _, zs, _, zt in VIEWS:
                    for side, z in (("sqlnet", zs), ("tcp", zt)):
                        wall, rss, cpu = r.run(cap, z)
                        res[(view, side)].append(cpu)
                print(f"run {i + 1}/{args.runs} done", file=sys.stderr)
        finally:
            r.close()
        note = f"capture {cap.name}, {cap.stat().st_size / 1e6:.1f} MB"
        man = cap.with_suffix(".json")
        if man.exists():   # the round trips the scripted server counted
            rts = sum(c["stats"]["round_trips"] for c in json.loads(man.read_text())["connections"])
            note += f", {rts} round trips (server-counted)"
    table = format_table(res, args.runs, note)
    print(f"Machine: {machine()}\n\n{table}")
    if args.save:
        SAVED.write_text(f"Machine: {machine()}\n\n{table}\n")
    worst = max(statistics.median(res[(v[0], "sqlnet")]) / statistics.median(res[(v[0], "tcp")]) for v in VIEWS)
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
