"""TTC facts of the real captures: every round trip in EXPECTED.json.

EXPECTED.json was derived by an independent decoder; the fields sqlnet must
reproduce are named in the issue: calls and their rows requested, SQL text,
rows delivered, cumulative row count, ORA error, TNS packets and bytes per
response.
"""
import json
from collections import defaultdict

import pytest

from tshark import PUBLIC

FIELDS = ["frame.number", "sqlnet.call", "sqlnet.fetch.rows", "sqlnet.sql", "sqlnet.rows",
          "sqlnet.rowcount", "sqlnet.ora_error", "sqlnet.response.packets",
          "sqlnet.response.bytes", "sqlnet.response.cursor", "sqlnet.request_in"]


def _detailed():
    path = PUBLIC / "EXPECTED.json"
    if not path.is_file():
        return []
    data = json.loads(path.read_text())
    return sorted((name, v) for name, v in data.items()
                  if any(c.get("round_trips") for c in v["conversations"]))


CAPTURES = [pytest.param(name, v, id=name) for name, v in _detailed()]
REQUEST_CAPTURES = CAPTURES


def is_query(rt):
    """A query: its response describes columns or carries rows, or its SQL is a
    SELECT/WITH (a query that failed before its describe)."""
    msgs = rt["response"].get("messages", {})
    verb = (rt.get("sql") or "").lstrip().split(" ", 1)[0].upper()
    return (bool(rt["response"].get("columns")) or any(m in msgs for m in ("DCB", "RXH", "RXD"))
            or verb in ("SELECT", "WITH"))


def sql_matches(want, got_values):
    """EXPECTED.json keeps the first 80 characters with whitespace collapsed;
    tshark escapes control characters."""
    norm = lambda text: " ".join(text.split())
    for g in got_values:
        g = norm(g.replace("\\n", " ").replace("\\t", " ").replace("\\r", " "))
        if g == norm(want) or (len(want) >= 80 and g.startswith(norm(want))):
            return True
    return False


def expected_fetch_rows(rt):
    """Rows requested per the issue's definition, from EXPECTED's raw call fields."""
    code = int(rt["code"], 16)
    if code == 0x05:
        return rt.get("rows_requested")
    if code == 0x4E:
        return rt.get("num_iters")
    if code == 0x5E:
        options = int(rt.get("options", "0"), 16)
        if "prefetch_rows" not in rt or not is_query(rt):
            return None
        if options & 0x40 and not options & 0x20:
            return rt["al8i4_1"]
        if rt.get("cursor", 0) != 0 and rt.get("al8i4_1", 0) > 0:
            return rt["al8i4_1"]
        return rt["prefetch_rows"]
    return None


def by_frame(tshark, capture):
    rows = tshark.fields(capture, FIELDS, display_filter="sqlnet")
    out = defaultdict(lambda: defaultdict(list))
    for row in rows:
        frame = int(row[0])
        for name, value in zip(FIELDS[1:], row[1:]):
            if value != "":
                out[frame][name] += value.split(",") if name != "sqlnet.sql" else [value]
    return out


def ttc_round_trips(conv):
    for rt in conv.get("round_trips", []):
        if rt.get("code") and rt["response"].get("decoded"):
            yield rt


@pytest.mark.parametrize("name,expected", REQUEST_CAPTURES)
def test_requests(tshark, public_dir, name, expected):
    got = by_frame(tshark, public_dir / name)
    problems = []
    for conv in expected["conversations"]:
        for rt in ttc_round_trips(conv):
            frame = rt["req_frames"][-1]
            code = int(rt["code"], 16)
            calls = [int(v) for v in got[frame]["sqlnet.call"]]
            if code not in calls:
                problems.append((frame, "call", code, calls))
                continue
            want = expected_fetch_rows(rt)
            have = got[frame]["sqlnet.fetch.rows"]
            if want is not None and [str(want)] != have:
                problems.append((frame, "fetch.rows", want, have))
            if want is None and code == 0x5E and have:
                problems.append((frame, "fetch.rows on a non-query", have))
            if rt.get("sql") and not sql_matches(rt["sql"], got[frame]["sqlnet.sql"]):
                problems.append((frame, "sql", rt["sql"][:60], got[frame]["sqlnet.sql"]))
    assert problems == []


@pytest.mark.parametrize("name,expected", CAPTURES)
def test_responses(tshark, public_dir, name, expected):
    got = by_frame(tshark, public_dir / name)
    problems = []
    for conv in expected["conversations"]:
        for rt in ttc_round_trips(conv):
            resp = rt["response"]
            frame = resp["frames"][-1]
            g = got[frame]
            checks = [("sqlnet.rows", resp.get("rows")),
                      ("sqlnet.response.packets", resp["tns_packets"]),
                      ("sqlnet.response.bytes", resp["tns_bytes"])]
            if resp.get("oer"):
                checks += [("sqlnet.rowcount", resp["oer"]["rowcount"]),
                           ("sqlnet.ora_error", resp["oer"]["error"]),
                           ("sqlnet.response.cursor", resp["oer"]["cursor"])]
            for field, want in checks:
                if want is not None and g[field] != [str(want)]:
                    problems.append((frame, rt["function"], field, want, g[field]))
    assert problems == []
