"""JDBC connection cookies (issue 25, point 2): TTC message 30.

Evidence: the generated capture cookie_23ai_jdbc, a real client accepting the
scripted server.  ojdbc11 23.26 ran two sessions one after the other in one
JVM against a 23ai server whose ACCEPT carries the same 16-byte database id
each time.  The driver keeps the first session's PRO reply under that id and,
on the second connection, sends PRO, the cookie (message 30), DTY and
OSESSKEY in one request (ojdbc 23.26 T4CConnection.cookieBasedNegotiateSession,
T4CTTICookie.marshal, read with javap); the server answers PRO + DTY + the
OSESSKEY reply, and the driver logged on and read every row.

The expected values do not come from the dissector: the cookie's fields are
compared with the first session's PRO reply, both parsed here by hand from
the capture's TCP payloads (tcp.payload, tshark's core); rows per session
and round trips from the client's report and the server's counters.
"""
import json
import struct

import pytest

from tshark import TEST_CAPTURES

NAME = "cookie_23ai_jdbc"
MSG_COOKIE = 30


def manifest():
    path = TEST_CAPTURES / f"{NAME}.json"
    if not path.is_file() or not (TEST_CAPTURES / f"{NAME}.pcapng").is_file():
        pytest.skip(f"{NAME} not generated")
    return json.loads(path.read_text()), TEST_CAPTURES / f"{NAME}.pcapng"


def tcp_bytes(tshark, cap, port, first, last, from_client):
    """The TCP payload one side sent on one connection in frames [first, last]."""
    side = "tcp.srcport" if from_client else "tcp.dstport"
    rows = tshark.fields(cap, ["frame.number", "tcp.payload"],
                         f"{side} == {port} && tcp.len > 0 && frame.number >= {first} && "
                         f"frame.number <= {last}")
    return b"".join(bytes.fromhex(r[1].replace(":", "")) for r in rows)


def ttc_of(stream):
    """The DATA payloads (after the 2-byte data flags) of TNS packets with 32-bit
    lengths (every packet after an ACCEPT of version >= 315)."""
    out, pos = b"", 0
    while pos + 8 <= len(stream):
        length = struct.unpack(">I", stream[pos:pos + 4])[0]
        assert length >= 8, (pos, stream[pos:pos + 8].hex())
        if stream[pos + 4] == 6:
            out += stream[pos + 10:pos + length]
        pos += length
    assert pos == len(stream)
    return out


def parse_pro_reply(b):
    """PRO reply by hand: 01, version, 00, platform NUL, charset (le16), flags,
    element count (le16) x 5 bytes, FDO (be16 length), compile caps, runtime caps."""
    assert b[0] == 1
    version = b[1]
    end = b.index(0, 3)
    platform = b[3:end].decode()
    p = end + 1
    charset, flags, nelem = struct.unpack_from("<HBH", b, p)
    p += 5 + 5 * nelem
    (fdo_len,) = struct.unpack_from(">H", b, p)
    fdo = b[p + 2:p + 2 + fdo_len]
    p += 2 + fdo_len
    ccaps = b[p + 1:p + 1 + b[p]]
    p += 1 + b[p]
    rcaps = b[p + 1:p + 1 + b[p]]
    # the national character set is in the FDO (after its two leading arrays)
    ix = 6 + fdo[5] + fdo[6]
    ncharset = struct.unpack_from(">H", fdo, ix + 3)[0]
    return {"protocol_version": version, "platform": platform, "charset": charset, "charset_flags": flags,
            "ncharset": ncharset, "compile_caps": ccaps.hex(), "runtime_caps": rcaps.hex()}


def parse_cookie_request(b):
    """The second session's first request by hand: PRO (01, versions to 00, client
    name to 00), then message 30 as ojdbc's T4CTTICookie.marshal writes it."""
    assert b[0] == 1
    p = b.index(0, 1) + 1
    p = b.index(0, p) + 1
    assert b[p] == MSG_COOKIE, b[p:p + 8].hex()
    p += 1
    version, proto = b[p], b[p + 1]
    charset, flags, ncharset = struct.unpack_from("<HBH", b, p + 2)
    p += 7
    plen = b[p]
    platform = b[p + 1:p + plen].decode()
    p += plen
    assert b[p] == 0
    p += 1
    ccaps = b[p + 1:p + 1 + b[p]]
    p += 1 + b[p]
    rcaps = b[p + 1:p + 1 + b[p]]
    p += 1 + b[p]
    return {"version": version, "protocol_version": proto, "platform": platform, "charset": charset,
            "charset_flags": flags, "ncharset": ncharset, "compile_caps": ccaps.hex(),
            "runtime_caps": rcaps.hex()}, b[p]


def first_pro_reply(tshark):
    """(manifest, capture, first and second connection, the first session's
    PRO reply parsed by hand from its bytes)."""
    m, cap = manifest()
    first, second = m["connections"]
    pro = next(r for r in first["requests"] if r["function"] == "PRO")
    reply = parse_pro_reply(ttc_of(tcp_bytes(tshark, cap, first["client_port"], pro["response"]["first_frame"],
                                             pro["response"]["last_frame"], False)))
    return m, cap, first, second, reply


def test_second_session_sends_the_first_sessions_pro_reply_as_a_cookie(tshark):
    m, cap, first, second, reply = first_pro_reply(tshark)
    # the first session negotiated normally: no cookie yet
    assert not any(r.get("cookie") for r in first["requests"])
    req = second["requests"][0]
    assert req["function"] == "OSESSKEY" and req["piggybacks"] == ["PRO", "COOKIE", "DTY"]
    raw = ttc_of(tcp_bytes(tshark, cap, second["client_port"], req["request_first_frame"],
                           req["response"]["first_frame"] - 1, True))
    cookie, after = parse_cookie_request(raw)
    assert after == 2                  # the DTY follows the cookie
    assert cookie == dict(reply, version=1)


def test_cookie_decoded(tshark):
    m, cap, first, second, reply = first_pro_reply(tshark)
    fields = ["sqlnet.ttc.msg", "sqlnet.cookie.version", "sqlnet.cookie.protocol_version",
              "sqlnet.cookie.charset", "sqlnet.cookie.charset_flags", "sqlnet.cookie.ncharset",
              "sqlnet.cookie.platform", "sqlnet.cookie.compile_caps", "sqlnet.cookie.runtime_caps",
              "sqlnet.cookie.field_version", "sqlnet.call", "tcp.srcport"]
    rows = tshark.fields(cap, fields, "sqlnet.ttc.msg == 30")
    assert len(rows) == 1
    row = dict(zip(fields, rows[0]))
    assert row["tcp.srcport"] == str(second["client_port"])
    # PRO, cookie, DTY, the OSESSKEY call: one request, whose call is OSESSKEY (118)
    assert row["sqlnet.ttc.msg"] == "1,30,2,3"
    assert row["sqlnet.call"] == "118"
    assert row["sqlnet.cookie.version"] == "1"
    assert row["sqlnet.cookie.protocol_version"] == str(reply["protocol_version"])
    assert row["sqlnet.cookie.charset"] == str(reply["charset"])
    assert int(row["sqlnet.cookie.charset_flags"], 0) == reply["charset_flags"]
    assert row["sqlnet.cookie.ncharset"] == str(reply["ncharset"])
    assert row["sqlnet.cookie.platform"] == reply["platform"]
    assert row["sqlnet.cookie.compile_caps"].replace(":", "") == reply["compile_caps"]
    assert row["sqlnet.cookie.runtime_caps"].replace(":", "") == reply["runtime_caps"]
    assert row["sqlnet.cookie.field_version"] == str(bytes.fromhex(reply["compile_caps"])[7])
    # the call after the DTY is read in the dialect the cookie and DTY settle (field
    # version 24: a token after the sequence number), on every pass: its sequence number
    # as the server parsed it, and the plan's user (scott, upper-cased by JDBC)
    req = second["requests"][0]
    rows = tshark.fields(cap, ["sqlnet.seq", "sqlnet.auth.user"], "sqlnet.ttc.msg == 30")
    assert rows == [[str(req["seq"]), "SCOTT"]]


def test_cookie_round_trip_answered_by_pro_dty_and_the_osesskey_reply(tshark):
    """The response to the cookie request: the PRO reply, the DTY reply, the
    OSESSKEY's return parameters and end of call, all in one round trip (the
    server's record: one response to that request)."""
    m, cap = manifest()
    second = m["connections"][1]
    req = second["requests"][0]
    resp = req["response"]
    rows = tshark.fields(cap, ["sqlnet.ttc.msg", "sqlnet.call"],
                         f"tcp.srcport == 1521 && tcp.dstport == {second['client_port']} && "
                         f"frame.number >= {resp['first_frame']} && frame.number <= {resp['last_frame']} && sqlnet")
    msgs = ",".join(r[0] for r in rows if r[0]).split(",")
    # end of response where the server negotiated it (ojdbc 23.26 does not ask for it)
    assert msgs == ["1", "2", "8", "4"] + (["29"] if second["end_of_response"] else [])
    assert rows[-1][1] == "118"


def test_cookie_capture_decodes_to_its_end(tshark):
    m, cap = manifest()
    bad = tshark.fields(cap, ["frame.number"],
                        "sqlnet.ttc.partial || sqlnet.ttc.not_decoded || sqlnet.undecoded || "
                        "sqlnet.bad_header || sqlnet.bad_length || sqlnet.short_packet")
    assert bad == []
    sessions = m["client"]["report"]["sessions"]
    assert len(sessions) == len(m["connections"]) == 2
    for sess, conn in zip(sessions, m["connections"]):
        port = conn["client_port"]
        rts = tshark.fields(cap, ["sqlnet.rt.number"], f"tcp.port == {port} && sqlnet.rt.number")
        assert len(rts) == conn["stats"]["round_trips"]
        # rows per statement: what the client read, statement by statement
        got = {}
        for sql, rows in tshark.fields(cap, ["sqlnet.rt.sql", "sqlnet.rt.rows"],
                                       f"tcp.port == {port} && sqlnet.rt.rows > 0"):
            got[sql] = got.get(sql, 0) + sum(int(v) for v in rows.split(","))
        want = {st["sql"]: st["rows"] for st in sess["statements"] if st.get("sql") and st["rows"]}
        assert got == want


# the cookie's first bytes in the capture: type 30, version 1, protocol version 6,
# charset 873 (69 03), flags 1, ncharset 2000 (d0 07), after the PRO request's 00
COOKIE_HEAD = bytes.fromhex("001e01066903" "01d007")


@pytest.mark.parametrize("offset,value,why", [
    (2, 0x02, "a cookie version ojdbc 23.26 does not write"),
    (9, 0xFF, "a platform length running into the DTY"),
    (9, 0x00, "a platform length without its terminator's count"),
])
def test_hostile_cookie_is_not_decoded_and_decoding_resumes(tshark, tmp_path, offset, value, why):
    """Our own belief (bytes of the real capture changed by hand): a cookie the
    layout does not fit is shown as not decoded, never read past its packet,
    and the next request (OAUTH) is decoded again."""
    m, cap = manifest()
    data = bytearray(cap.read_bytes())
    at = data.find(COOKIE_HEAD)
    assert at > 0 and data.count(COOKIE_HEAD) == 1
    data[at + offset] = value
    bad = tmp_path / f"cookie_hostile_{offset}_{value}.pcapng"
    bad.write_bytes(bytes(data))
    second = m["connections"][1]
    proc = tshark.run(bad, ["-Y", "sqlnet.ttc.not_decoded", "-T", "fields", "-e", "frame.number"])
    assert proc.stderr == ""
    first = second["requests"][0]
    frames = [int(f) for f in proc.stdout.split()]
    # shown as not decoded, and only within the round trip that carries it
    assert frames and all(first["request_first_frame"] <= f <= first["response"]["last_frame"] for f in frames)
    oauth = second["requests"][1]
    assert oauth["function"] == "OAUTH"
    rows = tshark.fields(bad, ["sqlnet.func"], f"tcp.srcport == {second['client_port']} && sqlnet.func == 115")
    assert rows == [["115"]]
