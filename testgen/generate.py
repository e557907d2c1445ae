#!/usr/bin/env python3
"""Regenerate the SQL*Net test-capture catalogue (see testgen/README.md).

  python3 testgen/generate.py --list
  python3 testgen/generate.py --all                  # into test-captures/
  python3 testgen/generate.py --scenario arraysize_100 [--scenario ...] [--out DIR]
  python3 testgen/generate.py --ci                   # smoke: one scenario per client, verified
  python3 testgen/generate.py --bench --rows 1000000 --out DIR
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from sqlnetgen import catalog  # noqa: E402
from sqlnetgen.pipeline import PipelineError, Run, driver_available, netns_available  # noqa: E402
from sqlnetgen.verify import verify  # noqa: E402

DEFAULT_OUT = HERE.parent / "test-captures"


def run_one(scn: dict, out: Path, mode: str | None, verbose: bool) -> tuple[bool, str]:
    ok, why = driver_available(scn["client"])
    if not ok:
        return False, f"SKIP ({scn['client']}: {why})"
    t0 = time.time()
    try:
        man = Run(scn, out, mode=mode, verbose=verbose).execute()
    except (PipelineError, OSError) as exc:
        return False, f"FAIL {exc}"
    probs = verify(man)
    size = (out / man["capture"]).stat().st_size
    status = "ok" if not probs else "VERIFY FAILED: " + "; ".join(probs)
    host = man.get("host") or {}
    busy = (f"  (busy machine: load {host['load_average_1min']} on {host['cpus']} cores, timings "
            "include scheduling pauses)" if host.get("cpus") and host["load_average_1min"] > 0.5 * host["cpus"]
            else "")
    return not probs, (f"{status}  mode={man['mode']} rows={man['client']['rows_received']} "
                       f"size={size} B  {time.time() - t0:.1f}s{busy}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="generate the whole catalogue")
    ap.add_argument("--scenario", action="append", default=[], help="scenario name (repeatable)")
    ap.add_argument("--list", action="store_true", help="list scenarios")
    ap.add_argument("--out", type=Path, help="output directory (default test-captures/)")
    ap.add_argument("--ci", action="store_true", help="smoke test into a temp dir")
    ap.add_argument("--bench", action="store_true", help="benchmark capture (not committed)")
    ap.add_argument("--rows", type=int, default=1_000_000, help="rows of the benchmark table")
    ap.add_argument("--sizes", help="the benchmark's array sizes, comma-separated (default "
                    + ",".join(map(str, catalog.BENCH_ARRAY_SIZES)) + ")")
    ap.add_argument("--mode", choices=["netns", "loopback", "text2pcap"],
                    help="force a capture mode (default: netns if possible)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    scns = catalog.by_name()
    if args.list:
        for s in catalog.scenarios():
            print(f"{s['name']:24s} {s['client']:7s} {s['description']}")
        return 0
    if args.bench:
        out = args.out or Path(tempfile.mkdtemp(prefix="sqlnetgen-bench-"))
        ok, msg = run_one(catalog.bench_scenario(
            args.rows, [int(x) for x in args.sizes.split(",")] if args.sizes else None), out, args.mode, args.verbose)
        print(f"bench: {msg} -> {out}")
        return 0 if ok else 1
    if args.ci:
        out = args.out or Path(tempfile.mkdtemp(prefix="sqlnetgen-ci-"))
        ok_ns, why = netns_available()
        print(f"netns: {'available' if ok_ns else 'unavailable (' + why + ')'}")
        failures = 0
        for name in catalog.CI_SCENARIOS:
            ok, msg = run_one(scns[name], out, args.mode, args.verbose)
            print(f"{name}: {msg}")
            if not ok and not msg.startswith("SKIP"):
                failures += 1
        print(f"ci: {len(catalog.CI_SCENARIOS) - failures} passed, {failures} failed -> {out}")
        return 1 if failures else 0
    names = list(scns) if args.all else args.scenario
    if not names:
        ap.print_help()
        return 2
    unknown = [n for n in names if n not in scns]
    if unknown:
        print(f"unknown scenario(s): {unknown}; see --list", file=sys.stderr)
        return 2
    out = args.out or DEFAULT_OUT
    failures = 0
    for name in names:
        ok, msg = run_one(scns[name], out, args.mode, args.verbose)
        print(f"{name}: {msg}", flush=True)
        if not ok and not msg.startswith("SKIP"):
            failures += 1
    if args.all or out == DEFAULT_OUT:
        # the index lists every catalogue scenario with a manifest in the folder
        index = []
        for name in scns:
            mp = out / f"{name}.json"
            if mp.exists():
                m = json.loads(mp.read_text())
                index.append({"scenario": name, "capture": m["capture"], "client": m["client"]["driver"],
                              "mode": m["mode"], "mtu": m["mtu"], "bytes": m["capture_bytes"],
                              "rows": m["client"]["rows_received"], "description": m["description"]})
        (out / "INDEX.json").write_text(json.dumps(index, indent=1) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
