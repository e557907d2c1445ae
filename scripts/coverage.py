#!/usr/bin/env python3
"""TTC decoding coverage: the share of round trips decoded to their last byte,
per client family and server release.

    python3 scripts/coverage.py [--tshark PATH] CAPTURE_OR_DIR...   (markdown table on stdout)
    python3 scripts/coverage.py --json ...                          (one record per capture)

A round trip counts as decoded when the plugin did not mark it partial
(sqlnet.ttc.partial: a message not decoded, or the capture cut it), as
-z sqlnet,stmt counts them.  The client family comes from what the client
says of itself at logon (SESSION_CLIENT_DRIVER_NAME, AUTH_PROGRAM_NM, the
PRO platform string), the server release from the version banner the server
returns (or the TTC field version it offers when there is no banner).
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

CAPTURE_SUFFIXES = (".pcap", ".pcapng")

# TTC field version offered by the server -> release (python-oracledb constants.pxi)
FV_RELEASE = {3: "9i", 4: "10g", 5: "10g", 6: "11g", 7: "12c", 8: "12c", 9: "12c", 10: "18c",
              11: "18c", 12: "19c", 13: "19c", 14: "20c", 15: "20c", 16: "21c"}


def captures(paths):
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(q for q in p.rglob("*") if q.is_file() and
                              (q.suffix in CAPTURE_SUFFIXES or (q.suffix == "" and q.parent.name == "john")))
        elif p.is_file():
            yield p


def run(tshark, cap, args):
    return subprocess.run(tshark + ["-r", str(cap)] + args, capture_output=True, text=True).stdout


def family(values, platforms):
    """From what the client says of itself: driver name, program name, PRO platform."""
    text = " ".join(values + platforms).lower()
    for key, name in (("node-oracledb", "node-oracledb thin"), ("python-oracledb", "python-oracledb thin"),
                      ("java_ttc", "JDBC thin"), ("jdbc", "JDBC thin"), ("oracleclientgo", "go-ora"),
                      ("go-ora", "go-ora"), ("sqlplus", "OCI (SQL*Plus)")):
        if key in text:
            return name
    return "OCI" if platforms else "unknown"


def canonical(major):
    """Release names as Oracle gives them: 9i, 10g, 11g, 12c ... 19c, 21c, 23ai."""
    suffix = "i" if major <= 9 else "g" if major <= 11 else "c" if major <= 21 else "ai"
    return f"{major}{suffix}"


def release(banners, fvs):
    for b in banners:
        m = re.search(r"Release (\d+)\.", b)
        if m:
            return canonical(int(m.group(1)))
        m = re.search(r"\b(\d+)(ai|c|g|i)\b", b)
        if m:
            return canonical(int(m.group(1)))
    if fvs:
        return FV_RELEASE.get(max(fvs), "23ai" if max(fvs) >= 17 else f"field version {max(fvs)}")
    return "unknown"


def measure(tshark, cap):
    # one run: the client's and server's self-descriptions as fields, then
    # -z sqlnet,stmt's report (its taps see every packet whatever -Y shows),
    # which starts at its first rule line
    out = run(tshark, cap, ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=\x1f",
                            "-e", "sqlnet.auth.value", "-e", "sqlnet.pro.client", "-e", "sqlnet.banner",
                            "-e", "sqlnet.ttc.field_version",
                            "-Y", "sqlnet.auth.value || sqlnet.pro.client || sqlnet.banner || sqlnet.ttc.field_version",
                            "-z", "sqlnet,stmt"])
    rule = "\n" + "=" * 80 + "\n"
    cut = ("\n" + out).find(rule)
    rows, stmt = (out, "") if cut < 0 else (out[:cut], out[cut:])
    trips = sum(int(n) for n in re.findall(r"SQL\*Net roundtrips to/from client\s+(\d+)", stmt))
    partial = sum(int(n) for n in re.findall(r"partial round trips \(figures are lower bounds\)\s+(\d+)", stmt))
    values, platforms, banners, fvs = [], [], [], []
    for line in rows.splitlines():
        cols = (line.split("\t") + [""] * 4)[:4]
        values += [v for v in cols[0].split("\x1f") if v]      # program name, driver name ...
        platforms += [p for p in cols[1].split("\x1f") if p]
        banners += [b for b in cols[2].split("\x1f") if b]
        fvs += [int(f) for f in cols[3].split("\x1f") if f.isdigit()]
    return {"capture": str(cap), "family": family(values, platforms),
            "server": release(banners, fvs), "round_trips": trips, "partial": partial}


def table(records):
    cells = defaultdict(lambda: [0, 0, 0])
    for r in records:
        if r["round_trips"] == 0:
            continue
        c = cells[(r["family"], r["server"])]
        c[0] += 1
        c[1] += r["round_trips"]
        c[2] += r["round_trips"] - r["partial"]
    lines = ["| client family | server | captures | round trips | decoded to the end | share |",
             "|---|---|---:|---:|---:|---:|"]
    for (fam, srv), (n, trips, ok) in sorted(cells.items()):
        # rounded down: only a cell with every round trip decoded says 100.0%
        share = (1000 * ok // trips) / 10
        lines.append(f"| {fam} | {srv} | {n} | {trips} | {ok} | {share:.1f}% |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--tshark", default=os.environ.get("TSHARK", "tshark"))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    records = [measure([a.tshark], cap) for cap in captures(a.paths)]
    if a.json:
        json.dump(records, sys.stdout, indent=1)
        print()
    else:
        print(table(records))


if __name__ == "__main__":
    main()
