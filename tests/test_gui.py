"""GUI smoke test: the real Wireshark (Qt) with the sqlnet plugin and the
SQLNet profile, under a virtual X server (xvfb-run).

Wireshark opens the demo capture with a display filter on sqlnet.fetch.rows and
sqlnet.rows; the test
waits (bounded) until its window is drawn and stable, takes a screenshot, then
opens Statistics > I/O Graphs (the profile's presets) and takes a second one.
Both must be real pictures, and no other window (an error message box) may be
open. Set SQLNET_SCREENSHOT_DIR to keep the PNGs.

Needs scripts/setup_gui.sh (wireshark-qt, xvfb, xauth, x11-utils, xdotool,
imagemagick); when they are missing, the test runs it once as root and skips
if that does not work.
"""
import os
import shutil
import signal
import struct
import subprocess
from pathlib import Path

import pytest

from tshark import ROOT, TEST_CAPTURES

DEMO = TEST_CAPTURES / "sweep_arraysize.pcapng"
TOOLS = ("wireshark", "xvfb-run", "Xvfb", "xauth", "xdotool", "xwininfo", "import")
WIDTH, HEIGHT = 1400, 800

# Runs inside xvfb-run as the unprivileged user. Every wait is bounded.
DRIVER = r"""#!/bin/sh
export XDG_RUNTIME_DIR="$OUT/xdg"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
wireshark -C SQLNet -r "$CAP" -Y "$FILTER" >"$OUT/wireshark.log" 2>&1 &
WS=$!
trap 'kill $WS 2>/dev/null; sleep 0.5; kill -9 $WS 2>/dev/null' EXIT

visible() {  # visible top-level windows with a name: id "name"
    xwininfo -root -children | sed -n 's/^ *\(0x[0-9a-f]*\) \("[^"]*"\).*/\1 \2/p' |
    while read -r id name; do
        xwininfo -id "$id" | grep -q 'Map State: IsViewable' && echo "$id $name"
    done
}
wait_window() {  # $1: title pattern; up to 15 s
    i=0
    while [ $i -lt 60 ]; do
        w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)
        [ -n "$w" ] && { echo "$w"; return 0; }
        kill -0 $WS 2>/dev/null || return 1
        sleep 0.25; i=$((i + 1))
    done
    return 1
}
settle() {  # $1: window; until two grabs 0.5 s apart are equal, up to 10 s
    i=0
    import -window "$1" -depth 8 "$OUT/prev.ppm"
    while [ $i -lt 20 ]; do
        sleep 0.5
        import -window "$1" -depth 8 "$OUT/cur.ppm"
        cmp -s "$OUT/cur.ppm" "$OUT/prev.ppm" && return 0
        mv "$OUT/cur.ppm" "$OUT/prev.ppm"; i=$((i + 1))
    done
    echo "not stable" >>"$OUT/driver.log"
}

main=$(wait_window "$TITLE") || { echo "no main window" >>"$OUT/driver.log"; exit 3; }
settle "$main"
import -window "$main" "$OUT/main.png"; cp "$OUT/cur.ppm" "$OUT/main.ppm" 2>/dev/null || cp "$OUT/prev.ppm" "$OUT/main.ppm"
xwininfo -id "$main" | sed -n 's/^ *\(Width\|Height\): //p' | tr '\n' ' ' >"$OUT/main.geometry"
visible >"$OUT/main.windows"

# Statistics > I/O Graphs (keyboard: Alt+S, I)
xdotool windowfocus --sync "$main"; sleep 0.3
xdotool key alt+s; sleep 0.5; xdotool key i
iog=$(wait_window "I/O Graphs") || { echo "no I/O graph window" >>"$OUT/driver.log"; exit 4; }
settle "$iog"
import -window "$iog" "$OUT/iograph.png"; cp "$OUT/cur.ppm" "$OUT/iograph.ppm" 2>/dev/null || cp "$OUT/prev.ppm" "$OUT/iograph.ppm"
visible >"$OUT/iograph.windows"
exit 0
"""


def _missing():
    return [t for t in TOOLS if shutil.which(t) is None]


@pytest.fixture(scope="module")
def gui_tools():
    missing = _missing()
    if missing and os.geteuid() == 0 and os.environ.get("SQLNET_GUI_INSTALL", "1") != "0":
        try:
            subprocess.run([str(ROOT / "scripts" / "setup_gui.sh")], capture_output=True, timeout=900)
        except (OSError, subprocess.SubprocessError):
            pass
        missing = _missing()
    if missing:
        pytest.skip(f"GUI tools missing: {' '.join(missing)} (scripts/setup_gui.sh)")


def read_ppm(path):
    """(width, height, rgb bytes) of a binary PPM (P6, maxval 255)."""
    data = path.read_bytes()
    tokens, pos = [], 0
    while len(tokens) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        tokens.append(data[pos:end])
        pos = end
    assert tokens[0] == b"P6" and tokens[3] == b"255", tokens
    w, h = int(tokens[1]), int(tokens[2])
    return w, h, data[pos + 1:pos + 1 + 3 * w * h]


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def assert_real_picture(png, ppm, min_w, min_h):
    w, h = png_size(png)
    assert w >= min_w and h >= min_h, (w, h)
    pw, ph, rgb = read_ppm(ppm)
    assert (pw, ph) == (w, h)
    assert len(rgb) == 3 * w * h
    pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 3 * 7)]  # every 7th pixel
    counts = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    assert len(counts) >= 16, f"only {len(counts)} colours"
    assert max(counts.values()) < 0.9 * len(pixels), "almost uniform"


def window_names(path):
    return [line.split(" ", 1)[1].strip('"') for line in path.read_text().splitlines() if " " in line]


def test_wireshark_gui_screenshot(tshark, gui_tools, tmp_path):
    tshark.install_profile()
    wsdir = tshark.home / ".config" / "wireshark"
    # window geometry and panes for a readable screenshot (recent_common is Wireshark's own file)
    (wsdir / "recent_common").write_text(
        "gui.geometry_main_x: 0\ngui.geometry_main_y: 0\n"
        f"gui.geometry_main_width: {WIDTH}\ngui.geometry_main_height: {HEIGHT}\n"
        "gui.geometry_main_maximized: FALSE\n"
        "gui.byte_view_show: FALSE\ngui.packet_diagram_show: FALSE\n"
        "gui.geometry_main_upper_pane: 480\n"
        "privs.warn_if_elevated: FALSE\nsys.warn_if_no_capture: FALSE\n")
    os.chmod(wsdir / "recent_common", 0o666)
    widths = {"%m": 70, "%t": 95, "%s": 90, "%d": 90, "%p": 65, "%L": 55, "sqlnet.fetch.rows": 80,
              "sqlnet.rows": 50, "sqlnet.sdu": 50, "sqlnet.data.len": 65, "sqlnet.time": 95,
              "sqlnet.sql": 290}
    cols = ",\n".join(f'\t{k}, {v}' if k.startswith("%") else f'\t"%Cus:{k}", {v}'
                      for k, v in widths.items())
    (wsdir / "profiles" / "SQLNet" / "recent").write_text(
        "gui.byte_view_show: FALSE\ngui.packet_diagram_show: FALSE\n"
        "gui.geometry_main_upper_pane: 520\n"
        f"column.width:\n{cols},\n\t%i, 600\n")
    os.chmod(wsdir / "profiles" / "SQLNet" / "recent", 0o666)
    out = Path(tshark.sandbox) / "gui"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    os.chmod(out, 0o777)
    driver = out / "driver.sh"
    driver.write_text(DRIVER)
    os.chmod(driver, 0o755)
    cap = tshark.readable(DEMO)
    cmd = tshark.user_command(
        ["xvfb-run", "-a", "-s", f"-screen 0 {WIDTH}x{HEIGHT}x24 -nolisten tcp", str(driver)],
        env=[f"CAP={cap}", f"OUT={out}", "FILTER=sqlnet.fetch.rows >= 10 || sqlnet.rows >= 10", f"TITLE={cap.name}"])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, cwd=str(out))
    try:
        output, _ = proc.communicate(timeout=50)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        pytest.fail(f"GUI run did not finish in 50 s\n{output}")
    finally:
        try:  # nothing of the run (Xvfb, wireshark) may survive it
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    log = lambda n: (out / n).read_text() if (out / n).exists() else ""
    assert proc.returncode == 0, (proc.returncode, output, log("driver.log"), log("wireshark.log"))

    keep = os.environ.get("SQLNET_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for n in ("main.png", "iograph.png"):
            shutil.copy(out / n, Path(keep) / n)

    w, h = [int(v) for v in (out / "main.geometry").read_text().split()]
    assert (w, h) == png_size(out / "main.png")
    assert_real_picture(out / "main.png", out / "main.ppm", 800, 500)
    assert_real_picture(out / "iograph.png", out / "iograph.ppm", 400, 300)
    # only the main window is open: no message box (profile, preferences, plugin errors)
    assert window_names(out / "main.windows") == [cap.name], log("main.windows")
    names = window_names(out / "iograph.windows")
    assert sorted(names) == sorted([cap.name, f"Wireshark \u00b7 I/O Graphs \u00b7 {cap.name}"]), names
    wlog = log("wireshark.log")
    assert "sqlnet" not in wlog.lower() and "plugin" not in wlog.lower(), wlog
