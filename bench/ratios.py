#!/usr/bin/env python3
"""Every ratio of issue 38's table in one run: sqlnet against the built-in
tns (b = --disable-protocol sqlnet -d tcp.port==1521,tns) on one capture,
side by side, as CPU medians of alternating pairs with their spread.

Rows (sqlnet configuration / reference configuration, target):
  plain       tshark -r                       / b                       <= 1.10
  stmt        -z sqlnet,stmt                  / b                       <= 1.10
  fields      -T fields, 11 sqlnet fields     / b, -T fields, 11 fields <= 1.10
  verbose     -V                              / b -V                    <= 1.15
  profile     -C SQLNet (profiles/ installed) / b, default profile      <= 1.15
  advise      -q -z sqlnet,advise             / -q -z sqlnet,stmt       <= 1.30
Each pair runs the two commands one after the other (their order alternates
from pair to pair); CPU = user + system of the tshark process (wait4), peak
RSS from the same.  The ratio is median(sqlnet) / median(reference); the
spread is the lowest and highest ratio of single pairs.

    python3 bench/ratios.py --capture FILE [--pairs 5] [--rows plain,stmt,...] [--json OUT] [--out OUT.md]
    python3 bench/ratios.py --format SAVED.json     # the table of a saved run

The saved JSON holds every run's figures; format_table() turns it into the
table docs/performance.md shows (tests/test_docs_perf.py checks that).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))

from bench import FIELDS, Runner, machine  # noqa: E402

BUILTIN = ["--disable-protocol", "sqlnet", "-d", "tcp.port==1521,tns"]
TNS_FIELDS = ["frame.number", "tns.type", "tns.length", "tns.packet_checksum", "tns.header_checksum",
              "tns.reserved_byte", "tns.data_flag", "tns.data_flag.eof", "tns.data_flag.more",
              "tns.marker.type", "tns.sdu_size"]
assert len(TNS_FIELDS) == len(FIELDS)


def fields(names):
    return ["-T", "fields"] + [x for f in names for x in ("-e", f)]


ROWS = [
    ("plain", "plain dissection", [], BUILTIN, 1.10),
    ("stmt", "-z sqlnet,stmt", ["-z", "sqlnet,stmt"], BUILTIN, 1.10),
    ("fields", "-T fields, 11 fields each", fields(FIELDS), BUILTIN + fields(TNS_FIELDS), 1.10),
    ("verbose", "-V", ["-V"], BUILTIN + ["-V"], 1.15),
    ("profile", "-C SQLNet vs the default profile with tns", ["-C", "SQLNet"], BUILTIN, 1.15),
    ("advise", "-z sqlnet,advise vs -z sqlnet,stmt", ["-q", "-z", "sqlnet,advise"],
     ["-q", "-z", "sqlnet,stmt"], 1.30),
]


class LuaRunner(Runner):
    """bench.Runner's sandbox plus the Lua reports and the SQLNet profile."""

    def __init__(self):
        super().__init__()
        for f in (ROOT / "lua").glob("*.lua"):
            shutil.copy2(f, self.box / "plugins" / f.name)
        subprocess.run([str(ROOT / "scripts" / "install_profile.sh"), "--home", str(self.home)],
                       check=True, capture_output=True)
        for d in self.box.rglob("*"):
            os.chmod(d, 0o777 if d.is_dir() and self.home in (d, *d.parents) else
                     (0o755 if d.is_dir() else 0o644))

    def cpu(self, capture, args):
        """(CPU seconds, peak RSS MiB) of one tshark run; stderr must stay empty."""
        with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(self.cmd(capture, args), stdout=null, stderr=err)
            _, status, ru = os.wait4(proc.pid, 0)
            err.seek(0)
            msg = err.read().decode().strip()
            if os.waitstatus_to_exitcode(status) != 0 or msg:
                sys.exit(f"tshark {' '.join(args)}: exit {os.waitstatus_to_exitcode(status)}: {msg[:1000]}")
        return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def measure(runner, capture, rows, pairs):
    out = {}
    for key, _label, c_args, b_args, _t in rows:
        runs = {"c_cpu": [], "b_cpu": [], "c_rss": [], "b_rss": []}
        for i in range(pairs):
            order = (("c", c_args), ("b", b_args)) if i % 2 == 0 else (("b", b_args), ("c", c_args))
            for side, args in order:
                t, rss = runner.cpu(capture, args)
                runs[side + "_cpu"].append(t)
                runs[side + "_rss"].append(rss)
        out[key] = runs
    return out


def format_table(saved):
    """The markdown table of a saved run (bench/ratios.py --json)."""
    lines = [f"Capture: {saved['capture']} ({saved['packets']} packets); {saved['pairs']} alternating pairs "
             "per row; CPU seconds (user + system), medians", "",
             "| path | sqlnet s | reference s | ratio | spread (pairs) | target | RSS ratio |",
             "|---|---:|---:|---:|---|---:|---:|"]
    for key, label, _c, _b, target in ROWS:
        r = saved["rows"].get(key)
        if not r:
            continue
        c, b = statistics.median(r["c_cpu"]), statistics.median(r["b_cpu"])
        pair = sorted(x / y for x, y in zip(r["c_cpu"], r["b_cpu"]))
        rss = statistics.median(r["c_rss"]) / statistics.median(r["b_rss"])
        verdict = "met" if c / b <= target else "missed"
        lines.append(f"| {label} | {c:.2f} | {b:.2f} | {c / b:.2f} | {pair[0]:.2f}-{pair[-1]:.2f} | "
                     f"<= {target:.2f} ({verdict}) | {rss:.2f} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capture", type=Path)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--rows", default=",".join(r[0] for r in ROWS))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--format", type=Path, help="print the table of a saved run")
    a = ap.parse_args()
    if a.format:
        print(format_table(json.loads(a.format.read_text())))
        return 0
    if not a.capture:
        ap.error("--capture is needed")
    keep = set(a.rows.split(","))
    rows = [r for r in ROWS if r[0] in keep]
    work = Path(tempfile.mkdtemp(prefix="sqlnet-ratios-"))
    os.chmod(work, 0o755)
    cap = work / a.capture.name
    shutil.copy2(a.capture, cap)
    os.chmod(cap, 0o644)
    npk = subprocess.run(["capinfos", "-M", "-c", "-T", "-r", str(cap)], capture_output=True, text=True,
                         check=True).stdout.strip().split("\t")[-1]
    runner = LuaRunner()
    try:
        res = measure(runner, cap, rows, a.pairs)
    finally:
        runner.close()
        shutil.rmtree(work, ignore_errors=True)
    saved = {"machine": machine(), "capture": a.capture.name, "packets": int(npk), "pairs": a.pairs,
             "rows": res}
    text = f"Machine: {saved['machine']}\n\n" + format_table(saved)
    print(text)
    if a.json:
        a.json.write_text(json.dumps(saved, indent=1) + "\n")
    if a.out:
        a.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
