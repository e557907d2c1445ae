#!/usr/bin/env python3
"""The advisor's output unchanged: -z sqlnet,advise with every option the
tests use, on every test capture and every public capture, before and after
a change, compared byte for byte (bench/vdiff.py's snapshot and compare, with these runs).

    bench/advise_diff.py snapshot --plugins DIR --out /tmp/base     # DIR: a build/plugins copy
    (change, rebuild)
    bench/advise_diff.py snapshot --plugins build/plugins --out /tmp/after
    bench/advise_diff.py compare /tmp/base /tmp/after

DIR holds <release>/epan/sqlnet.so and the Lua scripts (./run.sh build
stages both in build/plugins).  Three runs per capture:
  A   -q and, in one run, -z sqlnet,advise plain, format=json, format=csv,
      sizes=1,7,250,sdus=1024,3000 and sizes=3,8,20,50,prefetch=fixed (no
      filter: the run builds no protocol tree when nothing else asks for one)
  F   -q -z sqlnet,advise,sqlnet.call (a filter: a tree)
  2   -2 -q -z sqlnet,advise (the second pass)
stdout and stderr, hashed; compare lists the captures whose outputs differ
(exit 1 if any).  As root tshark runs as nobody (root tshark ignores
WIRESHARK_PLUGIN_DIR).
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from vdiff import compare, snapshot  # noqa: E402

ADVISE = ["sqlnet,advise", "sqlnet,advise,format=json", "sqlnet,advise,format=csv",
          "sqlnet,advise,sizes=1,7,250,sdus=1024,3000", "sqlnet,advise,sizes=3,8,20,50,prefetch=fixed"]
MODES = {
    "A": ["-q"] + [x for z in ADVISE for x in ("-z", z)],
    "F": ["-q", "-z", "sqlnet,advise,sqlnet.call"],
    "2": ["-2", "-q", "-z", "sqlnet,advise"],
}


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("--plugins", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--jobs", type=int, default=2)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.out, MODES, plugins=args.plugins, jobs=args.jobs)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
