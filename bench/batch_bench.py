#!/usr/bin/env python3
"""sqlnet_batch on a ring-buffer set of 2 GB and more: time and memory against one tshark.

Builds, under --work (default /tmp/sqlnet-batch-bench, never the repository), a
capture of --size bytes (default 2 GiB) from generated captures in
test-captures/ (BASE: each placed after the previous one in time with
editcap -t and mergecap -a; that block then repeated, each copy later in time
and with its client ports moved), cut into --files files of equal packet
counts (editcap -c, as a ring buffer's files).  Then for
the first quarter, half and all of the files (the set grows, each file stays
the same size):
  merged   one tshark with the plugin on the same packets in one file (the
           first N packets of the big capture, tshark -c N), printing the same
           round-trip fields as the batch job: wall time, peak RSS
  j=1, j=2 ./run.sh batch's job (sqlnet_batch.run, then the statements with
           DuckDB) with 1 and 2 workers: wall time, the largest peak RSS of one
           file's tshark and of one Python worker
and prints them side by side with the ratios (merged / j=1: the cost of the
files' overlap and the merge; j=1 / j=2: the speed-up from a second core).

    python3 bench/batch_bench.py [--size 2G] [--files 32] [--work DIR] [--keep]
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


def merged_tshark(runner, big, packets):
    """One tshark on the first `packets` packets of big: (seconds, peak RSS KiB)."""
    spec = runner.spec()
    cmd = extract._tshark_cmd(spec) + ["-c", str(packets)]
    t0 = time.time()
    with open(big, "rb") as f:
        p = subprocess.Popen(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=spec["env"])
        _, status, usage = os.wait4(p.pid, 0)
    return time.time() - t0, usage.ru_maxrss


def batch_run(files, out, jobs, plugin):
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.time()
    summaries, errors = sqlnet_batch.run(files, out, jobs=jobs, plugin=plugin, quiet=True)
    stmts, _ = sqlnet_batch.statements([out])
    el = time.time() - t0
    assert not errors, errors
    return (el, max(s["max_rss_kib"] for s in summaries), max(s.get("worker_rss_kib", 0) for s in summaries),
            sum(s["records"] for s in summaries), sum(s["rows_processed"] for s in stmts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=size_arg, default=2 << 30)
    ap.add_argument("--files", type=int, default=32)
    ap.add_argument("--work", type=Path, default=Path("/tmp/sqlnet-batch-bench"))
    ap.add_argument("--plugin", default=None, help="sqlnet.so (default: the build's)")
    ap.add_argument("--no-merged", action="store_true", help="skip the one-tshark runs")
    ap.add_argument("--keep", action="store_true", help="keep --work (the set) afterwards")
    a = ap.parse_args()
    plugin = a.plugin or next(iter(sorted((ROOT / "build" / "plugins").glob("*/epan/sqlnet.so"))), None)
    big, packets, files = build(a.work, a.size, a.files)
    sizes = [f.stat().st_size for f in files]
    print(f"set: {len(files)} files of {sizes[0] / 2**20:.0f} MiB, {sum(sizes) / 2**30:.2f} GiB, "
          f"{packets} packets; {os.cpu_count()} cores; plugin {plugin}", flush=True)
    counts = sorted({max(1, a.files // 4), max(1, a.files // 2), a.files})
    rows = []
    with extract.Runner("tshark", plugin) as runner:
        for n in counts:
            sub = files[:n]
            npk = sum(capinfo(f)[0] for f in sub)
            gib = sum(f.stat().st_size for f in sub) / 2**30
            m = (None, None) if a.no_merged else merged_tshark(runner, big, npk)
            j1 = batch_run(sub, a.work / "out", 1, plugin)
            j2 = batch_run(sub, a.work / "out", 2, plugin)
            rows.append((n, gib, npk, m, j1, j2))
            print(f"bench: {n} files done", file=sys.stderr, flush=True)
    hdr = ("files", "GiB", "packets", "merged s", "merged MiB", "j=1 s", "j=2 s", "merged/j1", "j1/j2",
           "tshark MiB", "worker MiB", "round trips")
    print("%5s %6s %9s %9s %10s %8s %8s %9s %6s %10s %10s %11s" % hdr)
    for n, gib, npk, m, j1, j2 in rows:
        ms, mr = m
        print("%5d %6.2f %9d %9s %10s %8.1f %8.1f %9s %6.2f %10.0f %10.0f %11d" % (
            n, gib, npk, "-" if ms is None else "%.1f" % ms, "-" if mr is None else "%.0f" % (mr / 1024),
            j1[0], j2[0], "-" if ms is None else "%.2f" % (ms / j1[0]), j1[0] / j2[0],
            max(j1[1], j2[1]) / 1024, max(j1[2], j2[2]) / 1024, j1[3]))
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    main()
