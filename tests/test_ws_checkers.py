"""Wireshark's own dissector checkers on plugin/: any finding fails.

The checkers are Wireshark's (GPL-2.0-or-later), not kept in this repository:
scripts/ws_tools.sh unpacks the tools/ folder of Debian's wireshark source
package into /var/cache/sqlnet/ws-tools (.ci/run calls it before the tests);
SQLNET_WS_TOOLS may name another tools/ folder (a Wireshark checkout's, for
the checkers Debian 12's 4.0 source does not have yet). A checker missing from
the folder is skipped, and the whole module when there is no folder.

How each is run, as Wireshark runs it where the checker allows:
* checkAPIs.pl: as Wireshark's CMake runs it for a plugin (plugins/epan/*/CMakeLists.txt:
  --group dissectors-prohibited --group dissectors-restricted over the .c and .h files).
* checkhf.pl: per .c file, and over all of them as one file (a field registered in
  one file and used in another).
* checkfiltername.pl, check_typed_item_calls.py, check_val_to_str.py,
  check_col_apis.py: these check only files named packet-ABBREV.c (the protocol
  abbreviation comes from the name) and match fields to their registration within
  one file, so the plugin's .c files are given to them joined into one
  packet-sqlnet.c; findings are reported at the plugin file and line.
A finding is every line the checker prints as an error or warning (checkhf.pl
and checkfiltername.pl print only findings), or a non-zero exit.

test_checker_finds_planted_faults runs each checker, the same way, on a small
dissector written here with one fault per checker, so a run that checks nothing
(a file the checker ignores, a changed output format) fails instead of passing.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugin"
CACHE = Path(os.environ.get("SQLNET_WS_TOOLS_CACHE", "/var/cache/sqlnet/ws-tools"))
CHECKERS = ["checkAPIs.pl", "checkhf.pl", "checkfiltername.pl", "check_typed_item_calls.py",
            "check_val_to_str.py", "check_col_apis.py"]


def tools_dir():
    if os.environ.get("SQLNET_WS_TOOLS"):
        return Path(os.environ["SQLNET_WS_TOOLS"])
    found = sorted(CACHE.glob("wireshark-*/tools"), key=lambda p: [int(x) if x.isdigit() else x for x in
                                                                    re.split(r"(\d+)", p.parent.name)])
    return found[-1] if found else None


TOOLS = tools_dir()


def provenance():
    p = TOOLS.parent / "PROVENANCE" if TOOLS else None
    return p.read_text().splitlines()[0] if p and p.is_file() else str(TOOLS)


def joined(sources, tmp):
    """The .c files as one epan/dissectors/packet-sqlnet.c under tmp, with a map
    from its line numbers back to (file, line)."""
    target = tmp / "epan" / "dissectors" / "packet-sqlnet.c"
    target.parent.mkdir(parents=True, exist_ok=True)
    spans, text, line = [], [], 1
    for src in sources:
        body = src.read_text(errors="replace")
        if not body.endswith("\n"):
            body += "\n"
        n = body.count("\n")
        spans.append((line, line + n - 1, src))
        text.append(body)
        line += n
    target.write_text("".join(text))

    def where(m):
        no = int(m.group(1))
        for lo, hi, src in spans:
            if lo <= no <= hi:
                return f"{src.relative_to(ROOT) if src.is_relative_to(ROOT) else src.name}:{no - lo + 1}"
        return m.group(0)
    return target, lambda s: re.sub(r"\S*packet-sqlnet\.c:(\d+)", where, s)


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def findings(checker, c_files, h_files, tmp):
    """The findings of one checker on these sources, as text lines."""
    tool = TOOLS / checker
    rel = [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in c_files]
    if checker == "checkAPIs.pl":
        rc, out = run(["perl", str(tool), "--group", "dissectors-prohibited", "--group", "dissectors-restricted",
                       *rel, *[str(p.relative_to(ROOT)) for p in h_files]], cwd=ROOT)
        lines = [ln for ln in out.splitlines() if re.match(r"\s*(Error|Warning)", ln)]
        return lines or ([f"exit {rc}: {out.strip()}"] if rc else [])
    if checker == "checkhf.pl":
        target, fix = joined(c_files, tmp)
        lines = []
        for f in [*rel, str(target)]:
            rc, out = run(["perl", str(tool), f], cwd=ROOT)
            lines += [fix(ln) for ln in out.splitlines() if ln.strip()]
            if rc:
                lines.append(f"{f}: exit {rc}")
        return lines
    target, fix = joined(c_files, tmp)
    if checker == "checkfiltername.pl":
        rc, out = run(["perl", str(tool), "--showlineno", str(target)])
        lines = [re.sub(r"^(\d+) ", lambda m: fix(f"packet-sqlnet.c:{m.group(1)}") + " ", ln)
                 for ln in out.splitlines() if ln.strip()]
        return lines or ([f"exit {rc}"] if rc else [])
    extra = ["--mask", "--label", "--consecutive"] if checker == "check_typed_item_calls.py" else []
    rc, out = run([sys.executable, str(tool), "--file", "epan/dissectors/packet-sqlnet.c", *extra], cwd=tmp)
    lines = [fix(ln) for ln in out.splitlines() if re.match(r"\s*(Error|Warning)", ln)]
    return lines or ([f"exit {rc}: {out.strip()[-500:]}"] if rc else [])


def need(checker):
    if TOOLS is None:
        pytest.skip("Wireshark's checkers not found: run scripts/ws_tools.sh (.ci/run does) or set SQLNET_WS_TOOLS")
    if not (TOOLS / checker).is_file():
        pytest.skip(f"{checker} is not in {provenance()}")


@pytest.mark.parametrize("checker", CHECKERS)
def test_plugin_is_clean(checker, tmp_path):
    need(checker)
    c_files = sorted(PLUGIN.rglob("*.c"))
    h_files = sorted(PLUGIN.rglob("*.h"))
    assert len(c_files) > 10
    found = findings(checker, c_files, h_files, tmp_path)
    assert not found, f"{checker} ({provenance()}) on plugin/:\n" + "\n".join(found)


PLANTED = r'''
#include "config.h"
#include <stdio.h>
#include <epan/packet.h>

static int proto_sqlnet = -1;
static int hf_sqlnet_len = -1;
static int hf_sqlnet_unused = -1;
static const value_string kinds[] = { { 1, "one" }, { 0, NULL } };

static int dissect_sqlnet(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    char buf[16];
    sprintf(buf, "%d", 1);
    col_add_fstr(pinfo->cinfo, COL_INFO, "no specifier");
    col_add_str(pinfo->cinfo, COL_INFO, val_to_str(tvb_get_guint8(tvb, 0), kinds, "Unknown"));
    proto_tree_add_uint(tree, hf_sqlnet_len, tvb, 0, 1, 1);
    return tvb_captured_length(tvb);
}

void proto_register_sqlnet(void)
{
    static hf_register_info hf[] = {
        { &hf_sqlnet_len, { "Length", "tnsx.len", FT_STRING, BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_sqlnet_unused, { "Unused", "sqlnet.unused", FT_UINT8, BASE_DEC, NULL, 0x0, NULL, HFILL } },
    };
    proto_sqlnet = proto_register_protocol("SQLNet", "SQLNET", "sqlnet");
    proto_register_field_array(proto_sqlnet, hf, array_length(hf));
    register_dissector("sqlnet", dissect_sqlnet, proto_sqlnet);
}
'''
# what each checker must say about PLANTED
EXPECT = {
    "checkAPIs.pl": r"prohibited APIs.*sprintf",
    "checkhf.pl": r"hf_sqlnet_unused",
    "checkfiltername.pl": r"tnsx\.len doesn't match PROTOABBREV of sqlnet",
    "check_typed_item_calls.py": r"proto_tree_add_uint.*hf_sqlnet_len.*FT_STRING",
    "check_val_to_str.py": r"val_to_str.*Unknown",
    "check_col_apis.py": r"col_add_fstr.*no format specifiers",
}


@pytest.mark.parametrize("checker", CHECKERS)
def test_checker_finds_planted_faults(checker, tmp_path):
    need(checker)
    src = tmp_path / "src" / "planted.c"
    src.parent.mkdir()
    src.write_text(PLANTED)
    found = findings(checker, [src], [], tmp_path / "work")
    assert any(re.search(EXPECT[checker], ln) for ln in found), f"{checker} missed the planted fault:\n" + \
        "\n".join(found)
