"""Native network encryption (NNE, issue 15 item 3) on the generated captures
nne_goora (go-ora, AES256, no data integrity), nne_goora_sha256 (go-ora,
AES256 + SHA256) and nne_jdbc (JDBC thin, AES256, the newer key schedule and
the logon key folded in).

Evidence, none of it from the dissector:

* the real client accepted the session: go-ora v2.9.0 (ENCRYPTION=REQUIRED)
  and ojdbc11 23.26 (oracle.net.encryption_client=REQUIRED) decrypted the
  scripted server's AES-CBC payloads and decoded every row (their own
  reports in the manifest); with a wrong key they fail at the first reply,
  so their row counts are the proof that every packet after the ANO
  exchange really is encrypted;
* the scripted server's counters: the algorithms it chose, the ANO packets,
  and per response the DATA packets it wrote with their sealed payload
  lengths (manifest response.nne, counted as sent);
* the algorithm ids go-ora's source lists (advanced_nego/encrypt_service.go
  and data_integrity_service.go: AES256 = 17, SHA256 = 5, none = 0; the
  encryption algorithms it offers are always RC4_40, RC4_56, RC4_128,
  RC4_256, DES56C, AES128, AES192, AES256; JDBC offers what
  encryption_types_client lists, here AES256 alone);
* goora_basic, go-ora with the same statements without NNE, as the control
  that the TTC fields looked for exist when the payload is clear.
"""
import json

import pytest

from tshark import TEST_CAPTURES

NNE = ["nne_goora", "nne_goora_sha256", "nne_jdbc"]
ENCRYPTION_OFFER = {"go-ora": [1, 8, 10, 6, 2, 15, 16, 17], "jdbc-thin": [17]}
ALGORITHM_IDS = {"AES256": 17, None: 0, "SHA256": 5}
TTC_FILTER = ("sqlnet.func || sqlnet.rows || sqlnet.describe.columns || sqlnet.banner || "
              "sqlnet.auth.user || sqlnet.ora_error || sqlnet.call")
DATA = 6


def manifest(name):
    p = TEST_CAPTURES / f"{name}.json"
    if not p.exists() or not (TEST_CAPTURES / f"{name}.pcapng").exists():
        pytest.skip(f"{name} not generated")
    return json.loads(p.read_text())


def pdus(tshark, name):
    """Per sqlnet PDU in capture order: (frame, from_server, type, length, ano,
    encrypted payload length or None).  One row per frame from tshark; a frame
    with several PDUs is split by position (every PDU has a type and a length)."""
    m = manifest(name)
    port = str(m["server"]["port"])
    fields = ["frame.number", "tcp.srcport", "sqlnet.type", "sqlnet.length", "sqlnet.ano.length",
              "sqlnet.data.encrypted"]
    out = []
    for row in tshark.fields(TEST_CAPTURES / f"{name}.pcapng", fields, "sqlnet"):
        row += [""] * (len(fields) - len(row))
        types, lengths = row[2].split(","), row[3].split(",")
        assert len(types) == len(lengths)
        encrypted = [len(v) // 2 for v in row[5].split(",") if v]
        anos = [v for v in row[4].split(",") if v]
        for t, n in zip(types, lengths):
            n = int(n)
            enc = None
            if int(t) == DATA and encrypted and encrypted[0] == n - 10:
                enc = encrypted.pop(0)
            ano = bool(int(t) == DATA and enc is None and anos and int(anos[0]) == n - 10)
            if ano:
                anos.pop(0)
            out.append((int(row[0]), row[1] == port, int(t), n, ano, enc))
        assert not encrypted and not anos, row
    return out


@pytest.mark.parametrize("name", NNE)
def test_ano_reply_chooses_configured_algorithms(tshark, name):
    """The server's ANO reply names the configured algorithms (scenario config, go-ora's
    ids); the server parsed the real client's offer as go-ora's source lists it."""
    m = manifest(name)
    cfg = m["nne"]["server"]
    assert "REQUIRED" in (m["nne"]["client"].get("encryption"),
                          m["nne"]["client"].get("oracle.net.encryption_client"))
    cap = TEST_CAPTURES / f"{name}.pcapng"
    rows = tshark.fields(cap, ["frame.number", "sqlnet.ano.encryption", "sqlnet.ano.integrity"],
                         "sqlnet.ano.encryption")
    assert len(rows) == len(m["connections"]) == 1
    assert rows[0][1:] == [str(ALGORITHM_IDS[cfg["encryption"]]), str(ALGORITHM_IDS[cfg["integrity"]])]
    neg = m["connections"][0]["nne"]
    assert (neg["encryption_id"], neg["integrity_id"]) == (ALGORITHM_IDS[cfg["encryption"]],
                                                           ALGORITHM_IDS[cfg["integrity"]])
    assert neg["client_encryption_offered"] == ENCRYPTION_OFFER[m["client"]["driver"]]
    # the session summary carries the algorithm on the packets after the reply
    nne = {r[0] for r in tshark.fields(cap, ["sqlnet.nne"], "sqlnet.nne")}
    assert nne == {str(ALGORITHM_IDS[cfg["encryption"]])}


@pytest.mark.parametrize("name", NNE)
def test_ano_exchange_packets(tshark, name):
    """Three ANO packets: the client's request, the server's reply with the key exchange,
    the client's public key (lengths as the server counted them), then no more."""
    m = manifest(name)
    neg = m["connections"][0]["nne"]
    anos = [(srv, n) for _, srv, _, n, ano, _ in pdus(tshark, name) if ano]
    assert anos == [(False, neg["ano_request_bytes"]), (True, neg["ano_reply_bytes"]),
                    (False, neg["client_key_packet_bytes"])]


@pytest.mark.parametrize("name", NNE)
def test_every_data_packet_after_the_exchange_is_encrypted(tshark, name):
    """After the client's public key every DATA packet with a payload is flagged sqlnet.encrypted
    (sqlnet.data.encrypted): server to client, their payload lengths in order are the
    sealed lengths the server wrote (response.nne.sealed_lengths); client to server,
    their bytes add up to the requests' bytes plus the closing EOF packet (the
    server's counters: other_received_tns_bytes less the two client ANO packets and
    the client's reset markers)."""
    m = manifest(name)
    c = m["connections"][0]
    neg = c["nne"]
    seq = pdus(tshark, name)
    key = max(i for i, p in enumerate(seq) if p[4])
    after = seq[key + 1:]
    data = [p for p in after if p[2] == DATA]
    # every DATA packet with a payload (JDBC's closing EOF packet has none: 10 bytes)
    assert data and all(p[5] is not None for p in data if p[3] > 10)
    assert not any(p[5] is not None for p in seq[:key + 1])
    server = [p[5] for p in data if p[1]]
    assert server == [n for r in c["requests"] for n in r["response"]["nne"]["sealed_lengths"]]
    assert sum(p[3] for p in data if p[1]) == sum(r["response"]["nne"]["tns_bytes"] for r in c["requests"])
    client_markers = sum(r["response"].get("client_marker_bytes", 0) for r in c["requests"])
    eof = (c["stats"]["other_received_tns_bytes"] - neg["ano_request_bytes"]
           - neg["client_key_packet_bytes"] - client_markers)
    assert sum(p[3] for p in data if not p[1]) == sum(r["request_tns_bytes"] for r in c["requests"]) + eof
    # per response the packets are those the server counted (markers stay clear)
    assert len(server) == sum(r["response"]["nne"]["data_packets"] for r in c["requests"])


@pytest.mark.parametrize("name", NNE)
def test_no_ttc_decoded(tshark, name):
    """Nothing is decoded as TTC from an encrypted session, while the same client and
    statements in clear (goora_basic) show those fields."""
    assert tshark.fields(TEST_CAPTURES / f"{name}.pcapng", ["frame.number"], TTC_FILTER) == []
    control = TEST_CAPTURES / "goora_basic.pcapng"
    if not control.exists():
        pytest.skip("goora_basic not generated")
    assert tshark.fields(control, ["frame.number"], TTC_FILTER)


@pytest.mark.parametrize("name", NNE)
def test_client_rows_equal_server_rows(name):
    """The client decrypted and decoded every row the server sent: per statement the
    whole table (client report vs the scenario's table), in total the server's
    rows_sent for the client's statements; no fatal error."""
    m = manifest(name)
    rep = m["client"]["report"]
    assert rep["fatal_errors"] == []
    rows = {t["name"]: t["rows"] for t in m["server"]["tables"]}
    stmts = [s for s in rep["sessions"][0]["statements"] if s.get("sql")]
    queries = [s for s in m["client"]["steps"] if s.get("sql")]
    assert len(stmts) == sum(s.get("repeat", 1) for s in queries)
    for s in stmts:
        assert s["error"] is None and s["rows"] == rows["SQLNET_ROWS"]
    sqls = {s["sql"] for s in stmts}
    sent = sum(r["response"]["rows_sent"] for c in m["connections"] for r in c["requests"] if r["sql"] in sqls)
    assert m["client"]["rows_received"] == sent == len(stmts) * rows["SQLNET_ROWS"]


@pytest.mark.parametrize("name", NNE)
def test_sealed_lengths_follow_the_cipher(name):
    """Per packet the server's sealed length is the plaintext plus the checksum
    (20/32 bytes for SHA1/SHA256) rounded up to AES blocks, plus the pad-count and
    folding-key bytes (go-ora's layout); the plaintext adds up to the response's
    ttc_bytes."""
    m = manifest(name)
    size = {None: 0, "SHA1": 20, "SHA256": 32}[m["nne"]["server"]["integrity"]]
    for r in m["connections"][0]["requests"]:
        nne = r["response"]["nne"]
        assert sum(nne["plain_lengths"]) == r["response"]["ttc_bytes"]
        for plain, sealed in zip(nne["plain_lengths"], nne["sealed_lengths"], strict=True):
            assert sealed == -(-(plain + size) // 16) * 16 + 2
