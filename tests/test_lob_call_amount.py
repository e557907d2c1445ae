"""The amount a LOB read asks for (OLOBOPS, 96): the ub8 after the locator
(python-oracledb messages/lob_op.pyx _write_message: locators, then the
charset when creating a temporary LOB, a write's data as a LOB data message,
then the amount when the amount pointer is set), once left as call data.

Evidence: the generated captures' bytes and manifests.  Hand decoding of
lob_19_node.pcapng frame 26 (the first read): the call ends
"... 3d42 00..00 | 02 02bc", a universal ub8 of two bytes, 0x2bc = 700, the
characters of each CLOB of the table (manifest server.tables[0].lob_chars);
lob_19_python.pcapng frame 26 ends "04 ffffffff": python-oracledb asks for
2**32 - 1 and gets what there is.  Each test re-encodes the plugin's amount
as a universal integer (length byte, big-endian bytes; written here from the
format) and finds it as the last bytes of the call's TCP payload.
"""
import json

import pytest

from tshark import TEST_CAPTURES

CAPS = ["lob_19_node", "lob_23ai_node", "lob_19_python", "lob_23ai_python", "values_19_node"]
FIELDS = ["frame.number", "tcp.payload", "sqlnet.lob.amount", "sqlnet.ttc.call_data", "_ws.expert.message"]


def universal(n):
    b = n.to_bytes(8, "big").lstrip(b"\0")
    return bytes([len(b)]) + b


@pytest.fixture(scope="module", params=CAPS)
def reads(request, tshark):
    cap = TEST_CAPTURES / f"{request.param}.pcapng"
    manifest = json.loads((TEST_CAPTURES / f"{request.param}.json").read_text())
    rows = tshark.fields(cap, FIELDS, "sqlnet.lob.operation == 0x2")
    return request.param, manifest, rows


def test_amount_is_the_calls_last_bytes_and_nothing_is_left(reads):
    name, _, rows = reads
    assert rows, name
    for frame, payload, amount, call_data, expert in (r + [""] * (len(FIELDS) - len(r)) for r in rows):
        p = bytes.fromhex(payload.replace(":", ""))
        assert amount, (name, frame)
        assert p.endswith(universal(int(amount))), (name, frame)
        assert call_data == "" and expert == "", (name, frame)


def test_node_asks_for_each_lob_whole(reads):
    """node-oracledb asks for the LOB's length: the table's CLOB size, and
    all reads together the characters the client reports it read."""
    name, manifest, rows = reads
    if "node" not in name or not name.startswith("lob_"):
        pytest.skip("node's lob scenarios")
    per_lob = manifest["server"]["tables"][0]["lob_chars"]
    assert {int(r[2]) for r in rows} == {per_lob}
    stmts = [st for s in manifest["client"]["report"]["sessions"] for st in s["statements"]]
    assert sum(int(r[2]) for r in rows) == sum(st.get("lob_chars", 0) for st in stmts)


def test_python_asks_for_the_most_a_ub4_holds(reads):
    name, _, rows = reads
    if "python" not in name:
        pytest.skip("python-oracledb's scenarios")
    assert {int(r[2]) for r in rows} == {2 ** 32 - 1}
