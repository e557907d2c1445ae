"""A read filter (tshark -2 -R) keeps the frames a display filter shows.

tshark's first pass gives a frame that fails the read filter the number the
next frame gets (Wireshark's -R does the same), so until a frame passes,
the dropped ones and the next share a number: the CONNECT, the ACCEPT and
the first DATA packets of a conversation are all "frame 1".  The plugin's
markers are frame numbers with the frame's file offset
(plugin/core/session.c, session_frame_after) and a dropped frame's TTC
records are forgotten when its number comes again (ttc_records.c,
ttc_rec_frame_seen).  Before that, `-2 -R "sqlnet.type==6"` and
`-2 -R sqlnet.fetch.rows` matched no frame at all.

Evidence: one view against another.  `-2 -Y FILTER` dissects every frame in
both passes (nothing is renumbered); `-2 -R FILTER` must keep the same
frames, with the same field values, frame numbers aside (they are
renumbered).  `sqlnet.response.segments` is left out: the "tcp" tap that
counts the segments runs on tshark's second pass, which holds only the
frames kept.  And the manifest (the scripted server's log): the fetch
calls kept ask for the client's array size.
"""
import json
import subprocess

import pytest

from tshark import PUBLIC, TEST_CAPTURES

FIELDS = ["sqlnet.length", "sqlnet.type", "sqlnet.direction", "sqlnet.version", "sqlnet.sdu",
          "sqlnet.data.len", "sqlnet.data.flags", "sqlnet.length_width", "sqlnet.nne",
          "sqlnet.framing_guessed", "sqlnet.call", "sqlnet.cursor", "sqlnet.sql", "sqlnet.fetch.rows",
          "sqlnet.rows", "sqlnet.rowcount", "sqlnet.ora_error", "sqlnet.response.packets",
          "sqlnet.response.bytes", "sqlnet.time", "sqlnet.ttc.msg", "sqlnet.ttc.not_decoded"]

FILTERS = ["sqlnet.type == 6", "sqlnet.fetch.rows", "sqlnet.sql", "sqlnet.rows > 0"]

# a handshake and fetches; native network encryption (the ANO reply's marker);
# TLS; an ORA error in the middle of a fetch; responses of several TNS packets
CAPTURES = [TEST_CAPTURES / name for name in (
    "arraysize_100.pcapng", "nne_goora.pcapng", "tls12_arraysize.pcapng", "error_midfetch.pcapng",
    "wan_rtt10_sdu.pcapng")]
REAL = PUBLIC / "jkstill19c" / "cdb01_ora_26589.pcap"


def views(tshark, cap, flt):
    shown = tshark.fields(cap, FIELDS, flt, extra=["-2"])
    kept = tshark.fields(cap, FIELDS, extra=["-2", "-R", flt])
    return shown, kept


@pytest.mark.parametrize("flt", FILTERS)
@pytest.mark.parametrize("cap", CAPTURES, ids=lambda p: p.stem)
def test_read_filter_keeps_what_the_display_filter_shows(tshark, cap, flt):
    shown, kept = views(tshark, cap, flt)
    if flt == "sqlnet.type == 6" or "nne" not in cap.stem:
        assert shown, (cap.name, flt)
    assert kept == shown, (cap.name, flt, len(kept), len(shown))


def test_read_filter_fetch_calls_ask_for_the_array_size(tshark):
    cap = TEST_CAPTURES / "arraysize_100.pcapng"
    client = json.loads(cap.with_suffix(".json").read_text())["client"]
    rows = tshark.fields(cap, ["sqlnet.call", "sqlnet.fetch.rows", "sqlnet.direction"],
                         extra=["-2", "-R", "sqlnet.fetch.rows && sqlnet.direction == 0"])
    asked = {r[1] for r in rows}
    assert str(client["arraysize"]) in asked, rows
    assert asked <= {str(client["arraysize"]), str(client["prefetchrows"])}, rows


def test_read_filter_mid_stream(tshark, tmp_path):
    """No handshake in the capture (its first 29 frames cut off): the
    length-field width is guessed on the first DATA packet, which the
    filter drops; the frames kept are not marked as where it was guessed."""
    cut = tmp_path / "mid.pcapng"
    subprocess.run(["editcap", "-r", str(TEST_CAPTURES / "arraysize_100.pcapng"), str(cut), "30-200"],
                   check=True, capture_output=True)
    for flt in ("sqlnet.fetch.rows", "sqlnet.rows > 0"):
        shown, kept = views(tshark, cut, flt)
        assert shown and kept == shown, (flt, len(kept), len(shown))


@pytest.mark.skipif(not REAL.is_file(), reason="public corpus not available (../shared)")
@pytest.mark.parametrize("flt", ["sqlnet.type == 6", "sqlnet.fetch.rows"])
def test_read_filter_on_a_real_capture(tshark, flt):
    shown, kept = views(tshark, REAL, flt)
    assert shown and kept == shown, (flt, len(kept), len(shown))
