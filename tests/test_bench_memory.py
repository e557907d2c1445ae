"""bench/memory.py runs and measures what it says (a smoke test: the memory
figures themselves are benchmark output, not test thresholds).

Evidence for the workload size: the source capture's manifest (rows per
full fetch) and the repetition count the test asks for."""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_memory_benchmark_smoke(tshark):
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "memory.py"), "--runs", "1",
                          "--rows-reps", "2", "--cursors", "0", "--nulls", "0"],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    manifest = json.loads((ROOT / "test-captures" / "arraysize_100.json").read_text())
    full = [r for r in manifest["connections"][0]["requests"]
            if r["function"] == "OFETCH" and r["response"]["rows_sent"] == manifest["client"]["arraysize"]]
    rows = [int(m) for m in re.findall(r"^\| bitvector \| (\d+) rows", out, re.M)]
    assert rows == [2 * len(full) * 100, 4 * len(full) * 100]
    growth = re.search(r"^\| bitvector \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| (-?[\d.]+) \|$", out, re.M)
    assert growth, out
    assert all(float(g) > 0.5 for g in growth.groups()[:3])
    assert out.startswith("Machine: ")
