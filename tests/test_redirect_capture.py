"""REDIRECT followed by real clients (issue 25, point 3).

Evidence: the generated captures redirect_python, redirect_node and
redirect_goora.  A listener of the scripted server (port 1526) answers the
CONNECT with a REDIRECT to port 1521 (header flag 0x02: address, NUL, the
client's connect data; for python-oracledb, which reads it from the packet
after the REDIRECT, in a 10-byte REDIRECT and a DATA packet, for
node-oracledb and go-ora in the REDIRECT itself).  The client accepting it
is the evidence that the bytes are a REDIRECT as the clients read it:
python-oracledb 26.1, node-oracledb 6.10 and go-ora 2.9 connected to port
1521 and fetched every row.  The expected values come from the manifests:
the server's record of what it sent (`redirects`), the header flags of the
client's second CONNECT as the server read them (`connect_header_flags`),
the server's row and round-trip counters and the client's own row count.
"""
import json

import pytest

from tshark import TEST_CAPTURES

NAMES = ["redirect_python", "redirect_node", "redirect_goora"]


def manifest(name):
    path = TEST_CAPTURES / f"{name}.json"
    if not path.is_file() or not (TEST_CAPTURES / f"{name}.pcapng").is_file():
        pytest.skip(f"{name} not generated")
    return json.loads(path.read_text()), TEST_CAPTURES / f"{name}.pcapng"


@pytest.mark.parametrize("name", NAMES)
def test_redirect_decoded_as_the_client_read_it(tshark, name):
    m, cap = manifest(name)
    (rd,) = m["redirects"]
    flt = f"tcp.port == {rd['client_port']} && sqlnet.redirect.address"
    rows = tshark.fields(cap, ["sqlnet.redirect.address", "sqlnet.redirect.host", "sqlnet.redirect.port",
                               "sqlnet.redirect.connect_data"], flt)
    assert rows == [[rd["redirect_address"], m["server"]["address"], str(rd["redirect_port"]),
                     rd["redirect_connect_data"]]]
    # the listener's packets as it wrote them: REDIRECT (+ DATA when deferred)
    rows = tshark.fields(cap, ["sqlnet.type", "sqlnet.length", "sqlnet.redirect.data_length", "sqlnet.flags"],
                         f"tcp.srcport == {rd['listener_port']} && sqlnet")
    types = ["5", "6"] if rd["redirect_deferred"] else ["5"]
    assert [r[0] for r in rows] == types
    assert [int(r[1]) for r in rows] == rd["redirect_packet_lengths"]
    assert rows[0][2] == str(rd["redirect_data_length"])
    assert int(rows[0][3], 16) == rd["redirect_header_flags"]
    # nothing in it taken for anything else
    assert tshark.fields(cap, ["frame.number"], f"tcp.port == {rd['client_port']} && "
                         "(sqlnet.bad_length || sqlnet.extra_bytes || sqlnet.ttc || sqlnet.data.payload)") == []


@pytest.mark.parametrize("name", NAMES)
def test_redirected_session_decodes_to_its_end(tshark, name):
    m, cap = manifest(name)
    (conn,) = m["connections"]
    (rd,) = m["redirects"]
    assert conn["client_port"] != rd["client_port"]
    # the second CONNECT carries NSPFRDR (0x04) as the server read it
    rows = tshark.fields(cap, ["tcp.srcport", "sqlnet.flags.redirected"], "sqlnet.type == 1")
    assert rows == [[str(rd["client_port"]), "0"],
                    [str(conn["client_port"]), "1" if conn["connect_header_flags"] & 0x04 else "0"]]
    bad = tshark.fields(cap, ["frame.number"],
                        "sqlnet.ttc.partial || sqlnet.ttc.not_decoded || sqlnet.undecoded || "
                        "sqlnet.bad_header || sqlnet.bad_length || sqlnet.short_packet")
    assert bad == []
    rows = tshark.fields(cap, ["sqlnet.rt.rows"], f"tcp.port == {conn['client_port']} && sqlnet.rt.rows")
    # every row the server sent (go-ora also runs a one-row query of its own at logon)
    assert sum(int(v) for r in rows for v in r[0].split(",")) == conn["stats"]["rows_sent"]
    # and the client read the whole table after following the redirect
    assert m["client"]["rows_received"] == m["server"]["tables"][0]["rows"]
    rts = tshark.fields(cap, ["sqlnet.rt.number"], f"tcp.port == {conn['client_port']} && sqlnet.rt.number")
    assert len(rts) == conn["stats"]["round_trips"]
