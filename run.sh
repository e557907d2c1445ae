#!/usr/bin/env bash
# sqlnet - one entry point for setting up, building, installing, demonstrating and testing.
#
#   ./run.sh demo        install what is missing, build, install the plugin, reports + charts for the bundled capture
#   ./run.sh test        install what is missing, build, run every test
#   ./run.sh build       configure and build into ./build (plugin staged in build/plugins)
#   ./run.sh install     build, then install into the personal (or, as root, the global) plugin folder
#   ./run.sh report CAP  report on any capture with the installed plugin
#   ./run.sh package     build, then a Debian package for this Wireshark (scripts/package.sh)
#   ./run.sh batch --out DIR FILE...  many capture files -> Parquet round-trip records + statements (docs/batch.md)
#
# Runs unattended on a fresh Debian 12 as root (apt) or as a user with sudo.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
BUILD=${SQLNET_BUILD_DIR:-$ROOT/build}
VENV=${SQLNET_VENV:-$ROOT/.venv}
DEMO_CAPTURE=${SQLNET_DEMO_CAPTURE:-$ROOT/test-captures/sweep_arraysize.pcapng}

log() { printf '== %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else log "need root to run: $*"; exit 1
  fi
}

APT_UPDATED=0
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  if [ $APT_UPDATED -eq 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

setup_build_deps() {
  apt_install tshark libwireshark-dev wireshark-dev cmake make gcc libc6-dev pkg-config libglib2.0-dev binutils
  # The Lua reports' round-trip records (plugin/consumers/lua_records.c) build against the
  # Lua that libwireshark links (Debian 12: 5.2; 13 and later: 5.4): its headers.
  local lib lua
  lib=$(ls /usr/lib/*/libwireshark.so.[0-9]* 2>/dev/null | head -1 || true)
  lua=$(objdump -p "$lib" 2>/dev/null | grep -o 'liblua5\.[0-9]' | head -1 || true)
  if [ -n "$lua" ]; then apt_install "$lua-dev"; fi
}

setup_python() {
  apt_install python3 python3-venv
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating Python environment in $VENV"
    python3 -m venv "$VENV"
  fi
  local reqs=(-r "$ROOT/requirements.txt")
  [ -f "$ROOT/testgen/requirements.txt" ] && reqs+=(-r "$ROOT/testgen/requirements.txt")
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${reqs[@]}"
}

# ./run.sh batch: its own Python packages (pyarrow, duckdb: requirements.txt) in .venv.
setup_python_batch() {
  if [ ! -x "$VENV/bin/python" ]; then
    apt_install python3 python3-venv
    log "creating Python environment in $VENV"
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/python" -c 'import pyarrow, duckdb' 2>/dev/null ||
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$ROOT/requirements.txt"
}

# sqlnet_batch's Spark path (tests/test_batch_spark.py): pyspark and a Java it
# runs on (17 or 21: the release's own); without them that test skips.
setup_spark_deps() {
  local jre
  # a build root tests another release's Wireshark and leaves the Spark test
  # (release-independent: tests/conftest.py) to the host run
  [ "${SQLNET_RELEASE_DEPENDENT_ONLY:-}" = 1 ] && return 0
  if ! command -v java >/dev/null 2>&1; then
    for jre in openjdk-17-jre-headless openjdk-21-jre-headless default-jre-headless; do
      if apt-cache show "$jre" >/dev/null 2>&1; then apt_install "$jre"; break; fi
    done
  fi
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$ROOT/requirements-spark.txt" ||
    log "pyspark not installed: tests/test_batch_spark.py will skip"
}

setup_test_deps() {
  apt_install util-linux lua5.2 lua5.4
  # fuzz/: libFuzzer harness (clang, ASan/UBSan runtimes), editcap loop (gcc's libasan).
  # The fuzz tests run on the host release (Debian 12); in a build root of another
  # release (scripts/buildroot.sh) they skip when clang-14 is not packaged there.
  if [ "${SQLNET_FUZZ_TOOLS:-1}" != 0 ] && apt-cache show clang-14 >/dev/null 2>&1; then
    apt_install clang-14 libclang-rt-14-dev libfuzzer-14-dev libgcc-12-dev
  fi
  setup_python
  setup_spark_deps
  if [ -f "$ROOT/testgen/setup.sh" ]; then
    PYTHON="$VENV/bin/python" bash "$ROOT/testgen/setup.sh"
  fi
  # The GUI smoke test runs the real Wireshark under Xvfb.
  as_root bash "$ROOT/scripts/setup_gui.sh"
}

build() {
  setup_build_deps
  log "building sqlnet in $BUILD"
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSQLNET_WERROR=ON >/dev/null
  cmake --build "$BUILD" -j "$(nproc)" >/dev/null
}

install_plugin() {
  build
  if [ "$(id -u)" -eq 0 ]; then
    # tshark run as root ignores the personal plugin folder.
    cmake -S "$ROOT" -B "$BUILD" -DSQLNET_INSTALL_GLOBAL=ON >/dev/null
  else
    cmake -S "$ROOT" -B "$BUILD" -DSQLNET_INSTALL_GLOBAL=OFF >/dev/null
  fi
  cmake --install "$BUILD" | sed 's/^/   /' >&2
}

report() {
  sh "$ROOT/scripts/sqlnet_report.sh" "$@"
}

case "${1:-demo}" in
  demo)
    install_plugin
    bash "$ROOT/scripts/install_profile.sh"
    setup_python
    log "report on $DEMO_CAPTURE"
    report "$DEMO_CAPTURE"
    log "charts in $ROOT/charts"
    "$VENV/bin/python" "$ROOT/scripts/charts.py" --sweep "$DEMO_CAPTURE" \
      --sdu "$ROOT"/test-captures/sdu_*_mtu_1500.pcapng --out "$ROOT/charts"
    ;;
  test)
    build
    setup_test_deps
    shift || true
    log "running tests"
    "$VENV/bin/python" -m pytest "$ROOT/tests" -q -rfEs "$@"
    ;;
  build) build ;;
  install) install_plugin ;;
  report) shift; report "$@" ;;
  package) build; bash "$ROOT/scripts/package.sh" ;;
  batch)
    shift
    setup_python_batch
    # the build's plugin when there is one, else the installed plugin
    plugin=$(ls "$BUILD"/plugins/*/epan/sqlnet.so 2>/dev/null | tail -1 || true)
    PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" SQLNET_PLUGIN="${SQLNET_PLUGIN:-$plugin}" \
      exec "$VENV/bin/python" -m sqlnet_batch "$@"
    ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac
