#!/bin/sh
# Install what tests/test_gui.py needs to run the real Wireshark (Qt) under a
# virtual X server: the Qt Wireshark (wireshark-qt on Debian 12, the wireshark
# package itself from Debian 13 on), xvfb (Xvfb, xvfb-run), xauth, x11-utils
# (xwininfo), xdotool (find and drive the window), xclip (read the text a window
# copies) and imagemagick (import:
# screenshots). Debian 12, apt, non-interactive; installs only what is
# missing, so it is safe to run again. Needs root (or sudo).
set -eu

pkgs="xvfb xauth x11-utils xdotool imagemagick xclip"

missing=
command -v wireshark >/dev/null 2>&1 || missing=" WIRESHARK_GUI"
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -z "$missing" ]; then
    echo "setup_gui: all present ($pkgs)"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "setup_gui: missing:$missing; run as root" >&2; exit 1
    fi
else
    SUDO=
fi

echo "setup_gui: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# wireshark-common asks whether non-root users may capture; keep the default.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections 2>/dev/null || true
$SUDO apt-get update -qq
if apt-cache show wireshark-qt 2>/dev/null | grep -q '^Package: wireshark-qt'; then gui=wireshark-qt; else gui=wireshark; fi
missing=$(echo "$missing" | sed "s/WIRESHARK_GUI/$gui/")
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
