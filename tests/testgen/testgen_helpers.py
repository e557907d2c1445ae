"""Independent readers used by the testgen tests: a capture file reader (pcapng,
pcap; Ethernet, IPv4/IPv6, TCP) and a small TNS header walker written here, not
the generator's code nor Wireshark's, so the checks do not trust the code under
test (tests/testgen/test_testgen_encoders.py compares the reader with tshark's
core TCP fields). TCPS captures are decrypted by Wireshark's TLS layer
(tls_streams)."""

import shutil
import struct
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "test-captures"


def have_tshark() -> bool:
    return shutil.which("tshark") is not None


def _packets(pcap: Path):
    """(link type, seconds since 1970, frame bytes) of each packet of a pcapng or pcap file: the
    block and record layouts of the pcapng draft (SHB, IDB, EPB, SPB, the
    obsolete PB) and libpcap's header, read here rather than by Wireshark."""
    data = pcap.read_bytes()
    if data[:4] == b"\x0a\x0d\x0d\x0a":                      # pcapng
        links, pos, end = [], 0, "<"
        while pos + 12 <= len(data):
            btype = struct.unpack_from(end + "I", data, pos)[0]
            if btype == 0x0A0D0D0A:                               # a section: its own byte order
                end = "<" if data[pos + 8:pos + 12] == b"\x4d\x3c\x2b\x1a" else ">"
                links, units = [], []
            blen = struct.unpack_from(end + "I", data, pos + 4)[0]
            if blen < 12 or pos + blen > len(data):
                break
            body = pos + 8
            if btype == 1:                                        # interface description
                links.append(struct.unpack_from(end + "H", data, body)[0])
                units.append(1e-6)                                # if_tsresol's default
                opt = body + 8
                while opt + 4 <= pos + blen - 4:
                    code, olen = struct.unpack_from(end + "HH", data, opt)
                    if code == 0:
                        break
                    if code == 9 and olen >= 1:                   # if_tsresol
                        v = data[opt + 4]
                        units[-1] = 2.0 ** -(v & 0x7F) if v & 0x80 else 10.0 ** -v
                    opt += 4 + (olen + 3) // 4 * 4
            elif btype == 6:                                      # enhanced packet
                iface, th, tl, caplen = struct.unpack_from(end + "4I", data, body)
                yield links[iface], ((th << 32) | tl) * units[iface], data[body + 20:body + 20 + caplen]
            elif btype == 3:                                      # simple packet: snaplen-cut
                orig = struct.unpack_from(end + "I", data, body)[0]
                yield links[0], None, data[body + 4:body + 4 + min(orig, blen - 16)]
            elif btype == 2:                                      # packet (obsolete)
                iface = struct.unpack_from(end + "H", data, body)[0]
                th, tl, caplen = struct.unpack_from(end + "3I", data, body + 4)
                yield links[iface], ((th << 32) | tl) * units[iface], data[body + 20:body + 20 + caplen]
            pos += blen
        return
    magic = data[:4]
    end = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    assert struct.unpack_from(end + "I", data, 0)[0] in (0xA1B2C3D4, 0xA1B23C4D), f"{pcap}: not a capture"
    link = struct.unpack_from(end + "I", data, 20)[0] & 0x0FFFFFFF
    unit = 1e-9 if struct.unpack_from(end + "I", data, 0)[0] == 0xA1B23C4D else 1e-6
    pos = 24
    while pos + 16 <= len(data):
        sec, frac, caplen = struct.unpack_from(end + "3I", data, pos)
        yield link, sec + frac * unit, data[pos + 16:pos + 16 + caplen]
        pos += 16 + caplen


def _tcp_of(link: int, frame: bytes):
    """(srcport, dstport, tcp.len, payload, seq) of an Ethernet (1), Linux
    cooked (113, 276), raw IP (101, 228, 229) or BSD loopback (0) frame that
    carries TCP over IPv4 or IPv6; None for anything else."""
    if link == 1:
        off, etype = 14, struct.unpack_from(">H", frame, 12)[0] if len(frame) >= 14 else 0
        while etype in (0x8100, 0x88A8) and len(frame) >= off + 4:     # VLAN tags
            etype = struct.unpack_from(">H", frame, off + 2)[0]
            off += 4
    elif link == 113:
        off, etype = 16, struct.unpack_from(">H", frame, 14)[0] if len(frame) >= 16 else 0
    elif link == 276:
        off, etype = 20, struct.unpack_from(">H", frame, 0)[0] if len(frame) >= 20 else 0
    elif link in (101, 228, 229):
        off, etype = 0, {4: 0x0800, 6: 0x86DD}.get(frame[0] >> 4 if frame else 0, 0)
    elif link == 0:
        off, etype = 4, {4: 0x0800, 6: 0x86DD}.get(frame[4] >> 4 if len(frame) > 4 else 0, 0)
    else:
        return None
    if etype == 0x0800 and len(frame) >= off + 20:
        ihl = (frame[off] & 0x0F) * 4
        if frame[off + 9] != 6 or struct.unpack_from(">H", frame, off + 6)[0] & 0x3FFF:
            return None                                            # not TCP, or a fragment
        ip_len = struct.unpack_from(">H", frame, off + 2)[0]
        tcp, seg_len = off + ihl, ip_len - ihl
    elif etype == 0x86DD and len(frame) >= off + 40:
        if frame[off + 6] != 6:
            return None
        tcp, seg_len = off + 40, struct.unpack_from(">H", frame, off + 4)[0]
    else:
        return None
    if len(frame) < tcp + 20:
        return None
    sp, dp, seq = struct.unpack_from(">HHI", frame, tcp)
    hdr = (frame[tcp + 12] >> 4) * 4
    ln = max(seg_len - hdr, 0)
    return sp, dp, ln, frame[tcp + hdr:tcp + hdr + ln], seq, frame[tcp + 13]


def tcp_packets(pcap: Path) -> list[tuple[float, int, int, int, int, int, bytes]]:
    """(time, srcport, dstport, TCP flags byte, tcp.len, seq, payload) per TCP frame of
    the capture, read by _packets and _tcp_of."""
    res = []
    for link, ts, frame in _packets(pcap):
        t = _tcp_of(link, frame)
        if t is not None:
            sp, dp, ln, payload, seq, flags = t
            res.append((ts, sp, dp, flags, ln, seq, payload))
    return res


def tcp_frames(pcap: Path) -> list[tuple[int, int, int, bytes, int]]:
    """(srcport, dstport, tcp.len, payload, relative seq) per TCP frame, read from the
    capture file's bytes by _packets and _tcp_of (not by Wireshark; relative seq as
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


