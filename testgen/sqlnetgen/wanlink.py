"""User-space WAN link: forwards Ethernet frames between two interfaces with a delay,
an optional rate limit and optional random loss, per direction (what `tc ... netem`
does, for kernels built without sch_netem).

Runs inside the middle namespace of the WAN topology (pipeline.py): one AF_PACKET
socket per interface; a frame received on one side is sent out of the other side
after

    start   = max(arrival, end of the previous frame's transmission)   (FIFO link)
    end     = start + len * 8 / rate                                     (serialisation)
    deliver = end + delay                                                (propagation)

where `arrival` is the kernel's receive timestamp (SO_TIMESTAMPNS), so the time
this process needs to wake up is not added to the delay.  A frame is dropped with
probability loss_pct / 100 (one seeded random generator per direction, so which
frames of a direction are dropped is reproducible) or when more than `limit` frames wait (tail drop, as netem's limit).
Frames the namespace itself sends (PACKET_OUTGOING) are never forwarded.

  python3 -m sqlnetgen.wanlink --config wan.json --stats stats.json --ready FILE

config: {"a": "ifname", "b": "ifname",
         "a_to_b": {"delay_ms": 5, "rate_mbit": 10, "loss_pct": 0.5},
         "b_to_a": {...}, "seed": 1, "limit": 1000}
The counters (frames and bytes forwarded, dropped by loss and by the limit, per
direction) are written to --stats on SIGTERM.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import signal
import socket
import struct
import sys
import threading
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SO_TIMESTAMPNS = 35
SPIN_S = 0.0002          # sleep until this close to the deadline, then spin


class Direction:
    def __init__(self, name: str, rx: socket.socket, tx: socket.socket, cfg: dict,
                 rng: random.Random, limit: int):
        self.name = name
        self.rx, self.tx = rx, tx
        self.delay = float(cfg.get("delay_ms", 0)) / 1000.0
        rate = float(cfg.get("rate_mbit") or 0)
        self.byte_time = 8.0 / (rate * 1e6) if rate > 0 else 0.0
        self.loss = float(cfg.get("loss_pct") or 0) / 100.0
        self.rng = rng
        self.limit = limit
        self.queue: collections.deque = collections.deque()
        self.cond = threading.Condition()
        self.link_free = 0.0
        self.stop = False
        self.stats = {"frames": 0, "bytes": 0, "dropped_loss": 0, "dropped_limit": 0,
                      "max_queue": 0}

    def receive_loop(self):
        while not self.stop:
            try:
                data, anc, _flags, addr = self.rx.recvmsg(65536, socket.CMSG_SPACE(16))
            except socket.timeout:
                continue
            except OSError:
                if self.stop:
                    return
                raise
            if addr[2] == PACKET_OUTGOING:
                continue
            arrival = time.time()
            for level, ctype, cdata in anc:
                if level == socket.SOL_SOCKET and ctype == SO_TIMESTAMPNS:
                    sec, nsec = struct.unpack("qq", cdata[:16])
                    arrival = sec + nsec / 1e9
            if self.loss and self.rng.random() < self.loss:
                self.stats["dropped_loss"] += 1
                continue
            with self.cond:
                if len(self.queue) >= self.limit:
                    self.stats["dropped_limit"] += 1
                    continue
                start = max(arrival, self.link_free)
                self.link_free = start + len(data) * self.byte_time
                self.queue.append((self.link_free + self.delay, data))
                self.stats["max_queue"] = max(self.stats["max_queue"], len(self.queue))
                self.cond.notify()

    def send_loop(self):
        # time.time() is the clock of the kernel's receive timestamps (CLOCK_REALTIME)
        while True:
            with self.cond:
                while not self.queue and not self.stop:
                    self.cond.wait(0.5)
                if self.stop:
                    return
                deliver, data = self.queue[0]
            wait = deliver - time.time()
            if wait > SPIN_S:
                time.sleep(wait - SPIN_S)
            while time.time() < deliver:
                pass
            with self.cond:
                self.queue.popleft()
            self.tx.send(data)
            self.stats["frames"] += 1
            self.stats["bytes"] += len(data)


def open_socket(ifname: str) -> socket.socket:
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind((ifname, 0))
    s.settimeout(0.5)
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--stats", required=True)
    ap.add_argument("--ready", required=True)
    args = ap.parse_args(argv)
    cfg = json.load(open(args.config))
    seed = int(cfg.get("seed", 1))
    limit = int(cfg.get("limit", 1000))
    sa, sb = open_socket(cfg["a"]), open_socket(cfg["b"])
    dirs = [Direction("a_to_b", sa, sb, cfg.get("a_to_b", {}), random.Random(seed * 2), limit),
            Direction("b_to_a", sb, sa, cfg.get("b_to_a", {}), random.Random(seed * 2 + 1), limit)]
    threads = []
    for d in dirs:
        for fn in (d.receive_loop, d.send_loop):
            t = threading.Thread(target=fn, daemon=True)
            t.start()
            threads.append(t)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    open(args.ready, "w").close()
    while not done.wait(0.2):
        if not all(t.is_alive() for t in threads):
            print("wanlink: a forwarding thread died", file=sys.stderr)
            break
    for d in dirs:
        with d.cond:
            d.stop = True
            d.cond.notify_all()
    for t in threads:
        t.join(timeout=2)
    with open(args.stats, "w") as f:
        json.dump({d.name: d.stats for d in dirs}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
