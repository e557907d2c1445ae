#!/usr/bin/env python3
"""Side-by-side tshark benchmark: TCP only, built-in tns, sqlnet, sqlnet + -z, -T fields.

Every configuration reads the same capture in the same session, interleaved
(a b c d e a b c d e ...) so that background load hits all of them alike; the
table shows medians.  Wall time and peak RSS come from wait4() on the tshark
process itself.  tshark prints its packet summary lines to /dev/null, which
makes it dissect every packet the way `tshark -r` does.  The plugin directory
holds only the staged sqlnet.so (no Lua), and (a)/(b) disable sqlnet there.

Per-packet time is measured on a prefix of about 100 MB (editcap -r, cached
beside the capture) and on the full capture, for (b) and (c).
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from tshark import staged_plugin  # noqa: E402

FIELDS = ["frame.number", "sqlnet.type", "sqlnet.call", "sqlnet.fetch.rows", "sqlnet.rows",
          "sqlnet.response.packets", "sqlnet.response.segments", "sqlnet.response.bytes",
          "sqlnet.time", "sqlnet.ora_error", "sqlnet.sql"]

CONFIGS = [
    ("a", "TCP only (tns and sqlnet disabled)",
     ["--disable-protocol", "tns", "--disable-protocol", "sqlnet"]),
    ("b", "built-in tns",
     ["--disable-protocol", "sqlnet", "-d", "tcp.port==1521,tns"]),
    ("c", "sqlnet", []),
    ("d", "sqlnet -z sqlnet,tree -z sqlnet,stmt", ["-z", "sqlnet,tree", "-z", "sqlnet,stmt"]),
    ("e", "sqlnet -T fields (" + str(len(FIELDS)) + " fields)",
     ["-T", "fields"] + [x for f in FIELDS for x in ("-e", f)]),
]


class Runner:
    def __init__(self):
        plugin = staged_plugin()
        if plugin is None:
            sys.exit("sqlnet.so is not staged in build/plugins: run ./run.sh build")
        self.box = Path(tempfile.mkdtemp(prefix="sqlnet-bench-"))
        os.chmod(self.box, 0o755)
        release = plugin.parent.parent.name
        pdir = self.box / "plugins" / release / "epan"
        pdir.mkdir(parents=True)
        shutil.copy2(plugin, pdir / "sqlnet.so")
        self.home = self.box / "home"
        self.home.mkdir()
        for d in self.box.rglob("*"):
            os.chmod(d, 0o777 if d == self.home else (0o755 if d.is_dir() else 0o644))
        self.root = os.geteuid() == 0

    def close(self):
        shutil.rmtree(self.box, ignore_errors=True)

    def cmd(self, capture, args):
        base = ["env", f"HOME={self.home}", f"WIRESHARK_PLUGIN_DIR={self.box / 'plugins'}",
                "LC_ALL=C.UTF-8", "tshark", "-n", "-r", str(capture)] + list(args)
        if self.root:
            base = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + base
        return base

    def run(self, capture, args):
        """(wall seconds, peak RSS in MiB) of one tshark run."""
        with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
            t0 = time.monotonic()
            proc = subprocess.Popen(self.cmd(capture, args), stdout=null, stderr=err)
            _, status, ru = os.wait4(proc.pid, 0)
            wall = time.monotonic() - t0
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode != 0:
                err.seek(0)
                sys.exit(f"tshark failed ({proc.returncode}): {' '.join(args)}\n{err.read().decode()[:2000]}")
            err.seek(0)
            msg = err.read().decode().strip()
            if msg:
                print(f"   stderr: {msg[:300]}", file=sys.stderr)
        return wall, ru.ru_maxrss / 1024.0


def packets(capture):
    out = subprocess.run(["capinfos", "-M", "-c", "-T", "-r", str(capture)], capture_output=True,
                         text=True, check=True).stdout.strip().split("\t")
    return int(out[-1])


def prefix(capture, mbytes):
    """A copy of the first ~mbytes MB of the capture (whole packets), cached in bench/data/."""
    out = ROOT / "bench" / "data" / f"{capture.stem}.first{mbytes}MB.pcapng"
    if out.exists() and out.stat().st_mtime >= capture.stat().st_mtime:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    total = packets(capture)
    n = max(1, int(total * mbytes * 1e6 / capture.stat().st_size))
    for _ in range(3):       # packet sizes vary along the capture: correct the estimate
        subprocess.run(["editcap", "-r", str(capture), str(out), f"1-{n}"], check=True)
        size = out.stat().st_size
        if abs(size - mbytes * 1e6) < 0.05 * mbytes * 1e6 or n >= total:
            break
        n = min(total, max(1, int(n * mbytes * 1e6 / size)))
    os.chmod(out, 0o644)
    return out


def machine():
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    ver = subprocess.run(["tshark", "--version"], capture_output=True, text=True).stdout.splitlines()[0].rstrip(".")
    load = os.getloadavg()[0]
    return (f"{cpu}, {os.cpu_count()} cores, {mem} RAM, {platform.system()} {platform.release()}, "
            f"{ver}; load average at start {load:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capture", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--prefix-mb", type=int, default=100)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    cap = args.capture.resolve()
    os.chmod(cap, 0o644)   # tshark runs as nobody when we are root; the folders must be o+rx
    small = prefix(cap, args.prefix_mb)
    n_full, n_small = packets(cap), packets(small)
    size_full, size_small = cap.stat().st_size, small.stat().st_size
    info = machine()
    r = Runner()
    try:
        subprocess.run(["cat", str(cap), str(small)], stdout=subprocess.DEVNULL, check=True)  # page cache
        res = {k: [] for k, _, _ in CONFIGS}
        res_small = {k: [] for k in ("b", "c")}
        for i in range(args.runs):
            for key, label, extra in CONFIGS:
                wall, rss = r.run(cap, extra)
                res[key].append((wall, rss))
                print(f"run {i + 1}/{args.runs} ({key}) {label}: {wall:.1f} s, {rss:.0f} MiB", file=sys.stderr)
            for key in res_small:
                extra = dict((k, e) for k, _, e in CONFIGS)[key]
                wall, rss = r.run(small, extra)
                res_small[key].append((wall, rss))
                print(f"run {i + 1}/{args.runs} ({key}) {args.prefix_mb} MB prefix: {wall:.1f} s", file=sys.stderr)
    finally:
        r.close()

    def med(key, idx, table=res):
        return statistics.median(v[idx] for v in table[key])

    lines = [f"Capture: {cap.name}, {size_full / 1e6:.0f} MB, {n_full} packets; "
             f"medians of {args.runs} runs.  ",
             f"Machine: {info}", "",
             "| configuration | wall time (s) | peak RSS (MiB) |", "|---|---:|---:|"]
    for key, label, _ in CONFIGS:
        lines.append(f"| ({key}) {label} | {med(key, 0):.1f} | {med(key, 1):.0f} |")
    lines += ["", "| ratio | wall time | peak RSS | target |", "|---|---:|---:|---|"]
    for num, den, target in (("c", "b", "time <= 1.10, RSS <= 1.2"), ("d", "b", "time <= 1.25"),
                             ("c", "a", "")):
        lines.append(f"| ({num})/({den}) | {med(num, 0) / med(den, 0):.2f} | "
                     f"{med(num, 1) / med(den, 1):.2f} | {target} |")
    lines += ["", "| per packet | first ~100 MB | full capture | full / 100 MB |", "|---|---:|---:|---:|"]
    for key in ("b", "c"):
        small_pp = med(key, 0, res_small) / n_small * 1e6
        full_pp = med(key, 0) / n_full * 1e6
        lines.append(f"| ({key}) {dict((k, l) for k, l, _ in CONFIGS)[key]} | {small_pp:.1f} us "
                     f"({size_small / 1e6:.0f} MB, {n_small} pkts) | {full_pp:.1f} us | {full_pp / small_pp:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
