#!/usr/bin/env bash
# fuzz/coverage.sh - which decoders and branches a campaign reached.
#
#   fuzz/coverage.sh [--functions] [DIR|FILE ...]
#
# Replays every input (default: fuzz/corpus/, fuzz/seeds/ and
# tests/regressions/*.in, i.e. what fuzz/run.sh fuzzed from and kept) through
# the source-coverage build of the harness (fuzz/build.sh --coverage:
# clang -fprofile-instr-generate -fcoverage-mapping, built if needed), merges
# the profiles with llvm-profdata and prints llvm-cov's report per plugin
# source file: regions, functions, lines and branches, covered and missed.
# --functions adds the same per function of plugin/ttc/ and plugin/decoders/ (the TTC
# decoders).  The last line is the total over plugin/ ("TOTAL").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=$ROOT/fuzz/build-cov/sqlnet_fuzzer
LLVM_PROFDATA=${LLVM_PROFDATA:-$(command -v llvm-profdata-14 || command -v llvm-profdata)}
LLVM_COV=${LLVM_COV:-$(command -v llvm-cov-14 || command -v llvm-cov)}
FUNCTIONS=0
if [ "${1:-}" = --functions ]; then FUNCTIONS=1; shift; fi
if [ $# -eq 0 ]; then
  set -- "$ROOT/fuzz/corpus" "$ROOT/fuzz/seeds"
  for f in "$ROOT"/tests/regressions/*.in; do [ -f "$f" ] && set -- "$@" "$f"; done
fi

newer() { [ -n "$(find "$ROOT/plugin" "$ROOT"/fuzz/*.[ch] "$ROOT/fuzz/build.sh" -newer "$BIN" -print -quit 2>/dev/null)" ]; }
if [ ! -x "$BIN" ] || newer; then "$ROOT/fuzz/build.sh" --coverage >/dev/null; fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
find "$@" -maxdepth 1 -type f -print0 2>/dev/null | sort -z > "$TMP/inputs"
n=$(tr -cd '\0' < "$TMP/inputs" | wc -c)
[ "$n" -gt 0 ] || { echo "coverage: no inputs in $*" >&2; exit 2; }
# a few hundred inputs per process (each starts libwireshark once); the
# coverage build is not sanitized: a bigger worker stack than the fast build's
export LLVM_PROFILE_FILE="$TMP/prof-%p.profraw" SQLNET_FUZZ_STACK_KB=${SQLNET_FUZZ_STACK_KB:-1024}
set +e
xargs -0 -n 300 "$BIN" -timeout=120 -rss_limit_mb=4096 < "$TMP/inputs" > "$TMP/replay.log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  echo "coverage: a replay failed (exit $rc):" >&2
  grep -E -A10 "ERROR|deadly|timeout|out-of-memory" "$TMP/replay.log" | head -30 >&2
fi
"$LLVM_PROFDATA" merge -sparse "$TMP"/prof-*.profraw -o "$TMP/merged.profdata"
SOURCES=()
for f in plugin/*.c plugin/*/*.c; do
  [ "$f" = plugin/consumers/lua_records.c ] || SOURCES+=("$f")
done
echo "coverage of plugin/ by $n inputs ($*)"
"$LLVM_COV" report "$BIN" -instr-profile="$TMP/merged.profdata" "${SOURCES[@]}" | sed "s|$ROOT/||"
if [ "$FUNCTIONS" = 1 ]; then
  "$LLVM_COV" report "$BIN" -instr-profile="$TMP/merged.profdata" -show-functions plugin/ttc/*.c plugin/decoders/*.c \
    | sed "s|$ROOT/||"
fi
