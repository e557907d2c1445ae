"""Checks of the committed capture catalogue (test-captures/*.pcapng + *.json).

Sources compared: the client's own report (settings, rows received), the
server's counters, and the capture read with tshark core TCP fields plus a TNS
header walker written in tests/testgen/helpers.py."""

import json
import sys
from pathlib import Path

import pytest

from testgen_helpers import (CAPTURES, ROOT, check_capture, check_rows_requested,
                             client_settings, have_tshark)

sys.path.insert(0, str(ROOT / "testgen"))
from sqlnetgen import catalog  # noqa: E402
from sqlnetgen.verify import verify  # noqa: E402

SCENARIOS = [s["name"] for s in catalog.scenarios()]


def manifest(name):
    p = CAPTURES / f"{name}.json"
    if not p.exists():
        pytest.skip(f"{p.name} not generated")
    return json.loads(p.read_text())


def test_catalogue_complete_and_small():
    missing = [n for n in SCENARIOS
               if not (CAPTURES / f"{n}.pcapng").exists() or not (CAPTURES / f"{n}.json").exists()]
    assert not missing, f"run python3 testgen/generate.py --all (missing {missing})"
    total = sum(p.stat().st_size for p in CAPTURES.iterdir())
    # the response shapes (PL/SQL, batch errors, LOBs) brought it past 8 MiB, the WAN
    # scenarios (issue 14, ten captures of 80-230 KiB) past 10 MiB, the paced sweep and
    # the TCPS captures (issue 15, nine of 50-250 KiB, and a plain-TCP JDBC twin) and the
    # native network encryption ones (three of 50-125 KiB) to 13.6 MiB, the held-out
    # sweeps (issue 23: two of 1-1.6 MB with their manifests) to 16.3 MiB, the values
    # (issue 35: ten captures of 15-30 KB whose manifests hold every value the client
    # read) and the chatty-application patterns (issue 36: sixteen, manifests
    # included) to 18.6 MiB, the ping pairs of node and JDBC (issue 36) to 20.1 MiB, the
    # LOB pairs, the others' N+1 and commit pairs at 23ai over the LAN and JDBC's and
    # go-ora's commit pairs (issue 36: 28 captures of 11-24 KB with manifests) to 21.1 MiB,
    # JDBC's and go-ora's LOB pairs and every family's ping and LOB pairs at 23ai over the
    # LAN (issue 36: 20 captures of 17-30 KB with manifests) to 21.9 MiB
    assert total < 23 * 1024 * 1024


@pytest.mark.parametrize("name", SCENARIOS)
def test_manifest_schema_and_consistency(name):
    m = manifest(name)
    for key in ("scenario", "capture", "mode", "mtu", "generator_version", "client", "server",
                "connections"):
        assert key in m
    assert m["scenario"] == name and m["capture"] == f"{name}.pcapng"
    assert m["mode"] in ("netns", "loopback", "text2pcap")
    for key in ("driver", "driver_version", "arraysize", "prefetchrows", "sdu_requested",
                "rows_received", "statements"):
        assert key in m["client"]
    for key in ("address", "port", "tns_version", "end_of_response", "sdu_limit",
                "think_time_ms", "field_version"):
        assert key in m["server"]
    for c in m["connections"]:
        for key in ("client_address", "client_port", "connect_version", "negotiated_sdu",
                    "negotiated_tdu", "end_of_response", "stats", "requests"):
            assert key in c
        for key in ("round_trips", "bytes_sent_tns", "bytes_received_tns", "bytes_sent_socket",
                    "bytes_received_socket", "rows_sent"):
            assert key in c["stats"]
        for r in c["requests"]:
            for key in ("index", "function", "func_code", "seq", "cursor", "rows_requested", "sql",
                        "request_tns_packets", "request_tns_bytes", "response"):
                assert key in r
            for key in ("rows_sent", "tns_packets", "tns_bytes", "packet_lengths", "cursor",
                        "rowcount", "ora_error", "ora_message", "markers", "end_of_response_flag"):
                assert key in r["response"]
    assert verify(m) == []


@pytest.mark.parametrize("name", SCENARIOS)
def test_rows_client_vs_server(name):
    m = manifest(name)
    sqls = set(client_settings(m))
    server_rows = sum(r["response"]["rows_sent"] for c in m["connections"] for r in c["requests"]
                      if r["sql"] in sqls)
    assert m["client"]["rows_received"] == server_rows
    tables = {t["name"]: t for t in m["server"]["tables"]}
    # every client statement that did not fail received the whole table
    rep = m["client"]["report"]
    for s in (rep if isinstance(rep, list) else [rep])[0]["sessions"]:
        for st in s["statements"]:
            if st.get("sql") and not st.get("error") and not st.get("dml") and not st.get("scrollable"):
                tname = st["sql"].upper().split(" FROM ")[1].split()[0]
                assert st["rows"] == tables[tname]["rows"], st["sql"]


@pytest.mark.parametrize("name", SCENARIOS)
def test_rows_requested_matches_client_settings(name):
    check_rows_requested(manifest(name))


@pytest.mark.parametrize("name", SCENARIOS)
def test_capture_matches_manifest(name):
    """Reassemble the server->client stream from tcp.payload and walk TNS headers:
    the packet sequence must be ACCEPT [+ ANO] + every response's packet_lengths,
    every packet <= negotiated SDU, EOR flag exactly on the last packet of each
    response in EOR sessions, and TCP segments <= MTU-40 in netns mode."""
    if not have_tshark():
        pytest.skip("tshark not installed")
    check_capture(manifest(name), CAPTURES)


def test_sdu_sweep_packets_follow_sdu():
    """Same data at different SDUs: the largest response is cut into
    ceil(bytes / (SDU-10)) packets, all full except the last."""
    for mtu in (1500, 9000):
        for sdu in catalog.SDUS:
            m = manifest(f"sdu_{sdu}_mtu_{mtu}")
            c = m["connections"][0]
            assert c["negotiated_sdu"] == sdu
            big = max(c["requests"], key=lambda r: r["response"]["ttc_bytes"])
            lens = big["response"]["packet_lengths"]
            assert all(n == sdu for n in lens[:-1]) and lens[-1] <= sdu
            assert len(lens) == -(-big["response"]["ttc_bytes"] // (sdu - 10))


def test_arraysize_sweep_round_trips():
    """Fetch calls per array size: rows 1000, prefetch 2 -> ceil((1000-2)/n) OFETCH
    calls, plus one more when the last batch is exactly full (server cannot know)."""
    for n in catalog.ARRAY_SIZES:
        m = manifest(f"arraysize_{n}")
        c = m["connections"][0]
        fetches = [r for r in c["requests"] if r["function"] == "OFETCH"]
        remaining = 1000 - 2
        expected = remaining // n + 1
        assert len(fetches) == expected, n
        assert fetches[-1]["response"]["ora_error"] == 1403


def test_published_example():
    m = manifest("published_example")
    c = m["connections"][0]
    assert c["negotiated_sdu"] == 2048
    rows = [r for r in c["requests"] if r["response"]["rows_sent"]]
    assert [r["response"]["rows_sent"] for r in rows] == [3, 3]
    # rows 1-3 (1511+410+730 payload bytes) need two SDU-2048 packets, rows 4-6 one
    assert len(rows[0]["response"]["packet_lengths"]) == 2
    assert rows[0]["response"]["packet_lengths"][0] == 2048
    assert len(rows[1]["response"]["packet_lengths"]) == 1


def test_error_midfetch():
    m = manifest("error_midfetch")
    c = m["connections"][0]
    err = [r for r in c["requests"] if r["response"]["ora_error"] == 1722]
    assert len(err) == 1
    resp = err[0]["response"]
    assert resp["markers"] and resp["rows_sent"] == 0
    assert resp["rowcount"] == 749                 # rows processed before row 750 failed
    assert resp["ora_message"].startswith("ORA-01722")
    st = m["client"]["report"]["sessions"][0]["statements"][0]
    assert st["error"] == "ORA-01722"


def test_modes_and_ports():
    assert manifest("nonstd_port")["server"]["port"] == 49161
    assert manifest("mtu_576")["mtu"] == 576
    assert len(manifest("two_sessions")["connections"]) == 2
    assert manifest("tns315_classic")["connections"][0]["accepted_version"] == 315
    assert not manifest("tns315_classic")["connections"][0]["end_of_response"]
    assert manifest("tns319_eor")["connections"][0]["end_of_response"]
    lr = manifest("large_request")["connections"][0]
    assert max(r["request_tns_packets"] for r in lr["requests"]) >= 4
    ls = manifest("long_sql")["connections"][0]
    assert max(len(r["sql"] or "") for r in ls["requests"]) > 252
    re_ = manifest("cursor_reexec")["connections"][0]
    assert sum(r["function"] == "OEXFEN" for r in re_["requests"]) == 2
