#!/bin/sh
# Install the Wireshark configuration profile "SQLNet" (profiles/SQLNet) into
# the personal configuration folder: $HOME/.config/wireshark/profiles/SQLNet,
# or DIR/.config/wireshark/profiles/SQLNet with --home DIR.
# An existing SQLNet profile is replaced: preferences, colorfilters,
# dfilter_buttons and io_graphs are copied over. "recent" is Wireshark's own
# file (dragged widths, panes): a new profile gets the profile's column
# widths; an existing "recent" keeps every line, except that its
# column.width block is replaced by the profile's when it is missing, holds a
# width of -1 (Wireshark writes -1 on quit for a width it could not match to
# a column) or names other columns than the profile's, or in another form.
# The form: Wireshark 4.0, 4.4 and 4.6 write and match a custom column's
# width as "%Cus:<fields>" (no occurrence, no R/U); the installed version
# (wireshark --version, else tshark --version) is named in the output.
# Then: wireshark -C SQLNet, tshark -C SQLNet.
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

# The installed Wireshark's version (the GUI reads "recent"; tshark as a
# fallback), e.g. 4.0.17; empty when neither is installed.
ws_version() {
    for prog in wireshark tshark; do
        command -v "$prog" >/dev/null 2>&1 || continue
        v=$("$prog" --version 2>/dev/null | sed -n '1s/^[A-Za-z]* *(*[A-Za-z]*)* *\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
        [ -n "$v" ] && { echo "$v"; return; }
    done
}
version=$(ws_version)
case $version in
    4.[0-6].*) form="Wireshark $version" ;;
    "") form="no Wireshark found; the form of Wireshark 4.0-4.6" ;;
    *) form="Wireshark $version: not checked, the form of Wireshark 4.0-4.6" ;;
esac

# The column.width block of a recent file: the key line and its indented
# continuation lines.
width_block() {
    awk '/^column\.width:/ { on = 1; print; next }
         on && /^[ \t]/ { print; next }
         { on = 0 }' "$1"
}

# "ok" when a column.width block (stdin) names exactly the columns of $1 (a
# column.width block), in order and in the same form, with positive widths.
width_block_ok() {
    awk -v want="$1" '
        function pairs(text, out,    n, i, parts, s) {
            sub(/^column\.width:/, "", text)
            n = split(text, parts, ",")
            for (i = 1; i <= n; i++) {
                s = parts[i]
                gsub(/^[ \t\n]+|[ \t\n]+$/, "", s)
                gsub(/"/, "", s)
                out[i] = s
            }
            return n
        }
        { text = text $0 "\n" }
        END {
            n = pairs(text, got); m = pairs(want, wanted)
            if (n != m || n == 0 || n % 2) { print "bad"; exit }
            for (i = 1; i <= n; i += 2) {
                if (got[i] != wanted[i]) { print "bad"; exit }
                w = got[i + 1]; sub(/:.*/, "", w)
                if (w !~ /^[0-9]+$/ || w + 0 < 1) { print "bad"; exit }
            }
            print "ok"
        }'
}

mkdir -p "$dst"
for f in preferences colorfilters dfilter_buttons io_graphs; do
    cp "$src/$f" "$dst/$f"
    chmod 644 "$dst/$f"
done

want=$(width_block "$src/recent")
if [ ! -e "$dst/recent" ]; then
    cp "$src/recent" "$dst/recent"
    chmod 644 "$dst/recent"
    echo "column widths installed ($form)"
elif [ "$(width_block "$dst/recent" | width_block_ok "$want")" = ok ]; then
    echo "column widths kept: $dst/recent has a width for every column"
else
    tmp=$dst/recent.sqlnet-install.$$
    # the file without its column.width block, then the profile's block
    # (Wireshark's own comment lines above the old block stay; harmless)
    awk '/^column\.width:/ { on = 1; next }
         on && /^[ \t]/ { next }
         { on = 0; print }' "$dst/recent" >"$tmp"
    printf '%s\n' "$want" >>"$tmp"
    chmod 644 "$tmp"
    mv "$tmp" "$dst/recent"
    echo "column widths repaired in $dst/recent ($form)"
fi
echo "SQLNet profile installed in $dst"
echo "use it with: wireshark -C SQLNet   or   tshark -C SQLNet"
