#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/package_test.sh RELEASE - the Debian package in a clean root of RELEASE:
# build it there (./run.sh package), apt-get install ./the.deb, check that tshark lists
# the plugin, run the report (sqlnet-report, the packaged ./run.sh report) on
# test-captures/sweep_arraysize.pcapng as an unprivileged user and compare its round
# trips with the capture's manifest, install the profile, then apt-get remove --purge
# and check that none of the package's files is left.
#
#   RELEASE   trixie | 4.4, sid | 4.6: the build root made by scripts/buildroot.sh
#             (SQLNET_BUILDROOTS, default /var/cache/sqlnet/buildroots/RELEASE);
#             bookworm | 4.0: that build root if there is one, otherwise the host
#             itself when it is Debian 12
#
# The root is never changed: everything runs on an overlay (lower: the root, upper: a
# tmpfs) in a private mount namespace, which vanishes at the end. The build goes to
# build-RELEASE/ of this checkout (as with scripts/buildroot.sh, which CI runs first, so
# that only the packaging is new). Needs root; skips (exit 77) without the build root.
set -euo pipefail

main() {
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '== package_test: %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

case "${1:-}" in
  bookworm|4.0|12) RELEASE=bookworm ;;
  trixie|4.4|13)   RELEASE=trixie ;;
  sid|unstable|4.6) RELEASE=sid ;;
  *) sed -n '2,19p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { log "skipped: needs root (mounts, chroot)"; exit 77; }
  exec sudo -E bash "${BASH_SOURCE[0]}" "$RELEASE"
fi
LOWER="${SQLNET_BUILDROOTS:-/var/cache/sqlnet/buildroots}/$RELEASE"
if [ ! -f "$LOWER/.sqlnet-bootstrapped" ]; then
  if [ "$RELEASE" = bookworm ] && grep -q '^12\.' /etc/debian_version 2>/dev/null; then
    LOWER=/                 # the host, under an overlay: nothing is installed on it
  else
    log "skipped: no build root $LOWER (scripts/buildroot.sh $RELEASE makes it)"; exit 77
  fi
fi

if [ -z "${SQLNET_PACKAGE_TEST_INNER:-}" ]; then
  TMP=$(mktemp -d /tmp/sqlnet-package-test.XXXXXX)
  set +e
  SQLNET_PACKAGE_TEST_INNER=$TMP unshare --mount --propagation private bash "${BASH_SOURCE[0]}" "$RELEASE"
  rc=$?
  set -e
  rmdir "$TMP" 2>/dev/null || rm -rf "$TMP"
  exit $rc
fi

# ---- the overlay, in this private mount namespace --------------------------------
start=$SECONDS
TMP=$SQLNET_PACKAGE_TEST_INNER
mount -t tmpfs -o mode=755 sqlnet-pkgtest "$TMP"
mkdir "$TMP/upper" "$TMP/work" "$TMP/root"
mount -t overlay overlay -o "lowerdir=$LOWER,upperdir=$TMP/upper,workdir=$TMP/work" "$TMP/root"
R=$TMP/root
mount -t proc proc "$R/proc"
mount --bind /sys "$R/sys"; mount -o remount,bind,ro "$R/sys"
mount --bind /dev "$R/dev"
mount --bind /dev/pts "$R/dev/pts"
mount -t tmpfs -o mode=1777 shm "$R/dev/shm"
mount -t tmpfs -o mode=755 run "$R/run"
mount -t tmpfs -o mode=1777 tmp "$R/tmp"
mkdir -p "$R$ROOT"
mount --bind "$ROOT" "$R$ROOT"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"; chmod 755 "$R/usr/sbin/policy-rc.d"
# the logs (apt, report, file list) stay in build-RELEASE/package-test/
keep_logs() { mkdir -p "$ROOT/build-$RELEASE/package-test"; cp "$R"/tmp/*.log "$R"/tmp/*.txt "$ROOT/build-$RELEASE/package-test/" 2>/dev/null || true; }
trap keep_logs EXIT
in_root() {
  chroot "$R" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
as_user() {   # an unprivileged user: tshark as root ignores nothing here, but a user is what runs it
  in_root setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp/pt/home "$@"
}
WS=$(in_root dpkg-query -W -f='${Version}' tshark)
log "Debian $RELEASE ($(cat "$R/etc/debian_version")), Wireshark $WS; root $LOWER under an overlay"

# ---- build the package there -------------------------------------------------------
t=$SECONDS
BUILD_DIR=$ROOT/build-$RELEASE
in_root env SQLNET_BUILD_DIR="$BUILD_DIR" SQLNET_PACKAGE_DIR="/tmp/deb" bash "$ROOT/run.sh" package \
  >"$R/tmp/package.log" 2>&1 || { cat "$R/tmp/package.log"; die "./run.sh package"; }
DEB=$(ls "$R"/tmp/deb/sqlnet-wireshark*.deb)
PKG=$(dpkg-deb -f "$DEB" Package)
log "built $(basename "$DEB") in $((SECONDS - t)) s"
cp "$DEB" "$R/tmp/"; chmod 644 "$R/tmp/$(basename "$DEB")"

# ---- install ------------------------------------------------------------------------
t=$SECONDS
# a clean start: no copy of the package's files (a hand install, ./run.sh install as root,
# is possible on the host) - removed in the overlay only - and no sqlnet plugin loaded
while read -r f; do
  f=${f#.}
  if [ -f "$R$f" ] || [ -L "$R$f" ]; then log "removing (in the overlay) a copy installed by hand: $f"; rm -f "$R$f"; fi
done < <(dpkg-deb --fsys-tarfile "$DEB" | tar -t)
mkdir -p "$R/tmp/pt/home"; chmod -R a+rwX "$R/tmp/pt"
as_user tshark -G plugins >"$R/tmp/plugins-before.txt" 2>&1
grep -q '^sqlnet\.so' "$R/tmp/plugins-before.txt" && die "sqlnet.so listed before the install"
if ! in_root apt-get install -y -q --no-install-recommends "/tmp/$(basename "$DEB")" \
     >"$R/tmp/apt.log" 2>&1; then
  cat "$R/tmp/apt.log"; die "apt-get install ./$(basename "$DEB")"
fi
grep -Eq '^Get:[0-9]+ +(https?|ftp):' "$R/tmp/apt.log" && die "apt-get downloaded something: the build root lacks a dependency"
in_root dpkg --audit | grep . && die "dpkg --audit"
in_root apt-get check -q >/dev/null || die "apt-get check"
log "installed with apt-get in $((SECONDS - t)) s"

# ---- use -----------------------------------------------------------------------------
mkdir -p "$R/tmp/pt/home"
cp "$ROOT/test-captures/sweep_arraysize.pcapng" "$R/tmp/pt/"
chmod -R a+rwX "$R/tmp/pt"
as_user tshark -G plugins >"$R/tmp/plugins.txt" 2>&1
grep -E '^sqlnet\.so[[:space:]]' "$R/tmp/plugins.txt" || die "tshark -G plugins does not list sqlnet.so"
as_user sqlnet-report /tmp/pt/sweep_arraysize.pcapng >"$R/tmp/report.txt" 2>"$R/tmp/report.err" \
  || { cat "$R/tmp/report.err"; die "sqlnet-report"; }
grep -q 'Lua: Error\|not loaded' "$R/tmp/report.err" && { cat "$R/tmp/report.err"; die "Lua error"; }
python3 - "$R/tmp/report.txt" "$ROOT/test-captures/sweep_arraysize.json" <<'PY' || die "report"
import json, re, sys
out = open(sys.argv[1]).read()
manifest = json.load(open(sys.argv[2]))
want = sum(c["stats"]["round_trips"] for c in manifest["connections"])
got = sum(int(n) for n in re.findall(r"^  SQL\*Net roundtrips to/from client +(\d+)$", out, re.M))
for heading in ("SQL*Net statements (wire AUTOTRACE)",):
    assert heading in out, f"no '{heading}' in the report"
assert got == want, f"round trips in the report {got}, in the manifest {want}"
print(f"== package_test: the report's round trips: {got}, the manifest's: {want}", file=sys.stderr)
PY
as_user sh /usr/share/sqlnet/scripts/install_profile.sh >/dev/null
[ -f "$R/tmp/pt/home/.config/wireshark/profiles/SQLNet/preferences" ] || die "install_profile.sh"

# ---- remove --------------------------------------------------------------------------
in_root dpkg -L "$PKG" >"$R/tmp/files.txt"
in_root apt-get remove --purge -y -q "$PKG" >"$R/tmp/remove.log" 2>&1 || { cat "$R/tmp/remove.log"; die "apt-get remove"; }
in_root dpkg -s "$PKG" >/dev/null 2>&1 && die "$PKG still known to dpkg"
left=0
while read -r f; do
  if [ -L "$R$f" ] || { [ -e "$R$f" ] && [ ! -d "$R$f" ]; }; then log "left behind: $f"; left=1; fi
done <"$R/tmp/files.txt"
for d in /usr/share/sqlnet "/usr/share/doc/$PKG"; do
  [ -e "$R$d" ] && { log "left behind: $d"; left=1; }
done
[ $left = 0 ] || die "files left after apt-get remove --purge"
log "removed with apt-get remove --purge: none of its $(wc -l <"$R/tmp/files.txt") paths left"

echo "sqlnet package on Debian $RELEASE, Wireshark $WS: OK ($PKG installed, listed, reported, purged; $((SECONDS - start)) s)"
}
main "$@"
exit $?
