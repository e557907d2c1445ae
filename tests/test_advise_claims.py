"""The advisor reads the plugin's numbers and says only what it can stand behind
(issue 34: symptom 4 and the advisor's parts of 1 and 3; what to build, point 7).

Evidence, none of it the advisor's own arithmetic:
- -z sqlnet,stmt,format=csv: the plugin's statement accounts (account.c), the
  one definition of a statement's elapsed time, its parts, rows, round trips
  and array size; its own tests hold it to the generators' manifests.  The
  advisor's observed figures must be those numbers, to the microsecond and to
  the row, in its text, its summary and its JSON/CSV;
- the generated node-oracledb captures' manifests (the scripted server's count
  of round trips per statement) and node-oracledb thin's fetch rule (its
  lib/thin/resultSet.js: each getRows() asks the array size less the rows it
  still holds), worked by hand;
- the advisor's own tables only where a sentence must agree with them (a
  verdict naming the recommended row, an SDU advice naming its savings).
"""
import csv
import io
import json
import re

import pytest

from test_advise import advise
from test_advise_time import predictions
from tshark import PUBLIC, TEST_CAPTURES

GENERATED = ["wan_rtt50_arraysize", "wan_rtt10_arraysize", "node_tns315", "redirect_node", "pauses_stall",
             "sweep_arraysize", "jdbc_fetchsize_sweep", "goora_basic"]
REAL = ["dbbat/python_thin.pcapng", "dbbat/go_ora_largeresult.pcapng", "dbbat/jdbc_thin_cursor_reexec.pcapng",
        "visblank/sqlplus11g_linux32_vs_11.2_full_session.pcapng"]


def captures():
    out = [pytest.param(TEST_CAPTURES / f"{n}.pcapng", id=n) for n in GENERATED]
    for r in REAL:
        p = PUBLIC / r
        out.append(pytest.param(p, id=r, marks=pytest.mark.skipif(not p.is_file(), reason=f"{p} not fetched")))
    return out


CAPTURES = captures()


def stmt_rows(tshark, cap):
    """{statement number: -z sqlnet,stmt,format=csv row} (the numbered statements)."""
    proc = tshark.run(cap, ["-q", "-z", "sqlnet,stmt,format=csv"])
    assert proc.stderr.strip() == "", proc.stderr
    rows = csv.DictReader(io.StringIO(proc.stdout.strip(), newline=""))
    return {int(r["statement"]): r for r in rows if r["statement"]}


def summary(text):
    """[(statement, ms, round trips, array size text, verdict, pauses ms)] of the summary's statement lines."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Summary ("))
    out = []
    for l in lines[start + 1:]:
        if not l.startswith("  Statement "):
            break
        m = re.match(r"  Statement (\d+): ([\d.]+) ms(?: \(([\d.]+) ms of it pauses\))?, (\d+) round trips? at "
                     r"(array sizes? [\d, ]+|no rows asked): (.+)$", l)
        assert m, l
        out.append((int(m.group(1)), float(m.group(2)), int(m.group(4)), m.group(5), m.group(6),
                    float(m.group(3) or 0)))
    return out


@pytest.mark.parametrize("cap", CAPTURES)
def test_observed_figures_are_the_accounts(tshark, cap):
    """The observed line, the summary and the JSON/CSV observed figures are
    -z sqlnet,stmt's numbers (issue 34 symptom 1: 3499.011 ms observed, 3410.879 ms
    in the summary, 3615.265 ms in stmt for one statement; the warm-up observed at
    1.509 ms where the client waited 21.675 ms): elapsed, rows, round trips and
    array size equal; the summary's time is the elapsed time, with the pauses the
    detail lists said after it."""
    acct = stmt_rows(tshark, cap)
    text = advise(tshark, cap)
    doc = json.loads(advise(tshark, cap, "format=json"))
    rows = {int(r["statement"]): r for r in csv.DictReader(io.StringIO(advise(tshark, cap, "format=csv"),
                                                                       newline="")) if r["kind"] == "statement"}
    assert doc["statements"], text[:2000]
    for s in doc["statements"]:
        a, o, r = acct[s["statement"]], s["observed"], rows[s["statement"]]
        assert f"{o['elapsed_ms']:.3f}" == a["elapsed_ms"] == r["elapsed_ms"], (s["sql"], o, a["elapsed_ms"])
        assert o["rows"] == int(a["rows"]) and o["round_trips"] == int(a["round_trips"]), s["sql"]
        assert (o.get("array_sizes") or "") == a["array_size"], s["sql"]
        for k in ("network_ms", "server_ms", "transfer_ms", "client_ms"):
            assert f"{o[k]:.3f}" == a[k], (s["sql"], k)
        # the text's observed line
        ob = re.search(rf"^Statement {s['statement']}: .*\n  observed: \d+ execution\(s\), (\d+) rows, "
                       rf"(?:array sizes? ([\d, ]+)|no rows asked), (\d+) round trips, .* ([\d.]+) ms$", text, re.M)
        assert ob, s["sql"]
        assert (int(ob.group(1)), ob.group(2) or "", int(ob.group(3)), ob.group(4)) == \
            (int(a["rows"]), a["array_size"], int(a["round_trips"]), a["elapsed_ms"])
    for number, ms, rts, _, _, paused in summary(text):
        a, r = acct[number], rows[number]
        assert rts == int(a["round_trips"])
        # the summary's time is the elapsed time every report gives; the pauses
        # the detail lists are said after it
        assert f"{ms:.3f}" == a["elapsed_ms"], number
        assert paused == pytest.approx(float(r["pauses_ms"] or 0), abs=0.0015), number


def share(a, part):
    """A part's share of stmt's time less its stalls (the client's and the server's
    stalls out of their parts: pauses no array size explains)."""
    v = {p: float(a[p + "_ms"]) for p in ("network", "server", "transfer", "client")}
    v["client"] -= float(a["client_stall_ms"] or 0)
    v["server"] -= float(a["server_stall_ms"] or 0)
    return v[part] / sum(v.values())


@pytest.mark.parametrize("cap", CAPTURES)
def test_every_summary_line_has_a_verdict(tshark, cap):
    """Every statement line of the summary ends in a verdict (issue 34 symptom 4:
    "array size -" with no verdict, the first of them a 6.5 s statement of server
    time), and the verdict is what the numbers say, in shares of stmt's time less
    its stalls: 'all server time' where the server's is >= 90 %, 'mostly' from
    50 %, the part that bounds the time named with its share, 'all rows came with
    the execute call' where stmt counts no fetch call, a new array size where the
    table recommends one (its round trips and time the table's)."""
    acct = stmt_rows(tshark, cap)
    text = advise(tshark, cap)
    lines = summary(text)
    assert lines
    assert "array size -" not in text
    blocks = {int(n): b for n, b in re.findall(r"^Statement (\d+): (.*?)(?=^Statement |^Connection |\Z)", text,
                                                 re.M | re.S)}
    for number, _, _, sizes, verdict, _ in lines:
        a = acct[number]
        assert sizes == ("no rows asked" if not a["array_size"] else
                         ("array sizes " if "," in a["array_size"] else "array size ") + a["array_size"])
        rec = re.match(r"(?:(network|server|transfer|client)-bound \((\d+)% of its time\): )?(raise|change|set) the "
                       r"array size to (\d+): (\d+) round trips?, about ([\d.]+) ms", verdict)
        bound = re.search(r"(network|server|transfer|client)-bound \((\d+)% of its time\)", verdict)
        if bound:
            parts = {p: share(a, p) for p in ("network", "server", "transfer", "client")}
            assert bound.group(1) == max(parts, key=parts.get), (verdict, parts)
            assert int(bound.group(2)) == round(100 * parts[bound.group(1)]), (verdict, parts)
        if rec:
            size, rts, ms = int(rec.group(4)), int(rec.group(5)), rec.group(6)
            row = re.search(rf"^\s+{size}\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+([\d.]+) recommended$", blocks[number],
                            re.M)
            assert row and (int(row.group(1)), row.group(2)) == (rts, ms), (verdict, blocks[number][:3000])
        elif verdict == "all server time: array size is not the lever":
            assert share(a, "server") >= 0.9, (number, a)
        elif verdict.startswith("mostly server time ("):
            pct = int(re.match(r"mostly server time \((\d+)%\)", verdict).group(1))
            assert 0.5 <= share(a, "server") < 0.9 and pct == round(100 * share(a, "server")), (number, a)
        elif verdict == "all rows came with the execute call: array size is not the lever":
            assert int(a["fetch_calls"]) == 0, (number, a)
        elif verdict.startswith("already at the best array size"):
            assert share(a, "server") < 0.5
            assert re.search(r"^\s+\d+\s.* observed(?: \(model: [^)]*\))? recommended$", blocks[number], re.M)
        else:
            assert verdict.startswith("nothing to predict"), verdict


@pytest.mark.parametrize("cap", CAPTURES)
def test_never_zero_ms(tshark, cap):
    """No "0.000 ms" anywhere in the report (issue 34: "on average 0.000 ms per KB"):
    a quantity below half a microsecond reads "< 0.001 ms" or is left out."""
    text = advise(tshark, cap)
    assert not re.search(r"(?<![\d.])0\.000 ms", text), re.findall(r".*(?<![\d.])0\.000 ms.*", text)


SDU_SET = re.compile(r"^  SDU: set (\d+) .*?: (\d+) TNS packets instead of (\d+) \(\d+% fewer\), (?:(\d+) TCP segments "
                     r"instead of (\d+) \(\d+% fewer\)|TCP segments unknown), (the same predicted time|([\d.]+) ms "
                     r"instead of ([\d.]+))", re.M)


@pytest.mark.parametrize("cap", CAPTURES + [pytest.param(TEST_CAPTURES / f"{n}.pcapng", id=n) for n in
                                            ("arraysize_50", "sdu_8192_mtu_1500", "wan_rtt10_sdu")])
def test_sdu_advice_saves_something_on_the_wire(tshark, cap):
    """An SDU is advised only where it saves >= 10 % (and two) of the TCP segments or
    5 % of the predicted time (issue 34: "SDU set 262144" for ">= 10% fewer TNS
    packets" beside "898 TCP segments instead of 898 (0% fewer), the same predicted
    time"): each 'set' line's own figures show the saving."""
    text = advise(tshark, cap)
    for m in SDU_SET.finditer(text):
        segs_new, segs_old = m.group(4), m.group(5)
        segs = segs_new is not None and int(segs_old) - int(segs_new) >= 2 and \
            int(segs_new) <= 0.9 * int(segs_old)
        time = m.group(7) is not None and float(m.group(7)) <= 0.95 * float(m.group(8))
        assert segs or time, m.group(0)


def test_packets_only_sdu_is_no_advice(tshark):
    """node_tns315: SDU 32767 would carry its responses in 2 TNS packets instead of
    4, in 15 TCP segments instead of 16 at the same predicted time: the advice is
    to keep 8192 and says why in one clause (before issue 34 it said "set 32767")."""
    text = advise(tshark, TEST_CAPTURES / "node_tns315.pcapng")
    assert "SDU: set" not in text
    assert re.search(r"^  SDU: keep 8192: .* \(SDU 32767 would take 2 TNS packets instead of 4, but 15 TCP segments "
                     r"instead of 16 and the same predicted time: nothing saved on the wire\)$", text, re.M), text
    assert re.search(r"^  Connection 1 \(.*\): SDU keep 8192$", text, re.M)


NODE = ["node_tns315", "redirect_node", "node_basic", "tls13_node"]


@pytest.mark.parametrize("name", NODE)
def test_node_round_trips_as_node_makes_them(tshark, name):
    """node-oracledb tops its first fetch up to its array size (2 rows with the
    execute, then 98 at array size 100): at the observed array size the model
    predicts the round trips the scripted server counted (its manifest), where it
    predicted one fewer before (issue 34: 6 predicted, 7 observed at 1000 over
    5,000 rows)."""
    m = json.loads((TEST_CAPTURES / f"{name}.json").read_text())
    per_sql = {}
    for conn in m["connections"]:
        for r in conn["requests"]:
            if r.get("sql") and r.get("func_code") in (94, 5):
                w = per_sql.setdefault(" ".join(r["sql"].split()), {"rts": 0, "asked": []})
                w["rts"] += 1
                if r["func_code"] == 5:
                    w["asked"].append(r["rows_requested"])
    text = advise(tshark, TEST_CAPTURES / f"{name}.pcapng")
    blocks = {re.sub(r" \((?:sqlnet\.rt\.sql_id == \"\w+\", )?frames \d+-\d+\)$", "", b.splitlines()[0]): b
              for b in re.split(r"^Statement \d+: ", text, flags=re.M)[1:]}
    checked = 0
    for sql, w in per_sql.items():
        if not w["asked"] or sql not in blocks:
            continue
        size = max(w["asked"])
        table = predictions(blocks[sql])
        assert table[size][0] == w["rts"], (sql, size, table[size], w)
        checked += 1
    assert checked
    if name == "node_tns315":
        # 200 rows, 2 with the execute: at 200 a fetch of 198 fills the array and an
        # empty one learns the end (3 round trips); at 500 one fetch of 198 ends it (2)
        table = predictions(blocks["SELECT * FROM sqlnet_rows"])
        assert (table[200][0], table[500][0]) == (3, 2)
