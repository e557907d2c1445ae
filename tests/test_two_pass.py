"""Single-pass and two-pass (-2) runs must give the same sqlnet fields.

Revisits read state recorded per frame on the first pass, so the result may
not depend on how often or in which order packets are visited.
"""
import json

import pytest

import pcapgen as g
from tshark import PUBLIC, TEST_CAPTURES

FIELDS = ["frame.number", "sqlnet.length", "sqlnet.type", "sqlnet.direction", "sqlnet.version",
          "sqlnet.sdu", "sqlnet.tdu", "sqlnet.sdu_fill", "sqlnet.data.len", "sqlnet.data.flags",
          "sqlnet.length_width", "sqlnet.connect.data", "sqlnet.nne", "sqlnet.refuse.err",
          "sqlnet.marker", "sqlnet.framing_guessed", "sqlnet.unsynchronized",
          # TTC layer and per-response metrics (sqlnet.response_in needs the future: not here)
          "sqlnet.call", "sqlnet.cursor", "sqlnet.sql", "sqlnet.fetch.rows", "sqlnet.rows",
          "sqlnet.rowcount", "sqlnet.ora_error", "sqlnet.response.packets",
          "sqlnet.response.segments", "sqlnet.response.bytes", "sqlnet.time", "sqlnet.time.first",
          "sqlnet.request_in", "sqlnet.ttc.msg", "sqlnet.ttc.not_decoded"]


def _captures():
    caps = []
    if (PUBLIC / "EXPECTED.json").is_file():
        caps += [PUBLIC / name for name in sorted(json.loads((PUBLIC / "EXPECTED.json").read_text()))]
    caps += sorted(TEST_CAPTURES.glob("*.pcap*")) if TEST_CAPTURES.is_dir() else []
    return caps


def compare(tshark, path):
    one = tshark.fields(path, FIELDS, display_filter="sqlnet")
    two = tshark.fields(path, FIELDS, display_filter="sqlnet", extra=["-2"])
    assert one, f"no sqlnet frames in {path}"
    assert one == two


@pytest.mark.parametrize("path", _captures(), ids=lambda p: p.name)
def test_two_pass_equals_one_pass(tshark, path):
    compare(tshark, path)


def test_two_pass_mid_stream(tshark, tmp_path):
    conv = g.Conversation(handshake=False)
    conv.skip("S", 100)
    conv.send("S", g.data_of_length(900)[300:])
    conv.send("C", g.data_of_length(40))
    conv.send("S", g.data_of_length(3000))
    compare(tshark, conv.write(tmp_path / "mid.pcap"))
