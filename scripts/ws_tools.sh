#!/usr/bin/env bash
# Wireshark's own source checkers for tests/test_ws_checkers.py: the tools/ folder of
# Debian's wireshark source package (the release of this machine), fetched with
# `apt-get source` and unpacked into a cache; prints the tools folder.
#
# Nothing of Wireshark is kept in this repository: the checkers (tools/checkAPIs.pl,
# checkhf.pl, checkfiltername.pl, check_typed_item_calls.py, ...) come from the package
# registry each time a machine has no copy. apt works on private lists (the machine's
# own apt sources turned into deb-src, under the cache): the machine's apt state is not
# touched. The source package's version and the orig tarball's SHA-256 (checked by apt
# against the signed Sources index) are written to PROVENANCE beside tools/.
#
#   scripts/ws_tools.sh [CACHE]     CACHE: default $SQLNET_WS_TOOLS_CACHE or /var/cache/sqlnet/ws-tools
#
# Exit 0 with the folder printed, or non-zero with the reason on stderr.
set -euo pipefail
cache=${1:-${SQLNET_WS_TOOLS_CACHE:-/var/cache/sqlnet/ws-tools}}
mkdir -p "$cache"
found=$(ls -d "$cache"/wireshark-*/tools 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$found" ] && [ -f "$found/checkAPIs.pl" ]; then
  echo "$found"
  exit 0
fi

apt_dir="$cache/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/sources.list.d"
# the machine's own apt sources, as deb-src
: >"$apt_dir/sources.list"
if [ -f /etc/apt/sources.list ]; then
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >>"$apt_dir/sources.list"
fi
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
done
for f in /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
done
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o "Dir::Cache::archives=$apt_dir/archives"
          -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1")
apt-get "${apt_opts[@]}" -qq update >&2 || { echo "ws_tools: apt-get update (deb-src) failed" >&2; exit 1; }
version=$(apt-cache "${apt_opts[@]}" showsrc wireshark 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)
[ -n "$version" ] || { echo "ws_tools: no wireshark source package in the machine's apt sources" >&2; exit 1; }

work=$(mktemp -d "$cache/dl.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get "${apt_opts[@]}" -qq source --download-only "wireshark=$version" >&2) ||
  { echo "ws_tools: apt-get source wireshark=$version failed" >&2; exit 1; }
orig=$(ls "$work"/wireshark_*.orig.tar.* | head -1)
upstream=${version%%-*}
dest="$cache/wireshark-$upstream"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xf "$orig" -C "$dest.tmp" --strip-components=1 --wildcards '*/tools/*' '*/COPYING'
{
  echo "Debian source package wireshark $version: $(basename "$orig")"
  echo "sha256 $(sha256sum "$orig" | cut -d' ' -f1)"
  echo "unpacked by scripts/ws_tools.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ); tools/ and COPYING only"
} >"$dest.tmp/PROVENANCE"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest/tools"
