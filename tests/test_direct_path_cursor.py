"""A direct path load's calls carry no SQL text of an earlier statement.

Evidence: python-oracledb thin, messages/direct_path_prepare.pyx: a direct
path prepare (function 128) sends a schema, a table and its column names,
no SQL text, and its reply names the cursor it opened (out_values'
cursor index); the load stream (129) and op (130) calls work on that
cursor.  In rust-oracledb/dpl_session.pcap the server hands out cursor
numbers it used before for other statements (the reply to frame 38's
prepare names cursor 1, which frame 22's `drop table ... dpl_golden` used),
so the cursor's earlier text is not the load's.  The statements run with
SQL text (OALL8, function 94) keep theirs.  One pass and two give the same.
"""
import pytest

from tshark import corpus_file

CAP = "rust-oracledb/dpl_session.pcap"
FIELDS = ["frame.number", "sqlnet.call", "sqlnet.cursor", "sqlnet.sql"]
DIRECT_PATH = {"128", "129", "130"}


@pytest.fixture(scope="module")
def path(public_dir):
    return corpus_file(public_dir, CAP, "rust-oracledb captures")


@pytest.mark.parametrize("passes", [[], ["-2"]], ids=["1pass", "2pass"])
def test_direct_path_calls_have_no_earlier_sql(tshark, path, passes):
    rows = [r + [""] * (len(FIELDS) - len(r)) for r in tshark.fields(path, FIELDS, "sqlnet.call", extra=passes)]
    dp = [r for r in rows if r[1] in DIRECT_PATH]
    # the capture's prepares (three tables loaded), streams and ops, calls and responses
    assert len([r for r in dp if r[1] == "128"]) >= 6
    assert any(r[2] == "1" for r in dp if r[1] == "128"), "a prepare's reply names cursor 1 (reused)"
    assert [r for r in dp if r[3]] == []
    # the SQL statements keep their text, on the call and on its response
    sql = {r[3] for r in rows if r[1] == "94" and r[3]}
    assert any(s.startswith("drop table if exists dpl_golden") for s in sql)
    assert any(s.startswith("select count(*), min(id), max(id) from dpl_golden") for s in sql)
