"""TNS packet layer: the one TNS packet builder of the project, and CONNECT parsing.

Every TNS packet the project writes is built here: by the capture generator
(testgen/sqlnetgen/server.py), by the tests' hand-built captures
(tests/pcapgen.py puts its own defaults on these functions) and by the fuzzing
inputs (fuzz/make_fastauth_inputs.py).  tests/test_tns_builder.py checks the
bytes against offsets decoded by hand from the wire-format reference.

Offsets follow shared/docs/tns-wire-format.md sections 1 and 2.  Lengths are
16-bit ("large" False: CONNECT, ACCEPT, REFUSE, REDIRECT, RESEND and every
packet of a session below version 315) or 32-bit ("large" True: every packet
after an ACCEPT of version >= 315), section 1.1.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

CONNECT, ACCEPT, ACK, REFUSE, REDIRECT, DATA, NULL = 1, 2, 3, 4, 5, 6, 7
ABORT, RESEND, MARKER, ATTENTION, CONTROL, DATA_DESCRIPTOR = 9, 11, 12, 13, 14, 15

DATA_FLAG_EOF = 0x0040
DATA_FLAG_END_OF_REQUEST = 0x0800
DATA_FLAG_END_OF_RESPONSE = 0x2000

MARKER_BREAK, MARKER_RESET, MARKER_INTERRUPT = 1, 2, 3

ACCEPT_FLAG2_CHECK_OOB = 0x00000001
ACCEPT_FLAG2_HAS_END_OF_RESPONSE = 0x02000000
ACCEPT_FLAG2_FAST_AUTH = 0x10000000

HEADER_FLAG_REDIRECT_DATA = 0x02  # NSPFRDS: REDIRECT data = address \0 connect data
HEADER_FLAG_LARGE_SDU = 0x20  # seen on every 19c/23ai server MARKER and ANO packet

MAX_CONNECT_DATA = 230   # a longer descriptor follows the CONNECT in a DATA packet (section 2.1)

PACKET_TYPE_NAMES = {1: "CONNECT", 2: "ACCEPT", 4: "REFUSE", 5: "REDIRECT", 6: "DATA",
                     11: "RESEND", 12: "MARKER", 14: "CONTROL"}


def _bytes(data: bytes | str) -> bytes:
    return data.encode() if isinstance(data, str) else bytes(data)


def header(length: int, ptype: int, flags: int = 0, large: bool = True) -> bytes:
    """8-byte TNS header; 'large' = 32-bit length (TNS >= 315 after the ACCEPT)."""
    if large:
        return struct.pack(">IBBH", length, ptype, flags, 0)
    if length > 0xFFFF:
        raise ValueError("packet too long for a 16-bit length")
    return struct.pack(">HHBBH", length, 0, ptype, flags, 0)


def packet(ptype: int, body: bytes = b"", flags: int = 0, large: bool = True) -> bytes:
    """Any TNS packet: header (length = 8 + body) and body."""
    return header(8 + len(body), ptype, flags, large) + body


def data_packet(payload: bytes, data_flags: int = 0, large: bool = True, hflags: int = 0) -> bytes:
    """DATA: data flags (u16) at 8, payload at 10 (section 1.2, 1.4)."""
    length = 10 + len(payload)
    return header(length, DATA, hflags, large) + struct.pack(">H", data_flags) + payload


def marker_packet(kind: int, large: bool = True, hflags: int = HEADER_FLAG_LARGE_SDU) -> bytes:
    """MARKER: type 1 (data marker), 0, the marker data (1 break, 2 reset, 3 interrupt)."""
    return header(11, MARKER, hflags, large) + bytes((1, 0, kind))


def connect_packet(descriptor: bytes | str, version: int = 319, sdu: int = 8192, tdu: int | None = None,
                   inline: bool = True) -> bytes:
    """CONNECT as python-oracledb writes it (section 2.1): fields to offset 74, then the
    connect data.  inline=False sends only the 74-byte packet (a descriptor over
    MAX_CONNECT_DATA bytes goes in the next DATA packet), the data-length field still set."""
    tdu = sdu if tdu is None else tdu
    data = _bytes(descriptor)
    body = struct.pack(">HHHHHHHHHH", version, 300, 0x0001, min(sdu, 0xFFFF), min(tdu, 0xFFFF),
                       0x4F98, 0, 0x0001, len(data), 74)          # offsets 8..27
    body += struct.pack(">I", 0) + bytes((0x84, 0x84)) + bytes(24)  # 28..57
    body += struct.pack(">IIII", sdu, tdu, 0, 0)                   # 58..73
    length = 74 + (len(data) if inline else 0)
    return header(length, CONNECT, large=False) + body + (data if inline else b"")


def split_payload(payload: bytes, sdu: int, last_flags: int = 0, large: bool = True,
                  first_flags: int = 0) -> list[bytes]:
    """Split a TTC payload into DATA packets whose total length (10-byte header
    included) is at most sdu.  last_flags go on the last packet only."""
    room = sdu - 10
    if room <= 0:
        raise ValueError("SDU too small")
    out = []
    pos = 0
    n = len(payload)
    while True:
        chunk = payload[pos:pos + room]
        pos += len(chunk)
        last = pos >= n
        out.append(data_packet(chunk, (last_flags if last else 0) | first_flags, large))
        if last:
            break
    return out


@dataclass
class ConnectInfo:
    version: int = 0
    version_compat: int = 0
    service_options: int = 0
    sdu16: int = 0
    tdu16: int = 0
    nt_characteristics: int = 0
    value_of_one: bytes = b""
    data_length: int = 0
    data_offset: int = 0
    nsi_flags0: int = 0
    nsi_flags1: int = 0
    sdu32: int | None = None
    tdu32: int | None = None
    flags1: int | None = None
    flags2: int | None = None
    connect_data: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def sdu(self) -> int:
        return self.sdu32 if self.sdu32 else self.sdu16

    @property
    def tdu(self) -> int:
        return self.tdu32 if self.tdu32 else self.tdu16


def parse_connect(pkt: bytes) -> ConnectInfo:
    """Parse a CONNECT packet (2-byte length form).  The connect data may be
    absent (descriptor > 230 bytes is sent in a following DATA packet)."""
    c = ConnectInfo()
    (c.version, c.version_compat, c.service_options, c.sdu16, c.tdu16,
     c.nt_characteristics) = struct.unpack(">HHHHHH", pkt[8:20])
    c.value_of_one = pkt[22:24]
    c.data_length, c.data_offset = struct.unpack(">HH", pkt[24:28])
    c.nsi_flags0, c.nsi_flags1 = pkt[32], pkt[33]
    if c.data_offset >= 66 and len(pkt) >= 66:
        c.sdu32, c.tdu32 = struct.unpack(">II", pkt[58:66])
    if c.data_offset >= 70 and len(pkt) >= 70:
        c.flags1 = struct.unpack(">I", pkt[66:70])[0]
    if c.data_offset >= 74 and len(pkt) >= 74:
        c.flags2 = struct.unpack(">I", pkt[70:74])[0]
    if len(pkt) >= c.data_offset + c.data_length and c.data_length:
        c.connect_data = pkt[c.data_offset:c.data_offset + c.data_length].decode("latin-1")
    return c


def build_accept(version: int = 319, sdu: int = 8192, tdu: int = 8192, flags2: int = 0,
                 service_options: int = 0x0001, nsi0: int = 0x01, nsi1: int = 0x01,
                 uuid: bytes | None = None) -> bytes:
    """ACCEPT packet (always 2-byte length).  Layout per doc section 2.2:
    v>=315: SDU/TDU 32-bit at 32/36, compression flags at 40, v>=318 flags2 at 41,
    v>=319 a 16-byte value at 45."""
    if version >= 319:
        data_offset = 61
    elif version >= 318:
        data_offset = 45
    elif version >= 315:
        data_offset = 41
    else:
        data_offset = 32
    body = bytearray(data_offset)
    struct.pack_into(">HH", body, 8, version, service_options)
    if version < 315:
        struct.pack_into(">HH", body, 12, min(sdu, 0xFFFF), min(tdu, 0xFFFF))
    body[16:18] = b"\x01\x00"                        # value of 1 in hardware byte order
    struct.pack_into(">HH", body, 18, 0, data_offset)  # accept data length 0, offset
    body[22] = nsi0
    body[23] = nsi1
    if version >= 315:
        struct.pack_into(">II", body, 32, sdu, tdu)
        body[40] = 0                                 # compression off
    if version >= 318:
        struct.pack_into(">I", body, 41, flags2)
    if version >= 319:
        body[45:61] = uuid if uuid is not None else bytes(16)
    struct.pack_into(">HHBBH", body, 0, len(body), 0, ACCEPT, 0, 0)
    return bytes(body)


def parse_header(hdr: bytes, large: bool) -> tuple[int, int, int]:
    """Return (length, type, flags) of an 8-byte header."""
    if large:
        length, ptype, flags = struct.unpack(">IBB", hdr[:6])
    else:
        length, _, ptype, flags = struct.unpack(">HHBB", hdr[:6])
    return length, ptype, flags


def refuse_packet(text: bytes | str, user_reason: int = 0x22, system_reason: int = 0) -> bytes:
    """REFUSE (2-byte length): user reason (u8) at 8, system reason (u8) at 9, data
    length (u16) at 10, data at 12 (section 1.2)."""
    data = _bytes(text)
    return header(12 + len(data), REFUSE, large=False) + struct.pack(">BBH", user_reason, system_reason,
                                                                     len(data)) + data


def resend_packet(flags: int = 0, body: bytes = b"") -> bytes:
    """RESEND (2-byte length): header only (flag 0x08: renegotiate TLS first)."""
    return packet(RESEND, body, flags, large=False)


def redirect_packet(data: bytes | str, flags: int = HEADER_FLAG_REDIRECT_DATA, inline: bool = True,
                    data_length: int | None = None) -> bytes:
    """REDIRECT (2-byte length): data length (u16) at 8, data at 10 (section 1.2).
    inline=False: a 10-byte REDIRECT, the data follows in the next DATA packet.
    data_length: the length field when it should not be the data's (hostile tests)."""
    data = _bytes(data)
    n = len(data) if data_length is None else data_length
    return packet(REDIRECT, struct.pack(">H", n) + (data if inline else b""), flags, large=False)
