"""docs/architecture.md names only functions and files that exist in plugin/.

The page says "Every name below is a file or function in `plugin/`".  Checked
here against the sources themselves (not against anything the plugin
outputs):

* every `name()` in the page must occur as `name(` in the C code of
  plugin/** (comments and string literals removed first): a definition or
  declaration of the plugin's own, or a call it makes (a Wireshark function
  such as tcp_dissect_pdus() the page explains);
* every `something.c` / `something.h` must be a file under plugin/ (a path
  with folders, e.g. plugin/core/session.c, that exact path; `x.[ch]` both
  x.c and x.h).

A failure lists each missing name with the line of the page that names it.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PLUGIN = ROOT / "plugin"

CALL_IN_DOC = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(\)")
FILE_IN_DOC = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:[ch]|\[ch\]))(?![\w])")
# C comments, string and character literals (in one pass, so a "/*" inside a string is a string)
C_NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
C_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def plugin_sources():
    return sorted(p for p in PLUGIN.rglob("*") if p.suffix in (".c", ".h") and p.is_file())


def names_in_code():
    names = set()
    for path in plugin_sources():
        code = C_NOISE.sub(lambda m: " " if m.group(0)[0] == "/" else '""', path.read_text(errors="replace"))
        names.update(C_CALL.findall(code))
    return names


def doc_mentions(pattern):
    """{name: [line numbers]} of the page."""
    found = {}
    for no, line in enumerate(DOC.read_text().splitlines(), 1):
        for m in pattern.finditer(line):
            found.setdefault(m.group(1), []).append(no)
    return found


def test_the_regexes_read_what_they_should():
    """The readers themselves, on made-up text (so an empty match cannot pass)."""
    assert CALL_IN_DOC.findall("`tns_dissect_tcp()` calls x.y() and f(a), `ttc_note_packet()`") == \
        ["tns_dissect_tcp", "ttc_note_packet"]
    assert FILE_IN_DOC.findall("tns.c's length, plugin/core/session.c, lua/*.lua, sqlnet.so, e.g. ttc_msg.h, "
                               "plugin/tns.[ch].") == ["tns.c", "plugin/core/session.c", "ttc_msg.h", "plugin/tns.[ch]"]
    code = 'int a(void) { b(1); /* c( */ d("e(", \'(\'); } // f(\n'
    assert set(C_CALL.findall(C_NOISE.sub(" ", code))) == {"a", "b", "d"}


def test_plugin_sources_are_there():
    assert len(plugin_sources()) > 20
    assert {"tns_dissect_tcp", "tcp_dissect_pdus"} <= names_in_code()


def test_every_function_named_exists_in_plugin():
    named = doc_mentions(CALL_IN_DOC)
    assert len(named) > 20, "the page names functions as name(); the reader found few"
    code = names_in_code()
    missing = {n: lines for n, lines in named.items() if n not in code}
    assert not missing, "docs/architecture.md names functions that plugin/ has not:\n" + "\n".join(
        f"  {n}() (line {', '.join(map(str, lines))})" for n, lines in sorted(missing.items()))


def test_every_file_named_exists_in_plugin():
    named = doc_mentions(FILE_IN_DOC)
    assert len(named) > 5
    basenames = {p.name for p in plugin_sources()}
    missing = {}
    for mention, lines in named.items():
        for name in ([mention[:-5] + ".c", mention[:-5] + ".h"] if mention.endswith(".[ch]") else [mention]):
            if not ((ROOT / name).is_file() if "/" in name else name in basenames):
                missing[name] = lines
    assert not missing, "docs/architecture.md names files that plugin/ has not:\n" + "\n".join(
        f"  {n} (line {', '.join(map(str, lines))})" for n, lines in sorted(missing.items()))
