"""The capability arrays of the negotiation as named fields (issue 35, point 6).

Evidence, none of it the dissector's own fields:
- the field version: the generator's manifest (connections[].client_field_version
  for the client's DTY, server.field_version for the scripted server's PRO
  reply) on one generated capture per client family and server field version,
  and EXPECTED.json's dialect (fv_client, fv_server) on the public captures;
- every byte: a hand decode of the TCP payload (tshark's core tcp.payload /
  tcp.reassembled.data), walked here through the TNS packets and the PRO
  reply / DTY request layouts (python-oracledb messages/protocol.pyx and
  data_types.pyx);
- the names: python-oracledb's indices (src/oracledb/impl/thin/constants.pxi,
  TNS_CCAP_* and TNS_RCAP_*), written out below from that file.
"""
import json
import struct

import pytest

from tshark import PUBLIC, TEST_CAPTURES

# python-oracledb constants.pxi: compile-time capability indices
CCAP = {0: "sql_version", 4: "logon_types", 5: "feature_backport", 7: "field_version",
        8: "server_define_conv", 9: "dequeue_with_selector", 15: "ttc1", 16: "oci1", 17: "tds_version",
        18: "rpc_version", 19: "rpc_sig", 21: "dbf_version", 23: "lob", 26: "ttc2", 27: "ub2_dty",
        31: "oci2", 34: "client_fn", 35: "oci3", 37: "ttc3", 39: "sess_signature_version", 40: "ttc4",
        42: "lob2", 44: "ttc5", 45: "feature_backport2", 52: "vector_features", 54: "ttc6"}
# runtime capability indices
RCAP = {0: "compat", 6: "ttc"}
# flag bits python-oracledb defines, under the index it sets them in (capabilities.pyx)
BITS = {"logon_types.o5logon": (4, 0x08), "logon_types.o9logon_long_password": (4, 0x80),
        "ttc1.end_of_call_status": (15, 0x01), "ttc1.fast_bvec": (15, 0x20),
        "ttc3.big_chunk_clr": (37, 0x20), "ttc3.implicit_results": (37, 0x10),
        "ttc4.end_of_response": (40, 0x20), "ttc4.explicit_boundary": (40, 0x40),
        "lob.lob_prefetch_data": (23, 0x04), "ttc5.pipelining_support": (44, 0x04)}
RBITS = {"ttc.ttc_32k": (6, 0x04), "ttc.ttc_zero_copy": (6, 0x01)}

FIELDS = (["frame.number", "tcp.stream", "tcp.srcport", "tcp.payload",
           "sqlnet.ccap.other", "sqlnet.rcap.other"]
          + [f"sqlnet.ccap.{n}" for n in CCAP.values()] + [f"sqlnet.rcap.{n}" for n in RCAP.values()]
          + [f"sqlnet.ccap.{n}" for n in BITS] + [f"sqlnet.rcap.{n}" for n in RBITS])


def generated():
    """One generated capture per (driver, server field version), no JDBC cookie
    (its second session's server caps travel in the cookie: tests/test_jdbc_cookie.py)."""
    seen, out = set(), []
    for path in sorted(TEST_CAPTURES.glob("*.json")):
        try:
            m = json.loads(path.read_text())
        except ValueError:
            continue
        if not isinstance(m, dict) or "cookie" in path.stem or not m.get("connections"):
            continue
        conn = m["connections"][0]
        key = (m.get("client", {}).get("driver"), m.get("server", {}).get("field_version"))
        if None in key or "client_field_version" not in conn or key in seen:
            continue
        if not (TEST_CAPTURES / m["capture"]).is_file():
            continue
        seen.add(key)
        out.append((m["capture"], conn["client_field_version"], m["server"]["field_version"],
                    m["server"]["port"]))
    return out


def public():
    """One public capture per (client family, field versions) EXPECTED.json knows."""
    path = PUBLIC / "EXPECTED.json"
    if not path.is_file():
        return []
    seen, out = set(), []
    for cap, e in json.loads(path.read_text()).items():
        for conv in e.get("conversations", []):
            d = conv.get("dialect") or {}
            key = (conv.get("client_family"), d.get("fv_client"), d.get("fv_server"))
            if d.get("fv_client") is None or key in seen:
                continue
            seen.add(key)
            out.append((cap, d["fv_client"], d.get("fv_server"), int(conv["server"].rsplit(":", 1)[1])))
    return out


def tns_data(b):
    """The TTC bytes of the DATA packets in b (a segment starting at a TNS
    header): 4-byte lengths when the first two bytes are zero (TNS >= 315
    after the ACCEPT), else 2-byte lengths."""
    out, pos = b"", 0
    while pos + 10 <= len(b):
        wide = b[pos:pos + 2] == b"\0\0"
        length = struct.unpack_from(">I" if wide else ">H", b, pos)[0]
        if length < 8:
            break
        if b[pos + 4] == 6:
            out += b[pos + 10:pos + length]
        pos += length
    return out


def caps_of_pro_reply(t):
    """01, version, 00, banner NUL, charset le16, flags, n le16, n x 5 bytes,
    FDO (be16 length), compile caps (u8 length), runtime caps (u8 length)."""
    assert t[0] == 1, t[:8].hex()
    p = t.index(0, 3) + 1
    nelem = struct.unpack_from("<H", t, p + 3)[0]
    p += 5 + 5 * nelem
    p += 2 + struct.unpack_from(">H", t, p)[0]
    cc = t[p + 1:p + 1 + t[p]]
    p += 1 + t[p]
    return cc, t[p + 1:p + 1 + t[p]]


def caps_of_dty(t):
    """[a PRO request: 01, versions up to 00, platform up to 00] then 02,
    charset, ncharset (2 bytes each), flags, compile caps, runtime caps.
    In a fast authentication (message 34: version, two flags, the PRO request,
    server charset, flag and ncharset, a field version; python-oracledb
    messages/fast_auth.pyx) the DTY follows those."""
    fast = t[0] == 34
    if fast:
        t = t[4:]
    if t[0] == 1:
        t = t[t.index(0, t.index(0, 1) + 1) + 1:]
    if fast:
        t = t[6:]
    assert t[0] == 2, t[:8].hex()
    p = 6
    cc = t[p + 1:p + 1 + t[p]]
    p += 1 + t[p]
    return cc, t[p + 1:p + 1 + t[p]]


@pytest.fixture(scope="module", params=generated() + public(), ids=lambda p: p[0])
def shown(request, tshark):
    cap, fv_client, fv_server, port = request.param
    path = (TEST_CAPTURES / cap) if (TEST_CAPTURES / cap).is_file() else PUBLIC / cap
    if not path.is_file():
        pytest.skip(f"{cap} not available")
    frames = [dict(zip(FIELDS, r)) for r in tshark.fields(path, FIELDS, "tcp.len > 0")]
    rows = []
    for i, row in enumerate(frames):
        if row["sqlnet.ccap.field_version"]:
            rows.append(dict(row, sent=sent_until(frames, i)))
    return rows, fv_client, fv_server, port


def sent_until(frames, i):
    """What the sender of frames[i] sent on its connection since the peer last
    spoke, up to and including frames[i] (a message cut into several TNS
    packets or segments is whole in it)."""
    me, stream = frames[i]["tcp.srcport"], frames[i]["tcp.stream"]
    parts = []
    for row in reversed(frames[:i + 1]):
        if row["tcp.stream"] != stream:
            continue
        if row["tcp.srcport"] != me:
            break
        parts.append(bytes.fromhex(row["tcp.payload"].replace(":", "")))
    return b"".join(reversed(parts))


def hand(row, port):
    ttc = tns_data(row["sent"])
    from_server = row["tcp.srcport"] == str(port)
    return from_server, (caps_of_pro_reply(ttc) if from_server else caps_of_dty(ttc))


def test_field_version_is_the_one_negotiated(shown):
    """The client's DTY and the server's PRO reply show the field version the
    manifest / EXPECTED.json records for each side."""
    rows, fv_client, fv_server, port = shown
    by_side = {}
    for row in rows:
        by_side.setdefault(row["tcp.srcport"] == str(port), []).append(int(row["sqlnet.ccap.field_version"]))
    assert by_side.get(False) and set(by_side[False]) == {fv_client}, by_side
    if fv_server is not None:
        assert by_side.get(True) and set(by_side[True]) == {fv_server}, by_side


def test_every_byte_is_the_byte_on_the_wire(shown):
    """Each named byte equals the byte at its python-oracledb index in the hand
    decode, every other byte is in ccap[N]/rcap[N] in order, and the flag bits
    are the bits of their byte."""
    rows, _, _, port = shown
    for row in rows:
        _, (cc, rc) = hand(row, port)
        for caps, names, other, prefix in ((cc, CCAP, "sqlnet.ccap.other", "sqlnet.ccap."),
                                           (rc, RCAP, "sqlnet.rcap.other", "sqlnet.rcap.")):
            for i, name in names.items():
                got = row[prefix + name]
                if i < len(caps):
                    assert int(got, 0) == caps[i], (row["frame.number"], name, got, caps[i])
                else:
                    assert got == "", (name, got)
            rest = [caps[i] for i in range(len(caps)) if i not in names]
            assert [int(v, 0) for v in row[other].split(",") if v] == rest, row["frame.number"]
        for bits, caps, prefix in ((BITS, cc, "sqlnet.ccap."), (RBITS, rc, "sqlnet.rcap.")):
            for name, (i, mask) in bits.items():
                if i < len(caps):
                    assert row[prefix + name] == ("1" if caps[i] & mask else "0"), (name, row["frame.number"])
