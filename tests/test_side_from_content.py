"""Which side is the client, without the handshake (issue 13 item 5).

A generated capture is cut after its handshake (editcap -r) and its server
port moved to one above the client's ephemeral port, so that neither the
listener port range nor "the lower port is the server" tells the sides; it is
decoded with Decode As (-d tcp.port==PORT,sqlnet).  The round trips and rows
must be those of the requests left in the cut capture, from the manifest (the
scripted server's per-request counters), as on port 1521.

Evidence: the manifest of test-captures/arraysize_10 (request frames, rows
sent per response) and the cut made here.
"""
import json
import struct
import subprocess

import pytest

from tshark import TEST_CAPTURES

SRC = TEST_CAPTURES / "arraysize_10.pcapng"


def cut_and_move(src, dst, first_frame, old_port, new_port):
    """Frames first_frame.. of src into a pcap with old_port rewritten to new_port
    (Ethernet/IPv4/TCP; checksums are not verified by tshark's defaults)."""
    tmp = dst.with_suffix(".cut.pcap")
    subprocess.run(["editcap", "-F", "pcap", "-r", str(src), str(tmp), f"{first_frame}-99999999"],
                   check=True, capture_output=True)
    data = bytearray(tmp.read_bytes())
    assert struct.unpack_from("<I", data, 0)[0] == 0xA1B2C3D4 and struct.unpack_from("<I", data, 20)[0] == 1
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        pkt = off + 16
        if struct.unpack_from(">H", data, pkt + 12)[0] == 0x0800 and data[pkt + 23] == 6:
            tcp = pkt + 14 + (data[pkt + 14] & 0x0F) * 4
            for p in (tcp, tcp + 2):
                if struct.unpack_from(">H", data, p)[0] == old_port:
                    struct.pack_into(">H", data, p, new_port)
        off = pkt + incl
    dst.write_bytes(bytes(data))
    return dst


def left_after(cut_frame):
    conn = json.loads(SRC.with_suffix(".json").read_text())["connections"][0]
    reqs = [r for r in conn["requests"] if r["request_first_frame"] >= cut_frame and r["response"].get("last_frame")]
    return conn, len(reqs), sum(r["response"]["rows_sent"] for r in reqs)


def round_trips(tshark, path, port, passes):
    rows = tshark.fields(path, ["sqlnet.rows", "sqlnet.call"], "sqlnet.request_in",
                         extra=["-d", f"tcp.port=={port},sqlnet"] + passes)
    return len(rows), sum(int(r[0]) for r in rows), rows


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
@pytest.mark.parametrize("start", ["call", "reply"])
def test_decode_as_port_above_the_client(tshark, tmp_path, start, passes):
    conn, _, _ = left_after(0)
    execute = next(r for r in conn["requests"] if r["function"] == "OALL8")
    # cut at the execute call, or one frame later: the first packet is then the server's reply
    cut = execute["request_first_frame"] + (0 if start == "call" else 1)
    if start == "reply":
        assert execute["response"]["first_frame"] == cut
    port = conn["client_port"] + 1000
    assert port < 65536
    _, n, rows = left_after(cut)
    assert n > 50 and rows > 0
    moved = cut_and_move(SRC, tmp_path / "moved.pcap", cut, 1521, port)
    got_n, got_rows, calls = round_trips(tshark, moved, port, passes)
    assert (got_n, got_rows) == (n, rows)
    # the calls were decoded as calls (function codes on their responses)
    assert sum(1 for _, c in calls if c == "5") == sum(
        1 for r in conn["requests"] if r["function"] == "OFETCH" and r["request_first_frame"] >= cut)
    # and the same cut on 1521 says the same
    same = cut_and_move(SRC, tmp_path / "same.pcap", cut, 1521, 1521)
    assert round_trips(tshark, same, 1521, passes)[:2] == (n, rows)
