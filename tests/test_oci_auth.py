"""OCI's native authentication calls (OSESSKEY 118, OAUTH 115): the user, and
every key and value, as fields; secrets only as their bytes.

Evidence: the real captures' bytes, read by this test's own parser of the
layout (below), compared with the plugin's fields.  The layout, read by hand
off the captures (offsets from the TCP payload; the call body follows the
function header "03 76 02" at 0x0a, or "03 76 02 01 03" with SQL*Plus 23's
token):
- 64-bit SQL*Plus 23 (dbbat/sqlplus_cursor_reexec frame 11, body at 0x0f):
  "feffffffffffffff" (pointer) "12000000" (user length: 18, the maximum in
  bytes, 3 per character) "01000000" (mode) "fe.." (pointer) "05000000"
  (pairs) "fe.." "fe.." (pointers) "06 system", then per pair: key length
  ub4 "27000000", key DALC "0d AUTH_TERMINAL", value length ub4 (0: no
  value follows), the value's DALC when not 0, flags ub4.
- 64-bit OCI 19c to a same-platform server (jkstill19c frame 20, body at
  0x0d): the same with 4 zero bytes after the pair count ("05000000
  00000000"), "07 jkstill" (user length 15000000 = 21).
- 32-bit SQL*Plus 10.2 to a same-platform server (wsSC_TNS_Oracle1.pcap
  frame 24, body at 0x0d): 4-byte pointers ("74b42706"), user length 4 for
  "04 yuri"; SQL*Plus 9.0 on Windows (visblank 9i frame 50) the same
  ("ccd7fc00 06000000 01000000 ... 06 coanor").
- SQL*Plus 10.1 on 64-bit Linux (junkie/select.pcap frame 17, field version
  3): one-byte pointers "01 0f000000 01000000 01 05000000 01 01 05 rixed";
  nmap's login (john/11gR2-Nmap-sys-good.pcap frame 206) the same with a
  user length one too short: "04000000" for "05 admin" (the DALC rules).
The secrets: AUTH_SESSKEY, AUTH_PBKDF2_SPEEDY_KEY and AUTH_PASSWORD (the
client's encrypted session key, key and password); their values must not be
shown as text, only as the bytes of their DALC (sqlnet.auth.secret).
"""
import struct

import pytest

from tshark import corpus_file

# capture, frame, body offset, pointer width, 4 bytes after the pair count
CALLS = [("dbbat/sqlplus_cursor_reexec.pcapng", 11, 0x0F, 8, False),
         ("dbbat/sqlplus_cursor_reexec.pcapng", 13, 0x0F, 8, False),
         ("jkstill19c/cdb01_ora_26589.pcap", 20, 0x0D, 8, True),
         ("jkstill19c/cdb01_ora_26589.pcap", 24, 0x0D, 8, True),
         ("wsSC_TNS_Oracle1.pcap", 24, 0x0D, 4, False),
         ("wsSC_TNS_Oracle1.pcap", 30, 0x0D, 4, False),
         ("visblank/sqlplus9i_vs_9.0.1_full_session.pcapng", 50, 0x0D, 4, False),
         ("visblank/sqlplus9i_vs_9.0.1_full_session.pcapng", 54, 0x0D, 4, False),
         ("junkie/select.pcap", 17, 0x0D, 1, False),
         ("junkie/select.pcap", 19, 0x0D, 1, False),
         ("john/11gR2-Nmap-sys-good.pcap", 206, 0x0D, 1, False)]
SECRETS = {"AUTH_SESSKEY", "AUTH_PBKDF2_SPEEDY_KEY", "AUTH_PASSWORD"}
NAMED = {"AUTH_PROGRAM_NM": "sqlnet.auth.program", "AUTH_MACHINE": "sqlnet.auth.machine",
         "AUTH_TERMINAL": "sqlnet.auth.terminal", "AUTH_SID": "sqlnet.auth.os_user", "AUTH_PID": "sqlnet.auth.pid",
         "AUTH_CONNECT_STRING": "sqlnet.auth.connect_string", "AUTH_ALTER_SESSION": "sqlnet.auth.alter_session"}
FIELDS = ["sqlnet.auth.user", "sqlnet.auth.key", "sqlnet.auth.value", "sqlnet.auth.secret",
          "sqlnet.ttc.call_data"] + sorted(NAMED.values())


def parse(b, o, ptr, pad):
    """The layout of the docstring: (user, [(key, value DALC or None)], end)."""
    o += ptr
    ulen, _mode = struct.unpack_from("<II", b, o)
    o += 8 + ptr
    n = struct.unpack_from("<I", b, o)[0]
    o += 4 + (4 if pad else 0) + 2 * ptr
    user = None
    if ulen:
        user = b[o + 1:o + 1 + b[o]].decode()
        o += 1 + b[o]
    pairs = []
    for _ in range(n):
        key = value = None
        if struct.unpack_from("<I", b, o)[0]:
            key = b[o + 5:o + 5 + b[o + 4]].decode()
            o += 1 + b[o + 4]
        o += 4
        vlen = struct.unpack_from("<I", b, o)[0]
        o += 4
        if vlen:
            value, o = dalc(b, o)
        o += 4                                        # flags
        pairs.append((key, value))
    return user, pairs, o


def dalc(b, o):
    """A DALC at o: (its bytes as on the wire, the text), the offset after it.
    Long form (fe): one-byte chunk lengths up to a 0 (wsSC frame 30's ALTER
    SESSION value, 528 bytes)."""
    if b[o] != 0xFE:
        return (b[o:o + 1 + b[o]], b[o + 1:o + 1 + b[o]]), o + 1 + b[o]
    start, text, o = o, b"", o + 1
    while b[o]:
        text += b[o + 1:o + 1 + b[o]]
        o += 1 + b[o]
    return (b[start:o + 1], text), o + 1


@pytest.mark.parametrize("name,frame,body,ptr,pad", CALLS, ids=[f"{c[0]}#{c[1]}" for c in CALLS])
def test_auth_keys_and_values(tshark, public_dir, name, frame, body, ptr, pad):
    cap = corpus_file(public_dir, name)
    (payload, whole), = tshark.fields(cap, ["tcp.payload", "tcp.reassembled.data"], f"frame.number == {frame}")
    b = bytes.fromhex((whole or payload).replace(":", ""))    # wsSC frame 30 ends a 3-segment PDU
    user, pairs, end = parse(b, body, ptr, pad)
    assert end == len(b)                              # the parser read the call to its last byte
    assert {k for k, _ in pairs} & {"AUTH_TERMINAL", "AUTH_PROGRAM_NM", "AUTH_MACHINE"}
    rows = tshark.fields(cap, FIELDS, f"frame.number == {frame}", extra=["-E", "aggregator=|"])
    assert len(rows) == 1
    # Wireshark 4.2 and later escape a backslash in -T fields ("WORKGROUP\\\\COANOR")
    got = {f: v.replace("\\\\", "\\") for f, v in zip(FIELDS, rows[0])}
    assert got["sqlnet.ttc.call_data"] == ""
    assert got["sqlnet.auth.user"] == user
    assert got["sqlnet.auth.key"].split("|") == [k for k, _ in pairs if k]
    shown = [v[1] for k, v in pairs if k and v and k not in SECRETS]
    secret = [v[0] for k, v in pairs if k in SECRETS and v]
    if name.startswith("wsSC"):
        # its values are in the client's Windows code page: count them only
        assert len(got["sqlnet.auth.value"].split("|")) == len(shown)
    else:
        assert got["sqlnet.auth.value"].split("|") == [v.decode().rstrip("\0") for v in shown]
        for key, field in NAMED.items():
            want = [v[1].decode().rstrip("\0") for k, v in pairs if k == key and v]
            assert got[field] == (want[0] if want else ""), field
    assert [bytes.fromhex(s.replace(":", "")) for s in got["sqlnet.auth.secret"].split("|") if s] == secret
    for v in secret:                                   # never as text
        assert v[1:].decode("latin-1") not in got["sqlnet.auth.value"]
