#!/usr/bin/env python3
"""The advisor's output unchanged: -z sqlnet,advise with every option the
tests use, on every test capture and every public capture, before and after
a change, compared byte for byte (as bench/vdiff.py does for -V).

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
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from vdiff import captures  # noqa: E402

ADVISE = ["sqlnet,advise", "sqlnet,advise,format=json", "sqlnet,advise,format=csv",
          "sqlnet,advise,sizes=1,7,250,sdus=1024,3000", "sqlnet,advise,sizes=3,8,20,50,prefetch=fixed"]
MODES = {
    "A": ["-q"] + [x for z in ADVISE for x in ("-z", z)],
    "F": ["-q", "-z", "sqlnet,advise,sqlnet.call"],
    "2": ["-2", "-q", "-z", "sqlnet,advise"],
}


def snapshot(plugins, outdir, jobs):
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp(prefix="sqlnet-adiff-"))
    shutil.copytree(plugins, sandbox / "plugins")
    home = sandbox / "home"
    home.mkdir()
    caps = sandbox / "caps"
    caps.mkdir()
    env = dict(os.environ, WIRESHARK_PLUGIN_DIR=str(sandbox / "plugins"), HOME=str(home), LC_ALL="C.UTF-8")
    pre = []
    if os.geteuid() == 0:
        pre = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env",
               f"WIRESHARK_PLUGIN_DIR={sandbox / 'plugins'}", f"HOME={home}", "LC_ALL=C.UTF-8"]
    work = []
    for i, cap in enumerate(captures()):
        local = caps / f"{i:04d}{''.join(cap.suffixes[-1:])}"
        shutil.copy2(cap, local)
        name = str(cap.relative_to(ROOT)) if cap.is_relative_to(ROOT) else f"public/{cap.parent.name}/{cap.name}"
        for mode in MODES:
            work.append((i, name, local, mode))
    for d in [sandbox, *sandbox.rglob("*")]:
        os.chmod(d, 0o777 if d == home else (0o755 if d.is_dir() else 0o644))

    def one(w):
        i, name, local, mode = w
        p = subprocess.run(pre + ["tshark", "-n", "-r", str(local), *MODES[mode]], env=env, capture_output=True)
        digest = hashlib.sha256(p.stdout + b"\0" + p.stderr).hexdigest()
        fn = f"{i:04d}.{mode}.gz"
        with gzip.open(outdir / fn, "wb") as fh:
            fh.write(p.stdout + b"\n--- stderr ---\n" + p.stderr)
        return f"{name}\t{mode}\t{digest}\t{fn}\n"

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        lines = list(ex.map(one, work))
    (outdir / "index.tsv").write_text("".join(lines))
    shutil.rmtree(sandbox, ignore_errors=True)
    print(f"{len(lines)} outputs in {outdir}")


def compare(a, b):
    def load(d):
        return {(r[0], r[1]): (r[2], r[3]) for r in
                (l.split("\t") for l in (Path(d) / "index.tsv").read_text().splitlines())}
    ia, ib = load(a), load(b)
    bad = [k for k in sorted(set(ia) | set(ib)) if ia.get(k, ("",))[0] != ib.get(k, ("",))[0]]
    for k in bad:
        print("DIFFERS:", *k, ia.get(k, ("", "-"))[1], ib.get(k, ("", "-"))[1])
    print(f"{len(ia)} vs {len(ib)} outputs, {len(bad)} differ")
    return 1 if bad else 0


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
        snapshot(args.plugins, args.out, args.jobs)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
