"""sqlnet_batch's Spark path in local mode: the same table as DuckDB's.

Skipped (with the reason) where pyspark or Java is missing; ./run.sh test
installs pyspark (requirements-spark.txt) so that CI runs it.
"""
import json
import shutil

import pytest

from test_batch import batch, cut_sweep
from tshark import TEST_CAPTURES

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
pytest.importorskip("pyspark", reason="pyspark not installed (pip install -r requirements-spark.txt)")
if not shutil.which("java"):
    pytest.skip("no Java for Spark", allow_module_level=True)

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
# a chatty application after the sweep (4 days later, its own conversation):
# 12 one-row queries each parsed (repeated_query and reparse), so that the
# pattern and reparse columns are compared too
CHATTY = TEST_CAPTURES / "pattern_nplus1_19_wan50_jdbc.pcapng"




def manifest_totals(capture):
    m = json.loads(capture.with_suffix(".json").read_text())
    return sum(c["stats"]["round_trips"] for c in m["connections"]), m["client"]["rows_received"]


def same(a, b, where):
    assert a.keys() == b.keys(), where
    for k in a:
        if isinstance(b[k], float):
            assert a[k] == pytest.approx(b[k], abs=1e-6), (where, k)
        else:
            assert a[k] == b[k], (where, k)


def test_spark_local_gives_duckdbs_table(tmp_path):
    files = cut_sweep(tmp_path) + [CHATTY]
    both = json.loads(batch("--out", tmp_path / "duck", "--format", "json", "-q", "--advise-inputs",
                            *files).stdout)
    duck = both["statements"]
    p = batch("--spark", "--jobs", "2", "--out", tmp_path / "spark", "--format", "json", "--advise-inputs", *files)
    spark_both = json.loads(p.stdout)
    spark = spark_both["statements"]
    assert f"batch: {len(files)}/{len(files)} files" in p.stderr
    assert [s["sql"] for s in spark] == [s["sql"] for s in duck]
    for a, b in zip(spark, duck):
        same(a, b, a["sql"])
    # the array-size advisor's inputs: Spark SQL gives DuckDB's
    assert [s["sql"] for s in spark_both["advise_inputs"]] == [s["sql"] for s in both["advise_inputs"]]
    assert len(both["advise_inputs"]) == len(duck) - 1      # every SQL text (not the calls outside one)
    for a, b in zip(spark_both["advise_inputs"], both["advise_inputs"]):
        same(a, b, a["sql"])
    # the scripted server's counts (manifest), not only agreement
    totals = [manifest_totals(c) for c in (SWEEP, CHATTY)]
    assert sum(s["round_trips"] for s in spark) == sum(t[0] for t in totals)
    assert sum(s["rows_processed"] for s in spark) == sum(t[1] for t in totals)
    ms = [json.loads(c.with_suffix(".json").read_text()) for c in (SWEEP, CHATTY)]
    fetches = sum(1 for m in ms for c in m["connections"] for r in c["requests"] if r["function"] == "OFETCH")
    assert sum(s["fetch_round_trips"] for s in spark_both["advise_inputs"]) == fetches
    # the chatty statement's pattern and reparse columns filled, as the
    # client's script made them (12 executions of one text, one row each,
    # each parsed: the scripted server's log)
    calls = [r for c in ms[1]["connections"] for r in c["requests"] if r.get("function") == "OALL8" and r.get("sql")]
    chatty = [s for s in spark if s["pattern"]]
    assert [(s["sql"], s["pattern"], s["pattern_calls"], s["reparses"]) for s in chatty] == \
        [(calls[0]["sql"], "repeated_query", len(calls), sum(r["cursor"] == 0 for r in calls))]
    # the carried records Spark wrote read back as the set's table (--stmt)
    again = json.loads(batch("--stmt", tmp_path / "spark", "--format", "json").stdout)
    assert [(s["sql"], s["round_trips"], s["rows_processed"]) for s in again] == \
        [(s["sql"], s["round_trips"], s["rows_processed"]) for s in duck]
