#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/package.sh - a Debian package of the built plugin for the Wireshark it was built
# against (./run.sh package builds first):
#   BUILD/sqlnet-wireshark<major.minor>_<version>_<arch>.deb
# holding the module in that Wireshark's global plugin folder (<plugindir>/epan/sqlnet.so),
# the Lua scripts in the global Lua plugin folder, the SQLNet profile and its installer
# and the report under /usr/share/sqlnet (/usr/bin/sqlnet-report), README and LICENSE
# (as copyright) under /usr/share/doc/<package>. Depends on the exact libwireshark
# package (>= the version built against, << the next minor: a plugin works with one
# major.minor only) and tshark. Tested by tests/test_package.py (the package's fields and
# files) and scripts/package_test.sh (install, use, purge in a build root).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${SQLNET_BUILD_DIR:-$ROOT/build}
OUT=${SQLNET_PACKAGE_DIR:-$BUILD}          # where the .deb (and its staging tree) go
log() { printf '== package: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

MODULE=$(find "$BUILD/plugins" -path '*/epan/sqlnet.so' 2>/dev/null | sort | tail -1)
[ -n "$MODULE" ] || die "no sqlnet.so under $BUILD/plugins: ./run.sh build first"
RELEASE=$(basename "$(dirname "$(dirname "$MODULE")")")           # 4.0, 4.4, ...

# The global plugin folder: libwireshark's own (pkg-config); tshark -G folders says the
# same on a consistent install, and where its global Lua plugins are read from
PLUGINDIR=$(pkg-config --variable=plugindir wireshark)
TS_PLUGINS=$(tshark -G folders 2>/dev/null | sed -n 's/^Global Plugins:[[:space:]]*//p')
LUADIR=$(tshark -G folders 2>/dev/null | sed -n 's/^Global Lua Plugins:[[:space:]]*//p')
[ -n "$PLUGINDIR" ] || die "pkg-config knows no plugindir for wireshark (libwireshark-dev)"
[ "$(basename "$PLUGINDIR")" = "$RELEASE" ] || die "built for $RELEASE, but libwireshark's plugindir is $PLUGINDIR"
if [ -n "$TS_PLUGINS" ] && [ "$TS_PLUGINS" != "$PLUGINDIR" ]; then
  log "tshark -G folders says $TS_PLUGINS, libwireshark (pkg-config) $PLUGINDIR: using libwireshark's"
fi
[ -n "$LUADIR" ] || LUADIR=$(dirname "$PLUGINDIR")

VERSION=$(cat plugin/VERSION)
ARCH=$(dpkg --print-architecture)
PKG=sqlnet-wireshark$RELEASE
DEB=$OUT/${PKG}_${VERSION}_${ARCH}.deb

# the package that ships each library the module links (libwireshark: versioned)
deps=()
libws=
while read -r lib; do
  # (no early exit in a pipe: with pipefail a reader that stops first fails the whole)
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && !p { print $NF; p = 1 }')
  [ -n "$path" ] || die "library $lib not found"
  owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p') \
    || owner=$(dpkg -S "$path" | sed -n '1s/:.*//p')
  case "$lib" in libwireshark.so.*) libws=$owner ;; *) deps+=("$owner") ;; esac
done < <(objdump -p "$MODULE" | awk '$1 == "NEEDED" { print $2 }')
[ -n "$libws" ] || die "sqlnet.so does not link libwireshark"
wsver=$(dpkg-query -W -f='${Version}' "$libws")
epoch=; case "$wsver" in *:*) epoch=${wsver%%:*}: ;; esac
upstream=${wsver#*:}; upstream=${upstream%%-*}                  # 4.0.17
major=${RELEASE%%.*}; minor=${RELEASE#*.}
DEPENDS="$libws (>= $epoch$upstream), $libws (<< $epoch$major.$((minor + 1))~), tshark, python3"
for d in $(printf '%s\n' "${deps[@]}" | sort -u); do DEPENDS="$DEPENDS, $d"; done

mkdir -p "$OUT"
STAGE=$OUT/package-root
rm -rf "$STAGE"
install -d "$STAGE$PLUGINDIR/epan"
strip --strip-unneeded -o "$STAGE$PLUGINDIR/epan/sqlnet.so" "$MODULE"      # no debug info
chmod 644 "$STAGE$PLUGINDIR/epan/sqlnet.so"
for f in lua/*.lua; do install -D -m 644 "$f" "$STAGE$LUADIR/$(basename "$f")"; done
SHARE=$STAGE/usr/share/sqlnet
for f in profiles/SQLNet/*; do install -D -m 644 "$f" "$SHARE/profiles/SQLNet/$(basename "$f")"; done
install -D -m 644 profiles/README.md "$SHARE/profiles/README.md"
install -D -m 755 scripts/install_profile.sh "$SHARE/scripts/install_profile.sh"
install -D -m 755 scripts/sqlnet_report.sh "$SHARE/scripts/sqlnet_report.sh"
install -D -m 644 scripts/report.py "$SHARE/scripts/report.py"
mkdir -p "$STAGE/usr/bin"
ln -s ../share/sqlnet/scripts/sqlnet_report.sh "$STAGE/usr/bin/sqlnet-report"
DOC=$STAGE/usr/share/doc/$PKG
install -D -m 644 README.md "$DOC/README.md"
install -D -m 644 LICENSE "$DOC/copyright"
[ -f docs/install.md ] && install -D -m 644 docs/install.md "$DOC/install.md"

mkdir -p "$STAGE/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
cat > "$STAGE/DEBIAN/control" <<CONTROL
Package: $PKG
Version: $VERSION
Architecture: $ARCH
Maintainer: sqlnet developers <sqlnet@localhost>
Installed-Size: $size
Depends: $DEPENDS
Provides: sqlnet-wireshark-plugin
Conflicts: sqlnet-wireshark-plugin
Replaces: sqlnet-wireshark-plugin
Section: net
Priority: optional
Description: Oracle SQL*Net (TNS/TTC) analysis plugin for Wireshark $RELEASE
 sqlnet decodes Oracle Net traffic in Wireshark and tshark: the TNS packet layer
 and the TTC calls, rows and errors inside it, with per-statement reports
 (-z sqlnet,stmt, -z sqlnet,advise), Lua reports and the SQLNet profile
 (install it with: sh /usr/share/sqlnet/scripts/install_profile.sh).
 Built for Wireshark $upstream ($libws); works with Wireshark $RELEASE only.
CONTROL
(cd "$STAGE" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
  > "$STAGE/DEBIAN/md5sums"
rm -f "$OUT"/sqlnet-wireshark*.deb
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$DEB" >/dev/null
log "$DEB"
echo "$DEB"
