"""Analyze > Follow > SQL*Net Stream in Wireshark under Xvfb (4.4 and later;
4.0's Follow menu lists only Wireshark's built-in protocols, docs/views.md,
and this test skips there).  One window per capture, widened to 1366 px,
screenshot kept (SQLNET_SCREENSHOT_DIR) and looked at.

Evidence: the transcript a person reads (the window's text, copied with
Ctrl+A Ctrl+C) against the generator's manifest (TNS version, SDU, the
statement text, the array size, the rows received) and equal, line for line,
to tshark -z follow,sqlnet,ascii,N's records."""
import json
import re
import subprocess

import pytest

import test_gui
from tshark import TEST_CAPTURES, staged_plugin
from test_gui import gui_run, keep_screenshots, need_xclip, prepare_config, gui_tools  # noqa: F401

BUNDLED = TEST_CAPTURES / "arraysize_10.pcapng"
WAN = TEST_CAPTURES / "wan_rtt10_arraysize.pcapng"

FOLLOW = r"""
# Analyze's Follow (10 Down from the first item in 4.4 and 4.6); the Follow
# submenu opens on its first enabled item: with a SQL*Net packet selected,
# "SQL*Net Stream" (sorted by name; DCCP ... SIP are disabled)
win=$(open_item alt+a "Follow SQL*Net" 10 24 Right)
[ -n "$win" ] || { echo "no follow window" >>"$OUT/driver.log"; exit 6; }
xdotool getwindowname "$win" >"$OUT/follow.title"
show_window "$win" 740 follow.png
xdotool mousemove --window "$win" 600 200 click 1; sleep 0.3
xdotool key ctrl+a; sleep 0.2; xdotool key ctrl+c; sleep 0.5
xclip -o -selection clipboard >"$OUT/follow_copy.txt" 2>>"$OUT/driver.log"
exit 0
"""


def release():
    return staged_plugin().parent.parent.name


def tshark_records(text):
    """The transcript's lines from tshark's follow output (its header, the
    records' length lines and blank lines left out)."""
    body = text.split("=" * 67)[1] if "=" * 67 in text else text
    out = []
    for ln in body.splitlines():
        if not ln.strip() or re.fullmatch(r"\t?\d+", ln) or ln.startswith(("Follow:", "Filter:", "Node ")):
            continue
        out.append(ln.rstrip())
    return out


@pytest.mark.parametrize("capture", [BUNDLED, WAN], ids=["bundled", "wan"])
def test_gui_follow_sqlnet_stream(tshark, gui_tools, capture):
    """The Follow window's transcript: the manifest's TNS version, SDU,
    statement texts, array sizes and rows; the same lines as tshark's."""
    if release() == "4.0":
        pytest.skip("Wireshark 4.0's Follow menu lists only its built-in protocols (docs/views.md)")
    need_xclip()
    m = json.loads(capture.with_suffix(".json").read_text())
    prepare_config(tshark)
    # a SQL*Net packet selected (-g: the first CONNECT's frame is in every capture of the generator)
    frame = tshark.run(capture, ["-Y", "sqlnet.type == 1", "-T", "fields", "-e", "frame.number"]).stdout.split()[0]
    out, log, cap = gui_run(tshark, f"follow_{capture.stem}", capture, mode="follow", timeout=240,
                            script=FOLLOW, prefs=(f"-g {frame}",))
    keep_screenshots(out, ("follow.png", "follow_copy.txt"), prefix=f"follow_{capture.stem}_")
    assert "Follow SQL*Net" in log("follow.title"), log("driver.log")
    assert test_gui.png_size(out / "follow.png")[0] == 1366
    text = log("follow_copy.txt")
    assert f'TNS version {m["server"]["tns_version"]}, SDU {m["client"]["sdu_requested"]}' in text
    for sql in set(m["client"]["statements"]):
        assert f"OALL8 {sql}" in text
    sessions = m["client"]["report"]["sessions"]
    for st in (s for ss in sessions for s in ss["statements"]):
        if st["rows"] > st["arraysize"]:
            assert re.search(rf'OFETCH {st["arraysize"]} rows?\n', text)
    rows = sum(int(x) for x in re.findall(r"\] (\d+) rows?, \d+ pkts?", text))
    assert rows == m["client"]["rows_received"]
    want = tshark_records(tshark.run(capture, ["-q", "-z", "follow,sqlnet,ascii,0"]).stdout)
    got = [ln.rstrip() for ln in text.splitlines() if ln.strip()]
    assert got == want
    test_gui.check_log(log("wireshark.log"), test_gui.registered_fields(tshark))
