"""sqlnet_batch - round-trip records of many capture files, merged.

    python -m sqlnet_batch --out DIR FILE...         (./run.sh batch --out DIR FILE...)
    python -m sqlnet_batch --stmt DIR                 the AUTOTRACE table of a set
    python -m sqlnet_batch --compare BEFORE AFTER     two sets side by side, per SQL text
    python -m sqlnet_batch --stmt DIR --advise-inputs the array-size advisor's inputs too

run() reads each file with tshark and the sqlnet plugin in parallel (one
worker per core), writes one Parquet file per input (extract.py), then fills
in what a session's earlier files knew (carry.py) and prints the statements
over the whole set (stmt.py) with DuckDB, and on request the array-size
advisor's inputs per SQL text (advise.py).  spark.py runs the same job on
Apache Spark.

SPDX-License-Identifier: GPL-2.0-or-later
"""
import os
import re
import shutil
import struct
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from . import advise, carry, extract, stmt

__all__ = ["run", "carry_set", "statements", "advise_inputs", "first_packet_time", "capture_order"]

DEFAULT_OVERLAP = 5000


def first_packet_time(path):
    """Seconds of a capture's first packet (pcap or pcapng), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return None
    if len(head) < 24:
        return None
    magic = head[:4]
    pcap = {b"\xd4\xc3\xb2\xa1": ("<", 1e-6), b"\xa1\xb2\xc3\xd4": (">", 1e-6),
            b"\x4d\x3c\xb2\xa1": ("<", 1e-9), b"\xa1\xb2\x3c\x4d": (">", 1e-9)}
    if magic in pcap:
        e, unit = pcap[magic]
        if len(head) < 32:
            return None
        sec, frac = struct.unpack(e + "II", head[24:32])
        return sec + frac * unit
    if magic != b"\x0a\x0d\x0d\x0a":
        return None
    e = "<" if head[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    pos, resol = 0, []
    while pos + 12 <= len(head):
        btype, blen = struct.unpack(e + "II", head[pos:pos + 8])
        if blen < 12:
            return None
        if btype == 1:   # interface description: if_tsresol (option 9)
            r = 1e-6
            opt = pos + 16
            while opt + 4 <= pos + blen - 4:
                code, olen = struct.unpack(e + "HH", head[opt:opt + 4])
                if code == 0:
                    break
                if code == 9 and olen >= 1:
                    v = head[opt + 4]
                    r = 2.0 ** -(v & 0x7F) if v & 0x80 else 10.0 ** -v
                opt += 4 + ((olen + 3) & ~3)
            resol.append(r)
        elif btype in (6, 3) and pos + 20 <= len(head):
            if btype == 3:
                return None
            iface, hi, lo = struct.unpack(e + "III", head[pos + 8:pos + 20])
            r = resol[iface] if iface < len(resol) else 1e-6
            return ((hi << 32) | lo) * r
        pos += blen
    return None


def capture_order(paths):
    """Files in capture order: by first packet time; files without one (empty,
    unreadable) after, in name order.  Ties keep the names' numeric order
    (ring buffer names carry a sequence number)."""
    def natural(p):
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(p))]
    keyed = [(first_packet_time(p), natural(p), p) for p in paths]
    return [p for _, _, p in sorted(keyed, key=lambda k: (k[0] is None, k[0] or 0, k[1]))]


def _out_name(path, used):
    stem = Path(path).name
    for ext in (".pcapng", ".pcap", ".cap", ".gz"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
    name, n = stem, 1
    while name in used:
        n += 1
        name = f"{stem}.{n}"
    used.add(name)
    return name + ".parquet"


class Progress:
    def __init__(self, total, stream=sys.stderr, quiet=False):
        self.total, self.done, self.packets, self.records = total, 0, 0, 0
        self.t0 = time.time()
        self.stream, self.quiet = stream, quiet

    def update(self, s):
        self.done += 1
        self.packets += s["packets"]
        self.records += s["records"]
        if self.quiet:
            return
        el = max(time.time() - self.t0, 1e-6)
        state = "ERROR" if s["error"] else ("truncated" if s["truncated"] else "ok")
        if s.get("unparsed_lines"):
            state += f", {s['unparsed_lines']} lines of tshark's output not read"
        print(f"batch: {self.done}/{self.total} files, {self.packets} packets, {self.records} round trips, "
              f"{self.packets / el:.0f} packets/s - {s['file']}: {state}, {s['packets']} packets in "
              f"{s['seconds']:.1f} s, tshark peak {s['max_rss_kib'] / 1024:.0f} MiB",
              file=self.stream, flush=True)


def run(files, out, jobs=None, overlap=DEFAULT_OVERLAP, tshark="tshark", plugin=None, quiet=False,
        progress_stream=sys.stderr, timing=None):
    """The per-file job and the carry over the set.  Returns (summaries,
    errors); summaries in capture order.  timing: a dict that gets the wall
    seconds of the two phases, "read" (the files, in parallel) and "carry"."""
    t0 = time.time()
    out = Path(out)
    raw = out / ".raw"
    raw.mkdir(parents=True, exist_ok=True)
    files = capture_order([Path(f) for f in files])
    jobs = jobs or os.cpu_count() or 1
    used = set()
    names = [_out_name(f, used) for f in files]
    progress = Progress(len(files), progress_stream, quiet)
    summaries = [None] * len(files)
    with extract.Runner(tshark, plugin) as runner:
        tasks = [{"path": str(f), "out": str(raw / n), "file_index": i,
                  "prev": str(files[i - 1]) if i > 0 else None, "overlap": overlap,
                  "spec": runner.spec()} for i, (f, n) in enumerate(zip(files, names))]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futs = {pool.submit(extract.extract, t): i for i, t in enumerate(tasks)}
            for fut in as_completed(futs):
                i = futs[fut]
                try:
                    s = fut.result()
                except Exception as e:   # a worker's own failure: say which file
                    s = {"file": files[i].name, "path": str(files[i]), "file_index": i, "records": 0,
                         "packets": 0, "error": f"{files[i]}: {type(e).__name__}: {e}", "truncated": False,
                         "seconds": 0.0, "max_rss_kib": 0, "out": tasks[i]["out"]}
                summaries[i] = s
                progress.update(s)
    t1 = time.time()
    good = [s for s in summaries if not s["error"] and os.path.exists(s["out"])]
    errors = [s["error"] for s in summaries if s["error"]]
    for s in summaries:
        if s["error"] and os.path.exists(s["out"]):
            os.remove(s["out"])
    carry_set([s["out"] for s in good], out)
    shutil.rmtree(raw, ignore_errors=True)
    for s in summaries:
        s["out"] = str(out / Path(s["out"]).name) if s in good else None
    if timing is not None:
        timing.update(read=t1 - t0, carry=time.time() - t1)
    return summaries, errors


def _duck():
    import duckdb
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    return con


def carry_set(raw_files, out):
    """The carry (carry.py) over the raw files, in DuckDB: writes each one's
    records, filled in, to out/<same name>."""
    import pyarrow.parquet as pq
    if not raw_files:
        return
    con = _duck()
    lst = "[" + ", ".join("'%s'" % str(f).replace("'", "''") for f in raw_files) + "]"
    con.execute(f"CREATE VIEW records AS SELECT * FROM read_parquet({lst})")
    for name, q in carry.statements("duckdb"):
        con.execute(f"CREATE TEMP TABLE {name} AS {q}")
    cols = [f.name for f in extract.SCHEMA]
    for f in raw_files:
        idx = con.execute("SELECT min(file_index) FROM read_parquet(?)", [str(f)]).fetchall()[0][0]
        dest = Path(out) / Path(f).name
        if idx is None:   # no records: the empty file as it is
            shutil.copy2(f, dest)
            continue
        q = carry.carried_select(cols, "duckdb", f"WHERE r.file_index = {int(idx)} ORDER BY r.frame")
        t = _arrow(con, q)
        pq.write_table(t.cast(extract.SCHEMA), dest)
    con.close()


def _arrow(con, q):
    cur = con.sql(q) if hasattr(con, "sql") else con.execute(q)
    for m in ("to_arrow_table", "fetch_arrow_table", "arrow"):   # DuckDB 2, 1, 0.x
        if hasattr(cur, m):
            t = getattr(cur, m)()
            return t.read_all() if hasattr(t, "read_all") else t
    raise RuntimeError("this DuckDB cannot return Arrow tables")


def _rows(con, q):
    cur = con.execute(q)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def parquet_files(d):
    """The Parquet files of a set: DIR/*.parquet (the local job's), DIR/spark/**
    (the Spark job's); not DIR/.raw (a job still running)."""
    d = Path(d)
    if not d.is_dir():
        return [d]
    return sorted(p for p in d.rglob("*.parquet")
                  if not any(part.startswith(".") for part in p.relative_to(d).parts))


def _records(dirs):
    files = [f for d in ([dirs] if isinstance(dirs, (str, Path)) else dirs) for f in parquet_files(d)]
    con = _duck()
    lst = "[" + ", ".join("'%s'" % str(f).replace("'", "''") for f in files) + "]"
    con.execute(f"CREATE VIEW records AS SELECT * FROM read_parquet({lst})")
    return con


def _statements(con):
    files = _rows(con, stmt.FILES)
    # the pattern and reparse columns (records of a plugin that marks the runs: issue 36)
    pq_, rq = stmt.statement_queries(r[0] for r in con.execute("DESCRIBE records").fetchall())
    return stmt.assemble(_rows(con, stmt.AGGREGATE), _rows(con, stmt.ARRAY_SIZES), _rows(con, stmt.ERRORS),
                         files, _rows(con, pq_) if pq_ else [], _rows(con, rq) if rq else []), len(files)


def statements(dirs):
    """-z sqlnet,stmt's statements over the records in dirs (folders of
    Parquet files or files), with DuckDB."""
    con = _records(dirs)
    try:
        return _statements(con)
    finally:
        con.close()


def advise_inputs(dirs, sizes=advise.DEFAULT_SIZES):
    """The statements (as statements()) and the array-size advisor's inputs
    per SQL text (advise.py) over the records in dirs, with DuckDB:
    (statements, inputs, files)."""
    con = _records(dirs)
    try:
        res, nfiles = _statements(con)
        return res, advise.compute(lambda q: _rows(con, q), res, sizes, "duckdb"), nfiles
    finally:
        con.close()
