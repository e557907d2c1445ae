#!/usr/bin/env python3
"""Every ratio of issue 38's table in one run: sqlnet against the built-in
tns (b = --disable-protocol sqlnet -d tcp.port==1521,tns) on one capture,
side by side, as CPU medians of alternating pairs with their spread.

Rows (sqlnet configuration / reference configuration, target):
  plain       tshark -r                       / b                       <= 1.10
  plain_q1    the same on the capture's first quarter (the bench capture's
              array size 10: the most round trips per byte)       <= 1.10
  sessions    -z sqlnet,stmt on 5,000 short sessions (test-captures/
              jdbc8_basic.pcapng, each copy on its own client port, one
              second after the previous)      / b                       <= 1.10
  stmt        -z sqlnet,stmt                  / b                       <= 1.10
  fields      -T fields, 11 sqlnet fields     / b, -T fields, 11 fields <= 1.10
  verbose     -V                              / b -V                    <= 1.15
  profile     -C SQLNet (profiles/ installed) / b, default profile      <= 1.15
  profile_floor  -C SQLNet / b with the profile's columns, its 8 custom
              columns naming tns and tcp fields (FLOOR_FIELDS): the cost of
              Wireshark's custom columns themselves (docs/performance.md,
              "The tree's floor")                                   <= 1.15
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


# The SQLNet profile's 8 custom columns with tns and tcp fields in place of
# the sqlnet ones, in order (the reference of the profile_floor row).
FLOOR_FIELDS = ["tns.type:0:R", "tns.length:0:U", "tns.data_flag:0:U", "tcp.seq:0:U", "tcp.ack:0:U",
                "tcp.len:0:U", "tcp.window_size:0:R", "tcp.stream:0:U"]


def floor_columns():
    """-o gui.column.format:... : profiles/SQLNet's columns, each custom one
    replaced by the next of FLOOR_FIELDS."""
    import re
    text = (ROOT / "profiles" / "SQLNet" / "preferences").read_text()
    block = text.split("gui.column.format:", 1)[1].split("\n\n", 1)[0]
    vals, k = re.findall(r'"([^"]*)"', block), 0
    for i, v in enumerate(vals):
        if v.startswith("%Cus:"):
            vals[i] = "%Cus:" + FLOOR_FIELDS[k]
            k += 1
    assert k == len(FLOOR_FIELDS), k
    return ["-o", "gui.column.format:" + ",".join(f'"{v}"' for v in vals)]


def fields(names):
    return ["-T", "fields"] + [x for f in names for x in ("-e", f)]


# key, label, sqlnet args, reference args, target[, capture: "main" (--capture), "q1" (its first
# quarter), "sessions" (5,000 short sessions)]
ROWS = [
    ("plain", "plain dissection", [], BUILTIN, 1.10),
    ("plain_q1", "plain dissection, first quarter", [], BUILTIN, 1.10, "q1"),
    ("sessions", "5,000 short sessions, -z sqlnet,stmt", ["-z", "sqlnet,stmt"], BUILTIN, 1.10, "sessions"),
    ("stmt", "-z sqlnet,stmt", ["-z", "sqlnet,stmt"], BUILTIN, 1.10),
    ("fields", "-T fields, 11 fields each", fields(FIELDS), BUILTIN + fields(TNS_FIELDS), 1.10),
    ("verbose", "-V", ["-V"], BUILTIN + ["-V"], 1.15),
    ("profile", "-C SQLNet vs the default profile with tns", ["-C", "SQLNet"], BUILTIN, 1.15),
    ("profile_floor", "-C SQLNet vs tns with 8 custom columns of tns/tcp fields", ["-C", "SQLNet"],
     BUILTIN + floor_columns(), 1.15),
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


SESSION_SOURCE = ROOT / "test-captures" / "jdbc8_basic.pcapng"


def sessions_capture(src, n, out):
    """n copies of a one-session pcapng (Ethernet, IPv4, little-endian
    blocks) one after the other: copy i with the client's TCP port (the one
    that is not 1521) set to 20000 + i and its timestamps i seconds later."""
    import struct
    data = src.read_bytes()
    head, epbs, off, units = b"", [], 0, 10 ** 6
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        block = data[off:off + blen]
        if btype == 6:
            epbs.append(block)
        elif not epbs:
            head += block
            if btype == 1:                                   # interface: if_tsresol
                o = 16
                while o + 4 <= blen - 4:
                    code, olen = struct.unpack_from("<HH", block, o)
                    if code == 0:
                        break
                    if code == 9:
                        r = block[o + 4]
                        units = 2 ** (r & 0x7F) if r & 0x80 else 10 ** r
                    o += 4 + (olen + 3) // 4 * 4
        off += blen
    with open(out, "wb") as f:
        f.write(head)
        for i in range(n):
            for b in epbs:
                b = bytearray(b)
                ts = (struct.unpack_from("<I", b, 12)[0] << 32 | struct.unpack_from("<I", b, 16)[0]) + i * units
                struct.pack_into("<II", b, 12, ts >> 32, ts & 0xFFFFFFFF)
                caplen, pkt = struct.unpack_from("<I", b, 20)[0], 28
                if caplen >= 38 and b[pkt + 12:pkt + 14] == b"\x08\x00" and b[pkt + 23] == 6:
                    tcp = pkt + 14 + (b[pkt + 14] & 0x0F) * 4
                    for at in (tcp, tcp + 2):
                        if struct.unpack_from(">H", b, at)[0] != 1521:
                            struct.pack_into(">H", b, at, 20000 + i)
                f.write(b)
    return out


def measure(runner, captures, rows, pairs):
    out = {}
    for row in rows:
        key, c_args, b_args = row[0], row[2], row[3]
        capture = captures[row[5] if len(row) > 5 else "main"]
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
    extra = "".join(f"; {kind}: {what}" for kind, what in saved.get("captures", {}).items())
    lines = [f"Capture: {saved['capture']} ({saved['packets']} packets){extra}; {saved['pairs']} alternating "
             "pairs per row; CPU seconds (user + system), medians", "",
             "| path | sqlnet s | reference s | ratio | spread (pairs) | target | RSS ratio |",
             "|---|---:|---:|---:|---|---:|---:|"]
    for key, label, _c, _b, target, *_ in ROWS:
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


def packets(cap):
    return int(subprocess.run(["capinfos", "-M", "-c", "-T", "-r", str(cap)], capture_output=True, text=True,
                              check=True).stdout.strip().split("\t")[-1])


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
    npk = packets(cap)
    caps, notes = {"main": cap}, {}
    kinds = {r[5] for r in rows if len(r) > 5}
    if "q1" in kinds:
        caps["q1"] = work / "q1.pcapng"
        subprocess.run(["editcap", "-r", str(cap), str(caps["q1"]), f"1-{npk // 4}"], check=True)
        notes["q1"] = f"its first {npk // 4} packets"
    if "sessions" in kinds:
        caps["sessions"] = sessions_capture(SESSION_SOURCE, 5000, work / "sessions.pcapng")
        notes["sessions"] = f"{SESSION_SOURCE.name} x 5000 ({packets(caps['sessions'])} packets)"
    for c in caps.values():
        os.chmod(c, 0o644)
    runner = LuaRunner()
    try:
        res = measure(runner, caps, rows, a.pairs)
    finally:
        runner.close()
        shutil.rmtree(work, ignore_errors=True)
    saved = {"machine": machine(), "capture": a.capture.name, "packets": npk, "pairs": a.pairs,
             "captures": notes, "rows": res}
    text = f"Machine: {saved['machine']}\n\n" + format_table(saved)
    print(text)
    if a.json:
        a.json.write_text(json.dumps(saved, indent=1) + "\n")
    if a.out:
        a.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
