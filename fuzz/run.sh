#!/usr/bin/env bash
# fuzz/run.sh - libFuzzer campaign with the ASan/UBSan harness.
#
#   fuzz/run.sh [SECONDS]        default 600; SQLNET_FUZZ_JOBS=N runs N workers
#
# Builds fuzz/build/sqlnet_fuzzer if needed, seeds fuzz/corpus/ from
# test-captures/, ../shared/captures/public/ (if present) and the kept
# regression inputs (tests/regressions/*.in), fuzzes for SECONDS and prints
# executions, corpus inputs and findings.  Crashing inputs land in
# fuzz/findings/; exit status 1 if there is any.  Inputs up to 1 MiB
# (SQLNET_FUZZ_MAX_LEN), the dictionary fuzz/sqlnet.dict, the custom mutator
# built into the harness (fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECS=${1:-600}
JOBS=${SQLNET_FUZZ_JOBS:-1}
BIN=$ROOT/fuzz/build/sqlnet_fuzzer
CORPUS=${SQLNET_FUZZ_CORPUS:-$ROOT/fuzz/corpus}
FINDINGS=${SQLNET_FUZZ_FINDINGS:-$ROOT/fuzz/findings}
SEEDS=$ROOT/fuzz/seeds
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

newer() { [ -n "$(find "$ROOT/plugin" "$ROOT"/fuzz/*.[ch] "$ROOT/fuzz/build.sh" -newer "$BIN" -print -quit 2>/dev/null)" ]; }
if [ ! -x "$BIN" ] || newer; then "$ROOT/fuzz/build.sh" >/dev/null; fi

mkdir -p "$CORPUS" "$FINDINGS"
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

before=$(find "$FINDINGS" -type f | wc -l)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One libFuzzer process runs at most SLICE seconds: libwireshark leaks ~36 MB
# per epan session the harness recycles (see fuzz/sqlnet_fuzzer.c), so long
# campaigns are a series of processes sharing the corpus.
SLICE=${SQLNET_FUZZ_SLICE:-120}
opts=(-max_len="${SQLNET_FUZZ_MAX_LEN:-1048576}" -dict="$ROOT/fuzz/sqlnet.dict" -timeout=20
      -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$FINDINGS/")
: > "$LOG/all"
left=$SECS
set +e
while [ "$left" -gt 0 ]; do
  t=$(( left < SLICE ? left : SLICE ))
  if [ "$JOBS" -gt 1 ]; then
    "$BIN" "${opts[@]}" -max_total_time="$t" -jobs="$JOBS" -workers="$JOBS" "${dirs[@]}" >"$LOG/out" 2>&1
    rc=$?
    cat "$LOG"/out fuzz-*.log >> "$LOG/all" 2>/dev/null; rm -f fuzz-*.log
  else
    "$BIN" "${opts[@]}" -max_total_time="$t" "${dirs[@]}" >"$LOG/out" 2>&1
    rc=$?
    cat "$LOG/out" >> "$LOG/all"
  fi
  [ $rc -ne 0 ] && break
  [ "$(find "$FINDINGS" -type f | wc -l)" -gt "$before" ] && break
  left=$(( left - t ))
done
set -e
grep -E "^(INFO: seed corpus|#[0-9]+[[:space:]]+(INITED|DONE))" "$LOG/all" | tail -3 || true
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG/all" | awk '{s+=$1} END {print s+0}')
dict=$(sed -n 's/^Dictionary: \([0-9]*\) entries.*/\1/p' "$LOG/all" | head -1)
custom=$(grep -cE "^#[0-9]+[[:space:]]+(NEW|REDUCE)[[:space:]].*MS: [0-9]+ [^ ]*Custom" "$LOG/all" || true)
maxin=$(find "$CORPUS" -type f -printf '%s\n' | sort -n | tail -1)
after=$(find "$FINDINGS" -type f | wc -l)
new=$((after - before))
echo "fuzz: ${SECS}s, executions: $execs, corpus inputs: $(find "$CORPUS" -type f | wc -l) (+$(find "$SEEDS" -type f | wc -l) seeds), largest corpus input: ${maxin:-0} bytes (max_len ${opts[0]#-max_len=}), dictionary: ${dict:-0} entries, new inputs by the custom mutator: $custom, findings: $new (in $FINDINGS)"
if [ "$new" -gt 0 ] || grep -qE "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$LOG/all"; then
  grep -E -A30 "ERROR: (AddressSanitizer|libFuzzer)|runtime error:" "$LOG/all" | head -60
  exit 1
fi
[ "${rc:-0}" -eq 0 ] || { tail -30 "$LOG/all"; exit 1; }
