"""Command line: see the package's docstring, or --help."""
import argparse
import json
import os
import sys

from . import DEFAULT_OVERLAP, advise, advise_inputs, run, statements, stmt


def main(argv=None):
    ap = argparse.ArgumentParser(prog="sqlnet_batch", description=(
        "One Parquet file of SQL*Net round-trip records per capture file (tshark with the sqlnet plugin, "
        "in parallel), sessions carried across files, and the statements over the whole set."))
    ap.add_argument("files", nargs="*", help="capture files (a ring buffer's files, any order)")
    ap.add_argument("--out", help="folder for the Parquet files")
    ap.add_argument("--jobs", "-j", type=int, default=None, help="workers (default: one per core)")
    ap.add_argument("--overlap", type=int, default=DEFAULT_OVERLAP,
                    help="packets of the previous file read before each file, for the round trips "
                         "that span two files (default %(default)s; 0: none)")
    ap.add_argument("--tshark", default=os.environ.get("SQLNET_TSHARK", "tshark"))
    ap.add_argument("--plugin", default=os.environ.get("SQLNET_PLUGIN"),
                    help="a sqlnet.so to use instead of the installed plugin")
    ap.add_argument("--stmt", metavar="DIR", nargs="+",
                    help="print the statements over the Parquet files in DIR (no capture read)")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                    help="two sets' folders (or Parquet files) side by side per SQL text")
    ap.add_argument("--advise-inputs", action="store_true",
                    help="after the statements, the array-size advisor's inputs per SQL text over the set")
    ap.add_argument("--sizes", default=",".join(str(a) for a in advise.DEFAULT_SIZES),
                    help="array sizes --advise-inputs predicts round trips at (default %(default)s)")
    ap.add_argument("--format", choices=["text", "json"], default="text")
    ap.add_argument("--es-mapping", action="store_true",
                    help="print the Elasticsearch/OpenSearch index mapping of the records")
    ap.add_argument("--ndjson", metavar="DIR", help="print DIR's records as an Elasticsearch _bulk body")
    ap.add_argument("--index", default="sqlnet-rt", help="the index --ndjson names (default %(default)s)")
    ap.add_argument("--spark", action="store_true", help="run the job on Spark (pyspark) instead")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    a = ap.parse_args(argv)
    try:
        sizes = advise.parse_sizes(a.sizes)
    except ValueError:
        ap.error("--sizes: array sizes are whole numbers from 1, separated by commas")

    def show(res, n, inputs=None):
        if a.format == "json":
            print(json.dumps(res if inputs is None else {"statements": res, "advise_inputs": inputs}, indent=1))
        else:
            print(stmt.render(res, n), end="")
            if inputs is not None:
                print(advise.render(inputs, n), end="")

    if a.es_mapping:
        from . import es
        from . import extract
        # the record columns of the plugin in use (its declaration)
        with extract.Runner(a.tshark, a.plugin) as runner:
            runner.spec()
        print(es.mapping_text())
        return 0
    if a.ndjson:
        from . import es
        from . import parquet_files
        es.ndjson(parquet_files(a.ndjson), a.index)
        return 0
    if a.compare:
        before, _ = statements([a.compare[0]])
        after, _ = statements([a.compare[1]])
        pairs, text = stmt.compare(before, after)
        print(json.dumps(pairs, indent=1) if a.format == "json" else text, end="" if a.format == "text" else "\n")
        return 0
    if a.stmt:
        if a.advise_inputs:
            res, inputs, n = advise_inputs(a.stmt, sizes)
        else:
            (res, n), inputs = statements(a.stmt), None
        show(res, n, inputs)
        return 0
    if not a.files or not a.out:
        ap.error("give --out DIR and capture files (or --stmt / --compare)")
    if a.spark:
        from . import spark
        summaries, errors, res, n, inputs = spark.run(a.files, a.out, overlap=a.overlap, tshark=a.tshark,
                                                      plugin=a.plugin, jobs=a.jobs, quiet=a.quiet,
                                                      advise_sizes=sizes if a.advise_inputs else None)
    else:
        summaries, errors = run(a.files, a.out, jobs=a.jobs, overlap=a.overlap, tshark=a.tshark,
                                plugin=a.plugin, quiet=a.quiet)
        if a.advise_inputs:
            res, inputs, n = advise_inputs([a.out], sizes)
        else:
            (res, n), inputs = statements([a.out]), None
    show(res, n, inputs)
    for e in errors:
        print(f"batch: error: {e}", file=sys.stderr)
    for s in summaries:
        if s and s.get("truncated"):
            print(f"batch: {s['path']}: cut short in the middle of a packet: its {s['records']} round trips "
                  f"kept, marked file_partial", file=sys.stderr)
    if errors:
        print(f"batch: {len(errors)} of {len(summaries)} files not read", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
