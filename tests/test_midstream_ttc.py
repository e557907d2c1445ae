"""Captures that start after the handshake: the TTC encoding is inferred from
the structure of the first call and the remaining round trips still decode.

Real captures from ../shared are cut with editcap at a call frame; expected
values are EXPECTED.json's facts for the round trips after the cut.
"""
import json
import subprocess

import pytest

from tshark import PUBLIC
from test_ttc_public import by_frame, expected_fetch_rows

CUTS = [
    ("dbbat/python_thin.pcapng", 11),                 # thin 19c, field version 12
    ("dbbat/python_thin_cursor_reexec.pcapng", 9),    # thin 23ai, token + end of response
    ("dbbat/go_ora.pcapng", 15),                      # go-ora 19c
    ("dbbat/sqlplus_cursor_reexec.pcapng", 18),       # OCI 23 native
    ("john/Oracle-good.pcap", 25),                    # OCI 11g native
    ("junkie/select.pcap", 23),                       # OCI 10g native
]


@pytest.mark.parametrize("name,cut", CUTS, ids=[c[0] for c in CUTS])
def test_round_trips_after_the_cut(tshark, public_dir, tmp_path, name, cut):
    expected = json.loads((public_dir / "EXPECTED.json").read_text())[name]
    out = tmp_path / "cut.pcapng"
    subprocess.run(["editcap", "-F", "pcapng", "-r", str(public_dir / name), str(out),
                    f"{cut}-1000000"], check=True, capture_output=True)
    got = by_frame(tshark, out)
    shift = cut - 1
    inferred = tshark.fields(out, ["frame.number"], display_filter="sqlnet.ttc.dialect_inferred")
    assert len(inferred) == 1

    checked = 0
    for conv in expected["conversations"]:
        for rt in conv.get("round_trips", []):
            if not rt.get("code") or rt["req_frames"][0] < cut or not rt["response"].get("decoded"):
                continue
            req, resp = got[rt["req_frames"][-1] - shift], got[rt["response"]["frames"][-1] - shift]
            assert str(int(rt["code"], 16)) in req["sqlnet.call"], rt["req_frames"]
            want = expected_fetch_rows(rt)
            if want is not None:
                assert req["sqlnet.fetch.rows"] == [str(want)], rt["req_frames"]
            assert resp["sqlnet.rows"] == [str(rt["response"]["rows"])], rt["response"]["frames"]
            if rt["response"].get("oer"):
                assert resp["sqlnet.rowcount"] == [str(rt["response"]["oer"]["rowcount"])]
                assert resp["sqlnet.ora_error"] == [str(rt["response"]["oer"]["error"])]
            checked += 1
    assert checked >= 2
