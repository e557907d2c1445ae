"""The README's build-tree recipe, run as written: a build tree (no install) gives
every report, the Lua ones included (issue 22: with WIRESHARK_PLUGIN_DIR=build/plugins
-z sqlnet,advise failed with "Invalid -z argument", the Lua scripts were not staged).
Evidence: the README's own command line; the advisor's banner and the sweep's
statement count from its manifest (the client's report)."""
import json
import os
import re
import shlex
import subprocess

import pytest

from tshark import BUILD, ROOT, TEST_CAPTURES

RECIPE = re.compile(r"^WIRESHARK_PLUGIN_DIR=\$PWD/build/plugins tshark .*$", re.M)


def test_build_tree_recipe_runs_the_lua_reports(tshark):
    m = RECIPE.search((ROOT / "README.md").read_text())
    assert m, "README.md has no build-tree recipe"
    argv = shlex.split(m.group(0).replace("$PWD", str(ROOT)))
    env_assign, cmd = argv[0], argv[1:]
    plugin_dir = env_assign.split("=", 1)[1]
    if BUILD != ROOT / "build":
        pytest.skip("SQLNET_BUILD_DIR is not the README's build/")
    # the capture as the unprivileged user can read it; everything else as written
    cmd = [str(tshark.readable(ROOT / c)) if c.startswith("test-captures/") else c for c in cmd]
    run = ["env", f"WIRESHARK_PLUGIN_DIR={plugin_dir}", f"HOME={tshark.home}", "LC_ALL=C.UTF-8"] + cmd
    if os.geteuid() == 0:       # root ignores WIRESHARK_PLUGIN_DIR: the recipe is for a user
        run = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + run
    proc = subprocess.run(run, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Invalid -z argument" not in proc.stderr
    assert "Lua" not in proc.stderr and "lua" not in proc.stderr, proc.stderr
    assert "SQL*Net array-size and SDU advisor" in proc.stdout
    m = json.loads((TEST_CAPTURES / "sweep_arraysize.json").read_text())
    queries = {st["sql"] for sess in m["client"]["report"]["sessions"] for st in sess["statements"]}
    for sql in queries:
        assert sql in proc.stdout
