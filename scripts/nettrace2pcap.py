#!/usr/bin/env python3
"""Turn an Oracle Net trace (sqlnet.ora TRACE_LEVEL_SERVER/CLIENT = SUPPORT or 16)
into a capture that Wireshark and sqlnet read.

An Oracle Net trace at support level dumps every TNS packet it sends and
receives, eight bytes a line:

    2019-06-25 20:24:31.117 : nsprecv:packet dump
    2019-06-25 20:24:31.117 : nsprecv:00 E3 00 00 01 00 00 00  |........|
    ...
    2019-06-25 20:24:31.122 : nsbasic_bsd:packet dump
    2019-06-25 20:24:31.122 : nsbasic_bsd:00 00 00 F1 06 00 00 00  |........|

The receiving functions (nsprecv, nsbasic_brc) dump what the traced process
read, the sending ones (nspsend, nsbasic_bsd) what it wrote.  Which of the two
is the client follows from the first packet dumped: a CONNECT (TNS type 1)
comes from the client, so in a server's trace the received packets are the
client's, in a client's trace the sent ones.  (Older traces write the dump
lines without the "packet dump" heading and with "[date time]" stamps: both
forms are read.)

The capture is one TCP conversation (client 10.0.0.1:40000, server
10.0.0.2:1521, a three-way handshake, segments of at most 1460 bytes) with
the TNS bytes of the trace and the trace's own timestamps (millisecond
resolution; packets stamped in the same millisecond are spread 10 us apart).
Ethernet, IP and TCP are made up, so TCP-level figures (segments, RTT) say
nothing about the real network; the TNS and TTC decode is the trace's.

    python3 scripts/nettrace2pcap.py server_ora_1234.trc[.gz] out.pcap
    tshark -r out.pcap -q -z sqlnet,stmt
"""
import argparse
import datetime
import gzip
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch_corpus import write_pcap  # noqa: E402

RECEIVERS = ("nsprecv", "nsbasic_brc")
SENDERS = ("nspsend", "nsbasic_bsd")
# "<date> <time> : <function>:<rest>" (12c and later) or "[<date> <time>] <function>: <rest>"
LINE = re.compile(r"^(?:(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) : |\[([^\]]+)\] )([a-z_]+):\s?(.*)$")
HEX = re.compile(r"^((?:[0-9A-Fa-f]{2} ){0,7}[0-9A-Fa-f]{2})\s{2,}\|")
STAMP_FORMATS = ("%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%d-%b-%Y %H:%M:%S:%f", "%d-%b-%Y %H:%M:%S")


def _stamp(text):
    for fmt in STAMP_FORMATS:
        try:
            return datetime.datetime.strptime(text.strip(), fmt).replace(tzinfo=datetime.timezone.utc).timestamp()
        except ValueError:
            continue
    return None


def trace_packets(text):
    """[(direction, bytes, time)] of the packets a trace dumps: direction "R"
    (the traced process received it) or "S" (sent); time in seconds or None."""
    packets, cur = [], None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            cur = None
            continue
        func, rest = m.group(3), m.group(4)
        if func not in RECEIVERS and func not in SENDERS:
            cur = None
            continue
        h = HEX.match(rest)
        if not h:
            # a heading ("packet dump") or any other line of the function ends a dump
            cur = None
            continue
        if cur is None or cur[3] != func:
            cur = ["R" if func in RECEIVERS else "S", bytearray(), _stamp(m.group(1) or m.group(2) or ""), func]
            packets.append(cur)
        cur[1] += bytes.fromhex(h.group(1).replace(" ", ""))
    return [(d, bytes(b), t) for d, b, t, _ in packets if b]


def client_direction(packets):
    """"R" or "S": which direction of the trace is the client's (the side
    that sent the first CONNECT; a server's trace when no CONNECT is dumped)."""
    for d, data, _ in packets:
        if len(data) > 4 and data[4] == 1:
            return d
    return "R"


def trace_to_streams(text):
    """(side, bytes, time) per packet, side "C" (client to server) or "S"."""
    packets = trace_packets(text)
    client = client_direction(packets)
    return [("C" if d == client else "S", data, t) for d, data, t in packets]


def read_trace(path):
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("latin-1")


def convert(trace_path, out_path):
    streams = trace_to_streams(read_trace(trace_path))
    if not streams:
        raise ValueError(f"{trace_path}: no packet dumps (is the trace at level SUPPORT / 16?)")
    times, last = [], None
    for _, _, t in streams:
        if t is None:
            t = (last or 1_700_000_000.0) + 0.0001
        if last is not None and t <= last:
            t = last + 0.00001
        times.append(t)
        last = t
    write_pcap(out_path, [(side, data) for side, data, _ in streams], times=times)
    return len(streams)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace", type=Path, help="an Oracle Net trace file (.trc, or .trc.gz)")
    ap.add_argument("out", type=Path, help="the capture to write (libpcap)")
    a = ap.parse_args()
    n = convert(a.trace, a.out)
    print(f"{n} TNS packets from {a.trace} written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
