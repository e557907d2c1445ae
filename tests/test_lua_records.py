"""The Lua reports' round-trip records (plugin/consumers/lua_records.c).

The advisor takes each round trip's numbers from the plugin's own listener
on the "sqlnet" tap instead of reading fields in a Lua listener per packet.
Evidence:
- each record against the scripted server's own counters (the generated
  captures' manifests: rows sent, bytes, the request's frame, the rows it
  asked for, the end-of-call status), record by record;
- the advisor's whole report read both ways (records, and fields with
  SQLNET_LUA_RECORDS=0): two collection paths of one report must agree on
  every generated and real capture they are given.
"""
import json
import re
import subprocess
from pathlib import Path

import pytest

from tshark import PUBLIC, ROOT, TEST_CAPTURES, staged_plugin

PROBE = r'''
local open = assert(package.loadlib("sqlnet.so", "luaopen_sqlnet_records"))
local records = open()
local col = assert(records.open(nil))
local tap = Listener.new("frame", "frame.number == 0")
function tap.draw()
    local names = { "stream", "src_port", "dst_port", "frame", "abs_ts", "request_frame", "call", "execution",
                    "fetch", "rows", "req_ttc", "req_bytes", "resp_ttc", "resp_bytes", "resp_packets",
                    "resp_segments", "row_bytes", "bvc_bytes", "time_ns", "first_ns", "ora_error",
                    "largest_segment", "sdu", "tdu", "version", "sql", "sql_id", "client_ms", "rtt", "vantage" }
    for i = 1, col:count() do
        local v = { col:get(i) }
        local parts = {}
        for k, name in ipairs(names) do
            local x = v[k]
            if (name == "sql" or name == "sql_id") and x then x = col:text(x) end
            parts[#parts + 1] = name .. "=" .. (x == nil and "-" or tostring(x))
        end
        print("REC\t" .. table.concat(parts, "\t"))
    end
    print("RECORDS " .. col:count())
end
'''


def libwireshark_lua():
    """The Lua shared library libwireshark links (None: none, or not found)."""
    libs = sorted(Path("/usr/lib").glob("*/libwireshark.so.[0-9]*"))
    if not libs:
        return None
    out = subprocess.run(["objdump", "-p", str(libs[0])], capture_output=True, text=True).stdout
    m = re.search(r"liblua5\.\d", out)
    return m.group(0) if m else None


@pytest.fixture(scope="module")
def records_built():
    plugin = staged_plugin()
    out = subprocess.run(["objdump", "-p", "-T", str(plugin)], capture_output=True, text=True).stdout
    if libwireshark_lua() is None:
        pytest.skip("libwireshark links no shared Lua library here: the reports read fields")
    return out


def test_module_is_built_and_found_by_its_soname(records_built):
    # built against the Lua libwireshark links, and named so that
    # package.loadlib("sqlnet.so") hands back the loaded plugin
    assert re.search(r"SONAME\s+sqlnet\.so\b", records_built)
    assert "luaopen_sqlnet_records" in records_built
    assert libwireshark_lua() in records_built


def probe(tshark, capture, tmp_path):
    script = tmp_path / "probe.lua"
    script.write_text(PROBE)
    proc = tshark.run(capture, ["-q", "-X", f"lua_script:{tshark.readable(script)}"])
    assert proc.stderr == ""
    recs = []
    for line in proc.stdout.splitlines():
        if line.startswith("REC\t"):
            recs.append(dict(p.split("=", 1) for p in line.split("\t")[1:]))
    assert f"RECORDS {len(recs)}" in proc.stdout
    return recs


GENERATED = ["sweep_arraysize", "arraysize_50", "jdbc_fetchsize_sweep", "paced_sweep"]


@pytest.mark.parametrize("name", GENERATED)
def test_records_match_the_scripted_servers_counters(tshark, tmp_path, name, records_built):
    """Every round trip the scripted server answered, as its manifest counts it."""
    manifest = json.loads((TEST_CAPTURES / f"{name}.json").read_text())
    recs = {int(r["frame"]): r for r in probe(tshark, TEST_CAPTURES / f"{name}.pcapng", tmp_path)}
    checked = 0
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            resp = req.get("response")
            if not resp or not resp.get("last_frame"):
                continue
            r = recs.get(resp["last_frame"])
            assert r is not None, (name, req["index"], resp["last_frame"])
            # the request's frame: where it ends (its first, in one segment)
            if req["request_tcp_segments"] == 1:
                assert int(r["request_frame"]) == req["request_first_frame"]
            else:
                assert int(r["request_frame"]) > req["request_first_frame"]
            assert int(r["rows"]) == resp["rows_sent"], (name, req["index"])
            assert int(r["resp_bytes"]) == resp["tns_bytes"]
            assert int(r["resp_ttc"]) == resp["ttc_bytes"]
            assert int(r["resp_packets"]) == resp["tns_packets"]
            assert int(r["row_bytes"]) == resp["row_bytes"]
            assert int(r["bvc_bytes"]) == resp["bvc_bytes"]
            assert int(r["req_bytes"]) == req["request_tns_bytes"]
            assert int(r["sdu"]) == conn["negotiated_sdu"]
            assert int(r["dst_port"]) == conn["client_port"]
            if req["function"] == "OFETCH":
                assert r["fetch"] == str(req["rows_requested"]), (name, req["index"])
                assert r["call"] == str(req["func_code"])
            if resp["ora_error"]:
                assert r["ora_error"] == str(resp["ora_error"])
            if req.get("sql"):
                assert r["sql"] == req["sql"]
            # the response's time: its first frame's to its last's, within it
            assert float(r["first_ns"]) <= float(r["time_ns"])
            checked += 1
    assert checked == len(recs) and checked > 0


def advise(tshark, capture, args, records):
    argv = ["tshark", "-r", str(tshark.readable(capture)), "-q", "-z", "sqlnet,advise" + args]
    proc = subprocess.run(tshark.user_command(argv, env=[f"SQLNET_LUA_RECORDS={records}"]),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def both_ways_cases():
    cases = [(TEST_CAPTURES / f"{n}.pcapng", "") for n in
             ("sweep_arraysize", "wan_rtt10_arraysize", "pauses_stall", "prefetch_tied_19_python",
              "tls12_arraysize",
              # round trips outside the fetch plan: LOB reads, go-ora's cursor closes
              "lob_19_python", "pattern_nplus1_19_wan50_goora")]
    cases.append((TEST_CAPTURES / "sweep_arraysize.pcapng", ",format=json"))
    cases.append((TEST_CAPTURES / "sweep_arraysize.pcapng", ",sqlnet.fetch.rows >= 10 || sqlnet.rt.call != 5"))
    # real captures: the 11g SQL*Plus session, JDBC, and a session with an
    # ORA error in the middle of its fetches
    for rel in ("visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng", "dbbat/jdbc_thin_cursor_reexec.pcapng",
                "dbbat/sqlplus_midfetch_fail.pcapng"):
        cases.append((PUBLIC / rel, ""))
    return [pytest.param(c, a, id=f"{c.stem}{a[:12]}") for c, a in cases if c.exists()]


@pytest.mark.parametrize("capture, args", both_ways_cases())
def test_advisor_reads_the_same_both_ways(tshark, capture, args, records_built):
    with_records = advise(tshark, capture, args, 1)
    with_fields = advise(tshark, capture, args, 0)
    assert with_records.strip()
    assert with_records == with_fields


STATEMENTS = r'''
local open = assert(package.loadlib("sqlnet.so", "luaopen_sqlnet_records"))
local records = open()
local filter = @FILTER@
local report = assert(records.statements("open", filter ~= "" and filter or nil))
local tap = Listener.new("frame", "frame.number == 0")
function tap.draw()
    io.write(records.statements("text", report))
    records.statements("close", report)
    print("CLOSED")
end
'''


@pytest.mark.parametrize("capture, filter", [
    (TEST_CAPTURES / "sweep_arraysize.pcapng", ""),
    (TEST_CAPTURES / "tls12_arraysize.pcapng", ""),
    (TEST_CAPTURES / "jdbc_fetchsize_sweep.pcapng", "sqlnet.rt.rows > 0"),
], ids=lambda v: getattr(v, "stem", v or "all"))
def test_statements_report_for_the_window(tshark, tmp_path, capture, filter, records_built):
    """records.statements (the window SQL*Net Statements): the text of -z sqlnet,stmt
    as tshark prints it (the report exists once, in C), with the same filter."""
    script = tmp_path / "statements.lua"
    script.write_text(STATEMENTS.replace("@FILTER@", json.dumps(filter)))
    proc = tshark.run(capture, ["-q", "-X", f"lua_script:{tshark.readable(script)}"])
    assert proc.stderr == ""
    cli = tshark.run(capture, ["-q", "-z", "sqlnet,stmt" + ("," + filter if filter else "")]).stdout
    assert "SQL*Net statements (wire AUTOTRACE)" in cli
    assert proc.stdout == cli + "CLOSED\n"
