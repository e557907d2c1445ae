"""The advisor's elapsed-time predictions (issue 14): fitted per connection,
they must hold on sweeps they were not tuned to.

Evidence, none of it the advisor's: on every generated array-size sweep (LAN
and WAN, every client that sets its array size), the round trips the scripted
server counted for each statement (its manifest) and the statement's elapsed
time from the capture's own frame timestamps (its first request frame to its
last response frame, as the manifest names them).  Each statement's
predictions, made from that statement's profile and its connection's time
model, must give every other statement of the sweep on the same table its
round trips exactly and its elapsed time within 25 %.  The worst ratio is
printed (pytest -s).
"""
import re
from collections import defaultdict

import pytest

from tshark import TEST_CAPTURES
from test_generated_captures import MANIFESTS


def sweeps():
    """The generated captures whose client set its array size to more than one value."""
    out = []
    for p in MANIFESTS:
        m = p.values[0]
        reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
        sizes = {st["arraysize"] for r in reps for s in r["sessions"] for st in s["statements"]
                 if st.get("sql") and not st.get("dml") and "arraysize" in st}
        if len(sizes) > 1:
            out.append(p)
    return out


# Where the model does not hold yet (issue 14 stays open on these; strict, so a
# fix turns the mark into a failure to remove):
JDBC_LAN = ("LAN, JDBC: statements of 2 to 16 ms in which the JVM (and the scripted server sharing "
            "the generator's two cores with it) pauses for 1 to 4 ms at places no per-call or per-row "
            "time predicts, and the JVM's time per row is not linear in the rows of a fetch (up to 17 % "
            "between fetch sizes on a quiet machine)")
LAN_NOISE = ("LAN: the statements at array sizes of 100 and more take 0.7 to 2 ms, and a single pause "
             "of 0.3 to 3 ms of the client or the server (scheduling on the generator's two cores, "
             "measured on a quiet machine) in one of them moves it, or every prediction made from it, "
             "by up to 1.6x; regenerated, the worst ratio lands anywhere between 0.65x and 1.6x")
NOT_YET = {
    "sweep_arraysize": LAN_NOISE,
    "tls13_demo": LAN_NOISE,
    "tls12_demo": LAN_NOISE,
    "wan_rtt10_loss": "0.5 % random loss: the statement a loss falls on waits a retransmission timeout "
                      "(35 ms here, 3.5 round trips), which its neighbours did not; the loss is chance",
    "jdbc_fetchsize_sweep": JDBC_LAN,
    "jdbc_fetchsize_small": JDBC_LAN,          # the same sweep on 100 rows, and over TCPS:
    "tls12_jdbc": JDBC_LAN,
    "tls13_jdbc": JDBC_LAN,
}


def sweeps_marked():
    out = []
    for p in sweeps():
        name = p.values[0]["scenario"]
        if name in NOT_YET:
            out.append(pytest.param(p.values[0], id=name,
                                    marks=pytest.mark.xfail(strict=True, reason=NOT_YET[name])))
        else:
            out.append(p)
    return out


SWEEPS = sweeps_marked()


def statements(m, frame_times):
    """sql -> {array_size, rows, round_trips, elapsed (s)} from the manifest and frame times."""
    reps = m["client"]["report"] if isinstance(m["client"]["report"], list) else [m["client"]["report"]]
    size = {st["sql"]: st["arraysize"] for r in reps for s in r["sessions"] for st in s["statements"]
            if st.get("sql") and "arraysize" in st}
    out = {}
    for conn in m["connections"]:
        for r in conn["requests"]:
            sql = r.get("sql")
            if not sql or sql not in size:
                continue
            w = out.setdefault(" ".join(sql.split()), {"array_size": size[sql], "rows": 0, "round_trips": 0,
                                                       "frames": []})
            w["round_trips"] += 1
            w["rows"] += r["response"]["rows_sent"]
            w["frames"] += [r["request_first_frame"], r["response"]["last_frame"]]
    for w in out.values():
        w["elapsed"] = frame_times[max(w["frames"])] - frame_times[min(w["frames"])]
    return out


def predictions(block):
    """{array size: (round trips, elapsed ms)} of one advisor statement block."""
    table, on = {}, False
    for line in block.splitlines():
        if "predicted by array size" in line:
            on = True
            continue
        if on:
            mt = re.match(r"\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+([\d.]+)", line)
            if mt:
                table[int(mt.group(1))] = (int(mt.group(2)), float(mt.group(3)))
            elif table:
                break
    return table


@pytest.mark.parametrize("manifest", SWEEPS)
def test_predictions_hold_across_the_sweep(tshark, manifest):
    cap = TEST_CAPTURES / manifest["capture"]
    times = {int(f): float(t) for f, t in tshark.fields(cap, ["frame.number", "frame.time_epoch"])}
    want = statements(manifest, times)
    sizes = sorted({w["array_size"] for w in want.values()})
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,advise,sizes=" + ",".join(map(str, sizes))])
    assert proc.stderr.strip() == "", proc.stderr
    blocks = {b.splitlines()[0].strip(): b for b in re.split(r"^Statement \d+: ", proc.stdout, flags=re.M)[1:]}
    worst, checked = (1.0, None), 0
    for sql, w in want.items():
        # the same table's other statements (the WAN sweeps fetch array size 1 on a small
        # table, the LAN ones start with a warm-up query on one)
        others = [o for other_sql, o in want.items() if other_sql != sql and o["rows"] == w["rows"]]
        if not others:
            continue
        table = predictions(blocks[sql])
        assert table, (sql, blocks[sql][:600])
        for o in others:
            rts, elapsed_ms = table[o["array_size"]]
            assert rts == o["round_trips"], (w["array_size"], o["array_size"])
            ratio = elapsed_ms / 1000.0 / o["elapsed"]
            if max(ratio, 1 / ratio) > max(worst[0], 1 / worst[0]):
                worst = (ratio, (w["array_size"], o["array_size"]))
            checked += 1
    print(f"{manifest['scenario']}: {checked} predictions, worst elapsed ratio {worst[0]:.3f} "
          f"(array size {worst[1][0] if worst[1] else '-'} predicting {worst[1][1] if worst[1] else '-'})")
    assert checked > 0
    assert 1 / 1.25 <= worst[0] <= 1.25, worst
