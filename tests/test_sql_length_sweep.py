"""Issue 35 point 4: SQL texts of every length from 1 to 300 bytes, and
around the long form's chunk boundary (32767), decode to the end in an
OALL8 of each client family, alone or stapled behind a close-cursors or an
end-to-end-attributes piggyback.

On a DBeaver (JDBC 23) session a 64-byte "ALTER SESSION ..." after a
close-cursors piggyback was shown as sqlnet.ttc.continues: JDBC writes the
text bare, and read as a DALC its first character ('A' = 65) made a length
that ended exactly one ub4 into the al8i4 vector, on al8i4[1] = 1.  The
class is any text whose first character, taken for a length, lands on a
1: so the sweep uses several first characters.

OVERSION is not a stapling here: it is a call of its own that waits for its
reply (nothing follows it in a request) and it carries no SQL text; what is
stapled before it (SQL*Plus 23's session-switch piggyback) and its decoding
to the end of its bytes are checked on real captures in
tests/test_auth_reply_version.py.

Evidence: the bytes are our belief of what each family writes, built in
tests/sqlsweep.py from the reference writers (python-oracledb's execute
and buffer writers, go-ora's PutClr, JDBC's bare CHR as its DTY flags
announce it), appended to a real logon of that family from test-captures/;
the expected text of every call is the text the test put in it.
"""
import pytest

import sqlsweep

PREFIXES = ["ALTER SESSION SET CURRENT_SCHEMA = ", "SELECT 1 FROM DUAL WHERE 'x' = '",
            "WITH q AS (SELECT ", "BEGIN NULL; END; -- ", "{call p('", "update t set c = '"]
NOT_DECODED = ["sqlnet.ttc.continues", "sqlnet.ttc.undecoded", "sqlnet.ttc.call_data", "_ws.malformed",
               "sqlnet.ttc.not_decoded"]


def text(prefix, length):
    return (prefix + "x" * length)[:length]


def texts(lengths):
    return [text(p, n) for n in lengths for p in PREFIXES]


def check(tshark, tmp_path, family, stapling, wanted):
    cap = tmp_path / f"{family}-{stapling}.pcap"
    calls = sqlsweep.sweep_capture(cap, family, wanted, stapling)
    middle = {f for first, last in calls for f in range(first, last)}   # a call's packets before its last
    rows = tshark.fields(cap, ["frame.number", "sqlnet.sql"] + NOT_DECODED, f"frame.number >= {calls[0][0]}")
    bad = [r for r in rows if any(r[3:]) or (r[2] and int(r[0]) not in middle)]
    assert not bad, f"{len(bad)} frames not decoded to the end, first: {bad[0][:2]}"
    got = [r[1] for r in rows if r[1]]
    missing = [(i, len(w), w[:20]) for i, (w, g) in enumerate(zip(wanted, got)) if w != g]
    assert not missing and len(got) == len(wanted), (len(got), len(wanted), missing[:5])


@pytest.mark.parametrize("stapling", list(sqlsweep.STAPLINGS))
@pytest.mark.parametrize("family", list(sqlsweep.FAMILIES))
def test_every_length_to_300(tshark, tmp_path, family, stapling):
    check(tshark, tmp_path, family, stapling, texts(range(1, 301)))


@pytest.mark.parametrize("family", list(sqlsweep.FAMILIES))
def test_around_the_chunk_boundary(tshark, tmp_path, family):
    """32767 bytes is the thin clients' chunk of the long form (longer texts
    take a second chunk) and spans several 8 KB TNS packets."""
    check(tshark, tmp_path, family, "close-cursors",
          [text(PREFIXES[0], n) for n in (32766, 32767, 32768, 32769)])


def test_the_64_byte_case_of_the_report(tshark, tmp_path):
    """The report's case itself: JDBC, close-cursors piggyback, a 64-byte
    ALTER SESSION, then the same one byte shorter."""
    t = "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'" + " " * 5
    assert len(t) == 64
    check(tshark, tmp_path, "jdbc", "close-cursors", [t, t[:63]])
