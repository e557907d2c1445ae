"""scripts/coverage.py: share of round trips decoded to their last byte per
client family and server release (issue 12, item 6).

Evidence: the generator's manifests (the scripted server counts every round
trip it answered, and records the client driver and the release it played);
the table's round trips must be exactly those, and every generated cell
must be decoded to the end.  With SQLNET_CAPTURE_SHARD (CI), the report runs
on the host's share of the generated captures: the others are decoded and
checked against their manifests, response by response, on their own release
(test_generated_captures.py).
"""
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CAPS = ROOT / "test-captures"

DRIVERS = {"python-oracledb": "python-oracledb thin", "node-oracledb": "node-oracledb thin", "go-ora": "go-ora",
           "jdbc-thin": "JDBC thin"}


def in_share(cap):
    """The capture is in this run's share (SQLNET_CAPTURE_SHARD, tests/conftest.py)."""
    from conftest import _share
    spec = os.environ.get("SQLNET_CAPTURE_SHARD", "")
    return not spec or _share(Path(cap).stem, spec)


@pytest.mark.host_only      # scripts/coverage.py's report; every release decodes the captures elsewhere
def test_generated_captures_fully_decoded_and_counted(tshark):
    caps = [str(c) for c in sorted(CAPS.glob("*.pcap*")) if in_share(c)]
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "coverage.py"), "--json",
                          "--tshark", str(tshark.wrapper())] + caps,
                         capture_output=True, text=True, check=True).stdout
    records = {Path(r["capture"]).name: r for r in json.loads(out)}
    want_trips, want_family = Counter(), {}
    for manifest in sorted(CAPS.glob("*.json")):
        if manifest.name == "INDEX.json" or not in_share(manifest):
            continue
        m = json.loads(manifest.read_text())
        if m.get("nne"):
            continue        # native network encryption: no TTC to decode (tests/test_nne.py)
        want_trips[m["capture"]] = sum(c["stats"]["round_trips"] for c in m["connections"])
        want_family[m["capture"]] = DRIVERS[m["client"]["driver"]]
    assert set(want_trips) <= set(records)
    assert set(want_family.values()) == set(DRIVERS.values())    # every family in the share
    for cap, trips in want_trips.items():
        r = records[cap]
        assert r["round_trips"] == trips, (cap, r)
        assert r["partial"] == 0, (cap, r)
        assert r["family"] == want_family[cap], (cap, r)
