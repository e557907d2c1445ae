#!/usr/bin/env bash
# Build and test sqlnet against the Wireshark of one Debian release, in a
# chroot made from Debian's own packages.
#
#   scripts/buildroot.sh RELEASE [pytest arguments...]
#
#   RELEASE   bookworm | 4.0     Debian 12, Wireshark 4.0
#             trixie   | 4.4     Debian 13, Wireshark 4.4
#             sid      | 4.6     Debian unstable, Wireshark 4.6 (or newer)
#
# What it does, as root (re-runs itself with sudo otherwise):
#   1. debootstrap --variant=minbase RELEASE into .buildroots/RELEASE/ (once;
#      later runs reuse it; SQLNET_BUILDROOT_REFRESH=1 runs apt-get upgrade)
#   2. installs that release's tshark, Wireshark SDK (libwireshark-dev,
#      wireshark-dev), compiler, cmake, Lua 5.2/5.4, Python, node inside it
#   3. in a private mount namespace (nothing leaks when it ends): binds /proc,
#      /sys, /dev, /dev/pts, a fresh /run and /tmp, the project at its own path
#      and ../shared (read-only) if present; carries in the host's resolv.conf,
#      local CA certificates, pip.conf and proxy variables; then chroots and runs
#      ./run.sh test with SQLNET_BUILD_DIR=build-RELEASE SQLNET_VENV=.venv-RELEASE
#      (the same steps as on the host: -Werror build, test dependencies, pytest)
#   4. prints the Wireshark version tested and the pytest summary line;
#      the full log is kept in build-RELEASE/buildroot-test.log
#
# Environment: SQLNET_BUILDROOTS (default .buildroots), SQLNET_DEBIAN_MIRROR
# (default http://deb.debian.org/debian), SQLNET_BUILDROOT_REFRESH=1,
# SQLNET_BUILDROOT_PREPARE=1 (make, build and install only; no test),
# SQLNET_BUILDROOT_GUI_BESIDE=1 (the GUI tests in a second pytest beside the rest).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '== buildroot: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

case "${1:-}" in
  bookworm|4.0|12) RELEASE=bookworm ;;
  trixie|4.4|13)   RELEASE=trixie ;;
  sid|unstable|4.6) RELEASE=sid ;;
  *) sed -n '2,26p' "$0" >&2; exit 2 ;;
esac
shift

if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || die "needs root (debootstrap, chroot, mounts)"
  exec sudo -E "$0" "$RELEASE" "$@"
fi

BUILDROOTS="${SQLNET_BUILDROOTS:-$ROOT/.buildroots}"
MIRROR="${SQLNET_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
CHROOT="$BUILDROOTS/$RELEASE"
BUILD_DIR="$ROOT/build-$RELEASE"
VENV_DIR="$ROOT/.venv-$RELEASE"
LOG="$BUILD_DIR/buildroot-test.log"
export DEBIAN_FRONTEND=noninteractive

# Everything the build and the tests need inside; run.sh installs the rest
# (GUI packages via scripts/setup_gui.sh) itself, with this release's apt.
PACKAGES="tshark libwireshark-dev wireshark-dev cmake make gcc libc6-dev pkg-config
  libglib2.0-dev lua5.2 lua5.4 python3 python3-venv util-linux iproute2 ethtool
  ca-certificates nodejs"

# ---- 1. the chroot, made once -------------------------------------------------
if [ -z "${SQLNET_BUILDROOT_INNER:-}" ]; then
  if [ ! -f "$CHROOT/.sqlnet-bootstrapped" ]; then
    if ! command -v debootstrap >/dev/null 2>&1; then
      log "installing debootstrap"
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    fi
    rm -rf "$CHROOT"
    mkdir -p "$BUILDROOTS"
    log "debootstrap $RELEASE into $CHROOT"
    start=$SECONDS
    debootstrap --variant=minbase "$RELEASE" "$CHROOT" "$MIRROR" >"$BUILDROOTS/$RELEASE.debootstrap.log" 2>&1 \
      || die "debootstrap failed, see $BUILDROOTS/$RELEASE.debootstrap.log"
    touch "$CHROOT/.sqlnet-bootstrapped"
    log "debootstrap took $((SECONDS - start)) s"
  fi
  # The rest runs in a private mount namespace: the binds vanish with it.
  exec env SQLNET_BUILDROOT_INNER=1 unshare --mount --propagation private "$0" "$RELEASE" "$@"
fi

# ---- 2. mounts (private to this namespace) ------------------------------------
bind() {  # bind SRC DST [ro]
  mkdir -p "$CHROOT$2"
  mount --bind "$1" "$CHROOT$2"
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$CHROOT$2"; fi
}
# The chroot's / must be a mount point itself ("ip netns exec" makes it a slave mount).
mount --bind "$CHROOT" "$CHROOT"
mount -t proc proc "$CHROOT/proc"
bind /sys /sys ro
bind /dev /dev
bind /dev/pts /dev/pts
mount -t tmpfs -o mode=1777 shm "$CHROOT/dev/shm"
mount -t tmpfs -o mode=755 run "$CHROOT/run"
mount -t tmpfs -o mode=1777 tmp "$CHROOT/tmp"
bind "$ROOT" "$ROOT"
if [ -d "$ROOT/../shared" ]; then
  SHARED="$(cd "$ROOT/../shared" && pwd)"
  bind "$SHARED" "$SHARED" ro
fi
cp -L /etc/resolv.conf "$CHROOT/etc/resolv.conf"
# unstable's Release file is valid for a week only; a mirror snapshot (or a
# machine clock ahead of the mirror) must not stop the build root.
echo 'Acquire::Check-Valid-Until "false";' >"$CHROOT/etc/apt/apt.conf.d/99sqlnet-buildroot"
# No services start inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$CHROOT/usr/sbin/policy-rc.d"
chmod 755 "$CHROOT/usr/sbin/policy-rc.d"

# The chroot reaches the package registries the way the host does: the host's
# own CA certificates (a proxy's, say) are trusted inside too, pip's config and
# the proxy / CA-bundle variables are passed on.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$CHROOT/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$CHROOT/usr/local/share/ca-certificates/"
fi
if [ -f /etc/pip.conf ]; then cp /etc/pip.conf "$CHROOT/etc/pip.conf"; fi
PASS_ENV=()
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY SSL_CERT_FILE SSL_CERT_DIR \
         PIP_CERT REQUESTS_CA_BUNDLE NODE_EXTRA_CA_CERTS PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_DEFAULT_TIMEOUT; do
  if [ -n "${!v:-}" ]; then PASS_ENV+=("$v=${!v}"); fi
done

in_chroot() {
  chroot "$CHROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive TERM="${TERM:-dumb}" "${PASS_ENV[@]}" "$@"
}

# ---- 3. packages (again only when the list changed or on request) -------------
stamp="$CHROOT/.sqlnet-packages"
want="$(echo $PACKAGES)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ "${SQLNET_BUILDROOT_REFRESH:-0}" = 1 ]; then
  log "installing into $RELEASE: $want"
  start=$SECONDS
  in_chroot sh -c 'echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections'
  in_chroot apt-get update -qq
  [ "${SQLNET_BUILDROOT_REFRESH:-0}" = 1 ] && in_chroot apt-get upgrade -y -qq >/dev/null
  # shellcheck disable=SC2086
  in_chroot apt-get install -y -qq --no-install-recommends $want >/dev/null
  echo "$want" >"$stamp"
  log "package install took $((SECONDS - start)) s"
fi

in_chroot update-ca-certificates >/dev/null 2>&1 || true

# ---- 4. build and test ----------------------------------------------------------
WS_VERSION="$(in_chroot dpkg-query -W -f='${Version}' tshark)"
log "Debian $RELEASE ($(cat "$CHROOT/etc/debian_version")), Wireshark $WS_VERSION"
mkdir -p "$BUILD_DIR"
start=$SECONDS
set +e
# The fuzz budget and the sanitizer harness run once, on the host (./run.sh test):
# they test the plugin's code, which is the same for every release; so do the
# tests whose subject is not the release (SQLNET_RELEASE_DEPENDENT_ONLY=1,
# tests/conftest.py lists them; =0 runs them here too).
# Xvfb: the chroot's /tmp hides the host's X lock files but not its abstract
# sockets (same network namespace): each release searches its own displays.
case "$RELEASE" in bookworm) xvfb_base=200 ;; trixie) xvfb_base=300 ;; *) xvfb_base=400 ;; esac
# SQLNET_BUILDROOT_PREPARE=1: the root made, the plugin built and the test
# dependencies installed (pytest collects and runs nothing), then stop: CI
# prepares the next root while the one before it runs its tests.
if [ "${SQLNET_BUILDROOT_PREPARE:-0}" = 1 ]; then
  in_chroot SQLNET_BUILD_DIR="$BUILD_DIR" SQLNET_VENV="$VENV_DIR" SQLNET_FUZZ_TOOLS=0 \
    SQLNET_RELEASE_DEPENDENT_ONLY="${SQLNET_RELEASE_DEPENDENT_ONLY-1}" \
    bash "$ROOT/run.sh" test --collect-only -q >"$BUILD_DIR/prepare.log" 2>&1
  rc=$?
  echo "sqlnet build root $RELEASE prepared (exit $rc, $((SECONDS - start)) s; log $BUILD_DIR/prepare.log)"
  exit "$rc"
fi
run_tests() {  # run_tests GUI-SELECTION [pytest arguments...]
  local gui=$1
  shift
  in_chroot SQLNET_BUILD_DIR="$BUILD_DIR" SQLNET_VENV="$VENV_DIR" \
    SQLNET_FUZZ_SECONDS=0 SQLNET_FUZZ_TOOLS=0 SQLNET_XVFB_SERVERNUM="$xvfb_base" \
    SQLNET_RELEASE_DEPENDENT_ONLY="${SQLNET_RELEASE_DEPENDENT_ONLY-1}" \
    SQLNET_GUI_IO_CAPTURES="${SQLNET_GUI_IO_CAPTURES-sweep}" \
    SQLNET_GUI_IO_QUESTIONS="${SQLNET_GUI_IO_QUESTIONS-Q1,Q5,Q7}" SQLNET_TEST_GUI="$gui" \
    SQLNET_SCREENSHOT_DIR="${SQLNET_SCREENSHOT_DIR:-}" SQLNET_CAPTURE_SHARD="${SQLNET_CAPTURE_SHARD:-}" \
    SQLNET_MODULE_SHARD="${SQLNET_MODULE_SHARD:-}" \
    "${RUNNER[@]}" "$@"
}
# ./run.sh test builds, sets up and runs pytest; two of them at once would
# configure and build the same folder at once: beside each other, the two
# runs call pytest itself, after one ./run.sh test --collect-only
RUNNER=(bash "$ROOT/run.sh" test)
# SQLNET_BUILDROOT_GUI_BESIDE=1 (CI): the tests that open Wireshark's window
# run in a second pytest beside the others (they mostly wait for the window to
# draw); their log is build-RELEASE/buildroot-gui.log
GUI_LOG="$BUILD_DIR/buildroot-gui.log"
rm -f "$GUI_LOG"
if [ "${SQLNET_BUILDROOT_GUI_BESIDE:-0}" = 1 ]; then
  # built and set up once, before the two runs (with the tests' selection: a
  # root leaves the release-independent ones, Spark's Java among them, to the host)
  # A failed build (or set-up) stops here: the tests would otherwise run on
  # the plugin an earlier build left in the folder and blame the decoding.
  if ! in_chroot SQLNET_BUILD_DIR="$BUILD_DIR" SQLNET_VENV="$VENV_DIR" SQLNET_FUZZ_TOOLS=0 \
    SQLNET_RELEASE_DEPENDENT_ONLY="${SQLNET_RELEASE_DEPENDENT_ONLY-1}" \
    bash "$ROOT/run.sh" test --collect-only -q >"$BUILD_DIR/prepare.log" 2>&1; then
    echo "sqlnet build root $RELEASE: building the plugin or setting up the tests failed; no test run (log $BUILD_DIR/prepare.log):"
    { grep -E 'error|Error|ERROR' "$BUILD_DIR/prepare.log" || tail -20 "$BUILD_DIR/prepare.log"; } | head -20
    echo "sqlnet on Debian $RELEASE, Wireshark $WS_VERSION: build or set-up failed (exit 1, $((SECONDS - start)) s; log $BUILD_DIR/prepare.log)"
    exit 1
  fi
  RUNNER=("$VENV_DIR/bin/python" -m pytest "$ROOT/tests" -q -rfEs)
  run_tests only "$@" >"$GUI_LOG" 2>&1 &
  gui_pid=$!
  run_tests none "$@" 2>&1 | tee "$LOG"
  rc=${PIPESTATUS[0]}
  wait "$gui_pid" || rc=1
else
  run_tests "" "$@" 2>&1 | tee "$LOG"
  rc=${PIPESTATUS[0]}
fi
set -e
# (no match, e.g. with -q given twice: pytest then prints no summary line, and
# the script still ends with its line)
summary="$({ grep -E '^=+ .*(passed|failed|error|skipped).* =+$|^[0-9]+ (passed|failed|skipped|deselected|xfailed|xpassed|errors?)[, ]' "$LOG" || true; } | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')"
echo
if [ -f "$GUI_LOG" ]; then
  gsum="$({ grep -E '^=+ .*(passed|failed|error|skipped).* =+$|^[0-9]+ (passed|failed|skipped|deselected|xfailed|xpassed|errors?)[, ]' "$GUI_LOG" || true; } | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')"
  summary="${summary:-no pytest summary}; GUI: ${gsum:-no pytest summary} (log $GUI_LOG)"
fi
echo "sqlnet on Debian $RELEASE, Wireshark $WS_VERSION: ${summary:-no pytest summary} (exit $rc, $((SECONDS - start)) s; log $LOG)"
exit "$rc"
