#!/usr/bin/env python3
"""sqlnet charts: what the array size and the SDU cost on the wire.

    python3 scripts/charts.py --sweep test-captures/sweep_arraysize.pcapng \
        --sdu test-captures/sdu_*_mtu_1500.pcapng --out charts/

Writes, from tshark with the sqlnet plugin:
  arraysize.png / arraysize.csv   round trips, bytes to the client and response
                                  time per execution against the array size
  sdu.png / sdu.csv               TNS packets per fetch response and TCP segments
                                  per TNS packet against the negotiated SDU
"""
import argparse
import csv
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path


def tshark_cmd(tshark, capture, args):
    proc = subprocess.run([tshark, "-r", str(capture)] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"tshark failed on {capture}: {proc.stderr.strip()}")
    return proc.stdout


def executions(tshark, capture):
    """Per execution of each statement: (array size, rows, round trips, bytes, time ms)."""
    out = tshark_cmd(tshark, capture, ["-q", "-z", "sqlnet,stmt"])
    rows, sql, in_table = [], None, False
    for line in out.splitlines():
        m = re.match(r"Statement \d+: (.*)$", line)
        if m:
            sql, in_table = m.group(1), False
            continue
        if line.strip().startswith("exec "):
            in_table = True
            continue
        m = re.match(r"\s+\d+\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)$", line)
        if in_table and m and int(m.group(1)) > 0:
            a, r, rt, b, pk, seg, t = m.groups()
            rows.append({"sql": sql, "array_size": int(a), "rows": int(r), "round_trips": int(rt),
                         "bytes_to_client": int(b), "packets": int(pk), "segments": int(seg),
                         "time_ms": float(t)})
    return sorted(rows, key=lambda e: e["array_size"])


def sdu_points(tshark, captures):
    """Per capture: SDU, TNS packets per fetch response, TCP segments per TNS packet."""
    points = []
    for cap in captures:
        fetch_calls = set(tshark_cmd(tshark, cap, ["-Y", "sqlnet.call == 5", "-T", "fields",
                                                   "-e", "frame.number"]).split())
        # A frame can carry several TNS packets, each with its own sqlnet tree:
        # take the first occurrence of each field (the one with the response).
        out = tshark_cmd(tshark, cap, ["-Y", "sqlnet.rows", "-T", "fields", "-E", "occurrence=f",
                                       "-e", "sqlnet.sdu",
                                       "-e", "sqlnet.rows", "-e", "sqlnet.response.packets",
                                       "-e", "sqlnet.response.segments", "-e", "sqlnet.request_in"])
        agg = defaultdict(lambda: [0, 0, 0])
        for line in out.splitlines():
            sdu, rows, packets, segments, request = (line.split("\t") + [""] * 5)[:5]
            if not sdu or not rows or request not in fetch_calls:
                continue
            a = agg[int(sdu)]
            a[0] += 1
            a[1] += int(packets)
            a[2] += int(segments)
        for sdu, (n, packets, segments) in agg.items():
            points.append({"capture": Path(cap).name, "sdu": sdu, "responses": n,
                           "packets_per_response": packets / n,
                           "segments_per_packet": segments / packets if packets else 0.0})
    return sorted(points, key=lambda p: p["sdu"])


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def plot_arraysize(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["array_size"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, key, label in zip(axes, ("round_trips", "bytes_to_client", "time_ms"),
                              ("SQL*Net round trips", "bytes sent via SQL*Net to client", "response time (ms)")):
        ax.plot(x, [r[key] for r in rows], marker="o")
        ax.set_xscale("log")
        if key == "round_trips":
            ax.set_yscale("log")
        ax.set_xlabel("array size (rows requested per fetch)")
        ax.set_title(label)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("One query fetched at different array sizes (sqlnet, from the capture)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_sdu(points, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_cap = defaultdict(list)
    for p in points:
        by_cap["SDU sweep"].append(p)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for name, pts in by_cap.items():
        x = [p["sdu"] for p in pts]
        axes[0].plot(x, [p["packets_per_response"] for p in pts], marker="o", label=name)
        axes[1].plot(x, [p["segments_per_packet"] for p in pts], marker="o", label=name)
    axes[0].set_title("TNS packets per response")
    axes[1].set_title("TCP segments per TNS packet")
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("negotiated SDU (bytes)")
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("Responses cut by the SDU, packets cut by the MSS (sqlnet, from the captures)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweep", help="capture with one query at several array sizes")
    ap.add_argument("--sdu", nargs="*", default=[], help="captures of the same query at several SDUs")
    ap.add_argument("--out", default="charts")
    ap.add_argument("--tshark", default=os.environ.get("TSHARK", "tshark"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.sweep:
        rows = executions(args.tshark, args.sweep)
        if not rows:
            sys.exit(f"no statement executions found in {args.sweep}")
        write_csv(out / "arraysize.csv", rows)
        plot_arraysize(rows, out / "arraysize.png")
        print(f"wrote {out / 'arraysize.png'} ({len(rows)} executions)")
    if args.sdu:
        points = sdu_points(args.tshark, args.sdu)
        if points:
            write_csv(out / "sdu.csv", points)
            plot_sdu(points, out / "sdu.png")
            print(f"wrote {out / 'sdu.png'} ({len(points)} SDUs)")


if __name__ == "__main__":
    main()
