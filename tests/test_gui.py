"""GUI smoke test: the real Wireshark (Qt) with the sqlnet plugin and the
SQLNet profile, under a virtual X server (xvfb-run).

Wireshark opens the demo capture with a display filter on sqlnet.fetch.rows and
sqlnet.rows; the test
waits (bounded) until its window is drawn and stable, takes a screenshot, then
opens Statistics > I/O Graphs (the profile's presets) and takes a second one.
Both must be real pictures, and no other window (an error message box) may be
open. Set SQLNET_SCREENSHOT_DIR to keep the PNGs.

test_io_graph_presets_draw renders every question of the profile's I/O graph
presets (its graphs on) on four captures at an interval picked in the window,
and counts the pixels of each graph's colour in the plot: a flat line at zero
or one slab fails. test_column_widths_survive_quit_and_reinstall lets
Wireshark quit and rewrite the profile's recent, and reads the column widths
from that file and from the rendered header. test_statistics_menu opens the
SQL*Net items of Statistics with the keyboard and checks the titles of the
windows they open. SQLNET_UPDATE_DOCS=1 writes docs/screenshot.png and
docs/io_graphs/*.png from the runs.

Needs scripts/setup_gui.sh (wireshark-qt, xvfb, xauth, x11-utils, xdotool,
imagemagick); when they are missing, the test runs it once as root and skips
if that does not work.
"""
import csv
import io
import os
import re
import shutil
import signal
import struct
import subprocess
from pathlib import Path

import pytest

from tshark import PUBLIC, ROOT, TEST_CAPTURES, staged_plugin

DEMO = TEST_CAPTURES / "sweep_arraysize.pcapng"
TOOLS = ("wireshark", "xvfb-run", "Xvfb", "xauth", "xdotool", "xwininfo", "import")
WIDTH, HEIGHT = 1400, 800
# rows of the packet list header in the main window grab with prepare_config's
# layout (menu, main toolbar, filter toolbar above it; measured on Xvfb, 4.0)
HEADER_ROWS = (94, 113)

# Runs inside xvfb-run as the unprivileged user. Every wait is bounded.
DRIVER = r"""#!/bin/sh
export XDG_RUNTIME_DIR="$OUT/xdg"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
if [ -n "$FILTER" ]; then
    wireshark -C SQLNet $WSOPTS -r "$CAP" -Y "$FILTER" >"$OUT/wireshark.log" 2>&1 &
else
    wireshark -C SQLNet $WSOPTS -r "$CAP" >"$OUT/wireshark.log" 2>&1 &
fi
WS=$!
trap 'kill $WS 2>/dev/null; sleep 0.5; kill -9 $WS 2>/dev/null' EXIT

visible() {  # visible top-level windows with a name: id "name"
    xwininfo -root -children | sed -n 's/^ *\(0x[0-9a-f]*\) \("[^"]*"\).*/\1 \2/p' |
    while read -r id name; do
        xwininfo -id "$id" | grep -q 'Map State: IsViewable' && echo "$id $name"
    done
}
wait_window() {  # $1: title pattern; up to $2 s (default 15)
    i=0
    while [ $i -lt $((${2:-15} * 4)) ]; do
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

open_item() {  # $1: menu key, $2: title, $3: first k, $4: last k, $5: keys after the Downs (a submenu)
    # The menu ($1: alt+s Statistics, alt+a Analyze), Down k times from the
    # top, [$5,] Return, for k = $3 .. $4 until a window whose name holds $2
    # opens; other windows that open are closed again.  Prints the window's
    # id; $OUT/menu.k: the k that opened it.
    names >"$OUT/base.names"
    k=$3; found=; tries=8
    [ -n "${5:-}" ] && tries=12
    while [ $k -le "$4" ] && [ -z "$found" ]; do
        xdotool windowfocus --sync "$main"; sleep 0.2
        xdotool key "$1"; sleep 0.4
        j=0; while [ $j -lt $k ]; do xdotool key Down; j=$((j + 1)); done
        [ -n "${5:-}" ] && { xdotool key $5; sleep 0.5; }
        xdotool key Return
        i=0; new=
        while [ $i -lt $tries ] && [ -z "$new" ]; do
            sleep 0.25; names >"$OUT/now.names"; new=$(comm -13 "$OUT/base.names" "$OUT/now.names"); i=$((i + 1))
        done
        case "$new" in
            *"$2"*) found=$(echo "$new" | grep -F "$2" | head -1 | cut -d' ' -f1); echo "$k" >"$OUT/menu.k";;
            "") xdotool key Escape Escape Escape; sleep 0.2;;
            *) echo "$new" | while read -r id rest; do xdotool windowclose "$id" 2>/dev/null; done; sleep 0.4;;
        esac
        k=$((k + 1))
    done
    echo "$found"
}
open_lua_item() {  # $1: title, $2: last k (Wireshark's eight built-in Statistics items come first)
    open_item alt+s "$1" 8 "$2"
}
show_window() {  # $1: window, $2: height, $3: picture; widened to 1366 px at 0,0, settled, grabbed
    xdotool windowsize --sync "$1" 1366 "$2" 2>/dev/null; xdotool windowmove "$1" 0 0; sleep 1
    settle "$1"
    import -window "$1" "$OUT/$3"
}
copy_rows() {  # $1: window, $2: file, $3: y; right click in the rows, the menu's first item (Copy), xclip
    xdotool windowfocus --sync "$1"; sleep 0.2
    xdotool mousemove --window "$1" 300 "${3:-200}" click 3; sleep 0.5
    xdotool key Down; sleep 0.2; xdotool key Return; sleep 0.5
    xclip -o -selection clipboard >"$OUT/$2" 2>>"$OUT/driver.log"
}
names() { xdotool search --onlyvisible --name '.' 2>/dev/null | while read -r id; do echo "$id $(xdotool getwindowname "$id")"; done | sort; }

main=$(wait_window "$TITLE" 60) || { echo "no main window" >>"$OUT/driver.log"; exit 3; }
settle "$main"
[ -n "$MODE" ] && . "$OUT/$MODE.sh"
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


# MODE=menus: Statistics, Up (wraps to the last item: the plugin's stats tree),
# Return; then Down k times from the top for the Lua items, which Wireshark
# inserts after its own dynamic statistics (k from 8: the eight built-in items
# before the first separator). Each new window's title goes to menu.items.
MENUS = r"""
names() { xdotool search --onlyvisible --name '.' 2>/dev/null | while read -r id; do echo "$id $(xdotool getwindowname "$id")"; done | sort; }
names >"$OUT/base.names"
: >"$OUT/menu.items"
probe() {  # $1: label, $2: keys after Alt+S
    xdotool windowfocus --sync "$main"; sleep 0.2
    xdotool key alt+s; sleep 0.4
    [ "$1" = "k8" ] && import -window root "$OUT/menu.png"
    for key in $2; do xdotool key "$key"; done
    xdotool key Return
    i=0; new=
    while [ $i -lt 8 ] && [ -z "$new" ]; do
        sleep 0.25; names >"$OUT/now.names"
        new=$(comm -13 "$OUT/base.names" "$OUT/now.names"); i=$((i + 1))
    done
    echo "$1|$(echo "$new" | cut -d' ' -f2- | tr '
' '|')" >>"$OUT/menu.items"
    if [ -n "$new" ]; then
        case "$new" in *Advisor*) sleep 0.5; settle "$(echo "$new" | head -1 | cut -d' ' -f1)"
                                  import -window "$(echo "$new" | head -1 | cut -d' ' -f1)" "$OUT/advisor.png";; esac
        echo "$new" | while read -r id rest; do xdotool windowclose "$id" 2>/dev/null; done
        sleep 0.4
    else
        xdotool key Escape Escape; sleep 0.2
    fi
}
probe up "Up"
k=8
while [ $k -le 16 ]; do
    keys=; j=0; while [ $j -lt $k ]; do keys="$keys Down"; j=$((j + 1)); done
    probe "k$k" "$keys"
    [ "$(grep -c 'SQL\*Net' "$OUT/menu.items")" -ge 5 ] && break
    k=$((k + 1))
done
exit 0
"""


# MODE=overview: Statistics, Up (the plugin's stats tree, SQL*Net Overview),
# Return; grab the window when stable and close it; the same again (a second
# tree: its estimate listener was removed with the first), then I/O Graphs (a
# retap of another window while the first trees are gone).
OVERVIEW = r"""
open_overview() {  # $1: name of the grab
    xdotool windowfocus --sync "$main"; sleep 0.2
    xdotool key alt+s; sleep 0.4; xdotool key Up Return
    w=$(wait_window "SQL\*Net Overview") || { echo "no overview window" >>"$OUT/driver.log"; exit 5; }
    sleep 1; settle "$w"
    xdotool windowsize --sync "$w" 1300 780 2>/dev/null; sleep 0.3
    xdotool mousemove --window "$w" 300 300 click --repeat 60 --delay 20 5 2>/dev/null; sleep 0.5; settle "$w"
    import -window "$w" "$OUT/$1.png"
    echo "$1" >>"$OUT/overview.opened"
    xdotool windowclose "$w" 2>/dev/null; sleep 0.5
}
open_overview overview1
open_overview overview2
xdotool windowfocus --sync "$main"; sleep 0.3
xdotool key alt+s; sleep 0.5; xdotool key i
iog=$(wait_window "I/O Graphs") || { echo "no I/O graph window" >>"$OUT/driver.log"; exit 4; }
settle "$iog"
exit 0
"""


# MODE=predict: open SQL*Net Advisor from Statistics (Down k times from the top,
# k from 8, until a window named Advisor opens), grab it, press its Predict...
# button (Tab, Tab, Space from the text), type the array sizes into the dialog's first field, OK, then
# copy the window's text as a user does (click in it, Ctrl+A, Ctrl+C; xclip
# reads the clipboard) into advisor_before.txt / advisor_after.txt.
PREDICT = r"""
adv=$(open_lua_item Advisor 16)
[ -n "$adv" ] || { echo "no advisor window" >>"$OUT/driver.log"; exit 6; }
sleep 0.5; settle "$adv"
copy_text() {  # $1: file
    xdotool windowfocus --sync "$adv"; sleep 0.2
    xdotool mousemove --window "$adv" 200 120 click 1; sleep 0.2
    xdotool key ctrl+a; sleep 0.2; xdotool key ctrl+c; sleep 0.4
    xclip -o -selection clipboard >"$OUT/$1" 2>>"$OUT/driver.log"
}
import -window "$adv" "$OUT/advisor_before.png"
copy_text advisor_before.txt
# the button: from the text (clicked by copy_text), Tab to the Highlight field, Tab to Predict...
xdotool windowfocus --sync "$adv"; sleep 0.2
xdotool mousemove --window "$adv" 200 120 click 1; sleep 0.2
xdotool key Tab; sleep 0.2; xdotool key Tab; sleep 0.2; xdotool key space
dlg=$(wait_window "what to predict") || { echo "no dialog" >>"$OUT/driver.log"; import -window "$adv" "$OUT/nodialog.png"; exit 7; }
xdotool getwindowname "$dlg" >"$OUT/dialog.title"
sleep 0.5
# the first field (the dialog lays out one label and field per row): click in it, type
xdotool windowfocus --sync "$dlg"; sleep 0.2
dw=$(xwininfo -id "$dlg" | sed -n 's/^ *Width: //p')
xdotool mousemove --window "$dlg" $((dw - 100)) 22 click 1; sleep 0.2
xdotool type --delay 30 "$SIZES"; sleep 0.2
# the second field (SDUs), when asked: Tab from the first
if [ -n "${SDUS:-}" ]; then xdotool key Tab; sleep 0.2; xdotool type --delay 30 "$SDUS"; sleep 0.2; fi
# PREFETCH (optional): the third field, two Tabs from the first (one from the second)
if [ -n "${PREFETCH:-}" ]; then
    [ -n "${SDUS:-}" ] || { xdotool key Tab; sleep 0.2; }
    xdotool key Tab; sleep 0.2
    xdotool type --delay 30 "$PREFETCH"; sleep 0.2
fi
import -window "$dlg" "$OUT/dialog.png"
xdotool key Return
sleep 1; settle "$adv"
import -window "$adv" "$OUT/advisor_after.png"
copy_text advisor_after.txt
exit 0
"""


# MODE=advisor_retap: open SQL*Net Advisor as MODE=predict does, then copy its
# text as a user does (click, Ctrl+A, Ctrl+C, xclip) again and again while its
# retap reads the capture (advisor_1.txt, advisor_2.txt ...), until a copy no
# longer says "Reading packets", and once more after that.
ADVISOR_RETAP = r"""
names() { xdotool search --onlyvisible --name '.' 2>/dev/null | while read -r id; do echo "$id $(xdotool getwindowname "$id")"; done | sort; }
names >"$OUT/base.names"
# ADV_K: the Advisor's place in the menu (Down k times), found beforehand on a
# small capture: no other window's retap may run with the Advisor's
xdotool windowfocus --sync "$main"; sleep 0.2
xdotool key alt+s; sleep 0.4
j=0; while [ $j -lt $ADV_K ]; do xdotool key Down; j=$((j + 1)); done
xdotool key Return
adv=; i=0
while [ $i -lt 20 ] && [ -z "$adv" ]; do
    sleep 0.25; names >"$OUT/now.names"
    adv=$(comm -13 "$OUT/base.names" "$OUT/now.names" | grep Advisor | head -1 | cut -d' ' -f1); i=$((i + 1))
done
[ -n "$adv" ] || { echo "no advisor window" >>"$OUT/driver.log"; exit 6; }
n=0; done_=0
while [ $n -lt 120 ]; do
    n=$((n + 1))
    xdotool windowfocus "$adv" 2>/dev/null; sleep 0.1
    xdotool mousemove --window "$adv" 200 120 click 1; sleep 0.1
    xdotool key ctrl+a; sleep 0.1; xdotool key ctrl+c; sleep 0.3
    xclip -o -selection clipboard >"$OUT/advisor_$n.txt" 2>>"$OUT/driver.log"
    if ! grep -q "Reading packets" "$OUT/advisor_$n.txt" && [ -s "$OUT/advisor_$n.txt" ]; then
        done_=$((done_ + 1)); [ $done_ -ge 2 ] && break; sleep 1
    fi
done
exit 0
"""


# MODE=overview_retap: SQL*Net Overview opened and kept open; its text copied
# as a user does (right click in the tree, the context menu's first item,
# Copy; xclip reads the clipboard); then Statistics > I/O Graphs retaps the
# file while the Overview stays open; closed again, and the Overview copied
# once more.
OVERVIEW_RETAP = r"""
copy_tree() {  # $1: window, $2: file
    xdotool windowfocus --sync "$1"; sleep 0.3
    xdotool mousemove --window "$1" 300 200 click 3; sleep 0.5
    xdotool key Down; sleep 0.2; xdotool key Return; sleep 0.5
    xclip -o -selection clipboard >"$OUT/$2" 2>>"$OUT/driver.log"
}
xdotool windowfocus --sync "$main"; sleep 0.2
xdotool key alt+s; sleep 0.4; xdotool key Up Return
ov=$(wait_window "SQL\*Net Overview") || { echo "no overview window" >>"$OUT/driver.log"; exit 5; }
sleep 1; settle "$ov"
copy_tree "$ov" overview_before.txt
xdotool windowfocus --sync "$main"; sleep 0.3
xdotool key alt+s; sleep 0.5; xdotool key i
iog=$(wait_window "I/O Graphs") || { echo "no I/O graph window" >>"$OUT/driver.log"; exit 4; }
settle "$iog"
xdotool windowclose "$iog" 2>/dev/null; sleep 0.5
settle "$ov"
import -window "$ov" "$OUT/overview_after.png"
copy_tree "$ov" overview_after.txt
exit 0
"""


# MODE=quit: the main window grabbed, then File > Quit (Ctrl+Q): Wireshark
# writes the profile's "recent" as it quits; wait (bounded) until it is gone.
# MODE=shot: the main window grabbed (PNG and PPM), the pointer moved away first.
SHOT = r"""
# the pointer off the packet list (a row under it is drawn highlighted)
xdotool mousemove $(xdotool getdisplaygeometry | cut -d' ' -f1) $(xdotool getdisplaygeometry | cut -d' ' -f2); sleep 0.3
settle "$main"
import -window "$main" -depth 8 "$OUT/main.ppm"; import -window "$main" "$OUT/main.png"
xwininfo -id "$main" | sed -n 's/^ *\(Width\|Height\): //p' | tr '\n' ' ' >"$OUT/main.geometry"
exit 0
"""


QUIT = r"""
import -window "$main" -depth 8 "$OUT/main.ppm"; import -window "$main" "$OUT/main.png"
xwininfo -id "$main" | sed -n 's/^ *\(Width\|Height\): //p' | tr '\n' ' ' >"$OUT/main.geometry"
xdotool windowfocus --sync "$main"; sleep 0.3
xdotool key ctrl+q
i=0
while kill -0 $WS 2>/dev/null && [ $i -lt 40 ]; do sleep 0.25; i=$((i + 1)); done
kill -0 $WS 2>/dev/null && echo "still running" >>"$OUT/driver.log"
echo quit >"$OUT/quit.done"
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


def prepare_config(tshark, profile_recent=True, size=(WIDTH, HEIGHT), widths=None):
    """The profile installed, window geometry and panes for readable screenshots
    (recent_common and the profile's recent are Wireshark's own files; the
    column widths are the profile's)."""
    profile = tshark.install_profile()
    wsdir = tshark.home / ".config" / "wireshark"
    (wsdir / "recent_common").write_text(
        "gui.geometry_main_x: 0\ngui.geometry_main_y: 0\n"
        f"gui.geometry_main_width: {size[0]}\ngui.geometry_main_height: {size[1]}\n"
        "gui.geometry_main_maximized: FALSE\n"
        "gui.byte_view_show: FALSE\ngui.packet_diagram_show: FALSE\n"
        "gui.geometry_main_upper_pane: 480\n"
        "privs.warn_if_elevated: FALSE\nsys.warn_if_no_capture: FALSE\n")
    os.chmod(wsdir / "recent_common", 0o666)
    if not profile_recent:
        return profile
    if widths is None:
        widths = (ROOT / "profiles" / "SQLNet" / "recent").read_text().split("column.width:", 1)[1]
    (profile / "recent").write_text(
        "gui.byte_view_show: FALSE\ngui.packet_diagram_show: FALSE\n"
        "gui.geometry_main_upper_pane: 520\n"
        f"column.width:{widths}")
    os.chmod(profile / "recent", 0o666)
    return profile


def registered_fields(tshark):
    out = tshark.run_plain(["-G", "fields"]).stdout
    return {line.split("\t")[2] for line in out.splitlines() if line.startswith("F\t")}


def gui_run(tshark, name, capture, mode=None, dfilter=None, timeout=150, prefs=(), extra_env=(), script=None,
            size=(WIDTH, HEIGHT), again=True):
    """Wireshark under xvfb-run on `capture` with the DRIVER (and MODE script:
    one of this file's, or `script` under the name `mode`); returns (output
    folder, log reader). `timeout` guards against a window that never comes:
    not a speed limit (CI draws while both cores run other tests; an I/O
    graph run took 53 s there once)."""
    out = Path(tshark.sandbox) / name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    os.chmod(out, 0o777)
    driver = out / "driver.sh"
    driver.write_text(DRIVER)
    os.chmod(driver, 0o755)
    if mode:
        (out / f"{mode}.sh").write_text(script if script is not None else {
            "menus": MENUS, "overview": OVERVIEW, "predict": PREDICT, "overview_retap": OVERVIEW_RETAP,
            "quit": QUIT, "shot": SHOT, "iograph_interval": IOGRAPH_INTERVAL, "advisor_retap": ADVISOR_RETAP}[mode])
        os.chmod(out / f"{mode}.sh", 0o755)
    cap = tshark.readable(capture)
    env = [f"CAP={cap}", f"OUT={out}", f"FILTER={dfilter or ''}", f"TITLE={cap.name}", f"MODE={mode or ''}",
           f"WSOPTS={' '.join(prefs)}"] + list(extra_env)
    # xvfb-run -a finds a free display by the lock files in /tmp; a build root
    # (scripts/buildroot.sh) has a /tmp of its own but shares the host's
    # network namespace, where X's abstract sockets live, so each release
    # starts its search at a display number of its own (SQLNET_XVFB_SERVERNUM)
    servernum = os.environ.get("SQLNET_XVFB_SERVERNUM", "99")
    cmd = tshark.user_command(
        ["xvfb-run", "-a", "-n", servernum, "-s", f"-screen 0 {size[0]}x{size[1]}x24 -nolisten tcp", str(driver)],
        env=env)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, cwd=str(out))
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        pytest.fail(f"GUI run did not finish in {timeout} s\n{output}")
    finally:
        try:  # nothing of the run (Xvfb, wireshark) may survive it
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    log = lambda n: (out / n).read_text() if (out / n).exists() else ""
    if proc.returncode != 0 and again and "could not connect to display" in log("wireshark.log"):
        # the X server was not there when Wireshark started (a local CI run
        # under load saw it once): the display's failure, not the window's;
        # the run once more
        return gui_run(tshark, name, capture, mode, dfilter, timeout, prefs, extra_env, script, size, again=False)
    assert proc.returncode == 0, (proc.returncode, output, log("driver.log"), log("wireshark.log"))
    return out, log, cap


def keep_screenshots(out, names, prefix=""):
    keep = os.environ.get("SQLNET_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for n in names:
            if (out / n).exists():
                shutil.copy(out / n, Path(keep) / (prefix + n))


def check_log(wlog, fields):
    """Wireshark's log names neither sqlnet nor a plugin, except a coloring
    rule on sqlnet.response.data_packets while the dissector does not register
    that field yet (issue 13's dissector side): Wireshark then only logs it."""
    lines = [l for l in wlog.splitlines() if "sqlnet" in l.lower() or "plugin" in l.lower()]
    if "sqlnet.response.data_packets" not in fields:
        lines = [l for l in lines if "SQL*Net more data" not in l and "sqlnet.response.data_packets" not in l]
    assert not lines, wlog


def test_wireshark_gui_screenshot(tshark, gui_tools, tmp_path):
    """The main window and the I/O graph window are real pictures and no error
    box opens (evidence: the rendered screen)."""
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "gui", DEMO, dfilter="sqlnet.fetch.rows >= 10 || sqlnet.rows >= 10")
    keep_screenshots(out, ("main.png", "iograph.png"))
    if os.environ.get("SQLNET_UPDATE_DOCS"):      # the picture of README.md and profiles/README.md
        shutil.copy(out / "main.png", ROOT / "docs" / "screenshot.png")
    w, h = [int(v) for v in (out / "main.geometry").read_text().split()]
    assert (w, h) == png_size(out / "main.png")
    assert_real_picture(out / "main.png", out / "main.ppm", 800, 500)
    assert_real_picture(out / "iograph.png", out / "iograph.ppm", 400, 300)
    # only the main window is open: no message box (profile, preferences, plugin errors)
    assert window_names(out / "main.windows") == [cap.name], log("main.windows")
    names = window_names(out / "iograph.windows")
    assert sorted(names) == sorted([cap.name, f"Wireshark \u00b7 I/O Graphs \u00b7 {cap.name}"]), names
    check_log(log("wireshark.log"), registered_fields(tshark))


def recent_width_pairs(text):
    """[(column, width)] of the column.width block of a recent file."""
    m = re.search(r"^column\.width:.*\n((?:[ \t].*\n?)*)", text, re.M)
    assert m, text
    return [(f, int(w.split(":")[0])) for _, f, w in re.findall(r'("?)(%[^",]+)\1,\s*(-?\d+(?::\w)?)', m.group(1))]


def header_separators(ppm, y0, y1):
    """x of the packet list header's section borders: columns of pixels that
    are darker than the header's background over most of the header's rows
    (y0..y1)."""
    w, h, rgb = read_ppm(ppm)
    xs = []
    for x in range(w):
        dark = 0
        for y in range(y0, y1):
            r, g, b = rgb[3 * (y * w + x):3 * (y * w + x) + 3]
            dark += (r + g + b) < 3 * 225
        if dark >= 0.9 * (y1 - y0):
            xs.append(x)
    return xs


def test_column_widths_survive_quit_and_reinstall(tshark, gui_tools):
    """The profile installed into a fresh profile folder; Wireshark opens the
    demo capture and quits (File > Quit), writing the profile's recent: every
    column keeps the profile's width (4.0 wrote -1 for every sqlnet column of
    the old ":0:R" names, which it never matched). Then the widths of two
    columns set to -1 as Wireshark wrote them, the profile reinstalled: the
    widths are back, Wireshark opens again and its packet list header has a
    border at the end of each column of the profile's widths (the SQL column
    as wide as the profile says, not the 10 digits Wireshark gives a custom
    column without a width). Evidence: Wireshark's own recent file and the rendered header."""
    shutil.rmtree(tshark.home / ".config" / "wireshark" / "profiles" / "SQLNet", ignore_errors=True)
    profile = prepare_config(tshark, profile_recent=False)
    want = recent_width_pairs((ROOT / "profiles" / "SQLNet" / "recent").read_text())
    out, log, cap = gui_run(tshark, "quit1", DEMO, mode="quit", dfilter="sqlnet.rows >= 10")
    assert log("quit.done"), log("driver.log")
    written = (profile / "recent").read_text()
    got = recent_width_pairs(written)
    assert [f for f, _ in got] == [f for f, _ in want], written
    assert got[:-1] == want[:-1], written        # Info, the last, stretches to the window
    assert all(w > 0 for _, w in got), written
    # widths Wireshark wrote as -1, repaired by a reinstall
    sql_w, no_w = dict(want)["%Cus:sqlnet.sql"], dict(want)["%m"]
    broken = written.replace(f'"%Cus:sqlnet.sql", {sql_w}', '"%Cus:sqlnet.sql", -1').replace(f"%m, {no_w}", "%m, -1")
    assert broken != written
    (profile / "recent").write_text(broken)
    tshark.install_profile()
    assert recent_width_pairs((profile / "recent").read_text()) == want
    out, log, cap = gui_run(tshark, "quit2", DEMO, mode="quit", dfilter="sqlnet.rows >= 10")
    keep_screenshots(out, ("main.png",), prefix="columns_")
    assert recent_width_pairs((profile / "recent").read_text())[:-1] == want[:-1]
    w, h, _ = read_ppm(out / "main.ppm")
    # the packet list's scroll bar (its overview of the rows' colours) is left out
    seps = [s for s in header_separators(out / "main.ppm", *HEADER_ROWS) if s < w - 60]
    edges, x = [], 0
    for _, width in want[:-1]:
        x += width
        edges.append(x)
    assert seps and len(seps) < 40, seps
    for e in edges:
        if e < w - 60:
            assert any(abs(s - e) <= 2 for s in seps), (e, seps)
    # the SQL column (from the edge before it) runs to Info's, on screen, with no border between
    assert edges[-1] < w - 60
    assert not [s for s in seps if edges[-2] + 3 < s < edges[-1] - 3], (edges[-2], seps)
    check_log(log("wireshark.log"), registered_fields(tshark))


def header_band(ppm):
    """(first, end) rows of the packet list header, measured on the picture:
    between the two-row grey border above it (183/184 on 4.0 and 4.4) and the
    one-row grey line under it (171): 4.0 draws it at 94..113, 4.4 at 88..104."""
    w, h, rgb = read_ppm(ppm)

    def grey_row(y, lo, hi):
        n = 0
        for x in range(0, w, 4):
            r, g, b = rgb[3 * (y * w + x):3 * (y * w + x) + 3]
            n += r == g == b and lo <= r <= hi
        return n >= 0.9 * len(range(0, w, 4))
    for y in range(40, min(h, 250)):
        if grey_row(y, 165, 177):
            top = max(t for t in range(30, y) if grey_row(t, 180, 188))
            return top + 1, y
    raise AssertionError(f"{ppm}: no packet list header found")


def profile_widths():
    """[(column name as in recent, width)] of the profile's recent, in order."""
    return recent_width_pairs((ROOT / "profiles" / "SQLNet" / "recent").read_text())


def widths_block(pairs):
    return "\n" + ",\n".join(f"\t{f if f.startswith('%') and not f.startswith('%Cus') else chr(34) + f + chr(34)}, {w}"
                              for f, w in pairs) + "\n"


# the columns whose values must show unelided: the longest call name
# ("OEXFEN (re-execute and fetch)", as long as the longest of the function
# table), SDU 2097152, and the numbers
UNELIDED = ("%m", "%Cus:sqlnet.call", "%Cus:sqlnet.array_size", "%Cus:sqlnet.rt.wait", "%Cus:sqlnet.ora",
            "%Cus:sqlnet.sdu")


@pytest.mark.parametrize("size", [(1366, 768), (1600, 900)], ids=["1366x768", "1600x900"])
def test_columns_fit_a_laptop_screen(tshark, gui_tools, tmp_path, size):
    """Issue 34 symptom 9: at 1366 and 1600 px the profile's packet list has
    Info on screen (its header's left border at the sum of the other widths,
    at least 100 px before the window's right edge), and the call name, SDU
    2097152, array size, wait, ORA and frame number cells show whole: the same pixels as in
    a run where those columns are 60 px wider (the call's 224 px wider; Qt
    elides a text that does not fit with "\u2026", which changes them).
    Captures: SDU 2097152 (sdu_2097152_mtu_1500), OEXFEN (cursor_reexec) and
    the demo (frame 2100), concatenated. Evidence: the rendered window."""
    cap = tmp_path / "fit.pcapng"
    subprocess.run(["mergecap", "-a", "-w", str(cap), str(TEST_CAPTURES / "sdu_2097152_mtu_1500.pcapng"),
                    str(TEST_CAPTURES / "cursor_reexec.pcapng"), str(DEMO)], check=True)
    cap.chmod(0o644)
    # the last row: a 4-digit frame number beside the related-packet mark of No.
    dfilter = "sqlnet.call == 78 || (sqlnet.sdu == 2097152 && sqlnet.call) || (sqlnet.ora && frame.number < 200)" \
              " || frame.number == 2100"
    want = profile_widths()
    prepare_config(tshark, size=size)
    out, log, _ = gui_run(tshark, f"fit{size[0]}", cap, mode="shot", dfilter=dfilter, size=size, timeout=150)
    keep_screenshots(out, ("main.png",), prefix=f"fit{size[0]}_")
    w, h, rgb = read_ppm(out / "main.ppm")
    assert w <= size[0]
    edges, x = [], 0
    for _, width in want[:-1]:
        x += width
        edges.append(x)
    info_left = edges[-1]
    assert info_left <= w - 100, (info_left, w)
    seps = header_separators(out / "main.ppm", *header_band(out / "main.ppm"))
    assert any(abs(s - info_left) <= 2 for s in seps), (info_left, seps)
    # the reference: the checked columns wider, Source and Destination narrower (same screen)
    wider = [(f, wd + (224 if f == "%Cus:sqlnet.call" else 60) if f in UNELIDED else
              (60 if f in ("%s", "%d") else wd)) for f, wd in want]
    prepare_config(tshark, size=(1600, 900), widths=widths_block(wider))
    ref, _, _ = gui_run(tshark, "fitref", cap, mode="shot", dfilter=dfilter, size=(1600, 900), timeout=150)
    keep_screenshots(ref, ("main.png",), prefix="fitref_")
    rw, rh, rrgb = read_ppm(ref / "main.ppm")

    def left(pairs, name):
        return sum(wd for f, wd in pairs[:[f for f, _ in pairs].index(name)])
    def same(y0, y1, x0, rx0, width, skip=0):
        """the cell's pixels equal the reference's, x0 and rx0 their left
        edges (the first `skip` pixels left out)"""
        return all(rgb[3 * (y * w + x):3 * (y * w + x) + 3] == rrgb[3 * (y * rw + rx0 + x - x0):3 * (y * rw + rx0 + x - x0) + 3]
                   for y in range(y0, y1) for x in range(x0 + 1 + skip, x0 + width - 2))
    rows_end = min(h, rh, 430)
    band = header_band(out / "main.ppm")
    assert band == header_band(ref / "main.ppm")
    for name in UNELIDED:
        x0, rx0 = left(want, name), left(wider, name)
        width, rwidth = dict(want)[name], dict(wider)[name]
        # No.: its left 22 px hold the related-packet marks, drawn to the column's width
        skip = 22 if name == "%m" else 0
        # the header's title is left-aligned
        assert same(band[0], band[1], x0, rx0, width, skip), (name, size, "header")
        # a value: left-aligned (text) or right-aligned (numbers): one of the two
        y = band[1] + 2
        assert (same(y, rows_end, x0, rx0, width, skip) or
                same(y, rows_end, x0, rx0 + rwidth - width, width, skip)), (name, size)
    check_log(log("wireshark.log"), registered_fields(tshark))


# MODE=expert: the status bar's expert indicator (its left end) clicked: the
# Expert Information dialog opens; grabbed when stable.
EXPERT = r"""
mh=$(xwininfo -id "$main" | sed -n 's/^ *Height: //p')
xdotool mousemove --window "$main" 16 $((mh - 11)) click 1; sleep 0.5
ex=$(wait_window "Expert Information") || { echo "no expert window" >>"$OUT/driver.log"; import -window "$main" "$OUT/noexpert.png"; exit 8; }
sleep 1; settle "$ex"
import -window "$ex" "$OUT/expert.png"
visible >"$OUT/expert.windows"
exit 0
"""


def test_expert_info_groups_ora_errors_by_number(tshark, gui_tools):
    """Issue 34, symptom 7: Analyze > Expert Information (opened from the
    status bar) on a capture with ORA-01722, in its default view (grouped by
    summary): the window opens without an error box, and its picture is kept
    (SQLNET_SCREENSHOT_DIR) to be looked at: the group line reads
    "ORA-01722: invalid number" (the expert field's registered summary,
    tests/test_user_names.py checks the registration). Evidence: the rendered
    window."""
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "expert", TEST_CAPTURES / "error_midfetch.pcapng", mode="expert",
                            script=EXPERT, timeout=90)
    keep_screenshots(out, ("expert.png",), prefix="ora_")
    assert (out / "expert.png").exists(), log("driver.log")
    names = window_names(out / "expert.windows")
    assert any("Expert Information" in n for n in names), names
    assert len(names) == 2, names
    check_log(log("wireshark.log"), registered_fields(tshark))


def io_graph_rows():
    lines = [l for l in (ROOT / "profiles" / "SQLNet" / "io_graphs").read_text().splitlines()
             if l.strip() and not l.startswith("#")]
    return [next(csv.reader(io.StringIO(l), doublequote=False, escapechar="\\")) for l in lines]


def graph_pixels(ppm, color):
    """(x, y) of the pixels of `color` (#RRGGBB) in the plot area of the I/O
    graph window: its upper part, above the graph table (whose colour swatches
    must not count), below the title. Lines are antialiased: a pixel counts when
    it is the colour blended with the white background at 40% or more."""
    w, h, rgb = read_ppm(ppm)
    want = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
    strong = [c for c in range(3) if 255 - want[c] >= 40]
    pts = []
    for y in range(int(h * 0.08), int(h * 0.70)):
        row = y * w * 3
        for x in range(w):
            p = rgb[row + 3 * x:row + 3 * x + 3]
            if p == b"\xff\xff\xff":
                continue
            alphas = [(255 - p[c]) / (255 - want[c]) for c in strong]
            if (min(alphas) >= 0.4 and max(alphas) - min(alphas) <= 0.15 and
                    all(abs(p[c] - want[c]) <= 30 for c in range(3) if c not in strong)):
                pts.append((x, y))
    return pts


def assert_graph_drawn(pts, w, label):
    """Not a flat line, not one slab, not just the legend's sample: the
    graph's pixels span several columns across the plot, and the tops of those
    columns (the values) take several heights."""
    assert len(pts) >= 20, f"{label}: {len(pts)} pixels of its colour"
    xs = {x for x, _ in pts}
    top = {}
    for x, y in pts:
        top[x] = min(y, top.get(x, y))
    assert max(xs) - min(xs) >= w * 0.3, f"{label}: drawn over {max(xs) - min(xs)} px of {w}"
    heights = set(top.values())
    assert len(heights) >= 3, f"{label}: column tops at {sorted(heights)} only"
    rows = {y for _, y in pts}
    assert len(rows) > 1


PRESETS = io_graph_rows()


def questions():
    """{"Q1": [rows of its graphs]} in the profile's order: a preset's name
    starts with its question."""
    out = {}
    for r in PRESETS:
        out.setdefault(r[1].split()[0], []).append(r)
    return out


# The captures every question is drawn on, with the interval that gives each
# a few dozen points (its length / 30 to 60), picked in the window as a user
# does: the Interval box's list, Up/Down from "1 sec", Return.
IO_CAPTURES = {
    "sweep": (DEMO, "5 ms"),                                   # 0.18 s, nine array sizes
    "wan": (TEST_CAPTURES / "wan_rtt10_arraysize.pcapng", "20 ms"),   # 0.78 s, 10 ms RTT
    "jdbc": (PUBLIC / "dbbat" / "jdbc_thin_cursor_reexec.pcapng", "10 ms"),  # 0.42 s, 7 round trips
    "sqlplus11g": (PUBLIC / "visblank" / "sqlplus11g_linux32_vs_11.2_full_session.pcapng", "5 sec"),  # 251 s
}
# Wireshark 4.0's Interval box (ui/qt/io_graph_dialog.cpp; strings of the binary)
INTERVALS = ["1 ms", "2 ms", "5 ms", "10 ms", "20 ms", "50 ms", "100 ms", "200 ms", "500 ms",
             "1 sec", "2 sec", "5 sec", "10 sec", "1 min", "10 min"]

# MODE=iograph_interval: open I/O Graphs, click the Interval box (its place in
# the dialog's bottom row: $IVX from the left, $IVY from the bottom), move to
# the wanted interval ($IVKEYS), Return; grab.
IOGRAPH_INTERVAL = r"""
xdotool windowfocus --sync "$main"; sleep 0.3
xdotool key alt+s; sleep 0.5; xdotool key i
iog=$(wait_window "I/O Graphs") || { echo "no I/O graph window" >>"$OUT/driver.log"; exit 4; }
sleep 1; settle "$iog"
dh=$(xwininfo -id "$iog" | sed -n 's/^ *Height: //p')
xdotool mousemove --window "$iog" "$IVX" $((dh - IVY)) click 1; sleep 0.6
for k in $IVKEYS; do xdotool key "$k"; sleep 0.05; done
xdotool key Return; sleep 1
settle "$iog"
import -window "$iog" -depth 8 "$OUT/iograph.ppm"
import -window "$iog" "$OUT/iograph.png"
exit 0
"""


# Where each release's I/O Graphs dialog (at its default size) has the Interval
# box: x from the left, y from the bottom. Measured on the rendered windows
# (test_wireshark_gui_screenshot's iograph.png, SQLNET_SCREENSHOT_DIR): 4.4
# adds the move up/down buttons to the bottom row, 4.6 moves Time of day and
# Log scale out of it.
INTERVAL_BOX = {"4.0": (417, 55), "4.4": (458, 53), "4.6": (595, 53)}


def interval_keys(interval):
    d = INTERVALS.index(interval) - INTERVALS.index("1 sec")
    return " ".join(["Down"] * d if d > 0 else ["Up"] * -d)


def io_stat_peaks(tshark, capture, interval, rows):
    """{graph name: its largest value per interval}, from tshark -z io,stat at
    the same interval with the same calculation (COUNT FIELDS is io,stat's
    COUNT of the field)."""
    n, unit = interval.split()
    secs = float(n) * {"ms": 0.001, "sec": 1, "min": 60}[unit]
    calcs = []
    for r in rows:
        fn = r[5].split("(")[0].replace("COUNT FIELDS", "COUNT")
        calcs.append(f"{fn}({r[6]}){r[6]}" + (f" && {r[2]}" if r[2] else ""))   # the graph's display filter
    out = tshark.run(capture, ["-q", "-z", f"io,stat,{secs:g}," + ",".join(calcs)]).stdout
    peaks = {r[1]: 0.0 for r in rows}
    for line in out.splitlines():
        if "<>" not in line:
            continue
        vals = [v.strip() for v in line.split("|")[2:2 + len(rows)]]
        for r, v in zip(rows, vals):
            peaks[r[1]] = max(peaks[r[1]], float(v or 0))
    return peaks


@pytest.mark.parametrize("capture", list(IO_CAPTURES))
@pytest.mark.parametrize("question", list(questions()))
def test_io_graph_presets_draw(tshark, gui_tools, question, capture):
    """Each question of the profile's I/O graph presets (its graphs on, the
    others off) drawn on two generated captures (the demo sweep, the 10 ms WAN
    sweep) and two real ones (JDBC thin against 23ai; the SQL*Plus 11g
    session), at an interval that gives a few dozen points. On the generated
    ones and the SQL*Plus session every graph varies (graph_pixels /
    assert_graph_drawn); on the JDBC capture (7 round trips) each graph is
    drawn at all. Evidence: the rendered window's pixels of each graph's
    colour. SQLNET_UPDATE_DOCS=1 keeps the pictures in docs/io_graphs/."""
    path, interval = IO_CAPTURES[capture]
    if not path.exists():
        pytest.skip(f"{path} missing (SQLNET_CORPUS)")
    release = staged_plugin().parent.parent.name
    if release not in INTERVAL_BOX:
        pytest.skip(f"Wireshark {release}: where its I/O Graphs dialog has the Interval box is not measured yet")
    ivx, ivy = INTERVAL_BOX[release]
    if os.environ.get("SQLNET_GUI_IO_CAPTURES") and capture not in os.environ["SQLNET_GUI_IO_CAPTURES"].split(","):
        # the build roots (scripts/buildroot.sh) draw every question on fewer
        # captures: CI runs them beside the host suite, which draws them all
        pytest.skip(f"{capture}: not among SQLNET_GUI_IO_CAPTURES")
    if os.environ.get("SQLNET_GUI_IO_QUESTIONS") and question not in os.environ["SQLNET_GUI_IO_QUESTIONS"].split(","):
        # the build roots draw three questions (dots, two averages, three sums)
        # to keep CI short; ./run.sh test in a build root draws all ten
        pytest.skip(f"{question}: not among SQLNET_GUI_IO_QUESTIONS")
    rows = questions()[question]
    fields = registered_fields(tshark)
    missing = sorted({r[6] for r in rows if r[6] and r[6] not in fields})
    if missing:
        pytest.skip(f"not registered by this build yet: {', '.join(missing)}")
    profile = prepare_config(tshark)
    # the question's presets alone (the graph table then lists them), all on
    only = [["Enabled"] + r[1:] for r in rows]
    (profile / "io_graphs").write_text("".join(",".join(f'"{v}"' for v in r) + "\n" for r in only))
    peaks = io_stat_peaks(tshark, path, interval, rows)
    out, log, cap = gui_run(tshark, f"iog_{question}_{capture}", path, mode="iograph_interval",
                            extra_env=[f"IVKEYS={interval_keys(interval)}", f"IVX={ivx}", f"IVY={ivy}"])
    keep_screenshots(out, ("iograph.png",), prefix=f"{question}_{capture}_")
    if os.environ.get("SQLNET_UPDATE_DOCS"):
        docs = ROOT / "docs" / "io_graphs"
        docs.mkdir(exist_ok=True)
        # the plot and the graph table, 256 colours: small enough for the repository
        subprocess.run(["convert", str(out / "iograph.png"), "-crop", "902x570+0+0", "+repage",
                        "-colors", "64", "-strip", str(docs / f"{question.lower()}_{capture}.png")], check=True)
    w, h, _ = read_ppm(out / "iograph.ppm")
    top = max(peaks.values())
    assert top > 0, peaks
    for r in rows:
        pts = graph_pixels(out / "iograph.ppm", r[3])
        if capture == "jdbc" or peaks[r[1]] < 0.03 * top:
            # few points, or flat at the scale of the question's largest graph
            # (tshark's io,stat at the same interval says so): drawn at all
            assert len(pts) >= 8, f"{r[1]} on {capture}: {len(pts)} pixels"
        else:
            assert_graph_drawn(pts, w, f"{r[1]} on {capture}")
    check_log(log("wireshark.log"), fields)


def test_statistics_menu(tshark, gui_tools):
    """Statistics holds SQL*Net Overview (the C stats tree), SQL*Net Advisor and
    Array sizes (Lua), SQL*Net Conversations and SQL*Net Statements (the C
    tables, conv_table.c and stmt_table.c), next to each other, one item per window (issue 34: one statement table); each opens a window
    titled with its name. Evidence: the windows the rendered menu opens, found
    by keyboard navigation (xdotool) and their titles."""
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "menus", DEMO, mode="menus", timeout=150)
    keep_screenshots(out, ("menu.png", "advisor.png"))
    opened = {}
    for line in log("menu.items").splitlines():
        label, _, titles = line.partition("|")
        opened[label] = [t for t in titles.split("|") if t]
    up = opened.get("up", [])
    assert up == [f"Wireshark \u00b7 SQL*Net Overview \u00b7 {cap.name}"], opened
    lua = {}
    for label, titles in opened.items():
        for t in titles:
            if "SQL*Net" in t and label.startswith("k"):
                lua[t] = int(label[1:])
    want = ["SQL*Net Advisor", "SQL*Net Array sizes", "SQL*Net Conversations", "SQL*Net Statements"]
    found = {w: k for t, k in lua.items() for w in want if w in t}
    assert set(found) == set(want), opened
    assert sorted(found.values()) == list(range(min(found.values()), min(found.values()) + len(want))), found
    w, h = png_size(out / "advisor.png")
    assert w >= 200 and h >= 100
    check_log(log("wireshark.log"), registered_fields(tshark))


def need_xclip():
    """xclip reads back the text a window copies; installed by scripts/setup_gui.sh."""
    if shutil.which("xclip") is None:
        if os.geteuid() == 0 and os.environ.get("SQLNET_GUI_INSTALL", "1") != "0":
            subprocess.run([str(ROOT / "scripts" / "setup_gui.sh")], capture_output=True, timeout=900)
        if shutil.which("xclip") is None:
            pytest.skip("xclip missing (scripts/setup_gui.sh)")


def prediction_rows(text):
    """{array size: the row's columns} of every 'predicted by array size' table."""
    rows, on = {}, False
    for line in text.splitlines():
        if "predicted by array size" in line:
            on = True
            continue
        if on and re.match(r"\s+\d+\s+\d+\s+\d+", line):
            cols = line.split()
            rows.setdefault(int(cols[0]), []).append(" ".join(cols[:7]))
        elif on and not line.startswith("  array size "):
            on = False
    return rows


def test_advisor_predicts_the_sizes_asked(tshark, gui_tools):
    """Statistics > SQL*Net Advisor, its Predict... button, array sizes 1,7,250
    typed into the dialog: the window then predicts those array sizes, with the
    same rows as `-z sqlnet,advise,sizes=1,7,250` prints (issue 14: predictions
    at the sizes a user asks for, in the GUI too), and before it, the usual
    sizes without 7 or 250. Evidence: the rendered window's text, copied with
    the keyboard as a user does (xclip reads the clipboard), and the dialog."""
    need_xclip()
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "predict", DEMO, mode="predict", timeout=150,
                            extra_env=["SIZES=1,7,250"])
    keep_screenshots(out, ("advisor_before.png", "dialog.png", "advisor_after.png"))
    assert "what to predict" in log("dialog.title"), log("driver.log")
    before, after = log("advisor_before.txt"), log("advisor_after.txt")
    assert "SQL*Net array-size and SDU advisor" in before, (before[:300], log("driver.log"))
    cli = tshark.run(DEMO, ["-q", "-z", "sqlnet,advise,sizes=1,7,250"]).stdout
    want, got = prediction_rows(cli), prediction_rows(after)
    assert {1, 7, 250} <= set(got), sorted(got)
    for a in (1, 7, 250):
        assert got[a] == want[a], (a, got[a], want[a])
    assert not {7, 250} & set(prediction_rows(before)), sorted(prediction_rows(before))
    check_log(log("wireshark.log"), registered_fields(tshark))


def test_advisor_predict_prefetch_override(tshark, gui_tools):
    """The Predict... dialog's third field, prefetch: "fixed" typed into it on
    a capture where every execute brought as many rows as its fetches ask
    (prefetch_tied_19_python, the client's prefetchrows = arraysize): the window
    said "tied to the array size" before, then "kept as given: prefetch=fixed"
    and the rows `-z sqlnet,advise,sizes=...,prefetch=fixed` prints (issue 23:
    the override in the GUI too)."""
    need_xclip()
    prepare_config(tshark)
    cap = TEST_CAPTURES / "prefetch_tied_19_python.pcapng"
    out, log, _ = gui_run(tshark, "predict_prefetch", cap, mode="predict", timeout=150,
                          extra_env=["SIZES=3,8,20,50", "PREFETCH=fixed"])
    keep_screenshots(out, ("advisor_before.png", "dialog.png", "advisor_after.png"))
    before, after = log("advisor_before.txt"), log("advisor_after.txt")
    assert "  prefetch: tied to the array size (seen: " in before, (before[:600], log("driver.log"))
    assert "  prefetch: kept as given: prefetch=fixed" in after and "tied to the array size" not in after, \
        after[:600]
    cli = tshark.run(cap, ["-q", "-z", "sqlnet,advise,sizes=3,8,20,50,prefetch=fixed"]).stdout
    want, got = prediction_rows(cli), prediction_rows(after)
    assert set(want) == set(got) == {3, 8, 20, 50}
    for a in want:
        assert got[a] == want[a], (a, got[a], want[a])


def sdu_lines(text):
    """The SDU tables' rows and the SDU advice lines of an advisor text."""
    return [l.rstrip() for l in text.splitlines()
            if re.match(r"\s+\d+\s+\d+\s+\d+\s+\d+\.\.\d+\s", l) or l.startswith(("  SDU", "Connection "))]


def test_advisor_predicts_the_sdus_asked(tshark, gui_tools):
    """The Predict... dialog's SDU field (issue 23 point 7): SDUs 1024,3000
    typed into it, the window's per-connection SDU tables and advice are what
    `-z sqlnet,advise,sizes=1,7,250,sdus=1024,3000` prints, and differ from
    the window's before."""
    need_xclip()
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "predict_sdus", DEMO, mode="predict", timeout=150,
                            extra_env=["SIZES=1,7,250", "SDUS=1024,3000"])
    keep_screenshots(out, ("advisor_before.png", "dialog.png", "advisor_after.png"))
    before, after = log("advisor_before.txt"), log("advisor_after.txt")
    assert "SQL*Net array-size and SDU advisor" in after, (after[:300], log("driver.log"))
    cli = tshark.run(DEMO, ["-q", "-z", "sqlnet,advise,sizes=1,7,250,sdus=1024,3000"]).stdout
    assert sdu_lines(cli) and sdu_lines(after) == sdu_lines(cli)
    assert any(re.match(r"\s+3000\s", l) for l in sdu_lines(after))
    assert not any(re.match(r"\s+3000\s", l) for l in sdu_lines(before))
    check_log(log("wireshark.log"), registered_fields(tshark))


def test_advisor_shows_no_partial_counts(tshark, gui_tools, tmp_path):
    """Statistics > SQL*Net Advisor on a large capture (40 sessions, the
    generated sweeps each on its own client port: bench/advise_bench.py): while
    the window's retap reads the capture, Wireshark draws the listeners every
    few seconds; the window says "Reading packets ..." then, never counts of
    part of the capture, and at the end shows what `-z sqlnet,advise` prints.
    Evidence: the window's text copied as a user does (xclip), many times
    during the retap, against tshark's own run."""
    need_xclip()
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    import advise_bench
    capture = tmp_path / "advise_40.pcapng"
    advise_bench.build_capture(capture, 40)
    prepare_config(tshark)
    # where the Advisor is in the Statistics menu (test_statistics_menu's walk, on the small demo)
    out, log, _ = gui_run(tshark, "menus_for_advisor", DEMO, mode="menus", timeout=150)
    k = next((label[1:] for label, _, titles in (l.partition("|") for l in log("menu.items").splitlines())
              if label.startswith("k") and "SQL*Net Advisor" in titles), None)
    assert k, log("menu.items")
    out, log, cap = gui_run(tshark, "advisor_retap", capture, mode="advisor_retap", timeout=300,
                            extra_env=[f"ADV_K={k}"])
    copies = []
    for i in range(1, 200):
        if not (out / f"advisor_{i}.txt").exists():
            break
        copies.append(log(f"advisor_{i}.txt").strip())
    cli = tshark.run(capture, ["-q", "-z", "sqlnet,advise"]).stdout.strip()
    assert cli.count("\nStatement ") >= 5, cli[:400]
    assert copies and copies[-1] == cli, (len(copies), copies[-1][:400] if copies else "", log("driver.log"))
    for text in copies:
        # (an empty clipboard is a copy that did not happen: on a loaded
        # machine the keys can reach the window before it takes the focus;
        # it shows nothing of what the window said)
        assert text in ("", cli) or text == "SQL*Net Advisor: Reading packets ... (the numbers appear when the " \
            "capture has been read)", text[:400]
    assert sum(1 for text in copies if text) >= len(copies) // 2, "most copies empty"
    check_log(log("wireshark.log"), registered_fields(tshark))


@pytest.mark.parametrize("kind", ["nne", "tls"])
def test_overview_with_estimates(tshark, gui_tools, tmp_path, kind):
    """Statistics > SQL*Net Overview on encrypted traffic (a hand-built native
    network encryption capture, tests/test_nne_estimate.py; a TCPS capture
    without its secrets and sqlnet.tls_estimate on): the window opens twice in
    a row (the tree's second listener on the estimate tap is registered by its
    init and removed with the tree), another window's retap follows, and
    Wireshark logs nothing about sqlnet or a tap listener (evidence: the
    windows and Wireshark's log; SQLNET_SCREENSHOT_DIR keeps the grabs)."""
    prefs = ()
    if kind == "nne":
        import test_nne_estimate
        capture = tmp_path / "nne_estimate.pcap"
        test_nne_estimate.build(capture)
    else:
        import test_tls
        capture = tmp_path / "tls13_arraysize_nosecrets.pcapng"
        capture.write_bytes(test_tls.discard_secrets((TEST_CAPTURES / "tls13_arraysize.pcapng").read_bytes()))
        prefs = ("-o", "sqlnet.tls_estimate:TRUE")
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, f"overview_{kind}", capture, mode="overview", timeout=150, prefs=prefs)
    keep_screenshots(out, ("overview1.png", "overview2.png"), prefix=f"{kind}_")
    assert log("overview.opened").split() == ["overview1", "overview2"], log("driver.log")
    for n in ("overview1.png", "overview2.png"):
        w, h = png_size(out / n)
        assert w >= 200 and h >= 100
    wlog = log("wireshark.log")
    assert "tap" not in wlog.lower(), wlog
    check_log(wlog, registered_fields(tshark))


def test_overview_estimate_survives_another_retap(tshark, gui_tools):
    """SQL*Net Overview on a native network encryption capture (nne_goora: go-ora
    against the scripted server) stays open while Statistics > I/O Graphs retaps
    the file: the Overview's estimate part, copied before and after as a user
    copies it (context menu Copy, read back with xclip), counts the round trips
    once, as `-z sqlnet,tree` does, not twice. Evidence: the window's text and
    tshark's tree."""
    need_xclip()
    capture = TEST_CAPTURES / "nne_goora.pcapng"
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "overview_retap", capture, mode="overview_retap", timeout=150)
    keep_screenshots(out, ("overview_after.png",))
    top = "Encrypted (native network encryption)"

    def count(text):
        line = next((l for l in text.splitlines() if l.startswith(top)), None)
        assert line, (text[:400], log("driver.log"))
        return int(re.search(r"\)\s+(\d+)", line).group(1))
    want = count(tshark.run(capture, ["-q", "-z", "sqlnet,tree"]).stdout)
    assert want > 0
    assert count(log("overview_before.txt")) == want
    assert count(log("overview_after.txt")) == want
    check_log(log("wireshark.log"), registered_fields(tshark))


def test_graph_check_rejects_flat_line_and_slab():
    """The picture check itself: a flat line (antialiased over two rows) and one
    interval-wide slab fail, an impulse series passes (synthetic pixel sets)."""
    flat = [(x, y) for x in range(80, 860) for y in (412, 413)]
    slab = [(x, y) for x in range(700, 770) for y in range(100, 413)]
    impulses = [(x0 + dx, y) for i, x0 in enumerate(range(80, 860, 70)) for dx in (0, 1)
                for y in range(400 - 25 * i, 413)]
    for pts in (flat, slab):
        with pytest.raises(AssertionError):
            assert_graph_drawn(pts, 902, "synthetic")
    assert_graph_drawn(impulses, 902, "synthetic")


def _staged_release():
    plugin = staged_plugin()
    return plugin.parent.parent.name if plugin else ""


# Seen in the build roots: Wireshark 4.6's dialog keeps tshark's order (the
# test passes there); 4.0 and 4.4 sort by the name column, descending.
@pytest.mark.xfail(_staged_release() in ("4.0", "4.4"), strict=True,
                   reason="Wireshark 4.0/4.4's Qt stats tree dialog sorts by the name column, "
                   "descending (Qt's default sort indicator) and ignores the tree's default sort flags "
                   "(ST_SORT_COL_COUNT|ST_FLG_SORT_DESC tried: no change); 4.6 keeps tshark's order; "
                   "see docs/reports.md")
def test_overview_rows_in_tsharks_order(tshark, gui_tools):
    """SQL*Net Overview lists the calls of "Round trips by call" in the order
    -z sqlnet,tree prints them (by count, descending). Evidence: the window's
    Copy (which formats the tree with the window's sort column and order) and
    tshark's tree. Fails today: the window sorts by name, descending."""
    need_xclip()
    capture = TEST_CAPTURES / "arraysize_50.pcapng"
    prepare_config(tshark)
    out, log, cap = gui_run(tshark, "overview_order", capture, mode="overview_retap", timeout=150)

    def calls(text):
        lines = text.splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith("Round trips by call"))
        rows = []
        for l in lines[start + 1:]:
            if not l.startswith(" "):
                break
            rows.append(re.split(r"\s{2,}", l.strip())[0])
        return rows
    want = calls(tshark.run(capture, ["-q", "-z", "sqlnet,tree"]).stdout)
    assert len(want) > 3
    assert calls(log("overview_before.txt")) == want
