#!/usr/bin/env bash
# Install everything the capture generator needs on a fresh Debian 12 (run as root).
# Idempotent: installs only what is missing.  Clients whose toolchain is absent
# (node/npm, go) are skipped with a message; tests then skip them too.
#
#   PYTHON=python3 bash testgen/setup.sh
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="${PYTHON:-python3}"
export DEBIAN_FRONTEND=noninteractive

need_pkgs=()
command -v tshark    >/dev/null 2>&1 || need_pkgs+=(tshark)
command -v dumpcap   >/dev/null 2>&1 || need_pkgs+=(tshark)
command -v text2pcap >/dev/null 2>&1 || need_pkgs+=(tshark)
command -v ip        >/dev/null 2>&1 || need_pkgs+=(iproute2)
command -v tc        >/dev/null 2>&1 || [ -x /usr/sbin/tc ] || need_pkgs+=(iproute2)   # WAN scenarios (netem)
command -v ethtool   >/dev/null 2>&1 || [ -x /usr/sbin/ethtool ] || need_pkgs+=(ethtool)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install: ${need_pkgs[*]}" >&2
  else
    # tshark asks whether non-root users may capture: answer no, non-interactively
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections || true
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $(printf '%s\n' "${need_pkgs[@]}" | sort -u)
  fi
fi

# Python: server + python-oracledb client
if ! "$PYTHON" -c 'import oracledb, cryptography' >/dev/null 2>&1 \
   || [ "$("$PYTHON" -c 'import oracledb; print(oracledb.__version__)')" != "26.1.0" ]; then
  "$PYTHON" -m pip install -q -r "$HERE/requirements.txt"
fi

# node-oracledb
if command -v npm >/dev/null 2>&1; then
  if [ ! -d "$HERE/clients/node/node_modules/oracledb" ]; then
    (cd "$HERE/clients/node" && npm ci --no-audit --no-fund --loglevel=error)
  fi
else
  echo "setup: npm not found - node-oracledb client skipped" >&2
fi

# go-ora
GO="$(command -v go || true)"
[ -z "$GO" ] && [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go
if [ -n "$GO" ]; then
  (cd "$HERE/clients/goora" && "$GO" mod download && CGO_ENABLED=0 "$GO" build -o bin/goora-client .)
else
  echo "setup: go not found - go-ora client skipped" >&2
fi

# JDBC thin: OpenJDK 17 (Debian) + ojdbc11 / ojdbc8 from Maven Central, pinned by SHA-256
if ! command -v javac >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless >/dev/null || true
  else
    echo "setup: javac not found - JDBC client skipped" >&2
  fi
fi
if command -v javac >/dev/null 2>&1; then
  mkdir -p "$HERE/clients/jdbc/lib"
  while read -r artifact version sha; do
    jar="$HERE/clients/jdbc/lib/$artifact-$version.jar"
    if [ ! -f "$jar" ] || ! echo "$sha  $jar" | sha256sum -c --quiet - >/dev/null 2>&1; then
      url="https://repo1.maven.org/maven2/com/oracle/database/jdbc/$artifact/$version/$artifact-$version.jar"
      # curl where there is one (a build root may have none): python3 is always here
      if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$jar.part" "$url" || rm -f "$jar.part"
      else
        python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
          "$url" "$jar.part" || rm -f "$jar.part"
      fi
      if [ -f "$jar.part" ] && echo "$sha  $jar.part" | sha256sum -c --quiet -; then
        mv "$jar.part" "$jar"
      else
        rm -f "$jar.part"
        echo "setup: $artifact $version not downloaded - JDBC client skipped" >&2
      fi
    fi
  done <<'JARS'
ojdbc11 23.26.0.0.0 ef295bf01374dac7d791b3bc6526d10e8910ecac4645a95a3ca0c01cfc5c21d0
ojdbc8 23.26.0.0.0 1b869a7537dd327a608fefed93caefdf4c09759d483a3ddd97b0800d6ae4947d
JARS
fi

echo "setup: done"
