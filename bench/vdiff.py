#!/usr/bin/env python3
"""Decoding unchanged: tshark -V and -2 -V of every test and public capture,
before and after a change, compared byte for byte.

    bench/vdiff.py snapshot --so build/plugins/4.0/epan/sqlnet.so --out /tmp/base
    (change, rebuild)
    bench/vdiff.py snapshot --so build/plugins/4.0/epan/sqlnet.so --out /tmp/after
    bench/vdiff.py compare /tmp/base /tmp/after

--modes picks the runs (default V,2V): V and 2V (-V, -2 -V), S (the summary
lines), E and 2E (-q -z expert in one pass and two): the last three are
passes without a tree, where the first pass's shortcuts run; Z (-q with the
reports -z sqlnet,stmt, sqlnet,rt and sqlnet,conv: the statement account and
the patterns behind them); 2S (the summary lines of the second pass) and X
(custom columns over a tree that is not shown: an expert field and two
round-trip fields).

The .so must sit in a folder named for its release (<release>/epan/sqlnet.so,
as the build leaves it): the release is read from its path.

A snapshot keeps each output gzipped with its SHA-256 in index.tsv; compare
lists the captures whose outputs differ (exit 1 if any).  As root tshark runs
as nobody (root tshark ignores WIRESHARK_PLUGIN_DIR).
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
PUBLIC = Path(os.environ.get("SQLNET_CORPUS", ROOT.parent / "shared" / "captures" / "public"))


def captures():
    out = sorted((ROOT / "test-captures").glob("*.pcap*"))
    out += sorted(PUBLIC.glob("*/*.pcap*"))
    return out


# the runs per capture, by name: tshark's arguments after -n -r CAPTURE
V_MODES = {"V": ["-V"], "2V": ["-2", "-V"]}
# more runs, by --modes: passes without a tree (summary lines, the expert
# tap in one pass and in two)
MORE_MODES = {"S": [], "E": ["-q", "-z", "expert"], "2E": ["-2", "-q", "-z", "expert"],
              "Z": ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,rt", "-z", "sqlnet,conv"],
              # summary lines on the second pass; columns over a tree that is
              # not shown (custom columns: an expert field and a round-trip one)
              "2S": ["-2"],
              "X": ["-o", 'gui.column.format:"No.","%m","Info","%i","Expert","%Cus:_ws.expert.message:0:R",'
                          '"Rows","%Cus:sqlnet.rows:0:U","Wait","%Cus:sqlnet.rt.wait:0:R"']}
ALL_MODES = {**V_MODES, **MORE_MODES}


def snapshot(outdir, modes=V_MODES, so=None, plugins=None, jobs=1):
    """Each capture through tshark once per mode, with the plugin `so` (and
    lua/) or a whole staged plugin folder `plugins` (<release>/epan/sqlnet.so
    and the Lua scripts); outputs kept gzipped, their SHA-256 in index.tsv.
    bench/advise_diff.py takes it with its own modes."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp(prefix="sqlnet-vdiff-"))
    if plugins:
        shutil.copytree(plugins, sandbox / "plugins")
    else:
        release = Path(so).resolve().parent.parent.name
        plug = sandbox / "plugins" / release / "epan"
        plug.mkdir(parents=True)
        shutil.copy2(so, plug / "sqlnet.so")
        for f in (ROOT / "lua").glob("*.lua"):
            shutil.copy2(f, sandbox / "plugins" / f.name)
    home = sandbox / "home"
    home.mkdir()
    caps = sandbox / "caps"
    caps.mkdir()
    work = []
    for i, cap in enumerate(captures()):
        local = caps / f"{i:04d}{''.join(cap.suffixes[-1:])}"
        shutil.copy2(cap, local)
        name = str(cap.relative_to(ROOT)) if cap.is_relative_to(ROOT) else f"public/{cap.parent.name}/{cap.name}"
        work += [(i, name, local, mode) for mode in modes]
    for d in [sandbox, *sandbox.rglob("*")]:
        os.chmod(d, 0o777 if d == home else (0o755 if d.is_dir() else 0o644))
    vars_ = [f"WIRESHARK_PLUGIN_DIR={sandbox / 'plugins'}", f"HOME={home}", "LC_ALL=C.UTF-8"]
    env = dict(os.environ, **dict(v.split("=", 1) for v in vars_))
    pre = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", *vars_] \
        if os.geteuid() == 0 else []

    def one(w):
        i, name, local, mode = w
        p = subprocess.run(pre + ["tshark", "-n", "-r", str(local), *modes[mode]], env=env, capture_output=True)
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
    s.add_argument("--so", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--modes", default="V,2V", help="comma-separated, of " + ",".join(ALL_MODES))
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    if args.cmd == "snapshot":
        names = args.modes.split(",")
        unknown = [m for m in names if m not in ALL_MODES]
        if unknown:
            ap.error(f"unknown modes {unknown}")
        snapshot(args.out, modes={m: ALL_MODES[m] for m in names}, so=args.so, jobs=args.jobs)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
