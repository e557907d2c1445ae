"""Native network encryption (ANO): round trips estimated from TNS packet sizes
(issue 15, item 3; plugin/transport/nne.c).

Evidence, part 1: a small capture this module builds by hand (tests/pcapgen.py:
CONNECT/ACCEPT, an ANO request and the server's reply choosing AES256 with
SHA1 integrity, laid out as plugin/transport/ano.c decodes it, then DATA packets with
random payloads).  Every expectation comes from how the test built it: which
packets it sent, their TNS lengths, their frames and timestamps.  The one
belief the test adds is the layout of an encrypted payload, taken from go-ora
(network/data_packet.go, network/security/general.go: plaintext + SHA1 hash
(20 bytes), zero-padded to the 16-byte AES block, then the pad count + 1 and
the "folding key" byte, both outside the cipher text): the TTC bytes are
checked against the plaintext lengths the test encoded, exactly (the pad count
byte tells the padding).

Evidence, part 2: generated captures whose manifest has an "nne" key (go-ora
and JDBC with encryption on against the scripted server; testgen on branch
h2-nne, manifest keys as that generator writes them: m["nne"]["negotiated"],
per request r["response"]["nne"] with data_packets and plain_lengths, and the
response's tns_packets / tns_bytes, the server's own counters).  Round trips
must match exactly, bytes within 5%.
"""
import math
import random
import re

import pytest

import pcapgen as g
from test_generated_captures import manifests
from tshark import TEST_CAPTURES

DESC = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=ORCL)))"
VERSION = b"\x0b\x20\x02\x00"
AES256, SHA1 = 17, 3
SHA1_LEN, AES_BLOCK = 20, 16
DF_EOF, DF_END_OF_RESPONSE = 0x0040, 0x2000
MARKER_BREAK, MARKER_RESET = 1, 2

FIELDS = ["frame.number", "sqlnet.nne_estimate.round_trip", "sqlnet.nne_estimate.request_packets",
          "sqlnet.nne_estimate.request_bytes", "sqlnet.nne_estimate.packets",
          "sqlnet.nne_estimate.bytes", "sqlnet.nne_estimate.ttc_bytes", "sqlnet.nne_estimate.time"]


def encrypted_payload(rng, plain_len):
    """DATA payload of `plain_len` TTC bytes as go-ora encrypts it with AES and
    SHA1 integrity: ceil16(plain + 20) cipher bytes, pad count + 1, folding key."""
    padded = math.ceil((plain_len + SHA1_LEN) / AES_BLOCK) * AES_BLOCK
    pad = padded - plain_len - SHA1_LEN
    return bytes(rng.getrandbits(8) for _ in range(padded)) + bytes([pad + 1, 0])


class Built:
    """The hand-built capture and what the test put into it."""

    def __init__(self):
        self.conv = g.Conversation()
        self.rng = random.Random(15)
        self.round_trips = []            # per round trip: dict of expectations

    def frame_no(self):
        return len(self.conv.frames)     # the frame the last send() wrote (one segment each)

    def send(self, side, pkt):
        self.conv.send(side, pkt)
        return self.frame_no(), self.conv.frames[-1][0], len(pkt)

    def data(self, side, plain_len, flags=0):
        return self.send(side, g.data(encrypted_payload(self.rng, plain_len), flags))

    def round_trip(self, requests, responses, think=0.004):
        """requests: plaintext lengths of client DATA packets; responses: list of
        ("data", plaintext length[, flags]) / ("marker", kind) / ("client-marker", kind)."""
        rt = {"req_packets": 0, "req_bytes": 0, "packets": 0, "bytes": 0, "plain": 0, "data_packets": 0}
        for n in requests:
            _, t, length = self.data("C", n)
            rt["req_packets"] += 1
            rt["req_bytes"] += length
            rt["req_time"] = t
        self.conv.t += think
        for item in responses:
            if item[0] == "client-marker":
                self.send("C", g.marker(item[1]))
                continue
            if item[0] == "marker":
                frame, t, length = self.send("S", g.marker(item[1]))
            else:
                frame, t, length = self.data("S", item[1], item[2] if len(item) > 2 else 0)
                rt["plain"] += item[1]
                rt["data_packets"] += 1
            rt["packets"] += 1
            rt["bytes"] += length
            rt["last_frame"], rt["resp_time"] = frame, t
        self.round_trips.append(rt)
        self.conv.t += 0.010


def build(path, close_last=True):
    b = Built()
    c = b.conv
    c.send("C", g.connect(DESC, version=319, sdu=8192))
    c.send("S", g.accept(version=319, sdu=8192, tdu=65535))
    # ANO request (the client's algorithm lists) and the reply choosing AES256 + SHA1
    c.send("C", g.data(g.ano([(2, [(5, VERSION), (1, bytes([AES256, 16, 15])), (2, b"\x01")]),
                              (3, [(5, VERSION), (1, bytes([SHA1])), (2, b"\x01")])])))
    c.send("S", g.data(g.ano([(2, [(5, VERSION), (2, bytes([AES256]))]),
                              (3, [(5, VERSION), (2, bytes([SHA1]))])])))
    # the client's second ANO packet (go-ora and JDBC send their Diffie-Hellman
    # public key after the reply, in the clear): not part of a round trip
    c.send("C", g.data(g.ano([(3, [(5, VERSION), (1, bytes(range(64)))])])))
    # 1: one packet each way
    b.round_trip([120], [("data", 300)])
    # 2: a request in two packets, a response in three ("more data")
    b.round_trip([8000, 40], [("data", 8100), ("data", 8100), ("data", 2500)])
    # 3: an error: BREAK, the client's RESET, RESET, the error message
    b.round_trip([60], [("marker", MARKER_BREAK), ("client-marker", MARKER_RESET),
                        ("marker", MARKER_RESET), ("data", 150)])
    # 4: a response that says where it ends (end-of-response data flag)
    b.round_trip([70], [("data", 90, DF_END_OF_RESPONSE)])
    # 5: ended by the client's EOF (the session closes)
    b.round_trip([30], [("data", 40)])
    if close_last:
        c.send("C", g.data(b"", DF_EOF))
    c.write(path)
    return b


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("nne") / "nne_estimate.pcap"
    b = build(path)
    b.path = path
    return b


def estimates(tshark, path, two_pass=True):
    rows = tshark.fields(path, FIELDS, display_filter="sqlnet.nne_estimate",
                         extra=["-2"] if two_pass else [])
    return [[int(v) for v in r[:7]] + [float(r[7])] for r in rows]


def test_capture_is_encrypted(tshark, built):
    """The capture is what it claims: the reply's choice decodes as AES256 and
    SHA1, and every DATA packet after it is marked encrypted (nothing decoded)."""
    assert [r[0] for r in tshark.fields(built.path, ["sqlnet.ano.encryption"], "sqlnet.ano.encryption")] == ["17"]
    assert [r[0] for r in tshark.fields(built.path, ["sqlnet.ano.integrity"], "sqlnet.ano.integrity")] == ["3"]
    data_after = sum(rt["req_packets"] + rt["data_packets"] for rt in built.round_trips)
    assert len(tshark.fields(built.path, ["frame.number"], "sqlnet.data.encrypted")) == data_after
    assert tshark.fields(built.path, ["frame.number"], "sqlnet.time || sqlnet.call") == []


def test_round_trips_two_pass(tshark, built):
    """With a second pass, one estimate per round trip the test built, on the
    server packet that ends its response, with the packets and TNS bytes the
    test sent each way, the response time from the frames' timestamps and the
    TTC bytes the test encoded (exactly: the pad count byte is in the clear)."""
    got = estimates(tshark, built.path)
    assert len(got) == len(built.round_trips)
    for n, (row, rt) in enumerate(zip(got, built.round_trips), 1):
        frame, number, req_packets, req_bytes, packets, nbytes, ttc, time = row
        assert (frame, number) == (rt["last_frame"], n)
        assert (req_packets, req_bytes) == (rt["req_packets"], rt["req_bytes"]), n
        assert (packets, nbytes) == (rt["packets"], rt["bytes"]), n
        assert ttc == rt["plain"], (n, ttc, rt["plain"])
        assert time == pytest.approx(rt["resp_time"] - rt["req_time"], abs=2e-6), n


def test_end_of_response_flag_in_one_pass(tshark, built):
    """In a single pass only the response that carries the end-of-response data
    flag (round trip 4) is known on its own packet; the others need the next
    client packet, i.e. a second pass."""
    got = estimates(tshark, built.path, two_pass=False)
    assert [(r[0], r[1]) for r in got] == [(built.round_trips[3]["last_frame"], 4)]


def test_last_response_without_an_end_is_not_counted(tshark, tmp_path):
    """A capture that stops after a response without the end-of-response flag
    and without another client packet: that round trip is not counted (its end
    is unknown)."""
    b = build(tmp_path / "nne_open.pcap", close_last=False)
    got = estimates(tshark, tmp_path / "nne_open.pcap")
    assert [r[1] for r in got] == list(range(1, len(b.round_trips)))


def stmt_block(out):
    title = "Encrypted conversations (native network encryption, estimated from TNS packet sizes, not decoded)"
    assert title in out
    block = out.split(title)[1].split("\n\n")[0].split("=====")[0]
    return dict((m[0].strip(), m[1]) for m in
                (line.strip().rsplit(None, 1) for line in block.splitlines() if line.startswith("  ")))


@pytest.mark.parametrize("passes", [["-2"], []], ids=["two-pass", "one-pass"])
def test_stmt_block(tshark, built, passes):
    """-z sqlnet,stmt: no statement is decoded, and the separate NNE block
    counts the round trips and the bytes the test sent (one pass too: the
    records are queued when the next client packet closes them)."""
    out = tshark.run(built.path, passes + ["-q", "-z", "sqlnet,stmt"]).stdout
    assert "Statement " not in out
    got = stmt_block(out)
    rts = built.round_trips
    assert int(got["conversations with native network encryption"]) == 1
    assert int(got["round trips (estimated)"]) == len(rts)
    assert int(got["TNS packets to client"]) == sum(rt["packets"] for rt in rts)
    assert int(got["TNS bytes to client"]) == sum(rt["bytes"] for rt in rts)
    assert int(got["TNS packets from client"]) == sum(rt["req_packets"] for rt in rts)
    assert int(got["TNS bytes from client"]) == sum(rt["req_bytes"] for rt in rts)
    plain = sum(rt["plain"] for rt in rts)
    assert int(got["TTC bytes to client (estimated)"]) == plain
    want_ms = sum(rt["resp_time"] - rt["req_time"] for rt in rts) * 1000
    assert float(got["response time sum (ms)"]) == pytest.approx(want_ms, abs=0.01)
    assert "estimated from TLS record sizes" not in out


TREE_NNE = "Encrypted (native network encryption), estimated from TNS packet sizes (not decoded)"


def tree_count(out, name):
    m = re.search(r"^\s*" + re.escape(name) + r"\s{2,}(\d+)", out, re.M)
    return int(m.group(1)) if m else None


@pytest.mark.parametrize("passes", [["-2"], []], ids=["two-pass", "one-pass"])
def test_tree_part(tshark, built, passes):
    """-z sqlnet,tree: the NNE part counts the round trips the test built and
    its packets-per-response buckets hold the responses by the number of
    packets the test sent; the decoded part counts nothing."""
    out = tshark.run(built.path, passes + ["-q", "-z", "sqlnet,tree"]).stdout
    rts = built.round_trips
    assert tree_count(out, TREE_NNE) == len(rts)
    assert tree_count(out, "Round trips by call") == 0
    section = out.split("TNS packets per response (encrypted, estimated)")[1]
    for label, lo, hi in [("1-1", 1, 1), ("2-2", 2, 2), ("3-4", 3, 4)]:
        want = sum(1 for rt in rts if lo <= rt["packets"] <= hi)
        assert tree_count(section, label) == want, label


def test_tree_filter_and_two_trees(tshark, built):
    """The tree's filter applies to its estimate part (the client address the
    test used matches, another does not), and two trees in one run each count
    the round trips once (each has its own estimate listener)."""
    client = g.CLIENT[0]
    out = tshark.run(built.path, ["-q", "-z", f"sqlnet,tree,ip.addr=={client}"]).stdout
    assert tree_count(out, TREE_NNE) == len(built.round_trips)
    out = tshark.run(built.path, ["-q", "-z", "sqlnet,tree,ip.addr==192.0.2.99"]).stdout
    assert tree_count(out, TREE_NNE) is None
    out = tshark.run(built.path, ["-q", "-z", "sqlnet,tree", "-z", "sqlnet,tree,tcp.port==1521"]).stdout
    counts = [int(m) for m in re.findall(r"^" + re.escape(TREE_NNE) + r"\s{2,}(\d+)", out, re.M)]
    assert counts == [len(built.round_trips)] * 2


def test_preference_switches_it_off(tshark, built):
    """The estimate is a preference (on by default): off, no field, no block, no
    estimate part of the tree (the reports still name the session they cannot
    read: test_reports_say_what_they_cannot_read)."""
    off = ["-o", "sqlnet.nne_estimate:FALSE"]
    assert tshark.fields(built.path, ["frame.number"], "sqlnet.nne_estimate", extra=["-2"] + off) == []
    out = tshark.run(built.path, off + ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"]).stdout
    assert "estimated from TNS packet sizes" not in out and "estimated below" not in out
    assert "native network encryption not decoded" in out


def test_no_estimate_without_encryption(tshark, tmp_path):
    """An ANO reply that chooses no encryption: the payload is TTC, no estimate."""
    c = g.Conversation()
    c.send("C", g.connect(DESC, version=319, sdu=8192))
    c.send("S", g.accept(version=319, sdu=8192, tdu=65535))
    c.send("C", g.data(g.ano([(2, [(5, VERSION), (1, bytes([AES256])), (2, b"\x01")])])))
    c.send("S", g.data(g.ano([(2, [(5, VERSION), (2, bytes([0]))])])))
    c.send("C", g.data_of_length(40))
    c.send("S", g.data_of_length(60))
    c.send("C", g.data_of_length(40))
    path = c.write(tmp_path / "ano_none.pcap")
    assert tshark.fields(path, ["frame.number"], "sqlnet.nne_estimate", extra=["-2"]) == []


# ---- hostile input -------------------------------------------------------------

def hostile_captures(tmp_path):
    """Truncated ANO replies and DATA/MARKER packets too short for their
    headers, before and after encryption is on."""
    out = []
    for variant in range(5):
        c = g.Conversation()
        c.send("C", g.connect(DESC, version=319, sdu=8192))
        c.send("S", g.accept(version=319, sdu=8192, tdu=65535))
        reply = g.data(g.ano([(2, [(5, VERSION), (2, bytes([AES256]))]),
                              (3, [(5, VERSION), (2, bytes([SHA1]))])]))
        if variant == 0:        # the ANO reply cut inside its services (TNS length adjusted)
            cut = reply[:30]
            reply = g.header(len(cut), g.TYPE_DATA, wide=True) + cut[8:]
        c.send("C", g.data(g.ano([(2, [(5, VERSION), (1, bytes([AES256])), (2, b"\x01")])])))
        c.send("S", reply)
        c.send("C", g.data(bytes(40)))
        if variant == 1:        # a DATA packet without its data flags
            c.send("S", g.header(9, g.TYPE_DATA, wide=True) + b"\x00")
        elif variant == 2:      # a marker without its marker byte
            c.send("S", g.header(10, g.TYPE_MARKER, wide=True) + b"\x01\x00")
        elif variant == 3:      # a DATA packet whose length says more than the capture holds
            c.send("S", g.header(5000, g.TYPE_DATA, wide=True) + b"\x00\x00" + bytes(30))
        else:                   # DATA shorter than the encryption's overhead
            c.send("S", g.data(b"\x01"))
        c.send("C", g.data(bytes(40)))
        c.send("S", g.data(bytes(40)))
        c.send("C", g.data(b"", DF_EOF))
        out.append(c.write(tmp_path / f"hostile_{variant}.pcap"))
    return out


def test_hostile_input(tshark, tmp_path):
    """No crash and no dissector bug on truncated ANO or DATA, one and two passes."""
    for path in hostile_captures(tmp_path):
        for passes in (["-2"], []):
            proc = tshark.run(path, passes + ["-V", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"], check=False)
            assert proc.returncode == 0, (path.name, proc.stderr)
            assert "Dissector bug" not in proc.stdout and "Dissector bug" not in proc.stderr, path.name


# ---- generated captures with native network encryption ---------------------------

NNE_MANIFESTS = manifests(nne=True)


@pytest.mark.skipif(not NNE_MANIFESTS, reason="no generated capture with native network encryption")
@pytest.mark.parametrize("manifest", NNE_MANIFESTS or [None])
def test_generated_capture_against_server(tshark, manifest):
    """A real client (go-ora, JDBC) with native network encryption against the
    scripted server (testgen, branch h2-nne): one estimated round trip per
    request the server answered (manifest round_trips and requests, exactly),
    on the frame that ends its response (last_frame), with the client's DATA
    packets and bytes (request_tns_packets/bytes: the client's ANO key packet
    after the reply is not part of a round trip), the server's TNS packets and
    bytes for the response (tns_packets, tns_bytes: markers included; within
    5%, in fact exact), and TTC bytes equal to the plaintext the server sealed
    (response.nne.plain_lengths: the pad count byte in the clear names each
    packet's padding)."""
    rows = tshark.fields(TEST_CAPTURES / manifest["capture"], FIELDS,
                         display_filter="sqlnet.nne_estimate", extra=["-2"])
    reqs = [r for c in manifest["connections"] for r in c["requests"]]
    assert all(r["response"].get("nne") for r in reqs)
    assert len(rows) == len(reqs) == sum(c["stats"]["round_trips"] for c in manifest["connections"])
    for n, (row, req) in enumerate(zip(rows, reqs), 1):
        frame, number, req_packets, req_bytes, packets, nbytes, ttc = (int(v) for v in row[:7])
        resp, nne = req["response"], req["response"]["nne"]
        what = (n, req["function"])
        assert frame == resp["last_frame"], what
        assert (req_packets, req_bytes) == (req["request_tns_packets"], req["request_tns_bytes"]), what
        assert packets == resp["tns_packets"], what
        assert abs(nbytes - resp["tns_bytes"]) <= 0.05 * resp["tns_bytes"], what
        assert ttc == sum(nne["plain_lengths"]), what


@pytest.mark.skipif(not NNE_MANIFESTS, reason="no generated capture with native network encryption")
@pytest.mark.parametrize("manifest", NNE_MANIFESTS or [None])
def test_generated_capture_tree_and_stmt(tshark, manifest):
    """-z sqlnet,tree and -z sqlnet,stmt on a generated NNE capture: the
    estimated round trips are the server's (manifest round_trips), the TNS
    bytes to the client its response bytes, and nothing is decoded."""
    out = tshark.run(TEST_CAPTURES / manifest["capture"], ["-q", "-z", "sqlnet,tree", "-z", "sqlnet,stmt"]).stdout
    n = sum(c["stats"]["round_trips"] for c in manifest["connections"])
    assert tree_count(out, TREE_NNE) == n
    assert tree_count(out, "Round trips by call") == 0
    got = stmt_block(out)
    assert int(got["round trips (estimated)"]) == n
    assert int(got["TNS bytes to client"]) == sum(r["response"]["tns_bytes"] for c in manifest["connections"]
                                                  for r in c["requests"])


@pytest.mark.parametrize("passes", [["-2"], []], ids=["two-pass", "one-pass"])
@pytest.mark.parametrize("manifest", manifests(nne=True))
def test_reports_say_what_they_cannot_read(tshark, manifest, passes):
    """-z sqlnet,stmt (text and JSON) and -z sqlnet,tree name the sessions with
    native network encryption (the manifest's connections and server port)
    whether or not sqlnet.nne_estimate is on: how to estimate them when it is
    off, "estimated below" when it is on."""
    import json
    cap = TEST_CAPTURES / manifest["capture"]
    n, port = len(manifest["connections"]), manifest["server"]["port"]
    s = "" if n == 1 else "s"
    for on, tail in (("FALSE", f"): sqlnet cannot decrypt Oracle's native network encryption; turn on "
                               f"sqlnet.nne_estimate (-o sqlnet.nne_estimate:TRUE)"),
                     ("TRUE", "), estimated below")):
        pref = ["-o", f"sqlnet.nne_estimate:{on}"]
        out = tshark.run(cap, passes + pref + ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"]).stdout
        assert f"Not read: {n} conversation{s} with native network encryption not decoded (port {port}{tail}" in out
        assert tree_count(out, f"port {port}") == n
        doc = json.loads(tshark.run(cap, passes + pref + ["-q", "-z", "sqlnet,stmt,format=json"]).stdout)
        assert [(e["kind"], e["conversations"], e["ports"]) for e in doc["encrypted"]
                if e["kind"] == "nne_undecoded"] == [("nne_undecoded", n, [port] * n)]


def test_no_notice_without_encryption(tshark):
    """A session without native network encryption: no notice."""
    m = next(p.values[0] for p in manifests() if p.values[0]["scenario"] == "arraysize_50")
    out = tshark.run(TEST_CAPTURES / m["capture"], ["-q", "-z", "sqlnet,stmt", "-z", "sqlnet,tree"]).stdout
    assert "not decoded (port" not in out and "Not read" not in out
