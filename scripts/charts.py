#!/usr/bin/env python3
"""sqlnet charts: what the array size and the SDU cost on the wire.

    python3 scripts/charts.py --sweep test-captures/sweep_arraysize.pcapng \
        --sdu test-captures/sdu_*_mtu_1500.pcapng --out charts/

Writes, from tshark with the sqlnet plugin:
  arraysize.png / arraysize.csv   round trips, bytes to the client and elapsed
                                  time per execution against the array size
  sdu.png / sdu.csv               TNS packets per fetch response and TCP segments
                                  per TNS packet against the negotiated SDU
  timeline.png / timeline.csv     (--timeline CAP) an I/O graph of where the time
                                  goes: network, server, transfer and client time
                                  and rows per interval (tshark -z io,stat on the
                                  sqlnet.time.* fields, what Wireshark's I/O Graphs
                                  draws from the same fields)
"""
import argparse
import csv
import json
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
    """Per execution of each statement: (array size, rows, round trips, bytes,
    elapsed ms), as -z sqlnet,stmt,format=json gives them (its per_execution
    records: the plugin's one accounting, docs/time.md)."""
    out = tshark_cmd(tshark, capture, ["-q", "-z", "sqlnet,stmt,format=json"])
    rows = []
    for st in json.loads(out)["statements"]:
        for e in st.get("per_execution") or []:
            if not e.get("array_size"):
                continue
            rows.append({"sql": st["sql"], "array_size": int(e["array_size"]), "rows": int(e["rows"]),
                         "round_trips": int(e["round_trips"]), "bytes_to_client": int(e["bytes_to_client"]),
                         "packets": int(e["packets_to_client"]), "segments": int(e["segments_to_client"]),
                         "time_ms": float(e["elapsed_ms"] or 0.0)})
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
                              ("SQL*Net round trips", "bytes sent via SQL*Net to client", "elapsed (ms)")):
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


PARTS = ("network", "server", "transfer", "client")


def timeline_points(tshark, capture, interval):
    """[{start, network, server, transfer, client (seconds), rows}] per interval."""
    cols = ",".join(f"SUM(sqlnet.time.{p})sqlnet.time.{p}" for p in PARTS) + ",SUM(sqlnet.rows)sqlnet.rows"
    out = tshark_cmd(tshark, capture, ["-q", "-z", f"io,stat,{interval},{cols}"])
    points = []
    for line in out.splitlines():
        m = re.match(r"\|\s*([\d.]+)\s*<>\s*([\d.]+)\s*\|(.*)", line)
        if not m:
            continue
        vals = [v.strip() for v in m.group(3).split("|") if v.strip()]
        if len(vals) < 5:
            continue
        p = {"start": float(m.group(1))}
        for name, v in zip(PARTS, vals[:4]):
            p[name] = float(v)
        p["rows"] = int(float(vals[4]))
        points.append(p)
    return points


def plot_timeline(points, interval, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [p["start"] for p in points]
    fig, ax = plt.subplots(figsize=(10, 4))
    bottom = [0.0] * len(points)
    colors = {"network": "#1F77B4", "server": "#D62728", "transfer": "#FF7F0E", "client": "#2CA02C"}
    for name in PARTS:
        ys = [p[name] * 1000 for p in points]
        ax.bar(x, ys, width=interval * 0.9, bottom=bottom, align="edge", label=f"{name} time", color=colors[name])
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"ms per {interval * 1000:g} ms interval")
    ax2 = ax.twinx()
    ax2.plot([p["start"] + interval / 2 for p in points], [p["rows"] for p in points], color="black",
             marker="o", label="rows per interval")
    ax2.set_ylabel("rows per interval")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def ensure_matplotlib():
    """True when the charts can be drawn. Without matplotlib here, run again
    under the project's environment (./run.sh demo or test makes .venv);
    without that either, say how to get it: the CSV files are written anyway."""
    if have_matplotlib():
        return True
    if VENV_PYTHON.is_file() and Path(sys.executable).resolve() != VENV_PYTHON.resolve() \
            and not os.environ.get("SQLNET_CHARTS_NO_REEXEC"):
        os.environ["SQLNET_CHARTS_NO_REEXEC"] = "1"
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(Path(__file__).resolve())] + sys.argv[1:])
    print("charts.py: matplotlib is not installed for this Python, so no PNG is drawn; "
          "the CSV files are written. Install it (pip install matplotlib, or apt install "
          "python3-matplotlib) or run ./run.sh demo, which sets up .venv with it.", file=sys.stderr)
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sweep", help="capture with one query at several array sizes")
    ap.add_argument("--sdu", nargs="*", default=[], help="captures of the same query at several SDUs")
    ap.add_argument("--timeline", help="capture whose time breakdown to draw per interval")
    ap.add_argument("--interval", type=float, default=0.05, help="--timeline interval in seconds")
    ap.add_argument("--out", default="charts")
    ap.add_argument("--tshark", default=os.environ.get("TSHARK", "tshark"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    draw = ensure_matplotlib()
    if args.sweep:
        rows = executions(args.tshark, args.sweep)
        if not rows:
            sys.exit(f"no statement executions found in {args.sweep}")
        write_csv(out / "arraysize.csv", rows)
        if draw:
            plot_arraysize(rows, out / "arraysize.png")
        print(f"wrote {out / ('arraysize.png' if draw else 'arraysize.csv')} ({len(rows)} executions)")
    if args.timeline:
        points = timeline_points(args.tshark, args.timeline, args.interval)
        if not points:
            sys.exit(f"no sqlnet time breakdown in {args.timeline}")
        write_csv(out / "timeline.csv", points)
        if draw:
            plot_timeline(points, args.interval, out / "timeline.png",
                          f"Where the time goes per interval: {Path(args.timeline).name}")
        print(f"wrote {out / ('timeline.png' if draw else 'timeline.csv')} ({len(points)} intervals)")
    if args.sdu:
        points = sdu_points(args.tshark, args.sdu)
        if points:
            write_csv(out / "sdu.csv", points)
            if draw:
                plot_sdu(points, out / "sdu.png")
            print(f"wrote {out / ('sdu.png' if draw else 'sdu.csv')} ({len(points)} SDUs)")


if __name__ == "__main__":
    main()
