#!/usr/bin/env bash
# fuzz/run.sh - libFuzzer campaign: the fast harness fuzzes, the ASan/UBSan
# harness confirms.
#
#   fuzz/run.sh [SECONDS]        default 600; SQLNET_FUZZ_JOBS=N runs N workers
#   SQLNET_FUZZ_JOBS=2 fuzz/run.sh 1800     the 30-minute campaign (2 workers on 2 cores)
#
# Builds fuzz/build-fast/sqlnet_fuzzer (no sanitizers, -O2) and
# fuzz/build/sqlnet_fuzzer (ASan + UBSan) if needed, seeds fuzz/seeds/ from
# test-captures/, ../shared/captures/public/ (if present) with
# fuzz/make_seeds.py (mixed sizes: most under 16 KiB, the longest streams up
# to 1 MiB), fuzzes fuzz/corpus/ + seeds + tests/regressions/*.in for
# SECONDS and prints executions, exec/s (wall and per CPU-second of the
# fuzzer processes), edges and features reached, corpus inputs and findings.
#
# A crash, timeout or out-of-memory of the fast harness is replayed on the
# ASan harness; it is a finding (kept in fuzz/findings/, exit status 1) only
# if it crashes or is reported there too; one that does not reproduce is
# named in the summary and kept in fuzz/findings/unconfirmed/.
# SQLNET_FUZZ_FAST=0 fuzzes with the ASan harness itself (13 executions/s
# where the fast one does ~10 times more; what it finds is kept as it is).
#
# Inputs up to 1 MiB (SQLNET_FUZZ_MAX_LEN), the dictionary fuzz/sqlnet.dict,
# the custom mutator built into the harness (fuzz/README.md), libFuzzer's
# entropic schedule scaled by execution time (short inputs run more often).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECS=${1:-600}
JOBS=${SQLNET_FUZZ_JOBS:-1}
FAST=${SQLNET_FUZZ_FAST:-1}
ASAN_BIN=$ROOT/fuzz/build/sqlnet_fuzzer
FAST_BIN=$ROOT/fuzz/build-fast/sqlnet_fuzzer
CORPUS=${SQLNET_FUZZ_CORPUS:-$ROOT/fuzz/corpus}
FINDINGS=${SQLNET_FUZZ_FINDINGS:-$ROOT/fuzz/findings}
SEEDS=${SQLNET_FUZZ_SEEDS:-$ROOT/fuzz/seeds}
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

newer() { [ -n "$(find "$ROOT/plugin" "$ROOT"/fuzz/*.[ch] "$ROOT/fuzz/build.sh" -newer "$1" -print -quit 2>/dev/null)" ]; }
if [ ! -x "$ASAN_BIN" ] || newer "$ASAN_BIN"; then "$ROOT/fuzz/build.sh" >/dev/null; fi
if [ "$FAST" != 0 ]; then
  if [ ! -x "$FAST_BIN" ] || newer "$FAST_BIN"; then "$ROOT/fuzz/build.sh" --fast >/dev/null; fi
  BIN=$FAST_BIN
  ARTIFACTS=$LOG/fast-findings
else
  BIN=$ASAN_BIN
  ARTIFACTS=$FINDINGS
fi

mkdir -p "$CORPUS" "$FINDINGS" "$ARTIFACTS"
if [ ! -d "$SEEDS" ] || [ -z "$(ls -A "$SEEDS" 2>/dev/null)" ]; then
  caps=("$ROOT"/test-captures/*.pcapng)
  if [ -d "$ROOT/../shared/captures/public" ]; then
    while IFS= read -r -d '' f; do caps+=("$f"); done < <(find "$ROOT/../shared/captures/public" -type f \
      \( -name '*.pcap' -o -name '*.pcapng' -o ! -name '*.*' \) -print0)
  fi
  python3 "$ROOT/fuzz/make_seeds.py" --out "$SEEDS" "${caps[@]}"
fi
dirs=("$CORPUS" "$SEEDS")
[ -d "$ROOT/tests/regressions" ] && dirs+=("$ROOT/tests/regressions")

count_files() { find "$1" -maxdepth 1 -type f | wc -l; }
before=$(count_files "$FINDINGS")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One libFuzzer process runs at most SLICE seconds: libwireshark leaks memory
# per epan session the harness recycles (~36 MB under ASan, see
# fuzz/sqlnet_fuzzer.c), so long campaigns are a series of processes sharing
# the corpus.  Each process first replays the corpus: the fast harness, with
# less leaked per session, runs longer slices.
if [ "$FAST" != 0 ]; then SLICE=${SQLNET_FUZZ_SLICE:-300}; else SLICE=${SQLNET_FUZZ_SLICE:-120}; fi
RSS=${SQLNET_FUZZ_RSS_MB:-3072}
opts=(-max_len="${SQLNET_FUZZ_MAX_LEN:-1048576}" -dict="$ROOT/fuzz/sqlnet.dict" -timeout=20
      -rss_limit_mb="$RSS" -print_final_stats=1 -artifact_prefix="$ARTIFACTS/")
[ "$FAST" != 0 ] && opts+=(-entropic_scale_per_exec_time=1)
: > "$LOG/all"
unconfirmed=0
# Replay what the fast harness left in $ARTIFACTS on the ASan harness (with
# the same SQLNET_FUZZ_MAX_STREAM as the slice that found it): a
# crash or sanitizer report there makes it a finding; else it is put aside.
confirm() {
  local f name rrc
  for f in "$ARTIFACTS"/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    env -u SQLNET_FUZZ_TREE_EVERY "$ASAN_BIN" -timeout=60 -rss_limit_mb="$RSS" "$f" > "$LOG/replay" 2>&1
    rrc=$?
    { echo "== fast harness: $name (replayed on the ASan harness: exit $rrc)"; cat "$LOG/replay"; } >> "$LOG/all"
    if [ $rrc -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$LOG/replay"; then
      mv "$f" "$FINDINGS/$name"
    else
      mkdir -p "$FINDINGS/unconfirmed"
      mv "$f" "$FINDINGS/unconfirmed/$name"
      unconfirmed=$((unconfirmed + 1))
      echo "fuzz: $name (fast harness) does not reproduce on the ASan harness: kept in $FINDINGS/unconfirmed/"
    fi
  done
}
# The fast harness dissects at most 64 KiB of expanded stream per input in
# three slices out of four (SQLNET_FUZZ_MAX_STREAM), the whole 4 MiB in every
# fourth: inputs that expand to megabytes took 87 % of the time of a
# campaign's corpus (fuzz/README.md).  SQLNET_FUZZ_STREAM_CAP=0: always 4 MiB.
CAP=${SQLNET_FUZZ_STREAM_CAP:-65536}
# ... and runs the second pass (tree and columns, twice the cost of the
# first) for one input in TREE (by a hash of the input: stable per input);
# the ASan harness that confirms a finding runs both passes for every input.
# Inputs per epan session: 4000 (each session leaks ~11 MB in libwireshark 4.0
# and costs ~60 ms to set up).
TREE=${SQLNET_FUZZ_TREE_EVERY:-4}
SESSION=${SQLNET_FUZZ_SESSION_INPUTS:-4000}
# CPU seconds (user + sys) of the children this shell has waited for: the
# fuzzer processes (with -jobs, libFuzzer waits for its workers, so theirs
# count too) and the rare ASan replays of what they leave.
# (times runs in this shell: in a $(...) subshell it would see no children)
cpu_ms() { times > "$LOG/times"; CPU_MS=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, b, /[ms]/); t += b[1] * 60 + b[2] } printf "%d\n", t * 1000 }' "$LOG/times"); }
cpu_ms; cpu0=$CPU_MS
left=$SECS
start=$(date +%s)
slice=0
set +e
while [ "$left" -gt 0 ]; do
  t=$(( left < SLICE ? left : SLICE ))
  if [ "$FAST" != 0 ] && [ "$CAP" != 0 ] && [ $((slice % 4)) -ne 3 ]; then
    export SQLNET_FUZZ_MAX_STREAM=$CAP
  else
    unset SQLNET_FUZZ_MAX_STREAM
  fi
  slice=$((slice + 1))
  if [ "$FAST" != 0 ]; then
    export SQLNET_FUZZ_TREE_EVERY=$TREE SQLNET_FUZZ_SESSION_INPUTS=$SESSION
  fi
  if [ "$JOBS" -gt 1 ]; then
    "$BIN" "${opts[@]}" -max_total_time="$t" -jobs="$JOBS" -workers="$JOBS" "${dirs[@]}" >"$LOG/out" 2>&1
    rc=$?
    # libFuzzer copies each job's log (fuzz-N.log) into its own output when
    # the job ends: counting both counted every job twice
    cat "$LOG"/out >> "$LOG/all"; rm -f fuzz-*.log
  else
    "$BIN" "${opts[@]}" -max_total_time="$t" "${dirs[@]}" >"$LOG/out" 2>&1
    rc=$?
    cat "$LOG/out" >> "$LOG/all"
  fi
  if [ "$FAST" != 0 ]; then
    had=$(count_files "$ARTIFACTS")
    confirm
    # a crash without an input left (or an unconfirmed one) ends the slice only
    if [ $rc -ne 0 ] && [ "$had" -eq 0 ]; then break; fi
    rc=0
  fi
  [ $rc -ne 0 ] && break
  [ "$(count_files "$FINDINGS")" -gt "$before" ] && break
  left=$(( SECS - ($(date +%s) - start) ))
done
set -e
elapsed=$(( $(date +%s) - start ))
cpu_ms; cpu=$(( CPU_MS - cpu0 ))

grep -E "^(INFO: seed corpus|#[0-9]+[[:space:]]+(INITED|DONE))" "$LOG/all" | tail -3 || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG/all" | awk '{s+=$1} END {print s+0}')
dict=$(sed -n 's/^Dictionary: \([0-9]*\) entries.*/\1/p' "$LOG/all" | head -1)
custom=$(grep -cE "^#[0-9]+[[:space:]]+(NEW|REDUCE)[[:space:]].*MS: [0-9]+ [^ ]*Custom" "$LOG/all" || true)
maxin=$(find "$CORPUS" -type f -printf '%s\n' | sort -n | tail -1)
small=$(find "$CORPUS" -type f -size -16385c | wc -l)
# edges (libFuzzer's "cov:") and features ("ft:"): the most one process reached
edges=$(grep -oE "cov: [0-9]+" "$LOG/all" | awk '$2 > m { m = $2 } END { print m + 0 }')
features=$(grep -oE "ft: [0-9]+" "$LOG/all" | awk '$2 > m { m = $2 } END { print m + 0 }')
percpu=$(awk -v e="$execs" -v c="$cpu" 'BEGIN { printf "%d", (c > 0 ? e * 1000 / c : 0) }')
after=$(count_files "$FINDINGS")
new=$((after - before))
[ "$FAST" != 0 ] && kind="fast harness, findings confirmed on ASan" || kind="ASan harness"
capnote=""
[ "$FAST" != 0 ] && [ "$CAP" != 0 ] && capnote=", expanded stream cut at $CAP bytes in 3 slices of 4 (this run: $slice slices)"
[ "$FAST" != 0 ] && capnote="$capnote, tree pass for 1 input in $TREE"
echo "fuzz: ${SECS}s ($kind), executions: $execs ($(( execs / (elapsed > 0 ? elapsed : 1) ))/s over ${elapsed}s, $percpu per CPU-second over $((cpu / 1000)) CPU-s, $JOBS job(s)), edges: $edges, features: $features, corpus inputs: $(count_files "$CORPUS") ($small under 16 KiB) (+$(count_files "$SEEDS") seeds), largest corpus input: ${maxin:-0} bytes (max_len ${opts[0]#-max_len=}), dictionary: ${dict:-0} entries, new inputs by the custom mutator: $custom, unconfirmed: $unconfirmed, findings: $new (in $FINDINGS)$capnote"
if [ "$new" -gt 0 ] || { [ "$FAST" = 0 ] && grep -qE "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$LOG/all"; }; then
  grep -E -A30 "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$LOG/all" | head -80
  exit 1
fi
if [ "${rc:-0}" -ne 0 ]; then tail -30 "$LOG/all"; exit 1; fi
exit 0
