#!/usr/bin/env bash
# fuzz/editcap_loop.sh - mutate every capture with editcap -E and dissect it
# with an ASan/UBSan build of the plugin inside the stock tshark.
#
#   fuzz/editcap_loop.sh [PASSES] [PROBABILITY]      default 1 pass, 0.02
#
# The plugin is built with -DSQLNET_SANITIZE=ON into build-asan/; tshark is
# not instrumented, so the sanitizer runtimes are preloaded.  tshark runs
# unprivileged (as root it would ignore WIRESHARK_PLUGIN_DIR) with
# WIRESHARK_DEBUG_WMEM_OVERRIDE=strict (canaries around every wmem block),
# two-pass, with the full tree (-V) and the sqlnet statistics.  A finding is
# anything on stderr (sanitizer report, wmem/GLib message, Lua error), a
# "Dissector bug" in the tree or any exit other than 0; the mutated capture is kept in fuzz/findings/.  Seeds are the pass
# number, so every run is reproducible: editcap -E P --seed S.  After the
# mutations, fixed inputs run unmutated: tests/regressions/*.pcap and every
# capture cut at a 200-byte snaplen.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PASSES=${1:-1}
PROB=${2:-0.02}
BUILD=${SQLNET_ASAN_BUILD:-$ROOT/build-asan}
FINDINGS=${SQLNET_FUZZ_FINDINGS:-$ROOT/fuzz/findings}
CC_ASAN=${CC_ASAN:-gcc}

cmake -S "$ROOT" -B "$BUILD" -DCMAKE_C_COMPILER="$CC_ASAN" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSQLNET_SANITIZE=ON >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >/dev/null
plugin=$(ls "$BUILD"/plugins/*/epan/sqlnet.so | tail -1)
release=$(basename "$(dirname "$(dirname "$plugin")")")

box=$(mktemp -d /tmp/sqlnet-editcap-XXXXXX)
trap 'rm -rf "$box"' EXIT
mkdir -p "$box/plugins/$release/epan" "$box/home" "$box/in" "$FINDINGS"
cp "$plugin" "$box/plugins/$release/epan/"
chmod -R a+rX "$box"; chmod 777 "$box/home" "$box/in"

caps=("$ROOT"/test-captures/*.pcapng)
if [ -d "$ROOT/../shared/captures/public" ]; then
  while IFS= read -r -d '' f; do caps+=("$f"); done < <(find "$ROOT/../shared/captures/public" -type f \
    \( -name '*.pcap' -o -name '*.pcapng' -o ! -name '*.*' \) -print0 | sort -z)
fi

preload="$($CC_ASAN -print-file-name=libasan.so):$($CC_ASAN -print-file-name=libubsan.so)"
run_tshark() {  # capture -> stdout in $box/out, stderr in $box/err; returns tshark's status
  local cmd=(env HOME="$box/home" WIRESHARK_PLUGIN_DIR="$box/plugins" LC_ALL=C.UTF-8
    WIRESHARK_DEBUG_WMEM_OVERRIDE=strict G_SLICE=always-malloc LD_PRELOAD="$preload"
    ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:exitcode=86
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87
    tshark -r "$1" -2 -V -z sqlnet,tree -z sqlnet,stmt -z sqlnet,srt)
  [ "$(id -u)" -eq 0 ] && cmd=(setpriv --reuid=nobody --regid=nogroup --clear-groups "${cmd[@]}")
  timeout 300 "${cmd[@]}" >"$box/out" 2>"$box/err"
}

# SQLNET_FUZZ_EDITCAP_STRIDE=N: every Nth capture only (CI: 32), the others
# on the pass after (the seed is the pass number); SQLNET_FUZZ_EDITCAP_OFFSET=K
# shifts which (CI: the day of the year, so that successive days mutate
# other captures)
STRIDE=${SQLNET_FUZZ_EDITCAP_STRIDE:-1}
OFFSET=$(( 10#${SQLNET_FUZZ_EDITCAP_OFFSET:-0} ))
runs=0 findings=0
for pass in $(seq 1 "$PASSES"); do
  i=0
  for cap in "${caps[@]}"; do
    i=$((i + 1))
    [ $(( (i + pass + OFFSET) % STRIDE )) -eq 0 ] || continue
    name=$(basename "$cap"); name=${name%.*}
    mut="$box/in/$name.$pass.pcapng"
    editcap -F pcapng -E "$PROB" --seed "$pass" "$cap" "$mut" >/dev/null 2>&1 || continue
    chmod 644 "$mut"
    runs=$((runs + 1))
    set +e; run_tshark "$mut"; rc=$?; set -e
    if [ $rc -ne 0 ] || [ -s "$box/err" ] || grep -q "Dissector bug" "$box/out"; then
      findings=$((findings + 1))
      keep="$FINDINGS/editcap-$name-seed$pass-p$PROB.pcapng"
      cp "$mut" "$keep"
      echo "FINDING (exit $rc): editcap -E $PROB --seed $pass $cap -> $keep"
      { head -c 3000 "$box/err"; grep -m3 -B2 -A2 "Dissector bug" "$box/out"; } | head -50
    fi
    rm -f "$mut"
  done
done
# Fixed hostile inputs, unmutated: the crafted regression captures and every
# capture cut at a 200-byte snaplen (issue 11); with a STRIDE, the captures
# the first pass did not mutate (each capture once, mutated or cut);
# SQLNET_FUZZ_CUT_STRIDE=M: of those, every Mth (CI: 32, shifted by the offset)
CUT_STRIDE=${SQLNET_FUZZ_CUT_STRIDE:-1}
fixed=("$ROOT"/tests/regressions/*.pcap)
i=0
for cap in "${caps[@]}"; do
  i=$((i + 1))
  [ "$STRIDE" -le 1 ] || [ $(( (i + 1 + OFFSET) % STRIDE )) -ne 0 ] || continue
  [ $(( (i + OFFSET) % CUT_STRIDE )) -eq 0 ] || continue
  name=$(basename "$cap"); name=${name%.*}
  editcap -F pcapng -s 200 "$cap" "$box/in/$name.cut200.pcapng" >/dev/null 2>&1 && fixed+=("$box/in/$name.cut200.pcapng")
done
for cap in "${fixed[@]}"; do
  [ -f "$cap" ] || continue
  chmod 644 "$cap"
  runs=$((runs + 1))
  set +e; run_tshark "$cap"; rc=$?; set -e
  if [ $rc -ne 0 ] || [ -s "$box/err" ] || grep -q "Dissector bug" "$box/out"; then
    findings=$((findings + 1))
    keep="$FINDINGS/fixed-$(basename "$cap")"
    cp "$cap" "$keep"
    echo "FINDING (exit $rc): $cap -> $keep"
    { head -c 3000 "$box/err"; grep -m3 -B2 -A2 "Dissector bug" "$box/out"; } | head -50
  fi
  case "$cap" in "$box"/*) rm -f "$cap" ;; esac
done
echo "editcap loop: $PASSES pass(es), p=$PROB, fixed inputs: ${#fixed[@]}, tshark runs: $runs, findings: $findings"
[ $findings -eq 0 ]
