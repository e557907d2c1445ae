"""Statistics > Flow Graph with the "SQL*Net" flow type and Statistics >
SQL*Net Conversations in Wireshark under Xvfb (tests/test_gui.py's driver and
its helpers: open_item, show_window, copy_rows):
one window per view and capture, widened to 1366 px, screenshots kept
(SQLNET_SCREENSHOT_DIR) and looked at, and what a person reads checked
against the generator's manifest, EXPECTED.json and the tshark form of the
same view.

Evidence: the Flow Graph's own Export as text (what the window draws, in
Wireshark's ASCII form) against the manifest's rows and array sizes,
EXPECTED.json's functions and -z sqlnet,rt's round trips, and equal to
tshark -z flow,sqlnet,standard; the table's rows as Wireshark's Copy gives
them against the manifest / EXPECTED.json (client, server, TNS version, SDU,
user, service, rows) and -z sqlnet,conv.  Follow: 4.0's Analyze > Follow
lists only Wireshark's built-in protocols (docs/views.md); the transcript is
tested in tshark (tests/test_conv_views.py)."""
import csv
import io
import json
import re

import pytest

import test_gui
from tshark import PUBLIC, TEST_CAPTURES
from test_gui import gui_run, keep_screenshots, need_xclip, prepare_config, gui_tools  # noqa: F401
from test_conv_views import flow_arrows, ARRIVING

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
WAN = TEST_CAPTURES / "wan_rtt10_arraysize.pcapng"
REAL = "john/Oracle-1.pcap"

FLOW = r"""
win=$(open_item alt+s "Flow" 18 40)
[ -n "$win" ] || { echo "no flow window" >>"$OUT/driver.log"; exit 6; }
xdotool getwindowname "$win" >"$OUT/flow.title"
xdotool windowsize --sync "$win" 1366 740 2>/dev/null; xdotool windowmove "$win" 0 0; sleep 1
settle "$win"
# Flow type (the combo box in the middle of the bottom row): "SQL*Net"
xdotool mousemove --window "$win" 718 685 click 1; sleep 0.6
xdotool type --delay 80 "SQL*Net"; sleep 0.3; xdotool key Return; sleep 1
settle "$win"
import -window "$win" "$OUT/flow.png"
# Export: the Save dialog (waited for: under load it opens late and a click
# meant for it lands on the graph), files of type ASCII (the dialog is centred
# on the window at 0,0), the name, Save; the file waited for
xdotool mousemove --window "$win" 1142 716 click 1
dlg=$(wait_window "Save Graph" 30) || { import -window root "$OUT/export_failed.png"; echo "no save dialog" >>"$OUT/driver.log"; exit 0; }
settle "$dlg"
xdotool mousemove 673 514 click 1; sleep 0.6
xdotool type --delay 80 "A"; sleep 0.2; xdotool key Return; sleep 0.5
xdotool mousemove 673 483 click 1; sleep 0.3
xdotool type --delay 20 "$OUT/flow_export.txt"; sleep 0.3; xdotool key Return
i=0; while [ $i -lt 120 ] && [ ! -s "$OUT/flow_export.txt" ]; do sleep 0.25; i=$((i + 1)); done
sleep 0.5  # the file is written in one go, but let a slow writer finish
[ -s "$OUT/flow_export.txt" ] || { import -window root "$OUT/export_failed.png"; echo "no export" >>"$OUT/driver.log"; }
exit 0
"""

CONV = r"""
tbl=$(open_item alt+s "SQL*Net Conversations" 8 40)
[ -n "$tbl" ] || { echo "no conversation table" >>"$OUT/driver.log"; exit 6; }
xdotool getwindowname "$tbl" >"$OUT/table.title"
show_window "$tbl" 500 conv.png
copy_rows "$tbl" conv_copy.txt 120
exit 0
"""


def manifest(capture):
    return json.loads(capture.with_suffix(".json").read_text())


CAPTURES = {"sweep": SWEEP, "wan": WAN, "real": PUBLIC / REAL}


def capture_of(kind):
    path = CAPTURES[kind]
    if not path.is_file():
        pytest.skip(f"{path} not present")
    return path


@pytest.mark.parametrize("kind", ["sweep", "wan", "real"])
def test_gui_flow_graph(tshark, gui_tools, kind):
    """The Flow Graph window with the SQL*Net flow type: its export equals
    tshark's -z flow,sqlnet,standard; one arrow per request and per response
    of -z sqlnet,rt; the rows on the answers add up to the manifest's rows
    received; the calls of a real capture are EXPECTED.json's functions."""
    path = capture_of(kind)
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, f"flow_{kind}", path, mode="flow", timeout=150, script=FLOW)
    keep_screenshots(out, ("flow.png", "flow_export.txt", "export_failed.png"), prefix=f"flow_{kind}_")
    assert "Flow" in log("flow.title"), log("driver.log")
    assert test_gui.png_size(out / "flow.png")[0] == 1366
    text = log("flow_export.txt")
    assert text, log("driver.log")
    want = tshark.run(path, ["-q", "-z", "flow,sqlnet,standard"]).stdout
    assert text.strip() == want.strip()
    arrows = flow_arrows(text)
    rt = list(csv.DictReader(io.StringIO(tshark.run(path, ["-q", "-z", "sqlnet,rt,format=csv"]).stdout)))
    assert sum(1 for a in arrows if a[2] == "req") == sum(1 for r in rt if r["request_frame"])
    assert sum(1 for a in arrows if a[2] == "resp") == len(rt)
    if kind == "real":
        want_f = json.loads((PUBLIC / "EXPECTED.json").read_text())[REAL]["conversations"][0]["functions"]
        got = {a[0].split()[0] for a in arrows if a[2] == "req"}
        assert {f.split("(")[0] for f in want_f} <= got
    else:
        m = manifest(path)
        rows = sum(int(ARRIVING.match(a[0]).group(1)) for a in arrows if a[2] == "resp" and ARRIVING.match(a[0]))
        assert rows == m["client"]["rows_received"]
    test_gui.check_log(log("wireshark.log"), test_gui.registered_fields(tshark))


@pytest.mark.parametrize("kind", ["sweep", "real"])
def test_gui_conversations_table(tshark, gui_tools, kind):
    """Statistics > SQL*Net Conversations: the row a person reads (Copy)
    names the manifest's / EXPECTED.json's client, server, TNS version and
    SDU (and the sweep's user, service and rows), and holds the same cells
    as tshark -z sqlnet,conv."""
    need_xclip()
    path = capture_of(kind)
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, f"conv_{kind}", path, mode="conv", timeout=150, script=CONV)
    keep_screenshots(out, ("conv.png", "conv_copy.txt"), prefix=f"conv_{kind}_")
    assert "SQL*Net Conversations" in log("table.title"), log("driver.log")
    assert test_gui.png_size(out / "conv.png")[0] == 1366
    lines = [re.split(r"\s{2,}", ln.strip()) for ln in log("conv_copy.txt").splitlines() if ln.strip()]
    tsv = list(csv.DictReader(io.StringIO(tshark.run(path, ["-q", "-z", "sqlnet,conv,format=csv"]).stdout)))
    assert len(tsv) >= 1
    by_stream = {ln[0]: ln for ln in lines if len(ln) == len(tsv[0]) and ln[0].isdigit()}
    for row in tsv:
        got = by_stream.get(row["tcp_stream"])
        assert got, (row, log("conv_copy.txt"))
        for (col, want), cell in zip(row.items(), got):
            if col.endswith("_ms"):     # the window prints a float with 6 decimals, tshark with 3
                assert float(cell) == float(want), (col, cell, want)
            else:
                assert cell == want, (col, cell, want)
    row = tsv[0]
    if kind == "real":
        want = json.loads((PUBLIC / "EXPECTED.json").read_text())[REAL]["conversations"][0]
        assert (row["client"], row["server"]) == (want["client"], want["server"])
        assert (int(row["tns_version"]), int(row["sdu"])) == (want["accept_version"], want["negotiated_sdu"])
    else:
        m = manifest(path)
        assert row["server"] == f'{m["server"]["address"]}:{m["server"]["port"]}'
        assert int(row["tns_version"]) == m["server"]["tns_version"]
        assert int(row["sdu"]) == m["client"]["sdu_requested"]
        assert int(row["rows"]) == m["client"]["rows_received"]
        assert int(row["statements"]) == len(set(m["client"]["statements"]))
        assert (row["user"], row["service"]) == ("scott", "freepdb1")
    test_gui.check_log(log("wireshark.log"), test_gui.registered_fields(tshark))
