#!/usr/bin/env bash
# fuzz/build.sh - build the libFuzzer harness into fuzz/build*/.
#
#   fuzz/build.sh             ASan + UBSan (-O1): fuzz/build/sqlnet_fuzzer, fuzz/build/mutator_check
#                             confirms findings; the regression tests replay inputs on it
#   fuzz/build.sh --fast      no sanitizers (-O2): fuzz/build-fast/sqlnet_fuzzer, for throughput
#                             (fuzz/run.sh campaigns; a finding is replayed on the ASan build)
#   fuzz/build.sh --coverage  source-based coverage (-fprofile-instr-generate -fcoverage-mapping,
#                             no libFuzzer main: replays files): fuzz/build-cov/sqlnet_fuzzer
#                             (fuzz/coverage.sh)
#
# The plugin sources are compiled into the harness with the structure-aware
# mutator (fuzz/sqlnet_mutator.c); libwireshark is the installed
# (uninstrumented) Debian library.  mutator_check runs the mutator alone
# (fuzz/mutator_check.c).  SQLNET_FUZZ_BUILD overrides the output directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=asan
case "${1:-}" in
  --fast) MODE=fast ;;
  --coverage) MODE=cov ;;
  "") ;;
  *) echo "usage: fuzz/build.sh [--fast|--coverage]" >&2; exit 2 ;;
esac
case $MODE in
  asan) DEF=$ROOT/fuzz/build
        FLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" ;;
  fast) DEF=$ROOT/fuzz/build-fast
        FLAGS="-g -O2 -fsanitize=fuzzer" ;;
  cov)  DEF=$ROOT/fuzz/build-cov
        # libFuzzer's driver (it replays the files it is given) without its
        # instrumentation: only the clang profile counters
        FLAGS="-g -O1 -fprofile-instr-generate -fcoverage-mapping"
        LINK_FUZZER=$(dirname "$(clang-14 -print-file-name=libclang_rt.fuzzer-x86_64.a)")/libclang_rt.fuzzer-x86_64.a ;;
esac
OUT=${SQLNET_FUZZ_BUILD:-$DEF}
CC=${CC_FUZZ:-$(command -v clang-14 || command -v clang)}
mkdir -p "$OUT"
VERSION=$(cat plugin/VERSION)
# the dissector's sources; not the Lua reports' records module (a Lua module
# that the harness never loads, built against Lua's headers)
SOURCES=()
for f in plugin/*.c plugin/*/*.c; do
  [ "$f" = plugin/consumers/lua_records.c ] || SOURCES+=("$f")
done
EXTRA=()
[ "$MODE" = cov ] && EXTRA=("${LINK_FUZZER}" -lstdc++ -lm)
# shellcheck disable=SC2046,SC2086
"$CC" $FLAGS ${SQLNET_FUZZ_CFLAGS:-} -Wall -Wextra \
  -DSQLNET_VERSION="\"$VERSION\"" $(for d in plugin/*/; do printf -- "-I%s " "$d"; done) \
  $(pkg-config --cflags wireshark) \
  fuzz/sqlnet_fuzzer.c fuzz/sqlnet_mutator.c "${SOURCES[@]}" \
  -o "$OUT/sqlnet_fuzzer.tmp" \
  $(pkg-config --libs wireshark) -lwiretap -lpthread "${EXTRA[@]}"
if [ "$MODE" = asan ]; then
  # shellcheck disable=SC2046
  "$CC" -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra \
    $(pkg-config --cflags glib-2.0) fuzz/mutator_check.c fuzz/sqlnet_mutator.c \
    -o "$OUT/mutator_check.tmp" $(pkg-config --libs glib-2.0)
  mv "$OUT/mutator_check.tmp" "$OUT/mutator_check"
fi
mv "$OUT/sqlnet_fuzzer.tmp" "$OUT/sqlnet_fuzzer"
echo "$OUT/sqlnet_fuzzer"
