#!/usr/bin/env bash
# fuzz/build.sh - build the libFuzzer harness (ASan + UBSan + coverage) into fuzz/build/.
#
#   fuzz/build.sh            -> fuzz/build/sqlnet_fuzzer
#
# The plugin sources are compiled into the harness with the sanitizers;
# libwireshark is the installed (uninstrumented) Debian library.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${SQLNET_FUZZ_BUILD:-$ROOT/fuzz/build}
CC=${CC_FUZZ:-$(command -v clang-14 || command -v clang)}
mkdir -p "$OUT"
VERSION=$(sed -n 's/^project(sqlnet VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# shellcheck disable=SC2046
"$CC" -g -O1 $SAN -Wall -Wextra -Wno-unused-parameter \
  -DSQLNET_VERSION="\"$VERSION\"" -Iplugin \
  $(pkg-config --cflags wireshark) \
  fuzz/sqlnet_fuzzer.c plugin/*.c \
  -o "$OUT/sqlnet_fuzzer.tmp" \
  $(pkg-config --libs wireshark) -lwiretap
mv "$OUT/sqlnet_fuzzer.tmp" "$OUT/sqlnet_fuzzer"
echo "$OUT/sqlnet_fuzzer"
