"""The same job on Apache Spark (pyspark 4): per-file tasks, the merge as Spark SQL.

    python -m sqlnet_batch --spark --out DIR FILE...

* The driver puts the files in capture order and makes one task per file:
  extract.extract (tshark with the sqlnet plugin, as in the local job) runs on
  an executor and writes that file's raw records to DIR/.raw/<name>.parquet.
  On a cluster DIR must be a folder every executor and the driver see (NFS,
  a mounted bucket), and tshark and the plugin must be installed on every
  executor (docs/batch.md).
* The carry (carry.py), the statements (stmt.py) and the advisor's inputs
  (advise.py) run as Spark SQL over the raw records; the carried records are written to DIR/spark/ (Parquet,
  one or more files per input file).

The master is SQLNET_SPARK_MASTER (default local[N], N = --jobs or the cores).

SPDX-License-Identifier: GPL-2.0-or-later
"""
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from . import Progress, _out_name, advise, capture_order, carry, extract, stmt


def session(jobs=None, master=None):
    """The Spark session: spark-submit's (it starts Python with
    PYSPARK_GATEWAY_PORT set: its --master and --conf hold), else one on
    SQLNET_SPARK_MASTER, else local mode with one thread per job."""
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("sqlnet_batch")
    master = master or os.environ.get("SQLNET_SPARK_MASTER")
    if not master and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = f"local[{jobs or os.cpu_count() or 1}]"
    if master:
        builder = builder.master(master)
    # local mode: the workers run this Python (with pyarrow), not the first python3 on PATH
    if master and master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (builder
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", str(max(2, (jobs or os.cpu_count() or 1) * 2)))
            .config("spark.sql.session.timeZone", "UTC")
            # `time` as the local job writes it (timestamp[us, tz=UTC]), not INT96
            # (Spark's default, read back as a timestamp without a zone)
            .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
            .getOrCreate())


def _quiet_logs(spark):
    spark.sparkContext.setLogLevel("ERROR")


def _ship_package(sc):
    """The package to the executors (a cluster's Python does not have it),
    unless it came as a zip of spark-submit's --py-files (shipped already)."""
    if not Path(__file__).resolve().parent.is_dir():
        return None
    d = tempfile.mkdtemp(prefix="sqlnet-batch-zip-")
    z = os.path.join(d, "sqlnet_batch.zip")
    pkg = Path(__file__).resolve().parent
    with zipfile.ZipFile(z, "w") as f:
        for p in pkg.glob("*.py"):
            f.write(p, f"sqlnet_batch/{p.name}")
    sc.addPyFile(z)
    return d


def run(files, out, overlap=5000, tshark="tshark", plugin=None, jobs=None, spark=None, quiet=False,
        advise_sizes=None):
    """Returns (summaries, errors, statements, files with records, the
    array-size advisor's inputs at advise_sizes (advise.py), or None when
    advise_sizes is None)."""
    own = spark is None
    spark = spark or session(jobs)
    sc = spark.sparkContext
    _quiet_logs(spark)
    shipped = _ship_package(sc)
    out = Path(out)
    raw = out / ".raw"
    raw.mkdir(parents=True, exist_ok=True)
    files = capture_order([Path(f) for f in files])
    used = set()
    names = [_out_name(f, used) for f in files]
    progress = Progress(len(files), sys.stderr, quiet)
    try:
        with extract.Runner(tshark, plugin) as runner:
            tasks = [{"path": str(f.resolve()), "out": str((raw / n).resolve()), "file_index": i,
                      "prev": str(files[i - 1].resolve()) if i > 0 else None, "overlap": overlap,
                      "spec": runner.spec()} for i, (f, n) in enumerate(zip(files, names))]
            summaries = sc.parallelize(tasks, max(1, len(tasks))).map(extract.extract).collect()
        for s in summaries:
            progress.update(s)
        errors = [s["error"] for s in summaries if s["error"]]
        good = [s["out"] for s in summaries if not s["error"] and os.path.exists(s["out"])]
        res, nfiles = [], 0
        inputs = None if advise_sizes is None else []
        if good:
            spark.read.parquet(*good).createOrReplaceTempView("records_raw")
            _carry(spark, out / "spark")
            res, nfiles = statements(spark)
            if advise_sizes is not None:
                inputs = advise.compute(lambda q: _rows(spark, q), res, advise_sizes, "spark")
    finally:
        shutil.rmtree(raw, ignore_errors=True)
        if shipped:
            shutil.rmtree(shipped, ignore_errors=True)
        if own:
            spark.stop()
    return summaries, errors, res, nfiles, inputs


def _carry(spark, dest):
    """records_raw -> the view `records`, carried; written to dest."""
    spark.table("records_raw").createOrReplaceTempView("records")
    for name, q in carry.statements("spark"):
        spark.sql(q).createOrReplaceTempView(name)
    cols = [f.name for f in extract.SCHEMA]
    df = spark.sql(carry.carried_select(cols, "spark"))
    df.repartition("file_index").sortWithinPartitions("file_index", "frame") \
        .write.mode("overwrite").parquet(str(dest))
    spark.read.parquet(str(dest)).createOrReplaceTempView("records")


def _rows(spark, q):
    return [r.asDict() for r in spark.sql(q).collect()]


def statements(spark):
    """stmt.py's statements over the view `records`, as Spark SQL."""
    files = _rows(spark, stmt.FILES)
    # the pattern and reparse columns, as the DuckDB route reads them
    pq_, rq = stmt.statement_queries(spark.table("records").columns)
    res = stmt.assemble(_rows(spark, stmt.AGGREGATE), _rows(spark, stmt.ARRAY_SIZES), _rows(spark, stmt.ERRORS),
                        files, _rows(spark, pq_) if pq_ else [], _rows(spark, rq) if rq else [])
    return res, len(files)
