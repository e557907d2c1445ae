"""SQL*Net over TLS (TCPS, issue 15) on the generated TCPS captures.

With the secrets the captures embed (editcap --inject-secrets), sqlnet decodes
the plaintext Wireshark's TLS layer hands it: test_generated_captures.py and
test_stats.py check every TCPS capture against its manifest like any other.
This module adds what is particular to TLS:

* a TCPS capture gives the counts of the same statements over plain TCP: the
  evidence is the plain-TCP capture's manifest (arraysize_100 for python-oracledb,
  jdbc_fetchsize_small for JDBC thin: the scripted server's counters of another
  run);
* the heuristic on TLS application data alone (TLS ports preference emptied)
  decodes the same round trips (the TCPS capture's manifest);
* without the secrets (editcap --discard-all-secrets) the packets show as TLS
  and sqlnet decodes nothing (the TLS record fields come from Wireshark's
  TLS dissector, the frame count from the capture);
* with the preference sqlnet.tls_estimate and without the secrets, the
  estimate from TLS record sizes gives the scripted server's round trips and,
  per response, the TLS records and bytes it wrote (manifest response.tls,
  counted by the server) on the frame that ends the response (manifest
  last_frame, from tcp.seq/tcp.len).
"""
import re
import struct

import pytest

from tshark import TEST_CAPTURES
from test_generated_captures import MANIFESTS
from test_stats import run_z, parse_stmt, expected_by_statement, OTHER

TLS_MANIFESTS = [p for p in MANIFESTS if p.values[0].get("tls")]
TWINS = {"tls12_arraysize": "arraysize_100", "tls13_arraysize": "arraysize_100",
         "tls12_jdbc": "jdbc_fetchsize_small", "tls13_jdbc": "jdbc_fetchsize_small"}


def manifest_named(name):
    for p in MANIFESTS:
        if p.values[0]["scenario"] == name:
            return p.values[0]
    pytest.skip(f"{name} not in test-captures")


def test_tls_captures_present():
    """The catalogue's TCPS scenarios are committed with their secrets (manifest flag)."""
    names = {p.values[0]["scenario"] for p in TLS_MANIFESTS}
    assert {"tls12_arraysize", "tls13_arraysize", "tls12_demo", "tls13_demo", "tls12_jdbc", "tls13_jdbc"} <= names
    for p in TLS_MANIFESTS:
        m = p.values[0]
        assert m["tls"]["secrets_embedded"] is True
        assert m["tls"]["negotiated"] == ["TLSv" + m["tls"]["version"]]


def secrets_block_present(path):
    """A pcapng Decryption Secrets Block (block type 0x0000000A) holding a TLS key
    log (secrets type 0x544c534b, "KSLT" little-endian): pcapng specification."""
    data = path.read_bytes()
    i = data.find(b"\x0a\x00\x00\x00")
    while i >= 0:
        if data[i + 8:i + 12] == b"KSLT":
            return True
        i = data.find(b"\x0a\x00\x00\x00", i + 1)
    return False


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_capture_embeds_key_log(manifest):
    """The key log (NSS format labels) is inside the committed pcapng."""
    assert secrets_block_present(TEST_CAPTURES / manifest["capture"])


@pytest.mark.parametrize("name", sorted(TWINS))
def test_same_counts_as_plain_tcp(tshark, name):
    """-z sqlnet,stmt on the TCPS capture equals the plain-TCP twin's manifest
    (round trips, rows, fetch calls per statement): TLS changes nothing sqlnet
    counts.  Bytes are not compared: each run draws its own row values (the
    TCPS capture's bytes are checked against its own manifest in test_stats)."""
    tls = manifest_named(name)
    twin = manifest_named(TWINS[name])
    got = parse_stmt(run_z(tshark, tls, "sqlnet,stmt"))
    want = expected_by_statement(twin)
    assert want
    for sql, e in want.items():
        if sql == OTHER:
            continue
        g = got.get(sql)
        assert g is not None, (sql, list(got))
        assert int(g["SQL*Net roundtrips to/from client"]) == e["round trips"], sql
        assert int(g["rows processed"]) == e["rows"], sql
        assert int(g["fetch calls"]) == e["fetch calls"], sql


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_heuristic_alone(tshark, manifest):
    """With the TLS ports preference empty, the heuristic on TLS application data
    (a TNS CONNECT) claims the session: the fetch sizes on the wire are the
    server's parse of every call (manifest rows_requested)."""
    rows = tshark.fields(TEST_CAPTURES / manifest["capture"], ["sqlnet.fetch.rows"],
                         display_filter="sqlnet.fetch.rows && sqlnet.direction == 0", extra=["-o", "sqlnet.tls.port:"])
    got = [int(r[0]) for r in rows]
    want = [req["rows_requested"] for c in manifest["connections"] for req in c["requests"]
            if req.get("rows_requested") is not None]
    assert got == want


def discard_secrets(data: bytes) -> bytes:
    """The pcapng without its Decryption Secrets Blocks (what `editcap
    --discard-all-secrets` does; Wireshark 4.0's editcap refuses to rewrite a
    file that has one).  Little-endian sections, as dumpcap writes them."""
    out, off = bytearray(), 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        assert blen >= 12 and off + blen <= len(data)
        if btype != 0x0A:
            out += data[off:off + blen]
        off += blen
    assert off == len(data)
    return bytes(out)


@pytest.fixture(scope="module")
def stripped(tmp_path_factory):
    """The TCPS captures with their secrets discarded."""
    out = {}
    d = tmp_path_factory.mktemp("nosecrets")
    for p in TLS_MANIFESTS:
        m = p.values[0]
        dst = d / m["capture"]
        dst.write_bytes(discard_secrets((TEST_CAPTURES / m["capture"]).read_bytes()))
        out[m["scenario"]] = dst
    return out


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_without_secrets_shows_tls(tshark, manifest, stripped):
    """Without the key log every payload-carrying frame is TLS, application data
    stays encrypted and no TNS packet is decoded."""
    path = stripped[manifest["scenario"]]
    assert not secrets_block_present(path)
    rows = tshark.fields(path, ["frame.number", "tls.record.content_type", "tls.record.opaque_type",
                                "tcp.reassembled_in", "sqlnet.type"], display_filter="tcp.len > 0",
                         extra=["-2"])
    assert rows
    # TLS 1.3 shows a protected record's type as its opaque type (always 23)
    types = [set((r[1] + "," + r[2]).strip(",").split(",")) - {""} for r in rows]
    # every segment starts or ends TLS records, or is part of one TCP reassembles for TLS
    assert [r[0] for r, t in zip(rows, types) if not t and not r[3]] == []
    assert not any(r[4] for r in rows)
    assert sum(1 for t in types if "23" in t) > 10


# ---- without the secrets: the estimate from TLS record sizes ---------------------

EST_ON = ["-o", "sqlnet.tls_estimate:TRUE"]
EST_OFF = ["-o", "sqlnet.tls_estimate:FALSE"]
EST_FIELDS = ["frame.number", "sqlnet.tls_estimate.round_trip", "sqlnet.tls_estimate.records",
              "sqlnet.tls_estimate.bytes", "sqlnet.tls_estimate.tns_bytes",
              "sqlnet.tls_estimate.request_bytes"]


def ano_exchanges(conn):
    """1 when the client negotiated ANO (the server's ANO reply is in
    other_sent_tns_bytes): without the secrets that exchange looks like a round
    trip, while the manifest does not count it."""
    return 1 if conn["stats"].get("other_sent_tns_bytes") else 0


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_estimate_per_round_trip(tshark, manifest, stripped):
    """Without the secrets, one estimated round trip per request the scripted
    server answered (manifest round_trips, exactly; plus the ANO exchange of a
    client that negotiates it), on the frame that ends its response (manifest
    last_frame, from tcp.seq/tcp.len), with the TLS records and bytes the server
    wrote for it (manifest response.tls, counted by the server; an error
    response's break/reset markers included) and TNS bytes within 5% of the
    response's TNS packets."""
    rows = tshark.fields(stripped[manifest["scenario"]], EST_FIELDS,
                         display_filter="sqlnet.tls_estimate", extra=["-2"] + EST_ON)
    conn = manifest["connections"][0]
    assert len(manifest["connections"]) == 1
    ano = ano_exchanges(conn)
    assert len(rows) == conn["stats"]["round_trips"] + ano == len(conn["requests"]) + ano
    for n, (row, req) in enumerate(zip(rows[ano:], conn["requests"]), 1 + ano):
        resp = req["response"]
        frame, rt, records, nbytes, tns, _ = (int(v) for v in row)
        assert (rt, frame) == (n, resp["last_frame"]), req["function"]
        assert (records, nbytes) == (resp["tls"]["records"], resp["tls"]["bytes"]), req["function"]
        assert abs(tns - resp["tns_bytes"]) <= 0.05 * resp["tns_bytes"], req["function"]


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_estimate_block_in_stmt(tshark, manifest, stripped):
    """-z sqlnet,stmt without the secrets: no statement is decoded and the
    separate estimate block counts the server's round trips and bytes."""
    proc = tshark.run(stripped[manifest["scenario"]], EST_ON + ["-q", "-z", "sqlnet,stmt"])
    assert parse_stmt(proc.stdout.split("Encrypted conversations")[0]) == {}
    block = proc.stdout.split("Encrypted conversations (estimated from TLS record sizes, not decoded)")[1]
    got = dict((m[0].strip(), m[1]) for m in
               (line.strip().rsplit(None, 1) for line in block.splitlines() if line.startswith("  ")))
    conn = manifest["connections"][0]
    assert int(got["round trips (estimated)"]) == conn["stats"]["round_trips"] + ano_exchanges(conn)
    ano_bytes = 0
    if ano_exchanges(conn):
        # the ANO reply: one record, its TNS packet (other_sent_tns_bytes) plus the 5-byte
        # header and the AEAD overhead (RFC 8446: 16-byte tag + inner type; RFC 5288: 8-byte
        # explicit nonce + 16-byte tag for TLS 1.2 AES-GCM)
        cipher = manifest["tls"]["ciphers"][0]
        assert manifest["tls"]["version"] == "1.3" or "GCM" in cipher, cipher
        ano_bytes = conn["stats"]["other_sent_tns_bytes"] + 5 + (17 if manifest["tls"]["version"] == "1.3" else 24)
    assert int(got["TLS record bytes to client"]) == ano_bytes + sum(r["response"]["tls"]["bytes"]
                                                                     for r in conn["requests"])
    assert int(got["TLS conversations on a TLS port"]) == len(manifest["connections"])


TREE_TLS = "Encrypted (TLS), estimated from TLS record sizes (not decoded)"


def tree_count(out, name):
    m = re.search(r"^\s*" + re.escape(name) + r"\s{2,}(\d+)", out, re.M)
    return int(m.group(1)) if m else None


@pytest.mark.parametrize("passes", [["-2"], []], ids=["two-pass", "one-pass"])
@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_estimate_part_of_tree(tshark, manifest, stripped, passes):
    """-z sqlnet,tree without the secrets: the TLS estimate is its own part of
    the tree, whose round trips are the server's (manifest round_trips, plus
    the ANO exchange of a client that negotiates it), whose records-per-response
    buckets hold the responses by the TLS records the server wrote for them
    (manifest response.tls.records) and whose time buckets hold every round
    trip; the decoded part counts nothing (never mixed)."""
    out = tshark.run(stripped[manifest["scenario"]], passes + EST_ON + ["-q", "-z", "sqlnet,tree"]).stdout
    conn = manifest["connections"][0]
    ano = ano_exchanges(conn)
    n = conn["stats"]["round_trips"] + ano
    assert tree_count(out, TREE_TLS) == n
    assert tree_count(out, "Round trips by call") == 0
    records = [r["response"]["tls"]["records"] for r in conn["requests"]]
    section = out.split("TLS records per response (estimated)")[1]
    assert tree_count(section, "TLS records per response (estimated)") is None
    for label, lo, hi in [("1-1", 1, 1), ("2-2", 2, 2), ("3-4", 3, 4), ("5-9", 5, 9)]:
        want = sum(1 for r in records if lo <= r <= hi)
        got = tree_count(section, label)
        # the ANO exchange (one record each way) is one more 1-record response
        assert got - (ano if label == "1-1" else 0) == want, label
    time = out.split("TLS response time (microseconds, estimated)")[1]
    assert tree_count("TLS response time (microseconds, estimated)" + time,
                      "TLS response time (microseconds, estimated)") == n


def test_tree_without_estimate_is_unchanged(tshark):
    """A capture without encrypted traffic: the tree has no estimate part."""
    m = manifest_named("arraysize_100")
    out = tshark.run(TEST_CAPTURES / m["capture"], EST_ON + ["-q", "-z", "sqlnet,tree"]).stdout
    assert "estimated" not in out
    assert tree_count(out, "Round trips by call") == m["connections"][0]["stats"]["round_trips"]


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_no_estimate_with_secrets(tshark, manifest):
    """With the secrets sqlnet decodes, and no estimate is made (never mixed)."""
    rows = tshark.fields(TEST_CAPTURES / manifest["capture"], ["frame.number"],
                         display_filter="sqlnet.tls_estimate", extra=["-2"] + EST_ON)
    assert rows == []
    proc = tshark.run(TEST_CAPTURES / manifest["capture"], EST_ON + ["-q", "-z", "sqlnet,stmt"])
    assert "Encrypted conversations" not in proc.stdout


@pytest.mark.parametrize("manifest", TLS_MANIFESTS[:1])
def test_estimate_on_by_default_and_off_with_its_preference(tshark, manifest, stripped):
    """The estimate is on by default (it reads the record headers the watch
    reads anyway and builds no protocol tree: issue 22 asked for it on once
    cheap); the preference turns it off: no estimate field and no block."""
    path = stripped[manifest["scenario"]]
    assert tshark.fields(path, ["frame.number"], display_filter="sqlnet.tls_estimate", extra=["-2"]) != []
    assert "Encrypted conversations" in tshark.run(path, ["-q", "-z", "sqlnet,stmt"]).stdout
    assert tshark.fields(path, ["frame.number"], display_filter="sqlnet.tls_estimate",
                         extra=["-2"] + EST_OFF) == []
    assert "Encrypted conversations" not in tshark.run(path, EST_OFF + ["-q", "-z", "sqlnet,stmt"]).stdout


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_tns_packet_cut_into_segments(tshark, manifest):
    """The expert note "TNS packet cut into segments" (sqlnet.multi_segment) is on
    the responses one of whose TLS records TCP reassembled from several
    segments (tcp.reassembled_in, Wireshark's TCP layer, on a server segment of
    the response's frames from the manifest); the server writes each TNS packet
    as one TLS record, so that is when a TNS packet spans segments."""
    path = TEST_CAPTURES / manifest["capture"]
    port = manifest["server"]["port"]
    segs = tshark.fields(path, ["frame.number", "tcp.srcport", "tcp.reassembled_in"],
                         display_filter="tcp.len > 0", extra=["-2"])
    reassembled = {int(f) for f, sp, into in segs if int(sp) == port and into and int(into) != int(f)}
    want = sorted(resp["last_frame"] for c in manifest["connections"] for r in c["requests"]
                  for resp in [r["response"]]
                  if any(resp["first_frame"] <= f <= resp["last_frame"] for f in reassembled))
    assert want
    got = sorted(int(r[0]) for r in tshark.fields(path, ["frame.number"], display_filter="sqlnet.multi_segment"))
    assert got == want


def moved_to_port(data: bytes, old: int, new: int) -> bytes:
    """The pcapng with every TCP port `old` rewritten to `new` (Enhanced Packet
    Blocks of Ethernet/IPv4/TCP; the Decryption Secrets Block is kept)."""
    out, off = bytearray(data), 0
    while off + 12 <= len(out):
        btype, blen = struct.unpack_from("<II", out, off)
        if btype == 6:
            pkt = off + 28
            if struct.unpack_from(">H", out, pkt + 12)[0] == 0x0800 and out[pkt + 23] == 6:
                tcp = pkt + 14 + (out[pkt + 14] & 0x0F) * 4
                for p in (tcp, tcp + 2):
                    if struct.unpack_from(">H", out, p)[0] == old:
                        struct.pack_into(">H", out, p, new)
        off += blen
    return bytes(out)


def test_autonomous_database_port(tshark, tmp_path):
    """TCPS on 1522 (Oracle Autonomous Database's port, also one of sqlnet's TCP
    ports): the TCP dissector gives the conversation back to TLS (its first
    payload is a ClientHello), TLS decrypts and hands the records to sqlnet.
    Evidence: the round trips the scripted server answered (the manifest of
    tls13_demo, captured on 2484 and moved to 1522 here)."""
    m = manifest_named("tls13_demo")
    cap = tmp_path / "tls1522.pcapng"
    cap.write_bytes(moved_to_port((TEST_CAPTURES / m["capture"]).read_bytes(), m["server"]["port"], 1522))
    cap.chmod(0o644)
    got = tshark.fields(cap, ["frame.number"], "sqlnet.time")
    assert len(got) == sum(len(c["requests"]) for c in m["connections"])
    assert tshark.fields(cap, ["frame.number"], "tls && sqlnet.bad_header") == []


# ---- without the secrets: every report says what it cannot read ----------------

UNDECRYPTED = "TNS-over-TLS conversation not decrypted"


def client_app_data_frames(tshark, path, port):
    """Frames of the client's TLS application-data records, one per record, in
    order (Wireshark's TLS fields: content type 23, or TLS 1.3's opaque type 23)."""
    rows = tshark.fields(path, ["frame.number", "tls.record.content_type", "tls.record.opaque_type"],
                         display_filter=f"tls && tcp.dstport == {port}", extra=["-2"])
    frames = []
    for frame, ctype, otype in rows:
        for t in (ctype + "," + otype).split(","):
            if t == "23":
                frames.append(int(frame))
    return frames


@pytest.mark.parametrize("passes", [["-2"], []], ids=["two-pass", "one-pass"])
@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_undecrypted_field(tshark, manifest, stripped, passes):
    """Without the secrets, whether or not the estimate is on: one
    sqlnet.tls.undecrypted (the server port of the manifest) with its expert
    note, on the frame of the client's record that carries the TNS CONNECT: its
    first application-data record, in TLS 1.3 its second (after the encrypted
    Finished), by Wireshark's TLS record fields; the same frame carries the
    CONNECT sqlnet decodes with the secrets."""
    path = stripped[manifest["scenario"]]
    port = manifest["server"]["port"]
    app = client_app_data_frames(tshark, path, port)
    want = app[1] if manifest["tls"]["version"] == "1.3" else app[0]
    connect = tshark.fields(TEST_CAPTURES / manifest["capture"], ["frame.number"], "sqlnet.type == 1")
    assert [int(r[0]) for r in connect] == [want]
    for est in ([], EST_ON):
        rows = tshark.fields(path, ["frame.number", "sqlnet.tls.undecrypted", "_ws.expert.message"],
                             display_filter="sqlnet.tls.undecrypted", extra=passes + est)
        assert [(int(r[0]), int(r[1])) for r in rows] == [(want, port)]
        assert "tls.keylog_file" in rows[0][2] and "not decrypted" in rows[0][2]


@pytest.mark.parametrize("manifest", TLS_MANIFESTS)
def test_undecrypted_said_by_reports(tshark, manifest, stripped):
    """-z sqlnet,stmt and -z sqlnet,tree name the conversation they cannot read
    and its port (the manifest's), with the estimate off (how to read it) and on
    (estimated below); with the secrets neither says it."""
    path = stripped[manifest["scenario"]]
    port = manifest["server"]["port"]
    off = tshark.run(path, EST_OFF + ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"]).stdout
    assert f"1 {UNDECRYPTED} (port {port}): give Wireshark the TLS key log (tls.keylog_file)" in off
    assert "-o sqlnet.tls_estimate:TRUE" in off
    assert tree_count(off, f"port {port}") == 1
    on = tshark.run(path, EST_ON + ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"]).stdout
    assert f"1 {UNDECRYPTED} (port {port}), estimated below" in on
    assert "TNS-over-TLS conversations not decrypted, estimated below" in on
    clear = tshark.run(TEST_CAPTURES / manifest["capture"], EST_ON + ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"])
    assert "not decrypted" not in clear.stdout
    assert tshark.fields(TEST_CAPTURES / manifest["capture"], ["frame.number"], "sqlnet.tls.undecrypted",
                         extra=["-2"]) == []


def test_undecrypted_json(tshark, stripped):
    """The JSON record of the stmt report lists the conversation under "encrypted"."""
    import json
    m = manifest_named("tls13_demo")
    doc = json.loads(tshark.run(stripped["tls13_demo"], EST_OFF + ["-q", "-z", "sqlnet,stmt,format=json"]).stdout)
    assert doc["statements"] == []
    assert [(e["kind"], e["conversations"], e["ports"]) for e in doc["encrypted"]] == \
        [("tls_undecrypted", 1, [m["server"]["port"]])]


def test_undecrypted_on_a_sqlnet_tcp_port(tshark, stripped, tmp_path):
    """TCPS without the secrets on 1521 (a sqlnet TCP port, not a TLS port): TCP
    gives the conversation to TLS (its first payload is a ClientHello) through
    the watch, which says it once, with port 1521, on the CONNECT's frame (the
    same capture on its own port, above)."""
    m = manifest_named("tls12_demo")
    cap = tmp_path / "tls1521.pcapng"
    cap.write_bytes(moved_to_port(stripped["tls12_demo"].read_bytes(), m["server"]["port"], 1521))
    cap.chmod(0o644)
    want = client_app_data_frames(tshark, stripped["tls12_demo"], m["server"]["port"])[0]
    rows = tshark.fields(cap, ["frame.number", "sqlnet.tls.undecrypted"], "sqlnet.tls.undecrypted", extra=["-2"])
    assert [(int(a), int(b)) for a, b in rows] == [(want, 1521)]
    assert tshark.fields(cap, ["frame.number"], "tls && sqlnet.bad_header") == []
