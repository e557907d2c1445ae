"""Wireshark release differences live in plugin/core/compat.h only (issue 7):
no other plugin file tests the version itself."""
import re

from tshark import ROOT

VERSION_TEST = re.compile(r"^\s*#\s*(if|elif|ifdef|ifndef)\b.*(WIRESHARK_VERSION|SQLNET_WS_AT_LEAST|VERSION_MAJOR|VERSION_MINOR)")


def test_version_tests_only_in_compat_h():
    offenders = []
    for path in sorted((ROOT / "plugin").rglob("*.[ch]")):
        if path.name == "compat.h":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if VERSION_TEST.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def test_compat_h_is_included_through_sqlnet_h():
    assert '#include "compat.h"' in (ROOT / "plugin" / "core" / "sqlnet.h").read_text()
