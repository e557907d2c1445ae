"""Issue 35 point 3: a call whose body the dissector leaves as bytes says it
was not decoded (expert sqlnet.ttc.not_decoded on the call data), and the
SQL text in it, when it is there in the long form ("fe 40 select ..."), is
shown (sqlnet.sql) even though the rest of the call cannot be read.

Evidence: hand-built packets (tests/sqlsweep.py, our belief of the writers'
bytes) appended to a real python-oracledb logon: an OALL8 whose al8i4
vector claims 200 entries (no client sends more than 13; the decoder cannot
walk it) and whose SQL is in OCI's long form of 64-byte chunks; the text the
test put there is the expectation.  Its neighbours are ordinary calls that
must carry no such expert.
"""
import sqlsweep

SQL = "select COUNT(*) from user_tab_columns where table_name = 'SQLNET_ROWS' and nullable = 'Y'"


def test_unreadable_call_is_said_not_decoded_and_shows_its_sql(tshark, tmp_path):
    assert len(SQL) > 64                      # two chunks of the long form
    good = sqlsweep.oall8("SELECT 1 FROM DUAL", "dalc", 2)
    broken = sqlsweep.oall8(SQL, "oci", 3, al8i4_len=200)
    assert b"\xfe\x40" + SQL[:64].encode() in broken
    cap = tmp_path / "broken.pcap"
    f_good, f_broken, f_after = sqlsweep.calls_capture(cap, "python", [good, broken, good])
    rows = {int(r[0]): r[1:] for r in tshark.fields(
        cap, ["frame.number", "sqlnet.sql", "sqlnet.ttc.call_data", "_ws.expert.message"],
        f"frame.number >= {f_good}")}
    assert rows[f_good][0] == "SELECT 1 FROM DUAL" and "not decoded" not in rows[f_good][2]
    assert rows[f_broken][0] == SQL
    assert rows[f_broken][1], "the call's body is not shown as call data"
    assert "TTC call not decoded" in rows[f_broken][2]
    out = tshark.run(cap, ["-Y", f"frame.number == {f_broken} && sqlnet.ttc.not_decoded"])
    assert out.stdout.strip() and not out.stderr.strip()
    for extra in ([], ["-2"]):                # the same in both passes
        got = tshark.fields(cap, ["sqlnet.sql", "sqlnet.ttc.not_decoded"], f"frame.number == {f_broken}",
                            extra=extra)
        assert got and got[0][0] == SQL, (extra, got)
