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

from tshark import corpus_file

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
    out = subprocess.run(["tshark", "-r", str(pcap),
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
    src = corpus_file(public_dir, "rust-oracledb/tpc_session.pcap", "rust-oracledb captures")
    want = streams(src)
    packets = []                                    # the capture's segments, as dumped packets
    out = subprocess.run(["tshark", "-r", str(src),
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


def as_trace(packets, side_of_trace="server", old_style=False):
    """An Oracle Net support-level trace (nsprecv/nspsend, nsbasic_brc/bsd
    packet dumps) of these (side, bytes) TNS packets, as the server (or the
    client) would write it."""
    lines = ["Trace file /tmp/x.trc", "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production", ""]
    for i, (side, data) in enumerate(packets):
        received = (side == "C") == (side_of_trace == "server")
        func = ("nsprecv" if received else "nspsend") if i < 4 else ("nsbasic_brc" if received else "nsbasic_bsd")
        stamp = f"2019-06-25 20:24:31.{100 + i:03d}"
        head = (lambda f, rest: f"[25-JUN-2019 20:24:31:{100 + i:03d}] {f}: {rest}") if old_style else \
            (lambda f, rest: f"{stamp} : {f}:{rest}")
        lines.append(head(func, "entry"))
        lines.append(head(func, f"plen={len(data)}, type={data[4] if len(data) > 4 else 0}"))
        if not old_style:
            lines.append(head(func, "packet dump"))
        for off in range(0, len(data), 8):
            chunk = data[off:off + 8]
            lines.append(head(func, f"{' '.join(f'{b:02X}' for b in chunk):<23}  |{'.' * len(chunk)}|"))
        lines.append(head(func, f"{len(data)} bytes {'from' if received else 'to'} transport"))
        lines.append(head(func, "normal exit"))
    return "\n".join(lines) + "\n"


def tns_packets(stream):
    """Cut a direction's byte stream at TNS packet boundaries (a 4-byte length
    field before the ACCEPT; the captures used here keep it under 64 KiB)."""
    out, off = [], 0
    while off + 8 <= len(stream):
        n = int.from_bytes(stream[off:off + 2], "big") or int.from_bytes(stream[off:off + 4], "big")
        out.append(stream[off:off + n])
        off += n
    return out


def tns_packets_in_order(capture):
    """[(side, TNS packet)] of a capture, the two directions interleaved in
    capture order (C: client, S: the server on port 1521)."""
    out = subprocess.run(["tshark", "-r", str(capture), "-Y", "tcp.len > 0", "-T", "fields",
                          "-e", "tcp.srcport", "-e", "tcp.payload"], capture_output=True, text=True, check=True).stdout
    runs = []
    for line in out.splitlines():
        port, hexes = line.split("\t")
        side = "S" if port == "1521" else "C"
        if not runs or runs[-1][0] != side:
            runs.append([side, b""])
        runs[-1][1] += bytes.fromhex(hexes.replace(":", ""))
    return [(side, p) for side, data in runs for p in tns_packets(data)]


@pytest.mark.parametrize("side_of_trace,old_style", [("server", False), ("client", False), ("server", True)])
def test_net_trace_conversion_keeps_the_tns_bytes(public_dir, tmp_path, side_of_trace, old_style):
    """Evidence: the corpus capture jkstill19c/cdb01_ora_26589.pcap, itself
    converted (by whoever assembled the corpus) from the upstream server
    trace; checked once by hand: scripts/nettrace2pcap.py on the upstream
    cdb01_ora_26589.trc.gz at the pinned commit gives both directions' byte
    streams of that capture exactly (2,977 and 4,012 bytes).  Here its TNS
    packets are written back as a trace, as a server or a client would
    write it, and converted again: the same two byte streams."""
    import nettrace2pcap
    src = corpus_file(public_dir, "jkstill19c/cdb01_ora_26589.pcap", "jkstill19c")
    want = streams(src)
    packets = tns_packets_in_order(src)
    assert b"".join(p for s, p in packets if s == "C") == want["C"]
    trace = tmp_path / "x.trc"
    trace.write_text(as_trace(packets, side_of_trace, old_style))
    dest = tmp_path / "conv.pcap"
    assert nettrace2pcap.convert(trace, dest) == len(packets)
    assert streams(dest) == want


def test_fetcher_rebuilds_jkstill19c_from_its_trace_row(public_dir, tmp_path, monkeypatch):
    """The whole fetch of the jkstill19c row, without network: the download
    is replaced by one that serves a gzipped server trace of the corpus
    capture's TNS packets (as as_trace writes it) and records what was
    asked.  Evidence: corpus_sources.tsv's row (repository, path, pinned
    commit) and the corpus capture's own TCP payloads, which the rebuilt
    capture must carry byte for byte in each direction.  What differs from
    the shipped file, by design: the synthetic Ethernet/IP/TCP (the shipped
    file also has pure ACKs and other MAC addresses and sequence numbers)
    and the timestamps (the trace's, to the millisecond)."""
    import gzip
    src = corpus_file(public_dir, "jkstill19c/cdb01_ora_26589.pcap", "jkstill19c")
    row = [r for r in ROWS if r[0] == "jkstill19c/cdb01_ora_26589.pcap"]
    assert len(row) == 1 and row[0][1] == "jkstill/sqlnet"
    assert row[0][2].startswith("timeout-examples/trace/cdb01_ora_26589.trc.gz ")
    want = streams(src)
    packets = tns_packets_in_order(src)
    asked = []

    def fake_download(repo, commit, path, dest):
        asked.append((repo, commit, path))
        Path(dest).write_bytes(gzip.compress(as_trace(packets).encode("latin-1")))

    monkeypatch.setattr(fetch_corpus, "download", fake_download)
    (tmp_path / "work").mkdir()
    fetch_corpus.build(row[0], tmp_path / "out", tmp_path / "work")
    assert asked == [("jkstill/sqlnet", row[0][3], "timeout-examples/trace/cdb01_ora_26589.trc.gz")]
    assert streams(tmp_path / "out" / "jkstill19c" / "cdb01_ora_26589.pcap") == want
