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


_MODULE_CPU = {}


def _cpu_now():
    import resource
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """CPU seconds per test module, this process's and its children's (tshark,
    Wireshark): what a module costs whatever else the machine runs."""
    t0 = _cpu_now()
    yield
    mod = item.nodeid.split("::", 1)[0]
    _MODULE_CPU[mod] = _MODULE_CPU.get(mod, 0.0) + _cpu_now() - t0


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
            terminalreporter.write_line(f"module time {sec:8.1f} s  {mod}  (CPU {_MODULE_CPU.get(mod, 0):.1f} s)")
        terminalreporter.write_line(f"CPU of all tests: {sum(_MODULE_CPU.values()):.0f} s "
                                    f"(this process and the tools it ran)")
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
    keep, sharded = _shard_keep(keep, root)
    drop += sharded
    # SQLNET_TEST_PART=fg|bg (.ci/run on the host): bg is the release-independent
    # modules, run by whichever lane ends its own work first; fg is the rest, the
    # fuzz budget included
    part = os.environ.get("SQLNET_TEST_PART", "")
    if part in ("fg", "bg"):
        bg_mods = RELEASE_INDEPENDENT
        k2 = []
        for item in keep:
            rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
            ((k2 if part == "bg" else drop) if rel.startswith(bg_mods) else (drop if part == "bg" else k2)).append(item)
        keep = k2
    # SQLNET_TEST_GUI=only|none (.ci/run, scripts/buildroot.sh): the tests that
    # open Wireshark's window (the gui_tools fixture) or the others. A GUI test
    # spends most of its time waiting for the window to draw: CI runs them
    # beside the others, on the same release, in a second pytest.
    gui = os.environ.get("SQLNET_TEST_GUI", "")
    if gui in ("only", "none"):
        k2 = []
        for item in keep:
            is_gui = "gui_tools" in getattr(item, "fixturenames", ())
            (k2 if is_gui == (gui == "only") else drop).append(item)
        keep = k2
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# CI's shares (.ci/run): every test runs on one release at least, the tests
# whose answer can depend on the release (EVERY_RELEASE) on each.
# SQLNET_CAPTURE_SHARD="k[,k...]/n": of the tests parametrized by a generated
# capture, run those whose capture falls in one of the shares k of n: the host
# (Wireshark 4.0) takes 0/3, trixie 1/3, sid 2/3 (each capture against its
# manifest, test_generated_captures.py, too). The host runs the
# release-independent modules and the host_only tests on every capture
# whatever its share. A real capture of the public corpus: on the
# host always, on a newer release the share (k mod 2) of 2, so each real
# capture is decoded on 4.0 and on one newer release. The C code is the same
# on every release; what differs is what compat.h gates, and every capture
# goes through the same gates.
# SQLNET_MODULE_SHARD="k/n" (CI: the host 0/3, trixie 1/3, sid 2/3): of the
# other tests, those of a module in share k of n, except the modules in
# EVERY_RELEASE (the GUI, the Lua API, compat.h's gates, the profile, the
# packaging and the robustness inputs), which each release runs whole, and on
# the host the release-independent modules and the host_only tests.
EVERY_RELEASE = ("tests/test_gui.py", "tests/test_flow_gui.py", "tests/test_follow_gui.py",
                 "tests/test_stmt_table.py", "tests/test_compat.py", "tests/test_lua.py",
                 "tests/test_lua_records.py", "tests/test_lua_without_plugin.py", "tests/test_lua_no_tree.py", "tests/test_profile.py",
                 "tests/test_package.py", "tests/test_fuzz.py", "tests/test_hostile.py",
                 "tests/test_build_tree.py")


# Of the GUI tests that draw one window on several captures, a build root
# draws every other capture (its share k: k mod 2), 4.0 every one: each window
# is drawn on each release, each capture in it on 4.0 and one newer release
# (as the real captures are decoded).
GUI_VARIANTS = ("test_gui_flow_graph", "test_gui_conversations_table",
                "test_overview_with_estimates", "test_gui_statement_table")

_TEST_CAPTURES = Path(__file__).resolve().parent.parent / "test-captures"


def _capture_of(item):
    cs = getattr(item, "callspec", None)
    if cs is None:
        return None
    for v in cs.params.values():
        if isinstance(v, dict) and isinstance(v.get("capture"), str):
            return v["capture"]
        if isinstance(v, Path) and v.suffix in (".pcapng", ".pcap", ".json"):
            return str(v)
        if isinstance(v, str) and v.endswith((".pcapng", ".pcap")):
            return v
        if isinstance(v, tuple) and v and isinstance(v[0], str) and v[0].endswith((".pcapng", ".pcap")):
            return v[0]
        # a generated capture by its name (test-captures/NAME.pcapng)
        if isinstance(v, str) and v and "/" not in v and (_TEST_CAPTURES / f"{v}.pcapng").is_file():
            return str(_TEST_CAPTURES / f"{v}.pcapng")
    return None


def _share(name, spec):
    import zlib
    ks, n = spec.split("/")
    return zlib.crc32(name.encode()) % int(n) in {int(k) for k in ks.split(",")}


def _shard_keep(items, root):
    import os
    cap_spec = os.environ.get("SQLNET_CAPTURE_SHARD", "")
    mod_spec = os.environ.get("SQLNET_MODULE_SHARD", "")
    if not cap_spec and not mod_spec:
        return items, []
    host = os.environ.get("SQLNET_RELEASE_DEPENDENT_ONLY") != "1"
    public = str(PUBLIC.resolve())
    keep, drop = [], []
    for item in items:
        cap = _capture_of(item)
        rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        # the host runs these whole: the build roots leave them to it
        whole = host and (rel.startswith(RELEASE_INDEPENDENT) or item.get_closest_marker("host_only") is not None)
        if cap is not None:
            spec = cap_spec
            if spec and str(Path(cap).resolve()).startswith(public):
                first = int(spec.split("/")[0].split(",")[0])
                spec = "" if host else f"{first % 2}/2"
            elif whole:
                spec = ""
            ok = not spec or _share(Path(cap).stem, spec)
        else:
            ok = not mod_spec or whole or rel.startswith(EVERY_RELEASE) or _share(rel, mod_spec)
            if ok and mod_spec and not host and item.originalname in GUI_VARIANTS:
                # one window, several captures: every capture on 4.0, on a
                # newer release every other one (trixie the odd, sid the even)
                first = int(mod_spec.split("/")[0].split(",")[0])
                ok = list(item.callspec.indices.values())[0] % 2 == first % 2
        (keep if ok else drop).append(item)
    return keep, drop
