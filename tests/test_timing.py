"""Where the time goes (issue 14): the per-round-trip time breakdown.

Evidence:
- the parts of every round trip (sqlnet.time.network, .server, .transfer,
  .client, .idle: issue 34 cut the client's gap into client time within an
  execution and idle time before one) must add up, per conversation, to the elapsed time measured on the
  capture's own frame times (the server's ACCEPT to the server's last TCP
  payload, found from tcp.srcport/tcp.len and the TNS type byte, not from the
  plugin): every generated capture;
- the network part of a WAN capture must be the configured link's round-trip
  time (the manifest's netem setting, 2 x delay) times the round trips the
  scripted server answered (its own request log), within 10 %;
- without the TCP handshake (cut off with editcap) the RTT comes from ACK
  timing and must still be the configured one, captured near the server (the
  generator captures on the server's side).
"""
import subprocess
from collections import defaultdict

import pytest

from tshark import TEST_CAPTURES
from test_generated_captures import MANIFESTS


ALL = MANIFESTS
WAN = [p for p in MANIFESTS if p.values[0].get("netem")]
PARTS = ["sqlnet.time.network", "sqlnet.time.server", "sqlnet.time.transfer", "sqlnet.time.client",
         "sqlnet.time.idle"]


def seconds(v):
    return float(v.split(",")[0]) if v else 0.0


def parts_by_client_port(tshark, cap, server_port):
    rows = tshark.fields(cap, ["tcp.srcport", "tcp.dstport"] + PARTS, "sqlnet.time.server")
    out = defaultdict(lambda: [0.0] * len(PARTS))
    count = defaultdict(int)
    for row in rows:
        port = int(row[1]) if int(row[0]) == server_port else int(row[0])
        for i, v in enumerate(row[2:]):
            out[port][i] += seconds(v)
        count[port] += 1
    return out, count


def server_payload_times_tls(tshark, cap, server_port):
    """TCPS captures: the ACCEPT and the ANO reply are inside TLS records; the
    frames that carry them are found by the decode (their times are still the
    frames' own), the last server payload by tcp.len."""
    out = {}
    for port, t, typ, ano in tshark.fields(cap, ["tcp.dstport", "frame.time_epoch", "sqlnet.type", "sqlnet.ano.length"],
                                           f"tcp.srcport == {server_port} && (sqlnet.type == 2 || sqlnet.ano.length)"):
        port, t = int(port), float(t)
        first, _ = out.get(port, (None, None))
        if first is None or ano:
            out[port] = (t, t)
    for port, t in tshark.fields(cap, ["tcp.dstport", "frame.time_epoch"], f"tcp.srcport == {server_port} && tcp.len > 0"):
        port, t = int(port), float(t)
        if port in out:
            out[port] = (out[port][0], t)
    return out


def server_payload_times(tshark, cap, server_port):
    """client port -> (end of the connect: the ACCEPT, or the ANO reply when the
    session negotiates ANO (TNS DATA whose payload starts DE AD BE EF); the last
    server payload)."""
    rows = tshark.fields(cap, ["tcp.dstport", "frame.time_epoch", "tcp.payload"],
                         f"tcp.srcport == {server_port} && tcp.len > 0", extra=["-o", "tcp.desegment_tcp_streams:FALSE"])
    out = {}
    for port, t, payload in rows:
        port, t = int(port), float(t)
        raw = payload.replace(":", "")
        first, last = out.get(port, (None, None))
        if first is None and len(raw) >= 10 and raw[8:10] == "02":      # TNS type byte: ACCEPT
            first = t
        elif first is not None and last == first and raw[8:10] == "06" and raw[20:28] == "deadbeef":
            first = t                                                 # ANO reply right after it
        out[port] = (first, t)
    return out


@pytest.mark.parametrize("manifest", ALL)
def test_parts_add_up_to_the_elapsed_time(tshark, manifest):
    cap = TEST_CAPTURES / manifest["capture"]
    port = manifest["server"]["port"]
    parts, _ = parts_by_client_port(tshark, cap, port)
    times = (server_payload_times_tls if manifest.get("tls") else server_payload_times)(tshark, cap, port)
    checked = 0
    for conn in manifest["connections"]:
        cport = conn["client_port"]
        first, last = times.get(cport, (None, None))
        if first is None or cport not in parts:
            continue
        elapsed = last - first
        total = sum(parts[cport])
        assert total == pytest.approx(elapsed, rel=0.05, abs=0.0005), (cport, total, elapsed, parts[cport])
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("manifest", WAN)
def test_network_part_is_the_link_rtt_times_round_trips(tshark, manifest):
    cap = TEST_CAPTURES / manifest["capture"]
    port = manifest["server"]["port"]
    rtt = manifest["netem"]["rtt_ms"] / 1000.0
    parts, count = parts_by_client_port(tshark, cap, port)
    worst = 1.0
    for conn in manifest["connections"]:
        cport = conn["client_port"]
        want = rtt * len(conn["requests"])
        got = parts[cport][0]
        ratio = got / want
        worst = max(worst, ratio, 1 / ratio if ratio else float("inf"))
        assert got == pytest.approx(want, rel=0.10), (cport, got, want)
    print(f"{manifest['scenario']}: network part vs RTT x round trips, worst ratio {worst:.3f}")


@pytest.mark.parametrize("manifest", [m for m in WAN if m.values[0]["netem"]["rtt_ms"] >= 10][:3])
def test_rtt_from_acks_without_the_handshake(tshark, manifest, tmp_path):
    cap = TEST_CAPTURES / manifest["capture"]
    cut = tmp_path / "cut.pcapng"
    # drop the SYN, SYN/ACK and ACK of every connection: a capture that starts mid-session
    handshake = [r[0] for r in tshark.fields(cap, ["frame.number"], "tcp.flags.syn == 1 || "
                                             "(tcp.seq == 1 && tcp.ack == 1 && tcp.len == 0)")]
    subprocess.run(["editcap", str(cap), str(cut)] + handshake, check=True, capture_output=True)
    cut.chmod(0o644)
    rows = tshark.fields(cut, ["sqlnet.rtt", "sqlnet.rtt.source", "sqlnet.capture_point"], "sqlnet.rtt")
    assert rows
    rtt, source, point = rows[-1]
    # ACK timing; near the server (near the client for a client-side capture)
    assert source == "2" and point == ("2" if manifest.get("capture_at") == "client" else "1")
    assert float(rtt) == pytest.approx(manifest["netem"]["rtt_ms"] / 1000.0, rel=0.10)
