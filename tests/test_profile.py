"""The Wireshark configuration profile profiles/SQLNet.

The profile is installed with scripts/install_profile.sh into the sandbox home
and used with `tshark -C SQLNet`: it must load without a message, its custom
columns must show the dissector's values, every coloring rule and filter
button must compile, and every I/O graph must name a registered field.
Expected numbers come from the demo capture's manifest.
"""
import csv
import io
import json
import re
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

from tshark import ROOT, TEST_CAPTURES

PROFILE = ROOT / "profiles" / "SQLNet"
DEMO = TEST_CAPTURES / "sweep_arraysize.pcapng"
ERROR_CAPTURE = TEST_CAPTURES / "error_midfetch.pcapng"
ARROWS = ("\u2192", "\u2190")
# the field of the profile's "Wait" column: what the client waited, the
# RTT included where the capture was taken near the server
WAIT_FIELD = "sqlnet.rt.wait"

# Wireshark 4.0 ui/qt/io_graph_dialog.cpp: value strings of the io_graphs UAT
IOG_STYLES = {"Line", "Impulse", "Bar", "Stacked Bar", "Dot", "Square", "Diamond",
              "Cross", "Circle", "Plus"}
IOG_YAXIS = {"Packets", "Bytes", "Bits", "SUM(Y Field)", "COUNT FRAMES(Y Field)",
             "COUNT FIELDS(Y Field)", "MAX(Y Field)", "MIN(Y Field)", "AVG(Y Field)",
             "LOAD(Y Field)"}
IOG_SMA = {"None"} | {f"{n} interval SMA" for n in (10, 20, 50, 100, 200, 500, 1000)}


def manifest(capture):
    return json.loads(capture.with_suffix(".json").read_text())


def requests(capture):
    return [r for c in manifest(capture)["connections"] for r in c["requests"]]


def content_lines(name):
    return [l for l in (PROFILE / name).read_text().splitlines() if l.strip() and not l.startswith("#")]


def uat_rows(name):
    return [next(csv.reader(io.StringIO(l), doublequote=False, escapechar="\\"))
            for l in content_lines(name)]


def columns():
    """(title, format) pairs of gui.column.format in the profile's preferences."""
    text = (PROFILE / "preferences").read_text()
    m = re.search(r"^gui\.column\.format:\s*\n((?:[ \t]+.*\n?)+)", text, re.M)
    assert m, "no gui.column.format in preferences"
    quoted = re.findall(r'"([^"]*)"', m.group(1))
    return list(zip(quoted[0::2], quoted[1::2]))


def custom_columns():
    """title -> (fields, resolved) of the %Cus columns; fields: the list of
    fields of "a || b" (the column shows the first one present)."""
    out = {}
    for title, fmt in columns():
        if fmt.startswith("%Cus:"):
            _, fields, occurrence, resolved = fmt.split(":")
            assert occurrence == "0"
            out[title] = ([f.strip() for f in fields.split("||")], resolved)
    return out


def width_name(fmt):
    """The name under which Wireshark 4.0, 4.4 and 4.6 write and match a
    column's width in "recent": "%Cus:" and the fields, without occurrence and
    R/U (their PacketList::writeRecent prints "%Cus:" and
    get_column_custom_fields(col); 4.0's recent.c compares that string with the
    column's fields)."""
    return ":".join(fmt.split(":")[:2]) if fmt.startswith("%Cus:") else fmt


def colorfilters():
    rows = []
    for line in content_lines("colorfilters"):
        m = re.fullmatch(r"@([^@]+)@([^@]+)@\[(\d+),(\d+),(\d+)\]\[(\d+),(\d+),(\d+)\]", line)
        assert m, f"not a coloring rule: {line!r}"
        assert all(0 <= int(v) <= 65535 for v in m.groups()[2:])
        rows.append((m.group(1), m.group(2)))
    return rows


def recent_widths():
    """Column formats of column.width in the profile's recent file, in order."""
    text = (PROFILE / "recent").read_text()
    m = re.search(r"^column\.width:\s*\n((?:[ \t]+.*\n?)+)", text, re.M)
    assert m, "no column.width in recent"
    pairs = re.findall(r'("?)(%[^",]+)\1,\s*(\d+)', m.group(1))
    return [(fmt, int(w)) for _, fmt, w in pairs]


def test_column_widths_follow_the_columns():
    """The widths in profiles/SQLNet/recent name the columns of preferences in
    the same order (evidence: the two profile files against each other)."""
    widths = recent_widths()
    assert [f for f, _ in widths] == [width_name(fmt) for _, fmt in columns()]
    assert all(30 <= w <= 800 for _, w in widths)
    assert width_name("%Cus:sqlnet.call:0:R") == "%Cus:sqlnet.call"


def buttons():
    rows = uat_rows("dfilter_buttons")
    for r in rows:
        assert len(r) == 4 and r[0] in ("TRUE", "FALSE") and r[1] and r[2], r
    return {r[1]: r[2] for r in rows}


@pytest.fixture(scope="module")
def profile(tshark):
    return tshark.install_profile()


def run_profile(tshark, capture, args):
    proc = tshark.run(capture, ["-C", "SQLNet"] + list(args))
    assert proc.stderr == "", proc.stderr
    return proc


@pytest.fixture(scope="module")
def registered_fields(tshark):
    out = tshark.run_plain(["-G", "fields"]).stdout
    return {line.split("\t")[2] for line in out.splitlines() if line.startswith("F\t")}


def install(home):
    proc = subprocess.run([str(ROOT / "scripts" / "install_profile.sh"), "--home", str(home)],
                          check=True, capture_output=True, text=True)
    return proc.stdout


def width_block(text):
    m = re.search(r"^column\.width:.*\n(?:[ \t].*\n?)*", text, re.M)
    return m.group(0) if m else None


def test_install_script(tmp_path):
    """Fresh install, reinstall, and the repair of Wireshark's own "recent":
    a column.width block that is missing, holds -1 (Wireshark writes -1 on
    quit for a width it matched to no column) or names the columns in the
    ":0:R" form is replaced by the profile's; every other line stays, and a
    block with a width for every column (widths the user dragged) is kept."""
    for _ in range(2):  # a second run replaces the profile
        out = install(tmp_path)
    assert "Wireshark 4." in subprocess.run([str(ROOT / "scripts" / "install_profile.sh"), "--home",
                                             str(tmp_path / "x")], capture_output=True, text=True).stdout
    dst = tmp_path / ".config" / "wireshark" / "profiles" / "SQLNet"
    names = {"preferences", "colorfilters", "dfilter_buttons", "io_graphs", "recent"}
    assert {p.name for p in dst.iterdir()} == names
    for n in names:
        assert (dst / n).read_bytes() == (PROFILE / n).read_bytes()
    want = width_block((PROFILE / "recent").read_text())
    # widths the user dragged (Wireshark's own layout: 8 spaces, one per line) are kept
    quoted = lambda f: '"' + f + '"' if f.startswith("%Cus") else f
    dragged = ("gui.zoom_level: 1\n\n# Packet list column pixel widths.\ncolumn.width:\n" +
               ",\n".join(f"        {quoted(f)}, {w + 7}" for f, w in recent_widths()) + "\n\ngui.x: 3\n")
    (dst / "recent").write_text(dragged)
    install(tmp_path)
    assert (dst / "recent").read_text() == dragged
    # what 4.0 wrote on quit for the old profile (":0:R" names it never matched: -1),
    # a -1 alone, the ":0:R" form alone, no block at all: repaired, the rest kept
    w = dict(recent_widths())
    sql, no = f'"%Cus:sqlnet.sql", {w["%Cus:sqlnet.sql"] + 7}', f"%m, {w['%m'] + 7}"
    old = dragged.replace(sql, '"%Cus:sqlnet.sql:0:R", -1')
    minus = dragged.replace(no, "%m, -1")
    form = dragged.replace(sql, sql.replace('sql"', 'sql:0:R"'))
    none = "gui.zoom_level: 1\ngui.x: 3\n"
    for recent in (old, minus, form, none):
        assert recent != dragged or recent is none
        (dst / "recent").write_text(recent)
        assert "repaired" in install(tmp_path)
        text = (dst / "recent").read_text()
        assert width_block(text) == want
        assert "gui.zoom_level: 1\n" in text and "gui.x: 3\n" in text
    bad = subprocess.run([str(ROOT / "scripts" / "install_profile.sh"), "--bogus"], capture_output=True)
    assert bad.returncode == 2


def test_profile_loads_silently(tshark, profile):
    assert profile.is_dir()
    proc = run_profile(tshark, DEMO, ["-Y", "sqlnet"])
    assert proc.stdout.strip()
    prefs = tshark.run_plain(["-G", "currentprefs", "-C", "SQLNet"])
    assert prefs.stderr == "", prefs.stderr
    for title, fmt in columns():
        assert f'"{title}", "{fmt}"' in prefs.stdout
    # without the profile, the columns are Wireshark's defaults
    default = tshark.run_plain(["-G", "currentprefs"]).stdout
    assert "%Cus:sqlnet.rows" not in default


def test_custom_columns_show_the_fields(tshark, profile, registered_fields):
    """Every custom column shows its field's value (tshark -T fields of the
    same field; for "a || b" the first field present), and the columns
    reproduce the manifest statement by statement. Columns on fields this
    build does not register yet (sqlnet.rt.*, CONTRACT.md) are checked once
    they are registered."""
    cols = columns()
    custom = custom_columns()
    assert {t: f for t, (f, _) in custom.items()} == {
        "Call": ["sqlnet.call"], "Array size": ["sqlnet.array_size"], "Rows": ["sqlnet.rows"],
        "Wait": [WAIT_FIELD], "Segs": ["sqlnet.rt.response.segments"], "ORA": ["sqlnet.ora"],
        "SDU": ["sqlnet.sdu"], "SQL": ["sqlnet.sql"]}
    missing = sorted({f for fs, _ in custom.values() for f in fs} - registered_fields)
    checked = {t: [f for f in fs if f in registered_fields] for t, (fs, _) in custom.items()}
    # the Call column shows the function's name: the manifest's, on each request's first frame
    call_by_frame = {r["request_first_frame"]: r["function"] for r in requests(DEMO)}
    dfilter = "sqlnet.rows || sqlnet.fetch.rows || sqlnet.request_in"
    table = run_profile(tshark, DEMO, ["-T", "tabs", "-Y", dfilter]).stdout.splitlines()
    fields = ["frame.number"] + [f for fs in checked.values() for f in fs]
    truth = tshark.fields(DEMO, fields, dfilter, extra=["-C", "SQLNet"])
    assert len(table) == len(truth) > 800
    titles = [t for t, _ in cols]
    by_stmt_rows = defaultdict(int)
    by_stmt_fetch = defaultdict(list)
    for line, ref in zip(table, truth):
        vals = line.split("\t")
        if len(vals) == len(titles) + 1 and vals[3] in ARROWS:
            del vals[3]
        assert len(vals) == len(titles), line
        row = {t: v.strip() for t, v in zip(titles, vals)}
        assert row["No."] == ref[0]
        ref = dict(zip(fields[1:], ref[1:]))
        for title, fs in checked.items():
            if not fs:
                continue
            got, want = row[title], next((ref[f] for f in fs if ref[f]), "")
            if fs[0] == WAIT_FIELD and want:
                # three decimals, the field's value rounded (the sqlnet.rt.* times are
                # BASE_CUSTOM: "10.273 ms" resolved, the number alone unresolved)
                num = got[:-3] if got.endswith(" ms") else got
                assert re.fullmatch(r"\d+\.\d{3}", num), (title, line)
                assert float(num) == pytest.approx(float(want), abs=0.0005 + 1e-9), (title, line)
            elif fs[0] == "sqlnet.call":
                assert bool(got) == bool(want), line
                if int(row["No."]) in call_by_frame:
                    assert got == call_by_frame[int(row["No."])], line
            else:
                assert got == want, (title, fs, line)
        if row["Rows"]:
            by_stmt_rows[row["SQL"]] += int(row["Rows"])
        if row["Array size"] and not row["Rows"]:   # the call, not the response that repeats it
            by_stmt_fetch[row["SQL"]].append(int(row["Array size"]))
    # the columns reproduce the manifest, statement by statement
    want_rows = defaultdict(int)
    want_fetch = defaultdict(list)
    for r in requests(DEMO):
        if r["sql"]:
            want_rows[r["sql"]] += r["response"]["rows_sent"]
            if r["rows_requested"] is not None:
                want_fetch[r["sql"]].append(r["rows_requested"])
    stmts = manifest(DEMO)["client"]["report"]["sessions"][0]["statements"]
    assert len(stmts) == len(manifest(DEMO)["client"]["steps"])     # one per step of the plan
    for s in stmts:
        assert by_stmt_rows[s["sql"]] == want_rows[s["sql"]] == s["rows"]
        assert by_stmt_fetch[s["sql"]] == want_fetch[s["sql"]]
        assert s["arraysize"] in by_stmt_fetch[s["sql"]]
    if missing:
        pytest.skip(f"not registered by this build yet, their columns not checked: {', '.join(missing)}")


def count(tshark, capture, dfilter):
    return len(run_profile(tshark, capture, ["-Y", dfilter]).stdout.splitlines())


def all_run(tshark, capture, exprs):
    """Every filter compiles and runs without a message: one run of their OR
    (it compiles only when each does); when it fails, one run each names the
    filter at fault."""
    try:
        count(tshark, capture, " || ".join(f"({e})" for e in exprs))
    except AssertionError:
        for e in exprs:
            count(tshark, capture, e)
        raise


def test_colorfilters_compile(tshark, profile, registered_fields):
    """Every rule compiles; ORA errors counted against the manifests."""
    rules = colorfilters()
    names = [n for n, _ in rules]
    assert any("ORA" in n for n in names) and any("encrypted" in n for n in names)
    assert dict(rules)["SQL*Net more data (response in > 1 DATA packet)"] == "sqlnet.response.data_packets > 1"
    assert dict(rules)["SQL*Net small fetch (expert info)"] == "sqlnet.small_fetch"
    exprs = [expr for _, expr in rules
             # sqlnet.response.data_packets: added by the dissector side of issue 13
             if "sqlnet.response.data_packets" not in expr or "sqlnet.response.data_packets" in registered_fields]
    for cap in (DEMO, ERROR_CAPTURE):
        all_run(tshark, cap, exprs)
    expr = dict(rules)
    errors = [r for r in requests(ERROR_CAPTURE) if r["response"]["ora_error"] not in (None, 0, 1403)]
    assert errors
    assert count(tshark, ERROR_CAPTURE, expr["SQL*Net ORA error"]) == len(errors)
    assert count(tshark, DEMO, expr["SQL*Net ORA error"]) == 0
    assert count(tshark, DEMO, expr["SQL*Net encrypted (NNE)"]) == 0


def test_dfilter_buttons_compile(tshark, profile, registered_fields):
    """Every button compiles; the counts they select come from the manifests
    (rows requested, TNS packets and ORA errors of each response)."""
    b = buttons()
    assert set(b) == {"Calls", "Small fetches", "Errors", "More data", "Slow", "SQL*Net"}
    assert b["Small fetches"] == "sqlnet.small_fetch"
    assert b["More data"] == "sqlnet.response.data_packets > 1"
    rq = requests(DEMO)
    all_run(tshark, DEMO, list(b.values()))
    # the expert info marks fetch calls below the threshold (preference, 50): every frame it
    # selects belongs to the round trip (request or response frames) of such a call
    small = set()
    for r in rq:
        if r["function"] == "OFETCH" and (r["rows_requested"] or 0) < 50:
            small.add(r["request_first_frame"])
            small.update(range(r["response"]["first_frame"], r["response"]["last_frame"] + 1))
    flagged = [int(f[0]) for f in tshark.fields(DEMO, ["frame.number"], b["Small fetches"])]
    assert flagged and set(flagged) <= small
    big = TEST_CAPTURES / "arraysize_100.pcapng"
    assert all((r["rows_requested"] or 100) >= 50 for r in requests(big) if r["function"] == "OFETCH")
    assert count(tshark, big, b["Small fetches"]) == 0
    assert count(tshark, DEMO, b["More data"]) == sum(1 for r in rq if r["response"]["tns_packets"] > 1)
    assert count(tshark, DEMO, b["Errors"]) == 0
    errors = [r for r in requests(ERROR_CAPTURE) if r["response"]["ora_error"] not in (None, 0, 1403)]
    assert count(tshark, ERROR_CAPTURE, b["Errors"]) == len(errors) > 0
    assert count(tshark, DEMO, b["Calls"]) >= len(rq) - 2  # the first calls may share a frame
    if "sqlnet.response.data_packets" not in registered_fields:
        pytest.skip("sqlnet.response.data_packets not registered yet: the More data button is not checked")
    # no markers in the demo: every TNS packet of a response is a DATA packet
    assert not any(r["response"]["markers"] for r in rq)
    assert count(tshark, DEMO, b["More data"]) == sum(1 for r in rq if r["response"]["tns_packets"] > 1)


def test_io_graphs(tshark, profile, registered_fields):
    """The presets are valid rows of the 4.0 UAT on registered fields, no Bar
    (an interval-wide slab), one question each ("Q<n> ..."), only Q1's graphs
    on; the questions of the issue are there; their calculations, run by
    tshark io,stat over the whole demo capture, give the manifest's round
    trips, rows and fetch sizes."""
    rows = uat_rows("io_graphs")
    ys, enabled, questions = {}, [], []
    for r in rows:
        assert len(r) == 9, r  # Wireshark 4.0 io_graphs UAT: 9 columns
        on, name, dfilter, color, style, yaxis, yfield, sma, factor = r
        assert on in ("Enabled", "Disabled")
        assert re.fullmatch(r"#[0-9A-Fa-f]{6}", color)
        assert style in IOG_STYLES and yaxis in IOG_YAXIS and sma in IOG_SMA
        assert style not in ("Bar", "Stacked Bar"), (name, style)
        assert int(factor) >= 1
        q = re.match(r"Q(\d+) ", name)
        assert q, name
        if not questions or questions[-1] != int(q.group(1)):
            questions.append(int(q.group(1)))
        assert yaxis.endswith("(Y Field)") and yfield, name
        ys[yaxis.split("(")[0] + "(" + yfield + ")"] = name
        if on == "Enabled":
            enabled.append(int(q.group(1)))
        if dfilter:
            count(tshark, DEMO, dfilter)
    assert questions == list(range(1, len(questions) + 1))     # each question's graphs together
    assert set(enabled) == {1}
    for want in ("AVG(sqlnet.rt.rows)", "COUNT FIELDS(sqlnet.rt.rows)", "AVG(sqlnet.rt.response.packets)",
                 "AVG(sqlnet.rt.response.segments)", "AVG(sqlnet.rt.sdu_fill)", "SUM(sqlnet.rt.time.network)",
                 "SUM(sqlnet.rt.time.server)", "SUM(sqlnet.rt.time.transfer)", "SUM(sqlnet.rt.time.client)"):
        assert want in ys, want
    # a time breakdown's parts share one question
    q6 = {ys[f"SUM(sqlnet.rt.time.{p})"].split()[0] for p in ("network", "server", "transfer")}
    assert len(q6) == 1
    # issue 34, symptom 10: every name says its unit in parentheses, and the
    # per-interval ones say so; TNS packets and TCP segments are two questions
    # (one Y axis each) whose names say which
    units = {"rows", "round trips per interval", "TNS packets", "TCP segments", "%", "ms", "bytes"}
    for r in rows:
        m = re.search(r"\(([^()]*)\)$", r[1])
        assert m, r[1]
        unit = m.group(1).split(",")[0].replace(" per interval", "").strip()
        assert unit in units or m.group(1) in units, r[1]
        if r[5].startswith(("SUM", "COUNT")):
            assert "per interval" in m.group(1), r[1]
    pk, sg = ys["AVG(sqlnet.rt.response.packets)"], ys["AVG(sqlnet.rt.response.segments)"]
    assert pk.split()[0] != sg.split()[0] and "TNS packets" in pk and "TCP segments" in sg
    # rows per round trip: over the round trips that brought rows
    q1 = [r for r in rows if r[1].startswith("Q1 ")]
    assert [(r[2], r[5], r[6]) for r in q1] == [("sqlnet.rt.rows > 0", "AVG(Y Field)", "sqlnet.rt.rows")]
    missing = sorted({r[6] for r in rows} - registered_fields)
    if missing:
        pytest.skip(f"not registered by this build yet: {', '.join(missing)}")
    # the same calculations with tshark's io,stat over the whole capture
    calcs = ["COUNT(sqlnet.rt.rows)sqlnet.rt.rows", "SUM(sqlnet.rt.rows)sqlnet.rt.rows",
             "MAX(sqlnet.rt.rows_asked)sqlnet.rt.rows_asked", "COUNT(sqlnet.rt.rows_asked)sqlnet.rt.rows_asked"]
    out = run_profile(tshark, DEMO, ["-q", "-z", "io,stat,0," + ",".join(calcs)]).stdout
    line = [l for l in out.splitlines() if "<>" in l][0]
    nums = [int(v) for v in re.findall(r"\|\s*(\d+)\s*(?=\|)", line.split("<>")[1])]
    rq = requests(DEMO)
    assert nums == [len(rq), sum(r["response"]["rows_sent"] for r in rq),
                    max(r["rows_requested"] or 0 for r in rq),
                    sum(1 for r in rq if r["rows_requested"] is not None)]
    # Q1 over the capture (its filter after the field, as io,stat takes it):
    # the rows over the round trips that brought rows, the manifest's
    q1 = [r for r in rows if r[1].startswith("Q1 ")][0]
    out = run_profile(tshark, DEMO, ["-q", "-z", f"io,stat,0,SUM({q1[6]}){q1[6]} && {q1[2]},"
                                                  f"COUNT({q1[6]}){q1[6]} && {q1[2]}"]).stdout
    line = [l for l in out.splitlines() if "<>" in l][0]
    nums = [int(v) for v in re.findall(r"\|\s*(\d+)\s*(?=\|)", line.split("<>")[1])]
    fetched = [r["response"]["rows_sent"] for r in rq if r["response"]["rows_sent"] > 0]
    assert nums == [sum(fetched), len(fetched)]


def shown_table(text, command_part):
    """The data rows ("| a <> b | n | ...") of the output block shown after the
    ```sh block that contains `command_part`, as lists of numbers."""
    at = text.index(command_part)
    block = re.search(r"\n```\n```\n(.*?)```", text[at:], re.S).group(1)
    rows = []
    for line in block.splitlines():
        if "<>" in line:
            cells = [c.strip() for c in line.split("|")[2:]]
            rows.append([float(c) for c in cells if c])
    return rows


def test_readme_recipes_agree_with_the_manifest(tshark):
    """The counts profiles/README.md shows for its tshark recipes (which
    tests/test_readme.py compares with tshark's output) are the scripted
    server's own: round trips, rows, calls that ask for rows, the largest
    number asked, rows per 50 ms (by the time of each response's last frame),
    and the round trips and rows of the array-size-10 and -500 statements."""
    text = (ROOT / "profiles" / "README.md").read_text()
    rq = requests(DEMO)
    t0 = float(tshark.fields(DEMO, ["frame.time_epoch"], extra=["-c", "1"])[0][0])
    per50 = defaultdict(int)
    for r in rq:
        per50[int((r["response"]["last_frame_time"] - t0) / 0.05)] += r["response"]["rows_sent"]
    assert [row[0] for row in shown_table(text, "io,stat,0.05,'SUM(sqlnet.rt.rows)")] == [
        per50[i] for i in range(max(per50) + 1)]
    (count, rows, avg, asked, avg_asked, max_asked), = shown_table(text, "'COUNT(sqlnet.rt.rows)sqlnet.rt.rows','SUM(")
    assert count == len(rq)
    assert rows == sum(r["response"]["rows_sent"] for r in rq)
    assert avg == rows // count                      # io,stat's integer AVG
    with_asked = [r["rows_requested"] for r in rq if r["rows_requested"] is not None]
    assert asked == len(with_asked) and max_asked == max(with_asked)
    assert avg_asked == sum(with_asked) // len(with_asked)
    (rows10, n10, rows500, n500), = shown_table(text, "arraysize 10 \"','COUNT(sqlnet.rt.rows)")
    for size, shown_rows, shown_n in ((10, rows10, n10), (500, rows500, n500)):
        mine = [r for r in rq if r["sql"] and f"arraysize {size} " in r["sql"]]
        assert (shown_rows, shown_n) == (sum(r["response"]["rows_sent"] for r in mine), len(mine))


WAN = TEST_CAPTURES / "wan_rtt10_arraysize.pcapng"


def test_wait_column_shows_the_wan(tshark, profile):
    """Issue 34, symptom 2: on a capture taken near the server over a 10 ms
    link (the generator's netem: rtt_ms 10), the profile's "Wait" column
    reads at least the RTT on every round trip (a client waits one RTT more
    than the server's side of the wire shows), with three decimals on every
    row. Evidence: the generator's link delay; the column as tshark prints it."""
    rtt = manifest(WAN)["netem"]["rtt_ms"]
    assert rtt == 10.0
    cols = [t for t, _ in columns()]
    assert "Wait" in cols
    # the column as printed (-T tabs; 4.4 has no _ws.col.<title> for a custom column)
    values = []
    for line in run_profile(tshark, WAN, ["-T", "tabs", "-Y", "sqlnet.rt"]).stdout.splitlines():
        vals = line.split("\t")
        if len(vals) == len(cols) + 1 and vals[3] in ARROWS:
            del vals[3]
        assert len(vals) == len(cols), line
        values.append(vals[cols.index("Wait")].strip())
    n = sum(1 for r in requests(WAN) if r["response"].get("last_frame"))
    assert len(values) == n > 20
    assert all(re.fullmatch(r"\d+\.\d{3} ms", v) for v in values), values[:5]
    assert min(float(v.split()[0]) for v in values) >= rtt * 0.99, sorted(values)[:5]
