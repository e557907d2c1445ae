"""SQL*Plus 23 (OCI, 64-bit, field version 22) recorded without its session's
negotiation (issue 35, point 2): the client's packets alone and the server's
packets alone, cut with editcap at test time from the full sessions in
../shared (dbbat sqlplus_cursor_reexec and sqlplus_midfetch_fail; the cuts are
never kept in the repository).

Evidence:
- the close-cursors lists: a hand decode of the piggyback's bytes
  (tcp.payload, tshark's core: "11 69 seq token" then a 64-bit pointer, a
  little-endian ub4 count and that many ub4 cursor ids, as in frame 22
  "11 69 08 01 09 feffffffffffffff 01000000 02000000");
- the ORA-01403 end-of-call summaries: the error text in the bytes
  ("ORA-01403: no data found") and 1403;
- every other value: the same frame of the full session, decoded with its
  negotiation (two views of the same bytes compared with each other).
"""
import subprocess
import struct

import pytest

from tshark import PUBLIC

SESSIONS = ["dbbat/sqlplus_cursor_reexec.pcapng", "dbbat/sqlplus_midfetch_fail.pcapng"]
FIRST = 18                    # the first frame after OVERSION: no PRO, DTY or logon from here on
FIELDS = ["frame.number", "tcp.srcport", "tcp.payload", "sqlnet.func", "sqlnet.piggyback", "sqlnet.close_cursor",
          "sqlnet.sql", "sqlnet.oer.error16", "sqlnet.ora", "sqlnet.rows", "sqlnet.oer.call_status",
          "sqlnet.cursor", "sqlnet.oer.rowcount", "sqlnet.describe.columns",
          "sqlnet.describe.column.type"]
SAME = FIELDS[3:]
NOT_DECODED = ["sqlnet.ttc.continues", "sqlnet.ttc.undecoded", "sqlnet.ttc.not_decoded", "_ws.malformed"]


def rows(tshark, cap):
    return [dict(zip(FIELDS + NOT_DECODED, r)) for r in tshark.fields(cap, FIELDS + NOT_DECODED, "tcp.len > 0")]


@pytest.fixture(scope="module", params=[(s, side) for s in SESSIONS for side in ("client", "server", "commit")],
                ids=lambda p: f"{p[0].split('/')[-1]}-{p[1]}-only")
def cut(request, tshark, tmp_path_factory):
    session, side = request.param
    full_path = PUBLIC / session
    if not full_path.is_file():
        pytest.skip(f"{session} not available")
    full = [r for r in rows(tshark, full_path) if int(r["frame.number"]) >= FIRST]
    keep = [r for r in full if (r["tcp.srcport"] == "1521") == (side == "server")]
    if side == "commit":
        # from the client's OCOMMIT on: its first packet holds a close-cursors list and an
        # end-to-end piggyback before the call, and no OALL8 to tell the layout from
        first = next(i for i, r in enumerate(keep) if r["sqlnet.func"].split(",")[-1] == "14")
        keep = keep[first:]
    out = tmp_path_factory.mktemp("cuts") / f"{side}-{full_path.name}"
    subprocess.run(["editcap", "-r", str(full_path), str(out)] + [r["frame.number"] for r in keep], check=True)
    got = rows(tshark, out)
    assert len(got) == len(keep)
    return keep, got


def close_lists(payload):
    """Cursor ids of every close-cursors piggyback (11 69) at the start of a
    request's TTC, read by hand in OCI 23's 64-bit layout."""
    b = bytes.fromhex(payload.replace(":", ""))[10:]      # TNS header, data flags
    ids, p = [], 0
    while p + 4 < len(b) and b[p] == 0x11:
        assert b[p + 1] in (0x69, 0x87, 0x6b), b[p:p + 8].hex()
        if b[p + 1] != 0x69:
            break                      # other piggybacks (their own layouts) end the walk
        p += 5 + 8                     # type, function, sequence, token; the pointer
        (n,) = struct.unpack_from("<I", b, p)
        ids += list(struct.unpack_from(f"<{n}I", b, p + 4))
        p += 4 + 4 * n
    return ids


def test_decodes_to_the_end(cut):
    """Nothing in the cut is left undecoded, continued or malformed."""
    _, got = cut
    bad = [(r["frame.number"], [f for f in NOT_DECODED if r[f]]) for r in got if any(r[f] for f in NOT_DECODED)]
    assert not bad


def test_close_cursor_lists_are_the_bytes(cut):
    """Every close-cursors list is shown with the ids its bytes hold."""
    keep, got = cut
    seen = 0
    for r in got:
        ids = close_lists(r["tcp.payload"])
        assert r["sqlnet.close_cursor"] == ",".join(map(str, ids)), r["frame.number"]
        seen += bool(ids)
    if keep and keep[0]["tcp.srcport"] != "1521":
        assert seen, "no close-cursors list in the client's packets"
        assert close_lists(keep[0]["tcp.payload"]) == [int(x) for x in got[0]["sqlnet.close_cursor"].split(",") if x]


def test_ora_01403_summaries(cut):
    """Each reply whose bytes hold ORA-01403 shows error 1403."""
    _, got = cut
    for r in got:
        if b"ORA-01403" in bytes.fromhex(r["tcp.payload"].replace(":", "")):
            assert r["sqlnet.oer.error16"].split(",")[-1] == "1403" and "ORA-01403" in r["sqlnet.ora"], \
                r["frame.number"]


def test_same_as_with_the_negotiation(cut):
    """Frame by frame, the cut shows what the full session shows (a reply's
    statement text and function come from its request: not in a server-only cut)."""
    keep, got = cut
    server = keep and keep[0]["tcp.srcport"] == "1521"
    for full, part in zip(keep, got):
        for f in SAME:
            if server and f in ("sqlnet.sql", "sqlnet.func", "sqlnet.piggyback"):
                continue
            assert full[f] == part[f], (full["frame.number"], f, full[f], part[f])
