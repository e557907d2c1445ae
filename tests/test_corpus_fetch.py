"""The real-capture corpus outside this setup: scripts/fetch_corpus.py.

Evidence: the corpus in ../shared (SQLNET_CORPUS) and its SOURCES.tsv, kept
by whoever assembled it; the script cannot be run against the network here,
so these tests check what it would fetch (every capture, each at a pinned
commit) and that its packet-dump conversion gives the TNS bytes of the
corpus capture made from the same dump.  (Checked once by hand against the
upstream dump of rust-oracledb/tpc_session.pcap: both directions' byte
streams identical.)
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import fetch_corpus  # noqa: E402

ROWS = [line.split("\t") for line in (ROOT / "scripts" / "corpus_sources.tsv").read_text().splitlines()[1:]
        if line.strip()]


def test_every_corpus_capture_is_pinned(public_dir):
    listed = {r[0] for r in ROWS}
    present = {str(p.relative_to(public_dir)) for p in public_dir.rglob("*")
               if p.is_file() and p.suffix not in (".json", ".md", ".tsv")}
    assert present <= listed, sorted(present - listed)
    assert all(re.fullmatch(r"[0-9a-f]{40}", r[3]) for r in ROWS), [r[0] for r in ROWS if len(r[3]) != 40]
    upstream = {line.split("\t")[0]: line.split("\t")[3]
                for line in (public_dir / "SOURCES.tsv").read_text().splitlines()[1:] if line.strip()}
    assert {r[0]: r[3] for r in ROWS} == upstream


def streams(pcap):
    out = subprocess.run(["tshark", "-r", str(pcap), "--disable-protocol", "sqlnet", "--disable-protocol", "tns",
                          "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    s = {"C": b"", "S": b""}
    for line in out.splitlines():
        port, hexes = line.split("\t")
        s["S" if port == "1521" else "C"] += bytes.fromhex(hexes.replace(":", ""))
    return s


def as_dump(packets):
    """A python-oracledb packet dump (PYO_DEBUG_PACKETS format) of these packets."""
    lines = []
    for i, (side, data) in enumerate(packets):
        verb = "Sending" if side == "C" else "Receiving"
        lines.append(f"2026-06-13 22:39:35.647 {verb} packet [op {i + 1}] on socket 4")
        for off in range(0, len(data), 8):
            chunk = data[off:off + 8]
            lines.append(f"{off:04d} : {' '.join(f'{b:02X}' for b in chunk):<23} |{'.' * len(chunk)}|")
        lines.append("")
    return "\n".join(lines)


def test_packet_dump_conversion_keeps_the_tns_bytes(public_dir, tmp_path):
    src = public_dir / "rust-oracledb" / "tpc_session.pcap"
    if not src.exists():
        pytest.skip("rust-oracledb captures not in the corpus")
    want = streams(src)
    packets = []                                    # the capture's segments, as dumped packets
    out = subprocess.run(["tshark", "-r", str(src), "--disable-protocol", "sqlnet", "--disable-protocol", "tns",
                          "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        port, hexes = line.split("\t")
        packets.append(("S" if port == "1521" else "C", bytes.fromhex(hexes.replace(":", ""))))
    parsed = fetch_corpus.dump_to_streams(as_dump(packets))
    assert parsed == packets
    dest = tmp_path / "conv.pcap"
    fetch_corpus.write_pcap(dest, parsed)
    assert streams(dest) == want
