"""ANO / NA ("advanced networking option", DE AD BE EF) negotiation reply.

go-ora (and JDBC, and node when the ACCEPT does not disable NA) send a
network-services request right after the ACCEPT.  We answer like a server
with no NA services configured: supervisor OK (0x001F) with the service list
[4, 1], authentication "don't use" (0xFBFF), encryption and data integrity
with driver 0 (none) - or, when the scenario asks for native network
encryption, the configured algorithms and the Diffie-Hellman key exchange in
the data-integrity service (see nne.py).  Layout: magic, u16 total length, u32 version, u16
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


def parse_services(payload: bytes) -> dict[int, list[tuple[int, bytes]]]:
    """service type -> [(sub-packet type, value)] of an ANO message."""
    _, _, _, nserv, _ = struct.unpack(">IHIHB", payload[:13])
    pos = 13
    out: dict[int, list[tuple[int, bytes]]] = {}
    for _ in range(min(nserv, 16)):
        kind, nsub, _err = struct.unpack(">HHI", payload[pos:pos + 8])
        pos += 8
        subs = []
        for _ in range(min(nsub, 64)):
            length, t = struct.unpack(">HH", payload[pos:pos + 4])
            subs.append((t, payload[pos + 4:pos + 4 + length]))
            pos += 4 + length
        out[kind] = subs
    return out


def offered_algorithms(payload: bytes) -> tuple[list[int], list[int]]:
    """The encryption and integrity algorithm ids a client's ANO request offers (the
    bytes sub-packet after the version in each service)."""
    svc = parse_services(payload)

    def ids(kind):
        raw = [v for t, v in svc.get(kind, []) if t == T_RAW]
        return list(raw[0]) if raw else []
    return ids(ENCRYPTION), ids(DATAINTEGRITY)


def client_public_key(payload: bytes) -> bytes:
    """The client's second ANO packet: the data-integrity service with one bytes
    sub-packet, its Diffie-Hellman public key."""
    for t, v in parse_services(payload).get(DATAINTEGRITY, []):
        if t == T_RAW:
            return v
    raise ValueError("ANO packet without a data-integrity public key")


def ano_reply(request: bytes, encryption: int = 0, integrity: int = 0, dh=None,
              iv: bytes = b"", version: int = VERSION) -> bytes:
    """The server's reply.  With `dh` (nne.DiffieHellman) the data-integrity service
    carries the key exchange: 8 sub-packets (version, algorithm, generator and prime
    bit lengths, generator, prime, server public key, IV)."""
    ver = _sub(T_VERSION, struct.pack(">I", version))
    integ = [ver, _sub(T_UB1, bytes((integrity,)))]
    if dh is not None:
        bits = len(dh.prime) * 8
        integ += [_sub(T_UB2, struct.pack(">H", bits)), _sub(T_UB2, struct.pack(">H", bits)),
                  _sub(T_RAW, dh.generator), _sub(T_RAW, dh.prime), _sub(T_RAW, dh.public),
                  _sub(T_RAW, iv)]
    # the supervisor's service list stays [4, 1] with encryption on: JDBC counts the
    # services it finds in it and wants exactly 2 (SupervisorService, ORA-18921 otherwise)
    services_array = struct.pack(">IHI", MAGIC, T_UB2, 2) + struct.pack(">HH", 4, 1)
    body = (_service(SUPERVISOR, [ver, _sub(T_STATUS, struct.pack(">H", 0x001F)),
                                  _sub(T_RAW, services_array)])
            + _service(AUTHENTICATION, [ver, _sub(T_STATUS, struct.pack(">H", 0xFBFF))])
            + _service(ENCRYPTION, [ver, _sub(T_UB1, bytes((encryption,)))])
            + _service(DATAINTEGRITY, integ))
    total = 13 + len(body)
    return struct.pack(">IHIHB", MAGIC, total, 0, 4, 0) + body
