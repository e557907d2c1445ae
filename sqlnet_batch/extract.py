"""One capture file -> one Parquet file of round-trip records.

tshark with the sqlnet plugin prints the plugin's round-trip records
(sqlnet.rt.*: one per round trip, on the packet that completes its response)
as -T fields; this module turns them into rows of SCHEMA.

A round trip whose request is in the previous file of the set and whose
response ends in this one (a ring buffer cuts wherever a file is full) would
be lost by both files: the earlier file never sees its response end, the later
one never sees its request.  So the file is read after the last `overlap`
packets of the previous file (mergecap -a into tshark's stdin): the dissector
syncs on the conversation in that prefix, and the file keeps the records that
complete in its own packets (the prefix's records belong to the previous
file).  Frame numbers are the file's own (1 = its first packet); a request in
the prefix is numbered in the previous file (request_file says which).

Runs as a worker process: the only state is in the arguments.
"""
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SEP = "\t"
AGG = "\x1e"   # between occurrences of one field in one frame

# (tshark field, key)
FIELDS = [
    ("frame.number", "frame"),
    ("frame.time_epoch", "epoch"),
    ("ip.src", "ip_src"), ("ipv6.src", "ip6_src"), ("tcp.srcport", "sport"),
    ("ip.dst", "ip_dst"), ("ipv6.dst", "ip6_dst"), ("tcp.dstport", "dport"),
    ("sqlnet.direction", "direction"),
    ("sqlnet.sdu", "sdu"),
    ("sqlnet.ttc.field_version", "dialect"),
    ("sqlnet.rt.values", "values"),
    ("sqlnet.rt.sql", "sql"),
    ("sqlnet.rt.sql_id", "sql_id"),
    ("sqlnet.ora_error.msg", "ora_message"),
]
DISPLAY_FILTER = "sqlnet.rt or sqlnet.ttc.field_version"

# sqlnet.rt.values after "rt1": the plugin's round-trip columns marked for it
# (plugin/record/sqlnet_rt.h, SQLNET_RT_COLUMNS), in order, named by the
# field's own description (values_columns): no list of them here.  The first
# 22 are the string's historical layout (the fallback for an older plugin).
LEGACY_VALUES = ["number", "request_frame", "call", "execution", "cursor", "rows_asked", "rows",
                 "request.ttc_bytes", "request.tns_bytes", "request.packets", "response.ttc_bytes",
                 "response.tns_bytes", "response.packets", "response.data_packets", "response.segments",
                 "row_bytes", "bvc_bytes", "time_ns", "first_ns", "ora_status", "partial", "largest_segment"]
VALUES_MARK = "(times in ns):"
# values that are frame numbers, besides request_frame
RUN_FIRST_COLUMNS = ("pattern_run_first", "reparse_run_first")


def parquet_name(column):
    """A record column's Parquet name: dots to underscores, a time in ns
    becomes one in ms (time.network_ns -> network_ms, wait_ns -> wait_ms);
    the round trip's number is round_trip, its response time time_ms."""
    name = {"number": "round_trip"}.get(column, column)
    if name.startswith("time."):
        name = name[len("time."):]
    name = name.replace(".", "_")
    if name.endswith("_ns"):
        name = name[:-3] + "_ms"
    return name


def ns_to_ms(ns):
    """ns -> ms as the plugin's views compute it (nstime_to_msec: the same double)."""
    return None if ns is None else (ns // 1000000000) * 1000.0 + (ns % 1000000000) / 1000000.0


def values_columns(spec):
    """The names of sqlnet.rt.values's numbers, from the plugin itself: the
    field's description (tshark -G fields) ends with them."""
    p = subprocess.run(list(spec["prefix"]) + [spec["tshark"], "-G", "fields"], capture_output=True, text=True,
                       env=spec["env"], stdin=subprocess.DEVNULL)
    for line in p.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) > 2 and parts[2] == "sqlnet.rt.values":
            desc = next((x for x in parts if VALUES_MARK in x), None)
            if desc:
                return desc.rsplit(VALUES_MARK, 1)[1].split()
            return list(LEGACY_VALUES)
    return list(LEGACY_VALUES)


_LEGACY_SCHEMA = [
    ("file", pa.string()),             # the input file's name (no folder)
    ("file_index", pa.int32()),        # its place in capture order (0 first)
    ("frame", pa.int64()),             # the packet completing the response, in this file
    ("request_file", pa.string()),     # the file of the call's first packet
    ("request_frame", pa.int64()),     # the call's first packet, in request_file
    ("time", pa.timestamp("us", tz="UTC")),   # capture time of `frame` (microseconds: Spark reads no finer)
    ("conversation", pa.string()),     # "client:port-server:port"
    ("client_addr", pa.string()), ("client_port", pa.int32()),
    ("server_addr", pa.string()), ("server_port", pa.int32()),
    ("round_trip", pa.int64()),        # sqlnet.rt.number (numbered per file and conversation)
    ("call", pa.int32()),              # TTC function code (sqlnet.rt.call)
    ("execution", pa.int64()),
    ("cursor", pa.int64()),
    ("sql", pa.string()),
    ("sql_id", pa.string()),
    ("sql_carried", pa.bool_()),       # SQL from an earlier file of the conversation
    ("rows_asked", pa.int64()),
    ("rows", pa.int64()),              # rows delivered
    ("request_ttc_bytes", pa.int64()), ("request_tns_bytes", pa.int64()), ("request_packets", pa.int64()),
    ("response_ttc_bytes", pa.int64()), ("response_tns_bytes", pa.int64()),
    ("response_packets", pa.int64()), ("response_data_packets", pa.int64()),
    ("response_segments", pa.int64()),
    ("row_bytes", pa.int64()), ("bvc_bytes", pa.int64()),
    ("sdu", pa.int64()),               # negotiated SDU of the conversation
    ("dialect", pa.int32()),           # TTC field version negotiated (sqlnet.ttc.field_version)
    ("time_ms", pa.float64()),         # response time
    ("first_ms", pa.float64()),        # to the first response packet
    ("network_ms", pa.float64()), ("server_ms", pa.float64()),
    ("transfer_ms", pa.float64()), ("client_ms", pa.float64()),
    ("ora_error", pa.int64()),         # an ORA error: neither 0 nor 1403 (sqlnet.rt.ora_error)
    ("ora_message", pa.string()),
    ("complete", pa.bool_()),          # the response ended (false: the next call cut it short)
    ("partial", pa.int32()),           # 0 complete, 1 cut by the capture, 2 not decoded
    ("file_partial", pa.bool_()),      # the input file was cut short (a truncated last file)
]


def schema_for(columns):
    """The Parquet schema: the historical columns, then every other column of
    the plugin's record (int64, or float64 for a time in ms) in its order."""
    fields = list(_LEGACY_SCHEMA)
    have = {name for name, _ in fields}
    for c in columns:
        name = parquet_name(c)
        if name not in have:
            fields.append((name, pa.float64() if name.endswith("_ms") else pa.int64()))
            have.add(name)
    return pa.schema(fields)


# the schema of the plugin in use (set_columns; until then the historical layout's)
VALUE_COLUMNS = list(LEGACY_VALUES)
SCHEMA = schema_for(VALUE_COLUMNS)


def set_columns(columns):
    """Use the plugin's record columns (a Runner's spec does it, in each process)."""
    global VALUE_COLUMNS, SCHEMA
    if columns and list(columns) != VALUE_COLUMNS:
        VALUE_COLUMNS = list(columns)
        SCHEMA = schema_for(VALUE_COLUMNS)


BATCH_ROWS = 50000


_ESC = {"n": "\n", "r": "\r", "t": "\t"}
_ESC_RE = re.compile(r"\\([nrt])")


def _unescape(v):
    """tshark 4.0's -T fields writes a string's newlines, carriage returns and
    tabs as "\\n", "\\r", "\\t" (and a backslash as itself: a SQL text with a
    backslash before n, r or t reads as that control character)."""
    if not v or "\\" not in v:
        return v
    return _ESC_RE.sub(lambda m: _ESC[m.group(1)], v)


def _int(v):
    return None if v in (None, "", "-") else int(v)


def _float(v):
    return None if v in (None, "") else float(v)


class Runner:
    """How to start tshark: the installed one and its plugins, or a given
    sqlnet.so staged in a private plugin folder.  tshark run as root ignores
    WIRESHARK_PLUGIN_DIR, so as root it runs as `nobody` (setpriv): it only
    reads its stdin, so it needs no access to the captures."""

    def __init__(self, tshark="tshark", plugin=None):
        self.tshark = tshark
        self.plugin = plugin
        self.sandbox = None
        self.env = dict(os.environ, LC_ALL="C.UTF-8")
        self.prefix = []

    def __enter__(self):
        if self.plugin:
            plugin = Path(self.plugin).resolve()
            self.sandbox = Path(tempfile.mkdtemp(prefix="sqlnet-batch-"))
            epan = self.sandbox / "plugins" / plugin.parent.parent.name / "epan"
            epan.mkdir(parents=True)
            shutil.copy2(plugin, epan / "sqlnet.so")
            home = self.sandbox / "home"
            home.mkdir()
            for d in [self.sandbox, *self.sandbox.rglob("*")]:
                os.chmod(d, 0o777 if d == home else (0o755 if d.is_dir() else 0o644))
            self.env.update(WIRESHARK_PLUGIN_DIR=str(self.sandbox / "plugins"), HOME=str(home))
            if os.geteuid() == 0:
                self.prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        return self

    def __exit__(self, *exc):
        if self.sandbox:
            shutil.rmtree(self.sandbox, ignore_errors=True)

    def spec(self):
        spec = {"tshark": self.tshark, "env": self.env, "prefix": self.prefix}
        if getattr(self, "_columns", None) is None:
            self._columns = values_columns(spec)
        spec["columns"] = self._columns
        set_columns(self._columns)
        return spec


def packet_count(path):
    """Packets in a capture (capinfos), or None when it cannot be read."""
    p = subprocess.run(["capinfos", "-c", "-M", "-T", "-r", str(path)], capture_output=True, text=True)
    try:
        return int(p.stdout.strip().split("\t")[-1])
    except (ValueError, IndexError):
        return None


def _tshark_cmd(spec):
    cmd = list(spec["prefix"]) + [spec["tshark"], "-r", "-", "-n", "-Y", DISPLAY_FILTER, "-T", "fields",
                                  "-E", "separator=/t", "-E", "aggregator=" + AGG, "-E", "occurrence=a",
                                  "-E", "quote=n"]
    for f, _ in FIELDS:
        cmd += ["-e", f]
    return cmd


def _split(v):
    return v.split(AGG) if v else []


def _pick(v, i, n):
    """Occurrence i of a per-round-trip field in a frame with n records: when
    the field occurs once per record; a frame with one record takes its only
    one; otherwise (some records lack it) unknown."""
    parts = _split(v)
    if len(parts) == n:
        return parts[i]
    if n == 1 and parts:
        return parts[0]
    return None


def extract(task):
    """task: dict(path, out, file_index, prev (path or None), overlap, spec).
    Writes task['out'] (Parquet, SCHEMA) and returns a summary dict."""
    path = Path(task["path"])
    name = path.name
    t0 = time.time()
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    children0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = {"file": name, "path": str(path), "file_index": task["file_index"], "records": 0,
               "packets": 0, "error": None, "truncated": False, "seconds": 0.0, "max_rss_kib": 0,
               "out": task["out"], "tshark_cpu_s": 0.0}
    if not os.access(path, os.R_OK) or not path.is_file():
        summary["error"] = f"{path}: cannot be read (missing or no permission)"
        return summary
    prev, overlap = task.get("prev"), task.get("overlap", 0)
    prefix_file, prefix_packets, prefix_first = None, 0, 0
    tmpdir = tempfile.mkdtemp(prefix="sqlnet-batch-")
    try:
        if prev and overlap > 0:
            n = packet_count(prev)
            if n:
                prefix_first = max(1, n - overlap + 1)
                prefix_file = os.path.join(tmpdir, "prefix.pcapng")
                e = subprocess.run(["editcap", "-r", str(prev), prefix_file, f"{prefix_first}-{n}"],
                                   capture_output=True, text=True)
                if e.returncode != 0 and not os.path.exists(prefix_file):
                    prefix_file = None
                else:
                    prefix_packets = n - prefix_first + 1
        spec = task["spec"]
        set_columns(spec.get("columns"))
        err_path = os.path.join(tmpdir, "stderr")
        with open(err_path, "w") as err:
            if prefix_file:
                feeder = subprocess.Popen(["mergecap", "-a", "-F", "pcapng", "-w", "-", prefix_file, str(path)],
                                          stdout=subprocess.PIPE, stderr=err)
                stdin = feeder.stdout
            else:
                feeder = None
                stdin = open(path, "rb")
            ts = subprocess.Popen(_tshark_cmd(spec), stdin=stdin, stdout=subprocess.PIPE, stderr=err,
                                  env=spec["env"], text=True, encoding="utf-8", errors="replace")
            stdin.close()
            rows, last_frame = _parse(ts.stdout, task, name, prev, prefix_packets, prefix_first,
                                      summary)
            _, status, usage = os.wait4(ts.pid, 0)
            ts.returncode = os.waitstatus_to_exitcode(status)
            if feeder:
                feeder.wait()
        summary["max_rss_kib"] = usage.ru_maxrss
        summary["tshark_cpu_s"] = usage.ru_utime + usage.ru_stime
        err_text = "\n".join(l for l in Path(err_path).read_text(errors="replace").splitlines()
                             if not l.startswith("Running as user"))
        # (tshark and mergecap: 'appears to have been cut short in the middle of a packet')
        if "cut short in the middle of a packet" in err_text and "capture file in a format" not in err_text:
            summary["truncated"] = True
        elif ts.returncode != 0 or (feeder and feeder.returncode != 0):
            msg = (err_text.strip().replace("The standard input", f'The file "{path}"')
                   or f"tshark exited with {ts.returncode}")
            summary["error"] = f"{path}: {msg}"
        if summary["truncated"]:
            _mark_partial(task["out"])
        if not summary["error"]:
            summary["packets"] = packet_count(path) or max(0, last_frame - prefix_packets)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    summary["seconds"] = time.time() - t0
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    children1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary["worker_rss_kib"] = self1.ru_maxrss
    # CPU seconds of this file: the worker's own Python (parsing tshark's
    # output, writing Parquet) and the other programs it ran (capinfos,
    # editcap, mergecap), apart from tshark's
    summary["worker_pid"] = os.getpid()
    summary["python_cpu_s"] = (self1.ru_utime + self1.ru_stime) - (self0.ru_utime + self0.ru_stime)
    summary["helper_cpu_s"] = max(0.0, (children1.ru_utime + children1.ru_stime)
                                  - (children0.ru_utime + children0.ru_stime) - summary["tshark_cpu_s"])
    return summary


def _parse(stream, task, name, prev, prefix_packets, prefix_first, summary):
    prev_name = Path(prev).name if prev else None
    cols = {f.name: [] for f in SCHEMA}
    writer = pq.ParquetWriter(task["out"], SCHEMA)
    keys = [k for _, k in FIELDS]
    last_frame = 0
    conv_meta = {}   # conversation -> dialect seen in this run (a negotiation in the prefix too)

    def flush():
        if cols["file"]:
            writer.write_table(pa.table(cols, schema=SCHEMA))
            for v in cols.values():
                v.clear()

    pending = ""
    for line in stream:
        # a field with a raw newline (a tshark that does not escape it)
        # continues on the next line: join until the record has all its fields
        line = pending + line.rstrip("\n")
        if line.count(SEP) < len(keys) - 1:
            pending = line + "\n"
            continue
        pending = ""
        parts = line.split(SEP)
        if len(parts) != len(keys) or not parts[0].isdigit():
            summary.setdefault("unparsed_lines", 0)
            summary["unparsed_lines"] += 1
            continue
        rec = dict(zip(keys, parts))
        frame = int(rec["frame"])
        last_frame = frame
        direction = _split(rec["direction"])[:1]
        src = (_split(rec["ip_src"]) or _split(rec["ip6_src"]) or [""])[0]
        dst = (_split(rec["ip_dst"]) or _split(rec["ip6_dst"]) or [""])[0]
        sport, dport = (_split(rec["sport"]) or [None])[0], (_split(rec["dport"]) or [None])[0]
        if direction == ["0"]:
            client, cport, server, sport_ = src, sport, dst, dport
        else:
            client, cport, server, sport_ = dst, dport, src, sport
        conv = f"{client}:{cport}-{server}:{sport_}"
        if rec["dialect"]:
            conv_meta[conv] = int(_split(rec["dialect"])[0])
        values = _split(rec["values"])
        if frame <= prefix_packets or not values:
            continue
        n = len(values)
        sdu = _int((_split(rec["sdu"]) or [None])[0])
        names = [parquet_name(c) for c in VALUE_COLUMNS]
        for i, v in enumerate(values):
            nums = v.split(" ")[1:]
            if len(nums) < len(names):
                continue
            val = {}
            for k, x in zip(names, nums):
                x = _int(x)
                val[k] = ns_to_ms(x) if k.endswith("_ms") else x
            # the first frames of the runs a call is in (frame numbers of this
            # run of tshark): the file's own, as `frame` (a run that began in the
            # prefix: its frame in the previous file, as request_frame)
            for k in RUN_FIRST_COLUMNS:
                x = val.get(k)
                if x is not None and prefix_packets:
                    val[k] = x - prefix_packets if x > prefix_packets else prefix_first + x - 1
            req = val["request_frame"]
            if req is not None and req <= prefix_packets:
                rfile, rframe = prev_name, prefix_first + req - 1
            else:
                rfile, rframe = name, (req - prefix_packets if req is not None else None)
            # every column of the record, then what the batch adds or reads elsewhere
            row = dict(val)
            status = val.get("ora_status")
            sql = _unescape(_pick(rec["sql"], i, n))
            row.update({
                "file": name, "file_index": task["file_index"], "frame": frame - prefix_packets,
                "request_file": rfile, "request_frame": rframe, "time": _micros(rec["epoch"]),
                "conversation": conv, "client_addr": client, "client_port": _int(cport),
                "server_addr": server, "server_port": _int(sport_),
                "sql": sql or None, "sql_id": _pick(rec["sql_id"], i, n) or None, "sql_carried": False,
                "dialect": conv_meta.get(conv),
                "ora_message": ((_unescape(_pick(rec["ora_message"], i, n)) or None)
                                if status not in (None, 0) else None),
                # the record is on the packet that completes the response (server to
                # client), or on the first packet of the call that cut it short
                "complete": direction != ["0"],
                "partial": val.get("partial") or 0,
                "file_partial": False})
            if row.get("sdu") is None:
                row["sdu"] = sdu      # not negotiated in this run: the session's as it stands
            if "ora_error" not in val:   # an older plugin: the status only
                row["ora_error"] = status if status not in (None, 0, 1403) else None
            for k, col in cols.items():
                col.append(row.get(k))
            summary["records"] += 1
        if len(cols["file"]) >= BATCH_ROWS:
            flush()
    flush()
    writer.close()
    return cols, last_frame


def _mark_partial(out):
    t = pq.read_table(out)
    t = t.set_column(t.schema.get_field_index("file_partial"), "file_partial",
                     pa.array([True] * t.num_rows, pa.bool_()))
    pq.write_table(t, out)


def _micros(epoch):
    """"1795629886.770408093" -> microseconds (exact: no float)."""
    if not epoch:
        return None
    sec, _, frac = epoch.partition(".")
    return int(sec) * 1000000 + int((frac + "000000")[:6])
