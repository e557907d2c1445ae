"""sqlnet_batch --advise-inputs: the array-size advisor's inputs per SQL text
over a set of files (sqlnet_batch/advise.py).

The expectations come from outside the batch code: the generated capture's
manifest (the scripted server's own requests: rows sent, rows requested,
row and bit-vector bytes, TTC bytes, ORA errors) and -z sqlnet,advise (the
Lua advisor's own predictions on the uncut capture); the cut set must also
give what the uncut capture gives.
"""
import json
import sys

import pytest

from test_batch import batch, cut_sweep
from tshark import PUBLIC, ROOT, TEST_CAPTURES

sys.path.insert(0, str(ROOT))

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
SIZES = [1, 7, 10, 100, 1000]
TNS_DATA_HEADER = 10      # 8-byte TNS header + 2-byte data flags, per TNS packet




def manifest_inputs(capture, sizes):
    """The advisor's inputs per SQL text from the manifest's requests: an
    OALL8 naming an SQL text starts an execution of the cursor its response
    names; the OFETCHes of that cursor are its fetches."""
    m = json.loads(capture.with_suffix(".json").read_text())
    per = {}
    for c in m["connections"]:
        execs = {}        # cursor -> the execution's dict
        for r in c["requests"]:
            resp = r["response"] or {}
            sql = r["sql"]
            if sql is None:
                continue
            d = per.setdefault(sql, {"executions": [], "other": 0, "rows": 0, "fetch": [], "prefetch": set(),
                                     "sdus": set()})
            d["rows"] += resp.get("rows_sent") or 0
            d["sdus"].add(c["negotiated_sdu"])
            if r["function"] == "OALL8":
                e = {"execute": r, "fetches": []}
                d["executions"].append(e)
                d["other"] += 1
                d["prefetch"].add(r["rows_requested"])
                if resp.get("cursor"):
                    execs[resp["cursor"]] = e
            elif r["function"] == "OFETCH" and r["cursor"] in execs:
                execs[r["cursor"]]["fetches"].append(r)
            else:
                d["other"] += 1
    out = {}
    for sql, d in per.items():
        fetches = [f for e in d["executions"] for f in e["fetches"]]
        frows = sum(f["response"]["rows_sent"] for f in fetches)
        multi = [f["response"] for f in fetches if f["response"]["rows_sent"] > 1]
        last = [e["fetches"][-1] for e in d["executions"] if e["fetches"]
                and e["fetches"][-1]["response"]["ora_error"] == 1403]
        over = [f["response"] for f in fetches if not any(f is x for x in last)]

        def fetches_at(a):
            n = 0
            for e in d["executions"]:
                ended = not e["fetches"] or e["execute"]["response"]["ora_error"] == 1403
                if not ended:
                    n += sum(f["response"]["rows_sent"] for f in e["fetches"]) // a + 1
            return n
        out[sql] = {
            "executions": len(d["executions"]),
            "rows": d["rows"],
            "execute_rows": sum(e["execute"]["response"]["rows_sent"] for e in d["executions"]),
            "rows_after_execute": frows,
            "prefetch_sizes": sorted(d["prefetch"]),
            "fetch_sizes": sorted({f["rows_requested"] for f in fetches}),
            "fetch_round_trips": len(fetches),
            "other_round_trips": d["other"],
            "row_bytes_per_row": sum(f["response"]["row_bytes"] - f["response"]["bvc_bytes"]
                                     for f in fetches) / frows,
            "bvc_bytes_per_row": (sum(r["bvc_bytes"] for r in multi) / sum(r["rows_sent"] - 1 for r in multi)
                                  if multi else 0.0),
            "fetch_overhead_bytes": (sum(r["ttc_bytes"] - r["row_bytes"] for r in over) / len(over) if over
                                     else sum(f["response"]["ttc_bytes"] - f["response"]["row_bytes"]
                                              for f in last) / len(last)),
            "fetch_request_bytes": sum(f["request_tns_bytes"] - TNS_DATA_HEADER * f["request_tns_packets"]
                                       for f in fetches) / len(fetches),
            "sdus": sorted(d["sdus"]),
            "predicted": {a: d["other"] + fetches_at(a) for a in sizes},
        }
    return out


@pytest.fixture(scope="module")
def cut_and_uncut(tmp_path_factory):
    d = tmp_path_factory.mktemp("advise_cut")
    files = cut_sweep(d)
    sizes = ",".join(map(str, SIZES))
    cut = json.loads(batch("-q", "--jobs", "2", "--out", d / "cut", "--advise-inputs", "--sizes", sizes,
                           "--format", "json", *files).stdout)
    uncut = json.loads(batch("-q", "--out", d / "uncut", "--advise-inputs", "--sizes", sizes, "--format", "json",
                             SWEEP).stdout)
    text = batch("--stmt", d / "cut", "--advise-inputs", "--sizes", sizes).stdout
    return cut, uncut, text


COUNTS = ["executions", "rows", "execute_rows", "rows_after_execute", "prefetch_sizes", "fetch_sizes",
          "fetch_round_trips", "other_round_trips", "sdus"]
BYTES = ["row_bytes_per_row", "bvc_bytes_per_row", "fetch_overhead_bytes", "fetch_request_bytes"]


def test_cut_sweep_inputs_equal_manifest_and_uncut(cut_and_uncut):
    cut, uncut, _ = cut_and_uncut
    want = manifest_inputs(SWEEP, SIZES)
    got = {d["sql"]: d for d in cut["advise_inputs"]}
    one = {d["sql"]: d for d in uncut["advise_inputs"]}
    assert set(got) == set(want) == set(one)
    for sql, w in want.items():
        g = got[sql]
        for k in COUNTS:
            assert g[k] == w[k], (sql, k)
        for k in BYTES:
            assert g[k] == pytest.approx(w[k], abs=1e-9), (sql, k)
        assert {p["array_size"]: p["round_trips"] for p in g["predicted"]} == w["predicted"], sql
        # the cut set gives what the uncut capture gives (the time parts but
        # the response time are per file: docs/batch.md)
        u = one[sql]
        for k in COUNTS + BYTES + ["predicted", "round_trips", "bytes_to_client", "last_fetch_overhead_bytes",
                                   "undrained_executions", "complete_round_trips"]:
            assert g[k] == u[k], (sql, k)
        assert g["response_time_sum_ms"] == pytest.approx(u["response_time_sum_ms"], abs=1e-6), sql
    # a statement whose execution spans three files (docs/batch.md)
    s2 = got["SELECT /* arraysize 1 */ * FROM sqlnet_rows"]
    assert (s2["executions"], s2["fetch_round_trips"]) == (1, 499)


def test_cut_sweep_predictions_equal_the_lua_advisors(tshark, cut_and_uncut):
    """-z sqlnet,advise on the uncut capture predicts the same round trips at
    each array size (where it keeps the observed prefetch) and sees the same
    executions, rows and array size."""
    cut, _, _ = cut_and_uncut
    got = {d["sql"]: d for d in cut["advise_inputs"]}
    out = tshark.run(SWEEP, ["-q", "-z", "sqlnet,advise,sizes=" + ",".join(map(str, SIZES)) + ",format=json"])
    assert not out.stderr.strip(), out.stderr
    stmts = json.loads(out.stdout)["statements"]
    assert {s["sql"] for s in stmts} == set(got)
    checked = 0
    for s in stmts:
        g = got[s["sql"]]
        assert (g["executions"], g["rows"], g["array_size"]) == (
            s["observed"]["executions"], s["observed"]["rows"], s["observed"]["array_size"]), s["sql"]
        if s["prefetch_assumption"] != "fixed":
            continue
        # (the advisor adds the observed array size to the sizes asked)
        pred = {p["array_size"]: p["round_trips"] for p in s["predictions"] if p["array_size"] in SIZES}
        assert {p["array_size"]: p["round_trips"] for p in g["predicted"]} == pred, s["sql"]
        checked += 1
    assert checked == len(stmts)


def test_advise_inputs_text(cut_and_uncut):
    cut, _, text = cut_and_uncut
    assert "SQL*Net array-size advisor's inputs over 6 files" in text
    want = manifest_inputs(SWEEP, SIZES)
    sql = "SELECT /* arraysize 10 */ * FROM sqlnet_rows"
    block = text.split(f": {sql} ")[-1].split("\n\n")[0]
    lines = {l[:55].strip(): l[55:].strip() for l in block.splitlines() if l.startswith("  ") and len(l) > 55}
    assert lines["fetch round trips"] == str(want[sql]["fetch_round_trips"])
    assert lines["rows asked by the fetches (fetch sizes seen)"] == "10"
    table = [l.split() for l in block.splitlines() if l.startswith("  array size") or l.startswith("  round trips")]
    assert table[0][2:] == [str(a) for a in SIZES]
    assert table[1][2:] == [str(want[sql]["predicted"][a]) for a in SIZES]


# public captures: SQL*Plus re-executing a cursor, python-oracledb with a
# multi-line SQL text, SQL*Plus stopping a fetch mid-way, SQL*Plus 11g
@pytest.mark.parametrize("capture", ["dbbat/sqlplus_cursor_reexec.pcapng", "dbbat/python_thin.pcapng",
                                     "dbbat/sqlplus_midfetch_fail.pcapng",
                                     "visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng"],
                         ids=lambda p: p.split("/")[-1].split(".")[0])
def test_public_capture_predictions_equal_the_lua_advisors_model(tshark, tmp_path, capture):
    """One file: -z sqlnet,advise's executions and rows, and its predicted
    round trips where it keeps the prefetch fixed (at sizes other than the
    observed one: there its table shows the observed figures)."""
    capture = PUBLIC / capture
    if not capture.is_file():
        pytest.skip(f"public captures not available ({PUBLIC})")
    sizes = [1, 3, 10, 100, 1000, 5000]
    got = {" ".join(d["sql"].split()): d for d in json.loads(batch(
        "-q", "--out", tmp_path / "o", "--advise-inputs", "--sizes", ",".join(map(str, sizes)), "--format", "json",
        capture).stdout)["advise_inputs"]}
    out = tshark.run(capture, ["-q", "-z", "sqlnet,advise,sizes=" + ",".join(map(str, sizes)) + ",format=json"])
    stmts = json.loads(out.stdout)["statements"]
    assert stmts
    compared = 0
    for s in stmts:
        g = got[" ".join(s["sql"].split())]
        assert (g["executions"], g["rows"]) == (s["observed"]["executions"], s["observed"]["rows"]), s["sql"]
        if s["prefetch_assumption"] != "fixed":
            continue
        pred = {p["array_size"]: p["round_trips"] for p in s["predictions"]
                if p["array_size"] in sizes and not p["observed"]}
        assert {p["array_size"]: p["round_trips"] for p in g["predicted"] if p["array_size"] in pred} == pred, \
            s["sql"]
        compared += len(pred)
    assert compared
