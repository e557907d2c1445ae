"""The round-trip record as named columns (plugin/record/sqlnet_rt.h, issue 24):
-z sqlnet,rt prints every round trip with every column, Lua reads a column by
its name (col:fact), and a per-call fact added to the record's table
(TTC_CALL_FACTS) reaches a field, the report and the advisor.

Evidence: the generated captures' manifests (test-captures/*.json: the scripted
server's own counts per request and response, the client's binds).
"""
import csv
import io
import json

import pytest

from tshark import TEST_CAPTURES

GENERATED = ["sweep_arraysize", "arraysize_50", "jdbc_fetchsize_sweep", "binds_23ai_python"]


def answered(manifest):
    """(connection, request, response) the scripted server answered."""
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            resp = req.get("response")
            if resp and resp.get("last_frame"):
                yield conn, req, resp


def rt_csv(tshark, capture, extra=""):
    out = tshark.run(capture, ["-q", "-z", "sqlnet,rt,format=csv" + extra]).stdout
    return list(csv.DictReader(io.StringIO(out.lstrip("\n"))))


@pytest.mark.parametrize("name", GENERATED)
def test_report_rows_are_the_scripted_servers(tshark, name):
    manifest = json.loads((TEST_CAPTURES / f"{name}.json").read_text())
    rows = {int(r["response_frame"]): r for r in rt_csv(tshark, TEST_CAPTURES / f"{name}.pcapng")}
    checked = 0
    for conn, req, resp in answered(manifest):
        r = rows[resp["last_frame"]]
        assert int(r["rows"]) == resp["rows_sent"], (name, req["index"])
        assert int(r["response.tns_bytes"]) == resp["tns_bytes"]
        assert int(r["response.ttc_bytes"]) == resp["ttc_bytes"]
        assert int(r["response.packets"]) == resp["tns_packets"]
        assert int(r["row_bytes"]) == resp["row_bytes"]
        assert int(r["bvc_bytes"]) == resp["bvc_bytes"]
        assert int(r["request.tns_bytes"]) == req["request_tns_bytes"]
        assert int(r["sdu"]) == conn["negotiated_sdu"]
        if req["function"] == "OFETCH":
            assert int(r["rows_asked"]) == req["rows_requested"]
            assert int(r["call"]) == req["func_code"]
        if resp["ora_error"]:
            # ora_status: the end-of-call status, 1403 too; ora_error: an error only
            assert int(r["ora_status"]) == resp["ora_error"]
            if resp["ora_error"] != 1403:
                assert int(r["ora_error"]) == resp["ora_error"]
            else:
                assert r["ora_error"] == ""
        checked += 1
    # one line per round trip: as many as the server answered
    assert checked == len(rows) and checked > 0


def test_text_and_csv_say_the_same(tshark):
    cap = TEST_CAPTURES / "arraysize_50.pcapng"
    text = tshark.run(cap, ["-q", "-z", "sqlnet,rt"]).stdout
    lines = [l for l in text.splitlines() if l.startswith("conversation=")]
    rows = rt_csv(tshark, cap)
    assert len(lines) == len(rows) > 0
    assert f"SQL*Net round trips: {len(rows)}" in text
    for line, row in zip(lines, rows):
        present = {k: v for k, v in row.items() if v != ""}
        assert dict(p.split("=", 1) for p in line.split()) == present


def test_filter_and_unknown_format(tshark):
    cap = TEST_CAPTURES / "arraysize_50.pcapng"
    fetches = rt_csv(tshark, cap, ",sqlnet.rt.call == 5")
    manifest = json.loads((TEST_CAPTURES / "arraysize_50.json").read_text())
    assert len(fetches) == sum(1 for _c, req, _r in answered(manifest) if req["function"] == "OFETCH") > 0
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,rt,format=xml"], check=False)
    assert "unknown format" in proc.stderr


PROBE = r'''
local open = assert(package.loadlib("sqlnet.so", "luaopen_sqlnet_records"))
local records = open()
local col = assert(records.open(nil))
local tap = Listener.new("frame", "frame.number == 0")
function tap.draw()
    print("COLUMNS " .. table.concat(records.columns(), ","))
    for i = 1, col:count() do
        print(string.format("FACT %s %s %s", tostring(col:fact(i, "response_frame")),
                            tostring(col:fact(i, "rows")), tostring(col:fact(i, "rows_asked"))))
    end
    print("BAD " .. tostring(pcall(col.fact, col, 1, "no_such_column")))
end
'''


def test_lua_reads_columns_by_name(tshark, tmp_path):
    from test_lua_records import libwireshark_lua
    if libwireshark_lua() is None:
        pytest.skip("libwireshark links no shared Lua library here")
    script = tmp_path / "probe.lua"
    script.write_text(PROBE)
    cap = TEST_CAPTURES / "arraysize_50.pcapng"
    proc = tshark.run(cap, ["-q", "-X", f"lua_script:{tshark.readable(script)}"])
    assert proc.stderr == ""
    columns = next(l for l in proc.stdout.splitlines() if l.startswith("COLUMNS ")).split(" ", 1)[1]
    assert columns.split(",") == list(rt_csv(tshark, cap)[0].keys())
    facts = {}
    for line in proc.stdout.splitlines():
        if line.startswith("FACT "):
            frame, rows, asked = line.split()[1:]
            facts[int(frame)] = (int(rows), asked)
    manifest = json.loads((TEST_CAPTURES / "arraysize_50.json").read_text())
    for _conn, req, resp in answered(manifest):
        rows, asked = facts[resp["last_frame"]]
        assert rows == resp["rows_sent"]
        if req["function"] == "OFETCH":
            assert asked == str(req["rows_requested"])
    assert "BAD false" in proc.stdout


# ---- a per-call fact: bind values sent per call ------------------------------------

BINDS = sorted(TEST_CAPTURES.glob("binds_*.json")) + sorted(TEST_CAPTURES.glob("batch_*.json"))


def sent_binds(manifest):
    """Bind values the client sent per call, per step that bound any: its binds (one
    row: binds_*), or the rows of an executemany x the values of each (batch_*)."""
    out = []
    for st in manifest["client"]["steps"]:
        if st.get("binds"):
            out.append(len(st["binds"]))
        elif st.get("many"):
            out.append(len(st["many"]) * len(st["many"][0]))
    return out


@pytest.mark.parametrize("path", BINDS, ids=[p.stem for p in BINDS])
def test_bind_values_sent_per_call(tshark, path):
    m = json.loads(path.read_text())
    cap = TEST_CAPTURES / m["capture"]
    expected = sent_binds(m)
    assert expected and all(n > 0 for n in expected)
    # the field, on the round trip of the call that sent them
    out = tshark.run(cap, ["-T", "fields", "-e", "sqlnet.rt.bind_values", "-Y", "sqlnet.rt.bind_values"]).stdout
    assert [int(v) for v in out.split()] == expected
    # the tap report
    rows = [r for r in rt_csv(tshark, cap) if r.get("bind_values")]
    assert [int(r["bind_values"]) for r in rows] == expected
    # the advisor, on the statement that sent them (not advised: DML)
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,advise"])
    assert proc.stderr == ""
    for n in expected:
        assert f"({n} bind values sent)" in proc.stdout


# ---- the mechanism itself: a fact planted in a copy of the sources -------------------

def test_a_planted_fact_reaches_the_field_the_report_and_lua(tshark, tmp_path):
    """Issue 24's "show it", as a check that keeps holding: in a copy of the
    sources, one row added to TTC_CALL_FACTS and one decoder line that sets it
    (two edits, two files) give the field sqlnet.rt.<abbrev>, a column of
    -z sqlnet,rt and a fact Lua reads by name, on the calls the decoder line
    runs for. Evidence: the planted value (4242) and the manifest's binds (the
    line sits beside the one that counts an OALL8's bind values)."""
    import os
    import shutil
    import subprocess
    from test_lua_records import libwireshark_lua
    from tshark import ROOT, Tshark
    src = tmp_path / "src"
    shutil.copytree(ROOT / "plugin", src / "plugin")
    shutil.copy(ROOT / "CMakeLists.txt", src)
    shutil.copytree(ROOT / "lua", src / "lua")
    header = src / "plugin" / "record" / "ttc_roundtrip.h"
    text = header.read_text()
    row = ('      "(OALL8: the execution count of a DML, one row for a query or PL/SQL)")\n')
    assert row in text
    header.write_text(text.replace(row, row.rstrip("\n") + ' \\\n    X(planted_fact, "planted_fact", '
                                   '"Planted fact", "A fact planted by tests/test_rt_facts.py")\n', 1))
    decoder = src / "plugin" / "decoders" / "ttc_execute.c"
    text = decoder.read_text()
    line = "        call->bind_values = (nbinds - call->returning_binds)"   # OALL8's, not OALL7's
    assert text.count(line) == 1
    decoder.write_text(text.replace(line, "        call->planted_fact = 4242;\n" + line, 1))
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", str(src), "-B", str(build), "-DSQLNET_WERROR=ON"], check=True,
                   capture_output=True, text=True)
    proc = subprocess.run(["cmake", "--build", str(build), "-j", str(os.cpu_count() or 1)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    planted = Tshark()
    try:
        staged = next(build.glob("plugins/*/epan/sqlnet.so"))
        target = next(planted.plugin_dir.glob("*/epan/sqlnet.so"))
        shutil.copy2(staged, target)
        os.chmod(target, 0o644)
        m = json.loads((TEST_CAPTURES / "binds_23ai_python.json").read_text())
        cap = TEST_CAPTURES / m["capture"]
        calls = len(sent_binds(m))
        out = planted.run(cap, ["-T", "fields", "-e", "sqlnet.rt.planted_fact", "-e", "sqlnet.rt.bind_values",
                                "-Y", "sqlnet.rt.planted_fact"]).stdout
        pairs = [l.split("\t") for l in out.splitlines() if l.strip()]
        assert len(pairs) == calls and all(p == "4242" and b for p, b in pairs), pairs
        rows = [r for r in rt_csv(planted, cap) if r.get("planted_fact")]
        assert [r["planted_fact"] for r in rows] == ["4242"] * calls
        if libwireshark_lua() is not None:
            script = tmp_path / "probe.lua"
            script.write_text(PROBE.replace('"rows_asked"', '"planted_fact"'))
            proc = planted.run(cap, ["-q", "-X", f"lua_script:{planted.readable(script)}"])
            assert proc.stderr == ""
            assert "planted_fact" in next(l for l in proc.stdout.splitlines() if l.startswith("COLUMNS "))
            facts = [l.split()[3] for l in proc.stdout.splitlines() if l.startswith("FACT ")]
            assert facts.count("4242") == calls
        # the unplanted build knows no such field
        assert tshark.run(cap, ["-Y", "sqlnet.rt.planted_fact"], check=False).returncode != 0
    finally:
        planted.close()
