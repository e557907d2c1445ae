"""Two-phase commit calls (OTXSE 103, OTXEN 104) decoded, no longer call data.

Evidence: hand decoding of rust-oracledb/tpc_session.pcap (python-oracledb
4.0 thin against 26ai; python-oracledb tpc_switch.pyx / tpc_change_state.pyx
give the field order).  Frame 26, the first switch (TNS packet 0xa7 bytes,
TTC at 0x0a), universal integers (a length byte, then big-endian bytes):

    03 67 04 00            function call, 103, sequence 4, token 0
    01 01                  operation 1 (start)
    00 00                  context pointer 0, context length 0
    02 1130                XID format id 4400
    01 07 | 01 08          global transaction id length 7, branch qualifier 8
    01 | 01 80             XID pointer, XID length 128
    01 01 | 00             flags 1, timeout 0
    01 01 01               application value, return context (and length) pointers
    00 00 | 00 00          no internal name, no external name
    "txn4400" "branchId"   the XID, zero-padded to 128 bytes
    00                     application value 0: the end of the packet

Frames 34 and 38 change the state of that transaction: operation 3
(prepare) then 1 (commit), each with the 168-byte context the switch's
reply returned ("01 a8" after the operation and the context pointer);
frame 54 detaches (operation 2) the transaction "txn4406"/"branch4" that
frame 46 started and frame 58 aborts it (operation 2).
"""
import pytest

from tshark import corpus_file

CAP = "rust-oracledb/tpc_session.pcap"
FIELDS = ["frame.number", "tcp.payload", "sqlnet.func", "sqlnet.txn.operation", "sqlnet.txn.format_id",
          "sqlnet.txn.gtrid", "sqlnet.txn.bqual", "sqlnet.txn.context", "sqlnet.txn.flags", "sqlnet.txn.timeout",
          "sqlnet.ttc.call_data", "_ws.expert.message"]


@pytest.fixture(scope="module")
def calls(tshark, public_dir):
    path = corpus_file(public_dir, CAP, "rust-oracledb captures")
    out = {}
    for row in tshark.fields(path, FIELDS, "sqlnet.func == 103 || sqlnet.func == 104"):
        row += [""] * (len(FIELDS) - len(row))
        d = dict(zip(FIELDS, row))
        d["payload"] = bytes.fromhex(d["tcp.payload"].replace(":", ""))
        out[int(d["frame.number"])] = d
    return out


def test_switch_bytes_and_fields_as_hand_decoded(calls):
    f = calls[26]
    p = f["payload"]
    assert p[0x0A:0x0E] == bytes.fromhex("03670400")
    assert p[0x0E:0x26] == bytes.fromhex("0101 0000 021130 0107 0108 01 0180 0101 00 010101 0000 0000")
    assert p[0x26:0x26 + 15] == b"txn4400branchId" and p[0x26 + 15:] == bytes(128 - 15) + b"\x00"
    assert (f["sqlnet.func"], f["sqlnet.txn.operation"], f["sqlnet.txn.format_id"]) == ("103", "0x00000001", "4400")
    assert bytes.fromhex(f["sqlnet.txn.gtrid"].replace(":", "")) == b"txn4400"
    assert bytes.fromhex(f["sqlnet.txn.bqual"].replace(":", "")) == b"branchId"
    assert (f["sqlnet.txn.flags"], f["sqlnet.txn.timeout"]) == ("0x00000001", "0")


def test_every_tpc_call_decoded_to_its_end(calls):
    """Operations in order as the docstring says; no call data, no expert."""
    assert [(n, calls[n]["sqlnet.func"], calls[n]["sqlnet.txn.operation"]) for n in sorted(calls)] == [
        (26, "103", "0x00000001"), (34, "104", "0x00000003"), (38, "104", "0x00000001"),
        (46, "103", "0x00000001"), (54, "103", "0x00000002"), (58, "104", "0x00000002")]
    for n, f in calls.items():
        assert f["sqlnet.ttc.call_data"] == "" and f["_ws.expert.message"] == "", n


def test_state_changes_carry_the_context_the_bytes_hold(calls):
    """Frames 34 and 38: the context length 168 (01 a8 after the operation
    and the pointer), and the plugin's context is those 168 bytes."""
    for n in (34, 38):
        p = calls[n]["payload"]
        assert p[0x0E:0x10] == bytes.fromhex("0101") or p[0x0E:0x10] == bytes.fromhex("0103")
        assert p[0x10:0x13] == bytes.fromhex("0101a8")
        ctx = bytes.fromhex(calls[n]["sqlnet.txn.context"].replace(":", ""))
        assert len(ctx) == 168 and ctx in p
