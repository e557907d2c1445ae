"""Scripted Oracle SQL*Net (TNS/TTC) server for capture generation.

It speaks just enough of the protocol for real thin clients (python-oracledb,
node-oracledb, go-ora) to connect, authenticate (O5LOGON, 11g verifier 0x1B25),
run queries over synthetic tables, fetch, commit, ping and log off.  Every
response is cut into DATA packets no larger than the negotiated SDU, and the
server keeps V$-style counters per connection and a record of every request /
response, which the pipeline writes into the capture's ground-truth manifest.

Run:  python3 -m sqlnetgen.server --config cfg.json --stats out.json
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import re
import signal
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field

# loaded before the first connection, not at its first use: an import (the crypto of auth
# and nne) in the middle of a connection would delay that answer by tens of ms
from . import ano, nne, releases, tns
from .auth import aes_cbc_decrypt, aes_cbc_encrypt
from .tables import DUAL, CHARSET_AL32UTF8, LOB_CHUNK_SIZE, TYPED, Table
from .ttc import (NeedMore, Reader, bytes_with_length, dalc, enc_sint, keyword_value,
                  oracle_date, oracle_number, str_with_length, ub1, ub2, ub4, ub8)

# --- message types / function codes (doc section 3) ------------------------
MSG_PROTOCOL, MSG_DATA_TYPES, MSG_FUNCTION, MSG_ERROR = 1, 2, 3, 4
MSG_ROW_HEADER, MSG_ROW_DATA, MSG_PARAMETER, MSG_STATUS = 6, 7, 8, 9
MSG_DESCRIBE_INFO, MSG_PIGGYBACK, MSG_BIT_VECTOR, MSG_END_OF_RESPONSE = 16, 17, 21, 29
MSG_FAST_AUTH = 34
MSG_COOKIE = 30           # JDBC T4CTTICookieMsg (ojdbc 23): the cached negotiation of an earlier session

FUNC_NAMES = {
    0x02: "OOPEN", 0x04: "OREEXECUTE", 0x05: "OFETCH", 0x08: "OCLOSE", 0x09: "OLOGOFF",
    0x0E: "OCOMMIT", 0x0F: "OROLLBACK", 0x14: "OCANCEL", 0x3B: "OVERSION",
    0x4E: "OEXFEN", 0x5E: "OALL8", 0x69: "OCCA", 0x73: "OAUTH", 0x76: "OSESSKEY", 0xBF: "OCLFEATURES",
    0x60: "OLOBOPS", 0x78: "OCANA", 0x87: "OSETE2E", 0x93: "OPING", 0x9A: "OKEYVAL", 0xB0: "OSESSSTATE",
}

EXEC_PARSE, EXEC_EXECUTE, EXEC_FETCH = 0x01, 0x20, 0x40
EXEC_COMMIT = 0x100                 # commit on success (autocommit)
EOCS_TXN_IN_PROGRESS = 0x02         # end-of-call status: a transaction is open (python-oracledb
                                    # TNS_EOCS_FLAGS_TXN_IN_PROGRESS)

CCAP_LOGON_TYPES = 4
CCAP_FIELD_VERSION = 7
CCAP_UB2_DTY = 27
CCAP_TTC3 = 37
CCAP_TTC4 = 40
CCAP_BIG_CHUNK_CLR = 0x20
CCAP_END_OF_RESPONSE = 0x20
DTY_SB1 = 27

VERIFIER_11G = 0x1B25
VERIFIER_12C = 0x4815
PBKDF2_VGEN_COUNT = 4096      # AUTH_PBKDF2_VGEN_COUNT of a default 12.2+ server
PBKDF2_SDER_COUNT = 3         # AUTH_PBKDF2_SDER_COUNT
ORA_MESSAGES = {
    942: "ORA-00942: table or view does not exist",
    1403: "ORA-01403: no data found",
    1722: "ORA-01722: invalid number",
    1001: "ORA-01001: invalid cursor",
    3115: "ORA-03115: unsupported network datatype or representation",
    6550: "ORA-06550: line 1, column 7:\nPLS-00201: identifier must be declared",
    2290: "ORA-02290: check constraint (SCOTT.SQLNET_ROWS_ID_POSITIVE) violated",
    24381: "ORA-24381: error(s) in array DML",
}

# Server "format descriptor" (FDO) in the PRO reply, as sent by 19c/23ai servers;
# bytes [5],[6] give the two leading array lengths, the db charset and the
# national charset (AL16UTF16 = 2000) follow at ix+1..ix+4 (ix = 6 + fdo[5] + fdo[6]).
_FDO_HEAD = bytes.fromhex(
    "0000006001240f050b0c030c0c0504050d0609070805050505050f05050505050a0505050505"
    "04050607080823472347081123081141b04700")
assert len(_FDO_HEAD) == 6 + _FDO_HEAD[5] + _FDO_HEAD[6], len(_FDO_HEAD)


def _fdo(charset: int) -> bytes:
    head = bytearray(_FDO_HEAD)
    ix = 6 + head[5] + head[6]
    body = head[:ix] + bytes((0x83,)) + struct.pack(">HH", charset, 2000) + b"\x03"
    return bytes(body) + bytes(100 - len(body))


def _server_compile_caps(fv: int, o7l_mr: bool = True) -> bytes:
    """Server compile-time capabilities (PRO reply).  [7] = field version.
    TTC4 (40) leaves EXPLICIT_BOUNDARY (0x40) clear so that clients do not try
    session-state (request boundary) piggybacks on us."""
    caps = bytearray.fromhex(
        "0601010" "16f07010c010101010101017fff030e03030101ff01ffff010b0101ff01060be2017f050f0f0d")
    caps[CCAP_FIELD_VERSION] = fv
    if not o7l_mr:
        caps[CCAP_LOGON_TYPES] &= ~0x20 & 0xFF
    caps[CCAP_TTC4] = 0x0F | CCAP_END_OF_RESPONSE if fv >= 24 else 0x0F
    return bytes(caps)


_SERVER_RUNTIME_CAPS = bytes.fromhex("02010001180077")  # [6] & 0x04: 32K strings; no 0x10


def returning_bind_count(sql: str) -> int:
    """Placeholders after RETURNING ... INTO of a DML statement (python-oracledb
    statement.pyx marks them return binds)."""
    text = re.sub(r"'[^']*'|/\*.*?\*/|--[^\n]*", " ", sql or "", flags=re.S)
    if not re.match(r"(?is)^\s*(insert|update|delete|merge)\b", text):
        return 0
    mt = re.search(r"(?is)\breturning\b.*?\binto\b(.*)$", text)
    return len(re.findall(r":[A-Za-z0-9_\"]", mt.group(1))) if mt else 0


def rxh(flags: int, ncols_sent: int, requested: int, vector: bytes = b"") -> bytes:
    """Row header: flags, ub2 columns sent, ub4 iteration#, ub4 num iters (= rows
    requested), ub2 buffer length, ub4 bit-vector length [+ repeated length byte
    + vector], bytes_with_length rxhrid."""
    b = bytearray(b"\x06") + bytes((flags,)) + ub2(ncols_sent) + b"\x00" + ub4(requested) + b"\x00"
    if vector:
        b += ub4(len(vector)) + bytes((len(vector),)) + vector
    else:
        b += b"\x00"
    return bytes(b + b"\x00")


# ---------------------------------------------------------------------------
def row_work(seconds: float):
    """The server's work on the rows of a call (a table's row_time_us): the CPU stays busy
    until the time is spent, as a database's does reading and filtering rows (a sleep would
    add the scheduler's wake-up latency, which a busy server does not pay)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@dataclass
class Cursor:
    cid: int
    sql: str
    table: Table | None
    pos: int = 0           # rows already processed (cumulative row count)
    last_values: list | None = None
    failed: bool = False
    lob_prefetch: dict | None = None     # column -> prefetch size the client's define asked
    lob_as_long: set | None = None       # LOB columns the client defined as LONG (text with the row)
    defined: bool = False                # the client sent column defines (a LOB define's prefetch flag)


@dataclass
class Session:
    fv: int = 24                 # effective TTC field version
    client_fv: int = 0
    eor: bool = False            # end-of-response in use (ACCEPT flags2 + client DTY ccap[40])
    accept_eor: bool = False
    big_chunks: bool = True
    sb1_universal: bool = False  # DTY rep of SB1 == 1 (go-ora, JDBC) vs raw (python)
    ub2_dty: bool = True
    client_name: str = ""
    seq: int = 0                 # end-to-end seq counter for OER/STA
    cursors: dict = field(default_factory=dict)
    dml_cursors: dict = field(default_factory=dict)   # cursor id -> (SQL text, table, binds) of a DML
    txn_open: bool = False       # a DML not yet committed (said only with the txn_status option)
    next_cursor: int = 2
    verifier_salt: bytes = b""
    server_sesskey: bytes = b""
    password_key: bytes = b""
    combo_key: bytes = b""
    csk_salt: bytes = b""
    dty_flags: int = 0x03         # client DTY encoding flags (TNS_ENCODING_*)
    user: str = ""


class ClientGone(Exception):
    pass


# ---------------------------------------------------------------------------
class Connection:
    """One client connection; runs in its own thread."""

    def __init__(self, server: "OracleServer", sock: socket.socket, addr):
        self.srv = server
        self.cfg = server.cfg
        self.sock = sock
        self.addr = addr
        self.large = False
        self.accepted = False      # counters of TNS bytes start after the ACCEPT
        self.sdu = 8192
        self.tdu = 8192
        self.s = Session(fv=int(self.cfg.get("field_version", 24)))
        self.rbuf = bytearray()
        self.rpos = 0          # bytes of the client->server stream consumed so far
        self.wpos = 0          # bytes of the server->client stream written so far
        self.split_next = None  # a delay (ms): the next response goes out in two writes (send_split)
        self.nagle_on = False
        self.stats = {
            "round_trips": 0, "bytes_sent_tns": 0, "bytes_received_tns": 0,
            "bytes_sent_socket": 0, "bytes_received_socket": 0, "rows_sent": 0,
            "execute_count": 0, "fetch_calls": 0, "parse_count": 0, "user_commits": 0,
            "markers_sent": 0, "markers_received": 0,
            "other_sent_tns_bytes": 0, "other_received_tns_bytes": 0,
        }
        self.info = {"client_address": addr[0], "client_port": addr[1]}
        self.requests: list[dict] = []
        self.rng = random.Random(hash((addr[1], self.cfg.get("seed", 1))))
        self.closed_reason = None
        self.session_start = time.time()
        self.nne = None            # nne.NneSession once the key exchange is done
        self.nne_pending = None    # (encryption, integrity, DH, IV) between the ANO reply and the client's key

    # --- socket / packet I/O ---------------------------------------------
    def _recv_exact(self, n: int) -> bytes:
        while len(self.rbuf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.rbuf)))
            if not chunk:
                raise ClientGone("client closed")
            self.stats["bytes_received_socket"] += len(chunk)
            self.rbuf += chunk
            self.srv.hexdump("I", chunk)
        out = bytes(self.rbuf[:n])
        del self.rbuf[:n]
        self.rpos += n
        return out

    def read_packet(self) -> tuple[int, int, bytes]:
        hdr = self._recv_exact(8)
        length, ptype, flags = tns.parse_header(hdr, self.large)
        if length < 8:
            raise ClientGone(f"bad packet length {length}")
        body = self._recv_exact(length - 8)
        pkt = hdr + body
        if self.accepted:
            self.stats["bytes_received_tns"] += length
        return ptype, flags, pkt

    def send_raw(self, data: bytes):
        self.sock.sendall(data)
        self.srv.hexdump("O", data)
        self.stats["bytes_sent_socket"] += len(data)
        self.wpos += len(data)

    def send_split(self, packets: list[bytes], delay_ms: float) -> tuple[list[int], dict]:
        """One response in two writes with Nagle on (issue 23): the first TNS packet's
        first half, a sleep of delay_ms, the rest.  The second write waits in the kernel
        for the client's ACK of the first (Nagle), which a delayed ACK holds back; the
        record says what the server did and when."""
        first = packets[0]
        half = len(first) // 2
        # Nagle stays on until the next response (send_response turns it off again):
        # turning TCP_NODELAY on flushes what Nagle holds
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)
        self.nagle_on = True
        t0 = time.time()
        self.send_raw(first[:half])
        time.sleep(delay_ms / 1000.0)
        t1 = time.time()
        self.send_raw(first[half:])
        for p in packets[1:]:
            self.send_raw(p)
        lengths = [len(p) for p in packets]
        if self.accepted:
            self.stats["bytes_sent_tns"] += sum(lengths)
        return lengths, {"first_write_bytes": half, "first_write_time": t0, "second_write_time": t1,
                         "server_sleep_ms": (t1 - t0) * 1000.0, "nagle": True}

    def send_packets(self, packets: list[bytes]) -> list[int]:
        """Send TNS packets (one sendall each: a server writes one packet at a time)."""
        lengths = []
        for p in packets:
            self.send_raw(p)
            lengths.append(len(p))
            if self.accepted:
                self.stats["bytes_sent_tns"] += len(p)
        return lengths

    # --- handshake ----------------------------------------------------------
    def handshake(self):
        ptype, hflags, pkt = self.read_packet()
        if ptype != tns.CONNECT:
            raise ClientGone(f"expected CONNECT, got {ptype}")
        self.info["connect_header_flags"] = hflags    # 0x04: the client followed a REDIRECT
        c = tns.parse_connect(pkt)
        if c.data_length and not c.connect_data:
            # descriptor > 230 bytes: follows in a DATA packet (2-byte length)
            ptype2, _, pkt2 = self.read_packet()
            c.connect_data = pkt2[10:].decode("latin-1")
        cfg = self.cfg
        version = min(int(cfg.get("tns_version", 319)), c.version)
        if version < 314:
            version = 314
        sdu_limit = int(cfg.get("sdu_limit", 8192))
        if version < 315:      # 16-bit lengths: SDU and TDU are u16 in the ACCEPT (11g: <= 32767)
            sdu_limit = min(sdu_limit, 32767)
        self.sdu = max(512, min(c.sdu or 8192, sdu_limit))
        self.tdu = min(c.tdu or self.sdu, int(cfg.get("tdu_limit", 2097152)))
        if version < 315:
            self.tdu = min(self.tdu, 65535)
        flags2 = 0
        if version >= 319 and cfg.get("end_of_response", True):
            flags2 |= tns.ACCEPT_FLAG2_HAS_END_OF_RESPONSE
            self.s.accept_eor = True
        # ACCEPT >= 319 carries a 16-byte database id (ojdbc 23.26 NIOAcceptPacket: payload
        # offset 37, SessionAtts.setDatabaseUUID). ojdbc keys its TTC cookie cache on it: a
        # non-blank id seen again in the same JVM makes the driver send PRO + cookie (message
        # 30) + DTY + OSESSKEY in one request. "database_uuid" (hex) keeps it the same for
        # every connection, as a real database's; by default it is random per connection.
        uuid = (bytes.fromhex(cfg["database_uuid"]) if cfg.get("database_uuid")
                else self.rng.getrandbits(128).to_bytes(16, "big"))
        # NA (ANO) handling like a real listener: a client that disables NA or has
        # no NA services (python 0x84, node 0x08) gets NSI 0xC5/0x00 and skips the
        # DE AD BE EF exchange; others (go-ora 0x01, JDBC 0x81) get 0x41/0x01 and negotiate.
        if c.nsi_flags0 & 0x0C:
            nsi0, nsi1 = 0xC5, 0x00
        else:
            nsi0, nsi1 = 0x41, 0x01
        acc = tns.build_accept(version, self.sdu, self.tdu, flags2, nsi0=nsi0, nsi1=nsi1, uuid=uuid)
        self.send_raw(acc)
        self.large = version >= 315
        self.accepted = True
        self.info.update({
            "connect_version": c.version, "accepted_version": version,
            "connect_sdu_requested": c.sdu, "connect_tdu_requested": c.tdu,
            "negotiated_sdu": self.sdu, "negotiated_tdu": self.tdu,
            "accept_flags2": flags2, "connect_data": c.connect_data,
        })

    # --- request assembly -------------------------------------------------
    def read_request(self) -> tuple[bytes, list[int], int] | None:
        """Read one TTC request (possibly spread over several DATA packets).
        Returns (payload, packet lengths, data flags of last packet) or None on EOF."""
        payload = bytearray()
        lengths: list[int] = []
        self.req_stream_start = None
        self.req_plain_bytes = 0
        while True:
            start = self.rpos
            ptype, hflags, pkt = self.read_packet()
            if ptype == tns.DATA and self.req_stream_start is None:
                self.req_stream_start = start
            if ptype == tns.MARKER:
                self.stats["markers_received"] += 1
                self.stats["other_received_tns_bytes"] += len(pkt)
                continue
            if ptype != tns.DATA:
                self.stats["other_received_tns_bytes"] += len(pkt)
                continue
            dflags = struct.unpack(">H", pkt[8:10])[0]
            if dflags & tns.DATA_FLAG_EOF:
                self.stats["other_received_tns_bytes"] += len(pkt)
                return None
            if self.nne is not None:       # NNE: the payload after the data flags is sealed
                plain = self.nne.open(pkt[10:], self.s.combo_key)
                if self.nne.folded and "key_folded_at_request" not in self.info["nne"]:
                    # the first request after the client folded the logon key in
                    self.info["nne"]["key_folded_at_request"] = len(self.requests)
                self.req_plain_bytes += len(plain)
                payload += plain
            else:
                payload += pkt[10:]
            lengths.append(len(pkt))
            full = len(pkt) >= self.sdu
            state = self.request_complete(bytes(payload))
            if state == "complete":
                return bytes(payload), lengths, dflags
            if state == "unknown" and not full:
                return bytes(payload), lengths, dflags
            if state == "need_more" and not full:
                # the parser wants more although the packet was not full: wait
                # briefly for a continuation, else take what we have
                self.sock.settimeout(2.0)
                try:
                    if not self.rbuf:
                        peek = self.sock.recv(65536, socket.MSG_PEEK)
                        if not peek:
                            return bytes(payload), lengths, dflags
                except socket.timeout:
                    return bytes(payload), lengths, dflags
                finally:
                    self.sock.settimeout(None)

    def request_complete(self, payload: bytes) -> str:
        try:
            msgs = self.parse_request(payload)
        except NeedMore:
            return "need_more"
        except Exception:
            return "unknown"
        if msgs and msgs[-1].get("complete") is False:
            return "unknown"
        return "complete"

    # --- request parsing --------------------------------------------------
    def parse_request(self, payload: bytes) -> list[dict]:
        r = Reader(payload, big_chunks=self.s.big_chunks)
        msgs = []
        while r.remaining() > 0:
            mtype = r.u8()
            if mtype == MSG_PROTOCOL:
                # the accepted protocol versions, highest first, ending in 0 (python and node
                # send 06 00, JDBC 06 05 04 03 02 01 00), then the client's name ending in 0
                vend = payload.find(b"\x00", r.pos)
                if vend < 0:
                    raise NeedMore("PRO versions")
                r.pos = vend + 1
                end = payload.index(b"\x00", r.pos) if b"\x00" in payload[r.pos:] else None
                if end is None:
                    raise NeedMore("PRO name")
                name = payload[r.pos:end].decode("latin-1")
                r.pos = end + 1
                msgs.append({"type": "PRO", "function": "PRO", "client_name": name})
            elif mtype == MSG_DATA_TYPES:
                msgs.append(self.parse_dty(r))
                if r.remaining():
                    # ojdbc's cookie path: the call after the DTY is written in the dialect
                    # the DTY settles (field version, big chunks) before any reply
                    self.s.fv = min(msgs[-1]["ccaps"][CCAP_FIELD_VERSION] if len(msgs[-1]["ccaps"]) >
                                    CCAP_FIELD_VERSION else 0, int(self.cfg.get("field_version", 24)))
                    r.big_chunks = (len(msgs[-1]["ccaps"]) > CCAP_TTC3 and
                                    bool(msgs[-1]["ccaps"][CCAP_TTC3] & CCAP_BIG_CHUNK_CLR))
            elif mtype == MSG_COOKIE:
                msgs.append(self.parse_cookie(r))
            elif mtype == MSG_FAST_AUTH:
                msgs.append({"type": "FAST_AUTH", "function": "FAST_AUTH", "complete": False})
                r.pos = len(payload)
            elif mtype in (MSG_FUNCTION, MSG_PIGGYBACK):
                msgs.append(self.parse_function(r, piggyback=(mtype == MSG_PIGGYBACK)))
                if msgs[-1].get("complete") is False:
                    r.pos = len(payload)
            else:
                msgs.append({"type": f"MSG{mtype}", "function": f"MSG{mtype}", "complete": False})
                r.pos = len(payload)
        return msgs

    def parse_cookie(self, r: Reader) -> dict:
        """JDBC connection cookie (ojdbc 23.26 T4CTTICookie.marshal): sb1 version (1), ub1
        protocol version, ub2 charset (native, T4CMAREngine.marshalNativeUB2), ub1 charset
        flags, ub2 ncharset (native), ub1 length of the server's platform string + 1, the
        string, sb1 0, ub1 + compile-time capabilities, ub1 + runtime capabilities: what the
        server's PRO reply of an earlier session said. Before the DTY every value is a raw
        byte; the two ub2 are little-endian (checked against the capture's bytes)."""
        version = r.u8()
        proto_version = r.u8()
        charset = r.u16le()
        flags = r.u8()
        ncharset = r.u16le()
        plen = r.u8()
        platform = r.raw(max(plen - 1, 0))
        r.u8()
        ccaps = r.raw(r.u8())
        rcaps = r.raw(r.u8())
        return {"type": "COOKIE", "function": "COOKIE", "version": version,
                "protocol_version": proto_version, "charset": charset, "charset_flags": flags,
                "ncharset": ncharset, "platform": platform.decode("latin-1"),
                "compile_caps": ccaps.hex(), "runtime_caps": rcaps.hex()}

    def parse_dty(self, r: Reader) -> dict:
        charset = r.u16le()
        ncharset = r.u16le()
        flags = r.u8()
        ncc = r.u8()
        ccaps = r.raw(ncc)
        nrc = r.u8()
        rcaps = r.raw(nrc)
        if len(rcaps) > 1 and rcaps[1] & 0x01:
            r.raw(11)                      # client time zone
            if len(ccaps) > CCAP_TTC3 and ccaps[CCAP_TTC3] & 0x02:
                r.raw(4)
            r.raw(2)                       # client ncharset
        ub2_dty = len(ccaps) > CCAP_UB2_DTY and ccaps[CCAP_UB2_DTY] != 0
        reps = {}
        while True:
            if ub2_dty:
                dty = r.u16be()
                if dty == 0:
                    break
                conv = r.u16be()
                if conv != 0:
                    rep = r.u16be()
                    r.u16be()
                    reps[dty] = rep
            else:
                dty = r.u8()
                if dty == 0:
                    break
                conv = r.u8()
                if conv != 0:
                    rep = r.u8()
                    r.u8()
                    reps[dty] = rep
        return {"type": "DTY", "function": "DTY", "charset": charset, "ncharset": ncharset,
                "flags": flags, "ccaps": ccaps, "rcaps": rcaps, "reps": reps}

    def parse_function(self, r: Reader, piggyback: bool) -> dict:
        func = r.u8()
        seq = r.u8()
        m = {"type": "PIGGYBACK" if piggyback else "FUNCTION", "func_code": func, "seq": seq,
             "function": FUNC_NAMES.get(func, f"FUNC_0x{func:02X}")}
        if self.s.fv >= 18:
            m["token"] = r.ub8()
        if func == 0x5E:
            self.parse_oall8(r, m)
        elif func == 0x05:
            m["cursor"] = r.ub4()
            m["rows_requested"] = r.ub4()
        elif func == 0x4E:
            m["cursor"] = r.ub4()
            m["rows_requested"] = r.ub4()
            m["options"] = r.ub4()
            m["options2"] = r.ub4()
            if r.remaining() and r.data[r.pos] == MSG_ROW_DATA:
                m["complete"] = False       # bind values follow: not parsed
        elif func == 0x04:
            m["cursor"] = r.ub4()
            m["num_iters"] = r.ub4()
            r.ub4()
            r.ub4()
            if r.remaining() and r.data[r.pos] == MSG_ROW_DATA:
                m["complete"] = False
        elif func in (0x76, 0x73):
            self.parse_auth(r, m)
        elif func in (0x69, 0x78):          # close cursors / JDBC OCANA: 01 <ub4 n> n x ub4
            r.u8()
            n = r.ub4()
            m["cursors"] = [r.ub4() for _ in range(n)]
        elif func == 0xB0:
            m["flags"] = r.ub8()
        elif func == 0xBF:                  # OCLFEATURES (JDBC): ptr, ub4 len, sb8, len bytes
            r.u8()
            n = r.ub4()
            r.ub8()
            m["features"] = r.raw(n).decode("latin-1")
        elif func == 0x3B:                  # OVERSION (go-ora): ptr, ub2 buflen, ptr, ptr, [ub4 1]
            r.u8()
            m["buflen"] = r.ub2()
            r.u8()
            r.u8()
            if self.s.fv >= 11:
                r.ub4()
        elif func == 0x60:                  # LOB operation (python-oracledb lob_op.pyx)
            r.u8()
            src_len = r.ub4()
            r.u8()
            dst_len = r.ub4()
            r.ub4()
            r.ub4()
            m["charset_ptr"] = r.u8()
            r.u8()
            m["null_ptr"] = r.u8()
            m["operation"] = r.ub4()
            r.u8()
            r.ub4()                         # SCN array (python: a 0 byte)
            m["offset"] = r.ub8()
            r.ub8()
            m["amount_ptr"] = r.u8()
            r.raw(6)                        # array LOB
            m["locator"] = r.raw(src_len)
            r.raw(dst_len)
            if m["charset_ptr"]:
                m["charset"] = r.ub4()      # go-ora's CLOB read passes its charset
            if r.remaining() and r.data[r.pos] == 0x0E:
                r.u8()
                m["data"] = r.dalc()
            if m["amount_ptr"]:
                m["amount"] = r.ub8()
        elif func in (0x09, 0x0E, 0x0F, 0x93):
            pass
        else:
            m["complete"] = False
        return m

    def parse_auth(self, r: Reader, m: dict):
        has_user = r.u8()
        userlen = r.ub4()
        m["auth_mode"] = r.ub4()
        r.u8()
        npairs = r.ub4()
        r.u8()
        r.u8()
        user = b""
        if has_user and userlen:
            # python-oracledb and node write the user name with a length byte; JDBC writes
            # its userlen bytes bare (a name never starts with a byte equal to its length)
            if r.data[r.pos] == userlen:
                user = r.dalc() or b""
            else:
                user = r.raw(userlen)
        m["user"] = user.decode("latin-1")
        kv = {}
        for _ in range(npairs):
            klen = r.ub4()
            key = r.dalc() if klen else b""
            vlen = r.ub4()
            val = r.dalc() if vlen else b""
            fl = r.ub4()
            kv[(key or b"").decode("latin-1")] = ((val or b"").decode("latin-1"), fl)
        m["kv"] = kv

    def parse_oall8(self, r: Reader, m: dict):
        fv = self.s.fv
        m["options"] = r.ub4()
        m["cursor"] = r.ub4()
        sql_ptr = r.u8()
        sql_len = r.ub4()
        r.u8()                          # al8i4 pointer
        al8i4_len = r.ub4()
        r.u8()
        r.u8()                          # al8o4, al8o4l
        m["prefetch_buffer"] = r.ub4()
        m["prefetch_rows"] = r.ub4()
        m["max_long"] = r.ub4()
        r.u8()
        m["num_binds"] = r.ub4()
        for _ in range(5):              # al8app, al8txn, al8txl, al8kv, al8kvl
            r.u8()
        r.u8()
        m["num_defines"] = r.ub4()
        r.ub4()                         # registration id lsb
        r.u8()
        r.u8()
        r.u8()                          # al8objlist, al8objlen, al8blv
        r.ub4()                         # al8blvl
        r.u8()
        r.ub4()                         # al8dnam, al8dnaml
        r.ub4()                         # registration id msb
        if fv >= 7:                     # go-ora writes these from TTC field version 7 (12.1) on
            # al8pidmlrc pointer, al8pidmlrcbl (executions), al8pidmlrcl pointer: the client
            # wants the per-execution DML row counts at the end of the RPA (python
            # arraydmlrowcounts, JDBC on every DML)
            m["dml_rowcounts"] = r.u8()
            m["dml_rowcounts_len"] = r.ub4()
            r.u8()
        if fv >= 8:
            r.u8()
            r.ub4()
            r.u8()
            r.ub4()
            r.u8()
        if fv >= 9:
            r.u8()
            r.ub4()
        sql = ""
        if sql_ptr and sql_len:
            # thin drivers send a DALC; JDBC sends the text raw (no length byte)
            first = r.data[r.pos] if r.remaining() else None
            if first is None:
                raise NeedMore("sql")
            if first == 0xFE or (first == sql_len and sql_len <= 252):
                data = r.dalc() or b""
            else:
                data = r.raw(sql_len)
            sql = data.decode("utf-8", "replace")
        m["sql"] = sql
        al8i4 = [r.ub4() for _ in range(al8i4_len)]
        m["al8i4"] = al8i4
        if not m["num_binds"] and m["cursor"] in self.s.dml_cursors and r.remaining() and \
                r.data[r.pos] == MSG_ROW_DATA:
            # a DML executed again on its cursor (JDBC's PreparedStatement: options 0x8020,
            # no bind pointer, bind count 0): the rows of values alone, as many values each
            # as the cursor's first execution bound
            try:
                m["bind_rows"] = self.parse_bind_rows(r, self.s.dml_cursors[m["cursor"]][2])
            except (NeedMore, IndexError, ValueError):
                m["complete"] = False
        elif m["num_binds"] and not m["num_defines"]:
            try:
                self.parse_binds(r, m)
            except (NeedMore, IndexError, ValueError):
                m["complete"] = False
        elif m["num_defines"]:
            try:
                m["defines"] = self.parse_column_metadata(r, m["num_defines"])
            except (NeedMore, IndexError, ValueError):
                m["complete"] = False

    def parse_column_metadata(self, r: Reader, n: int) -> list[dict]:
        """n column metadata entries (binds or defines, one layout)."""
        out = []
        for _ in range(n):
            b = {"type": r.u8(), "flags": r.u8()}
            r.u8()
            r.ub2()                             # scale (JDBC: ub2 for some types)
            b["size"] = r.ub4()
            b["max_elements"] = r.ub4()
            b["cont_flags"] = r.ub8()
            if r.ub4():
                r.dalc()                        # type OID
            r.ub4()                             # type version
            r.ub2()
            b["csfrm"] = r.u8()
            b["max_chars"] = r.ub4()            # a LOB define: the prefetch size
            if self.s.fv >= 8:
                r.ub4()
            out.append(b)
        return out

    def parse_bind_rows(self, r: Reader, n: int) -> list[list]:
        """Rows of n scalar values (MSG_ROW_DATA each), no metadata before them."""
        rows = []
        while r.remaining() and r.data[r.pos] == MSG_ROW_DATA:
            r.u8()
            rows.append([r.dalc() for _ in range(n)])
        return rows

    def parse_binds(self, r: Reader, m: dict):
        """Bind metadata then one row of values, as python-oracledb writes them
        (messages/base.pyx _write_column_metadata, _write_bind_params_row): per bind
        type, flags, precision, scale, buffer size ub4, max elements ub4, cont flags ub8,
        type OID (ub4 length + bytes), version, charset ub2, form u8, max chars ub4 and
        from field version 8 the collation id ub4.  Return binds (after RETURNING ...
        INTO) have no value in the row."""
        binds = self.parse_column_metadata(r, m["num_binds"])
        nret = returning_bind_count(m.get("sql", ""))
        for b in binds[len(binds) - nret:] if nret else []:
            b["returning"] = True
        rows = []
        # one row of values per execution (array DML: al8i4[1] executions)
        while r.remaining() and r.data[r.pos] == MSG_ROW_DATA:
            r.u8()
            row = []
            for b in binds:
                if b.get("returning"):
                    continue
                if b["flags"] & 0x40:           # PL/SQL array: count, then the elements
                    v = [r.dalc() for _ in range(r.ub4())]
                elif b["type"] == 109:          # object: not emulated
                    raise ValueError("object bind")
                else:
                    v = r.dalc()
                row.append(v)
                b.setdefault("value", v)
            # JDBC also writes the return binds, as NULLs (python-oracledb skips them)
            for b in binds:
                if b.get("returning") and r.remaining() and r.data[r.pos] == 0:
                    r.u8()
            rows.append(row)
        m["binds"] = binds
        m["bind_rows"] = rows

    # --- response building -------------------------------------------------
    def next_seq(self) -> int:
        self.s.seq = (self.s.seq + 1) & 0xFFFF or 1
        return self.s.seq

    def oer(self, cursor: int = 0, rowcount: int = 0, error: int = 0, call_seq: int = 0,
            sql_type: int = 0, message: str | None = None, call_status: int | None = None,
            success_iters: int = 0, rowid: tuple | None = None, error_pos: int = 0,
            batch: list | None = None) -> bytes:
        """OER as python-oracledb _process_error_info and JDBC T4CTTIoer11/19 read it.  `rowid`
        (data object id, relative file, block, slot) is the last row the call touched, as a
        server reports it for a query on a real table or an INSERT (python: cursor.lastrowid);
        `error_pos` the offset in the SQL text the error points at (ORA-00942: the table name)."""
        fv = self.s.fv
        if call_status is None:
            call_status = 0x10001 if error not in (0, 1403) else 1
            if self.s.txn_open:
                call_status |= EOCS_TXN_IN_PROGRESS
        b = bytearray(b"\x04")
        b += ub4(call_status) + ub2(self.next_seq()) + ub4(rowcount & 0xFFFFFFFF) + ub2(error & 0xFFFF)
        b += b"\x00\x00"                          # array elem errors
        b += ub2(cursor) + enc_sint(error_pos)    # cursor id, error position (sb2)
        b += bytes((sql_type,))
        b += self.sb1(0) + self.sb1(0) + self.sb1(0)  # fatal, flags, user cursor options (SB1)
        b += b"\x00\x00"                          # UPI parameter, warning flags
        objid, rfile, block, slot = rowid or (0, 0, 0, 0)
        b += ub4(objid) + ub2(rfile) + b"\x00" + ub4(block) + ub2(slot)   # rowid
        b += b"\x00"                              # OS error
        b += bytes((0, call_seq & 0xFF))          # statement#, call#
        b += b"\x00" + ub4(success_iters)       # padding, success iters
        b += b"\x00"                              # oerrdd
        if batch:
            # batch errors (python-oracledb _process_error_info): codes (ub2 count, a
            # packed-size byte, ub2 each), row offsets (ub4 count, a byte, ub4 each),
            # messages (ub2 count, a byte, per message ub2 chunk length, text, 2-byte end)
            n = len(batch)
            b += ub2(n) + bytes((n,)) + b"".join(ub2(code) for code, _, _ in batch)
            b += ub4(n) + bytes((n,)) + b"".join(ub4(off) for _, off, _ in batch)
            b += ub2(n) + bytes((n,))
            for _, _, text in batch:
                t = (text + "\n").encode()
                b += ub2(len(t)) + dalc(t) + b"\x00\x00"
        else:
            b += b"\x00\x00\x00"                  # batch error codes/offsets/messages
        if fv >= 7:
            b += ub4(error) + ub8(rowcount)
        if fv >= 14:
            b += ub4(sql_type) + ub4(0)
        if error:
            msg = (message or ORA_MESSAGES.get(error, f"ORA-{error:05d}: error")) + "\n"
            b += dalc(msg.encode())
        return bytes(b)

    def sta(self, call_status: int = 1) -> bytes:
        return b"\x09" + ub4(call_status) + ub2(self.next_seq())

    def sb1(self, v: int) -> bytes:
        if self.s.sb1_universal:
            return enc_sint(v)
        return bytes((v & 0xFF,))

    def dcb(self, table: Table, cursor: Cursor, prefetch: int) -> bytes:
        b = bytearray(b"\x10")
        now = time.gmtime()
        ident = hashlib.md5(f"{cursor.sql}|{cursor.cid}".encode()).digest()
        b += dalc(ident + oracle_date(now.tm_year, now.tm_mon, now.tm_mday,
                                      now.tm_hour, now.tm_min, now.tm_sec))
        return bytes(b) + self.describe_body(table, prefetch)

    def describe_body(self, table: Table, prefetch: int) -> bytes:
        """Max row size, columns, their metadata and the describe's trailer: the body of a
        describe message and of a REF cursor value (python-oracledb _process_describe_info)."""
        fv = self.s.fv
        now = time.gmtime()
        b = bytearray()
        b += ub4(table.max_row_size()) + ub4(len(table.columns))
        b += b"\x5c"
        for pos, col in enumerate(table.columns, 1):
            if col.type == "number":
                b += bytes((2, 0)) + self.sb1(0) + self.sb1(-127)
                b += ub4(22) + b"\x00\x00\x00" + ub2(0) + ub2(0) + b"\x00" + ub4(22)
            elif col.type == "long":
                # LONG: no maximum size in the describe (0; clients treat it as unbounded)
                b += bytes((8, 0x80)) + self.sb1(0) + self.sb1(0)
                b += ub4(0) + b"\x00\x00\x00" + ub2(0) + ub2(CHARSET_AL32UTF8) + b"\x01"
                b += ub4(0)
            elif col.type == "clob":
                b += bytes((112, 0x80)) + self.sb1(0) + self.sb1(0)
                b += ub4(col.size) + b"\x00\x00\x00" + ub2(0) + ub2(CHARSET_AL32UTF8) + b"\x01"
                b += ub4(0)
            elif col.type in TYPED:
                # a typed column of the value scenarios: type, precision/scale (NUMBER with
                # scale -127: a float), buffer size, charset and form (AL16UTF16 = 2000 for
                # the national forms), max size
                ora, form, size = TYPED[col.type]
                size = col.size if size is None else size
                cs = 2000 if form == 2 else CHARSET_AL32UTF8 if form == 1 else 0
                b += bytes((ora, 0x80)) + self.sb1(0) + self.sb1(-127 if ora == 2 else 0)
                b += ub4(size) + b"\x00\x00\x00" + ub2(0) + ub2(cs) + bytes((form,)) + ub4(size)
            elif col.type == "raw":
                b += bytes((23, 0x80)) + self.sb1(0) + self.sb1(0)
                b += ub4(col.size) + b"\x00\x00\x00" + ub2(0) + ub2(0) + b"\x00" + ub4(col.size)
            elif col.type == "object":
                # an object column: its type's OID (ub4 length + bytes) and version in the
                # column metadata, the type's schema and name after the column name (go-ora
                # ParameterInfo.load matches its registered types by that name;
                # python-oracledb _process_metadata reads oid, schema, name)
                toid = bytes.fromhex(table.spec["object_type"]["toid"])
                b += bytes((109, 0x80)) + self.sb1(0) + self.sb1(0)
                b += ub4(col.size) + b"\x00\x00" + ub4(len(toid)) + dalc(toid) + ub2(1) + ub2(0) + b"\x00"
                b += ub4(0)
            else:
                b += bytes((1, 0x80)) + self.sb1(0) + self.sb1(0)
                b += ub4(col.size) + b"\x00\x00\x00" + ub2(0) + ub2(CHARSET_AL32UTF8) + b"\x01"
                b += ub4(col.size)
            if fv >= 8:
                b += ub4(0x3FFE if pos == 1 else 0)             # oaccolid
            b += b"\x01" + bytes((len(col.name),))              # nulls allowed, v7 name len
            b += str_with_length(col.name, count=len(col.name) * 3)
            if col.type == "object":
                otype = table.spec["object_type"]
                b += str_with_length(otype["schema"]) + str_with_length(otype["name"])
            else:
                b += b"\x00\x00"                                 # schema, type name
            b += ub2(pos) + ub4(0)                               # column position, uds flags
            if fv >= 17:
                b += b"\x00\x00"
            if fv >= 20:
                b += b"\x00"
            if fv >= 24:
                b += b"\x00\x00\x00"
        b += bytes_with_length(oracle_date(now.tm_year, now.tm_mon, now.tm_mday,
                                           now.tm_hour, now.tm_min, now.tm_sec))
        b += b"\x00" + ub4(0x1FE8) + ub4(prefetch) + ub4(prefetch) + b"\x00"
        return bytes(b)

    def rows_block(self, cursor: Cursor, n: int, requested: int,
                   flags: int) -> tuple[bytes, int, int, int]:
        """RXH followed by up to n rows (RXD, with BVC for suppressed duplicate
        columns when the table asks for it).  Returns (bytes, rows, row bytes,
        bit vector bytes): row bytes are the row data messages (0x07, and the
        0x15 bit vector messages before them), without the RXH; bit vector
        bytes are the 0x15 messages alone."""
        table = cursor.table
        enc = table.encoded_rows()
        ncols = len(table.columns)
        start = cursor.pos
        end = min(table.nrows, start + n)
        out = bytearray()
        prev = cursor.last_values
        first_vector = b""
        parts = []
        bvc_bytes = 0
        bvc_active = False
        for i in range(start, end):
            row = enc[i]
            if cursor.lob_prefetch:
                row = list(row)
                vals = table.row_values(i)
                for k, size in cursor.lob_prefetch.items():
                    row[k] = table.encode_lob(vals[k], size)
            if cursor.lob_as_long:
                row = list(row)
                vals = table.row_values(i)
                for k in cursor.lob_as_long:
                    row[k] = table.encode_long(vals[k])
            if table.has_lob and not cursor.defined:
                # fetched without defines (JDBC with defaultLobPrefetchSize -1: no LOB
                # prefetch flag): the bare locator, no size or chunk size before it
                row = list(row)
                vals = table.row_values(i)
                for k, c in enumerate(table.columns):
                    if c.type == "clob":
                        row[k] = table.encode_lob_locator(vals[k])
            if table.bvc and prev is not None:
                present = [row[k] != prev[k] for k in range(ncols)]
            else:
                present = [True] * ncols
            if all(present) and not bvc_active:
                parts.append(b"\x07" + b"".join(row))
            else:
                # once a bit vector was sent in this response, every later row
                # carries one (go-ora keeps the last vector until the next one)
                vec = bytearray((ncols + 7) // 8)
                for k, p in enumerate(present):
                    if p:
                        vec[k // 8] |= 1 << (k % 8)
                body = b"\x07" + b"".join(row[k] for k in range(ncols) if present[k])
                if i == start:
                    first_vector = bytes(vec)
                    parts.append(body)
                else:
                    bvc = b"\x15" + ub2(sum(present)) + bytes(vec)
                    bvc_bytes += len(bvc)
                    parts.append(bvc + body)
                bvc_active = True
            prev = row
        out += rxh(flags, sum(1 for _ in table.columns) if not first_vector else
                   bin(int.from_bytes(first_vector, "little")).count("1"), requested, first_vector)
        row_data = b"".join(parts)
        out += row_data
        cursor.pos = end
        cursor.last_values = prev
        return bytes(out), end - start, len(row_data), bvc_bytes

    def rpa_execute(self, cursor: Cursor, dml_rowcounts: list[int] | None = None) -> bytes:
        """RPA: al8o4 (query id, 0, cursor id, ...), al8txl, key/value pairs, registration
        info, then the DML row counts (ub4 count + ub8 each) when the call asked for them."""
        vals = [self.rng.getrandbits(32), 0, cursor.cid, 0, 0, 0]
        b = b"\x08" + ub2(len(vals)) + b"".join(ub4(v) for v in vals) + b"\x00\x00\x00"
        if dml_rowcounts is not None:
            b += ub4(len(dml_rowcounts)) + b"".join(ub8(n) for n in dml_rowcounts)
        return b

    # --- sending responses ------------------------------------------------
    def send_response(self, payload: bytes, rec: dict | None, eor_allowed: bool = True,
                      think_time: bool = True) -> dict:
        think = float(self.cfg.get("think_time_ms", 0)) / 1000.0 if think_time else 0
        if think:
            time.sleep(think)
        use_eor = self.s.eor and eor_allowed
        if use_eor:
            payload += bytes((MSG_END_OF_RESPONSE,))
        last_flags = tns.DATA_FLAG_END_OF_RESPONSE if use_eor else 0
        if self.nne is None:
            pkts = tns.split_payload(payload, self.sdu, last_flags=last_flags, large=self.large)
        else:
            # NNE: cut the plaintext so that each sealed packet fits the SDU, seal each piece
            room = self.nne.max_plain(self.sdu)
            chunks = [payload[i:i + room] for i in range(0, len(payload), room)] or [b""]
            pkts = [tns.data_packet(self.nne.seal(ch), last_flags if k == len(chunks) - 1 else 0,
                                    self.large) for k, ch in enumerate(chunks)]
        if self.nagle_on:
            # the previous response's split write is out: the client's call proves it
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.nagle_on = False
        split = self.split_next
        self.split_next = None
        if split is not None and self.nne is None and pkts and len(pkts[0]) > 2:
            lengths, split_rec = self.send_split(pkts, split)
        else:
            lengths, split_rec = self.send_packets(pkts), None
        resp = {"tns_packets": len(lengths), "tns_bytes": sum(lengths),
                "packet_lengths": lengths, "end_of_response_flag": use_eor,
                "ttc_bytes": len(payload)}
        if split_rec is not None:
            resp["split_send"] = split_rec
        if self.nne is not None:
            # what the server wrote: DATA packets, their bytes, plaintext and sealed
            # payload per packet (after the 2 data-flag bytes)
            resp["nne"] = {"data_packets": len(pkts), "tns_bytes": sum(lengths),
                           "plain_lengths": [len(ch) for ch in chunks],
                           "sealed_lengths": [n - 10 for n in lengths],
                           "overhead_bytes": sum(lengths) - 10 * len(pkts) - len(payload)}
        return resp

    def send_error_with_markers(self, payload: bytes) -> dict:
        """Error path of a real server: BREAK, RESET, wait for the client's RESET,
        then the OER (+ EOR)."""
        think = float(self.cfg.get("think_time_ms", 0)) / 1000.0
        if think:
            time.sleep(think)
        mlens = self.send_packets([tns.marker_packet(tns.MARKER_BREAK, self.large),
                                   tns.marker_packet(tns.MARKER_RESET, self.large)])
        self.stats["markers_sent"] += 2
        client_marker_bytes = 0
        deadline = time.time() + 30
        while time.time() < deadline:
            ptype, _, pkt = self.read_packet()
            if ptype == tns.MARKER:
                self.stats["markers_received"] += 1
                client_marker_bytes += len(pkt)
                if pkt[10] == tns.MARKER_RESET:
                    if self.nne is not None:
                        self.nne.reset()      # integrity streams restart after the reset
                    break
            else:
                # unexpected data while waiting for the reset: count it and go on
                self.stats["other_received_tns_bytes"] += len(pkt)
        self.stats["other_received_tns_bytes"] += client_marker_bytes
        resp = self.send_response(payload, None, think_time=False)
        resp["packet_lengths"] = mlens + resp["packet_lengths"]
        resp["tns_packets"] += len(mlens)
        resp["tns_bytes"] += sum(mlens)
        resp["markers"] = True
        resp["client_marker_bytes"] = client_marker_bytes
        return resp

    # --- main loop -----------------------------------------------------------
    def run(self):
        try:
            if self.srv.tls_ctx is not None:       # TCPS: TLS first, then TNS inside it
                from .tls import TlsSocket
                self.sock = TlsSocket(self.sock, self.srv.tls_ctx)
                self.info["tls"] = {"version": self.sock.version, "cipher": self.sock.cipher}
            self.handshake()
            while True:
                req = self.read_request()
                if req is None:
                    self.closed_reason = "client EOF"
                    break
                payload, lengths, dflags = req
                if payload[:4] == b"\xde\xad\xbe\xef":
                    self.handle_ano(payload, lengths)
                    continue
                done = self.dispatch(payload, lengths, dflags)
                if done:
                    # after LOGOFF the client sends an EOF DATA packet and closes
                    try:
                        self.sock.settimeout(5)
                        while True:
                            ptype, _, pkt = self.read_packet()
                            self.stats["other_received_tns_bytes"] += len(pkt)
                    except (ClientGone, OSError):
                        pass
                    self.closed_reason = "logoff"
                    break
        except ClientGone as exc:
            self.closed_reason = str(exc)
        except Exception as exc:  # record, never hang
            import traceback
            traceback.print_exc()
            self.closed_reason = f"server error: {exc!r}"
        finally:
            try:
                self.sock.close()
            except OSError:
                pass
            self.srv.connection_done(self)

    def handle_ano(self, payload: bytes, lengths: list[int]):
        """Answer the ANO (network services) negotiation of go-ora / JDBC with
        'no services' (see anoreply in ano.py), or, when the scenario configures
        "nne", with its algorithms and a Diffie-Hellman key exchange; the client's
        second ANO packet (its public key) then starts encryption (nne.py)."""
        self.stats["other_received_tns_bytes"] += sum(lengths)
        cfg = self.cfg.get("nne")
        if cfg and self.nne_pending is not None and self.nne is None:
            enc, integ, dh, iv, strong = self.nne_pending
            shared = dh.shared(ano.client_public_key(payload))
            self.nne = nne.NneSession(enc, integ, shared, iv, strong)
            self.info["nne"].update({"client_key_packet_bytes": sum(lengths),
                                     "checksum_bytes": self.nne.checksum_bytes,
                                     "max_plain_per_packet": self.nne.max_plain(self.sdu)})
            return
        if cfg:
            enc_offered, int_offered = ano.offered_algorithms(payload)
            enc = nne.pick(enc_offered, nne.ENCRYPTION_IDS[cfg["encryption"]])
            integ = nne.pick(int_offered, nne.INTEGRITY_IDS[cfg.get("integrity")])
            dh = nne.DiffieHellman(self.rng)
            iv = self.rng.getrandbits(128).to_bytes(16, "big")
            version = int(cfg.get("ano_version", ano.VERSION))
            client_version = ano.parse_request(payload)["version"]
            # the newer key schedule when both ends are 23 or later (JDBC's rule for the
            # server's version; the same rule for the client's is ours: go-ora, 11.2.0.2,
            # knows only the legacy one)
            strong = not nne.weak_crypto(version) and not nne.weak_crypto(client_version)
            self.nne_pending = (enc, integ, dh, iv, strong)
            reply = ano.ano_reply(payload, enc, integ, dh, iv, version=version)
            self.info["nne"] = {"encryption": cfg["encryption"], "encryption_id": enc,
                                "integrity": cfg.get("integrity"), "integrity_id": integ,
                                "client_encryption_offered": enc_offered,
                                "client_integrity_offered": int_offered,
                                "dh_prime_bits": nne.DH_BITS, "iv_bytes": len(iv),
                                "server_ano_version": version, "client_ano_version": client_version,
                                "key_schedule": "strong" if strong else "legacy",
                                "ano_request_bytes": sum(lengths)}
        else:
            reply = ano.ano_reply(payload)
        pkt = tns.data_packet(reply, 0, self.large, hflags=tns.HEADER_FLAG_LARGE_SDU)
        self.send_packets([pkt])
        self.stats["other_sent_tns_bytes"] += len(pkt)
        if cfg:
            self.info["nne"]["ano_reply_bytes"] = len(pkt)

    def dispatch(self, payload: bytes, lengths: list[int], dflags: int) -> bool:
        try:
            msgs = self.parse_request(payload)
        except Exception as exc:
            msgs = [{"type": "UNPARSED", "function": "UNPARSED", "error": repr(exc),
                     "head": payload[:4096].hex()}]
        main = msgs[-1] if msgs else {"function": "EMPTY"}
        for m in msgs[:-1]:
            if m.get("func_code") == 0x69:
                for cid in m.get("cursors", []):
                    self.s.cursors.pop(cid, None)
                    self.s.dml_cursors.pop(cid, None)
        rec = {"index": len(self.requests), "function": main.get("function"),
               "request_stream_offset": [self.req_stream_start, self.rpos],
               "func_code": main.get("func_code"), "seq": main.get("seq"),
               "cursor": main.get("cursor"), "rows_requested": None, "sql": None,
               "request_tns_packets": len(lengths), "request_tns_bytes": sum(lengths),
               "request_data_flags": dflags}
        if self.nne is not None:
            rec["request_plain_bytes"] = self.req_plain_bytes
        if hasattr(self.sock, "cipher_range") and self.req_stream_start is not None:
            # TCPS: the request in the ciphertext stream (the TLS records that carried it)
            rec["request_tls_stream_offset"] = self.sock.cipher_range(self.req_stream_start, self.rpos)
        if main.get("type") == "UNPARSED":
            rec["unparsed"] = {"error": main["error"], "head": main["head"]}
        pigg = [m.get("function") for m in msgs[:-1]]
        if pigg:
            rec["piggybacks"] = pigg
        self.stats["round_trips"] += 1
        done = False
        resp_extra = {}
        t0 = time.time()
        w0 = self.wpos
        tls0 = self._tls_counters()
        mtype = main.get("type")
        if mtype == "PRO":
            self.s.client_name = main["client_name"]
            resp = self.send_response(self.pro_reply(), rec, eor_allowed=False)
        elif mtype == "DTY":
            self.apply_dty(main)
            resp = self.send_response(self.dty_reply(main), rec, eor_allowed=False)
        elif mtype in ("FUNCTION", "PIGGYBACK"):
            func = main["func_code"]
            neg = [m for m in msgs[:-1] if m.get("type") in ("PRO", "COOKIE", "DTY")]
            if func == 0x76 and neg:
                # ojdbc 23 with a cached cookie: PRO, cookie, DTY and OSESSKEY in one request;
                # the driver reads the PRO and DTY replies in the OSESSKEY call's receive loop
                # (T4CTTIfun.receive: message 1 -> processTTIProResponse, 2 ->
                # processTTIDtyResponse), so they lead the one response
                head = b""
                for m in neg:
                    if m["type"] == "PRO":
                        self.s.client_name = m["client_name"]
                        head += self.pro_reply()
                    elif m["type"] == "DTY":
                        self.apply_dty(m)
                        head += self.dty_reply(m)
                    else:
                        rec["cookie"] = {k: v for k, v in m.items() if k not in ("type", "function")}
                        self.info["cookie"] = rec["cookie"]
                resp = self.send_response(head + self.auth_phase_one(main), rec)
            elif func == 0x76:
                resp = self.send_response(self.auth_phase_one(main), rec)
            elif func == 0x73:
                resp = self.send_response(self.auth_phase_two(main), rec)
            elif func == 0x5E:
                resp, resp_extra = self.do_oall8(main, rec)
            elif func == 0x05:
                resp, resp_extra = self.do_fetch(main, rec)
            elif func == 0x4E:
                resp, resp_extra = self.do_reexec_fetch(main, rec)
            elif func == 0x04 and main.get("cursor") in self.s.dml_cursors:
                # a DML re-executed on its open cursor (python-oracledb, node-oracledb
                # and go-ora with a cached statement): its row count as a first execution's
                resp, resp_extra = self.do_dml_reexec(main, rec)
            elif func == 0x04:
                resp = self.send_response(self.rpa_dml() + self.oer(call_seq=main["seq"]), rec)
                self.stats["execute_count"] += 1
            elif func in (0x0E, 0x0F):
                if func == 0x0E:
                    self.stats["user_commits"] += 1
                self.s.txn_open = False
                resp = self.send_response(self.sta(), rec)
            elif func == 0x93:
                resp = self.send_response(self.sta(), rec)
            elif func == 0x09:
                resp = self.send_response(self.sta(), rec)
                done = True
            elif func == 0x3B:
                resp = self.send_response(self.version_reply(), rec)
            elif func == 0x60:
                resp, resp_extra = self.do_lob_op(main, rec)
            elif func == 0x69:      # close cursors on its own
                for cid in main.get("cursors", []):
                    self.s.cursors.pop(cid, None)
                    self.s.dml_cursors.pop(cid, None)
                resp = self.send_response(self.oer(call_seq=main["seq"]), rec)
            else:
                resp = self.send_response(self.oer(call_seq=main.get("seq", 0)), rec)
        elif mtype == "FAST_AUTH":
            raise ClientGone("client sent FAST_AUTH although the server did not offer it")
        else:
            resp = self.send_response(self.oer(error=3115), rec)
        resp.setdefault("markers", False)
        resp.setdefault("rows_sent", 0)
        resp.setdefault("row_bytes", 0)
        resp.setdefault("bvc_bytes", 0)
        resp.setdefault("cursor", None)
        resp.setdefault("rowcount", None)
        resp.setdefault("ora_error", 0)
        resp.setdefault("ora_message", None)
        resp.update(resp_extra)
        resp["server_time_s"] = round(time.time() - t0, 6)
        resp["stream_offset"] = [w0, self.wpos]
        if tls0 is not None:
            tls1 = self._tls_counters()
            # the response in the ciphertext stream and the TLS records that carried it
            resp["tls"] = {"stream_offset": [tls0[0], tls1[0]], "records": tls1[1] - tls0[1],
                           "bytes": tls1[2] - tls0[2]}
        rec["response"] = resp
        if rec["rows_requested"] is None and main.get("rows_requested") is not None:
            rec["rows_requested"] = main["rows_requested"]
        self.requests.append(rec)
        self.srv.progress(self)
        return done

    # --- handshake replies -------------------------------------------------
    def pro_reply(self) -> bytes:
        banner = self.cfg.get("platform", "x86_64/Linux 2.4.xx").encode()
        b = bytearray(b"\x01\x06\x00") + banner + b"\x00"
        b += struct.pack("<H", CHARSET_AL32UTF8) + b"\x01" + struct.pack("<H", 0)
        fdo = _fdo(CHARSET_AL32UTF8)
        b += struct.pack(">H", len(fdo)) + fdo
        ccaps = _server_compile_caps(int(self.cfg.get("field_version", 24)),
                                     bool(self.cfg.get("o7l_mr", True)))
        b += bytes((len(ccaps),)) + ccaps
        b += bytes((len(_SERVER_RUNTIME_CAPS),)) + _SERVER_RUNTIME_CAPS
        return bytes(b)

    def dty_reply(self, m: dict) -> bytes:
        """DTY reply: [DB time zone (11 bytes) + TZ version when the client sent its
        time zone (rcaps[1] & 1, go-ora)], then an empty type list (terminator)."""
        b = bytearray(b"\x02")
        ccaps, rcaps = m["ccaps"], m["rcaps"]
        if len(rcaps) > 1 and rcaps[1] & 0x01:
            b += bytes.fromhex("800000003c3c3c80000000")      # DB time zone +00:00
            if len(ccaps) > CCAP_TTC3 and ccaps[CCAP_TTC3] & 0x02:
                b += struct.pack(">I", 0x2A)                   # TZ file version 42
        b += b"\x00\x00" if (len(ccaps) > CCAP_UB2_DTY and ccaps[CCAP_UB2_DTY]) else b"\x00"
        return bytes(b)

    def apply_dty(self, m: dict):
        ccaps = m["ccaps"]
        server_fv = int(self.cfg.get("field_version", 24))
        self.s.client_fv = ccaps[CCAP_FIELD_VERSION] if len(ccaps) > CCAP_FIELD_VERSION else 0
        self.s.fv = min(self.s.client_fv, server_fv)
        self.s.big_chunks = len(ccaps) > CCAP_TTC3 and bool(ccaps[CCAP_TTC3] & CCAP_BIG_CHUNK_CLR)
        client_eor = len(ccaps) > CCAP_TTC4 and bool(ccaps[CCAP_TTC4] & CCAP_END_OF_RESPONSE)
        self.s.eor = self.s.accept_eor and client_eor
        self.s.sb1_universal = m["reps"].get(DTY_SB1, 1) == 1
        self.s.dty_flags = m["flags"]
        self.info.update({"client_field_version": self.s.client_fv, "field_version": self.s.fv,
                          "dty_flags": m["flags"], "client_charset": m["charset"],
                          "client_compile_caps": ccaps.hex(), "client_runtime_caps": m["rcaps"].hex(),
                          "end_of_response": self.s.eor, "client_dty_eor": client_eor,
                          "sb1_representation": m["reps"].get(DTY_SB1),
                          "big_chunk_clr": self.s.big_chunks,
                          "client_program": self.s.client_name})

    # --- O5LOGON (11g verifier) ----------------------------------------------
    def verifier(self) -> str:
        """'12c' (PBKDF2 verifier 0x4815, the default of 12.2+ servers) or '11g' (0x1B25)."""
        return self.cfg.get("verifier", "12c")

    def auth_phase_one(self, m: dict) -> bytes:
        """OSESSKEY reply.  12c verifier (python-oracledb auth.pyx, JDBC O5Logon): password key
        = PBKDF2-SHA512(password, vfr + 'AUTH_PBKDF2_SPEEDY_KEY', VGEN count, 64), password hash
        = SHA-512(password key + vfr)[:32], a 32-byte server session key under AES-256-CBC.
        11g verifier: SHA-1(password + salt) + 4 zero bytes, a 48-byte key under AES-192."""
        password = self.cfg.get("password", "tiger").encode()
        self.s.user = m.get("user", "")
        if self.verifier() == "12c":
            salt = self.rng.getrandbits(128).to_bytes(16, "big")
            self.s.csk_salt = self.rng.getrandbits(128).to_bytes(16, "big")
            pkey = hashlib.pbkdf2_hmac("sha512", password, salt + b"AUTH_PBKDF2_SPEEDY_KEY",
                                       PBKDF2_VGEN_COUNT, 64)
            self.s.password_key = hashlib.sha512(pkey + salt).digest()[:32]
            self.s.server_sesskey = self.rng.getrandbits(256).to_bytes(32, "big")
            enc = aes_cbc_encrypt(self.s.password_key, self.s.server_sesskey)
            kv = [("AUTH_SESSKEY", enc.hex().upper(), 0),
                  ("AUTH_VFR_DATA", salt.hex().upper(), VERIFIER_12C),
                  ("AUTH_PBKDF2_CSK_SALT", self.s.csk_salt.hex().upper(), 0),
                  ("AUTH_PBKDF2_VGEN_COUNT", str(PBKDF2_VGEN_COUNT), 0),
                  ("AUTH_PBKDF2_SDER_COUNT", str(PBKDF2_SDER_COUNT), 0),
                  ("AUTH_GLOBALLY_UNIQUE_DBID", None, 0)]
        else:
            salt = self.rng.getrandbits(80).to_bytes(10, "big")
            self.s.password_key = hashlib.sha1(password + salt).digest() + bytes(4)
            self.s.server_sesskey = self.rng.getrandbits(320).to_bytes(40, "big") + bytes([8] * 8)
            enc = aes_cbc_encrypt(self.s.password_key, self.s.server_sesskey)
            kv = [("AUTH_SESSKEY", enc.hex().upper(), 0),
                  ("AUTH_VFR_DATA", salt.hex().upper(), VERIFIER_11G),
                  ("AUTH_GLOBALLY_UNIQUE_DBID", None, 0)]
        self.s.verifier_salt = salt
        b = bytearray(b"\x08") + ub2(len(kv))
        for k, v, f in kv:
            b += keyword_value(k, v, f)
        return bytes(b) + self.oer(call_seq=m["seq"])

    def auth_phase_two(self, m: dict) -> bytes:
        kv = m.get("kv", {})
        cli_hex = kv.get("AUTH_SESSKEY", ("", 0))[0]
        srv = self.s.server_sesskey
        if self.verifier() == "12c":
            cli = aes_cbc_decrypt(self.s.password_key, bytes.fromhex(cli_hex[:64]))
            temp = (cli[:32] + srv[:32]).hex().upper().encode()
            combo = hashlib.pbkdf2_hmac("sha512", temp, self.s.csk_salt, PBKDF2_SDER_COUNT, 32)
        else:
            cli = aes_cbc_decrypt(self.s.password_key, bytes.fromhex(cli_hex[:96]))
            x = bytes(a ^ b for a, b in zip(srv[16:40], cli[16:40]))
            combo = (hashlib.md5(x[:16]).digest() + hashlib.md5(x[16:24]).digest())[:24]
        self.s.combo_key = combo
        plain = self.rng.getrandbits(128).to_bytes(16, "big") + b"SERVER_TO_CLIENT" + bytes([16] * 16)
        svr_response = aes_cbc_encrypt(combo, plain).hex().upper()
        vno = self.version_number()
        sid = 100 + (self.addr[1] % 800)
        pairs = [
            ("AUTH_VERSION_STRING", "- Develop, Learn, and Run for Free", 0),
            ("AUTH_VERSION_SQL", "26", 0),
            ("AUTH_XACTION_TRAITS", "3", 0),
            ("AUTH_VERSION_NO", str(vno), 0),
            ("AUTH_VERSION_STATUS", "0", 0),
            ("AUTH_CAPABILITY_TABLE", None, 0),
            ("AUTH_DBNAME", "SQLNETGEN", 0),
            ("AUTH_DB_MOUNT_ID", "1512908809", 0),
            ("AUTH_DB_ID", "3961433309", 0),
            ("AUTH_USER_ID", "109", 0),
            ("AUTH_SESSION_ID", str(sid), 0),
            ("AUTH_SERIAL_NUM", str(20000 + sid), 0),
            ("AUTH_INSTANCE_NO", "1", 0),
            ("AUTH_FAILOVER_ID", "1", 0),
            ("AUTH_SERVER_PID", str(4000 + sid), 0),
            ("AUTH_SC_SERVER_HOST", "sqlnetgen", 0),
            ("AUTH_SC_DBUNIQUE_NAME", "SQLNETGEN", 0),
            ("AUTH_SC_INSTANCE_NAME", "SQLNETGEN", 0),
            ("AUTH_SC_INSTANCE_ID", "1", 0),
            ("AUTH_SC_SERVICE_NAME", "freepdb1", 0),
            ("AUTH_INSTANCENAME", "SQLNETGEN", 0),
            ("AUTH_NLS_LXLAN", "AMERICAN", 0),
            ("AUTH_NLS_LXCTERRITORY", "AMERICA", 0),
            ("AUTH_NLS_LXCCURRENCY", "$", 0),
            ("AUTH_NLS_LXCISOCURR", "AMERICA", 0),
            ("AUTH_NLS_LXCNUMERICS", ".,", 0),
            ("AUTH_NLS_LXCDATEFM", "DD-MON-RR", 0),
            ("AUTH_NLS_LXCDATELANG", "AMERICAN", 0),
            ("AUTH_NLS_LXCSORT", "BINARY", 0),
            ("AUTH_NLS_LXCCALENDAR", "GREGORIAN", 0),
            ("AUTH_NLS_LXCUNIONCUR", "$", 0),
            ("AUTH_NLS_LXCTIMEFM", "HH.MI.SSXFF AM", 0),
            ("AUTH_NLS_LXCSTMPFM", "DD-MON-RR HH.MI.SSXFF AM", 0),
            ("AUTH_NLS_LXCTTZNFM", "HH.MI.SSXFF AM TZR", 0),
            ("AUTH_NLS_LXCSTZNFM", "DD-MON-RR HH.MI.SSXFF AM TZR", 0),
            ("AUTH_NLS_LXLENSEMANTICS", "BYTE", 0),
            ("AUTH_NLS_LXNCHARCONVEXCP", "FALSE", 0),
            ("AUTH_NLS_LXCOMP", "BINARY", 0),
            ("AUTH_SVR_RESPONSE", svr_response, 0),
            ("AUTH_MAX_OPEN_CURSORS", "300", 0),
            ("AUTH_MAX_IDEN_LENGTH", "128", 0),
        ]
        b = bytearray(b"\x08") + ub2(len(pairs))
        for k, v, f in pairs:
            b += keyword_value(k, v, f)
        return bytes(b) + self.oer(call_seq=m["seq"])

    def version_number(self) -> int:
        """AUTH_VERSION_NO / OVERSION number: 8.4.4.8.8 bits from field version 11 (18.1 EXT 1)
        on, 8.4.8.4.8 before (python-oracledb auth.pyx _get_version_tuple)."""
        ver = self.cfg.get("db_version", [23, 4, 0, 24, 5])
        if self.s.fv >= 11:
            return (ver[0] << 24) | (ver[1] << 16) | (ver[2] << 12) | (ver[3] << 4) | ver[4]
        return (ver[0] << 24) | (ver[1] << 20) | (ver[2] << 12) | (ver[3] << 8) | ver[4]

    def version_reply(self) -> bytes:
        banner = self.cfg.get("banner", "Oracle AI Database 26ai Free Release 23.26.2.0.0 - "
                              "Develop, Learn, and Run for Free\nVersion 23.26.2.0.0").encode()
        vno = self.version_number()
        # the banner is a CHR: with a length byte when the client's DTY encoding flags carry
        # CONV_LENGTH (0x02: python, node, go-ora), bare when they do not (JDBC sends 0x01 and
        # reads the ub2 count of raw bytes, T4CMAREngine.unmarshalCHR without conversion)
        text = dalc(banner) if self.s.dty_flags & 0x02 else banner
        return b"\x08" + ub2(len(banner)) + text + ub4(vno) + self.sta()

    def rpa_dml(self) -> bytes:
        return b"\x08" + ub2(0) + b"\x00\x00\x00"

    # --- SQL ----------------------------------------------------------------
    def lookup_table(self, sql: str) -> tuple[str, Table | None]:
        """'query' with a table, 'query' with None (unknown table -> ORA-00942), or 'other'."""
        text = re.sub(r"/\*.*?\*/", " ", sql, flags=re.S).strip()
        if re.match(r"(?is)^\s*(begin|declare)\b", text):
            return "plsql", None
        dml = re.match(r"(?is)^\s*(?:insert\s+into|update|delete\s+from)\s+([A-Za-z_][A-Za-z0-9_$#.]*)",
                       text)
        if dml and dml.group(1).upper().split(".")[-1] in self.srv.tables:
            return "dml", self.srv.tables[dml.group(1).upper().split(".")[-1]]
        if not re.match(r"(?is)^\s*(select|with)\b", text):
            return "other", None
        mt = re.search(r"(?is)\bfrom\s+([A-Za-z_][A-Za-z0-9_$#.]*)", text)
        name = mt.group(1).upper().split(".")[-1] if mt else "DUAL"
        tables = self.srv.tables
        if name in tables:
            return "query", tables[name]
        return "query", None

    def _resp_meta(self, cursor: Cursor, rows: int, error: int, msg: str | None,
                   row_bytes: int = 0, bvc_bytes: int = 0) -> dict:
        return {"rows_sent": rows, "row_bytes": row_bytes, "bvc_bytes": bvc_bytes, "cursor": cursor.cid if cursor else 0,
                "rowcount": cursor.pos if cursor else 0, "ora_error": error,
                "ora_message": msg}

    def _fetch_into(self, cursor: Cursor, n: int, requested: int, rxh_flags: int,
                    seq: int, prefix: bytes = b"", suffix_rpa: bool = False):
        """Common fetch body: rows then OER (or the error-mid-fetch path)."""
        t = cursor.table
        err_row = t.error_at_row
        if err_row and cursor.pos < err_row <= cursor.pos + n and n > 0:
            # the batch reaches the failing row: break/reset, OER with error;
            # rows processed before the failure are counted but not delivered
            cursor.pos = err_row - 1
            cursor.failed = True
            code = t.error_code
            msg = ORA_MESSAGES.get(code, f"ORA-{code:05d}: error")
            body = self.oer(cursor=cursor.cid, rowcount=cursor.pos, error=code,
                            call_seq=seq, sql_type=3, message=msg)
            resp = self.send_error_with_markers(prefix + body if prefix else body)
            return resp, self._resp_meta(cursor, 0, code, msg + "\n")
        first = cursor.pos
        if n > 0:
            block, sent, row_bytes, bvc_bytes = self.rows_block(cursor, n, requested, rxh_flags)
        else:
            block, sent, row_bytes, bvc_bytes = b"", 0, 0, 0
        error = 1403 if sent < n else 0
        msg = ORA_MESSAGES[1403] + "\n" if error else None
        body = prefix + block
        if suffix_rpa:
            body += self.rpa_execute(cursor)
        body += self.oer(cursor=cursor.cid, rowcount=cursor.pos, error=error, call_seq=seq,
                         sql_type=3, success_iters=1 if rxh_flags & 0x20 else 0,
                         rowid=t.rowid(cursor.pos - 1) if cursor.pos else None)
        self.stats["rows_sent"] += sent
        if sent and t.row_time_us:
            row_work(sent * t.row_time_us / 1e6)
        resp = self.send_response(body, None)
        meta = self._resp_meta(cursor, sent, error, msg, row_bytes, bvc_bytes)
        if t.has_object:
            # the attribute values of the objects sent (verify compares the client's)
            ks = [k for k, c in enumerate(t.columns) if c.type == "object"]
            meta["objects"] = [[t.row_values(i)[k] for k in ks] for i in range(first, first + sent)]
        if cursor.lob_as_long and sent:
            # the CLOB characters sent with the rows (verify compares the client's)
            meta["long_lob_chars"] = sum(len(t.row_values(i)[k] or "") for k in cursor.lob_as_long
                                         for i in range(first, first + sent))
        return resp, meta

    def do_oall8(self, m: dict, rec: dict):
        self.stats["execute_count"] += 1
        seq = m["seq"]
        cid = m.get("cursor", 0)
        rec["sql"] = m.get("sql") or None
        rec["options"] = m.get("options")
        rec["prefetch_rows"] = m.get("prefetch_rows")
        rec["al8i4_1"] = (m.get("al8i4") or [0, 0])[1] if len(m.get("al8i4") or []) > 1 else None
        if cid == 0:
            self.stats["parse_count"] += 1
            kind, table = self.lookup_table(m.get("sql", ""))
            if kind == "plsql" and m.get("binds") is not None and \
                    re.search(r"(?i)\bsqlnet_out\s*\(", m.get("sql", "")):
                return self.plsql_out(m, rec)
            if kind == "plsql" and re.search(r"(?i)\bsqlnet_implicit\b", m.get("sql", "")):
                return self.plsql_implicit(m, rec)
            if kind == "plsql":
                # other PL/SQL (go-ora's NLS query) is not emulated:
                # answer like a failing block (markers + ORA-06550); drivers tolerate it
                body = self.oer(error=6550, call_seq=seq)
                resp = self.send_error_with_markers(body)
                return resp, {"rows_sent": 0, "cursor": 0, "rowcount": 0, "ora_error": 6550,
                              "ora_message": ORA_MESSAGES[6550] + "\n"}
            if kind == "dml":
                return self.do_dml(m, rec, table, None)
            if kind == "other":
                body = self.rpa_dml() + self.oer(call_seq=seq)
                return self.send_response(body, rec), {"rows_sent": 0, "cursor": 0,
                                                       "rowcount": 0, "ora_error": 0}
            return self.do_query(m, rec, table)
        if cid in self.s.dml_cursors:
            # a DML executed again on its cursor with a full OALL8 (JDBC's PreparedStatement)
            sql, table = self.s.dml_cursors[cid][:2]
            return self.do_dml(dict(m, sql=m.get("sql") or sql), rec, table, cid)
        return self.do_cursor_call(m, rec, cid)

    def do_dml_reexec(self, m: dict, rec: dict):
        """OREEXECUTE of a DML cursor: cursor id, iterations, two exec flag words, then
        (not parsed) one row of bind values per iteration (python-oracledb
        _write_reexecute_message).  The answer is a full execution's, with the row count
        the iterations make."""
        self.stats["execute_count"] += 1
        sql, table = self.s.dml_cursors[m["cursor"]][:2]
        n = max(1, m.get("num_iters") or 1)
        rec["al8i4_1"] = n
        return self.do_dml(dict(m, sql=sql, bind_rows=[[] for _ in range(n)],
                                dml_rowcounts=0), rec, table, m["cursor"])

    def do_dml(self, m: dict, rec: dict, table: Table, reuse: int | None):
        """Execute an INSERT/UPDATE/DELETE: a new cursor, or `reuse` (the cursor a
        previous execution of the same text opened)."""
        seq = m["seq"]
        rec["sql"] = m.get("sql") or None
        # INSERT: one row, its rowid; UPDATE/DELETE: every row of the table (or the
        # table's dml_rowcount, which may exceed 2^32: only the ub8 field carries it)
        verb = m.get("sql", "").lstrip().split(None, 1)[0].upper()
        rows = m.get("bind_rows") or []
        failed = []
        batch = None
        dml_error = 0
        if verb == "INSERT":
            count, rid = 1, table.rowid(table.nrows)
            if len(rows) > 1 or (rows and rows[0] and isinstance(rows[0][0], bytes) and
                                 rows[0][0][:1] < b"\x80"):
                # array INSERT: a row whose first value is a negative NUMBER
                # violates the table's check constraint (ORA-02290); with batch
                # errors every such row is reported, without them the first one
                # ends the call
                failed = [i for i, row in enumerate(rows)
                          if row and isinstance(row[0], bytes) and row[0][:1] < b"\x80"]
                if failed and m.get("options", 0) & 0x80000:
                    batch = [(2290, i, ORA_MESSAGES[2290]) for i in failed]
                    count = len(rows) - len(failed)
                    dml_error = 24381
                elif failed:
                    count = failed[0]
                    dml_error = 2290
                else:
                    count = len(rows)
        else:
            count, rid = table.dml_rowcount, None
        # a DML opens a cursor too: the RPA carries its id in al8o4[2] (JDBC reads the
        # vector; an empty one fails in T4C8Oall.readRPA), the OER repeats it
        if reuse is None:
            cid = self.s.next_cursor
            self.s.next_cursor += 1
            self.s.dml_cursors[cid] = (m.get("sql", ""), table, len(rows[0]) if rows else 0)
        else:
            cid = reuse
        dml_cursor = Cursor(cid, m.get("sql", ""), None)
        if self.s.fv < 7:
            count &= 0xFFFFFFFF     # before 12.1 only the ub4 row count field exists
        counts = [count] if m.get("dml_rowcounts") else None
        if counts is not None and len(rows) > 1:
            counts = [0 if i in failed else 1 for i in range(len(rows))]
        returned = None
        body = b""
        ret = [b for b in m.get("binds") or [] if b.get("returning")]
        if ret and verb == "INSERT":
            # DML RETURNING ... INTO: a row data message with, per return bind,
            # the number of rows (1 for an INSERT ... VALUES) then each value and
            # its sb4 actual length (python-oracledb _process_row_data, returning)
            returned = [self.out_value(b, k, table)[1] for k, b in enumerate(ret)]
            body += b"\x07" + b"".join(ub4(1) + self.out_value(b, k, table)[0] + ub4(0)
                                        for k, b in enumerate(ret))
        if dml_error == 2290:
            body = self.oer(cursor=cid, call_seq=seq, rowcount=count, error=2290)
            resp = self.send_error_with_markers(body)
            return resp, {"rows_sent": 0, "cursor": cid, "rowcount": count, "ora_error": 2290,
                          "ora_message": ORA_MESSAGES[2290] + "\n"}
        if self.cfg.get("txn_status") and not dml_error:
            # the end-of-call status says a transaction is open after a DML the call did
            # not commit (no commit-on-success option): what a real server says, and
            # what ojdbc waits for before it sends a commit call
            self.s.txn_open = not m.get("options", 0) & EXEC_COMMIT
            rec["txn_open"] = self.s.txn_open
        body += self.rpa_execute(dml_cursor, counts) + self.oer(
            cursor=cid, call_seq=seq, rowcount=count, rowid=rid, error=dml_error,
            batch=batch, call_status=1 if batch else None, success_iters=len(rows) if rows else 0)
        meta = {"rows_sent": 0, "cursor": cid, "rowcount": count, "ora_error": dml_error,
                "rowid": table.rowid_text(rid) if rid else None}
        if batch:
            meta["batch_errors"] = [[code, off] for code, off, _ in batch]
        if len(rows) > 1:
            meta["executions"] = len(rows)
        if returned is not None:
            meta["returned"] = returned
        return self.send_response(body, rec), meta

    def do_query(self, m: dict, rec: dict, table: Table | None):
        """Parse and execute a query (a new cursor)."""
        seq = m["seq"]
        if table is None:
            mt = re.search(r"(?is)\bfrom\s+", m.get("sql", ""))
            body = self.oer(error=942, call_seq=seq, sql_type=3,
                            error_pos=mt.end() if mt else 0)
            resp = self.send_error_with_markers(body)
            return resp, {"rows_sent": 0, "cursor": 0, "rowcount": 0, "ora_error": 942,
                          "ora_message": ORA_MESSAGES[942] + "\n"}
        if table.spec.get("keys"):
            table = self.keyed_rows(table, m)
        cursor = Cursor(self.s.next_cursor, m.get("sql", ""), table)
        self.s.next_cursor += 1
        self.s.cursors[cursor.cid] = cursor
        cursor.defined = bool(m.get("num_defines"))
        n = m.get("prefetch_rows", 0)
        rec["rows_requested"] = n
        rec["cursor"] = 0
        if table.has_lob and not m.get("num_defines"):
            # LOB columns: the client must define them first (python-oracledb
            # re-executes with define metadata): the describe alone this time
            n = 0
        prefix = self.dcb(table, cursor, n)
        if n == 0:
            body = prefix + self.rpa_execute(cursor) + self.oer(cursor=cursor.cid, call_seq=seq,
                                                               sql_type=3)
            return self.send_response(body, rec), self._resp_meta(cursor, 0, 0, None)
        return self._fetch_into(cursor, n, n, 0x22, seq, prefix=prefix, suffix_rpa=True)

    def do_cursor_call(self, m: dict, rec: dict, cid: int):
        """An OALL8 on an open query cursor: execute again or fetch."""
        seq = m["seq"]
        cursor = self.s.cursors.get(cid)
        if cursor is None:
            body = self.oer(error=1001, call_seq=seq)
            return self.send_error_with_markers(body), {"ora_error": 1001,
                                                        "ora_message": ORA_MESSAGES[1001] + "\n"}
        rec["sql"] = cursor.sql
        al = m.get("al8i4") or []
        n = al[1] if len(al) > 1 and al[1] else m.get("prefetch_rows", 0)
        rec["rows_requested"] = n
        if m.get("defines"):
            cursor.defined = True
            # LOB columns defined with a prefetch size (JDBC): their values carry the data
            cursor.lob_prefetch = {k: d["max_chars"] for k, d in enumerate(m["defines"])
                                   if d["type"] == 112 and d["cont_flags"] & 0x2000000 and d["max_chars"]}
            # a CLOB defined as LONG (python-oracledb fetch_lobs=False, node-oracledb
            # fetchAsString) or LONG VARCHAR (94: go-ora's LOB FETCH=PRE, its default,
            # command.go writeDefine): the text comes with the row, no locator, no LOB reads
            if cursor.table is not None:
                cursor.lob_as_long = {k for k, d in enumerate(m["defines"])
                                      if d["type"] in (8, 94) and k < len(cursor.table.columns)
                                      and cursor.table.columns[k].type == "clob"}
                rec["lob_as_long"] = sorted(cursor.lob_as_long)
        if len(al) > 11 and al[9] & 0x02 and cursor.table is not None:
            # scrollable cursor (python-oracledb ExecuteMessage: exec flag 0x02, fetch
            # orientation al8i4[10], position al8i4[11], from 1): rows from that position;
            # "last" is the last row alone; the OER row count is the last row's number
            orient, fpos = al[10], al[11]
            nrows = cursor.table.nrows
            if orient == 0x08:
                start, n = max(0, nrows - 1), 1
            elif orient == 0x04:
                start = 0
            else:
                start = max(0, fpos - 1)
            cursor.pos = min(start, nrows)
            cursor.last_values = None
            cursor.failed = False
            rec["fetch_orientation"] = orient
            rec["fetch_pos"] = fpos
            self.stats["fetch_calls"] += 1
            return self._fetch_into(cursor, n, n, 0x02, seq)
        if cursor.table is not None and cursor.table.has_lob and not m.get("options", 0) & EXEC_FETCH:
            n = 0                           # the define call of a LOB query fetches nothing
        if m.get("options", 0) & EXEC_EXECUTE:
            cursor.pos = 0
            cursor.last_values = None
            cursor.failed = False
            return self._fetch_into(cursor, n, n, 0x22, seq, suffix_rpa=True)
        self.stats["fetch_calls"] += 1
        return self._fetch_into(cursor, n, n, 0x02, seq)

    def keyed_rows(self, table: Table, m: dict) -> Table:
        """A catalogue table's rows whose key is one of the query's bind values (the type
        name go-ora binds in its ALL_TYPES / ALL_TYPE_ATTRS queries)."""
        bound = {v.decode("utf-8", "replace").upper() for v in
                 (b.get("value") for b in m.get("binds") or []) if isinstance(v, bytes)}
        spec = table.spec
        keep = [row for row, key in zip(spec["values"], spec["keys"]) if key.upper() in bound]
        return Table(dict(spec, values=keep, rows=len(keep), keys=None))

    def out_value(self, bind: dict, k: int, table: Table | None = None) -> tuple[bytes, object]:
        """(encoded value, value as a client reports it) of out bind k by its type: NUMBER
        1000 * (k + 1) + 7 (an INSERT's return bind: the new row's id), strings
        "sqlnet out <k+1>", anything else NULL."""
        t = bind["type"]
        if t in (2, 3):
            v = table.nrows + 1 if (table is not None and bind.get("returning")) else 1000 * (k + 1) + 7
            return dalc(oracle_number(v)), v
        if t in (1, 96):
            v = f"sqlnet out {k + 1}"
            return dalc(v.encode()), v
        return b"\x00", None

    def plsql_out(self, m: dict, rec: dict):
        """BEGIN sqlnet_out(:1, ...); END;  every bind is OUT: an I/O vector with their
        directions, one row data message with their values (each then its sb4 actual
        length; a REF CURSOR as a length byte, the describe of a query on the configured
        table and the new cursor's id ub2), then RPA and OER (python-oracledb
        _process_io_vector / _process_row_data / _process_column_data with in_fetch off)."""
        seq = m["seq"]
        binds = m["binds"]
        cid = self.s.next_cursor
        self.s.next_cursor += 1
        iov = (b"\x0b\x05" + ub2(len(binds) % 256) + ub4(len(binds) // 256) + ub4(1) + ub2(0) +
               ub2(0) + ub2(0) + bytes([0x10] * len(binds)))
        values = bytearray(b"\x07")
        reported = []
        opened = []
        for k, b in enumerate(binds):
            if b["type"] == 102:
                tname = (self.cfg.get("refcursor_table") or
                         next(t for t in self.srv.tables if t != "DUAL")).upper()
                table = self.srv.tables[tname]
                cur = Cursor(self.s.next_cursor, f"REF CURSOR {k + 1} of {m.get('sql', '')}", table)
                self.s.next_cursor += 1
                self.s.cursors[cur.cid] = cur
                values += b"\x01" + self.describe_body(table, 0) + ub2(cur.cid)
                reported.append({"cursor": cur.cid, "table": tname, "rows": table.nrows})
                opened.append(cur.cid)
            else:
                enc, v = self.out_value(b, k)
                values += enc
                reported.append(v)
            values += ub4(0)                    # actual length: not truncated
        # the RPA carries the block's cursor id in al8o4 as for any execute (JDBC
        # T4C8Oall.readRPA reads it)
        body = iov + bytes(values) + self.rpa_execute(Cursor(cid, m.get("sql", ""), None)) + \
            self.oer(cursor=cid, call_seq=seq, rowcount=1)
        rec["out_binds"] = reported
        return self.send_response(body, rec), {"rows_sent": 0, "cursor": cid, "rowcount": 1,
                                               "ora_error": 0, "out_binds": reported,
                                               "opened_cursors": opened}

    def do_lob_op(self, m: dict, rec: dict):
        """LOB read (operation 2), get length (1) and get chunk size (0x4000) on a locator
        this server sent: LOB data
        message (14) with the characters, then the RPA (the locator again, the amount as
        ub8 when the call passed one) and the OER (python-oracledb LobOpMessage, go-ora
        Lob.read)."""
        seq = m["seq"]
        loc = m.get("locator", b"")
        text = None
        for t in self.srv.tables.values():
            text = t.lob_text(loc)
            if text is not None:
                # the statement whose rows carried this locator
                owner = [c for c in self.s.cursors.values() if c.table is t]
                if owner:
                    rec["sql"] = owner[-1].sql
                break
        op = m.get("operation")
        rec["lob_operation"] = op
        if text is None or op not in (1, 2, 0x4000):
            body = self.oer(error=22922, call_seq=seq, message="ORA-22922: nonexistent LOB value")
            return self.send_error_with_markers(body), {"ora_error": 22922,
                                                        "ora_message": "ORA-22922: nonexistent LOB value\n"}
        body = b""
        if op == 2:
            start = max(1, m.get("offset", 1)) - 1
            # amount 0 (go-ora's getData): to the end
            data = text[start:start + (m.get("amount") or len(text))]
            body += b"\x0e" + dalc(data.encode())
            amount = len(data)
            self.stats.setdefault("lob_chars_sent", 0)
            self.stats["lob_chars_sent"] += amount
        elif op == 0x4000:
            # get chunk size (JDBC asks it first for a locator that came without it)
            amount = LOB_CHUNK_SIZE
        else:
            amount = len(text)
        body += b"\x08" + loc
        if m.get("charset_ptr"):
            body += ub2(m.get("charset") or CHARSET_AL32UTF8)    # the charset, echoed (go-ora Lob.read)
        if m.get("amount_ptr"):
            body += ub8(amount)
        if m.get("null_ptr"):
            body += b"\x00"
        body += self.oer(call_seq=seq)
        return self.send_response(body, rec), {"rows_sent": 0, "ora_error": 0, "lob_amount": amount,
                                               "lob_operation": op}

    def plsql_implicit(self, m: dict, rec: dict):
        """BEGIN sqlnet_implicit; END;  returns two implicit result sets (DBMS_SQL.RETURN_RESULT)
        on the configured table: message 27 with, per result, a length-prefixed opaque
        (empty here), the cursor's describe and its id ub2; then RPA and OER
        (python-oracledb _process_implicit_result).  The client fetches each one."""
        seq = m["seq"]
        cid = self.s.next_cursor
        self.s.next_cursor += 1
        tname = (self.cfg.get("refcursor_table") or next(t for t in self.srv.tables if t != "DUAL")).upper()
        table = self.srv.tables[tname]
        msg = bytearray(b"\x1b" + ub4(2))
        results = []
        for k in range(2):
            cur = Cursor(self.s.next_cursor, f"IMPLICIT RESULT {k + 1} of {m.get('sql', '')}", table)
            self.s.next_cursor += 1
            self.s.cursors[cur.cid] = cur
            msg += b"\x00" + self.describe_body(table, 0) + ub2(cur.cid)
            results.append({"cursor": cur.cid, "table": tname, "rows": table.nrows})
        body = bytes(msg) + self.rpa_execute(Cursor(cid, m.get("sql", ""), None)) + \
            self.oer(cursor=cid, call_seq=seq, rowcount=1)
        rec["implicit_results"] = results
        return self.send_response(body, rec), {"rows_sent": 0, "cursor": cid, "rowcount": 1,
                                               "ora_error": 0, "implicit_results": results}

    def do_fetch(self, m: dict, rec: dict):
        self.stats["fetch_calls"] += 1
        # "split_send": {"sql_contains": text, "fetch_calls": [k, ...], "delay_ms": d}: the
        # k-th fetch call on a cursor of that SQL answers in two writes with Nagle on (send_split)
        split = self.cfg.get("split_send")
        cursor = self.s.cursors.get(m["cursor"])
        if split and cursor is not None and split.get("sql_contains", "") in cursor.sql:
            cursor.fetch_calls = getattr(cursor, "fetch_calls", 0) + 1
            if cursor.fetch_calls in split.get("fetch_calls", []):
                self.split_next = float(split.get("delay_ms", 0))
        cursor = self.s.cursors.get(m["cursor"])
        rec["rows_requested"] = m["rows_requested"]
        if cursor is not None:
            rec["sql"] = cursor.sql
        if cursor is None:
            body = self.oer(error=1001, call_seq=m["seq"])
            return self.send_error_with_markers(body), {"ora_error": 1001,
                                                        "ora_message": ORA_MESSAGES[1001] + "\n"}
        return self._fetch_into(cursor, m["rows_requested"], m["rows_requested"], 0x02, m["seq"])

    def do_reexec_fetch(self, m: dict, rec: dict):
        self.stats["execute_count"] += 1
        cursor = self.s.cursors.get(m["cursor"])
        rec["rows_requested"] = m["rows_requested"]
        if cursor is None:
            body = self.oer(error=1001, call_seq=m["seq"])
            return self.send_error_with_markers(body), {"ora_error": 1001,
                                                        "ora_message": ORA_MESSAGES[1001] + "\n"}
        rec["sql"] = cursor.sql
        cursor.pos = 0
        cursor.last_values = None
        cursor.failed = False
        return self._fetch_into(cursor, m["rows_requested"], m["rows_requested"], 0x22, m["seq"])

    def _tls_counters(self):
        """(ciphertext bytes written, app-data records, their bytes) under TCPS, else None."""
        if not hasattr(self.sock, "raw_wpos"):
            return None
        return self.sock.raw_wpos, self.sock.app_records_sent, self.sock.app_bytes_sent

    def result(self) -> dict:
        d = dict(self.info)
        if hasattr(self.sock, "raw_wpos"):
            d["tls"] = dict(d.get("tls", {}), bytes_sent=self.sock.raw_wpos,
                            bytes_received=self.sock.raw_rpos,
                            app_records_sent=self.sock.app_records_sent,
                            app_bytes_sent=self.sock.app_bytes_sent)
        d["end_of_response"] = self.s.eor
        d["stats"] = dict(self.stats)
        d["requests"] = self.requests
        d["closed_reason"] = self.closed_reason
        return d


# ---------------------------------------------------------------------------
class OracleServer:
    def __init__(self, cfg: dict, stats_path: str | None):
        self.cfg = cfg
        self.stats_path = stats_path
        self.tables: dict[str, Table] = {"DUAL": Table(DUAL)}
        for spec in cfg.get("tables", []):
            t = Table(spec)
            self.tables[t.name] = t
        if cfg.get("preencode", True):
            for t in self.tables.values():
                t.encoded_rows()
        self.lock = threading.Lock()
        self.dump = open(cfg["hexdump"], "w") if cfg.get("hexdump") else None
        self.done: list[Connection] = []
        self.active: list[Connection] = []
        self.redirects: list[dict] = []
        self.stop = threading.Event()
        self.tls_ctx = None
        if cfg.get("tls"):
            from .tls import server_context
            self.tls_ctx = server_context(cfg)

    def hexdump(self, direction: str, data: bytes):
        """text2pcap -D input: 'I' = received from the client, 'O' = sent by the
        server; convert with text2pcap -D -t '%s.%f' -T 54321,<port>."""
        if not self.dump:
            return
        ts = time.time()
        with self.lock:
            self.dump.write(f"{direction} {int(ts)}.{int((ts % 1) * 1e6):06d}\n")
            for off in range(0, len(data), 16):
                chunk = data[off:off + 16]
                self.dump.write(f"{off:06x} " + " ".join(f"{b:02x}" for b in chunk) + "\n")
            self.dump.write("\n")
            self.dump.flush()

    def connection_done(self, conn: Connection):
        with self.lock:
            if conn in self.active:
                self.active.remove(conn)
            self.done.append(conn)
        self.write_stats()

    def progress(self, conn: Connection):
        pass

    def write_stats(self):
        if not self.stats_path:
            return
        with self.lock:
            conns = [c.result() for c in sorted(self.done + self.active,
                                                key=lambda c: c.session_start)]
        out = {"server": {k: self.cfg.get(k) for k in (
            "address", "port", "tns_version", "end_of_response", "sdu_limit",
            "think_time_ms", "field_version")},
            "connections": conns}
        if self.cfg.get("redirect"):
            with self.lock:
                out["redirects"] = list(self.redirects)
        tmp = self.stats_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f)
        os.replace(tmp, self.stats_path)

    def redirect(self, sock: socket.socket, peer):
        """A listener that sends the client elsewhere (cfg "redirect": {"from_port",
        "deferred"}): read its CONNECT, answer with a REDIRECT to this server's own
        port whose data is the new address, a NUL and the client's connect data
        (header flag 0x02, NSPFRDS), inline or, "deferred", as a 10-byte REDIRECT
        followed by a DATA packet; then wait for the client to close."""
        rcfg = self.cfg["redirect"]
        rec = {"client_address": peer[0], "client_port": peer[1], "listener_port": int(rcfg["from_port"])}
        try:
            sock.settimeout(30)
            conn = Connection(self, sock, peer)
            ptype, hflags, pkt = conn.read_packet()
            if ptype != tns.CONNECT:
                raise ClientGone(f"expected CONNECT, got {ptype}")
            c = tns.parse_connect(pkt)
            if c.data_length and not c.connect_data:
                _, _, pkt2 = conn.read_packet()
                c.connect_data = pkt2[10:].decode("latin-1")
            address = (f"(ADDRESS=(PROTOCOL=TCP)(HOST={self.cfg.get('address', '127.0.0.1')})"
                       f"(PORT={int(self.cfg.get('port', 1521))}))")
            data = address.encode() + b"\0" + c.connect_data.encode("latin-1")
            flags = 0x02
            if rcfg.get("deferred"):
                packets = [tns.redirect_packet(data, flags, inline=False), tns.data_packet(data, large=False)]
            else:
                packets = [tns.redirect_packet(data, flags)]
            for p in packets:
                conn.send_raw(p)
            rec.update({"redirect_address": address, "redirect_port": int(self.cfg.get("port", 1521)),
                        "redirect_data_length": len(data), "redirect_header_flags": flags,
                        "redirect_connect_data": c.connect_data,
                        "redirect_deferred": bool(rcfg.get("deferred")),
                        "redirect_packet_lengths": [len(p) for p in packets]})
            while sock.recv(4096):
                pass
            rec["closed_reason"] = "client EOF"
        except Exception as exc:      # recorded, never raised past the listener
            rec["closed_reason"] = f"redirect error: {exc!r}"
        finally:
            sock.close()
            with self.lock:
                self.redirects.append(rec)

    def serve(self, ready_file: str | None = None):
        addr = self.cfg.get("address", "127.0.0.1")
        port = int(self.cfg.get("port", 1521))
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind((addr, port))
        ls.listen(16)
        ls.settimeout(0.2)
        rs = None
        if self.cfg.get("redirect"):
            rs = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            rs.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rs.bind((addr, int(self.cfg["redirect"]["from_port"])))
            rs.listen(16)
            rs.setblocking(False)
        if ready_file:
            with open(ready_file, "w") as f:
                f.write(str(os.getpid()))
        max_conn = int(self.cfg.get("max_connections", 0))
        served = 0
        deadline = time.time() + float(self.cfg.get("max_runtime_s", 3600))
        threads = []
        try:
            while not self.stop.is_set() and time.time() < deadline:
                if rs is not None:
                    try:
                        rsock, rpeer = rs.accept()
                        rsock.setblocking(True)
                        rth = threading.Thread(target=self.redirect, args=(rsock, rpeer), daemon=True)
                        rth.start()
                        threads.append(rth)
                    except (BlockingIOError, socket.timeout):
                        pass
                try:
                    sock, peer = ls.accept()
                except socket.timeout:
                    if max_conn and served >= max_conn and not any(t.is_alive() for t in threads):
                        break
                    continue
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn = Connection(self, sock, peer)
                with self.lock:
                    self.active.append(conn)
                th = threading.Thread(target=conn.run, daemon=True)
                th.start()
                threads.append(th)
                served += 1
        finally:
            ls.close()
            if rs is not None:
                rs.close()
            for th in threads:
                th.join(timeout=5)
            self.write_stats()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--config", required=True, help="JSON config file")
    ap.add_argument("--stats", help="write connection stats JSON here")
    ap.add_argument("--ready", help="file created once the server listens")
    args = ap.parse_args(argv)
    with open(args.config) as f:
        cfg = releases.resolve(json.load(f))
    srv = OracleServer(cfg, args.stats)
    # A database server does not stop for Python's cycle collector: with it on, a
    # collection pauses a response for ~1 ms (up to 5) at allocation-determined points,
    # a server time no Oracle server has and no array-size model predicts.  The
    # server's objects are freed by reference counting; the few cycles wait for exit.
    gc.collect()
    gc.freeze()
    gc.disable()

    def _stop(*_):
        srv.stop.set()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    srv.serve(args.ready)
    return 0


if __name__ == "__main__":
    sys.exit(main())
