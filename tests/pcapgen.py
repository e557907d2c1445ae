"""Build small pcap files of Oracle Net conversations for regression tests.

The TNS packets come from the project's one TNS builder,
testgen/sqlnetgen/tns.py (offsets from ../shared/docs/tns-wire-format.md
sections 1-2, checked byte by byte against hand-decoded packets in
tests/test_tns_builder.py); the functions here only give it the defaults these
tests use.  So the lengths and values a test asserts are the ones it put on
the wire, not anything the dissector computed.
"""
import struct
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent / "testgen"))
from sqlnetgen import tns  # noqa: E402  (the TNS packet builder)

CLIENT = ("10.1.0.2", 40001)
SERVER = ("10.1.0.1", 1521)

TYPE_CONNECT, TYPE_ACCEPT, TYPE_REFUSE, TYPE_REDIRECT, TYPE_DATA = tns.CONNECT, tns.ACCEPT, tns.REFUSE, \
    tns.REDIRECT, tns.DATA
TYPE_RESEND, TYPE_MARKER, TYPE_CONTROL = tns.RESEND, tns.MARKER, tns.CONTROL
TYPE_ACK, TYPE_NULL, TYPE_ABORT, TYPE_ATTENTION, TYPE_DD = tns.ACK, tns.NULL, tns.ABORT, tns.ATTENTION, \
    tns.DATA_DESCRIPTOR


# ---- TNS packets (tests' defaults on testgen/sqlnetgen/tns.py) -------------

def header(length, ptype, flags=0, wide=False):
    return tns.header(length, ptype, flags, large=wide)


def connect(descriptor, version=319, sdu=8192, tdu=None, inline=True):
    """CONNECT as python-oracledb writes it (tns.connect_packet)."""
    return tns.connect_packet(descriptor, version=version, sdu=sdu, tdu=tdu, inline=inline)


def accept(version=319, sdu=8192, tdu=8192, flags2=0):
    """ACCEPT with NSI 0x41/0x01 (NA wanted: the ANO exchange follows) and, for
    version >= 319, the 16-byte value 00 01 .. 0f."""
    return tns.build_accept(version, sdu, tdu, flags2, nsi0=0x41, nsi1=0x01, uuid=bytes(range(16)))


def refuse(text, user_reason=0x22, system_reason=0):
    return tns.refuse_packet(text, user_reason, system_reason)


def resend(flags=0, body=b""):
    return tns.resend_packet(flags, body)


def packet(ptype, body=b"", flags=0, wide=False):
    """Any TNS packet: header + body."""
    return tns.packet(ptype, body, flags, large=wide)


def redirect(data, flags=0x02, inline=True, data_length=None):
    """REDIRECT; inline=False: a 10-byte REDIRECT, the data goes in the next DATA packet."""
    return tns.redirect_packet(data, flags, inline, data_length)


def data(payload, flags=0, wide=True):
    return tns.data_packet(payload, flags, large=wide)


def data_of_length(total, flags=0, wide=True, fill=b"\x07"):
    """A DATA packet whose TNS length is exactly `total` bytes."""
    body = (fill * (total - 10))[: total - 10]
    return data(body, flags, wide)


def marker(kind, wide=True):
    """MARKER; header flag 0x20 in the 32-bit form, as 19c/23ai servers send it."""
    return tns.marker_packet(kind, large=wide, hflags=tns.HEADER_FLAG_LARGE_SDU if wide else 0)


def ano(services):
    """ANO message: services = [(type, [(subtype, value_bytes), ...]), ...]."""
    body = b""
    for stype, subs in services:
        body += struct.pack(">HHI", stype, len(subs), 0)
        for subtype, value in subs:
            body += struct.pack(">HH", len(value), subtype) + value
    total = 13 + len(body)
    return struct.pack(">IHIHB", 0xDEADBEEF, total, 0x0B200200, len(services), 0) + body


# ---- pcap writer -----------------------------------------------------------

def _ip(a):
    return bytes(int(x) for x in a.split("."))


class Conversation:
    """A TCP connection whose segments are written in order to a pcap."""

    def __init__(self, client=CLIENT, server=SERVER, mss=1460, handshake=True, start=1_700_000_000.0):
        self.client, self.server, self.mss = client, server, mss
        self.seq = {"C": 1000, "S": 5000}
        self.frames = []
        self.t = start
        if handshake:
            self._segment("C", b"", flags=0x02)
            self.seq["C"] += 1
            self._segment("S", b"", flags=0x12)
            self.seq["S"] += 1
            self._segment("C", b"", flags=0x10)

    def _segment(self, side, payload, flags=0x18):
        src, dst = (self.client, self.server) if side == "C" else (self.server, self.client)
        other = "S" if side == "C" else "C"
        tcp = struct.pack(">HHIIBBHHH", src[1], dst[1], self.seq[side] & 0xFFFFFFFF,
                          self.seq[other] & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
        total = 20 + len(tcp) + len(payload)
        ip = struct.pack(">BBHHHBBH4s4s", 0x45, 0, total, 0, 0x4000, 64, 6, 0, _ip(src[0]), _ip(dst[0]))
        eth = b"\x00\x00\x00\x00\x00\x02" + b"\x00\x00\x00\x00\x00\x01" + b"\x08\x00"
        self.t += 0.001
        self.frames.append((self.t, eth + ip + tcp + payload))
        self.seq[side] += len(payload)

    def send(self, side, payload, mss=None):
        """Send bytes, cut into segments of at most mss bytes."""
        mss = mss or self.mss
        for i in range(0, len(payload), mss):
            self._segment(side, payload[i:i + mss])

    def skip(self, side, nbytes):
        """Bytes sent before the capture started (mid-stream capture)."""
        self.seq[side] += nbytes

    def write(self, path):
        with open(path, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
            for t, frame in self.frames:
                sec = int(t)
                usec = int(round((t - sec) * 1e6))
                f.write(struct.pack("<IIII", sec, usec, len(frame), len(frame)) + frame)
        return path


def write_conversations(path, conversations):
    """Several conversations interleaved by time into one pcap."""
    frames = sorted((f for c in conversations for f in c.frames), key=lambda f: f[0])
    merged = Conversation(handshake=False)
    merged.frames = frames
    return merged.write(path)
