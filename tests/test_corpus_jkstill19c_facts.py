"""What jkstill19c/cdb01_ora_26589.pcap shows, stated from its sources, not
from the dissector (EXPECTED.json has no facts for it).

Evidence: the upstream repository at the pinned commit
(scripts/corpus_sources.tsv: jkstill/sqlnet 08cffca9), read by hand:

- timeout-examples/dbapp.pl, the Perl DBI client: sets RowCacheSize = 100,
  prepares and executes

      select s.username, s.sid, s.serial#, p.spid spid,
             to_char(logon_time, 'yyyy-mm-dd hh24:mi:ss') logon_time
      from v$session s, v$process p
      where userenv('SESSIONID') = s.audsid and p.addr(+) = s.paddr

  and calls fetchrow_array once: one row (the session's own: its AUDSID is
  unique), five columns - v$session.USERNAME VARCHAR2, SID and SERIAL#
  NUMBER, v$process.SPID VARCHAR2, TO_CHAR(...) a VARCHAR2 - named as the
  select list names them, in upper case.
- timeout-examples/trace/cdb01_ora_26589.trc.gz, the server's Oracle Net
  trace of that session, lines 404 and 410:

      nsconneg:vsn=315, lov=300, opt=0xc41, sdu=8192, tdu=65535, ntc=0x7f08
      nsconneg:vsn=315, gbl=0xc41, sdu=8192, tdu=2097152

  (TNS version 315, SDU 8192, TDU 2097152 negotiated); the row the server
  sent, lines 1959-1964 (the ASCII column of the nsbasic_bsd dump):
  "JK" "STILL" ... "2" "6589" ... "2019-06-25" "20:24:31" - user JKSTILL,
  server process 26589 (the trace file's own number), logged on at
  2019-06-25 20:24:31; and the packet's end, lines 1986-1989:
  "ORA-" "01403:.n" "o.data.f" "ound." - the fetch ends with ORA-01403.

The test compares the dissector's fields (one tshark run) with these facts.
"""
import pytest

from tshark import corpus_file

CAP = "jkstill19c/cdb01_ora_26589.pcap"
FACTS = {
    "tns_version": 315, "sdu": 8192,
    "user": "JKSTILL",
    "columns": [("USERNAME", "1"), ("SID", "2"), ("SERIAL#", "2"), ("SPID", "1"), ("LOGON_TIME", "1")],
    "rows": 1, "spid": "26589", "logon_time": "2019-06-25 20:24:31",
    "last_error": 1403, "prefetch": 100,
}
FIELDS = ["frame.number", "sqlnet.accept.version", "sqlnet.accept.sdu", "sqlnet.auth.user",
          "sqlnet.describe.column", "sqlnet.describe.column.type", "sqlnet.row.value", "sqlnet.row.column",
          "sqlnet.ora_error", "sqlnet.rowcount", "sqlnet.oall8.prefetch", "sqlnet.sql"]


@pytest.fixture(scope="module")
def seen(tshark, public_dir):
    path = corpus_file(public_dir, CAP, "jkstill19c")
    rows = tshark.fields(path, FIELDS, "sqlnet")
    out = {f: [] for f in FIELDS}
    for row in rows:
        for f, v in zip(FIELDS, row):
            if v:
                out[f].append(v)
    return out


def test_tns_version_and_sdu_as_the_trace_negotiated(seen):
    assert seen["sqlnet.accept.version"] == [str(FACTS["tns_version"])]
    assert seen["sqlnet.accept.sdu"] == [str(FACTS["sdu"])]


def test_user_columns_and_row_as_the_script_and_trace_say(seen):
    # OSESSKEY and OAUTH both name the user (as typed, lower case; the server upper-cases it)
    assert {u.upper() for u in seen["sqlnet.auth.user"]} == {FACTS["user"]} and len(seen["sqlnet.auth.user"]) == 2
    assert len(seen["sqlnet.describe.column"]) == 1          # one describe
    names = seen["sqlnet.describe.column"][0].split(",")
    types = seen["sqlnet.describe.column.type"][0].split(",")
    assert list(zip(names, types)) == FACTS["columns"]
    assert len(seen["sqlnet.row.value"]) == FACTS["rows"]    # one frame of rows ...
    values = seen["sqlnet.row.value"][0].split(",")
    assert len(values) == len(FACTS["columns"]) * FACTS["rows"]   # ... holding one row
    assert seen["sqlnet.row.column"][0].split(",") == names
    row = dict(zip(names, values))
    assert (row["USERNAME"], row["SPID"], row["LOGON_TIME"]) == (FACTS["user"], FACTS["spid"], FACTS["logon_time"])


def test_the_select_ends_with_ora_01403_after_one_row(seen):
    """The statement (its text as dbapp.pl writes it, RowCacheSize as the
    prefetch) and its end: ORA-01403 and a cumulative row count of 1."""
    assert any(s.startswith("select\\n\\ts.username,\\n\\ts.sid,") or s.startswith("select\n\ts.username,\n\ts.sid,")
               for s in seen["sqlnet.sql"])
    assert seen["sqlnet.oall8.prefetch"][-1] == str(FACTS["prefetch"])
    assert seen["sqlnet.ora_error"][-1] == str(FACTS["last_error"])
    assert seen["sqlnet.rowcount"][-1] == str(FACTS["rows"])
