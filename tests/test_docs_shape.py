"""The README is an entry point (issue 22: at most 250 lines); the details live in
docs/, each page linked from it (tests/test_readme.py checks the links)."""
from tshark import ROOT

README_MAX_LINES = 250


def test_readme_is_an_entry_point():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move details to docs/"
