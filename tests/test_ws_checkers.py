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

The rules of check_col_apis.py and check_val_to_str.py (which Debian 12's
source lacks) are also checked by code of this file on every machine
(test_plugin_keeps_the_rules), with planted faults of their own.
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


UI_SOURCES = ("consumers/stats.c",)


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def findings(checker, c_files, h_files, tmp):
    """The findings of one checker on these sources, as text lines."""
    tool = TOOLS / checker
    rel = [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in c_files]
    if checker == "checkAPIs.pl":
        # consumers/stats.c is tshark's -z report code (as Wireshark's ui/cli/tap-*.c, which
        # print with printf): the dissector groups apply to the rest
        ui = [f for f in rel if f.endswith(UI_SOURCES)]
        lines, rcs = [], []
        for group, files in ((["--group", "dissectors-prohibited", "--group", "dissectors-restricted"],
                              [f for f in rel if f not in ui] + [str(p.relative_to(ROOT)) for p in h_files]),
                             (["--group", "dissectors-prohibited"], ui)):
            if not files:
                continue
            rc, out = run(["perl", str(tool), *group, *files], cwd=ROOT)
            lines += [ln for ln in out.splitlines() if re.match(r"\s*(Error|Warning)", ln)]
            if rc:
                rcs.append(f"exit {rc}: {out.strip()}")
        return lines or rcs
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


# ---- the rules of check_col_apis.py and check_val_to_str.py, written here ----
# Debian 12's Wireshark source (4.0) has neither script, and no newer source is
# served to CI, so the two rule sets they enforce are checked here too, on every
# machine: a call parser of this file's own (balanced parentheses, top-level
# arguments), the rules as Wireshark's README.developer and the scripts state them.

def calls(code, names):
    """(name, [top-level argument texts], line) of every call of a name in names
    (a regex) in C code whose comments are removed first."""
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), code, flags=re.S)
    code = re.sub(r"//[^\n]*", "", code)
    for m in re.finditer(r"\b(" + names + r")\s*\(", code):
        depth, i, args, start, quote = 1, m.end(), [], m.end(), None
        while i < len(code) and depth:
            c = code[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    args.append(code[start:i].strip())
            elif c == "," and depth == 1:
                args.append(code[start:i].strip())
                start = i + 1
            i += 1
        yield m.group(1), args, code.count("\n", 0, m.start()) + 1


def literal(arg):
    """The text of a string literal argument ("a" "b" joined), else None."""
    if not re.fullmatch(r'(\s*"(?:\\.|[^"\\])*"\s*)+', arg):
        return None
    return "".join(re.findall(r'"((?:\\.|[^"\\])*)"', arg))


def col_api_findings(path, text):
    out = []
    for name, args, line in calls(text, r"col_(?:set|add|append)_f?str"):
        if len(args) < 3:
            continue
        where = f"{path}:{line}: {name}(..., {args[2]}"
        fmt = literal(args[2])
        if fmt == "" and "append" not in name:
            out.append(f"{where}: an empty string: col_clear() clears a column")
        if fmt is not None and fmt.startswith("%s") and len(fmt) == 2:
            out.append(f"{where}: \"%s\" alone: the string itself needs no format")
        if name == "col_add_str" and (fmt is not None or re.match(r"val_to_str(_ext)?_const\b", args[2])):
            out.append(f"{where}: a constant string: col_set_str() keeps it without a copy")
        if name in ("col_add_fstr", "col_append_fstr") and fmt is not None and "%" not in fmt:
            out.append(f"{where}: a format without a conversion: col_add_str()/col_append_str()")
    return out


def val_to_str_findings(path, text):
    out = []
    for name, args, line in calls(text, r"(?<!try_)(?<!char_)(?<!bytes_)\w*val_to_str(?:_ext)?(?:_const)?"):
        if name.startswith(("try_", "char_", "bytes_")) or len(args) < 3:
            continue
        unknown = literal(args[-1])
        if unknown is None:
            continue
        where = f"{path}:{line}: {name}(..., \"{unknown}\")"
        if name.endswith("_const") and "%" in unknown:
            out.append(f"{where}: a _const call prints its unknown string as it is: no % conversion")
        if not name.endswith("_const") and "%" not in unknown:
            out.append(f"{where}: the unknown string needs a conversion for the value (or a _const call)")
        if not name.endswith("_const") and "%s" in unknown:
            out.append(f"{where}: %s in the unknown string: the value is an integer")
    return out


RULES = {"col_apis": col_api_findings, "val_to_str": val_to_str_findings}


@pytest.mark.parametrize("rules", sorted(RULES))
def test_plugin_keeps_the_rules(rules):
    found = []
    for path in sorted(PLUGIN.rglob("*.[ch]")):
        found += RULES[rules](path.relative_to(ROOT).as_posix(), path.read_text(errors="replace"))
    assert not found, "\n".join(found)


def test_rules_find_planted_faults():
    code = '''
    col_set_str(pinfo->cinfo, COL_INFO, "");                 /* 2 */
    col_add_fstr(pinfo->cinfo, COL_INFO, "%s", name);        /* 3 */
    col_add_str(pinfo->cinfo, COL_INFO, "TNS");              /* 4 */
    col_append_fstr(pinfo->cinfo, COL_INFO, "no conversion");  /* 5 */
    col_append_fstr(pinfo->cinfo, COL_INFO, " %s (%u)", f(a, b), n);  /* fine */
    col_add_str(pinfo->cinfo, COL_INFO, val_to_str_const(t, vs, "?"));  /* 7 */
    x = val_to_str(t, vs, "Unknown");                        /* 8 */
    x = val_to_str_const(t, vs, "Unknown %u");               /* 9 */
    x = sqlnet_val_to_str(pool, t, vs, "type %s");           /* 10 */
    x = try_val_to_str(t, vs);                               /* fine */
    x = val_to_str(t, vs, "type %u");                        /* fine */
    '''
    col = [f.split(":")[1] for f in col_api_findings("p.c", code)]
    vts = [f.split(":")[1] for f in val_to_str_findings("p.c", code)]
    assert col == ["2", "3", "4", "5", "7"], col_api_findings("p.c", code)
    assert vts == ["8", "9", "10"], val_to_str_findings("p.c", code)
