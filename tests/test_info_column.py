"""The Info column as a user reads it, against the tree and against
Wireshark's own notes (issue 38: a TNS packet's text reaches the column in
one append, plugin/core/coltext.c).

Evidence: the plugin's tree (the TNS packets of a frame: their types and
lengths, fields other than the column) and Wireshark's behaviour
(tcp_dissect_pdus() appends an exception's note after the packet's
dissector has left, so the note ends the line); no expectation copied
from the column itself."""
import shutil
import subprocess

import pytest

from tshark import TEST_CAPTURES

ARROWS = ("C\u2192S", "S\u2192C")
# TNS packet types (docs/tns-wire-format.md) as the column names them
TYPE_NAMES = {1: "CONNECT", 2: "ACCEPT", 4: "REFUSE", 5: "REDIRECT", 6: "DATA", 11: "RESEND", 12: "MARKER"}
LIMITED = "[Packet size limited during capture]"


def test_the_column_names_each_tns_packet_of_the_tree_in_order(tshark):
    """sdu_1024_mtu_1500: two 1,024-byte TNS packets in most 1,514-byte
    frames of the responses."""
    rows = tshark.fields(TEST_CAPTURES / "sdu_1024_mtu_1500.pcapng",
                         ["frame.number", "sqlnet.type", "sqlnet.length", "_ws.col.Info"])
    multi = 0
    for number, types, lengths, info in rows:
        if not types or "," not in types:
            continue
        types = [int(t) for t in types.split(",")]
        lengths = [int(n) for n in lengths.split(",")]
        parts = info.split(" | ")
        assert len(parts) == len(types), (number, info)
        for part, t, n in zip(parts, types, lengths):
            arrow, _, rest = part.partition(" ")
            assert arrow in ARROWS, (number, part)
            assert rest.split(" ")[0] == TYPE_NAMES[t], (number, part)
            if t == 6:
                assert rest.startswith(f"DATA len {n}"), (number, part)
        multi += 1
    assert multi >= 5, "the capture has frames of two TNS packets"


@pytest.mark.skipif(not shutil.which("editcap"), reason="editcap not installed")
def test_an_exceptions_note_comes_after_the_packets_text(tshark, tmp_path):
    """Frames cut by a 90-byte snaplen end in an exception inside the TNS
    packet; the text sqlnet wrote before it is in the column before
    Wireshark's note."""
    cut = tmp_path / "cut.pcapng"
    subprocess.run(["editcap", "-s", "90", str(TEST_CAPTURES / "jdbc8_basic.pcapng"), str(cut)],
                   check=True, capture_output=True)
    rows = tshark.fields(cut, ["frame.number", "sqlnet.type", "_ws.col.Info"])
    noted = 0
    for number, types, info in rows:
        if LIMITED not in info:
            continue
        noted += 1
        assert info.count(LIMITED) == 1 and info.endswith(LIMITED), (number, info)
        before = info[: -len(LIMITED)]
        arrow, _, rest = before.partition(" ")
        assert arrow in ARROWS, (number, info)
        first_type = int(types.split(",")[0])
        assert rest.split(" ")[0].rstrip("[") == TYPE_NAMES[first_type], (number, info)
    assert noted >= 3, "the cut frames end in an exception"
