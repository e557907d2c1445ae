import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tshark import PUBLIC, Tshark  # noqa: E402


@pytest.fixture(scope="session")
def tshark():
    t = Tshark()
    yield t
    t.close()


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


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One loud line when the real-capture tests were skipped for want of the corpus."""
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
RELEASE_INDEPENDENT = ("tests/testgen/", "tests/test_no_recursion.py", "tests/test_docs_shape.py")


def pytest_collection_modifyitems(config, items):
    import os
    if os.environ.get("SQLNET_RELEASE_DEPENDENT_ONLY") != "1":
        return
    root = Path(__file__).resolve().parent.parent
    keep, drop = [], []
    for item in items:
        rel = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        (drop if rel.startswith(RELEASE_INDEPENDENT) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
