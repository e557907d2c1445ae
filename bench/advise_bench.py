#!/usr/bin/env python3
"""-z sqlnet,advise against -z sqlnet,stmt: wall time and peak RSS, side by side.

The advisor (a Lua report) reads every round trip of the capture; -z
sqlnet,stmt (the C report) reads the same round trips.  This prints the
ratio advise / stmt of the medians of wall time, CPU time (user + system,
less sensitive to other load on the machine) and peak RSS (wait4() on the
tshark process), both run interleaved in the same session on the same
capture (target: at most 1.5 each).

The capture: SESSIONS sessions (default 40) built from the generated
array-size sweeps in test-captures/ (arraysize_1, arraysize_2,
sweep_arraysize, jdbc_fetchsize_sweep, paced_sweep, in turn), each copy
moved to its own client port (so that every copy is a TCP stream of its own)
and 100 s later than the one before, merged into bench/data/advise_N.pcapng.

    bench/advise_bench.py [--runs 5] [--sessions 40] [--capture CAP] [--lua DIR]
"""
import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from tshark import staged_plugin  # noqa: E402

SOURCES = ["arraysize_1", "arraysize_2", "sweep_arraysize", "jdbc_fetchsize_sweep", "paced_sweep"]
SERVER_PORT = 1521


def move_client_port(src, dst, delta):
    """Copy a pcapng (Ethernet, IPv4, little-endian) with the client's TCP port
    (the one that is not 1521) raised by delta.  Checksums are left as they
    are (tshark does not check them by default)."""
    data = bytearray(Path(src).read_bytes())
    off = 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if btype == 6:                                   # enhanced packet block
            caplen = struct.unpack_from("<I", data, off + 20)[0]
            pkt = off + 28
            if caplen >= 14 + 20 + 4 and data[pkt + 12:pkt + 14] == b"\x08\x00" and data[pkt + 23] == 6:
                ip = pkt + 14
                tcp = ip + (data[ip] & 0x0F) * 4
                for at in (tcp, tcp + 2):
                    port = struct.unpack_from(">H", data, at)[0]
                    if port != SERVER_PORT:
                        struct.pack_into(">H", data, at, (port + delta) & 0xFFFF)
        off += blen
    Path(dst).write_bytes(data)


def build_capture(out, sessions):
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="advise-bench-"))
    try:
        parts = []
        for i in range(sessions):
            src = ROOT / "test-captures" / f"{SOURCES[i % len(SOURCES)]}.pcapng"
            moved = tmp / f"m{i}.pcapng"
            move_client_port(src, moved, 7 * (i + 1))
            shifted = tmp / f"s{i}.pcapng"
            subprocess.run(["editcap", "-t", str(100 * (i + 1)), str(moved), str(shifted)], check=True)
            parts.append(str(shifted))
        subprocess.run(["mergecap", "-w", str(out)] + parts, check=True)
        os.chmod(out, 0o644)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class Runner:
    """tshark as nobody (when root) with the staged sqlnet.so and lua/*.lua only."""

    def __init__(self, lua_dir=None):
        plugin = staged_plugin()
        if plugin is None:
            sys.exit("sqlnet.so is not staged in build/plugins: run ./run.sh build")
        self.box = Path(tempfile.mkdtemp(prefix="sqlnet-advise-bench-"))
        os.chmod(self.box, 0o755)
        plugins = self.box / "plugins"
        pdir = plugins / plugin.parent.parent.name / "epan"
        pdir.mkdir(parents=True)
        shutil.copy2(plugin, pdir / "sqlnet.so")
        for lua in Path(lua_dir or ROOT / "lua").glob("*.lua"):
            shutil.copy2(lua, plugins / lua.name)
        self.home = self.box / "home"
        self.home.mkdir()
        for d in [self.box] + list(self.box.rglob("*")):
            os.chmod(d, 0o777 if d == self.home else (0o755 if d.is_dir() else 0o644))
        self.root = os.geteuid() == 0

    def close(self):
        shutil.rmtree(self.box, ignore_errors=True)

    def run(self, capture, args):
        cmd = ["env", f"HOME={self.home}", f"WIRESHARK_PLUGIN_DIR={self.box / 'plugins'}", "LC_ALL=C.UTF-8",
               "tshark", "-n", "-q", "-r", str(capture)] + list(args)
        if self.root:
            cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + cmd
        with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
            t0 = time.monotonic()
            proc = subprocess.Popen(cmd, stdout=null, stderr=err)
            _, status, ru = os.wait4(proc.pid, 0)
            wall = time.monotonic() - t0
            err.seek(0)
            msg = err.read().decode().strip()
            if os.waitstatus_to_exitcode(status) != 0 or msg:
                sys.exit(f"tshark {' '.join(args)}: exit {os.waitstatus_to_exitcode(status)}\n{msg[:2000]}")
        return wall, ru.ru_maxrss / 1024.0, ru.ru_utime + ru.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--capture", type=Path, help="use this capture instead of the generated one")
    ap.add_argument("--lua", type=Path, help="the Lua reports from this folder (default lua/)")
    ap.add_argument("--compare", type=Path, help="also run -z sqlnet,advise with the Lua reports of this folder "
                    "(e.g. an older version's: git show REV:lua/sqlnet_advise.lua), interleaved with the others")
    args = ap.parse_args()
    cap = args.capture
    if cap is None:
        cap = ROOT / "bench" / "data" / f"advise_{args.sessions}.pcapng"
        if not cap.exists():
            build_capture(cap, args.sessions)
    cap = cap.resolve()
    r = Runner(args.lua)
    other = Runner(args.compare) if args.compare else None
    configs = [("stmt", ["-z", "sqlnet,stmt"]), ("advise", ["-z", "sqlnet,advise"])]
    if other:
        configs.append(("advise (compared)", ["-z", "sqlnet,advise"]))
    res = {k: [] for k, _ in configs}
    try:
        subprocess.run(["cat", str(cap)], stdout=subprocess.DEVNULL, check=True)     # page cache
        for i in range(args.runs):
            for key, extra in configs:
                wall, rss, cpu = (other if key == "advise (compared)" else r).run(cap, extra)
                res[key].append((wall, rss, cpu))
                print(f"run {i + 1}/{args.runs} {key}: {wall:.2f} s, {cpu:.2f} s CPU, {rss:.0f} MiB", file=sys.stderr)
    finally:
        r.close()
        if other:
            other.close()

    def med(key, idx):
        return statistics.median(v[idx] for v in res[key])

    print(f"Capture: {cap.name}, {cap.stat().st_size / 1e6:.1f} MB; medians of {args.runs} runs")
    print("| report | wall time (s) | CPU time (s) | peak RSS (MiB) |\n|---|---:|---:|---:|")
    for key, _ in configs:
        print(f"| -z sqlnet,{key} | {med(key, 0):.2f} | {med(key, 2):.2f} | {med(key, 1):.0f} |")
    def least(key, idx):
        return min(v[idx] for v in res[key])

    for key, _ in configs[1:]:
        print(f"| ratio {key}/stmt | {med(key, 0) / med('stmt', 0):.2f} | {med(key, 2) / med('stmt', 2):.2f} | "
              f"{med(key, 1) / med('stmt', 1):.2f} |  (target <= 1.5 each)")
    # the fastest run of each is the least disturbed by other load on the machine
    for key, _ in configs[1:]:
        print(f"| ratio {key}/stmt, fastest runs | {least(key, 0) / least('stmt', 0):.2f} | "
              f"{least(key, 2) / least('stmt', 2):.2f} | {least(key, 1) / least('stmt', 1):.2f} | |")


if __name__ == "__main__":
    main()
