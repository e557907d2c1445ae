"""The two listeners on the "tcp" tap (timing's ACK samples, the response's
server segments) and their per-stream session cache (plugin/core/session.c).

Evidence:
- other TCP traffic around an Oracle conversation (streams before it, so its
  stream index moves; streams interleaved with it, whose segments the taps see
  between its own) changes none of the Oracle conversation's tap figures: the
  same capture alone is the reference (frames matched by time, port and TCP
  sequence number, not by the plugin), in a single pass and with -2 (whose first
  pass runs no taps);
- with sqlnet disabled (the built-in tns on port 1521), the plugin being
  installed changes nothing in tshark's output: Wireshark without the C plugin
  is the reference.
"""
import subprocess

import pytest

import pcapgen as g
from tshark import TEST_CAPTURES, Tshark

CAP = TEST_CAPTURES / "jdbc_fetchsize_sweep.pcapng"
KEY = ["frame.time_epoch", "tcp.srcport", "tcp.seq_raw"]
TAPPED = ["sqlnet.response.segments", "sqlnet.rtt", "sqlnet.rtt.source", "sqlnet.capture_point",
          "sqlnet.time.network", "sqlnet.time.server", "sqlnet.time.client", "sqlnet.time.idle"]


def other_traffic(start, spread):
    """Non-Oracle TCP conversations (port 80, payloads in both directions):
    three whose handshake is before the Oracle capture's first frame, three
    that start inside it."""
    convs = []
    for i in range(6):
        t0 = start - 0.01 * (3 - i) if i < 3 else start + spread * i / 7
        c = g.Conversation(client=("10.9.0.2", 40000 + i), server=("10.9.0.1", 80), start=t0)
        for k in range(4):
            c.send("C", b"GET /%d HTTP/1.1\r\nHost: x\r\n\r\n" % k)
            c.send("S", b"HTTP/1.1 200 OK\r\nContent-Length: 3000\r\n\r\n" + b"x" * 3000)
        convs.append(c)
    return convs


@pytest.fixture(scope="module")
def merged(tshark, tmp_path_factory):
    times = tshark.fields(CAP, ["frame.time_epoch"])
    start, end = float(times[0][0]), float(times[-1][0])
    d = tmp_path_factory.mktemp("taps")
    other = g.write_conversations(d / "other.pcap", other_traffic(start, end - start))
    out = d / "merged.pcapng"
    subprocess.run(["mergecap", "-w", str(out), str(CAP), str(other)], check=True, capture_output=True)
    return out


def tapped_by_frame(tshark, cap, extra=()):
    rows = tshark.fields(cap, KEY + TAPPED, display_filter="tcp.port == 1521", extra=extra)
    return {tuple(r[:3]): r[3:] for r in rows}


@pytest.mark.parametrize("passes", [(), ("-2",)], ids=["one_pass", "two_pass"])
def test_other_traffic_changes_no_tap_figure(tshark, merged, passes):
    alone = tapped_by_frame(tshark, CAP, passes)
    mixed = tapped_by_frame(tshark, merged, passes)
    assert len(alone) > 1000 and set(alone) == set(mixed)
    # the figures the taps feed are there at all (not two empty columns)
    assert sum(1 for v in alone.values() if v[0]) > 50 and any(v[1] for v in alone.values())
    assert sum(1 for v in alone.values() if v[0] not in ("", "1")) > 0, "no multi-segment response"
    assert alone == mixed
    # the other conversations were dissected and tapped too (merged for real)
    http = tshark.fields(merged, ["tcp.stream"], display_filter="tcp.port == 80")
    assert len({r[0] for r in http}) == 6


def test_disabled_sqlnet_is_wireshark_without_the_plugin(tshark, merged):
    args = ["-V", "-d", "tcp.port==1521,tns"]
    bare = Tshark(with_plugin=False)
    try:
        # (without the plugin there is no sqlnet to disable: 4.4 and 4.6 refuse the option)
        without = bare.run(merged, args).stdout
    finally:
        bare.close()
    with_plugin = tshark.run(merged, args[:1] + ["--disable-protocol", "sqlnet"] + args[1:]).stdout
    assert "Transparent Network Substrate Protocol" in without
    assert with_plugin == without
