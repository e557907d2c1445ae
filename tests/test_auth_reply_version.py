"""The server's authentication replies (OSESSKEY, OAUTH) and OVERSION, both
ways (issue 35, point 2: OCI's auth reply values and function 59).

Evidence, none of it the dissector's own fields:
- EXPECTED.json's auth_version (AUTH_VERSION_NO, AUTH_VERSION_STRING,
  AUTH_VERSION_SQL, read by the corpus notes' own walk of the replies) and
  dialect (field version, pointer width, native or universal integers);
- a hand decode of the replies' bytes (tcp.payload, tshark's core) in the
  layout python-oracledb reads (messages/auth.pyx: ub2 count; per pair key
  and value as ub4 length + length byte + bytes; a ub4), with native
  little-endian ub2/ub4 for OCI;
- OVERSION's request as go-ora writes it (v2/db_version.go: pointer, buffer
  length, two pointers, from field version 11 a ub4) read off the bytes, and
  the release its reply's number encodes compared with the release the
  banner text itself names (e.g. "Release 11.1.0.7.0"; the scripted server
  of the generated captures sends a banner of another release, so there
  only the two views of the number - OVERSION's and AUTH_VERSION_NO - are
  compared with each other).
Secrets (AUTH_SESSKEY, AUTH_VFR_DATA, the PBKDF2 salt) are shown only as
their length: their bytes never appear as a value.
"""
import json
import re
import struct

import pytest

from test_caps import sent_until, tns_data
from tshark import PUBLIC, TEST_CAPTURES

FIELDS = ["frame.number", "tcp.stream", "tcp.srcport", "tcp.payload", "sqlnet.auth.reply_key",
          "sqlnet.auth.value", "sqlnet.auth.secret_length", "sqlnet.auth.version_no", "sqlnet.auth.session_id",
          "sqlnet.version.buffer_length", "sqlnet.version.format", "sqlnet.version.number",
          "sqlnet.version.release", "sqlnet.banner", "sqlnet.func", "sqlnet.ttc.not_decoded",
          "sqlnet.ttc.call_data"]
SECRETS = {"AUTH_SESSKEY", "AUTH_VFR_DATA", "AUTH_PBKDF2_CSK_SALT", "AUTH_PBKDF2_SPEEDY_KEY", "AUTH_SVR_RESPONSE"}
AGG = "\x1f"                           # values hold commas and bars
# capture, server port, native integers, pointer width, field version (EXPECTED.json's dialect;
# goora_basic: its manifest, go-ora at field version 11 against 24), banner names the release
CAPTURES = [("dbbat/sqlplus_cursor_reexec.pcapng", 1521, True, 8, 22, True),
            ("dbbat/go_ora.pcapng", 1521, False, 1, 11, True),
            ("dbbat/python_thin.pcapng", 1521, False, 1, 12, True),
            ("dbbat/jdbc_thin_cursor_reexec.pcapng", 1521, False, 1, 24, True),
            ("john/Oracle-good.pcap", 1521, True, 8, 5, True),
            ("junkie/select.pcap", 1521, True, 1, 3, True),
            ("visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng", 1521, True, 1, 6, True),
            ("goora_basic.pcapng", 1521, False, 1, 11, False)]


def expected_auth(cap):
    e = json.loads((PUBLIC / "EXPECTED.json").read_text()).get(cap, {}) if (PUBLIC / "EXPECTED.json").is_file() \
        else {}
    for conv in e.get("conversations", []):
        if conv.get("auth_version"):
            return conv["auth_version"]
    return None


@pytest.fixture(scope="module", params=CAPTURES, ids=lambda p: p[0])
def capture(request, tshark):
    cap, port, native, ptr, fv, banner_names = request.param
    path = TEST_CAPTURES / cap if (TEST_CAPTURES / cap).is_file() else PUBLIC / cap
    if not path.is_file():
        pytest.skip(f"{cap} not available")
    args = ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", f"aggregator={AGG}",
            "-Y", "tcp.len > 0"]
    for f in FIELDS:
        args += ["-e", f]
    out = tshark.run(path, args).stdout
    frames = [dict(zip(FIELDS, line.split("\t"))) for line in out.splitlines()]
    return dict(cap=cap, port=str(port), native=native, ptr=ptr, fv=fv, banner_names=banner_names,
                frames=frames)


class Reader:
    """The integers of the session's dialect: native little-endian ub2/ub4, or
    universal (a length byte, then big-endian bytes); a DALC's short form."""

    def __init__(self, b, native, ptr=1):
        self.b, self.p, self.native, self.ptr_width = b, 0, native, ptr

    def u8(self):
        self.p += 1
        return self.b[self.p - 1]

    def uint(self, width):
        if self.native:
            v = int.from_bytes(self.b[self.p:self.p + width], "little")
            self.p += width
            return v
        n = self.u8() & 0x7F
        v = int.from_bytes(self.b[self.p:self.p + n], "big")
        self.p += n
        return v

    def ptr(self):
        if self.native and self.ptr_width > 1:
            self.p += self.ptr_width
        else:
            self.u8()

    def dalc(self):
        n = self.u8()
        assert n < 0xFE, "long form not expected in these values"
        self.p += n
        return self.b[self.p - n:self.p]


def auth_pairs(ttc, native):
    """(key, value bytes or None) of an RPA (08) of authentication."""
    r = Reader(ttc, native)
    assert r.u8() == 8
    pairs = []
    for _ in range(r.uint(2)):
        key = r.dalc().decode().rstrip("\0") if r.uint(4) else None
        value = r.dalc() if r.uint(4) else None
        r.uint(4)
        pairs.append((key, value))
    return pairs


def test_auth_reply_values(capture):
    """Every non-secret value the server returns is shown, in order, equal to
    the hand decode; secrets only as their length; AUTH_VERSION_NO and
    AUTH_VERSION_STRING equal EXPECTED.json's."""
    rows = [(i, f) for i, f in enumerate(capture["frames"]) if f["sqlnet.auth.reply_key"]]
    want = expected_auth(capture["cap"])
    checked = 0
    for i, row in rows:
        ttc = tns_data(sent_until(capture["frames"], i))
        if ttc[0] != 8:
            continue                   # a fast authentication's reply: PRO and DTY replies first
        checked += 1
        pairs = auth_pairs(ttc, capture["native"])
        assert row["sqlnet.auth.reply_key"].split(AGG) == [k for k, _ in pairs]
        values = [v.decode().rstrip("\0") for k, v in pairs if v and k not in SECRETS]
        assert (row["sqlnet.auth.value"].split(AGG) if row["sqlnet.auth.value"] else []) == values, \
            row["frame.number"]
        lengths = [int(x) for x in row["sqlnet.auth.secret_length"].split(AGG) if x]
        assert lengths == [len(v) for k, v in pairs if v and k in SECRETS]
        for k, v in pairs:
            if v and k in SECRETS:
                assert v.decode(errors="replace") not in row["sqlnet.auth.value"]
        d = {k: v.decode() for k, v in pairs if v and k not in SECRETS}
        if "AUTH_VERSION_NO" in d:
            assert row["sqlnet.auth.version_no"] == d["AUTH_VERSION_NO"]
            if want:
                assert d["AUTH_VERSION_NO"] == want["AUTH_VERSION_NO"]
                assert d["AUTH_VERSION_STRING"] == want["AUTH_VERSION_STRING"]
        if "AUTH_SESSION_ID" in d:
            assert row["sqlnet.auth.session_id"] == d["AUTH_SESSION_ID"]
    assert checked, "no authentication reply"


def release(number, fv):
    """python-oracledb messages/auth.pyx _get_version_tuple."""
    if fv >= 11:
        parts = (number >> 24, (number >> 16) & 0xFF, (number >> 12) & 0xF, (number >> 4) & 0xFF, number & 0xF)
    else:
        parts = (number >> 24, (number >> 20) & 0xF, (number >> 12) & 0xF, (number >> 8) & 0xF, number & 0xF)
    return ".".join(map(str, parts))


def test_oversion_request(capture):
    """The request's buffer length and, from field version 11, its ub4, as read
    off the bytes; the call is decoded (no call data, no not-decoded expert)."""
    frames = capture["frames"]
    rows = [(i, f) for i, f in enumerate(frames) if "59" in f["sqlnet.func"].split(AGG)
            and f["tcp.srcport"] != capture["port"]]
    if capture["cap"] in ("dbbat/python_thin.pcapng", "dbbat/jdbc_thin_cursor_reexec.pcapng"):
        assert not rows                # python-oracledb and JDBC thin do not send it
        return
    assert rows, "no OVERSION call"
    for i, row in rows:
        ttc = tns_data(sent_until(frames, i))
        at = ttc.index(b"\x03\x3b")
        r = Reader(ttc[at + 3:], capture["native"], capture["ptr"])
        if capture["fv"] >= 18:        # the call's token (ub8, universal)
            r.native = False
            r.uint(8)
            r.native = capture["native"]
        r.ptr()
        length = r.uint(4)
        r.ptr()
        r.ptr()
        assert row["sqlnet.version.buffer_length"] == str(length)
        if capture["fv"] >= 11:
            assert row["sqlnet.version.format"] == str(r.uint(4))
        else:
            assert row["sqlnet.version.format"] == ""
        assert r.p + at + 3 == len(ttc), "bytes left after the call"
        assert not row["sqlnet.ttc.call_data"] and not row["sqlnet.ttc.not_decoded"]


def test_oversion_reply(capture):
    """The reply's number is the ub4 after the banner; the release it encodes
    is the one the banner names, and the number is AUTH_VERSION_NO."""
    frames = capture["frames"]
    rows = [f for f in frames if f["sqlnet.version.number"]]
    if capture["cap"] in ("dbbat/python_thin.pcapng", "dbbat/jdbc_thin_cursor_reexec.pcapng"):
        assert not rows
        return
    assert len(rows) == 1
    row = rows[0]
    number = int(row["sqlnet.version.number"], 16)
    assert row["sqlnet.version.release"] == release(number, capture["fv"])
    if capture["banner_names"]:
        named = re.findall(r"(\d+\.\d+\.\d+\.\d+\.\d+)", row["sqlnet.banner"])
        assert named and named[-1] == row["sqlnet.version.release"], (named, row["sqlnet.version.release"])
    auth = [f["sqlnet.auth.version_no"] for f in frames if f["sqlnet.auth.version_no"]]
    assert auth and int(auth[-1]) == number
