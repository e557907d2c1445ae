"""Independent readers used by the testgen tests: a capture file reader (pcapng,
pcap; Ethernet, IPv4/IPv6, TCP) and a small TNS header walker written here, not
the generator's code nor Wireshark's, so the checks do not trust the code under
test (tests/testgen/test_testgen_encoders.py compares the reader with tshark's
core TCP fields). TCPS captures are decrypted by Wireshark's TLS layer
(tls_streams)."""

import shutil
import struct
import sys
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "test-captures"
sys.path.insert(0, str(ROOT / "scripts"))
from pcap_tcp import packets, tcp_of  # noqa: E402  (the reader: scripts/pcap_tcp.py)


def have_tshark() -> bool:
    return shutil.which("tshark") is not None


def tcp_packets(pcap: Path) -> list[tuple[float, int, int, int, int, int, bytes]]:
    """(time, srcport, dstport, TCP flags byte, tcp.len, seq, payload) per TCP frame of
    the capture, read by scripts/pcap_tcp.py."""
    res = []
    for link, ts, frame in packets(pcap):
        t = tcp_of(link, frame)
        if t is not None:
            sp, dp, ln, payload, seq, flags = t[:6]
            res.append((ts, sp, dp, flags, ln, seq, payload))
    return res


def tcp_frames(pcap: Path) -> list[tuple[int, int, int, bytes, int]]:
    """(srcport, dstport, tcp.len, payload, relative seq) per TCP frame, read from the
    capture file's bytes by scripts/pcap_tcp.py (not by Wireshark; relative seq as
    Wireshark counts it: 1 is the byte after the SYN, or the first seen)."""
    frames, isn = [], {}
    for _ts, sp, dp, flags, ln, seq, payload in tcp_packets(pcap):
        syn = flags & 0x02
        key = (sp, dp)
        if syn:
            isn[key] = seq
        elif key not in isn:
            isn[key] = (seq - 1) & 0xFFFFFFFF
        frames.append((sp, dp, ln, payload, (seq - isn[key]) & 0xFFFFFFFF))
    return frames


def tns_packets(stream: bytes) -> list[tuple[int, int, int]]:
    """Walk a server->client byte stream: ACCEPT (16-bit length) first, then
    32-bit lengths when the accepted version >= 315.  Returns (length, type,
    data_flags) per TNS packet."""
    out = []
    pos = 0
    large = False
    while pos + 8 <= len(stream):
        if large:
            length = struct.unpack(">I", stream[pos:pos + 4])[0]
        else:
            length = struct.unpack(">H", stream[pos:pos + 2])[0]
        ptype = stream[pos + 4]
        dflags = struct.unpack(">H", stream[pos + 8:pos + 10])[0] if ptype == 6 else None
        if ptype == 2:
            large = struct.unpack(">H", stream[pos + 8:pos + 10])[0] >= 315
        out.append((length, ptype, dflags))
        pos += length
    return out


def reassemble(segments: list[tuple[int, bytes]]) -> bytes:
    """One direction's byte stream from (relative seq, payload) segments, placed by
    sequence number: a retransmission (WAN scenarios with loss) must repeat the bytes
    it covers, and the stream must have no hole."""
    end = max((seq - 1 + len(p) for seq, p in segments), default=0)
    buf, have = bytearray(end), bytearray(end)
    for seq, p in segments:
        o = seq - 1
        if have.find(1, o, o + len(p)) != -1:          # bytes seen before: must match
            for i in range(len(p)):
                assert not have[o + i] or buf[o + i] == p[i], f"retransmission at seq {seq} differs"
        buf[o:o + len(p)] = p
        have[o:o + len(p)] = b"\x01" * len(p)
    assert all(have), "hole in the TCP stream"
    return bytes(buf)


def streams(pcap: Path, server_port: int) -> dict:
    """client_port -> {'s2c': bytes, 'c2s': bytes}, each direction reassembled by TCP
    sequence number (a veth pair / loopback never reorders or loses; the WAN link with
    loss does, and TCP retransmits)."""
    segs: dict = {}
    for sp, dp, ln, payload, seq in tcp_frames(pcap):
        if ln == 0:
            continue
        if sp == server_port:
            segs.setdefault(dp, {"s2c": [], "c2s": []})["s2c"].append((seq, payload))
        elif dp == server_port:
            segs.setdefault(sp, {"s2c": [], "c2s": []})["c2s"].append((seq, payload))
    return {port: {d: reassemble(v) for d, v in dirs.items()} for port, dirs in segs.items()}


def tls_streams(pcap: Path, server_port: int) -> dict:
    """Like streams(), for a TCPS capture with its secrets embedded: the plaintext
    that Wireshark's TLS layer decrypts, with sqlnet and every protocol with a
    heuristic on TLS application data disabled so that it lands in the generic `data` dissector
    (no Oracle dissector involved).  `-z follow,tls` would do, but Wireshark 4.0
    leaves records out of it."""
    heur = subprocess.run(["tshark", "-G", "heuristic-decodes"], capture_output=True, text=True,
                          timeout=60, check=True).stdout
    protos = subprocess.run(["tshark", "-G", "protocols"], capture_output=True, text=True,
                            timeout=60, check=True).stdout
    # (a name tshark does not know is an error from Wireshark 4.6 on: only what it lists)
    opts = ["--disable-protocol", "sqlnet"] if any(l.split("\t")[2:3] == ["sqlnet"]
                                                   for l in protos.splitlines()) else []
    for line in heur.splitlines():
        p = line.split("\t")
        if len(p) >= 2 and p[0] == "tls":
            opts += ["--disable-protocol", p[1]]
    out = subprocess.run(["tshark", "-r", str(pcap), "-n", *opts, "-T", "fields", "-E", "separator=;",
                          "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "data.data"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    res: dict = {}
    for line in out.splitlines():
        p = line.split(";")
        if len(p) < 3 or not p[2]:
            continue
        sp, dp = int(p[0]), int(p[1])
        data = b"".join(bytes.fromhex(h) for h in p[2].split(","))
        if sp == server_port:
            res.setdefault(dp, {"s2c": b"", "c2s": b""})["s2c"] += data
        elif dp == server_port:
            res.setdefault(sp, {"s2c": b"", "c2s": b""})["c2s"] += data
    return res


def client_settings(m):
    """sql -> (arraysize, prefetchrows) from the client's own report."""
    rep = m["client"]["report"]
    reps = rep if isinstance(rep, list) else [rep]
    out = {}
    for r in reps:
        for s in r["sessions"]:
            for st in s["statements"]:
                # queries only: a DML statement fetches no rows; a scrollable cursor's
                # rows are checked by position (verify.py), not by count
                if st.get("sql") and not st.get("dml") and not st.get("scrollable"):
                    out[st["sql"]] = (st["arraysize"], st["prefetchrows"])
    return out


def check_capture(m: dict, capdir: Path):
    """Reassembled capture vs manifest (see test_testgen_catalogue)."""
    pcap = capdir / m["capture"]
    port = m["server"]["port"]
    # TCPS: the TNS stream is the plaintext TLS carried (secrets embedded in the capture)
    st = tls_streams(pcap, port) if m.get("tls") else streams(pcap, port)
    assert len(st) == len(m["connections"])
    for c in m["connections"]:
        pk = tns_packets(st[c["client_port"]]["s2c"])
        assert pk[0][1] == 2                                  # ACCEPT first
        rest = pk[1:]
        if c["stats"]["other_sent_tns_bytes"]:
            assert rest[0][0] == c["stats"]["other_sent_tns_bytes"]   # ANO reply
            rest = rest[1:]
        expected = [n for r in c["requests"] for n in r["response"]["packet_lengths"]]
        assert [p[0] for p in rest] == expected
        assert sum(p[0] for p in pk[1:]) == c["stats"]["bytes_sent_tns"]
        assert all(p[0] <= c["negotiated_sdu"] for p in pk[1:])
        accept = st[c["client_port"]]["s2c"][:pk[0][0]]
        # the 32-bit SDU at 32 from TNS 315 (12c), the 16-bit one at 12 before
        if int.from_bytes(accept[8:10], "big") >= 315:
            assert int.from_bytes(accept[32:36], "big") == c["negotiated_sdu"]
        else:
            assert int.from_bytes(accept[12:14], "big") == c["negotiated_sdu"]
        assert c["negotiated_sdu"] == min(c["connect_sdu_requested"], m["server"]["sdu_limit"])
        # EOR flags per response
        i = 0
        for r in c["requests"]:
            n = len(r["response"]["packet_lengths"])
            pkts = rest[i:i + n]
            i += n
            data = [p for p in pkts if p[1] == 6]
            flags = [p[2] & 0x2000 for p in data]
            if c["end_of_response"] and r["function"] not in ("PRO", "DTY"):
                assert flags[-1] and not any(flags[:-1]), r["index"]
            else:
                assert not any(flags)
            markers = [p for p in pkts if p[1] == 12]
            assert bool(markers) == r["response"]["markers"]
    if m["mode"] == "netns":
        limit = m["mtu"] - 40
        assert max(f[2] for f in tcp_frames(pcap)) <= limit



def check_rows_requested(m: dict):
    """rows_requested on the wire (as the server parsed it) vs the client's own settings."""
    settings = client_settings(m)
    seen = set()
    node = m["client"]["driver"] == "node-oracledb"
    for c in m["connections"]:
        first_fetch = set()
        buffered = {}            # cursor -> rows the server sent with its execute (server counter)
        for r in c["requests"]:
            if r["sql"] not in settings:
                continue
            arraysize, prefetch = settings[r["sql"]]
            f = r["function"]
            if f in ("OALL8", "OEXFEN"):
                # the cursor the server assigned (a new cursor's request says 0)
                buffered[r["response"].get("cursor") or r.get("cursor")] = r["response"].get("rows_sent") or 0
            if f == "OFETCH":
                if node and r["cursor"] not in first_fetch:
                    # node-oracledb tops up the rows left in its buffer to one
                    # full fetchArraySize (lib/thin/resultSet.js): the script reads
                    # arraysize rows at a time, so the rows the execute brought
                    # (prefetchRows, or none when LOB columns need a define first)
                    # mod arraysize are left
                    left = buffered.get(r["cursor"], prefetch) % arraysize
                    assert r["rows_requested"] == arraysize - left, r
                else:
                    assert r["rows_requested"] == arraysize, r
                first_fetch.add(r["cursor"])
                seen.add(f)
            elif f in ("OALL8", "OEXFEN"):
                first_fetch.discard(r["cursor"])
            if f == "OALL8" and r.get("prefetch_rows") is not None and r["rows_requested"] is not None:
                if m["client"]["driver"] == "go-ora":
                    assert r["rows_requested"] == prefetch
                elif r.get("al8i4_1") and (r.get("options") or 0) & 0x60:
                    assert r["rows_requested"] == arraysize
                elif r.get("al8i4_1"):
                    # a define-only call (python-oracledb's second call for a query with
                    # LOB columns: options define, no execute) carries prefetchrows
                    assert r["rows_requested"] == prefetch, r
                else:
                    assert r["rows_requested"] == prefetch, r
                seen.add(f)
            elif f == "OEXFEN":
                assert r["rows_requested"] == prefetch
                seen.add(f)
    # REF CURSOR out binds: the client fetches them at the step's array size (JDBC: its
    # first fetch; the result set's last fetch asks 250 rows whatever setFetchSize said)
    ref_sizes = {st["plsql"]: st_plan.get("arraysize") for st_plan in m["client"].get("steps", [])
                 if st_plan.get("plsql_out") for st in [{"plsql": st_plan["plsql_out"]}]}
    jdbc = m["client"]["driver"] == "jdbc-thin"
    for c in m["connections"]:
        first_ref = set()
        for r in c["requests"]:
            sql = r.get("sql") or ""
            if sql.startswith("REF CURSOR") and r["rows_requested"] is not None:
                parent = sql.split(" of ", 1)[1]
                if not jdbc or r["cursor"] not in first_ref:
                    assert r["rows_requested"] == ref_sizes[parent], r
                first_ref.add(r["cursor"])
                seen.add("REF CURSOR")
    assert "OALL8" in seen or "OEXFEN" in seen or (not settings and (not ref_sizes or "REF CURSOR" in seen))


