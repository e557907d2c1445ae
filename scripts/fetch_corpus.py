#!/usr/bin/env python3
"""Fetch the real-capture corpus from its upstream repositories, at pinned commits.

The tests read real Oracle captures from ../shared/captures/public, or from
the folder SQLNET_CORPUS names.  Outside this project's setup, this script
builds that folder from the public repositories the captures come from
(scripts/corpus_sources.tsv: file, repository, path, commit, licence):

  - plain files are downloaded as they are;
  - "dir/{a,b}.pcapng (mergecap of ...)" entries are downloaded and merged
    with mergecap in the order given;
  - python-oracledb packet dumps ("... .txt (python-oracledb packet dump ...)")
    are turned into one TCP conversation (client 10.0.0.1:40000, server
    10.0.0.2:1521, "Sending" = client to server), segments of at most 1460
    bytes, consistent sequence numbers;
  - Oracle Net traces ("... .trc.gz (converted from the server-side Oracle
    Net trace ...)") are turned into the same kind of conversation by
    scripts/nettrace2pcap.py, with the trace's timestamps.

    python3 scripts/fetch_corpus.py DEST        # then: SQLNET_CORPUS=DEST ./run.sh test

EXPECTED.json (the facts derived from the captures) is not upstream: without
it the tests that compare against those facts skip, the others run.  Each
file's licence is its repository's; keep them out of this repository.
"""
import argparse
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "corpus_sources.tsv"
RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"

DUMP_HEAD = re.compile(r"^\S+ \S+ (Sending|Receiving) packet")
DUMP_LINE = re.compile(r"^\d{4} : ((?:[0-9A-Fa-f]{2} ?)+)")


def dump_to_streams(text):
    """(direction, bytes) per packet of a python-oracledb packet dump
    (PYO_DEBUG_PACKETS): 'C' for Sending, 'S' for Receiving."""
    packets, cur = [], None
    for line in text.splitlines():
        m = DUMP_HEAD.match(line)
        if m:
            cur = ["C" if m.group(1) == "Sending" else "S", bytearray()]
            packets.append(cur)
            continue
        m = DUMP_LINE.match(line)
        if m and cur is not None:
            cur[1] += bytes.fromhex(m.group(1).replace(" ", ""))
    return [(d, bytes(b)) for d, b in packets]


def write_pcap(path, packets, mss=1460, times=None):
    """One TCP conversation with a three-way handshake, in libpcap format.
    times: each packet's timestamp (its segments 1 us apart); by default
    every frame 0.1 ms after the one before."""
    ips = {"C": bytes([10, 0, 0, 1]), "S": bytes([10, 0, 0, 2])}
    ports = {"C": 40000, "S": 1521}
    seq = {"C": 1000, "S": 5000}
    frames, t = [], [1_700_000_000.0]

    def seg(side, payload, flags=0x18):
        other = "S" if side == "C" else "C"
        tcp = struct.pack(">HHIIBBHHH", ports[side], ports[other], seq[side] & 0xFFFFFFFF,
                          seq[other] & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 40 + len(payload), 0, 0x4000, 64, 6, 0, ips[side], ips[other])
        frames.append((t[0], b"\x00" * 5 + b"\x02" + b"\x00" * 5 + b"\x01" + b"\x08\x00" + ip + tcp + payload))
        t[0] += 0.0001
        seq[side] += len(payload)

    if times:
        t[0] = times[0] - 0.0003
    seg("C", b"", 0x02); seq["C"] += 1
    seg("S", b"", 0x12); seq["S"] += 1
    seg("C", b"", 0x10)
    for k, (side, data) in enumerate(packets):
        for i in range(0, len(data), mss):
            if times:
                t[0] = times[k] + (i // mss) * 0.000001
            seg(side, data[i:i + mss])
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
        for ts, frame in frames:
            sec = int(ts)
            f.write(struct.pack("<IIII", sec, int(round((ts - sec) * 1e6)), len(frame), len(frame)) + frame)


def download(repo, commit, path, dest):
    url = RAW.format(repo=repo, commit=commit, path=path)
    with urllib.request.urlopen(url, timeout=60) as r, open(dest, "wb") as f:
        shutil.copyfileobj(r, f)


def build(row, out, tmp):
    name, repo, path, commit = row[:4]
    dest = out / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    m = re.match(r"^(\S*)\{([^}]*)\}(\S*)", path)
    if m:                                            # several files merged in order
        parts = []
        for i, stem in enumerate(m.group(2).split(",")):
            p = tmp / f"{i}_{Path(m.group(1) + stem + m.group(3)).name}"
            download(repo, commit, m.group(1) + stem + m.group(3), p)
            parts.append(str(p))
        subprocess.run(["mergecap", "-a", "-F", "pcapng", "-w", str(dest)] + parts, check=True)
        return
    path = path.split(" ")[0]
    if path.endswith((".trc", ".trc.gz")):             # Oracle Net trace (nettrace2pcap.py)
        from nettrace2pcap import convert
        p = tmp / Path(path).name
        download(repo, commit, path, p)
        convert(p, dest)
        return
    if path.endswith(".txt"):                        # python-oracledb packet dump
        p = tmp / Path(path).name
        download(repo, commit, path, p)
        write_pcap(dest, dump_to_streams(p.read_text(errors="replace")))
        return
    download(repo, commit, path, dest)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--only", help="substring of the file names to fetch")
    a = ap.parse_args()
    rows = [line.split("\t") for line in SOURCES.read_text().splitlines()[1:] if line.strip()]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            if a.only and a.only not in row[0]:
                continue
            try:
                build(row, a.dest, Path(tmp))
                print(f"ok      {row[0]}")
            except Exception as e:                   # keep going: report every file
                failed += 1
                print(f"FAILED  {row[0]}: {e}", file=sys.stderr)
    print(f"{len(rows) - failed} of {len(rows)} files in {a.dest}; set SQLNET_CORPUS={a.dest.resolve()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
