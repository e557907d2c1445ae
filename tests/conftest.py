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
