"""A tshark run that asks for no sqlnet Lua report builds no protocol tree
(issue 38: a Lua Field extractor made while the scripts load makes tshark
build, and the plugin fill, a hidden tree for every packet of every run).

Evidence: Wireshark's own behaviour, observed by a probe script loaded with
-X lua_script: a Lua postdissector (registered without fields it wants) asks
tshark for no tree (a Lua Listener would: every one is TL_REQUIRES_PROTO_TREE),
and inside it Wireshark's all_field_infos() fails when the packet has no
tree ("Cannot be called outside a listener or dissector", wslua_field.c) and
returns the tree's items when it has one.  The probe
counts both; a run that asks for a report's extractors (-z sqlnet,arraysize)
is the control that shows the probe does see a tree when there is one.
The command-line reading itself is checked in plain Lua on hand-made
argument lists."""
import os
import re
import shutil
import subprocess

import pytest

from tshark import ROOT, TEST_CAPTURES

CAPTURE = TEST_CAPTURES / "sweep_arraysize.pcapng"
PROBE = """
local probe = Proto("sqlnet_tree_probe", "tree probe")
function probe.dissector(tvb, pinfo, tree)
    print(string.format("tree probe: %d %s", pinfo.number, pcall(all_field_infos) and "tree" or "none"))
end
register_postdissector(probe)
"""


@pytest.fixture(scope="module")
def probe(tshark):
    path = tshark.sandbox / "tree_probe.lua"
    path.write_text(PROBE)
    os.chmod(path, 0o644)
    return ["-X", f"lua_script:{path}"]


def counts(proc):
    """Packets the probe saw, and how many of them had a tree."""
    assert proc.stderr.strip() == "", proc.stderr
    said = re.findall(r"^tree probe: (\d+) (tree|none)$", proc.stdout, re.M)
    assert said, proc.stdout[:2000]
    return len(said), sum(1 for _, t in said if t == "tree")


def frames(tshark):
    return len(tshark.run(CAPTURE, ["-T", "fields", "-e", "frame.number"]).stdout.split())


def test_plain_run_builds_no_tree(tshark, probe):
    """tshark -q with the plugin and the three Lua scripts installed: no packet has a tree."""
    seen, with_tree = counts(tshark.run(CAPTURE, ["-q"] + probe))
    assert seen == frames(tshark) > 0
    assert with_tree == 0


def test_report_run_has_its_tree(tshark, probe):
    """The control: a run that asks for a Lua report makes its extractors, so every packet has a tree."""
    proc = tshark.run(CAPTURE, ["-q", "-z", "sqlnet,arraysize"] + probe)
    seen, with_tree = counts(proc)
    assert seen == with_tree == frames(tshark)
    assert "SQL*Net array sizes" in proc.stdout


def test_advise_run_builds_no_tree(tshark, probe):
    """-z sqlnet,advise without a filter: its facts come from the plugin's C
    listeners (lua_facts.c), it registers no Lua listener (every one needs the
    tree) and no field extractor, so no packet has a tree; the report is
    printed all the same.  With a filter (sqlnet,advise,FILTER) the filter
    needs the tree: every packet has one (the probe sees trees)."""
    proc = tshark.run(CAPTURE, ["-q", "-z", "sqlnet,advise"] + probe)
    seen, with_tree = counts(proc)
    assert seen == frames(tshark) > 0
    assert with_tree == 0
    assert "SQL*Net array-size and SDU advisor" in proc.stdout and "Statement 1: " in proc.stdout
    seen, with_tree = counts(tshark.run(CAPTURE, ["-q", "-z", "sqlnet,advise,sqlnet"] + probe))
    assert seen == with_tree == frames(tshark)


@pytest.mark.parametrize("lua", ["lua5.2", "lua5.4"])
def test_which_command_lines_make_extractors(lua, tmp_path):
    """M.wants_extractors on hand-made command lines: tshark with a -z naming the
    script's report (spelled as getopt takes it), not with other -z or none; always
    in the GUI, for another program, or without a readable command line."""
    if not shutil.which(lua):
        pytest.skip(f"{lua} not installed")
    driver = tmp_path / "driver.lua"
    driver.write_text(r"""
local M = dofile(arg[1])
local tui = { gui_enabled = function() return false end }
local gui = { gui_enabled = function() return true end }
local names = { "sqlnet,advise" }
local function w(api, ...) return tostring(M.wants_extractors(names, api, { ... })) end
print(w(tui, "/usr/bin/tshark", "-r", "x", "-q"),
      w(tui, "/usr/bin/tshark", "-r", "x", "-q", "-z", "sqlnet,advise"),
      w(tui, "tshark", "-r", "x", "-zsqlnet,advise,sqlnet.call == 5"),
      w(tui, "tshark", "-r", "x", "-qzsqlnet,advise"),
      w(tui, "tshark", "-r", "x", "-z", "sqlnet,arraysize", "-z", "sqlnet,stmt"),
      w(tui, "/usr/bin/tshark", "-r", "x", "-T", "fields", "-e", "sqlnet.fetch.rows"),
      w(gui, "/usr/bin/wireshark", "-r", "x"),
      w(tui, "/usr/bin/sharkd", "-"),
      tostring(M.wants_extractors(names, tui, nil) == (M.command_line() == nil or
                                                      not M.command_line()[1]:match("tshark"))),
      tostring(M.command_line(arg[2])))
""")
    missing = tmp_path / "no_such_cmdline"
    proc = subprocess.run([lua, str(driver), str(ROOT / "lua" / "sqlnet_model.lua"), str(missing)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["false", "true", "true", "true", "false", "false", "true", "true", "true",
                                   "nil"]
