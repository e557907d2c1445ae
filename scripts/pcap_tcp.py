"""A capture file reader of our own: pcapng and pcap files, Ethernet/Linux
cooked/raw IP/loopback frames, IPv4 and IPv6, TCP. The tests' independent
check of what is in a capture (tests/testgen/testgen_helpers.py, compared with
tshark's core TCP fields by tests/testgen/test_testgen_reader.py) and
fuzz/make_seeds.py's source of TCP payloads; one Python process reads a
hundred captures in the time Wireshark takes to start a few times."""
import struct
from pathlib import Path


def packets(pcap: Path):
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


def tcp_of(link: int, frame: bytes):
    """(srcport, dstport, tcp.len, payload, seq, TCP flags byte, source
    address, destination address) of an Ethernet (1), Linux cooked (113,
    276), raw IP (101, 228, 229) or BSD loopback (0) frame that carries TCP
    over IPv4 or IPv6; None for anything else (an IPv4 fragment too)."""
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
        src, dst = frame[off + 12:off + 16], frame[off + 16:off + 20]
    elif etype == 0x86DD and len(frame) >= off + 40:
        if frame[off + 6] != 6:
            return None
        tcp, seg_len = off + 40, struct.unpack_from(">H", frame, off + 4)[0]
        src, dst = frame[off + 8:off + 24], frame[off + 24:off + 40]
    else:
        return None
    if len(frame) < tcp + 20:
        return None
    sp, dp, seq = struct.unpack_from(">HHI", frame, tcp)
    hdr = (frame[tcp + 12] >> 4) * 4
    ln = max(seg_len - hdr, 0)
    return sp, dp, ln, frame[tcp + hdr:tcp + hdr + ln], seq, frame[tcp + 13], src, dst
