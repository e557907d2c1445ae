"""Lua scripts (lua/): parse on Lua 5.2 and 5.4, load in tshark without a
word on stderr, and report numbers equal to the generator's manifests."""
import json
import re
import shutil
import subprocess
from collections import defaultdict

import pytest

from tshark import ROOT, TEST_CAPTURES

SCRIPTS = sorted((ROOT / "lua").glob("*.lua"))


@pytest.mark.parametrize("luac", ["luac5.2", "luac5.4"])
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_parses(luac, script):
    if not shutil.which(luac):
        pytest.skip(f"{luac} not installed")
    proc = subprocess.run([luac, "-p", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_loads_without_messages(tshark):
    """tshark loads every script from the plugin folder; a Lua error would only show on stderr."""
    cap = TEST_CAPTURES / "arraysize_100.pcapng"
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,arraysize"])
    assert proc.stderr.strip() == ""
    assert "SQL*Net array sizes" in proc.stdout


@pytest.mark.parametrize("scenario", ["sweep_arraysize", "arraysize_15", "node_basic", "goora_basic"])
def test_arraysize_report_matches_manifest(tshark, scenario):
    m = json.loads((TEST_CAPTURES / f"{scenario}.json").read_text())
    want = defaultdict(lambda: [0, 0, 0])
    for conn in m["connections"]:
        for req in conn["requests"]:
            resp = req.get("response") or {}
            if req.get("rows_requested") and resp.get("last_frame"):
                w = want[req["rows_requested"]]
                w[0] += 1
                w[1] += resp["rows_sent"]
                w[2] += resp["tns_bytes"]
    out = tshark.run(TEST_CAPTURES / m["capture"], ["-q", "-z", "sqlnet,arraysize"]).stdout
    got = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 8 and re.fullmatch(r"\d+", f[0]):
            got[int(f[0])] = [int(f[1]), int(f[2]), int(f[4])]
    assert got == dict(want)
