#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report on one capture with the installed plugin: the wire AUTOTRACE, the statistics
# tree and the advisor, then per conversation the TNS version, SDU/TDU and packets.
#   ./run.sh report CAPTURE [--packets N]        (source tree)
#   sqlnet-report CAPTURE [--packets N]          (Debian package: ./run.sh package)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 CAPTURE [--packets N]" >&2; exit 2; }
here=$(dirname "$(readlink -f "$0")")
tshark -r "$1" -q -z sqlnet,stmt -z sqlnet,tree -z sqlnet,advise
exec python3 "$here/report.py" "$@"
