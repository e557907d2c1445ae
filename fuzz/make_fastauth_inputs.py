#!/usr/bin/env python3
"""Write the nested fast-authentication regression inputs (issue 11).

A fast-authentication message (TTC type 0x22: type, version, two flags)
carries a PRO message that ttc_decode_client() decoded by calling itself, so
"22 00 00 00" repeated nests one call per 4 bytes: ~64 KB of it overflows an
8 MB stack.  Both inputs are the conversation of
test-captures/arraysize_100.pcapng (TNS 319, SDU 8192, python-oracledb): its
first 23 payload segments (handshake, login, the query and its first OFETCH
with the whole answer), then the hostile client request, a server MARKER
(the break a server sends when it gives up on a request), then segments
23-29 (the next OFETCH for 100 rows and the start of its answer), which must
still decode:

  fastauth-nest-packet   one 65,546-byte DATA packet: 16,384 nested headers
  fastauth-nest-sdu8192  the same bytes in ten DATA packets of the SDU
                         (8,192 bytes each): the message stays incomplete
                         and the pending-message path joins the packets

    fuzz/make_fastauth_inputs.py [--depth N] [--out tests/regressions]
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent / "testgen"))
from make_seeds import streams  # noqa: E402
from sqlnetgen import tns  # noqa: E402  (the TNS packet builder)
from to_pcap import chunk  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CAPTURE = ROOT / "test-captures" / "arraysize_100.pcapng"
HEAD, TAIL = 23, (23, 30)
# MARKER (32-bit length form, TNS 319, header flags 0): data marker, reset
MARKER = tns.marker_packet(tns.MARKER_RESET, large=True, hflags=0)


def data_packet(body: bytes, data_flags: int = 0) -> bytes:
    """A client DATA packet in the 32-bit length form (TNS 319)."""
    return tns.data_packet(body, data_flags, large=True)


def segments():
    segs = streams(CAPTURE)[0]
    srv = 1521
    return [(1 if sport == srv else 0, payload) for sport, _d, _s, _a, payload in segs if payload]


def conversation(hostile):
    segs = segments()
    out = bytearray([0])
    for d, p in segs[:HEAD]:
        out += chunk(d, p)
    out += hostile
    out += chunk(1, MARKER)
    for d, p in segs[TAIL[0]:TAIL[1]]:
        out += chunk(d, p)
    return bytes(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=16384, help="nested fast-auth headers (default 16384)")
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "regressions")
    args = ap.parse_args()
    nest = b"\x22\x00\x00\x00" * args.depth
    later = [{"frame_from_end": 7, "call": 5, "fetch_rows": 100}]
    built = (f"{CAPTURE.relative_to(ROOT)}: TCP payloads of its first {HEAD} segments (handshake, login, "
             f"query, first OFETCH and its answer), the hostile client request, a server MARKER (break/reset), "
             f"then segments {TAIL[0]}-{TAIL[1] - 1} (the next OFETCH and the start of its answer); "
             f"written by fuzz/make_fastauth_inputs.py")
    cases = {
        "fastauth-nest-packet": (
            chunk(0, data_packet(nest)),
            f"One client DATA packet of {10 + len(nest)} bytes (32-bit length, TNS 319) holding "
            f"{args.depth} fast-authentication headers 22 00 00 00: ttc_decode_client() called itself "
            f"once per header (the PRO inside the fast-auth message), an ASan stack-overflow in the "
            f"harness and a SIGSEGV in tshark (8 MB stack)."),
        "fastauth-nest-sdu8192": (
            b"".join(chunk(0, data_packet(nest[i:i + 8182])) for i in range(0, len(nest), 8182)),
            f"The same {len(nest)} bytes of nested fast-authentication headers in "
            f"{(len(nest) + 8181) // 8182} client DATA packets of the SDU (8192 bytes): the message "
            f"never completes, the pending-message path joins the packets and decodes the joined "
            f"message again after each one, nesting deeper every time (stack overflow)."),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (hostile, finding) in cases.items():
        (args.out / f"{name}.in").write_bytes(conversation(hostile))
        side = {"finding": finding, "built_from": built, "later": later, "max_rss_mb": 2048}
        (args.out / f"{name}.json").write_text(json.dumps(side, indent=2) + "\n")
        print(args.out / f"{name}.in", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
