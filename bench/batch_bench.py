#!/usr/bin/env python3
"""sqlnet_batch on a ring-buffer set of 2 GB and more: time, CPU and memory against one tshark.

Builds, under --work (default /tmp/sqlnet-batch-bench, never the repository), a
capture of --size bytes (default 2 GiB) from generated captures in
test-captures/ (BASE: each placed after the previous one in time with
editcap -t and mergecap -a; that block then repeated, each copy later in time
and with its client ports moved), cut into --files files of equal packet
counts (editcap -c, as a ring buffer's files).  Then for the first N files,
N in --counts (default: a quarter, half and all of them; the set grows, each
file stays the same size), each run pinned to cores as a user would give it
cores (sched_setaffinity, as taskset -c, inherited by every process and
thread of the run):
  merged   one tshark with the plugin on the same packets in one file (the
           first N packets of the big capture, tshark -c N), printing the same
           round-trip fields as the batch job, on 1 core: wall time, CPU time,
           peak RSS
  j=1      ./run.sh batch's job (sqlnet_batch.run, then the statements with
           DuckDB) with 1 worker on 1 core (taskset -c 0)
  j=2      the same with 2 workers on 2 cores (taskset -c 0,1)
The job runs in a child process (this script with --job), so that its CPU
time is the whole job's (workers, their tshark, mergecap, editcap, capinfos,
DuckDB), from wait4.  Printed: wall times and the speed-up j=1 / j=2; the
job's CPU time and where it went (tshark, the workers' Python, the helper
programs, the carry and statements in the main process); the busiest
worker's CPU time; peak memory of one file's tshark and of one worker.

    python3 bench/batch_bench.py [--size 2G] [--files 32] [--counts 8,16] [--repeat 2] [--work DIR] [--keep]
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sqlnet_batch  # noqa: E402
from sqlnet_batch import extract  # noqa: E402

# jumbo-frame captures (MTU 9000, about 2.2 KB a packet): 2 GiB is about a
# million packets, which one tshark on the merged file still holds in memory
BASE = ["sdu_2048_mtu_9000", "sdu_4096_mtu_9000", "sdu_8192_mtu_9000", "sdu_32767_mtu_9000",
        "sdu_65535_mtu_9000", "sdu_2097152_mtu_9000"]


def size_arg(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(s[:-1]) * mult[s[-1].upper()]) if s[-1].upper() in mult else int(s)


def capinfo(path):
    """(packets, first packet time, last packet time)"""
    out = subprocess.run(["capinfos", "-c", "-a", "-e", "-S", "-M", "-T", "-r", str(path)],
                         capture_output=True, text=True, check=True).stdout.strip().split("\t")
    return int(out[1]), float(out[2]), float(out[3])


def append_after(a, b, out, gap=1.0):
    """out = a, then b shifted to start `gap` s after a's last packet."""
    _, _, a_end = capinfo(a)
    _, b_start, _ = capinfo(b)
    shifted = str(out) + ".shift.pcapng"
    subprocess.run(["editcap", "-t", "%.6f" % (a_end + gap - b_start), str(b), shifted], check=True)
    subprocess.run(["mergecap", "-a", "-F", "pcapng", "-w", str(out), str(a), shifted], check=True)
    os.remove(shifted)


def blocks(path):
    """(type, body bytes) of a little-endian pcapng file's blocks."""
    data = Path(path).read_bytes()
    assert data[8:12] == b"\x4d\x3c\x2b\x1a", "little-endian pcapng expected"
    pos = 0
    while pos + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, pos)
        yield btype, data[pos:pos + blen]
        pos += blen


def tsresol(idb):
    opt = 16
    while opt + 4 <= len(idb) - 4:
        code, olen = struct.unpack_from("<HH", idb, opt)
        if code == 0:
            break
        if code == 9:
            v = idb[opt + 4]
            return 2 ** (v & 0x7F) if v & 0x80 else 10 ** v
        opt += 4 + ((olen + 3) & ~3)
    return 10 ** 6


def write_copies(base, out, size):
    """out = base repeated until `size` bytes, copy k shifted in time after
    copy k-1 and with its client ports moved by 97 k (the same conversation
    repeated with its own sequence numbers would read as one long
    retransmission): as many TCP conversations as a busy server's day."""
    shb, idbs, epbs = None, [], []
    for btype, b in blocks(base):
        if btype == 0x0A0D0D0A and shb is None:
            shb = b
        elif btype == 1:
            idbs.append(b)
        elif btype == 6:
            epbs.append(b)
    res = [tsresol(i) for i in idbs]

    def ts(b):
        iface, hi, lo = struct.unpack_from("<III", b, 8)
        return ((hi << 32) | lo) / res[iface]
    span = ts(epbs[-1]) - ts(epbs[0]) + 1.0
    with open(out, "wb") as f:
        f.write(shb)
        for i in idbs:
            f.write(i)
        written, k = 0, 0
        while written < size:
            for b in epbs:
                b = bytearray(b)
                iface, hi, lo = struct.unpack_from("<III", b, 8)
                t = ((hi << 32) | lo) + int(k * span * res[iface])
                struct.pack_into("<II", b, 12, t >> 32, t & 0xFFFFFFFF)
                pkt = 28                              # Ethernet, IPv4, TCP to 1521
                if b[pkt + 12:pkt + 14] == b"\x08\x00" and b[pkt + 23] == 6:
                    tcp = pkt + 14 + (b[pkt + 14] & 0x0F) * 4
                    sport, dport = struct.unpack_from(">HH", b, tcp)
                    at = tcp if dport == 1521 else (tcp + 2 if sport == 1521 else None)
                    if at is not None:
                        port = struct.unpack_from(">H", b, at)[0]
                        struct.pack_into(">H", b, at, 1024 + (port - 1024 + 97 * k) % 64511)
                f.write(b)
                written += len(b)
            k += 1


def build(work, size, nfiles):
    work.mkdir(parents=True, exist_ok=True)
    big = work / "big.pcapng"
    if not big.exists() or big.stat().st_size < size:
        cur = work / "block0.pcapng"
        shutil.copy(ROOT / "test-captures" / f"{BASE[0]}.pcapng", cur)
        for i, name in enumerate(BASE[1:], 1):
            nxt = work / f"block{i}.pcapng"
            append_after(cur, ROOT / "test-captures" / f"{name}.pcapng", nxt)
            cur.unlink()
            cur = nxt
        write_copies(cur, big, size)
        cur.unlink()
    packets = capinfo(big)[0]
    files_dir = work / f"ring{nfiles}"
    files = sorted(files_dir.glob("ring_*.pcapng")) if files_dir.is_dir() else []
    if len(files) != nfiles:
        shutil.rmtree(files_dir, ignore_errors=True)
        files_dir.mkdir()
        per = -(-packets // nfiles)
        subprocess.run(["editcap", "-c", str(per), str(big), str(files_dir / "ring.pcapng")], check=True)
        files = sorted(files_dir.glob("ring_*.pcapng"))
    return big, packets, files


def _pinned(cpus):
    return lambda: os.sched_setaffinity(0, cpus)


def _cpu(usage):
    return usage.ru_utime + usage.ru_stime


def merged_tshark(runner, big, packets):
    """One tshark on the first `packets` packets of big, on core 0:
    (seconds, CPU seconds, peak RSS KiB)."""
    spec = runner.spec()
    cmd = extract._tshark_cmd(spec) + ["-c", str(packets)]
    t0 = time.time()
    with open(big, "rb") as f:
        p = subprocess.Popen(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=spec["env"],
                             preexec_fn=_pinned({0}))
        _, status, usage = os.wait4(p.pid, 0)
    return time.time() - t0, _cpu(usage), usage.ru_maxrss


def job(spec):
    """The batch job in this (pinned) process: prints its figures as JSON."""
    import json
    out = Path(spec["out"])
    shutil.rmtree(out, ignore_errors=True)
    timing = {}
    t0 = time.time()
    summaries, errors = sqlnet_batch.run(spec["files"], out, jobs=spec["jobs"], plugin=spec["plugin"], quiet=True,
                                         timing=timing)
    t1 = time.time()
    stmts, _ = sqlnet_batch.statements([out])
    el = time.time() - t0
    assert not errors, errors
    per_worker = {}
    for s in summaries:
        per_worker[s["worker_pid"]] = (per_worker.get(s["worker_pid"], 0.0) + s["tshark_cpu_s"] + s["python_cpu_s"]
                                       + s["helper_cpu_s"])
    print(json.dumps({
        "wall": el, "read": timing["read"], "carry": timing["carry"] + (time.time() - t1),
        "tshark_cpu": sum(s["tshark_cpu_s"] for s in summaries),
        "python_cpu": sum(s["python_cpu_s"] for s in summaries),
        "helper_cpu": sum(s["helper_cpu_s"] for s in summaries),
        "worker_cpu": sorted(per_worker.values()),
        "tshark_rss": max(s["max_rss_kib"] for s in summaries),
        "worker_rss": max(s.get("worker_rss_kib", 0) for s in summaries),
        "records": sum(s["records"] for s in summaries),
        "rows": sum(s["rows_processed"] for s in stmts)}))


def batch_run(files, out, jobs, plugin, cpus):
    """The job in a child process on `cpus`: its figures and the CPU seconds
    of the child and everything it ran."""
    import json
    spec = {"files": [str(f) for f in files], "out": str(out), "jobs": jobs,
            "plugin": str(plugin) if plugin else None}
    p = subprocess.Popen([sys.executable, __file__, "--job", json.dumps(spec)], stdout=subprocess.PIPE,
                         preexec_fn=_pinned(cpus))
    text = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the job failed"
    r = json.loads(text)
    r["cpu"] = _cpu(usage)
    r["main_cpu"] = r["cpu"] - r["tshark_cpu"] - r["python_cpu"] - r["helper_cpu"]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=size_arg, default=2 << 30)
    ap.add_argument("--files", type=int, default=32)
    ap.add_argument("--counts", default=None, help="numbers of files to run, e.g. 8,16 (default: a quarter, "
                                                   "half and all of --files)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/sqlnet-batch-bench"))
    ap.add_argument("--plugin", default=None, help="sqlnet.so (default: the build's)")
    ap.add_argument("--no-merged", action="store_true", help="skip the one-tshark runs")
    ap.add_argument("--keep", action="store_true", help="keep --work (the set) afterwards")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of each measurement, the fastest kept (a shared machine's noise)")
    ap.add_argument("--job", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.job:
        import json
        job(json.loads(a.job))
        return
    if len(os.sched_getaffinity(0)) < 2:
        sys.exit("needs 2 cores (taskset: this process may run on %s)" % sorted(os.sched_getaffinity(0)))
    c0, c1 = sorted(os.sched_getaffinity(0))[:2]
    plugin = a.plugin or next(iter(sorted((ROOT / "build" / "plugins").glob("*/epan/sqlnet.so"))), None)
    t_start = time.time()
    big, packets, files = build(a.work, a.size, a.files)
    sizes = [f.stat().st_size for f in files]
    load0 = os.getloadavg()
    print(f"set: {len(files)} files of {sizes[0] / 2**20:.0f} MiB, {sum(sizes) / 2**30:.2f} GiB, "
          f"{packets} packets; {os.cpu_count()} cores; plugin {plugin}", flush=True)
    counts = (sorted({int(x) for x in a.counts.split(",")}) if a.counts else
              sorted({max(1, a.files // 4), max(1, a.files // 2), a.files}))
    rows = []
    with extract.Runner("tshark", plugin) as runner:
        for n in counts:
            sub = files[:n]
            npk = sum(capinfo(f)[0] for f in sub)
            gib = sum(f.stat().st_size for f in sub) / 2**30
            reps = range(max(1, a.repeat))
            m = (None, None, None) if a.no_merged else min((merged_tshark(runner, big, npk) for _ in reps),
                                                            key=lambda x: x[0])
            j1 = min((batch_run(sub, a.work / "out", 1, plugin, {c0}) for _ in reps), key=lambda r: r["wall"])
            j2 = min((batch_run(sub, a.work / "out", 2, plugin, {c0, c1}) for _ in reps), key=lambda r: r["wall"])
            assert j1["records"] == j2["records"] and j1["rows"] == j2["rows"]
            rows.append((n, gib, npk, m, j1, j2))
            print(f"bench: {n} files done", file=sys.stderr, flush=True)
    load1 = os.getloadavg()

    def f1(x):
        return "-" if x is None else "%.1f" % x
    print("wall time (s): merged on 1 core, the job with 1 worker on 1 core and 2 workers on 2 cores")
    print("%5s %6s %9s %9s %8s %8s %6s %9s %8s %8s %8s %8s" % (
        "files", "GiB", "packets", "merged s", "j=1 s", "j=2 s", "j1/j2", "merged/j1",
        "read j1", "read j2", "carry j1", "carry j2"))
    for n, gib, npk, m, j1, j2 in rows:
        print("%5d %6.2f %9d %9s %8.1f %8.1f %6.2f %9s %8.1f %8.1f %8.1f %8.1f" % (
            n, gib, npk, f1(m[0]), j1["wall"], j2["wall"], j1["wall"] / j2["wall"],
            "-" if m[0] is None else "%.2f" % (m[0] / j1["wall"]), j1["read"], j2["read"], j1["carry"],
            j2["carry"]))
    print("CPU time (s): the whole job, and its parts: tshark, the workers' Python, mergecap/editcap/capinfos, "
          "the main process (carry, statements)")
    print("%5s %3s %8s %8s %8s %8s %8s %8s %12s %10s" % (
        "files", "j", "wall s", "CPU s", "tshark", "Python", "helpers", "main", "per worker", "cores used"))
    for n, gib, npk, m, j1, j2 in rows:
        if m[0] is not None:
            print("%5d %3s %8.1f %8.1f %8.1f %8s %8s %8s %12s %10.2f" % (
                n, "-", m[0], m[1], m[1], "-", "-", "-", "-", m[1] / m[0]))
        for j, r in ((1, j1), (2, j2)):
            print("%5d %3d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %12s %10.2f" % (
                n, j, r["wall"], r["cpu"], r["tshark_cpu"], r["python_cpu"], r["helper_cpu"], r["main_cpu"],
                "+".join("%.1f" % w for w in r["worker_cpu"]), r["cpu"] / r["wall"]))
    print("peak memory (MiB): one tshark on the merged file; the largest of one file's tshark and of one worker")
    print("%5s %10s %10s %10s %11s" % ("files", "merged", "tshark", "worker", "round trips"))
    for n, gib, npk, m, j1, j2 in rows:
        print("%5d %10s %10.0f %10.0f %11d" % (
            n, "-" if m[2] is None else "%.0f" % (m[2] / 1024), max(j1["tshark_rss"], j2["tshark_rss"]) / 1024,
            max(j1["worker_rss"], j2["worker_rss"]) / 1024, j1["records"]))
    print("load average (1, 5, 15 min): %.2f %.2f %.2f before, %.2f %.2f %.2f after; fastest of %d runs each; "
          "%.0f s in all" % (*load0, *load1, max(1, a.repeat), time.time() - t_start))
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    main()
