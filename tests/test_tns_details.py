"""Smaller TNS-layer fixes of issue 13 (item 7).

Evidence: captures built byte by byte here (tests/pcapgen.py: the lengths and
versions asserted are the ones written), generated captures cut with
`editcap -s` against their manifest (accepted version, negotiated SDU), and
the TCP layer's own Info text from the same tshark with sqlnet and tns
disabled.
"""
import json
import subprocess

import pcapgen as g
from tshark import TEST_CAPTURES

SRC = TEST_CAPTURES / "arraysize_10.pcapng"


def test_sdu_fill_is_rounded_with_a_unit(tshark, tmp_path):
    """1900 / 8192 = 23.193359375 %: shown as "23.2 %", filtered on the full value."""
    conv = g.Conversation()
    conv.send("C", g.connect("(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=X)))"))
    conv.send("S", g.accept(319, 8192, 8192))
    conv.send("C", g.data_of_length(1900))
    path = conv.write(tmp_path / "fill.pcap")
    text = tshark.run(path, ["-V", "-Y", "sqlnet.length == 1900"]).stdout
    assert "SDU fill: 23.2 %" in text
    assert "23.193359375" not in text
    assert len(tshark.fields(path, ["frame.number"], "sqlnet.sdu_fill > 23.19 && sqlnet.sdu_fill < 23.2")) == 1


def cut(tmp_path, snaplen):
    out = tmp_path / f"s{snaplen}.pcapng"
    subprocess.run(["editcap", "-s", str(snaplen), str(SRC), str(out)], check=True, capture_output=True)
    return out


def test_snaplen_cut_handshake_still_sets_up_the_conversation(tshark, tmp_path):
    """100-byte snaplen: 34 bytes of the ACCEPT are there, its version (offset 8)
    too, its 32-bit SDU (offset 32) not; 128 bytes: the SDU too. No "no
    handshake" note either way; later packets carry the accepted version."""
    conn = json.loads(SRC.with_suffix(".json").read_text())["connections"][0]
    for snaplen, sdu in ((100, None), (128, conn["negotiated_sdu"])):
        path = cut(tmp_path, snaplen)
        assert tshark.fields(path, ["frame.number"], "sqlnet.framing_guessed") == []
        rows = tshark.fields(path, ["sqlnet.version", "sqlnet.sdu"], "sqlnet.type == 6")
        assert rows and {r[0] for r in rows} == {str(conn["accepted_version"])}, snaplen
        assert {r[1] for r in rows} == {"" if sdu is None else str(sdu)}, snaplen


def bogus_accept(version):
    """An ACCEPT-shaped header (type 2, zero checksums) with any version."""
    body = bytes([version >> 8, version & 0xFF]) + bytes(22)
    return g.header(8 + len(body), g.TYPE_ACCEPT) + body


def test_implausible_version_is_flagged(tshark, tmp_path):
    conv = g.Conversation(handshake=False)
    conv.send("S", bogus_accept(10163))
    path = conv.write(tmp_path / "v10163.pcap")
    rows = tshark.fields(path, ["sqlnet.accept.version", "frame.number"], "sqlnet.version.implausible")
    assert [r[0] for r in rows] == ["10163"]
    # a plausible one is not
    conv = g.Conversation(handshake=False)
    conv.send("S", g.accept(319))
    assert tshark.fields(conv.write(tmp_path / "v319.pcap"), ["frame.number"], "sqlnet.version.implausible") == []


def test_heuristic_rejects_implausible_versions(tshark, tmp_path):
    """On a port that is not a listener's, an ACCEPT-shaped packet of version
    10163 is not claimed; the same with version 319 is."""
    for version, claimed in ((10163, False), (319, True)):
        conv = g.Conversation(server=("10.1.0.1", 49161))
        conv.send("S", bogus_accept(version) if not claimed else g.accept(version))
        rows = tshark.fields(conv.write(tmp_path / f"h{version}.pcap"), ["frame.number"], "sqlnet")
        assert bool(rows) == claimed, version


def test_segment_that_starts_a_pdu_keeps_tcp_info(tshark):
    """One pass: a segment that only starts a reassembled TNS packet shows
    TCP's Info (ports, flags, Seq/Ack) as stock TCP writes it."""
    ours = {int(f): i for f, i in tshark.fields(SRC, ["frame.number", "_ws.col.Info"], "tcp.len > 0 && !sqlnet")}
    stock = {int(f): i for f, i in tshark.fields(SRC, ["frame.number", "_ws.col.Info"], "tcp.len > 0",
                                                 extra=["--disable-protocol", "sqlnet",
                                                        "--disable-protocol", "tns"])}
    assert ours
    for frame, info in ours.items():
        assert "Seq=" in info and info.startswith(stock[frame].split(" [")[0]), (frame, info, stock[frame])
