"""OALL8 calls with SQL texts of any length, stapled behind the piggybacks a
client sends before them, appended to a real client's logged-in session
(issue 35 point 4: the SQL-length sweep).

The bytes are our belief of what each client family writes, built here from
the reference writers, not taken from the dissector:

* python-oracledb and node-oracledb (thin): ExecuteMessage._write_execute_message
  (python-oracledb src/oracledb/impl/thin/messages/execute.pyx) and
  WriteBuffer.write_bytes_with_length (packet.pyx/buffer.pyx): the SQL as a
  DALC, up to 252 bytes after a length byte, longer ones after 0xfe in chunks
  of at most 32767 bytes, each after its ub4 length, ended by a ub4 0;
* go-ora (v2/network/session.go PutClr, with big chunks as against 19c): the
  same long form, chunks of 32767, ended by one 0 byte;
* JDBC thin (the DTY message leaves the conversion-length flag clear): the
  SQL text bare, its length given only by the OALL8's SQL-length field;
* the close-cursors piggyback (python-oracledb _write_close_cursors_piggyback:
  0x11, function 105, sequence, pointer, ub4 count, ub4 cursor ids) and the
  end-to-end attributes piggyback (_write_end_to_end_piggyback: 0x11,
  function 135, sequence, two pointers, ub4 flags, then pointer + ub4 length
  for client identifier, module, action, two unused, client info, two
  unused, dbop; then the strings).

The session before them (handshake, PRO, DTY, logon) is a generated capture's
(test-captures/), replayed segment by segment with pcapgen.Conversation.
"""
import subprocess
import sys
from pathlib import Path

import pcapgen as g

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = {  # family: (capture whose logon is replayed, how it writes the SQL text)
    "python": ("batch_19_python.pcapng", "dalc"),
    "node": ("batch_19_node.pcapng", "dalc"),
    "go-ora": ("object_19_goora.pcapng", "clr"),
    "jdbc": ("batch_19_jdbc.pcapng", "bare"),
}
CHUNK = 32767


def ub4(v):
    """A universal ub4 (python-oracledb write_ub4): 0, or its length and big-endian bytes."""
    if v == 0:
        return b"\x00"
    n = (v.bit_length() + 7) // 8
    return bytes([n]) + v.to_bytes(n, "big")


def sql_bytes(text, form):
    data = text.encode()
    if form == "bare":
        return data
    if form == "oci" and len(data) > 64:
        # OCI's long form: chunks of 64 bytes after a one-byte length, ended by 0
        # (SQL*Plus 11.2's "fe 40 <64 bytes> 01 <1 byte> 00", visblank frame 1184)
        return b"\xfe" + b"".join(bytes([len(data[i:i + 64])]) + data[i:i + 64]
                                   for i in range(0, len(data), 64)) + b"\x00"
    if len(data) <= 252:
        return bytes([len(data)]) + data
    out = b"\xfe"
    for i in range(0, len(data), CHUNK):
        part = data[i:i + CHUNK]
        out += ub4(len(part)) + part
    return out + (b"\x00" if form == "clr" else ub4(0))


def oall8(text, form, seq, al8i4_len=13):
    """OALL8 of a new statement (cursor 0, no binds, no defines), field version 12."""
    sql = text.encode()
    out = b"\x03\x5e" + bytes([seq])
    out += ub4(0x21) + ub4(0)                 # options (parse | execute), cursor 0
    out += b"\x01" + ub4(len(sql))            # pointer (SQL), its length
    out += b"\x01" + ub4(al8i4_len)           # pointer (al8i4), its length
    out += b"\x00\x00"                        # al8o4, al8o4l
    out += ub4(0) + ub4(1) + ub4(0x7fffffff)  # prefetch buffer, rows, max LONG size
    out += b"\x00" + ub4(0)                   # binds: none
    out += b"\x00" * 5                        # al8app, al8txn, al8txl, al8kv, al8kvl
    out += b"\x00" + ub4(0)                   # defines: none
    out += ub4(0) + b"\x00\x01"               # registration id, al8objlist, al8objlen
    out += b"\x00" + ub4(0) + b"\x00" + ub4(0) + ub4(0)   # al8blv(l), al8dnam(l), regid msb
    out += b"\x00" + ub4(0) + b"\x00"         # DML row counts
    out += b"\x00" + ub4(0) + b"\x00" + ub4(0) + b"\x00"  # SQL signature, SQL id (12.2)
    out += b"\x00" + ub4(0)                   # chunk ids (12.2 ext 1)
    out += sql_bytes(text, form)
    # al8i4: parse, one iteration (a non-query: ALTER SESSION as DBeaver sends it), 11 zeros
    out += ub4(1) + ub4(1) + b"\x00" * 11
    return out


def close_cursors(seq, ids=(3, 5)):
    return b"\x11\x69" + bytes([seq]) + b"\x01" + ub4(len(ids)) + b"".join(ub4(i) for i in ids)


def end_to_end(seq, module="DBeaver 24.3.0 - Main", action="Query"):
    m, a = module.encode(), action.encode()
    out = b"\x11\x87" + bytes([seq]) + b"\x00\x00" + ub4(0x10 | 0x01)   # flags: module, action
    out += b"\x00" + ub4(0)                   # client identifier
    out += b"\x01" + ub4(len(m))              # module
    out += b"\x01" + ub4(len(a))              # action
    out += b"\x00" + ub4(0) + b"\x00" + ub4(0)   # cideci, cidcct/cidecs
    out += b"\x00" + ub4(0)                   # client info
    out += b"\x00" + ub4(0) + b"\x00" + ub4(0)   # cidkstk, cidktgt
    out += b"\x00" + ub4(0)                   # dbop
    return out + m + a


STAPLINGS = {
    "alone": lambda seq: b"",
    "close-cursors": lambda seq: close_cursors(seq),
    "end-to-end": lambda seq: end_to_end(seq),
}


def segments(capture):
    """(side, payload) of every TCP segment with payload, in capture order."""
    out = subprocess.run(["tshark", "-r", str(capture), "-o", "tcp.desegment_tcp_streams:FALSE",
                          "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.payload"],
                         capture_output=True, text=True, check=True).stdout
    segs = []
    for line in out.splitlines():
        port, hexdata = line.split("\t")
        segs.append(("S" if port == "1521" else "C", bytes.fromhex(hexdata.replace(":", ""))))
    return segs


def logon(capture):
    """The segments up to the client's first OALL8 after the logon (excluded)."""
    segs = segments(capture)
    for i, (side, data) in enumerate(segs):
        if side == "C" and len(data) > 12 and data[4] == 6 and data[10] in (0x03, 0x11) and i > 6 \
                and any(data[k:k + 2] == b"\x03\x5e" for k in range(10, min(len(data), 120))):
            return segs[:i]
    raise AssertionError(f"no OALL8 in {capture}")


def calls_capture(path, family, calls, sdu=8192):
    """The family's logon, then one DATA packet per TTC payload in calls."""
    capture, _form = FAMILIES[family]
    conv = g.Conversation()
    for side, data in logon(ROOT / "test-captures" / capture):
        conv.send(side, data)
    frames = []
    for ttc in calls:
        conv.send("C", g.data(ttc))
        frames.append(len(conv.frames))
    conv.write(path)
    return frames


def sweep_capture(path, family, texts, stapling, sdu=8192):
    """A capture: the family's logon, then one DATA packet (or, for texts
    longer than the SDU, several) per text; returns the frame numbers of each
    text's call (first, last)."""
    capture, form = FAMILIES[family]
    conv = g.Conversation()
    for side, data in logon(ROOT / "test-captures" / capture):
        conv.send(side, data)
    firsts = []
    for n, text in enumerate(texts):
        seq = 2 + (n % 200)
        ttc = STAPLINGS[stapling](seq) + oall8(text, form, seq + 1)
        first = len(conv.frames) + 1
        for i in range(0, len(ttc), sdu - 10):
            conv.send("C", g.data(ttc[i:i + sdu - 10]))
        firsts.append((first, len(conv.frames)))
    conv.write(path)
    return firsts


if __name__ == "__main__":
    sweep_capture(Path(sys.argv[1]), sys.argv[2], [sys.argv[3]], sys.argv[4] if len(sys.argv) > 4 else "alone")
