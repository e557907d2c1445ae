#!/bin/sh
# Install the Wireshark configuration profile "SQLNet" (profiles/SQLNet) into
# the personal configuration folder: $HOME/.config/wireshark/profiles/SQLNet,
# or DIR/.config/wireshark/profiles/SQLNet with --home DIR.
# An existing SQLNet profile is replaced (files Wireshark added to it, such as
# "recent", are kept; the profile's own "recent", column widths only, is
# installed when there is none). Then: wireshark -C SQLNet, tshark -C SQLNet.
set -eu

usage() { echo "usage: $0 [--home DIR]" >&2; exit 2; }

home=${HOME:-}
while [ $# -gt 0 ]; do
    case $1 in
        --home) [ $# -ge 2 ] || usage; home=$2; shift 2 ;;
        --home=*) home=${1#--home=}; shift ;;
        -h|--help) echo "usage: $0 [--home DIR]"; exit 0 ;;
        *) usage ;;
    esac
done
[ -n "$home" ] || { echo "$0: HOME is not set; use --home DIR" >&2; exit 2; }

src=$(cd "$(dirname "$0")/.." && pwd)/profiles/SQLNet
dst=$home/.config/wireshark/profiles/SQLNet
[ -d "$src" ] || { echo "$0: $src not found" >&2; exit 1; }

mkdir -p "$dst"
for f in preferences colorfilters dfilter_buttons io_graphs; do
    cp "$src/$f" "$dst/$f"
    chmod 644 "$dst/$f"
done
# column widths: only into a profile that has none yet (Wireshark keeps its
# own state in "recent": the widths you drag, pane sizes)
if [ ! -e "$dst/recent" ]; then
    cp "$src/recent" "$dst/recent"
    chmod 644 "$dst/recent"
fi
echo "SQLNet profile installed in $dst"
echo "use it with: wireshark -C SQLNet   or   tshark -C SQLNet"
