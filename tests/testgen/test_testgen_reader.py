"""The capture reader of testgen_helpers (tcp_frames: pcapng/pcap, Ethernet,
IPv4/IPv6, TCP, written in the tests) against Wireshark's core TCP fields
(tcp.srcport, tcp.dstport, tcp.len, tcp.payload, relative tcp.seq,
frame.time_epoch, tcp.flags) on captures
of each kind the catalogue checks read: a LAN one, the WAN one with loss (TCP
retransmits), a TCPS one, a public pcap and a public pcapng. Evidence: two
independent readers of the same file agree frame by frame (Wireshark's TCP
dissector is not the code under test)."""
import subprocess
from pathlib import Path

import pytest

from testgen_helpers import CAPTURES, ROOT, have_tshark, tcp_frames, tcp_packets

PUBLIC = ROOT.parent / "shared" / "captures" / "public"
CASES = [CAPTURES / "arraysize_100.pcapng", CAPTURES / "wan_rtt10_loss.pcapng",
         CAPTURES / "tls12_demo.pcapng", PUBLIC / "wsSC_TNS_Oracle1.pcap",
         PUBLIC / "ndpi_oracle12.pcapng"]


def tshark_frames(pcap: Path):
    out = subprocess.run(["tshark", "-r", str(pcap), "-n", "-o", "tcp.relative_sequence_numbers:TRUE",
                          "-Y", "tcp", "-T", "fields", "-E", "separator=;",
                          "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len",
                          "-e", "tcp.payload", "-e", "tcp.seq", "-e", "frame.time_epoch", "-e", "tcp.flags"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    frames = []
    for line in out.splitlines():
        p = line.split(";")
        payload = bytes.fromhex(p[3].replace(":", "")) if p[3] else b""
        frames.append(((int(p[0]), int(p[1]), int(p[2] or 0), payload, int(p[4])),
                       float(p[5]), int(p[6], 16) & 0xFF))
    return frames


@pytest.mark.parametrize("pcap", CASES, ids=[p.name for p in CASES])
def test_reader_reads_what_wireshark_reads(pcap):
    if not have_tshark():
        pytest.skip("tshark not installed")
    if not pcap.exists():
        pytest.skip(f"{pcap} missing")
    ours = tcp_frames(pcap)
    times = tcp_packets(pcap)
    theirs = tshark_frames(pcap)
    assert len(ours) == len(times) == len(theirs) > 10
    for i, (a, t, (b, b_time, b_flags)) in enumerate(zip(ours, times, theirs)):
        assert a == b, f"frame {i + 1} of the TCP frames: {a[:3]} {a[4]} != {b[:3]} {b[4]}"
        assert abs(t[0] - b_time) < 1e-6 and t[3] == b_flags, (i + 1, t[0], b_time, t[3], b_flags)
