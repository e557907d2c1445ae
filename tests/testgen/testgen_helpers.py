"""Independent readers used by the testgen tests: tshark *core* fields only
(tcp.len, tcp.payload, ports) and a small TNS header walker written here, not
the generator's code, so the checks do not trust the code under test."""

import shutil
import struct
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "test-captures"


def have_tshark() -> bool:
    return shutil.which("tshark") is not None


def tcp_frames(pcap: Path) -> list[tuple[int, int, int, bytes]]:
    """(srcport, dstport, tcp.len, payload) per frame, via tshark core TCP fields."""
    out = subprocess.run(["tshark", "-r", str(pcap), "-n", "-T", "fields", "-E", "separator=;",
                          "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len",
                          "-e", "tcp.payload"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    frames = []
    for line in out.splitlines():
        p = line.split(";")
        if len(p) < 3 or not p[0]:
            continue
        payload = bytes.fromhex(p[3].replace(":", "")) if len(p) > 3 and p[3] else b""
        frames.append((int(p[0]), int(p[1]), int(p[2] or 0), payload))
    return frames


def tns_packets(stream: bytes) -> list[tuple[int, int, int]]:
    """Walk a server->client byte stream: ACCEPT (16-bit length) first, then
    32-bit lengths when the accepted version >= 315.  Returns (length, type,
    data_flags) per TNS packet."""
    out = []
    pos = 0
    large = False
    while pos + 8 <= len(stream):
        if large:
            length = struct.unpack(">I", stream[pos:pos + 4])[0]
        else:
            length = struct.unpack(">H", stream[pos:pos + 2])[0]
        ptype = stream[pos + 4]
        dflags = struct.unpack(">H", stream[pos + 8:pos + 10])[0] if ptype == 6 else None
        if ptype == 2:
            large = struct.unpack(">H", stream[pos + 8:pos + 10])[0] >= 315
        out.append((length, ptype, dflags))
        pos += length
    return out


def streams(pcap: Path, server_port: int) -> dict:
    """client_port -> {'s2c': bytes, 'c2s': bytes} reassembled in capture order
    (no retransmissions on a veth pair / loopback)."""
    res: dict = {}
    for sp, dp, ln, payload in tcp_frames(pcap):
        if ln == 0:
            continue
        if sp == server_port:
            res.setdefault(dp, {"s2c": b"", "c2s": b""})["s2c"] += payload
        elif dp == server_port:
            res.setdefault(sp, {"s2c": b"", "c2s": b""})["c2s"] += payload
    return res
