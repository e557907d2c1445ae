"""docs/performance.md shows issue 38's benchmark tables as the benchmarks
printed them.

Evidence: the saved output of real runs (bench/saved/: ratios.json, the raw
CPU and RSS figures of every run of bench/ratios.py; scaling.md and
long_session.md, the tables bench/scaling.py and bench/memory.py --long-session printed).
The ratio table is formatted again here from the raw figures with the
benchmark's own formatter, so a hand edit of the page's figures, or of the
formatter without a new run, fails; the other two must appear verbatim.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
SAVED = ROOT / "bench" / "saved"
DOC = (ROOT / "docs" / "performance.md").read_text()


def test_ratio_table_is_the_formatters_output_of_the_saved_run():
    """Every row of the saved run formats to the table the page shows; the
    run has at least 5 pairs per row (the issue's rule for the ratios)."""
    import ratios
    saved = json.loads((SAVED / "ratios.json").read_text())
    assert saved["pairs"] >= 5
    for row in saved["rows"].values():
        assert len(row["c_cpu"]) == len(row["b_cpu"]) == saved["pairs"]
    table = ratios.format_table(saved)
    assert table in DOC
    assert saved["machine"] in DOC


def test_other_saved_ratio_runs_are_shown():
    """Every other saved run of bench/ratios.py (bench/saved/ratios_*.json: a
    branch's rows measured before and after its change) appears on the page
    as the formatter prints it, at 5 pairs per row or more."""
    import ratios
    for path in sorted(SAVED.glob("ratios_*.json")):
        saved = json.loads(path.read_text())
        assert saved["pairs"] >= 5, path.name
        for row in saved["rows"].values():
            assert len(row["c_cpu"]) == len(row["b_cpu"]) == saved["pairs"], path.name
        assert ratios.format_table(saved) in DOC, path.name
        assert saved["machine"] in DOC, path.name


def test_scaling_and_memory_tables_are_saved_outputs():
    """The packets-per-segment table and the long-conversation memory table
    are the saved outputs of bench/scaling.py and bench/memory.py --long-session."""
    for name in ("scaling.md", "long_session.md"):
        text = (SAVED / name).read_text().strip()
        body = text.split("\n\n", 1)[1] if text.startswith("Machine:") else text
        assert body in DOC, name
