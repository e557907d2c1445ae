#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/intree_build.sh - build sqlnet the way Windows and macOS builds do: inside a
# Wireshark source tree, as the custom plugin plugins/epan/sqlnet (plugin/ copied
# unchanged, named in CMakeListsCustom.txt), tshark only (no Qt); then run the core
# decoding tests against that tshark and its sqlnet module.
#
#   scripts/intree_build.sh [SOURCE]
#
# SOURCE: an unpacked Wireshark source tree (used in place), a Debian .dsc (unpacked with
# dpkg-source -x, Debian's patches applied), or nothing: `apt-get source wireshark`
# (needs a deb-src line). The unpacked tree and the build go to SQLNET_INTREE_DIR
# (default build-intree/: src/, build/). SQLNET_INTREE_TESTS: the pytest arguments
# (default: tests/test_generated_captures.py, test_framing.py, test_round_trip_fields.py:
# the generated captures decoded against their manifests, TNS framing, the round-trip
# fields). Not in CI: configure and build take about 10 minutes on two cores, the tests
# 2 to 3 more (docs/install.md).
# The body is one function, read whole before it runs (the script may be edited while it builds).
main() {
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIR=${SQLNET_INTREE_DIR:-$ROOT/build-intree}
JOBS=${SQLNET_INTREE_JOBS:-2}
PY=${SQLNET_PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || PY=python3
log() { printf '== %s\n' "$*" >&2; }
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
SRC_ARG=${1:-}

if [ -n "$SRC_ARG" ] && [ -d "$SRC_ARG" ]; then
  SRC=$(cd "$SRC_ARG" && pwd)
else
  SRC=$DIR/src
  if [ ! -f "$SRC/CMakeLists.txt" ]; then
    rm -rf "$SRC"
    if [ -n "$SRC_ARG" ]; then
      log "unpacking $SRC_ARG into $SRC"
      dpkg-source -x "$SRC_ARG" "$SRC" >/dev/null
    else
      log "apt-get source wireshark into $DIR"
      (cd "$DIR" && apt-get source -q wireshark >/dev/null)
      mv "$(find "$DIR" -maxdepth 1 -type d -name 'wireshark-*' | head -1)" "$SRC"
    fi
  fi
fi
[ -f "$SRC/cmake/modules/WiresharkPlugin.cmake" ] || { log "$SRC is not a Wireshark source tree"; exit 1; }

log "plugin/ -> $SRC/plugins/epan/sqlnet; CMakeListsCustom.txt names it"
rm -rf "$SRC/plugins/epan/sqlnet"
cp -r "$ROOT/plugin" "$SRC/plugins/epan/sqlnet"
cat > "$SRC/CMakeListsCustom.txt" <<'CUSTOM'
# written by sqlnet's scripts/intree_build.sh
set(CUSTOM_PLUGIN_SRC_DIR plugins/epan/sqlnet)
CUSTOM

BUILD=$DIR/build
OFF=()
for t in wireshark logray rawshark dumpcap text2pcap mergecap reordercap editcap capinfos \
         captype randpkt dftest dcerpcidl2wrs androiddump sshdump ciscodump dpauxmon \
         randpktdump wifidump sdjournal udpdump sharkd mmdbresolve fuzzshark; do
  OFF+=("-DBUILD_$t=OFF")
done
start=$(date +%s)
log "configuring (tshark only) in $BUILD"
cmake -S "$SRC" -B "$BUILD" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
  "${OFF[@]}" -DENABLE_PCAP=OFF -DENABLE_PLUGINS=ON -DSQLNET_WERROR=ON >"$DIR/configure.log" 2>&1 \
  || { tail -30 "$DIR/configure.log"; exit 1; }
log "building tshark and sqlnet (nice -n 19 make -j$JOBS; log in $DIR/build.log)"
nice -n 19 make -C "$BUILD" -j"$JOBS" tshark sqlnet >"$DIR/build.log" 2>&1 \
  || { grep -n -B2 -A8 'error' "$DIR/build.log" | tail -40; exit 1; }
end=$(date +%s)
log "built in $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s"
if grep -n 'plugins/epan/sqlnet/.*warning' "$DIR/build.log"; then
  log "sqlnet compiled with warnings in-tree"; exit 1
fi

TSHARK=$BUILD/run/tshark
MODULE=$(find "$BUILD/run/plugins" -path '*/epan/sqlnet.so' | sed -n 1p)
[ -x "$TSHARK" ] && [ -n "$MODULE" ] || { log "no tshark or sqlnet.so under $BUILD/run"; exit 1; }
log "$("$TSHARK" --version | head -1); module $MODULE"

# tests/tshark.py: SQLNET_TSHARK is the tshark to run, SQLNET_BUILD_DIR the folder whose
# plugins/<release>/epan/sqlnet.so it loads (here Wireshark's own run/ folder)
read -r -a TESTS <<<"${SQLNET_INTREE_TESTS:-tests/test_generated_captures.py tests/test_framing.py tests/test_round_trip_fields.py}"
log "tests against the in-tree tshark: ${TESTS[*]}"
SQLNET_TSHARK=$TSHARK SQLNET_BUILD_DIR=$BUILD/run \
  nice "$PY" -m pytest "${TESTS[@]}" -q -rfEs -p no:cacheprovider
}
main "$@"
exit $?
