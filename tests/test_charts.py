"""scripts/charts.py: the data behind the demo's charts equals the manifests."""
import csv
import os
import json
import subprocess
import sys

import pytest

from tshark import ROOT, TEST_CAPTURES

pytest.importorskip("matplotlib")


def manifest(name):
    return json.loads((TEST_CAPTURES / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def charts(tshark, tmp_path_factory):
    sweep = TEST_CAPTURES / "sweep_arraysize.pcapng"
    sdus = sorted(TEST_CAPTURES.glob("sdu_*_mtu_1500.pcapng"))
    if not sweep.is_file() or not sdus:
        pytest.skip("generated captures not present")
    out = tmp_path_factory.mktemp("charts")
    args = [sys.executable, str(ROOT / "scripts" / "charts.py"), "--tshark", str(tshark.wrapper()),
            "--sweep", str(tshark.readable(sweep)), "--out", str(out), "--sdu"]
    args += [str(tshark.readable(p)) for p in sdus]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out


def test_pictures_written(charts):
    for name in ("arraysize.png", "sdu.png"):
        data = (charts / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000


def test_arraysize_points_match_manifest(charts):
    m = manifest("sweep_arraysize")
    statements = {st["sql"]: st for sess in m["client"]["report"]["sessions"] for st in sess["statements"]}
    round_trips = {}
    for conn in m["connections"]:
        for req in conn["requests"]:
            if req.get("sql"):
                round_trips[req["sql"]] = round_trips.get(req["sql"], 0) + 1
    rows = list(csv.DictReader(open(charts / "arraysize.csv")))
    assert sorted(int(r["array_size"]) for r in rows) == sorted(st["arraysize"] for st in statements.values())
    for r in rows:
        st = statements[r["sql"]]
        assert int(r["array_size"]) == st["arraysize"]
        assert int(r["rows"]) == st["rows"]
        assert int(r["round_trips"]) == round_trips[r["sql"]]


def test_sdu_points_match_manifests(charts):
    by_sdu = {}
    for path in TEST_CAPTURES.glob("sdu_*_mtu_1500.json"):
        conn = json.loads(path.read_text())["connections"][0]
        by_sdu[conn["negotiated_sdu"]] = conn
    rows = list(csv.DictReader(open(charts / "sdu.csv")))
    assert sorted(int(r["sdu"]) for r in rows) == sorted(by_sdu)
    for r in rows:
        conn = by_sdu[int(r["sdu"])]
        fetches = [q["response"] for q in conn["requests"] if q.get("func_code") == 5 and q["response"]["rows_sent"] > 0]
        want = sum(f["tns_packets"] for f in fetches) / len(fetches)
        assert float(r["packets_per_response"]) == pytest.approx(want)
        segs = sum(f["tcp_segments"] for f in fetches) / sum(f["tns_packets"] for f in fetches)
        assert float(r["segments_per_packet"]) == pytest.approx(segs)


def test_timeline_of_a_wan_capture(tshark, tmp_path):
    """--timeline: the I/O graph of where the time goes. Evidence: the WAN
    link's configured RTT (the manifest's netem setting) times the round trips
    the scripted server answered, and the rows it sent."""
    m = manifest("wan_rtt10_arraysize")
    cap = TEST_CAPTURES / m["capture"]
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "charts.py"), "--tshark", str(tshark.wrapper()),
                           "--timeline", str(tshark.readable(cap)), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader(open(tmp_path / "timeline.csv")))
    assert len(rows) > 5
    round_trips = sum(len(c["requests"]) for c in m["connections"])
    network = sum(float(r["network"]) for r in rows)
    assert network == pytest.approx(m["netem"]["rtt_ms"] / 1000 * round_trips, rel=0.10)
    sent = sum(r["response"]["rows_sent"] for c in m["connections"] for r in c["requests"])
    assert sum(int(r["rows"]) for r in rows) == sent


def _python_without_matplotlib():
    """A Python interpreter of this machine that has no matplotlib (the system's
    or the one that made .venv), or None."""
    for cand in ("/usr/bin/python3", sys.base_prefix + "/bin/python3"):
        try:
            proc = subprocess.run([cand, "-c", "import matplotlib"], capture_output=True, timeout=60)
        except OSError:
            continue
        if proc.returncode != 0:
            return cand
    return None


def test_charts_outside_the_project_environment(tshark, tmp_path):
    """Run as the README says, with a Python that lacks matplotlib: charts.py
    either draws through the project's .venv or writes the CSV and says why
    there is no picture - never a traceback (issue 22: it failed on
    `import matplotlib` outside the virtual environment)."""
    py = _python_without_matplotlib()
    if py is None:
        pytest.skip("every Python here has matplotlib")
    sweep = TEST_CAPTURES / "sweep_arraysize.pcapng"
    for env_extra, expect_png in (({}, (ROOT / ".venv" / "bin" / "python").is_file()),
                                  ({"SQLNET_CHARTS_NO_REEXEC": "1"}, False)):
        out = tmp_path / ("venv" if not env_extra else "plain")
        env = dict(os.environ, **env_extra)
        proc = subprocess.run([py, str(ROOT / "scripts" / "charts.py"), "--tshark", str(tshark.wrapper()),
                               "--sweep", str(tshark.readable(sweep)), "--out", str(out)],
                              capture_output=True, text=True, timeout=600, env=env)
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        rows = list(csv.DictReader(open(out / "arraysize.csv")))
        m = manifest("sweep_arraysize")   # the client's own report: one execution per array size
        sizes = [st["arraysize"] for sess in m["client"]["report"]["sessions"] for st in sess["statements"]]
        assert sorted(int(r["array_size"]) for r in rows) == sorted(sizes)
        assert (out / "arraysize.png").is_file() == expect_png
        if not expect_png:
            assert "matplotlib is not installed" in proc.stderr
