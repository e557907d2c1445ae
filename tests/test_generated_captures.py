"""Generated captures (test-captures/): sqlnet against the ground truth of
real clients and the scripted server's own counters.

Expected values come from each capture's manifest: rows requested as the
server parsed them from the wire (and as the client was configured), rows,
TNS packets and bytes per response from the server's counters, and TCP
segments per response from the capture's TCP layer (tcp.len, no Oracle
dissector involved).
"""
import json
import re
from collections import defaultdict

import pytest

from tshark import TEST_CAPTURES

FIELDS = ["frame.number", "tcp.srcport", "sqlnet.call", "sqlnet.fetch.rows", "sqlnet.rows", "sqlnet.rowcount",
          "sqlnet.ora_error", "sqlnet.response.packets", "sqlnet.response.bytes",
          "sqlnet.response.segments", "sqlnet.sdu", "sqlnet.request_in", "sqlnet.response.ttc_bytes",
          "sqlnet.response.row_bytes", "sqlnet.request.bytes", "sqlnet.request.ttc_bytes",
          "sqlnet.response.bvc_bytes", "sqlnet.execution"]


def manifests(nne=False):
    """The generated captures' manifests; with nne=True only those of native network
    encryption sessions (left out otherwise: there is no TTC in them to decode)."""
    if not TEST_CAPTURES.is_dir():
        return []
    out = []
    for path in sorted(TEST_CAPTURES.glob("*.json")):
        if path.name == "INDEX.json":
            continue
        m = json.loads(path.read_text())
        if bool(m.get("nne")) != nne:
            continue        # native network encryption: no TTC to decode (tests/test_nne*.py)
        if (TEST_CAPTURES / m["capture"]).is_file():
            out.append(pytest.param(m, id=m["scenario"]))
    return out


MANIFESTS = manifests()


def by_frame(tshark, capture):
    out = defaultdict(lambda: defaultdict(list))
    for row in tshark.fields(capture, FIELDS, display_filter="sqlnet"):
        for name, value in zip(FIELDS[1:], row[1:]):
            if value:
                out[int(row[0])][name] += value.split(",")
    return out


def calls(manifest):
    for conn in manifest["connections"]:
        for req in conn["requests"]:
            resp = req.get("response") or {}
            if resp.get("last_frame"):
                yield conn, req, resp


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_rows_requested_per_call(tshark, manifest):
    got = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    problems = []
    for conn, req, resp in calls(manifest):
        if not req.get("func_code") or req.get("rows_requested") is None:
            continue
        frames = range(req["request_first_frame"], resp["first_frame"])
        seen = [(f, got[f]["sqlnet.fetch.rows"]) for f in frames
                if str(req["func_code"]) in got[f]["sqlnet.call"]
                and got[f]["tcp.srcport"] == [str(conn["client_port"])]]
        if [r for _, r in seen] != [[str(req["rows_requested"])]]:
            problems.append((req["index"], req["function"], req["rows_requested"], seen))
    assert problems == []


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_response_metrics(tshark, manifest):
    got = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    problems = []
    for conn, req, resp in calls(manifest):
        g = got[resp["last_frame"]]
        want = {"sqlnet.rows": resp["rows_sent"], "sqlnet.response.packets": resp["tns_packets"],
                "sqlnet.response.bytes": resp["tns_bytes"], "sqlnet.response.segments": resp["tcp_segments"],
                "sqlnet.response.ttc_bytes": resp["ttc_bytes"],
                "sqlnet.request.bytes": req["request_tns_bytes"],
                # the request's DATA payload: its TNS bytes less 8 header + 2 flag bytes per packet
                "sqlnet.request.ttc_bytes": req["request_tns_bytes"] - 10 * req["request_tns_packets"]}
        if "row_bytes" in resp:
            want["sqlnet.response.row_bytes"] = resp["row_bytes"]
            want["sqlnet.response.bvc_bytes"] = resp["bvc_bytes"]
        if resp.get("rowcount") is not None:
            want["sqlnet.rowcount"] = resp["rowcount"]
            want["sqlnet.ora_error"] = resp["ora_error"]
        for field, value in want.items():
            if g[field] != [str(value)]:
                problems.append((req["index"], req["function"], resp["last_frame"], field, value, g[field]))
    assert problems == []


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_totals_against_server_counters(tshark, manifest):
    """All responses together: the server's round trips, rows and bytes sent."""
    got = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    for conn in manifest["connections"]:
        frames = [resp["last_frame"] for _, _, resp in calls({"connections": [conn]})]
        completed = [f for f in frames if got[f]["sqlnet.rows"]]
        assert len(completed) == conn["stats"]["round_trips"]
        assert sum(int(got[f]["sqlnet.rows"][0]) for f in completed) == conn["stats"]["rows_sent"]


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_negotiated_sdu(tshark, manifest):
    got = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    for conn in manifest["connections"]:
        for conn_, req, resp in calls({"connections": [conn]}):
            # one value per TNS packet in the frame (a frame can carry several)
            sdus = got[resp["last_frame"]]["sqlnet.sdu"]
            assert sdus and set(sdus) == {str(conn["negotiated_sdu"])}


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_fetch_size_matches_client_setting(tshark, manifest):
    """OFETCH asks for the client's configured array size (python-oracledb,
    go-ora); node-oracledb's first fetch asks for arraysize - prefetchrows."""
    client = manifest["client"]
    # one report per client run (a list when the scenario runs its client more than once)
    reports = client.get("report") or {}
    statements = [st for rep in (reports if isinstance(reports, list) else [reports])
                  for sess in rep.get("sessions", []) for st in sess.get("statements", [])]
    arraysizes = {st["arraysize"] for st in statements if st.get("arraysize")} or \
        ({client["arraysize"]} if client.get("arraysize") else set())
    if not arraysizes:
        pytest.skip("no array size in this scenario")
    got = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    sizes = set()
    for conn, req, resp in calls(manifest):
        # a REF CURSOR's or implicit result's fetches follow its own result set (JDBC's
        # last one asks 250 rows whatever setFetchSize said): checked against the
        # server's parse elsewhere
        if req.get("func_code") == 5 and not (req.get("sql") or "").startswith(("REF CURSOR", "IMPLICIT RESULT")):
            for f in range(req["request_first_frame"], resp["first_frame"]):
                sizes.update(int(v) for v in got[f]["sqlnet.fetch.rows"])
    if not sizes:
        pytest.skip("no OFETCH in this scenario")
    allowed = set(arraysizes)
    if client["driver"].startswith("node"):
        allowed |= {a - (client.get("prefetchrows") or 0) for a in arraysizes}
    assert sizes <= allowed, (sizes, allowed)


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_execution_numbers(tshark, manifest):
    """sqlnet.execution: an execute call (OALL8 with the execute option, 0x4E)
    starts the next execution of the conversation, the cursor's fetches share it."""
    # (the one run of the capture that the other tests read: by_frame)
    frames = by_frame(tshark, TEST_CAPTURES / manifest["capture"])
    got = defaultdict(list, {f: v["sqlnet.execution"] for f, v in frames.items() if v.get("sqlnet.execution")})
    problems, checked = [], 0
    for conn in manifest["connections"]:
        executions, by_cursor = 0, {}
        for req in conn["requests"]:
            resp = req.get("response") or {}
            fc = req.get("func_code")
            want = None
            if (fc == 94 and (req.get("options") or 0) & 0x20) or fc == 78:
                executions += 1
                want = executions
                cursor = req.get("cursor") or resp.get("cursor")
                if cursor:
                    by_cursor[cursor] = executions
                if resp.get("cursor"):
                    by_cursor[resp["cursor"]] = executions
            elif fc in (5, 94) and req.get("cursor") in by_cursor:
                want = by_cursor[req["cursor"]]
            if want is not None and resp.get("last_frame"):
                checked += 1
                if set(got[resp["last_frame"]]) != {str(want)}:
                    problems.append((req["index"], req["function"], want, got[resp["last_frame"]]))
    assert problems == []
    assert checked or not any(r.get("sql") for c in manifest["connections"] for r in c["requests"])


def dml_statements(manifest):
    reports = manifest["client"].get("report")
    for rep in reports if isinstance(reports, list) else [reports or {}]:
        for sess in rep.get("sessions", []):
            for st in sess.get("statements", []):
                if st.get("dml") and not st.get("error"):
                    yield st


DML_MANIFESTS = [m for m in MANIFESTS if list(dml_statements(m.values[0]))]


@pytest.mark.parametrize("manifest", DML_MANIFESTS)
def test_dml_rowcount_and_rowid_as_the_client_read_them(tshark, manifest):
    """Evidence: the real client's own reading of the server's OER (python-oracledb
    cursor.rowcount / cursor.lastrowid, JDBC executeLargeUpdate), reported in the manifest.
    The UPDATE's count is above 2^32 (only the ub8 field carries it; an 11.2 server has
    only the ub4 one, and the client reads the count modulo 2^32)."""
    fields = ["sqlnet.sql", "sqlnet.oer.rowcount", "sqlnet.oer.rowid"]
    seen = {}
    for sql, rowcount, rowid in tshark.fields(TEST_CAPTURES / manifest["capture"], fields,
                                              display_filter="sqlnet.oer.rowcount && sqlnet.sql"):
        seen.setdefault(sql, (rowcount, rowid))
    checked = 0
    for st in dml_statements(manifest):
        assert st["sql"] in seen, (st["sql"], seen)
        rowcount, rowid = seen[st["sql"]]
        assert int(rowcount) == st["rowcount"], st
        if "lastrowid" in st and st["lastrowid"] is not None:
            assert rowid == st["lastrowid"], st
        checked += 1
    assert checked


def plsql_statements(manifest):
    rep = manifest["client"]["report"]
    for r in rep if isinstance(rep, list) else [rep]:
        for s in r.get("sessions", []):
            for st in s.get("statements", []):
                if "plsql" in st and not st.get("error"):
                    yield st


PLSQL_MANIFESTS = [m for m in MANIFESTS if list(plsql_statements(m.values[0]))]


@pytest.mark.parametrize("manifest", PLSQL_MANIFESTS)
def test_plsql_out_binds_and_ref_cursor(tshark, manifest):
    """Evidence: python-oracledb read the out values and fetched the REF CURSOR's rows
    from the scripted server's I/O vector, out-bind row and nested describe (the values it
    reports are the server's; the rows it fetched are its own count).  The dissector must
    decode the out-bind row with the call's bind metadata (one direction per bind of the
    client's plan), learn the REF CURSOR from it, and file the cursor's rows under the
    PL/SQL statement."""
    cap = TEST_CAPTURES / manifest["capture"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    for st in plsql_statements(manifest):
        if "implicit" in st:
            # implicit result sets: each one's describe came in message 27; its fetches
            # count under the block that returned it
            rows = sum(int(r[0]) for r in tshark.fields(cap, ["sqlnet.rows"],
                                                         f'sqlnet.rows && sqlnet.sql == "{st["plsql"]}"'))
            assert rows == sum(st["implicit"]) and len(st["implicit"]) == 2
            continue
        step = next(s for s in manifest["client"]["steps"] if s.get("plsql_out") == st["plsql"])
        dirs = tshark.fields(cap, ["sqlnet.iov.direction"], "sqlnet.iov.direction")
        assert [d.split(",") for d in (x[0] for x in dirs)] == [["0x10"] * len(step["types"])]
        assert len(tshark.fields(cap, ["frame.number"], "sqlnet.out_binds && sqlnet.iov.direction")) == 1
        binds = tshark.fields(cap, ["sqlnet.bind.type"], f'sqlnet.sql == "{st["plsql"]}" && sqlnet.bind')
        want_types = {"number": "2", "varchar": "1", "cursor": "102"}
        assert binds[0][0].split(",") == [want_types[t] for t in step["types"]]
        rows = sum(int(r[0]) for r in tshark.fields(cap, ["sqlnet.rows"],
                                                     f'sqlnet.rows && sqlnet.sql == "{st["plsql"]}"'))
        assert rows == sum(o["cursor_rows"] for o in st["out"] if isinstance(o, dict))


@pytest.mark.parametrize("manifest", PLSQL_MANIFESTS)
def test_dml_returning_row(tshark, manifest):
    """Evidence: python-oracledb read the returned id from the row the server sent before
    the RPA; the return bind count comes from the SQL text (one placeholder after INTO)."""
    cap = TEST_CAPTURES / manifest["capture"]
    for st in dml_statements(manifest):
        if "returned" not in st:
            continue
        got = tshark.fields(cap, ["sqlnet.oall8.returning_binds"], f'sqlnet.sql == "{st["sql"]}" && sqlnet.func == 94')
        assert got == [["1"]]
        assert tshark.fields(cap, ["frame.number"], f'sqlnet.out_binds && sqlnet.sql == "{st["sql"]}"')
        assert st["returned"] == [121]      # the INSERT's bound id, as the plan gave it


def array_dml_statements(manifest):
    for st in dml_statements(manifest):
        if "many" in st:
            yield st
    rep = manifest["client"]["report"]
    for r in rep if isinstance(rep, list) else [rep]:
        for s in r.get("sessions", []):
            for st in s.get("statements", []):
                if "many" in st and st.get("error"):
                    yield st


BATCH_MANIFESTS = [m for m in MANIFESTS if list(array_dml_statements(m.values[0]))]


@pytest.mark.parametrize("manifest", BATCH_MANIFESTS)
def test_batch_errors_as_the_client_read_them(tshark, manifest):
    """Evidence: the client's own reading of the server's OER and RPA for an array INSERT
    (python-oracledb's cursor.getbatcherrors(), getarraydmlrowcounts(), rowcount; node's
    executeMany result; JDBC's executeBatch update counts; the ORA error that ended the
    call without batch errors), reported in the manifest."""
    cap = TEST_CAPTURES / manifest["capture"]
    fields = ["sqlnet.sql", "sqlnet.oer.error", "sqlnet.oer.rowcount", "sqlnet.oer.batch_error",
              "sqlnet.oer.batch_offset", "sqlnet.rpa.dml_rowcount"]
    seen = {sql: rest for sql, *rest in tshark.fields(cap, fields, "sqlnet.oer.rowcount && sqlnet.sql")}
    checked = 0
    for st in array_dml_statements(manifest):
        error, rowcount, codes, offsets, counts = seen[st["sql"]]
        if "rowcount" in st:               # node-oracledb and JDBC have none when the call failed
            assert int(rowcount) == st["rowcount"], st
        if st.get("error"):
            assert f"ORA-{int(error):05d}" == st["error"]
            assert codes == ""
        else:
            got = [[int(c), int(o)] for c, o in zip(codes.split(","), offsets.split(","))] if codes else []
            assert got == st.get("batch_errors", [])     # JDBC has no batch-errors mode
            if "dml_row_counts" in st:
                assert [int(c) for c in counts.split(",")] == st["dml_row_counts"]
        checked += 1
    # the batch scenarios run two array DMLs (one with errors); a row-by-row
    # pattern's fix runs one (pattern_rowbyrow_fix_*: executemany of its rows)
    assert checked == (1 if manifest["capture"].startswith("pattern_rowbyrow_fix_") else 2)


def client_statements(manifest):
    """The statements of every session the client reported (one report, or one per client)."""
    rep = manifest["client"]["report"]
    return [st for r in ([rep] if isinstance(rep, dict) else rep)
            for s in r.get("sessions", []) for st in s.get("statements", [])]


def manifests_with(key):
    """The manifests with a statement whose report holds key."""
    return [m for m in MANIFESTS if any(st.get(key) for st in client_statements(m.values[0]))]


LOB_MANIFESTS = manifests_with("lob_chars")


@pytest.mark.parametrize("manifest", LOB_MANIFESTS)
def test_lob_reads_as_the_client_read_them(tshark, manifest):
    """Evidence: the characters python-oracledb read with LOB.read() (ASCII text: one byte
    each), reported in the manifest.  The rows carry LOB locators (locator length, size,
    chunk size, locator); each read is a LOB operation answered by a LOB data message."""
    cap = TEST_CAPTURES / manifest["capture"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    stmts = client_statements(manifest)
    want = sum(st.get("lob_chars", 0) for st in stmts)
    data = tshark.fields(cap, ["sqlnet.lob.data_length", "sqlnet.lob.amount"], "sqlnet.lob.data_length")
    assert sum(int(d) for d, _ in data) == want
    assert all(d == a for d, a in data)           # the RPA's amount is what the data message held
    reads = tshark.fields(cap, ["sqlnet.lob.operation"], "sqlnet.lob.operation == 0x2")
    # one per row, or per LOB value the client read where it reports its values (NULL LOBs
    # are not read: the values scenarios)
    assert len(reads) == sum(sum(1 for row in st["values"] for v in row if v.startswith("LOB "))
                             if "values" in st else st["rows"] for st in stmts if st.get("lob_chars"))


LOB_TEXT_MANIFESTS = manifests_with("lob_text_chars")


@pytest.mark.parametrize("manifest", LOB_TEXT_MANIFESTS)
def test_lob_fetched_as_text_comes_with_its_row(tshark, manifest):
    """A CLOB the client fetches as text (python-oracledb fetch_lobs=False,
    node-oracledb fetchInfo as a string) is defined as LONG in its re-execute
    and comes as one with the row, no locator and no LOB call: every row is
    decoded and the CLOB column's values hold the characters the client
    reports it got with the rows (ASCII text: one byte each; a value longer
    than the tree keeps is shown cut with its length).  Evidence: the
    client's report (rows, lob_text_chars)."""
    cap = TEST_CAPTURES / manifest["capture"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    stmts = [st for st in client_statements(manifest) if st.get("lob_text_chars")]
    assert not tshark.fields(cap, ["frame.number"], "sqlnet.lob.operation")
    # every row's values and types (one aggregated field a frame: a byte no value holds between them)
    out = tshark.run(cap, ["-T", "fields", "-E", "occurrence=a", "-E", "aggregator=\x1f", "-e", "sqlnet.row.type",
                           "-e", "sqlnet.row.value", "-Y", "sqlnet.row.type == 8"]).stdout
    longs = []
    for line in out.splitlines():
        types, values = line.split("\t")
        longs += [v for t, v in zip(types.split("\x1f"), values.split("\x1f")) if t == "8"]
    assert len(longs) == sum(st["rows"] for st in stmts)

    def chars(v):
        m = re.search(r"\.\.\. \((\d+) bytes\)$", v)
        return int(m.group(1)) if m else len(v)
    assert sum(chars(v) for v in longs) == sum(st["lob_text_chars"] for st in stmts)


SCROLL_MANIFESTS = manifests_with("scrollable")


@pytest.mark.parametrize("manifest", SCROLL_MANIFESTS)
def test_scrollable_cursor_positions(tshark, manifest):
    """Evidence: the plan's scroll modes and offsets, and the rows python-oracledb read
    after each (the ID column is the row number).  Each scroll is an execute message with
    the scrollable flag, the fetch orientation (python TNS_FETCH_ORIENTATION_*) and the
    row to start from; none of them starts a new execution."""
    cap = TEST_CAPTURES / manifest["capture"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    st = next(st for st in client_statements(manifest) if st.get("scrollable"))
    orient = {"absolute": 0x20, "relative": 0x40, "first": 0x04, "last": 0x08}
    got = [(int(o, 16), int(p)) for o, p in tshark.fields(cap, ["sqlnet.oall8.fetch_orientation",
                                                                 "sqlnet.oall8.fetch_pos"],
                                                           "sqlnet.oall8.fetch_orientation")]
    assert got[0] == (0x01, 1)                 # the execute: "current", from row 1
    want = []
    for mode, offset, row, _ in st["positions"]:
        want.append((orient[mode], 0 if mode == "last" else row))
    assert got[1:] == want
    executions = {e for (e,) in tshark.fields(cap, ["sqlnet.execution"], f'sqlnet.sql == "{st["sql"]}"')}
    assert executions == {"1"} or len(executions) == 1


JDBC_LOB_MANIFESTS = [m for m in MANIFESTS if m.values[0]["scenario"].startswith("lob_")
                      and m.values[0]["client"]["driver"] == "jdbc-thin"]


@pytest.mark.parametrize("manifest", JDBC_LOB_MANIFESTS)
def test_jdbc_lob_prefetch_rows(tshark, manifest):
    """Evidence: JDBC's define call asks for its CLOB with a prefetch size (hand-decoded
    from lob_19_jdbc frame 32: continuation flags 0x02000000, max characters 32768), and
    JDBC read every row and its CLOB from the prefetched data (no LOB operation, rows as
    its report says).  The dissector must walk those LOB values (size, chunk size, charset,
    form, data, locator) with the define it saw."""
    cap = TEST_CAPTURES / manifest["capture"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet && (_ws.expert.group == 0x05000000 || _ws.malformed)") == []
    defines = tshark.fields(cap, ["sqlnet.bind.type", "sqlnet.bind.lob_prefetch"], "sqlnet.define")
    assert defines and defines[0] == ["2,1,112", "2"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet.lob.operation") == []
    rep = manifest["client"]["report"]
    want = sum(st["rows"] for r in (rep if isinstance(rep, list) else [rep]) for s in r["sessions"]
               for st in s["statements"] if st.get("sql"))
    assert sum(int(n) for (n,) in tshark.fields(cap, ["sqlnet.rows"], "sqlnet.rows")) == want
