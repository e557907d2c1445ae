#!/usr/bin/env bash
# fuzz/build.sh - build the libFuzzer harness (ASan + UBSan + coverage) into fuzz/build/.
#
#   fuzz/build.sh            -> fuzz/build/sqlnet_fuzzer, fuzz/build/mutator_check
#
# The plugin sources are compiled into the harness with the sanitizers, with
# the structure-aware mutator (fuzz/sqlnet_mutator.c); libwireshark is the
# installed (uninstrumented) Debian library.  mutator_check runs the mutator
# alone (fuzz/mutator_check.c).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${SQLNET_FUZZ_BUILD:-$ROOT/fuzz/build}
CC=${CC_FUZZ:-$(command -v clang-14 || command -v clang)}
mkdir -p "$OUT"
VERSION=$(cat plugin/VERSION)
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# the dissector's sources; not the Lua reports' records module (a Lua module
# that the harness never loads, built against Lua's headers)
SOURCES=()
for f in plugin/*.c; do
  [ "$f" = plugin/lua_records.c ] || SOURCES+=("$f")
done
# shellcheck disable=SC2046
"$CC" -g -O1 $SAN -Wall -Wextra -Wno-unused-parameter \
  -DSQLNET_VERSION="\"$VERSION\"" -Iplugin \
  $(pkg-config --cflags wireshark) \
  fuzz/sqlnet_fuzzer.c fuzz/sqlnet_mutator.c "${SOURCES[@]}" \
  -o "$OUT/sqlnet_fuzzer.tmp" \
  $(pkg-config --libs wireshark) -lwiretap -lpthread
# shellcheck disable=SC2046
"$CC" -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra \
  $(pkg-config --cflags glib-2.0) fuzz/mutator_check.c fuzz/sqlnet_mutator.c \
  -o "$OUT/mutator_check.tmp" $(pkg-config --libs glib-2.0)
mv "$OUT/mutator_check.tmp" "$OUT/mutator_check"
mv "$OUT/sqlnet_fuzzer.tmp" "$OUT/sqlnet_fuzzer"
echo "$OUT/sqlnet_fuzzer"
