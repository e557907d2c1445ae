"""ANO / NA ("advanced networking option", DE AD BE EF) negotiation reply.

go-ora (and JDBC, and node when the ACCEPT does not disable NA) send a
network-services request right after the ACCEPT.  We answer like a server
with no NA services configured: supervisor OK (0x001F) with the service list
[4, 1], authentication "don't use" (0xFBFF), encryption and data integrity
with driver 0 (none).  Layout: magic, u16 total length, u32 version, u16
number of services, u8 error flags; per service u16 type, u16 sub-packet
count, u32 error; sub-packets are u16 length, u16 type, value.
"""

from __future__ import annotations

import struct

MAGIC = 0xDEADBEEF
VERSION = 0x17400000          # 23.4.0.0.0
SUPERVISOR, AUTHENTICATION, ENCRYPTION, DATAINTEGRITY = 4, 1, 2, 3
T_RAW, T_UB1, T_UB2, T_VERSION, T_STATUS = 1, 2, 3, 5, 6


def _sub(t: int, value: bytes) -> bytes:
    return struct.pack(">HH", len(value), t) + value


def _service(kind: int, subs: list[bytes]) -> bytes:
    return struct.pack(">HHI", kind, len(subs), 0) + b"".join(subs)


def parse_request(payload: bytes) -> dict:
    magic, length, version, nserv, err = struct.unpack(">IHIHB", payload[:13])
    return {"magic": magic, "length": length, "version": version, "services": nserv}


def ano_reply(request: bytes) -> bytes:
    ver = _sub(T_VERSION, struct.pack(">I", VERSION))
    services_array = struct.pack(">IHI", MAGIC, T_UB2, 2) + struct.pack(">HH", 4, 1)
    body = (_service(SUPERVISOR, [ver, _sub(T_STATUS, struct.pack(">H", 0x001F)),
                                  _sub(T_RAW, services_array)])
            + _service(AUTHENTICATION, [ver, _sub(T_STATUS, struct.pack(">H", 0xFBFF))])
            + _service(ENCRYPTION, [ver, _sub(T_UB1, b"\x00")])
            + _service(DATAINTEGRITY, [ver, _sub(T_UB1, b"\x00")]))
    total = 13 + len(body)
    return struct.pack(">IHIHB", MAGIC, total, 0, 4, 0) + body
