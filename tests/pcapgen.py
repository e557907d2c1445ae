"""Build small pcap files of Oracle Net conversations for regression tests.

The packet builders follow ../shared/docs/tns-wire-format.md sections 1-2
(offsets written out here by hand), so the lengths and values a test asserts
are the ones it put on the wire, not anything the dissector computed.
"""
import struct

CLIENT = ("10.1.0.2", 40001)
SERVER = ("10.1.0.1", 1521)

TYPE_CONNECT, TYPE_ACCEPT, TYPE_REFUSE, TYPE_REDIRECT, TYPE_DATA = 1, 2, 4, 5, 6
TYPE_RESEND, TYPE_MARKER, TYPE_CONTROL = 11, 12, 14
TYPE_ACK, TYPE_NULL, TYPE_ABORT, TYPE_ATTENTION, TYPE_DD = 3, 7, 9, 13, 15


# ---- TNS packets ----------------------------------------------------------

def header(length, ptype, flags=0, wide=False):
    if wide:
        return struct.pack(">IBBH", length, ptype, flags, 0)
    return struct.pack(">HHBBH", length, 0, ptype, flags, 0)


def connect(descriptor, version=319, sdu=8192, tdu=None, inline=True):
    """CONNECT as python-oracledb writes it: fields to offset 74, then the data.

    inline=False sends only the 74-byte header (descriptor > 230 bytes goes
    in the next DATA packet, with the data-length field still set)."""
    tdu = sdu if tdu is None else tdu
    data = descriptor.encode()
    body = struct.pack(">HHHHHHHHHH", version, 300, 0x0001, min(sdu, 65535), min(tdu, 65535),
                       0x4F98, 0, 0x0001, len(data), 74)      # offsets 8..27
    body += struct.pack(">I", 0) + bytes([0x84, 0x84]) + bytes(24)  # 28..57
    body += struct.pack(">IIII", sdu, tdu, 0, 0)               # 58..73
    assert 8 + len(body) == 74
    length = 74 + (len(data) if inline else 0)
    return header(length, TYPE_CONNECT) + body + (data if inline else b"")


def accept(version=319, sdu=8192, tdu=8192, flags2=0):
    """ACCEPT; >= 315 carries SDU/TDU at 32/36, >= 318 flags2 at 41."""
    if version < 315:
        body = struct.pack(">HHHHHHH", version, 0x0001, sdu, tdu, 0x0100, 0, 32)  # 8..21
        body += bytes([0x41, 0x01]) + bytes(8)                                     # 22..31
        return header(32, TYPE_ACCEPT) + body
    doff = 61 if version >= 319 else 45
    body = struct.pack(">HHHHHHH", version, 0x0001, 0, 0, 0x0100, 0, doff)
    body += bytes([0x41, 0x01]) + bytes(8)                     # 22..31
    body += struct.pack(">IIB", sdu, tdu, 0)                    # 32..40
    body += struct.pack(">I", flags2)                           # 41..44
    if version >= 319:
        body += bytes(range(16))                                # 45..60
    return header(8 + len(body), TYPE_ACCEPT) + body


def refuse(text, user_reason=0x22, system_reason=0):
    data = text.encode()
    return header(12 + len(data), TYPE_REFUSE) + struct.pack(">BBH", user_reason, system_reason, len(data)) + data


def resend(flags=0, body=b""):
    return header(8 + len(body), TYPE_RESEND, flags) + body


def packet(ptype, body=b"", flags=0, wide=False):
    """Any TNS packet: header + body."""
    return header(8 + len(body), ptype, flags, wide) + body


def redirect(data, flags=0x02, inline=True, data_length=None):
    """REDIRECT: 8 data length (u16), 10 data (node-oracledb NSPRDLEN/NSPRDDAT).
    inline=False: a 10-byte REDIRECT, the data goes in the next DATA packet."""
    n = len(data) if data_length is None else data_length
    body = struct.pack(">H", n) + (data if inline else b"")
    return header(8 + len(body), TYPE_REDIRECT, flags) + body


def data(payload, flags=0, wide=True):
    return header(10 + len(payload), TYPE_DATA, wide=wide) + struct.pack(">H", flags) + payload


def data_of_length(total, flags=0, wide=True, fill=b"\x07"):
    """A DATA packet whose TNS length is exactly `total` bytes."""
    body = (fill * (total - 10))[: total - 10]
    return data(body, flags, wide)


def marker(kind, wide=True):
    return header(11, TYPE_MARKER, 0x20 if wide else 0, wide) + bytes([1, 0, kind])


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
