import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tshark import PUBLIC, Tshark  # noqa: E402


@pytest.fixture(scope="session")
def tshark():
    t = Tshark()
    _SESSION["tshark"] = t
    yield t
    t.close()


_SESSION = {}


@pytest.fixture(scope="session")
def public_dir():
    if not (PUBLIC / "EXPECTED.json").is_file():
        pytest.skip(f"public captures not available ({PUBLIC})")
    return PUBLIC


def _corpus_missing():
    return not (PUBLIC / "EXPECTED.json").is_file()


def pytest_report_header(config):
    state = "MISSING" if _corpus_missing() else "found"
    return f"sqlnet real-capture corpus (SQLNET_CORPUS): {PUBLIC} [{state}]"


_MODULE_SECONDS = {}


def pytest_runtest_logreport(report):
    """Seconds per test module (setup, call and teardown), for the summary."""
    mod = report.nodeid.split("::", 1)[0]
    _MODULE_SECONDS[mod] = _MODULE_SECONDS.get(mod, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The modules that took longest (CI prints them: where a lane's time went);
    how many tshark runs the session's cache answered; one loud line when the
    real-capture tests were skipped for want of the corpus."""
    top = sorted(_MODULE_SECONDS.items(), key=lambda kv: -kv[1])[:15]
    if top and sum(_MODULE_SECONDS.values()) > 60:
        for mod, sec in top:
            terminalreporter.write_line(f"module time {sec:8.1f} s  {mod}")
    t = _SESSION.get("tshark")
    if t is not None:
        st = t.cache_stats
        terminalreporter.write_line(f"tshark runs: {st['misses']}; repeated runs answered from the session's "
                                    f"cache: {st['hits']} (about {st['saved_s']:.0f} s saved)")
    if not _corpus_missing():
        return
    reasons = [str(getattr(r, "longrepr", "")) for r in terminalreporter.stats.get("skipped", [])]
    tests = sum("public captures not available" in r for r in reasons)
    groups = sum("got empty parameter set" in r for r in reasons)   # one per capture list
    terminalreporter.write_sep(
        "!", f"REAL-CAPTURE CORPUS NOT FOUND at {PUBLIC}: {tests} tests and {groups} per-capture test groups "
             "on real Oracle captures were SKIPPED; set SQLNET_CORPUS or run scripts/fetch_corpus.py",
        red=True, bold=True)


# Test modules whose subject does not depend on the Wireshark release: the
# generator (its encoders, catalogue and end-to-end runs read captures with
# tshark's core TCP fields only), the static call-graph check of the C sources
# and the docs' shape (the fuzz budget is switched off there by its own
# SQLNET_FUZZ_SECONDS=0; its regression inputs still go through each release).
# scripts/buildroot.sh sets
# SQLNET_RELEASE_DEPENDENT_ONLY=1: a build root tests another release's
# Wireshark, so it leaves these to the host run (./run.sh test, .ci/run).
# The Spark path of the batch job (tests/test_batch_spark.py) is the merge in
# Spark SQL over records that tests/test_batch.py checks on every release.
RELEASE_INDEPENDENT = ("tests/testgen/", "tests/test_no_recursion.py", "tests/test_docs_shape.py",
                       "tests/test_batch_spark.py", "tests/test_batch_spark_cluster.py", "tests/test_layers.py", "tests/test_docs_architecture.py",
                       "tests/test_tns_builder.py", "tests/test_ws_checkers.py", "tests/test_advise_model.py")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "host_only: a test whose release-dependent part other tests cover on every release "
                   "(a tool's report over every capture): the host runs it, build roots leave it "
                   "(SQLNET_RELEASE_DEPENDENT_ONLY=1), and the CI time it saved goes to the rest")


def pytest_collection_modifyitems(config, items):
    import os
    root = Path(__file__).resolve().parent.parent
    keep, drop = [], []
    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        independent = os.environ.get("SQLNET_RELEASE_DEPENDENT_ONLY") == "1" and (
            rel.startswith(RELEASE_INDEPENDENT) or item.get_closest_marker("host_only") is not None)
        (drop if independent else keep).append(item)
    keep, sharded = _shard_keep(keep)
    drop += sharded
    # SQLNET_TEST_PART=fg|bg (.ci/run on the host): bg is the release-independent
    # modules, run on the second core after the build roots; fg is the rest, the
    # fuzz budget included (the two lanes end closer together: about 22 and 21 min)
    part = os.environ.get("SQLNET_TEST_PART", "")
    if part in ("fg", "bg"):
        bg_mods = RELEASE_INDEPENDENT
        k2 = []
        for item in keep:
            rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
            ((k2 if part == "bg" else drop) if rel.startswith(bg_mods) else (drop if part == "bg" else k2)).append(item)
        keep = k2
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# SQLNET_CAPTURE_SHARD="k/n" (CI's build roots: trixie 0/2, sid 1/2): of the
# tests parametrized by a capture, run those whose capture falls in share k
# of n; every other test runs whole. The host run (Wireshark 4.0, the first
# target) runs every capture; each newer release then decodes half of them,
# and the two build roots together all of them, on one newer release each.
def _capture_of(item):
    cs = getattr(item, "callspec", None)
    if cs is None:
        return None
    for v in cs.params.values():
        if isinstance(v, dict) and isinstance(v.get("capture"), str):
            return Path(v["capture"]).name
        if isinstance(v, Path) and v.suffix in (".pcapng", ".pcap", ".json"):
            return v.name
        if isinstance(v, str) and v.endswith((".pcapng", ".pcap")):
            return Path(v).name
        if isinstance(v, tuple) and v and isinstance(v[0], str) and v[0].endswith((".pcapng", ".pcap")):
            return Path(v[0]).name
    return None


def _shard_keep(items):
    import os
    import zlib
    shard = os.environ.get("SQLNET_CAPTURE_SHARD", "")
    if not shard:
        return items, []
    k, n = (int(x) for x in shard.split("/"))
    keep, drop = [], []
    for item in items:
        cap = _capture_of(item)
        if cap is None or zlib.crc32(Path(cap).stem.encode()) % n == k:
            keep.append(item)
        else:
            drop.append(item)
    return keep, drop
