"""Unit tests of the scripted server's encoders/parsers against bytes copied by
hand from shared/docs/tns-wire-format.md (annotated real captures)."""

import hashlib
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testgen"))

from sqlnetgen import tns, ttc  # noqa: E402
from sqlnetgen.ano import ano_reply  # noqa: E402
from sqlnetgen.server import Connection, Session, rxh  # noqa: E402


def h(s: str) -> bytes:
    return bytes.fromhex(s.replace(" ", "").replace("\n", ""))


class FakeServer:
    def __init__(self, cfg=None):
        self.cfg = cfg or {}
        self.tables = {}


def conn(fv=12, **cfg):
    c = Connection(FakeServer(cfg), sock=None, addr=("127.0.0.1", 40000))
    c.s = Session(fv=fv)
    return c


# --- primitives (doc 4.1) -----------------------------------------------------
def test_universal_integers():
    assert ttc.enc_uint(0) == b"\x00"
    assert ttc.enc_uint(100) == h("01 64")
    assert ttc.enc_uint(0x8061) == h("02 80 61")           # OALL8 options
    assert ttc.enc_uint(0x7FFFFFFF) == h("04 7f ff ff ff")  # max long
    assert ttc.ub4(1403) == h("02 05 7b")                   # minimal form used by servers
    assert ttc.ub4(0x10001) == h("03 01 00 01")             # error call status (23ai capture)
    assert ttc.enc_sint(-127) == h("81 7f")                 # NUMBER scale, universal sb1
    r = ttc.Reader(h("02 05 7b 81 7f 00"))
    assert (r.ub4(), r.sb4(), r.ub8()) == (1403, -127, 0)


def test_dalc_long_form():
    data = bytes(range(256)) * 2
    enc = ttc.dalc(data)
    assert enc[0] == 0xFE and enc[-1] == 0
    assert enc[1:4] == h("02 02 00")          # ub4 chunk length 512 (BIG_CHUNK_CLR)
    assert ttc.Reader(enc).dalc() == data
    assert ttc.dalc(b"abc") == b"\x03abc"


def test_oracle_number():
    assert ttc.oracle_number(1) == h("c1 02")
    assert ttc.oracle_number(1014) == h("c2 0b 0f")         # doc A.1 row 1
    assert ttc.oracle_number(313) == h("c2 04 0e")
    assert ttc.oracle_number(112) == h("c2 02 0d")
    assert ttc.oracle_number(0) == h("80")


# --- requests ---------------------------------------------------------------------
def test_parse_ofetch_appendix_a1():
    # doc A.1: 00 00 00 11 | 06 | 00 | 00 00 | 00 00 | 03 05 08 01 05 01 64
    pkt = h("00 00 00 11 06 00 00 00 00 00 03 05 08 01 05 01 64")
    assert tns.parse_header(pkt[:8], large=True) == (17, tns.DATA, 0)
    msgs = conn(fv=12).parse_request(pkt[10:])
    assert len(msgs) == 1
    m = msgs[0]
    assert (m["function"], m["seq"], m["cursor"], m["rows_requested"]) == ("OFETCH", 8, 5, 100)


def test_parse_ofetch_with_token_fv18():
    m = conn(fv=24).parse_request(h("03 05 0a 00 01 04 01 64"))[0]   # doc 4.4, 23ai
    assert (m["token"], m["cursor"], m["rows_requested"]) == (0, 4, 100)


def test_parse_reexecute_and_fetch():
    m = conn(fv=24).parse_request(h("03 4e 04 00 01 02 01 02 01 20 00"))[0]   # doc 4.5
    assert (m["function"], m["cursor"], m["rows_requested"], m["options"]) == ("OEXFEN", 2, 2, 0x20)


def test_parse_close_cursor_piggyback():
    msgs = conn(fv=24).parse_request(h("11 69 04 00 01 01 01 01 02 03 09 05 00"))
    assert msgs[0]["function"] == "OCCA" and msgs[0]["cursors"] == [2]
    assert msgs[1]["function"] == "OLOGOFF"


def test_parse_oall8_doc_4_3():
    sql = b"SELECT 1 AS n FROM dual"
    assert len(sql) == 23
    # after max long: binds ptr+count, 5 pointers, defines ptr+count, regid lsb,
    # objlist, objlen(=1), blv, blvl, dnam, dnaml, regid msb, 3 dml-rowcount
    # fields, fv>=8 five zeros, fv>=9 two zeros
    body = h("03 5e 03 00 02 80 61 00 01 01 17 01 01 0d 00 00 00 01 02 04 7f ff ff ff"
             "00 00 00 00 00 00 00 00 00 00 00 01" + " 00" * 15) + b"\x17" + sql + h(
        "01 01 00 00 00 00 00 00 01 01 00 02 80 00 00 00 00")
    m = conn(fv=24).parse_request(body)[0]
    assert m["options"] == 0x8061
    assert m["cursor"] == 0
    assert m["prefetch_rows"] == 2
    assert m["sql"] == sql.decode()
    assert m["al8i4"] == [1, 0, 0, 0, 0, 0, 0, 1, 0, 0x8000, 0, 0, 0]
    assert m.get("complete") is not False


def test_parse_truncated_request_needs_more():
    with pytest.raises(ttc.NeedMore):
        conn(fv=12).parse_request(h("03 05 08 01 05"))


# --- responses ------------------------------------------------------------------------
def test_oer_end_of_fetch_appendix_a1():
    """A.1 OER: call status 1, e2e seq 0xa96a, CUR ROW 5, err 1403, cursor 5,
    sql type 3, call# 8, fv>=7 tail (err 1403, rowcount 5), message."""
    expected = h("04 01 01 02 a9 6a 01 05 02 05 7b 00 00 01 05 00 03 00 00 00 00 00 00 00 00"
                 "00 00 00 00 08 00 00 00 00 00 00 02 05 7b 01 05 19") + b"ORA-01403: no data found\n"
    c = conn(fv=12)
    c.s.seq = 0xA969
    got = c.oer(cursor=5, rowcount=5, error=1403, call_seq=8, sql_type=3)
    assert got == expected


def test_oer_field_version_gates():
    c = conn(fv=6)
    c.s.seq = 1
    short = c.oer(cursor=1, rowcount=1)
    c = conn(fv=12)
    c.s.seq = 1
    mid = c.oer(cursor=1, rowcount=1)
    c = conn(fv=24)
    c.s.seq = 1
    long = c.oer(cursor=1, rowcount=1)
    assert len(mid) == len(short) + 3          # fv>=7: ub4 error 0 + ub8 rowcount 1 -> 00 01 01
    assert mid.endswith(h("00 01 01"))
    assert long == mid + h("00 00")            # fv>=14: sql type ub4 + checksum ub4


def test_rxh_appendix_a1():
    # 06 02 01 02 00 01 64 00 01 01 01 06 00: flags 02, 2 columns sent, iter 0,
    # num iters 100 (requested), buflen 0, bit vector length 1, repeat 01, vector 06, rxhrid 0
    assert rxh(0x02, 2, 100, b"\x06") == h("06 02 01 02 00 01 64 00 01 01 01 06 00")
    # python 19c OALL8 reply: 06 22 01 01 00 01 02 00 00 00
    assert rxh(0x22, 1, 2) == h("06 22 01 01 00 01 02 00 00 00")


def test_sta_and_marker():
    c = conn()
    c.s.seq = 0xFFFF
    assert c.sta() == h("09 01 01 01 01")            # seq wraps to 1
    assert tns.marker_packet(tns.MARKER_BREAK) == h("00 00 00 0b 0c 20 00 00 01 00 01")
    assert tns.marker_packet(tns.MARKER_RESET, large=False, hflags=0) == h("00 0b 00 00 0c 00 00 00 01 00 02")


def test_accept_appendix_a2():
    uuid = h("5a f0 74 a2 71 17 ae 81 5f 9e d5 67 13 59 5e d3")
    expected = h("00 3d 00 00 02 00 00 00 01 3f 00 01 00 00 00 00 01 00 00 00 00 3d c5 00"
                 "00 00 00 00 00 00 00 00 00 00 20 00 00 00 20 00 00 1a 00 00 00") + uuid
    got = tns.build_accept(319, 8192, 8192, flags2=0x1A000000, nsi0=0xC5, nsi1=0x00, uuid=uuid)
    assert got == expected


def test_accept_19c_v318():
    # doc 2.2: 19c 01 3e 00 01 ... SDU32=TDU32=8192, flags2=0 (45 bytes)
    got = tns.build_accept(318, 8192, 8192, flags2=0, nsi0=0xC5, nsi1=0x00)
    assert len(got) == 45 and got[8:10] == h("01 3e") and got[32:40] == h("00 00 20 00 00 00 20 00")


def test_split_payload_respects_sdu_and_eor_flag():
    payload = bytes(20000)
    pkts = tns.split_payload(payload, 8192, last_flags=tns.DATA_FLAG_END_OF_RESPONSE)
    lengths = [struct.unpack(">I", p[:4])[0] for p in pkts]
    assert lengths == [8192, 8192, 3646]
    assert sum(lengths) - 10 * len(pkts) == 20000
    assert [struct.unpack(">H", p[8:10])[0] for p in pkts] == [0, 0, 0x2000]


def test_connect_parse_python_style():
    # CONNECT as python-oracledb writes it (doc 2.1): v319, SDU 8192, offset 74
    desc = b"(DESCRIPTION=(ADDRESS=(PROTOCOL=tcp)(HOST=h)(PORT=1)))"
    hdr = bytearray(74)
    struct.pack_into(">HHBBH", hdr, 0, 74 + len(desc), 0, 1, 0, 0)
    struct.pack_into(">HHHHHHHH", hdr, 8, 319, 300, 0x0001, 8192, 8192, 0x4F98, 0, 1)
    struct.pack_into(">HH", hdr, 24, len(desc), 74)
    hdr[32] = hdr[33] = 0x84
    struct.pack_into(">IIII", hdr, 58, 8192, 8192, 0, 1)
    c = tns.parse_connect(bytes(hdr) + desc)
    assert (c.version, c.sdu, c.tdu, c.nsi_flags0, c.flags2) == (319, 8192, 8192, 0x84, 1)
    assert c.connect_data == desc.decode()


def test_ano_reply_layout():
    r = ano_reply(b"")
    magic, length, version, nserv, err = struct.unpack(">IHIHB", r[:13])
    assert (magic, length, nserv, err) == (0xDEADBEEF, len(r), 4, 0)
    # first service: supervisor (4) with 3 sub-packets and status 0x001F
    assert struct.unpack(">HHI", r[13:21]) == (4, 3, 0)
    assert r[29:35] == h("00 02 00 06 00 1f")


def test_o5logon_server_response_verifies_like_a_client():
    """Independent client-side O5LOGON (doc 7.3) against the server's replies."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    def dec(k, d):
        x = Cipher(algorithms.AES(k), modes.CBC(bytes(16))).decryptor()
        return x.update(d) + x.finalize()

    def enc(k, d):
        x = Cipher(algorithms.AES(k), modes.CBC(bytes(16))).encryptor()
        return x.update(d) + x.finalize()

    # the 11g verifier (0x1B25) is checked here; the 12c PBKDF2 verifier, the
    # server's default, is checked by the real clients that log on with it
    c = conn(fv=24, password="tiger", verifier="11g")
    reply = c.auth_phase_one({"seq": 1, "user": "scott"})
    r = ttc.Reader(reply)
    assert r.u8() == 8
    kv = {}
    for _ in range(r.ub2()):
        key, val, flags = r.str_with_length(), r.str_with_length(), r.ub4()
        kv[key] = (val, flags)
    assert kv["AUTH_VFR_DATA"][1] == 0x1B25
    salt = bytes.fromhex(kv["AUTH_VFR_DATA"][0])
    key = hashlib.sha1(b"tiger" + salt).digest() + bytes(4)
    srv = dec(key, bytes.fromhex(kv["AUTH_SESSKEY"][0]))
    assert len(srv) == 48
    cli = bytes(range(48))
    cli_hex = enc(key, cli).hex().upper()
    x = bytes(a ^ b for a, b in zip(srv[16:40], cli[16:40]))
    combo = (hashlib.md5(x[:16]).digest() + hashlib.md5(x[16:24]).digest())[:24]
    reply2 = c.auth_phase_two({"seq": 2, "kv": {"AUTH_SESSKEY": (cli_hex, 1)}})
    r = ttc.Reader(reply2)
    assert r.u8() == 8
    kv2 = {}
    for _ in range(r.ub2()):
        key2, val, flags = r.str_with_length(), r.str_with_length(), r.ub4()
        kv2[key2] = val
    resp = dec(combo, bytes.fromhex(kv2["AUTH_SVR_RESPONSE"]))
    assert resp[16:32] == b"SERVER_TO_CLIENT"
    for k in ("AUTH_SESSION_ID", "AUTH_SERIAL_NUM", "AUTH_VERSION_NO"):
        int(kv2[k])
