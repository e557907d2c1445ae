"""TNS framing regressions on captures built by the tests (tests/pcapgen.py).

Every expected value is what the test itself put on the wire.
"""
import pytest

import pcapgen as g

DESC = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=ORCLPDB1)))"


def lengths(tshark, path, flt="sqlnet"):
    rows = tshark.fields(path, ["sqlnet.length"], display_filter=flt)
    return [int(v) for row in rows for v in row[0].split(",") if v]


def column(tshark, path, field, flt="sqlnet"):
    rows = tshark.fields(path, [field], display_filter=flt)
    return [v for row in rows for v in row[0].split(",") if v]


def handshake(conv, version=319, sdu=8192, client_sdu=None, flags2=0):
    conv.send("C", g.connect(DESC, version=version, sdu=client_sdu or sdu))
    conv.send("S", g.accept(version=version, sdu=sdu, tdu=sdu, flags2=flags2))


@pytest.mark.parametrize("sdu,sizes", [
    (131072, [65536, 65540, 131072]),          # SDU 128 KiB: low 16 bits 0x0000 / 0x0004
    (2097152, [131072, 65536, 2097152]),       # SDU 2 MiB
])
def test_large_packets_under_large_sdu(tshark, tmp_path, sdu, sizes):
    conv = g.Conversation()
    handshake(conv, sdu=sdu, client_sdu=2097152)
    conv.send("C", g.data(b"\x03\x05\x05\x01\x03\x02\x03\xe8"))   # OFETCH cursor 3, 1000 rows
    for size in sizes:
        conv.send("S", g.data_of_length(size))
    conv.send("C", g.data(b"", flags=0x0040))
    path = conv.write(tmp_path / "large.pcap")

    expected = [len(g.connect(DESC)), 61, 18] + sizes + [10]
    assert lengths(tshark, path) == expected
    data_lens = [int(v) for v in column(tshark, path, "sqlnet.data.len")]
    assert data_lens == [8] + [s - 10 for s in sizes] + [0]
    assert set(column(tshark, path, "sqlnet.sdu", "sqlnet.type == 6")) == {str(sdu)}
    assert tshark.run(path, ["-Y", "_ws.malformed || sqlnet.bad_header || sqlnet.exceeds_sdu"]).stdout == ""


def test_several_packets_per_segment_and_one_packet_over_many(tshark, tmp_path):
    conv = g.Conversation(mss=536)
    handshake(conv, version=318)
    burst = g.marker(1) + g.marker(2) + g.data(b"\x04" + bytes(40))
    conv.send("S", burst, mss=len(burst))            # three TNS packets in one segment
    conv.send("S", g.data_of_length(8192))           # one packet over 16 segments
    path = conv.write(tmp_path / "mixed.pcap")
    assert lengths(tshark, path)[2:] == [11, 11, 51, 8192]
    assert column(tshark, path, "sqlnet.marker") == ["1", "2"]


@pytest.mark.parametrize("version,wide", [(319, True), (314, False)])
def test_mid_stream_without_handshake(tshark, tmp_path, version, wide):
    """Capture starts inside a TNS packet; no CONNECT/ACCEPT anywhere."""
    conv = g.Conversation(handshake=False)
    conv.skip("S", 5000)
    tail = g.data_of_length(3000, wide=wide)[1800:]   # last 1200 bytes of a packet sent before
    conv.send("S", tail)
    sizes = [21, 4000, 11, 300]
    conv.send("C", g.data_of_length(sizes[0], wide=wide))
    conv.send("S", g.data_of_length(sizes[1], wide=wide))
    conv.send("S", g.marker(1, wide=wide))
    conv.send("C", g.data_of_length(sizes[3], wide=wide))
    path = conv.write(tmp_path / "midstream.pcap")

    assert lengths(tshark, path) == sizes
    widths = set(column(tshark, path, "sqlnet.length_width", "sqlnet.length"))
    assert widths == {"4" if wide else "2"}
    assert len(column(tshark, path, "frame.number", "sqlnet.framing_guessed")) == 1
    assert len(column(tshark, path, "frame.number", "sqlnet.unsynchronized")) == 1
    assert tshark.run(path, ["-Y", "_ws.malformed || sqlnet.bad_header"]).stdout == ""
    assert column(tshark, path, "sqlnet.version") == []        # nothing negotiated is claimed


def test_connect_data_longer_than_230_bytes(tshark, tmp_path):
    desc = ("(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=SALES.EXAMPLE.COM)(CID=(PROGRAM=batch_loader)"
            "(HOST=apphost01)(USER=etl)))(ADDRESS=(PROTOCOL=tcp)(HOST=10.9.8.7)(PORT=1521))"
            "(SECURITY=(SSL_SERVER_CERT_DN=\"CN=db\"))(RETRY_COUNT=3)(TRANSPORT_CONNECT_TIMEOUT=5))")
    assert len(desc) > 230
    conv = g.Conversation()
    conv.send("C", g.connect(desc, inline=False) + g.data(desc.encode(), wide=False))
    conv.send("S", g.accept(version=319, sdu=8192))
    path = conv.write(tmp_path / "longconnect.pcap")

    assert column(tshark, path, "sqlnet.connect.data_length") == [str(len(desc))]
    assert column(tshark, path, "sqlnet.connect.data_deferred") == ["1"]
    assert tshark.fields(path, ["sqlnet.connect.data"], "sqlnet.type == 6")[0][0] == desc
    assert column(tshark, path, "sqlnet.connect.service_name") == ["SALES.EXAMPLE.COM"]
    assert column(tshark, path, "sqlnet.connect.program") == ["batch_loader"]
    assert lengths(tshark, path) == [74, 10 + len(desc), 61]


def test_refuse_carries_err_code(tshark, tmp_path):
    text = "(DESCRIPTION=(TMP=)(VSNNUM=318767104)(ERR=12514)(ERROR_STACK=(ERROR=(CODE=12514)(EMFI=4))))"
    conv = g.Conversation()
    conv.send("C", g.connect(DESC, version=318))
    conv.send("S", g.refuse(text))
    path = conv.write(tmp_path / "refuse.pcap")
    assert column(tshark, path, "sqlnet.refuse.err") == ["12514"]
    assert tshark.fields(path, ["sqlnet.refuse.data"], "sqlnet.type == 4")[0][0] == text
    assert len(column(tshark, path, "frame.number", "sqlnet.refused")) == 1


def test_resend_then_connect_again_16bit_session(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC, version=314, sdu=2048))
    conv.send("S", g.resend())
    conv.send("C", g.connect(DESC, version=314, sdu=2048))
    conv.send("S", g.accept(version=314, sdu=2048, tdu=32767))
    conv.send("C", g.data_of_length(200, wide=False))
    conv.send("S", g.data_of_length(1500, wide=False))
    path = conv.write(tmp_path / "resend.pcap")
    assert lengths(tshark, path)[-2:] == [200, 1500]
    assert set(column(tshark, path, "sqlnet.tdu", "sqlnet.type == 6")) == {"32767"}
    assert set(column(tshark, path, "sqlnet.length_width", "sqlnet.type == 6")) == {"2"}


def test_heuristic_on_unregistered_port(tshark, tmp_path):
    conv = g.Conversation(server=("10.1.0.1", 49161))
    handshake(conv, version=319, sdu=16384)
    conv.send("C", g.data_of_length(40))
    path = conv.write(tmp_path / "port49161.pcap")
    assert lengths(tshark, path) == [len(g.connect(DESC)), 61, 40]
    assert set(column(tshark, path, "sqlnet.sdu", "sqlnet.type == 6")) == {"16384"}


def test_builtin_tns_still_selectable(tshark, tmp_path):
    conv = g.Conversation()
    handshake(conv, version=314, sdu=2048)
    path = conv.write(tmp_path / "decodeas.pcap")
    assert tshark.fields(path, ["frame.protocols"], "tcp.len > 0")[0][0].endswith(":sqlnet")
    out = tshark.fields(path, ["frame.protocols"], "tcp.len > 0", extra=["-d", "tcp.port==1521,tns"])
    assert out[0][0].endswith(":tns")


def test_native_network_encryption_marks_payload(tshark, tmp_path):
    conv = g.Conversation()
    handshake(conv, version=318)
    version = b"\x0b\x20\x02\x00"
    conv.send("C", g.data(g.ano([(2, [(5, version), (1, bytes([17, 16, 15])), (2, b"\x01")])])))
    conv.send("S", g.data(g.ano([(2, [(5, version), (2, bytes([17]))]),
                                 (3, [(5, version), (2, bytes([0]))])])))
    conv.send("C", g.data(bytes(range(48))))
    path = conv.write(tmp_path / "nne.pcap")
    assert column(tshark, path, "sqlnet.ano.encryption") == ["17"]
    assert column(tshark, path, "sqlnet.nne") == ["17"]
    assert len(column(tshark, path, "frame.number", "sqlnet.data.encrypted")) == 1


def test_ano_without_encryption_leaves_payload_readable(tshark, tmp_path):
    conv = g.Conversation()
    handshake(conv, version=318)
    version = b"\x0b\x20\x02\x00"
    conv.send("S", g.data(g.ano([(2, [(5, version), (2, bytes([0]))])])))
    conv.send("C", g.data(b"\x01\x06\x00python\x00"))
    path = conv.write(tmp_path / "ano_plain.pcap")
    assert column(tshark, path, "sqlnet.nne") == []
    assert column(tshark, path, "frame.number", "sqlnet.data.encrypted") == []


def test_corrupt_header_does_not_stop_later_packets(tshark, tmp_path):
    conv = g.Conversation()
    handshake(conv, version=319)
    conv.send("C", g.data_of_length(30))
    conv.send("S", b"\xff\xff\xff\xff\x63\x00\x00\x00garbage-bytes")   # no TNS header
    conv.send("S", g.data_of_length(500))
    conv.send("C", g.data_of_length(25))
    path = conv.write(tmp_path / "corrupt.pcap")
    assert lengths(tshark, path)[2:] == [30, 500, 25]
    bad = column(tshark, path, "frame.number", "sqlnet.bad_header")
    assert len(bad) == 1
    # Only the corrupt segment is malformed; the packets after it decode cleanly.
    assert column(tshark, path, "frame.number", "_ws.malformed") == bad


@pytest.mark.parametrize("stray_in_own_segment", [True, False], ids=["own-segment", "same-segment"])
def test_stray_byte_then_resend_resynchronises_bytewise(tshark, tmp_path, stray_in_own_segment):
    """Issue 12, item 7: one stray byte after the client's CONNECT, then the
    8-byte RESEND and the CONNECT again: only the stray byte is skipped (it
    used to take the RESEND/CONNECT after it along as one invalid header)."""
    conv = g.Conversation()
    conv.send("C", g.connect(DESC, version=314, sdu=2048))
    if stray_in_own_segment:
        conv.send("C", b"\x00")
        conv.send("C", g.resend())
    else:
        conv.send("C", b"\x00" + g.resend())
    conv.send("S", g.resend())
    conv.send("C", g.connect(DESC, version=314, sdu=4096))
    conv.send("S", g.accept(version=314, sdu=4096, tdu=32767))
    conv.send("C", g.data_of_length(200, wide=False))
    path = conv.write(tmp_path / "stray.pcap")
    types = [int(t) for t in column(tshark, path, "sqlnet.type")]
    # CONNECT, the client's RESEND, the server's RESEND, CONNECT, ACCEPT, DATA
    assert types == [1, 11, 11, 1, 2, 6]
    assert lengths(tshark, path)[-1] == 200
    assert len(column(tshark, path, "frame.number", "sqlnet.bad_header || sqlnet.unsynchronized")) == 1
