"""-z sqlnet,stmt: one numbering (CONTRACT.md "Statements"), and the CSV and
JSON records.

Evidence: the scripted server's manifests (each request's SQL, the frame of
its first packet, the last frame of its response, the counts it sent),
Oracle's SQL_ID computed here from the SQL text (MD5 of the text and a NUL,
the last 64 bits as two little-endian words in Oracle's base 32: known value
"select * from dual" -> a5ks9fhw2v9s1), and, for the CSV and JSON figures, the
text report of the same run (the formats must print the same numbers).
"""
import csv
import io
import json
from collections import defaultdict

import pytest

from oracle_sql_id import PUBLISHED, oracle_sql_id
from test_generated_captures import MANIFESTS, calls
from test_stats import (HEADER, OTHER, expected_by_statement, parse_stmt, run_z,
                        statement_key)

sql_id = oracle_sql_id


def test_sql_id_known_value():
    assert sql_id(PUBLISHED[0]) == PUBLISHED[1]


def expected_statements(manifest):
    """[(sql on one line, SQL text, first request frame, last response frame)] in
    the order of their first request's frame, and the calls outside a statement's
    (first, last) frames."""
    first, last, text = {}, {}, {}
    for conn, req, resp in calls(manifest):
        key = statement_key(req)
        f = req["request_first_frame"]
        if key not in first or f < first[key]:
            first[key] = f
            text.setdefault(key, req.get("sql"))
        last[key] = max(last.get(key, 0), resp["last_frame"])
    order = sorted((k for k in first if k != OTHER), key=lambda k: first[k])
    outside = (first[OTHER], last[OTHER]) if OTHER in first else None
    return [(k, text[k], first[k], last[k]) for k in order], outside


NAMED = ["arraysize_50", "jdbc_dml", "two_sessions", "sweep_arraysize", "error_midfetch"]
SOME = [m for m in MANIFESTS if m.values[0]["scenario"] in NAMED]


@pytest.mark.parametrize("manifest", SOME)
def test_numbering_and_headers(tshark, manifest):
    """Statements are numbered 1, 2 ... in the order of their first call's frame,
    one per SQL text; each header names its SQL_ID filter and its first request
    and last response frame; the calls outside a statement come first, unnumbered."""
    out = run_z(tshark, manifest, "sqlnet,stmt")
    want, outside = expected_statements(manifest)
    got = [HEADER.match(l).groups() for l in out.splitlines() if HEADER.match(l)]
    assert [int(g[0]) for g in got] == list(range(1, len(want) + 1))
    assert [(g[1], g[2], int(g[3]), int(g[4])) for g in got] == \
        [(sql, sql_id(text), f, l) for sql, text, f, l in want]
    heads = [l for l in out.splitlines() if l.startswith((OTHER, "Statement "))]
    if outside:
        assert heads[0] == f"{OTHER}: logon, commit, ping ... (frames {outside[0]}-{outside[1]})"
    else:
        assert not heads[0].startswith(OTHER)


def records(tshark, manifest, fmt):
    proc = tshark.run(__import__("tshark").TEST_CAPTURES / manifest["capture"],
                      ["-q", "-z", f"sqlnet,stmt,format={fmt}"])
    assert "sqlnet" not in proc.stderr.lower(), proc.stderr
    if fmt == "json":
        doc = json.loads(proc.stdout)
        assert set(doc) >= {"statements", "encrypted"}
        return doc["statements"], doc
    rows = list(csv.DictReader(io.StringIO(proc.stdout, newline="")))
    return [{k: (v if v != "" else None) for k, v in r.items()} for r in rows], None


TEXT_OF = {  # record member -> the text report's line
    "executions": "executions", "fetch_calls": "fetch calls", "rows": "rows processed",
    "round_trips": "SQL*Net roundtrips to/from client",
    "bytes_to_client": "bytes sent via SQL*Net to client",
    "bytes_from_client": "bytes received via SQL*Net from client",
    "tns_bytes_to_client": "TNS bytes to client (TCP payload)",
    "tns_bytes_from_client": "TNS bytes from client (TCP payload)",
    "row_bytes_to_client": "row data bytes to client", "packets_to_client": "TNS packets to client",
    "segments_to_client": "TCP segments to client",
    "response_time_sum_ms": "response time sum (ms)", "response_time_avg_ms": "response time avg (ms)",
    "response_time_max_ms": "response time max (ms)",
    "more_data_responses": "responses larger than one SDU (\"more data\")",
    "wire_time_ms": "elapsed (ms)", "elapsed_ms": "elapsed (ms)", "network_ms": "network: round trips x RTT (ms)",
    "server_ms": "server: call to first byte of answer (ms)",
    "transfer_ms": "transfer: first to last byte (ms)", "client_ms": "client: between calls of an execution (ms)",
    "idle_ms": "idle: before its executions, apart (ms)", "wait_ms": "wait: network + server + transfer (ms)",
    "prefetch_rows": "prefetch (rows the executes brought)",
}
MANIFEST_OF = {"round_trips": "round trips", "rows": "rows", "bytes_to_client": "to client",
               "bytes_from_client": "from client", "tns_bytes_to_client": "tns to client",
               "tns_bytes_from_client": "tns from client", "row_bytes_to_client": "row bytes",
               "fetch_calls": "fetch calls"}


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("manifest", SOME[:3])
def test_formats_same_numbers(tshark, manifest, fmt):
    """One record per statement (the calls outside a statement with no number
    and no SQL), in the text's order, with the text's numbers and the scripted
    server's counts."""
    text = parse_stmt(run_z(tshark, manifest, "sqlnet,stmt"))
    recs, _ = records(tshark, manifest, fmt)
    want, outside = expected_statements(manifest)
    exp = expected_by_statement(manifest)
    keys = ([OTHER] if outside else []) + [sql for sql, _, _, _ in want]
    assert [r["sql"] or OTHER for r in recs] == keys
    for n, (r, key) in enumerate(zip(recs, keys), 0 if outside else 1):
        if key == OTHER:
            assert r["statement"] is None and r["sql_id"] is None
        else:
            assert int(r["statement"]) == n
            assert r["sql_id"] == sql_id(next(t for s, t, _, _ in want if s == key))
        for member, line in TEXT_OF.items():
            shown = text[key].get(line.strip())
            if shown is None or shown == "unknown":
                assert r[member] is None, (key, member)
            else:
                assert float(r[member]) == float(shown), (key, member)
        for member, e in MANIFEST_OF.items():
            assert int(r[member]) == exp[key][e], (key, member)
        errors = text[key]["ORA errors (ORA-01403 end of fetch excluded)"]
        assert (r["ora_errors"] or "-") == errors
        # one array size, the same text everywhere (issue 34)
        assert (r["array_size"] or "-") == text[key]["array size (rows asked per fetch)"]
        assert (r["array_sizes"] or None) == (r["array_size"] or None)


def test_csv_quotes_and_json_escapes(tshark):
    """SQL texts with commas, quotes and line breaks (go-ora's NLS block in
    goora_basic) come back whole from the CSV reader (RFC 4180 quoting) and
    the JSON parser: the manifest's texts on one line."""
    m = next(p.values[0] for p in MANIFESTS if p.values[0]["scenario"] == "goora_basic")
    texts = {statement_key(r) for _, r, _ in calls(m)} - {OTHER}
    assert any("," in t and "'" in t for t in texts)
    for fmt in ("csv", "json"):
        recs, _ = records(tshark, m, fmt)
        assert {r["sql"] for r in recs if r["sql"]} == texts, fmt


def test_format_with_filter(tshark):
    """format=csv then a display filter: only the filtered conversation's
    statements (two_sessions: each session runs its own statements; evidence:
    the manifest's requests of the first connection)."""
    m = next(p.values[0] for p in MANIFESTS if p.values[0]["scenario"] == "two_sessions")
    conn = m["connections"][0]
    port = conn.get("client_port")
    if not port:
        pytest.skip("manifest without client ports")
    proc = tshark.run(__import__("tshark").TEST_CAPTURES / m["capture"],
                      ["-q", "-z", f"sqlnet,stmt,format=csv,tcp.port=={port}"])
    rows = list(csv.DictReader(io.StringIO(proc.stdout, newline="")))
    want = defaultdict(int)
    for req in conn["requests"]:
        if (req.get("response") or {}).get("last_frame"):
            want[statement_key(req)] += 1
    assert {(r["sql"] or OTHER): int(r["round_trips"]) for r in rows} == dict(want)
