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
