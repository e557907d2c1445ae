"""sqlnet_batch on a real Spark standalone cluster: a master and two workers
started on this machine from the pyspark package's own launcher
(bin/spark-class; pyspark 4 ships no sbin/start-master.sh), bound to
127.0.0.1, 1 core and a small memory each.  The job runs with
SQLNET_SPARK_MASTER=spark://127.0.0.1:PORT (docs/batch.md, "On a cluster").

Evidence: two engines compared.  The cluster's statements table and its
carried records equal DuckDB's (the local job) for the same captures, row by
row and every column; and the work ran on the workers, not in the driver:
every capture's tshark ran in an executor's folder under one of the two
workers' work dirs (a wrapper around tshark writes its working folder down),
both workers ran some, and the executors' own logs (written by the workers)
hold the tasks of the read stage, one per file.

Everything started is stopped in a finally (also on failure); every wait is
bounded; the ports are picked free; the logs stay in a temporary folder and
are printed when the test fails.  Skipped (with the reason) where pyspark or
Java is missing; ./run.sh test installs pyspark (requirements-spark.txt).
"""
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from test_batch import batch, cut_sweep
from tshark import ROOT, TEST_CAPTURES, staged_plugin

pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
pyspark = pytest.importorskip("pyspark", reason="pyspark not installed (pip install -r requirements-spark.txt)")
if not shutil.which("java"):
    pytest.skip("no Java for Spark", allow_module_level=True)

SPARK_HOME = Path(pyspark.__file__).resolve().parent
SPARK_CLASS = SPARK_HOME / "bin" / "spark-class"
OTHERS = [TEST_CAPTURES / "arraysize_10.pcapng", TEST_CAPTURES / "batch_19_python.pcapng"]
START_WAIT = 60       # seconds for a daemon to say it is up
JOB_TIMEOUT = 480      # the whole job: 3 to 4 min measured on two cores shared with a load of 12
WORKERS = 2


def cpu():
    """CPU seconds of the processes this test waited for (and theirs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(path, pattern, proc, seconds):
    """Until the log at path matches pattern (a bounded wait); fails when the
    daemon exits first."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        text = path.read_text(errors="replace") if path.exists() else ""
        m = re.search(pattern, text)
        if m:
            return m
        if proc.poll() is not None:
            raise AssertionError(f"{path.name}: exited with {proc.returncode} before /{pattern}/:\n{text[-3000:]}")
        time.sleep(0.25)
    raise AssertionError(f"{path.name}: no /{pattern}/ in {seconds} s:\n{path.read_text(errors='replace')[-3000:]}")


class Cluster:
    """A standalone master and WORKERS workers (spark-class, in the
    foreground, each in its own process group), stopped by stop()."""

    def __init__(self, d):
        self.d = d
        self.procs = []
        self.logs = d / "logs"
        self.logs.mkdir()
        # SPARK_CONF_DIR: nothing from elsewhere; the job's spark-defaults.conf:
        # small executors, one per worker, every worker's before the first task
        conf = d / "conf"
        conf.mkdir()
        (conf / "spark-defaults.conf").write_text(
            "spark.driver.memory 512m\n"
            "spark.executor.memory 512m\n"
            "spark.executor.cores 1\n"
            f"spark.cores.max {WORKERS}\n"
            "spark.scheduler.minRegisteredResourcesRatio 1.0\n"
            "spark.scheduler.maxRegisteredResourcesWaitingTime 120s\n"
            "spark.driver.extraJavaOptions -XX:+UseSerialGC -XX:TieredStopAtLevel=1\n"
            "spark.executor.extraJavaOptions -XX:+UseSerialGC -XX:TieredStopAtLevel=1\n")
        self.env = dict(os.environ, SPARK_HOME=str(SPARK_HOME), SPARK_CONF_DIR=str(conf),
                        SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(self.logs),
                        SPARK_DAEMON_MEMORY="256m",
                        # short-lived JVMs on a small machine: the C1 compiler only, a serial GC
                        SPARK_DAEMON_JAVA_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                        SPARK_LAUNCHER_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1",
                        PYSPARK_PYTHON=sys.executable)
        self.env.pop("PYSPARK_GATEWAY_PORT", None)
        self.port = free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.work_dirs = []

    def _start(self, name, *args):
        log = self.logs / f"{name}.log"
        with open(log, "wb") as f:
            p = subprocess.Popen([str(SPARK_CLASS), *args], stdin=subprocess.DEVNULL, stdout=f,
                                 stderr=subprocess.STDOUT, env=self.env, cwd=self.d, start_new_session=True)
        self.procs.append(p)
        return p, log

    def start(self):
        p, log = self._start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                             "--port", str(self.port), "--webui-port", str(free_port()))
        wait_for(log, r"I have been elected leader", p, START_WAIT)
        started = []
        for i in range(1, WORKERS + 1):
            work = self.d / f"worker{i}"
            work.mkdir()
            self.work_dirs.append(work)
            started.append(self._start(f"worker{i}", "org.apache.spark.deploy.worker.Worker",
                                       "--host", "127.0.0.1", "--port", str(free_port()),
                                       "--webui-port", str(free_port()), "--cores", "1", "--memory", "768m",
                                       "--work-dir", str(work), self.url))
        for p, log in started:
            wait_for(log, r"Successfully registered with master", p, START_WAIT)

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        end = time.monotonic() + 15
        for p in self.procs:
            try:
                p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait(5)

    def dump(self):
        out = []
        for f in sorted(self.logs.glob("*.log")) + sorted(self.d.glob("worker*/*/*/stderr")):
            out.append(f"--- {f.relative_to(self.d)}\n{f.read_text(errors='replace')[-4000:]}")
        return "\n".join(out)


def tshark_wrapper(d):
    """A tshark that writes its working folder and arguments to d/runs/ (one
    file per run) and then is tshark.  Readable and writable by `nobody`:
    the job runs tshark as nobody when it runs as root (extract.Runner)."""
    runs = d / "runs"
    runs.mkdir()
    os.chmod(d, 0o755)
    os.chmod(runs, 0o777)
    w = d / "tshark"
    w.write_text("#!/bin/sh\n"
                 f'printf "%s\\n%s\\n" "$(readlink /proc/$$/cwd)" "$*" > "{runs}/$$"\n'
                 f'exec "{shutil.which("tshark")}" "$@"\n')
    os.chmod(w, 0o755)
    return w, runs


def same(a, b, where):
    assert a.keys() == b.keys(), where
    for k in a:
        if isinstance(b[k], float):
            assert a[k] == pytest.approx(b[k], rel=1e-9, abs=1e-9), (where, k)
        else:
            assert a[k] == b[k], (where, k, a[k], b[k])


def table_rows(con, where):
    return con.execute(f"SELECT * FROM read_parquet('{where}') ORDER BY file_index, frame, round_trip").fetchall(), \
        [d[0] for d in con.description]


def spark_job(cluster, tshark, out, files):
    """The batch job's Spark route as a user runs it: python -m sqlnet_batch
    --spark, with SQLNET_SPARK_MASTER naming the cluster's master."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SQLNET_SPARK_MASTER=cluster.url, SPARK_HOME=str(SPARK_HOME),
               SPARK_CONF_DIR=cluster.env["SPARK_CONF_DIR"], SPARK_LOCAL_IP="127.0.0.1",
               SPARK_LAUNCHER_OPTS=cluster.env["SPARK_LAUNCHER_OPTS"], PYSPARK_PYTHON=sys.executable)
    env.pop("PYSPARK_GATEWAY_PORT", None)
    return subprocess.run([sys.executable, "-m", "sqlnet_batch", "--spark", "--plugin", str(staged_plugin()),
                           "--tshark", str(tshark), "--out", str(out), "--format", "json",
                           *map(str, files)], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=JOB_TIMEOUT)


def test_standalone_cluster_gives_duckdbs_table(tmp_path):
    files = cut_sweep(tmp_path) + [Path(shutil.copy2(f, tmp_path / f.name)) for f in OTHERS]
    duck_out = tmp_path / "duck"
    duck = json.loads(batch("--out", duck_out, "--format", "json", "-q", *files).stdout)

    # outside pytest's tmp_path (0700): tshark runs as nobody when the test runs as root
    d = Path(tempfile.mkdtemp(prefix="sqlnet-spark-cluster-"))
    os.chmod(d, 0o755)
    (d / "bin").mkdir()
    wrapper, runs = tshark_wrapper(d / "bin")
    cluster = Cluster(d)
    try:
        t0, c0 = time.monotonic(), cpu()
        cluster.start()
        t1, c1 = time.monotonic(), cpu()
        p = spark_job(cluster, wrapper, tmp_path / "spark", files)
        t2, c2 = time.monotonic(), cpu()
        assert p.returncode == 0, p.stderr[-5000:]
        got = json.loads(p.stdout)
        seen = [f.read_text().split("\n", 1) for f in runs.iterdir()]
        executor_logs = {w.name: [f.read_text(errors="replace") for f in w.glob("app-*/*/stderr")]
                         for w in cluster.work_dirs}
    except BaseException:
        print(cluster.dump())
        raise
    finally:
        cluster.stop()
        shutil.rmtree(d, ignore_errors=True)
    print(f"cluster up in {t1 - t0:.1f} s ({c1 - c0:.1f} s CPU), job on it {t2 - t1:.1f} s "
          f"(the job's own {c2 - c1:.1f} s CPU), all stopped {time.monotonic() - t2:.1f} s later "
          f"({cpu() - c2:.1f} s CPU: the daemons and their executors)")

    # the statements table: row by row, every column (a sum of floats to
    # 1e-9: the two engines add in their own order); the advisor's inputs, more
    # of the same Spark SQL, are compared in local mode (test_batch_spark.py)
    assert [s["sql"] for s in got] == [s["sql"] for s in duck]
    assert len(got) > 1
    for a, b in zip(got, duck):
        same(a, b, a["sql"])
    # the carried records: Spark's (DIR/spark/) and DuckDB's (DIR/*.parquet), every row and column
    import pyarrow.parquet as pq
    s_schema = pq.read_schema(next((tmp_path / "spark").rglob("*.parquet")))
    d_schema = pq.read_schema(next(duck_out.glob("*.parquet")))
    assert [(f.name, f.type) for f in s_schema] == [(f.name, f.type) for f in d_schema]
    con = duckdb.connect()
    s_rows, s_cols = table_rows(con, tmp_path / "spark" / "**" / "*.parquet")
    d_rows, d_cols = table_rows(con, duck_out / "*.parquet")
    assert s_cols == d_cols
    assert len(s_rows) == len(d_rows) > 0
    for a, b in zip(s_rows, d_rows):
        same(dict(zip(s_cols, a)), dict(zip(d_cols, b)), "records")

    # the work ran on the workers: one tshark reading a file per capture, each
    # in an executor's folder under a worker's work dir (<work>/app-*/<id>)
    reads = [cwd for cwd, args in seen if args.startswith("-r -")]
    assert len(reads) == len(files), seen
    where = {}
    for cwd in reads:
        w = next((w for w in cluster.work_dirs if Path(cwd).is_relative_to(w)), None)
        assert w is not None and re.fullmatch(r"app-[\w-]+/\d+", str(Path(cwd).relative_to(w))), cwd
        where[w.name] = where.get(w.name, 0) + 1
    assert sorted(where) == [w.name for w in cluster.work_dirs], where
    # the executors' logs (the workers keep them) ran the read stage's tasks, one per file
    tasks = set()
    for name, logs in executor_logs.items():
        mine = {int(m) for text in logs for m in re.findall(r"Running task (\d+)\.\d+ in stage 0\.0", text)}
        assert mine, (name, logs)
        tasks |= mine
    assert tasks == set(range(len(files)))
