"""Statistics > SQL*Net Statement table (lua/sqlnet_statements.lua).

The table's functions run without the GUI: on hand-made round trips under
plain Lua 5.2 and 5.4 (expected numbers worked out by hand), and under tshark
through a small Lua driver that collects a capture's round-trip records
(sqlnet.rt.*) the way the window does and prints the table as CSV, checked
against the generated captures' manifests (the scripted server's counts of
round trips and rows per statement) and against -z sqlnet,stmt's time
breakdown. The GUI test opens the window in Wireshark under Xvfb on real
captures, sorts it by elapsed, copies it as CSV, saves it, and applies a
statement's filter with Enter in the dialog; the largest elapsed is computed
independently from tshark -T fields.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
from collections import defaultdict

import pytest

from tshark import PUBLIC, ROOT, TEST_CAPTURES
from test_generated_captures import calls

SCRIPT = ROOT / "lua" / "sqlnet_statements.lua"
OUTSIDE = "(outside a statement)"


def rt_fields_registered(tshark):
    out = tshark.run_plain(["-G", "fields"]).stdout
    return "\tsqlnet.rt.rows\t" in out


@pytest.fixture(scope="module")
def rt_fields(tshark):
    if not rt_fields_registered(tshark):
        pytest.skip("the plugin does not register sqlnet.rt.* yet")


def parse_csv(text):
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    for r in rows:
        for k in ("elapsed_ms", "network_ms", "server_ms", "transfer_ms", "client_ms", "idle_before_ms"):
            r[k] = float(r[k])
        for k in ("executions", "round_trips", "rows", "first_frame", "last_frame"):
            r[k] = int(r[k])
    return rows


# ---- the table's functions on hand-made round trips (plain Lua) --------------

UNIT_DRIVER = r"""
local M = dofile(arg[1])
local st = M.new_state()
local function rt(t) M.add(st, t) end
-- a logon call (outside a statement), statement A in two executions of
-- conversation 0 and one of conversation 1 (its execution 1 is another
-- execution than conversation 0's), statement B with an error, and a call
-- of A without a time breakdown (its response time counts)
rt{frame=6, request=5, stream=0, rows=0, time=1, network=0.1, server=1, transfer=0, client=50}
rt{frame=10, request=9, stream=0, execution=1, sql="select  a\n from t", sql_id="aaaaaaaaaaaaa", rows=10, time=2,
   network=0.2, server=2, transfer=0.5, client=100}
rt{frame=12, request=11, stream=0, execution=1, sql="select a from t", sql_id="aaaaaaaaaaaaa", rows=5, time=3,
   network=0.2, server=3, transfer=0.5, client=7}
rt{frame=14, request=13, stream=0, execution=2, sql="update x", sql_id="bbbbbbbbbbbbb", rows=0, time=4,
   network=0.2, server=4, transfer=0, client=20, ora_error=942}
rt{frame=15, request=15, stream=0, execution=2, sql="update x", sql_id="bbbbbbbbbbbbb", rows=0, time=1,
   network=0.2, server=0.5, transfer=0, client=0.25, ora_error=1403}
rt{frame=16, request=8, stream=1, execution=1, sql="select a from t", sql_id="aaaaaaaaaaaaa", rows=1, time=1,
   network=0.2, server=1, transfer=0, client=30}
rt{frame=18, stream=1, execution=1, sql="select a from t", sql_id="aaaaaaaaaaaaa", rows=2, time=4}
local rows = M.rows(st)
io.write("@@no\n", M.csv(M.sort(rows, "no", false)))
io.write("@@elapsed\n", M.csv(M.sort(rows, "elapsed", true)))
local f, d = M.parse_sort("idle")
io.write("@@idle\n", M.csv(M.sort(rows, f, d)))
print("@@rest")
for _, t in ipairs({ "Round trips", "rt", "rows asc", "No.", "no desc", "errors", "zzz", "" }) do
    local a, b = M.parse_sort(t)
    print("sort", t, tostring(a), tostring(b))
end
for _, t in ipairs({ "2", " 1 ", "aaaaaaaaaaaaa", "-", "9" }) do
    local s = M.find(rows, t)
    print("find", t, s and (s.no or "outside") or "none")
end
for _, t in ipairs({ "SELECT", "bbbb", "outside", "" }) do
    local got = {}
    for _, s in ipairs(M.matching(rows, t)) do got[#got + 1] = s.no or "-" end
    print("match", t, table.concat(got, " "))
end
-- one packet completing two round trips (tree order), then one whose
-- second round trip has no request_in (a response cut short)
local function show(recs)
    local out = {}
    for _, r in ipairs(recs) do
        out[#out + 1] = table.concat({ tostring(r.request), tostring(r.execution), tostring(r.sql_id),
                                       tostring(r.rows), tostring(r.client), tostring(r.stream) }, "/")
    end
    print("records", table.concat(out, " "))
end
show(M.records({ { "sqlnet.request_in", 40 }, { "sqlnet.rt.number", 7 }, { "sqlnet.rt.execution", 3 },
                 { "sqlnet.rt.sql_id", "ccccccccccccc" }, { "sqlnet.rt.rows", 5 }, { "sqlnet.rt.time.client", 1.5 },
                 { "sqlnet.sql_id", "zzzzzzzzzzzzz" }, { "sqlnet.request_in", 42 }, { "sqlnet.rt.number", 8 },
                 { "sqlnet.rt.rows", 0 } }, 44, 2))
show(M.records({ { "sqlnet.request_in", 40 }, { "sqlnet.rt.number", 7 }, { "sqlnet.rt.rows", 1 },
                 { "sqlnet.rt.number", 8 }, { "sqlnet.rt.rows", 2 } }, 44, 0))
print("@@text")
print(M.render(M.sort(rows, "elapsed", true), { field = "elapsed", desc = true }))
"""


def run_lua(lua, tmp_path, source):
    if not shutil.which(lua):
        pytest.skip(f"{lua} not installed")
    driver = tmp_path / "driver.lua"
    driver.write_text(source)
    proc = subprocess.run([lua, str(driver), str(SCRIPT)], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def sections(out):
    parts, name = {}, None
    for line in out.split("\n"):
        if line.startswith("@@"):
            name = line[2:]
            parts[name] = []
        elif name:
            parts[name].append(line)
    return {k: "\n".join(v) for k, v in parts.items()}


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_table_from_hand_made_round_trips(lua, tmp_path):
    """Numbering by first call frame (the outside row unnumbered, first),
    elapsed = network + server + transfer + client within executions, idle
    before = the client part of each execution's first round trip, executions
    per conversation, errors without ORA-01403, a round trip without a
    breakdown counted by its response time; sorting; the numbers worked out
    by hand."""
    out = run_lua(lua, tmp_path, UNIT_DRIVER)
    s = sections(out)
    by_no = parse_csv(s["no"])
    assert [r["no"] for r in by_no] == ["", "1", "2"]
    outside, a, b = by_no
    assert outside["sql"] == OUTSIDE and outside["sql_id"] == "" and outside["executions"] == 0
    # the logon call: its client time is idle time (before a call outside a statement)
    assert (outside["elapsed_ms"], outside["idle_before_ms"], outside["client_ms"]) == (1.1, 50.0, 0.0)
    assert (outside["first_frame"], outside["last_frame"]) == (5, 6)
    assert outside["filter"] == "(sqlnet.call && !sqlnet.sql_id) || (sqlnet.rt && !sqlnet.rt.sql_id)"
    # A: first call at frame 8 (conversation 1's request) -> before B (13)
    assert a["sql_id"] == "aaaaaaaaaaaaa" and a["sql"] == "select a from t"
    assert (a["first_frame"], a["last_frame"]) == (8, 18)
    assert (a["executions"], a["round_trips"], a["rows"]) == (2, 4, 18)
    # (0.2+2+0.5) + (0.2+3+0.5+7) + (0.2+1) + 4 (no breakdown: response time)
    assert a["elapsed_ms"] == pytest.approx(18.6)
    assert (a["network_ms"], a["server_ms"], a["transfer_ms"]) == (0.6, 6.0, 1.0)
    assert (a["client_ms"], a["idle_before_ms"]) == (7.0, 130.0)
    assert a["filter"] == 'sqlnet.rt.sql_id == "aaaaaaaaaaaaa" || sqlnet.sql_id == "aaaaaaaaaaaaa"'
    # B: one execution of two round trips; ORA-01403 is no error
    assert (b["executions"], b["round_trips"], b["ora_errors"]) == (1, 2, "ORA-00942")
    assert b["elapsed_ms"] == pytest.approx(0.2 + 4 + 0.2 + 0.5 + 0.25)
    assert (b["idle_before_ms"], b["client_ms"]) == (20.0, 0.25)
    assert [r["sql_id"] for r in parse_csv(s["elapsed"])] == \
        ["aaaaaaaaaaaaa", "bbbbbbbbbbbbb", ""]
    assert [r["sql_id"] for r in parse_csv(s["idle"])] == \
        ["aaaaaaaaaaaaa", "", "bbbbbbbbbbbbb"]
    sorts = [l.split("\t") for l in out.splitlines() if l.startswith("sort\t")]
    assert [x[2:] for x in sorts[:6]] == [
        ["round_trips", "true"], ["round_trips", "true"], ["rows", "false"], ["no", "false"],
        ["no", "true"], ["nerrors", "true"]]
    assert sorts[6][2] == "nil" and "unknown column 'zzz'" in sorts[6][3]
    assert sorts[7][2:] == ["nil", "no column given"]
    finds = [l.split("\t")[1:] for l in out.splitlines() if l.startswith("find\t")]
    assert finds == [["2", "2"], [" 1 ", "1"], ["aaaaaaaaaaaaa", "1"], ["-", "outside"], ["9", "none"]]
    matches = [l.split("\t")[1:] for l in out.splitlines() if l.startswith("match\t")]
    assert matches == [["SELECT", "1"], ["bbbb", "2"], ["outside", "-"], ["", "- 1 2"]]
    records = [l.split("\t")[1] for l in out.splitlines() if l.startswith("records\t")]
    assert records == ["40/3/ccccccccccccc/5/1.5/2 42/nil/nil/0/nil/2", "nil/nil/nil/1/nil/0 nil/nil/nil/2/nil/0"]
    text = s["text"]
    table = [l for l in text.splitlines() if re.match(r"\s*(\d+|-)\s+\d+\.\d{3}\s", l)]
    assert [l.split()[0] for l in table] == ["1", "2", "-"]
    assert "18.600" in table[0] and "130.000" in table[0]
    assert "1 round trip without a time breakdown" in text
    # the sums of the rows shown: 18.6 + 5.15 + 1.1 elapsed, 0.6 + 0.4 + 0.1 network, 130 + 20 + 50 idle
    total = next(l for l in text.splitlines() if l.startswith("sum "))
    assert total.split() == ["sum", "24.850", "1.100", "11.500", "1.000", "7.250", "200.000", "3", "7", "18"]


# ---- under tshark: the table of a capture --------------------------------------

TSHARK_DRIVER = r"""
local M = dofile((...))
assert(M.init_fields(), "no sqlnet.rt fields")
local st = M.new_state()
local tap = M.listen(function() return st end)
function tap.reset() st = M.new_state() end
function tap.draw()
    local rows = M.rows(st)
    io.write("@@text\n", M.render(M.sort(rows, "elapsed", true), { field = "elapsed", desc = true }), "\n\n")
    io.write("@@csv\n", M.csv(rows))
end
"""


def table_of(tshark, capture, extra=()):
    """The statement table of `capture` as the window computes it (CSV rows)."""
    d = tshark.sandbox / "stmt_driver"
    d.mkdir(exist_ok=True)
    os.chmod(d, 0o755)
    (d / "driver.lua").write_text(TSHARK_DRIVER)
    shutil.copy(SCRIPT, d / "sqlnet_statements.lua")
    shutil.copy(SCRIPT.parent / "sqlnet_model.lua", d / "sqlnet_model.lua")    # the module it loads
    for f in d.iterdir():
        os.chmod(f, 0o644)
    proc = tshark.run(capture, ["-q", "-X", f"lua_script:{d / 'driver.lua'}",
                                "-X", f"lua_script1:{d / 'sqlnet_statements.lua'}"] + list(extra))
    assert proc.stderr.strip() == "", proc.stderr
    out = proc.stdout
    text = out[out.index("@@csv\n") + 6:]
    end = text.find("\n\n")
    return parse_csv(text if end < 0 else text[:end + 1]), out


def one_line(sql):
    return " ".join(sql.split())


def manifest_statements(m):
    """{SQL text or OUTSIDE: [first request frame, round trips, rows, that
    request's first response frame]} from the
    scripted server's manifest (a REF CURSOR's fetches belong to its block)."""
    exp = {}
    for conn, req, resp in calls(m):
        sql = req.get("sql") or ""
        if sql.startswith(("REF CURSOR ", "IMPLICIT RESULT ")) and " of " in sql:
            sql = sql.split(" of ", 1)[1]
        key = one_line(sql) if sql else OUTSIDE
        e = exp.setdefault(key, [req["request_first_frame"], 0, 0, resp["first_frame"]])
        if req["request_first_frame"] < e[0]:
            e[0], e[3] = req["request_first_frame"], resp["first_frame"]
        e[1] += 1
        e[2] += resp["rows_sent"]
    return exp


MANIFEST_CASES = ["sweep_arraysize", "jdbc_fetchsize_sweep", "cursor_reexec", "error_midfetch", "jdbc_dml",
                  "batch_19_jdbc", "lob_23ai_python", "goora_basic"]


@pytest.mark.parametrize("scenario", MANIFEST_CASES)
def test_round_trips_and_rows_match_manifest(tshark, rt_fields, scenario):
    """Per statement: round trips and rows as the scripted server counted them,
    statement numbers in the order of each SQL text's first call (manifest
    frames), its first frame that call's, the calls without SQL in the
    unnumbered row."""
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    rows, _ = table_of(tshark, TEST_CAPTURES / m["capture"])
    exp = manifest_statements(m)
    got = {(r["sql"] if r["no"] else OUTSIDE): r for r in rows}
    assert set(got) == set(exp), (sorted(got), sorted(exp))
    for key, (first, rts, nrows, _) in exp.items():
        assert (got[key]["round_trips"], got[key]["rows"]) == (rts, nrows), key
    numbered = sorted((e[0], key) for key, e in exp.items() if key != OUTSIDE)
    assert [got[key]["no"] for _, key in numbered] == [str(i) for i in range(1, len(numbered) + 1)]
    for _, key in numbered:
        # the first call's frame: its request (the last segment of one sent in several)
        assert exp[key][0] <= got[key]["first_frame"] < exp[key][3], key


@pytest.mark.parametrize("scenario", ["goora_basic", "jdbc_fetchsize_small", "error_midfetch"])
def test_filters_select_each_statements_packets(tshark, rt_fields, scenario):
    """Each row's filter, applied by tshark: its packets with a round-trip
    record are the frames that complete the responses to the statement's
    calls (the manifest's last response frames), and its call packets as many
    as the statement's calls the server answered (sqlnet.call without
    sqlnet.request_in: a response names its call too)."""
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    capture = TEST_CAPTURES / m["capture"]
    rows, _ = table_of(tshark, capture)
    want_last, want_calls = defaultdict(set), defaultdict(int)
    for conn, req, resp in calls(m):
        sql = req.get("sql") or ""
        key = one_line(sql) if sql else OUTSIDE
        want_last[key].add(resp["last_frame"])
        want_calls[key] += bool(req.get("func_code"))
    for r in rows:
        key = r["sql"] if r["no"] else OUTSIDE
        got = tshark.fields(capture, ["frame.number", "sqlnet.call"], display_filter=f"({r['filter']}) && sqlnet.rt")
        assert {int(g[0]) for g in got} == want_last[key], key
        got = tshark.fields(capture, ["frame.number"], display_filter=f"({r['filter']}) && sqlnet.call && !sqlnet.request_in")
        assert len(got) == want_calls[key], key


def test_docs_show_what_the_window_shows(tshark, rt_fields):
    """docs/reports.md's sample of the window (test-captures/jdbc_fetchsize_sweep,
    sorted by elapsed) is what the table's functions render for that capture
    ("..." leaves lines out)."""
    page = (ROOT / "docs" / "reports.md").read_text()
    section = page.split("## The Statement table (Lua)", 1)[1].split("\n## ", 1)[0]
    assert "test-captures/jdbc_fetchsize_sweep.pcapng" in section
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1).rstrip("\n").splitlines()
    _, out = table_of(tshark, TEST_CAPTURES / "jdbc_fetchsize_sweep.pcapng")
    printed = out.split("@@text\n", 1)[1].split("@@csv\n", 1)[0].splitlines()
    at = 0
    for line in shown:
        if line == "...":
            continue
        while at < len(printed) and printed[at].rstrip() != line.rstrip():
            at += 1
        assert at < len(printed), f"docs/reports.md shows {line!r}, the window does not"
        at += 1


def stmt_blocks(out):
    """-z sqlnet,stmt: {SQL text or OUTSIDE: {label: value}}."""
    blocks, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"Statement \d+: (.*?)(?: \(sqlnet\.rt\.sql_id == \"\w+\", frames \d+-\d+\))?$", line)
        if m or line.startswith("Calls outside a statement"):
            key = m.group(1) if m else OUTSIDE
            if key.startswith("(calls outside a statement"):
                key = OUTSIDE
            cur = blocks.setdefault(key, {})
            continue
        m = re.match(r"\s{2,}(\S.*?)\s{2,}(\S+)$", line)
        if cur is not None and m:
            cur.setdefault(m.group(1).strip(), m.group(2))
    return blocks


@pytest.mark.parametrize("scenario", ["jdbc_fetchsize_sweep", "cursor_reexec", "error_midfetch", "batch_19_jdbc"])
def test_times_agree_with_stmt_report(tshark, rt_fields, scenario):
    """The same capture's -z sqlnet,stmt (the C tap, not the fields): the same
    round trips, rows and executions per statement, the same network, server
    and transfer sums, and its client time = the table's client + idle before,
    its time on the wire = elapsed + idle before (3 decimals each)."""
    capture = TEST_CAPTURES / f"{scenario}.pcapng"
    rows, _ = table_of(tshark, capture)
    stmt = stmt_blocks(tshark.run(capture, ["-q", "-z", "sqlnet,stmt"]).stdout)
    checked = 0
    for r in rows:
        g = stmt[r["sql"] if r["no"] else OUTSIDE]
        assert int(g["SQL*Net roundtrips to/from client"]) == r["round_trips"]
        assert int(g["rows processed"].replace(",", "")) == r["rows"]
        if r["no"]:
            assert int(g["executions"]) == r["executions"], r["sql"]
        if "time on the wire (ms)" not in g:
            continue
        checked += 1
        assert float(g["network: round trips x RTT (ms)"]) == pytest.approx(r["network_ms"], abs=0.002)
        assert float(g["server: call to first byte of answer (ms)"]) == pytest.approx(r["server_ms"], abs=0.002)
        assert float(g["transfer: first to last byte (ms)"]) == pytest.approx(r["transfer_ms"], abs=0.002)
        client = float(g["client: between calls (ms)"])
        wire = float(g["time on the wire (ms)"])
        assert client == pytest.approx(r["client_ms"] + r["idle_before_ms"], abs=0.002), r["sql"]
        assert wire == pytest.approx(r["elapsed_ms"] + r["idle_before_ms"], abs=0.003), r["sql"]
    assert checked >= 2


# ---- the window in Wireshark -------------------------------------------------

def independent_elapsed(tshark, capture):
    """{sql_id ('' outside a statement): elapsed ms} from tshark -T fields:
    per round trip network + server + transfer + client, less the client part
    of the first round trip of each (conversation, execution) and of every
    round trip without an execution or SQL_ID."""
    fields = ["tcp.stream", "sqlnet.rt.number", "sqlnet.rt.sql_id", "sqlnet.rt.execution", "sqlnet.rt.time",
              "sqlnet.rt.time.network", "sqlnet.rt.time.server", "sqlnet.rt.time.transfer",
              "sqlnet.rt.time.client"]
    elapsed, seen = defaultdict(float), set()
    for row in tshark.fields(capture, fields, display_filter="sqlnet.rt"):
        row += [""] * (len(fields) - len(row))
        assert "," not in row[1], "one round trip per packet in this capture"
        sql_id, execution = row[2], row[3]
        if not row[8]:
            elapsed[sql_id] += float(row[4])
            continue
        parts = [float(v or 0) for v in row[5:9]]
        starts = True
        if sql_id and execution:
            starts = (row[0], execution) not in seen
            seen.add((row[0], execution))
        elapsed[sql_id] += sum(parts) - (parts[3] if starts else 0.0)
    return elapsed


GUI_SCRIPT = r"""
win=$(open_lua_item "Statement table" 18)
[ -n "$win" ] || { echo "no statement table window" >>"$OUT/driver.log"; exit 6; }
xdotool windowmove --sync "$win" 0 0 2>/dev/null; xdotool windowsize --sync "$win" 1390 620 2>/dev/null; sleep 0.5
settle "$win"
copy_text() {  # $1: file: the window's text as a user copies it
    xdotool windowfocus --sync "$win"; sleep 0.2
    xdotool mousemove --window "$win" 300 150 click 1; sleep 0.2
    xdotool key ctrl+a; sleep 0.2; xdotool key ctrl+c; sleep 0.4
    xclip -o -selection clipboard >"$OUT/$1" 2>>"$OUT/driver.log"
}
button() {  # $1: Tabs from the text to the button (the Highlight field is the first)
    xdotool windowfocus --sync "$win"; sleep 0.2
    xdotool mousemove --window "$win" 300 150 click 1; sleep 0.2
    j=0; while [ $j -lt $1 ]; do xdotool key Tab; sleep 0.1; j=$((j + 1)); done
    xdotool key space; sleep 0.5
}
dialog() {  # $1: Tabs to its button, $2: title part, $3: text typed, then Return in the field
    # (a loaded machine can drop the button's key press: one more try when no dialog opened)
    button "$1"
    dlg=$(wait_window "$2") || { button "$1"; dlg=$(wait_window "$2"); } || {
        echo "no dialog $2" >>"$OUT/driver.log"; import -window root "$OUT/nodialog.png"; exit 7; }
    sleep 0.5; xdotool windowfocus --sync "$dlg"; sleep 0.2
    dw=$(xwininfo -id "$dlg" | sed -n 's/^ *Width: //p')
    xdotool mousemove --window "$dlg" $((dw - 60)) 22 click 1; sleep 0.2
    xdotool type --delay 20 "$3"; sleep 0.2
    xdotool key Return; sleep 1
    # until the dialog has closed (up to 10 s), so that the next click reaches the window
    i=0; while [ $i -lt 40 ] && xdotool search --onlyvisible --name "$2" >/dev/null 2>&1; do sleep 0.25; i=$((i + 1)); done
}
copy_text initial.txt
button 2                                   # Sort by elapsed
settle "$win"
xdotool mousemove --window "$win" 300 150 click 1; sleep 0.3
import -window "$win" "$OUT/sorted.png"
copy_text sorted.txt
button 6                                   # Copy as CSV
xclip -o -selection clipboard >"$OUT/copied.csv" 2>>"$OUT/driver.log"
dialog 7 "save as CSV" "$OUT/saved.csv"   # Save as CSV...
dialog 5 "show packets" "$SHOW"          # Show packets of statement...
sleep 2; settle "$main"
import -window "$main" "$OUT/main_after.png"
names >"$OUT/after.names"
settle "$win"
copy_text after_filter.txt
dialog 4 "find statements" "$FIND"        # Find statements...
settle "$win"
names >"$OUT/after_find.names"
xdotool mousemove --window "$win" 300 150 click 1; sleep 0.3
import -window "$win" "$OUT/found.png"
copy_text found.txt
exit 0
"""

GUI_CASES = [("visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng", "3", "ALL_"),
             ("dbbat/jdbc_thin_cursor_reexec.pcapng", "1", "dual")]


def _gui_cases():
    """The cases, both marked on Wireshark 4.4: seen in the trixie build root
    (4.4.19, Qt 6.8.2) in five runs out of five on the JDBC capture, Wireshark
    itself ends with a segfault in libQt6Widgets (the kernel log) during this
    window's dialog steps (Show packets of statement... applies a filter from
    the dialog's callback; also with Copy as CSV and Save as CSV... left out).
    On the 11g capture the same segfault (same address in libQt6Widgets)
    appears, three runs out of three, since the array-size report reads
    sqlnet.rt.values (issue 24); with that script's earlier version it passes,
    and the script has no part in these steps (its window is not open). 4.0
    and 4.6 pass the same steps. Not strict: it comes and goes (one run in
    two on the 11g capture, 2026-11-27). Under gdb in the build root (no
    symbols) the crash is the button's Lua callback opening its dialog
    (new_dialog: frames in wireshark, then QWidget::setWindowTitle ->
    QAccessibleWidget::text -> QWidget::accessibleName, SIGSEGV), the
    second dialog of the session after Save as CSV... was accepted: a widget
    that Qt's accessibility code still reaches after the first dialog was
    deleted. Wireshark's FunnelStringDialog::accept() calls disconnect() on
    itself before deleteLater(), which also cuts the destroyed() signal that
    Qt's accessibility cache listens to: the likely cause, in Wireshark, not
    confirmed (QT_ACCESSIBILITY=0 did not stop it)."""
    import test_gui
    out = []
    for c in GUI_CASES:
        marks = []
        if test_gui._staged_release() == "4.4":
            marks = [pytest.mark.xfail(reason="Wireshark 4.4 segfaults (libQt6Widgets) during the dialog steps "
                                              "on this capture; cause not found yet")]
        out.append(pytest.param(c, marks=marks, id=c[0].split("/")[-1]))
    return out


@pytest.mark.parametrize("case", _gui_cases())
def test_window_sorts_copies_and_filters(tshark, rt_fields, public_dir, case):
    """Statistics > SQL*Net Statement table on a real capture: "Sort by
    elapsed" puts first the statement whose elapsed, computed from tshark -T
    fields, is the largest, in decreasing order; "Copy as CSV" gives CSV
    (parsed) with the same numbers as the text and the independent sums;
    "Save as CSV..." writes the same CSV; "Show packets of statement..." with
    the number typed and Enter applies the statement's filter and leaves the
    window open; "Find statements..." with a text and Enter shows the rows
    whose SQL has it (a search Enter does not close). Evidence: the rendered window's text (copied with the
    keyboard, xclip), the clipboard, the file, the window list."""
    import test_gui
    test_gui.need_xclip()
    if test_gui._missing():
        pytest.skip("GUI tools missing (scripts/setup_gui.sh)")
    name, show, find = case
    capture = public_dir / name
    test_gui.prepare_config(tshark)
    out, log, cap = test_gui.gui_run(tshark, "stmt_table", capture, mode="stmt_table", timeout=150,
                                     script=GUI_SCRIPT, extra_env=[f"SHOW={show}", f"FIND={find}"])
    test_gui.keep_screenshots(out, ("sorted.png", "found.png", "main_after.png"),
                              prefix=name.split("/")[-1] + "_")
    initial, sorted_text = log("initial.txt"), log("sorted.txt")
    assert "SQL*Net Statement table:" in initial and "Reading packets" not in initial, (initial[:300], log("driver.log"))
    assert "sorted by elapsed (largest first)" in sorted_text, sorted_text[:300]
    lines = sorted_text.splitlines()
    at = next(l for l in lines if l.lstrip().startswith("No. ")).index("SQL_ID")   # fixed-width columns
    table = [l.split() for l in lines if re.match(r"\s*(\d+|-)\s+\d+\.\d{3}\s", l)]
    ids = [l[at:at + 13].strip() for l in lines if re.match(r"\s*(\d+|-)\s+\d+\.\d{3}\s", l)]
    elapsed = [float(c[1]) for c in table]
    assert elapsed == sorted(elapsed, reverse=True) and len(table) >= 2
    want = independent_elapsed(tshark, capture)
    top = max(want, key=want.get)
    assert (ids[0] if ids[0] != "-" else "") == top, (table[0], want)
    assert elapsed[0] == pytest.approx(want[top], abs=0.002)
    copied = log("copied.csv")
    rows = parse_csv(copied)
    assert [r["no"] or "-" for r in rows] == [c[0] for c in table]
    for r in rows:
        assert r["elapsed_ms"] == pytest.approx(want[r["sql_id"]], abs=0.002), r
    assert log("saved.csv") == copied
    # Enter in the dialog applied the filter and closed the dialog, not the window
    after = log("after_filter.txt")
    shown = next(r for r in rows if r["no"] == show)
    assert f"Display filter applied: {shown['filter']}" in after, after[:400]
    # the display filter's rescan fed the window's tap again: the same table, read once
    rows_of = lambda text: [l for l in text.splitlines() if re.match(r"\s*(\d+|-)\s+\d+\.\d{3}\s", l)]
    assert rows_of(after) == rows_of(sorted_text)
    titles = log("after.names")
    assert "Statement table" in titles and "show packets" not in titles, titles
    # Find statements...: Enter in its field shows the rows whose SQL has the text, the window stays
    assert "Statement table" in log("after_find.names"), log("after_find.names")
    found = log("found.txt")
    assert f"contains '{find}'" in found, found[:400]
    want_found = [c[0] for c in table if find.lower() in
                  next(r for r in rows if (r["no"] or "-") == c[0])["sql"].lower()]
    assert [l.split()[0] for l in rows_of(found)] == want_found and want_found, found[:600]
    test_gui.check_log(log("wireshark.log"), test_gui.registered_fields(tshark))
