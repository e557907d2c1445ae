#!/usr/bin/env python3
"""sqlnet report: what the wire says about each Oracle Net conversation.

Runs tshark with the sqlnet plugin over a capture and prints, per
conversation, the negotiated TNS version, SDU and TDU and the TNS packets
with their lengths, data lengths and SDU fill.

    python3 scripts/report.py CAPTURE [--packets N] [--tshark PATH]
"""
import argparse
import os
import subprocess
import sys
from collections import OrderedDict

FIELDS = ["frame.number", "tcp.stream", "ip.src", "tcp.srcport", "ip.dst", "tcp.dstport",
          "sqlnet.direction", "sqlnet.type", "sqlnet.length", "sqlnet.data.len",
          "sqlnet.version", "sqlnet.sdu", "sqlnet.tdu", "sqlnet.connect.sdu", "sqlnet.connect.version"]
TYPES = {"1": "CONNECT", "2": "ACCEPT", "4": "REFUSE", "5": "REDIRECT", "6": "DATA", "9": "ABORT",
         "11": "RESEND", "12": "MARKER", "14": "CONTROL"}


def run_tshark(tshark, capture):
    cmd = [tshark, "-r", capture, "-Y", "sqlnet", "-T", "fields", "-E", "separator=\t",
           "-E", "occurrence=a", "-E", "aggregator=,"]
    for f in FIELDS:
        cmd += ["-e", f]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"tshark failed: {proc.stderr.strip()}")
    if "sqlnet" in proc.stderr.lower():
        sys.stderr.write(proc.stderr)
    return [dict(zip(FIELDS, line.split("\t"))) for line in proc.stdout.splitlines()]


def split(value):
    return [v for v in value.split(",") if v != ""] if value else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    ap.add_argument("--packets", type=int, default=40,
                    help="TNS packets listed per conversation (0 = all; default 40)")
    ap.add_argument("--tshark", default=os.environ.get("TSHARK", "tshark"))
    args = ap.parse_args()

    convs = OrderedDict()
    for row in run_tshark(args.tshark, args.capture):
        c = convs.setdefault(row["tcp.stream"], {"packets": [], "version": "", "sdu": "", "tdu": "",
                                                  "client": None, "server": None,
                                                  "asked_sdu": "", "asked_version": ""})
        dirs, types, lens = split(row["sqlnet.direction"]), split(row["sqlnet.type"]), split(row["sqlnet.length"])
        dlens = split(row["sqlnet.data.len"])
        for name in ("version", "sdu", "tdu"):
            if split(row[f"sqlnet.{name}"]):
                c[name] = split(row[f"sqlnet.{name}"])[0]
        if split(row["sqlnet.connect.sdu"]):
            c["asked_sdu"] = split(row["sqlnet.connect.sdu"])[0]
            c["asked_version"] = split(row["sqlnet.connect.version"])[0]
        if c["client"] is None and dirs:
            a = f"{row['ip.src']}:{row['tcp.srcport']}"
            b = f"{row['ip.dst']}:{row['tcp.dstport']}"
            c["client"], c["server"] = (a, b) if dirs[0] == "0" else (b, a)
        d = iter(dlens)
        row_sdu = split(row["sqlnet.sdu"])
        row_sdu = int(row_sdu[0]) if row_sdu else 0
        for i, t in enumerate(types):
            dl = next(d, "") if t == "6" else ""
            c["packets"].append((row["frame.number"], dirs[i] if i < len(dirs) else "",
                                 TYPES.get(t, t), int(lens[i]) if i < len(lens) else 0, dl, row_sdu))

    if not convs:
        print(f"No Oracle Net (TNS) traffic found in {args.capture}.")
        return
    print(f"sqlnet report for {args.capture}: {len(convs)} conversation(s)\n")
    for stream, c in convs.items():
        print(f"Conversation {stream}: client {c['client']} -> server {c['server']}")
        if c["asked_version"]:
            print(f"  client asked  : TNS {c['asked_version']}, SDU {c['asked_sdu']}")
        if c["version"]:
            print(f"  negotiated    : TNS {c['version']}, SDU {c['sdu']}, TDU {c['tdu']}")
        else:
            print("  negotiated    : unknown (no ACCEPT in the capture)")
        pk = c["packets"]
        for side, label in (("0", "client->server"), ("1", "server->client")):
            mine = [p for p in pk if p[1] == side]
            data = [int(p[4]) for p in mine if p[4] != ""]
            if mine:
                print(f"  {label}: {len(mine)} TNS packets, {sum(p[3] for p in mine)} bytes, "
                      f"{len(data)} DATA packets carrying {sum(data)} data bytes"
                      + (f", largest {max(p[3] for p in mine)} B" if mine else ""))
        limit = len(pk) if args.packets == 0 else min(args.packets, len(pk))
        print(f"  {'frame':>7} {'dir':<4} {'type':<8} {'TNS len':>8} {'data len':>9} {'SDU fill':>9}")
        for frame, side, t, length, dl, sdu in pk[:limit]:
            fill = f"{100.0 * length / sdu:8.1f}%" if sdu and t != "ACCEPT" else ""
            arrow = "C>S" if side == "0" else "S>C"
            print(f"  {frame:>7} {arrow:<4} {t:<8} {length:>8} {dl:>9} {fill:>9}")
        if limit < len(pk):
            print(f"  ... {len(pk) - limit} more TNS packets (--packets 0 lists all)")
        print()


if __name__ == "__main__":
    main()
