"""Every TNS packet type decoded with its data (issue 25, point 3).

Evidence: hand-decoded bytes.  Each capture is built byte by byte here with
tests/pcapgen.py, from the layouts the reference implementations read and
write (node-oracledb lib/thin/sqlnet/constants.js and packet.js: REFUSE
8/9/10/12, REDIRECT 8/10 with header flag NSPFRDS 0x02, CONTROL 8/10/14/18/22,
MARKER 8/9/10; python-oracledb messages/connect.pyx: the REDIRECT data read
across into the next packet and split at its NUL; go-ora v2 network/: the
REDIRECT data in the next DATA packet when the REDIRECT is 10 bytes long;
JDBC thin oracle.net.ns.NIODataDescriptorPacket: the DATA DESCRIPTOR's flags,
total length, segment count and 26 16-bit segment lengths, the data written
after it without TNS headers; Wireshark's packet-tns.c: ABORT 8/9/10,
ATTENTION laid out as a MARKER).  Every value asserted is one written below.
"""
import struct

import pcapgen as g

DESC = "(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=ORCL)))"
ADDRESS = "(ADDRESS=(PROTOCOL=TCP)(HOST=10.1.0.9)(PORT=1600))"
NEW_DESC = "(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=ORCL)(INSTANCE_NAME=orcl2)))"


def clean(tshark, path):
    """No exception escaped a packet (Wireshark's "[Malformed Packet: ...]" or
    dissector-bug item), nothing on stderr; the malformed lengths are flagged by
    sqlnet's own expert items instead."""
    proc = tshark.run(path, ["-V"])
    assert "Malformed Packet" not in proc.stdout and "Dissector bug" not in proc.stdout, proc.stdout
    assert proc.stderr == "", proc.stderr


def one(tshark, path, fields, flt):
    rows = tshark.fields(path, fields, flt)
    assert len(rows) == 1, rows
    return rows[0]


# ---- REDIRECT ----------------------------------------------------------------

def redirect_then_reconnect(tmp_path, inline):
    data = ADDRESS.encode() + b"\0" + NEW_DESC.encode()
    first = g.Conversation()
    first.send("C", g.connect(DESC))
    if inline:
        first.send("S", g.redirect(data))
    else:      # python-oracledb and go-ora read it from the next DATA packet
        first.send("S", g.redirect(data, inline=False))
        first.send("S", g.data(data, wide=False))
    second = g.Conversation(client=("10.1.0.2", 40002), server=("10.1.0.9", 1600), start=1_700_000_001.0)
    second.send("C", g.header(74 + len(NEW_DESC), g.TYPE_CONNECT, 0x04) + g.connect(NEW_DESC)[8:])
    second.send("S", g.accept(319, 8192, 8192))
    return g.write_conversations(tmp_path / f"redirect_{inline}.pcap", [first, second]), len(data)


def test_redirect_inline_split_at_nul(tshark, tmp_path):
    path, n = redirect_then_reconnect(tmp_path, inline=True)
    row = one(tshark, path, ["sqlnet.redirect.data_length", "sqlnet.redirect.address", "sqlnet.redirect.connect_data",
                             "sqlnet.redirect.host", "sqlnet.redirect.port", "sqlnet.flags.redirect_data"],
              "sqlnet.type == 5")
    assert row == [str(n), ADDRESS, NEW_DESC, "10.1.0.9", "1600", "1"]
    assert one(tshark, path, ["frame.number"], "sqlnet.redirected")
    info = one(tshark, path, ["_ws.col.Info"], "sqlnet.type == 5")[0]
    assert "REDIRECT" in info and "to 10.1.0.9:1600" in info
    # the CONNECT to the new address carries header flag 0x04 (NSPFRDR)
    assert one(tshark, path, ["sqlnet.connect.service_name", "tcp.dstport"],
               "sqlnet.flags.redirected == 1") == ["ORCL", "1600"]
    clean(tshark, path)


def test_redirect_data_in_the_next_data_packet(tshark, tmp_path):
    path, n = redirect_then_reconnect(tmp_path, inline=False)
    row = one(tshark, path, ["sqlnet.redirect.data_length", "sqlnet.redirect.data"], "sqlnet.type == 5")
    assert row == [str(n), ""]
    assert one(tshark, path, ["frame.number"], "sqlnet.data_follows && sqlnet.type == 5")
    row = one(tshark, path, ["sqlnet.type", "sqlnet.redirect.address", "sqlnet.redirect.connect_data",
                             "sqlnet.redirect.port"], "sqlnet.redirect.address")
    assert row == ["6", ADDRESS, NEW_DESC, "1600"]
    info = one(tshark, path, ["_ws.col.Info"], "sqlnet.type == 6 && sqlnet.redirect.address")[0]
    assert "(redirect data)" in info
    # not taken for TTC, and the data length matches: no length complaint
    assert tshark.fields(path, ["frame.number"], "sqlnet.bad_length || sqlnet.ttc") == []
    clean(tshark, path)


def test_redirect_malformed_lengths(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    # data length 200, 20 bytes in the packet
    conv.send("S", g.redirect(b"(ADDRESS=(HOST=h))xx", data_length=200))
    path = conv.write(tmp_path / "bad_redirect.pcap")
    row = one(tshark, path, ["sqlnet.redirect.data_length", "sqlnet.redirect.address"], "sqlnet.bad_length")
    assert row == ["200", "(ADDRESS=(HOST=h))xx"]
    # NSPFRDS set, no NUL: python-oracledb refuses it (ERR_INVALID_REDIRECT_DATA)
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    conv.send("S", g.redirect(ADDRESS.encode(), flags=0x02))
    conv.send("S", g.packet(g.TYPE_REDIRECT, b"\x00\x00\x01\x02"))   # 2 bytes after a 0-length data
    path = conv.write(tmp_path / "nonul.pcap")
    assert one(tshark, path, ["sqlnet.redirect.address", "sqlnet.redirect.connect_data"],
               "sqlnet.bad_length") == [ADDRESS, ""]
    assert one(tshark, path, ["sqlnet.body"], "sqlnet.extra_bytes") == ["0102"]
    clean(tshark, path)


# ---- REFUSE --------------------------------------------------------------------

REFUSE_TEXT = "(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=12514)(ERROR_STACK=(ERROR=(CODE=12514)(EMFI=4))))"


def test_refuse_inline_and_in_the_next_data_packet(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    conv.send("S", g.refuse(REFUSE_TEXT, user_reason=0x22, system_reason=0x03))
    conv2 = g.Conversation(client=("10.1.0.2", 40002), start=1_700_000_001.0)
    conv2.send("C", g.connect(DESC))
    # node-oracledb: a 12-byte REFUSE, its text read from the next packet
    conv2.send("S", g.header(12, g.TYPE_REFUSE) + struct.pack(">BBH", 4, 0, len(REFUSE_TEXT)))
    conv2.send("S", g.data(REFUSE_TEXT.encode(), wide=False))
    path = g.write_conversations(tmp_path / "refuse.pcap", [conv, conv2])
    rows = tshark.fields(path, ["sqlnet.type", "sqlnet.refuse.user_reason", "sqlnet.refuse.system_reason",
                                "sqlnet.refuse.data_length", "sqlnet.refuse.err"], "sqlnet.type == 4")
    assert rows == [["4", "0x22", "0x03", str(len(REFUSE_TEXT)), "12514"],
                    ["4", "0x04", "0x00", str(len(REFUSE_TEXT)), ""]]
    row = one(tshark, path, ["sqlnet.refuse.data", "sqlnet.refuse.err"], "sqlnet.type == 6")
    assert row == [REFUSE_TEXT, "12514"]
    assert "(refuse data)" in one(tshark, path, ["_ws.col.Info"], "sqlnet.type == 6")[0]
    clean(tshark, path)


def test_refuse_data_length_past_the_packet(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    body = struct.pack(">BBH", 0, 0, 500) + b"(ERR=12505)"
    conv.send("S", g.header(12 + 11, g.TYPE_REFUSE) + body)
    path = conv.write(tmp_path / "refuse_bad.pcap")
    assert one(tshark, path, ["sqlnet.refuse.data", "sqlnet.refuse.err"], "sqlnet.bad_length") == \
        ["(ERR=12505)", "12505"]
    clean(tshark, path)


# ---- RESEND, NULL, ACK, ABORT, ATTENTION -------------------------------------

def test_resend_and_header_only_types(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    conv.send("S", g.resend())                       # frame: plain RESEND
    conv.send("C", g.connect(DESC))
    conv.send("S", g.resend(flags=0x08))             # NSPFSRN: TLS renegotiation first
    conv.send("C", g.connect(DESC))
    conv.send("S", g.resend(body=b"\xaa"))           # a byte no reference reads
    conv.send("C", g.connect(DESC))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("C", g.packet(g.TYPE_NULL, wide=True))
    conv.send("S", g.packet(g.TYPE_ACK, wide=True))
    conv.send("C", g.packet(g.TYPE_NULL, b"\x01\x02\x03", wide=True))
    path = conv.write(tmp_path / "resend.pcap")
    rows = tshark.fields(path, ["sqlnet.type", "sqlnet.flags.tls_reneg", "sqlnet.body"], "sqlnet.resend")
    assert rows == [["11", "0", ""], ["11", "1", ""], ["11", "0", "aa"]]
    assert "(TLS renegotiation)" in one(tshark, path, ["_ws.col.Info"], "sqlnet.flags.tls_reneg == 1")[0]
    rows = tshark.fields(path, ["sqlnet.type", "sqlnet.length", "sqlnet.body"], "sqlnet.type == 3 || sqlnet.type == 7")
    assert rows == [["7", "8", ""], ["3", "8", ""], ["7", "11", "010203"]]
    rows = tshark.fields(path, ["sqlnet.type", "sqlnet.body"], "sqlnet.extra_bytes")
    assert rows == [["11", "aa"], ["7", "010203"]]
    clean(tshark, path)


def test_abort_and_attention(tshark, tmp_path):
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("C", g.packet(g.TYPE_ATTENTION, bytes([2, 0, 3]), wide=True))     # attention marker, INTERRUPT
    conv.send("C", g.packet(g.TYPE_ATTENTION, bytes([1]), wide=True))           # cut: 9 bytes
    conv.send("S", g.packet(g.TYPE_ABORT, bytes([0x01, 0x02]) + b"bye", wide=True))
    path = conv.write(tmp_path / "abort.pcap")
    assert one(tshark, path, ["sqlnet.attention.type", "sqlnet.attention.data_byte", "sqlnet.attention"],
               "sqlnet.attention.expert") == ["2", "0x00", "3"]
    assert "ATTENTION len 11/8192 (0%) INTERRUPT" in one(tshark, path, ["_ws.col.Info"], "sqlnet.attention")[0]
    assert one(tshark, path, ["sqlnet.length"], "sqlnet.short_packet") == ["9"]
    assert one(tshark, path, ["sqlnet.abort.user_reason", "sqlnet.abort.system_reason", "sqlnet.abort.data"],
               "sqlnet.aborted") == ["0x01", "0x02", b"bye".hex()]
    clean(tshark, path)


# ---- CONTROL -------------------------------------------------------------------

def control_error(emfi, err, err2, text=b""):
    return g.packet(g.TYPE_CONTROL, struct.pack(">HIII", 8, emfi, err, err2) + text, wide=True)


def test_control_commands(tshark, tmp_path):
    msg = b"instance shutting down in 5 minutes"
    conv = g.Conversation()
    conv.send("C", g.connect(DESC))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("S", control_error(22, 1089, 0))                        # ORA-01089
    conv.send("S", control_error(4, 12573, len(msg), msg))            # NSESENDMESG with its text
    conv.send("S", control_error(4, 12573, 200, msg))                 # its length past the packet
    conv.send("S", g.packet(g.TYPE_CONTROL, struct.pack(">H", 9), wide=True))       # reset OOB
    conv.send("S", g.packet(g.TYPE_CONTROL, struct.pack(">HI", 8, 22), wide=True))  # cut at 14
    path = conv.write(tmp_path / "control.pcap")
    rows = tshark.fields(path, ["sqlnet.control.command", "sqlnet.control.emfi", "sqlnet.control.error",
                                "sqlnet.control.error2", "sqlnet.control.message"], "sqlnet.type == 14")
    assert rows == [["8", "22", "1089", "0", ""],
                    ["8", "4", "12573", str(len(msg)), msg.decode()],
                    ["8", "4", "12573", "200", msg.decode()],
                    ["9", "", "", "", ""],
                    ["8", "", "", "", ""]]
    assert one(tshark, path, ["sqlnet.control.error2"], "sqlnet.bad_length") == ["200"]
    assert one(tshark, path, ["sqlnet.length"], "sqlnet.short_packet") == ["14"]
    clean(tshark, path)


# ---- DATA DESCRIPTOR -------------------------------------------------------------

def dd(total, segments, flags=0x02, wide=True):
    body = struct.pack(">III", flags, total, len(segments))
    body += b"".join(struct.pack(">H", s) for s in segments) + bytes(2 * (26 - len(segments)))
    return g.packet(g.TYPE_DD, body, wide=wide)


def test_data_descriptor_and_the_data_after_it(tshark, tmp_path):
    raw = bytes(range(256)) * 2 + b"\x06" * 88           # 600 bytes, no TNS header in them
    conv = g.Conversation(mss=500)
    conv.send("C", g.connect(DESC))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("C", dd(600, [600], flags=0x03) + raw)
    conv.send("C", g.data(b"\x03\x5e\x01"))
    conv.send("S", dd(100, [60, 30]) + bytes(100))    # segments add up to 90, not 100
    path = conv.write(tmp_path / "dd.pcap")
    rows = tshark.fields(path, ["sqlnet.length", "sqlnet.dd.flags", "sqlnet.dd.flags.last", "sqlnet.dd.flags.short",
                                "sqlnet.dd.total_length", "sqlnet.dd.segments", "sqlnet.dd.segment_length"],
                         "sqlnet.type == 15")
    assert rows == [["72", "0x00000003", "1", "1", "600", "1", "600"],
                    ["72", "0x00000002", "0", "1", "100", "2", "60,30"]]
    rows = tshark.fields(path, ["sqlnet.dd.data"], "sqlnet.dd.data")
    assert rows == [[raw.hex()], ["00" * 100]]
    # the DATA packet after the 600 raw bytes is framed and decoded
    assert one(tshark, path, ["sqlnet.data.len"], "sqlnet.type == 6") == ["3"]
    assert tshark.fields(path, ["frame.number"], "sqlnet.undecoded || sqlnet.bad_header") == []
    assert len(tshark.fields(path, ["frame.number"], "sqlnet.bad_length")) == 1
    clean(tshark, path)


def test_short_packets_of_every_type_never_throw(tshark, tmp_path):
    """Each type cut right after its header, in 16- and 32-bit framing."""
    conv = g.Conversation()
    for t in (3, 4, 5, 7, 9, 11, 12, 13, 14, 15):
        conv.send("S", g.packet(t, b"\xff"))
    path = conv.write(tmp_path / "short.pcap")
    clean(tshark, path)
    rows = tshark.fields(path, ["sqlnet.type"], "sqlnet.short_packet")
    assert sorted(int(r[0]) for r in rows) == [4, 5, 9, 12, 13, 14, 15]


def test_data_descriptor_cut_by_the_snaplen(tshark, tmp_path):
    """The segment with the descriptor is cut (snaplen 240: 186 of its 500 bytes of TCP
    payload); the next segment holds the rest of its 600 bytes of data and
    then a DATA packet, which is found after them (not taken for a header in
    the data)."""
    raw = b"\x5a" * 600
    conv = g.Conversation(mss=500)
    conv.send("C", g.connect(DESC))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("C", dd(600, [600], flags=0x03) + raw + g.data(b"\x03\x5e\x01"))
    full = conv.write(tmp_path / "dd_full.pcap")
    cut = tmp_path / "dd_cut.pcap"
    import subprocess
    subprocess.run(["editcap", "-s", "240", str(full), str(cut)], check=True, capture_output=True)
    assert one(tshark, cut, ["sqlnet.data.len"], "sqlnet.type == 6") == ["3"]
    assert tshark.fields(cut, ["frame.number"], "sqlnet.undecoded || sqlnet.bad_header") == []
