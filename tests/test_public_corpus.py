"""Real captures from real Oracle servers (../shared/captures/public).

Expected values come from EXPECTED.json, derived independently from the
bytes; nothing here is copied from sqlnet's own output.
"""
import json
from collections import defaultdict

import pytest

from tshark import PUBLIC


def _captures():
    path = PUBLIC / "EXPECTED.json"
    if not path.is_file():
        return []
    return sorted(json.loads(path.read_text()).items())


CAPTURES = _captures()


def _tns(conv):
    """Both EXPECTED.json shapes: detailed ('tns' block) and logon-only (flat)."""
    t = conv.get("tns", conv)
    totals = conv.get("totals", {})
    return {
        "version": t.get("accept_version"),
        "sdu": t.get("negotiated_sdu"),
        "tdu": t.get("negotiated_tdu"),
        "tns_bytes": totals.get("tns_bytes") or conv.get("tns_bytes"),
    }


def _per_conversation(tshark, capture):
    rows = tshark.fields(capture, ["ip.src", "tcp.srcport", "ip.dst", "tcp.dstport",
                                   "sqlnet.version", "sqlnet.sdu", "sqlnet.tdu", "sqlnet.length"],
                         display_filter="sqlnet")
    seen = defaultdict(lambda: {"version": set(), "sdu": set(), "tdu": set(),
                                "bytes": {"C": 0, "S": 0}})
    for src, sport, dst, dport, version, sdu, tdu, lengths in rows:
        a, b = f"{src}:{sport}", f"{dst}:{dport}"
        key = frozenset((a, b))
        conv = seen[key]
        for name, value in (("version", version), ("sdu", sdu), ("tdu", tdu)):
            conv[name].update(int(v) for v in value.split(",") if v)
        conv.setdefault("src_of", defaultdict(int))
        total = sum(int(v) for v in lengths.split(",") if v)
        conv["by_endpoint"] = conv.get("by_endpoint", defaultdict(int))
        conv["by_endpoint"][a] += total
    return seen


@pytest.mark.parametrize("name,expected", CAPTURES, ids=[c[0] for c in CAPTURES])
def test_negotiated_version_and_sdu(tshark, public_dir, name, expected):
    seen = _per_conversation(tshark, public_dir / name)
    for conv in expected["conversations"]:
        want = _tns(conv)
        got = seen.get(frozenset((conv["client"], conv["server"])))
        if want["version"] is None:
            # No ACCEPT in the capture: nothing negotiated may be claimed.
            assert got is None or not got["version"], (conv["client"], got)
            continue
        assert got is not None, f"conversation {conv['client']} -> {conv['server']} not decoded"
        assert got["version"] == {want["version"]}, conv["client"]
        assert got["sdu"] == {want["sdu"]}, conv["client"]
        assert got["tdu"] == {want["tdu"]}, conv["client"]


@pytest.mark.parametrize("name,expected", CAPTURES, ids=[c[0] for c in CAPTURES])
def test_tns_bytes_per_direction(tshark, public_dir, name, expected):
    """Framing is right iff the TNS packet lengths add up to the bytes on the wire."""
    seen = _per_conversation(tshark, public_dir / name)
    for conv in expected["conversations"]:
        want = _tns(conv)["tns_bytes"]
        if not want or (want["C"] == 0 and want["S"] == 0):
            continue
        got = seen.get(frozenset((conv["client"], conv["server"])))
        assert got is not None, conv["client"]
        assert got["by_endpoint"].get(conv["client"], 0) == want["C"], conv["client"]
        assert got["by_endpoint"].get(conv["server"], 0) == want["S"], conv["client"]


@pytest.mark.parametrize("name", [c[0] for c in CAPTURES])
def test_no_malformed_frames(tshark, public_dir, name):
    out = tshark.run(public_dir / name, ["-Y", "_ws.malformed || sqlnet.bad_header || "
                                         "sqlnet.short_packet || _ws.expert.severity >= 0x00800000 "
                                         "&& sqlnet"])
    assert out.stdout.strip() == ""
    assert "sqlnet" not in out.stderr.lower(), out.stderr


def test_return_parameters_of_a_lost_call(tshark, public_dir):
    """A reply whose call the capture lost is still decoded to its end.
    Evidence: the bytes of john/Oracle-bunch-Nmap-11gR2 frame 4669, decoded by
    hand: the capture lost the client's OSESSKEY call (frame 4669 ACKs a
    segment that was not captured); the reply is "08 03 00" (return
    parameters, 3 pairs as a native ub2), then per pair a ub4 length and the
    key (AUTH_SESSKEY, AUTH_VFR_DATA, AUTH_GLOBALLY_UNIQUE_DBID), a ub4 length
    and the value, a ub4 flag; then "04 ..." the OER."""
    cap = public_dir / "john/Oracle-bunch-Nmap-11gR2"
    if not cap.is_file():
        pytest.skip(f"{cap} not in the corpus")
    keys = tshark.fields(cap, ["sqlnet.auth.reply_key"], "frame.number == 4669")
    assert keys and keys[0][0].split(",") == ["AUTH_SESSKEY", "AUTH_VFR_DATA", "AUTH_GLOBALLY_UNIQUE_DBID"]
    assert tshark.fields(cap, ["frame.number"], "sqlnet.ttc.partial") == []
