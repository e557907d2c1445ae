#!/usr/bin/env bash
# bench/run.sh - side-by-side benchmark of tshark with and without sqlnet.
#
#   bench/run.sh [RUNS]           default 5 runs per configuration (median)
#
# Builds the plugin, generates the benchmark capture into bench/data/ if it
# is not there yet (testgen --bench: a 1,000,000-row table fetched at array
# sizes 10..5000, ~700 MB; needs root for the network namespaces), then
# prints a markdown table (also written to bench/results/latest.md).
# Environment: BENCH_ROWS (rows of the table), BENCH_CAPTURE (use this capture).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${1:-5}
DATA=$ROOT/bench/data
CAP=${BENCH_CAPTURE:-$DATA/bench.pcapng}
PY=python3
[ -x "$ROOT/.venv/bin/python" ] && PY=$ROOT/.venv/bin/python

"$ROOT/run.sh" build >&2
if [ ! -s "$CAP" ]; then
  mkdir -p "$DATA"
  echo "== generating the benchmark capture (rows=${BENCH_ROWS:-1000000}) into $DATA" >&2
  "$PY" "$ROOT/testgen/generate.py" --bench --rows "${BENCH_ROWS:-1000000}" --out "$DATA" >&2
fi
mkdir -p "$ROOT/bench/results"
"$PY" "$ROOT/bench/bench.py" --runs "$RUNS" --capture "$CAP" --out "$ROOT/bench/results/latest.md"
