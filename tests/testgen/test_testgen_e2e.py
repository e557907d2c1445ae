"""One real, small end-to-end generation per client driver: real client library
-> kernel TCP (own network namespaces, or text2pcap fallback without them) ->
scripted server -> capture + manifest, then the same independent checks as
for the committed catalogue."""

import os
import sys

import pytest

from testgen_helpers import (ROOT, check_capture, check_rows_requested, have_tshark,
                             tcp_frames)

sys.path.insert(0, str(ROOT / "testgen"))
from sqlnetgen import catalog  # noqa: E402
from sqlnetgen.pipeline import Run, driver_available, netns_available  # noqa: E402
from sqlnetgen.verify import verify  # noqa: E402

NETNS, NETNS_WHY = netns_available()
MODE = os.environ.get("SQLNETGEN_TEST_MODE") or ("netns" if NETNS else "text2pcap")


def scenario(name, client, **plan_kw):
    return {"name": name, "client": client, "mtu": 1500, "timeout_s": 120,
            "description": "e2e test",
            "server": catalog.server(tables=[catalog.table(rows=120),
                                             catalog.table(name="SQLNET_BAD", rows=120,
                                                           error_at_row=70)]),
            "plan": catalog.plan(**plan_kw)}


CASES = [
    ("python", dict(sdu=2048, arraysize=7, prefetchrows=3,
                    steps=[{"sql": "SELECT * FROM sqlnet_rows", "repeat": 2},
                           {"sql": "SELECT * FROM sqlnet_bad"}, {"commit": True}])),
    ("node", dict(sdu=4096, arraysize=25, prefetchrows=4,
                  steps=[{"sql": "SELECT * FROM sqlnet_rows"}, {"ping": True}])),
    ("goora", dict(sdu=2097152, arraysize=16, prefetchrows=16,
                   steps=[{"sql": "SELECT * FROM sqlnet_rows"}])),
]


@pytest.mark.parametrize("client,plan", CASES, ids=[c[0] for c in CASES])
def test_real_client_end_to_end(client, plan, tmp_path):
    if not have_tshark():
        pytest.skip("tshark not installed")
    ok, why = driver_available(client)
    if not ok:
        pytest.skip(f"{client} client unavailable: {why}")
    scn = scenario(f"e2e_{client}", client, **plan)
    if client == "goora":
        scn["server"]["sdu_limit"] = 4096          # go-ora always asks for 2 MiB
    m = Run(scn, tmp_path, mode=MODE).execute()
    assert m["mode"] == MODE
    assert verify(m) == []
    # the client's own report: every statement got the whole table (or failed as scripted)
    sessions = m["client"]["report"]["sessions"]
    assert sessions and not m["client"]["report"]["fatal_errors"]
    for st in sessions[0]["statements"]:
        if st.get("sql") == "SELECT * FROM sqlnet_rows":
            assert st["rows"] == 120 and not st["error"]
        elif st.get("sql") == "SELECT * FROM sqlnet_bad":
            assert st["error"] == "ORA-01722"
    c = m["connections"][0]
    assert c["negotiated_sdu"] == min(plan["sdu"], scn["server"]["sdu_limit"])
    check_rows_requested(m)
    check_capture(m, tmp_path)
    if MODE == "netns":
        assert max(f[2] for f in tcp_frames(tmp_path / m["capture"])) <= 1500 - 40
    if client == "python":
        funcs = [r["function"] for r in c["requests"]]
        assert "OEXFEN" in funcs                     # second execution re-uses the cursor
        assert any(r["response"]["markers"] for r in c["requests"])
        assert c["end_of_response"]


def test_mtu_576_segments(tmp_path):
    if not NETNS:
        pytest.skip(f"network namespaces unavailable: {NETNS_WHY}")
    if not have_tshark():
        pytest.skip("tshark not installed")
    scn = scenario("e2e_mtu576", "python", sdu=8192, arraysize=60, prefetchrows=2)
    scn["mtu"] = 576
    m = Run(scn, tmp_path, mode="netns").execute()
    lens = [f[2] for f in tcp_frames(tmp_path / m["capture"])]
    assert max(lens) <= 536
    assert max(lens) >= 500          # responses really fill MTU-sized segments
    check_capture(m, tmp_path)


@pytest.mark.skipif(not NETNS, reason=f"WAN scenarios need network namespaces ({NETNS_WHY})")
def test_wan_link_end_to_end(tmp_path):
    """A fresh WAN generation (RTT 20 ms, 10 Mbit/s, 2 % loss each way) through whichever
    emulator this machine has: the handshake takes the configured RTT (evidence: the
    setting, 2 x delay_ms; late by up to half of it when the machine is busy) and the capture passes the catalogue's checks, the stream
    reassembled by sequence number across retransmissions."""
    if not have_tshark():
        pytest.skip("tshark not installed")
    scn = scenario("e2e_wan", "python", sdu=8192, arraysize=20, prefetchrows=20,
                   steps=[{"sql": "SELECT * FROM sqlnet_rows"}])
    scn["netem"] = {"delay_ms": 10, "rate_mbit": 10, "loss_pct": 2}
    m = Run(scn, tmp_path, mode="netns").execute()
    assert verify(m) == []
    assert m["netem"]["rtt_ms"] == 20
    for c in m["connections"]:
        assert 20 - 2.3 <= c["handshake_rtt_ms"] <= 1.5 * 20 + 0.3
    check_capture(m, tmp_path)
    check_rows_requested(m)


@pytest.mark.skipif(not NETNS, reason=f"needs network namespaces ({NETNS_WHY})")
def test_wan_forced_netem_fails_loudly_without_it(tmp_path, monkeypatch):
    """SQLNETGEN_WAN_EMULATOR=netem on a kernel without sch_netem is an error, never a
    LAN capture under a WAN name (skipped where netem exists)."""
    import subprocess as sp
    from sqlnetgen.pipeline import PipelineError
    probe = sp.run(["sh", "-c", "ip netns add sgprobe$$ && ip netns exec sgprobe$$ tc qdisc add "
                    "dev lo root netem delay 1ms; rc=$?; ip netns del sgprobe$$; exit $rc"],
                   capture_output=True)
    if probe.returncode == 0:
        pytest.skip("this kernel has netem")
    monkeypatch.setenv("SQLNETGEN_WAN_EMULATOR", "netem")
    scn = scenario("e2e_wan_netem", "python", steps=[{"sql": "SELECT * FROM sqlnet_rows"}])
    scn["netem"] = {"delay_ms": 5}
    with pytest.raises(PipelineError, match="netem unavailable"):
        Run(scn, tmp_path, mode="netns").execute()
    assert not (tmp_path / "e2e_wan_netem.pcapng").exists()


def test_handshake_rtt_rule():
    """verify.py's WAN check (evidence: the setting): a LAN handshake (0.2 ms) or one
    direction delayed (10 ms) under a 20 ms link fails, as does a link that delayed
    twice (40 ms); on time or late by a scheduling pause (25 ms) passes."""
    from sqlnetgen.verify import handshake_rtt_problem
    assert handshake_rtt_problem(20.0, 20) is None
    assert handshake_rtt_problem(18.0, 20) is None
    assert handshake_rtt_problem(25.0, 20) is None
    for bad in (0.2, 10.0, 17.0, 40.0, None):
        assert handshake_rtt_problem(bad, 20), bad


def test_netem_arguments():
    """The tc-netem(8) syntax: delay TIME, rate RATE, loss PERCENT."""
    from sqlnetgen.pipeline import netem_args
    assert netem_args({"delay_ms": 5}) == ["netem", "delay", "5ms"]
    assert netem_args({"delay_ms": 0.5, "rate_mbit": 10, "loss_pct": 0.5}) == \
        ["netem", "delay", "0.5ms", "rate", "10mbit", "loss", "0.5%"]


@pytest.mark.parametrize("client,version", [("python", "1.2"), ("python", "1.3"), ("jdbc", "1.3")])
def test_tls_end_to_end(client, version, tmp_path):
    """TCPS: python-oracledb and JDBC thin over TLS to the scripted server
    (throwaway CA, for JDBC in a PKCS12 truststore; key log written server-side,
    embedded with editcap), including an error mid-fetch with its markers; the
    plaintext TLS carried (decrypted by Wireshark's TLS layer from the embedded
    key log) passes the catalogue's checks, and the server's TLS record counts
    add up to what it wrote."""
    if not NETNS:
        pytest.skip(f"network namespaces unavailable: {NETNS_WHY}")
    if not have_tshark():
        pytest.skip("tshark not installed")
    ok, why = driver_available(client)
    if not ok:
        pytest.skip(f"{client} client unavailable: {why}")
    scn = scenario(f"e2e_tls{version.replace('.', '')}_{client}", client, sdu=2048, arraysize=7,
                   prefetchrows=3, steps=[{"sql": "SELECT * FROM sqlnet_rows"},
                                          {"sql": "SELECT * FROM sqlnet_bad"}, {"commit": True}])
    scn.update({"port": catalog.TLS_PORT, "tls": {"version": version}})
    m = Run(scn, tmp_path, mode="netns").execute()
    assert verify(m) == []
    assert m["tls"]["secrets_embedded"] and m["tls"]["negotiated"] == [f"TLSv{version}"]
    assert b"KSLT" in (tmp_path / m["capture"]).read_bytes()[:4096]
    c = m["connections"][0]
    assert c["tls"]["version"] == f"TLSv{version}"
    assert any(r["response"]["markers"] for r in c["requests"])
    # every application-data record the server wrote, but the ACCEPT's (and the ANO reply's,
    # JDBC negotiates ANO: its bytes are the server's other_sent_tns_bytes), belongs to a response
    ano = 1 if c["stats"]["other_sent_tns_bytes"] else 0
    assert ano == (client == "jdbc")
    assert sum(r["response"]["tls"]["records"] for r in c["requests"]) + 1 + ano == c["tls"]["app_records_sent"]
    assert all(r["response"]["tls"]["records"] >= 1 for r in c["requests"])
    check_rows_requested(m)
    check_capture(m, tmp_path)
