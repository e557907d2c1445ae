"""No recursion in plugin/: the wire must not control the depth of any call chain.

GCC's -fcallgraph-info writes each translation unit's call graph; the test
recompiles every plugin source with the build's own flags
(build/compile_commands.json), joins the graphs (a call to an external name
goes to the file that defines it) and fails on any cycle, a function calling
itself included.  Calls through function pointers are followed where the
plugin makes them: the TTC dispatchers' tables (`static const ttc_*_fn
name[...] = { [code] = decoder, ... }` and the rows of `static const ttc_*_t
name[...]`, see plugin/decoders/ttc_dispatch.c) make every indirect call of a
function that indexes one an edge to every function a table names, and a call
through a member of an ops struct (`const ttc_*_ops_t name = { .member = f }`,
the stream's ttc_decoder_ops) an edge to the function given for it.  The other
function pointers (dissector and tap callbacks registered with Wireshark)
are called by Wireshark, not by the plugin's own code.

Evidence: the compiler's view of the code; the test would have failed on the
fast-auth decoder of issue 11 (ttc_decode_client called itself for every
nested 0x22 message), see test_finds_a_planted_cycle.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD = Path(os.environ.get("SQLNET_BUILD_DIR", ROOT / "build"))
NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^"]*" \}')   # defined here (no "shape : ellipse")
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
# A dispatch table: an array of decoders (ttc_*_fn) or of rows naming them
# (ttc_*_t: ttc_dispatch.c's message and function tables).
TABLE = re.compile(r"static const ttc_\w+_(?:fn|t) (\w+)\[\w*\] = \{(.*?)\};", re.S)
ENTRY = re.compile(r"\b([a-z_][a-z0-9_]*)\b")     # decoders (designators are upper-case constants)
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|/\*.*?\*/', re.S)
# An ops struct the plugin hands a lower layer (ttc_decoder_ops: the stream
# reaches the decoders through it) and the calls through its members.
OPS = re.compile(r"const ttc_\w+_ops_t (\w+) = \{(.*?)\};", re.S)
MEMBER = re.compile(r"\.(\w+)\s*=\s*(\w+)")


FUNC = re.compile(r"^(\w+)\([^;{]*?\)\n\{\n(.*?)^\}", re.S | re.M)


def table_calls(sources=None):
    """(file, function) -> {(file, decoder)}: the decoders a function can call
    through the dispatch tables it indexes, and through the members of an
    ops struct it calls (`ops->member(...)`)."""
    calls = {}
    texts = {}
    members = {}        # ops member -> {(file, function)}
    for src in sorted((ROOT / "plugin").rglob("*.c")):
        src = (sources or {}).get(src.name, src)
        texts[src.name] = text = src.read_text()
        for m in OPS.finditer(text):
            for member, fn in MEMBER.findall(m.group(2)):
                members.setdefault(member, set()).add((src.name, fn))
    for name, text in texts.items():
        tables = {m.group(1): ENTRY.findall(STRING_OR_COMMENT.sub(" ", m.group(2)))
                  for m in TABLE.finditer(text)}
        for fname, body in FUNC.findall(text):
            for tname, entries in tables.items():
                if re.search(r"\b%s\[" % tname, body):
                    calls.setdefault((name, fname), set()).update((name, e) for e in entries)
            for member, targets in members.items():
                if re.search(r"->%s\(" % member, body):
                    calls.setdefault((name, fname), set()).update(targets)
    return calls


_GRAPHS = {}   # the build's own sources' graphs, compiled once per session


def call_graphs(tmp_path, sources=None):
    """The .ci call-graph files of every plugin source (sources: file name ->
    a replacement path, for planted edits); the unedited build's are compiled
    once per session and shared by the tests that read them."""
    if sources is None and "build" in _GRAPHS:
        return _GRAPHS["build"]
    db = BUILD / "compile_commands.json"
    if not db.exists():
        pytest.skip(f"{db} missing: build with ./run.sh build")
    entries = [e for e in json.loads(db.read_text()) if "/plugin/" in e["file"]]
    assert entries, "no plugin sources in compile_commands.json"
    if sources is not None:
        # a planted edit: the other files' graphs are the build's own
        (tmp_path / "build-graphs").mkdir(exist_ok=True)
        base = {ci.stem: ci for ci in call_graphs(tmp_path / "build-graphs")}
        for e in entries:
            stem = Path(e["file"]).stem
            if Path(e["file"]).name not in sources and stem in base:
                shutil.copy(base[stem], tmp_path / base[stem].name)
        entries = [e for e in entries if Path(e["file"]).name in sources]
    for e in entries:
        src = Path(e["file"])
        if sources is not None:
            src = sources.get(src.name, src)
        args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
        out = args.index("-o")
        args[out + 1] = str(tmp_path / (src.stem + ".o"))
        args[args.index("-c") + 1] = str(src)
        # -O0: the graph of the source as written (no inlined or split functions)
        proc = subprocess.run(args + ["-fcallgraph-info", "-Wno-error", "-O0"],
                              cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]
    graphs = sorted(tmp_path.glob("*.ci"))
    if sources is None:
        _GRAPHS["build"] = graphs
    return graphs


def cycles(ci_files, tables=()):
    # Static functions are titled "file:name", global ones "name"; a call to a
    # global name defined in no plugin file is a library call.
    defined = set()
    edges = []
    for ci in ci_files:
        text = ci.read_text()
        defined.update(NODE.findall(text))
        edges += EDGE.findall(text)
    graph = {}
    for a, b in edges:
        if b in defined:
            graph.setdefault(a, set()).add(b)
    # a function's indirect calls reach the decoders of the tables it indexes
    def node(fname, name):
        static = [n for n in defined if n == f"{fname}:{name}" or n.endswith(f"/{fname}:{name}")]
        found = static[0] if static else name
        assert found in defined, f"{fname}:{name} not defined in plugin/"
        return found
    indirect = {a for a, b in edges if b == "__indirect_call"}
    for (fname, caller), targets in dict(tables).items():
        src = node(fname, caller)
        if src not in indirect:
            continue        # reads a table (a name, a flag) without calling through it
        for tf, tn in targets:
            graph.setdefault(src, set()).add(node(tf, tn))
    # Tarjan's strongly connected components, iteratively
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in graph.get(v, ()):
                    found.append(sorted(c.rsplit("/", 1)[-1] for c in comp))
    return found


def test_plugin_has_no_recursion(tmp_path):
    tables = table_calls()
    assert sum(map(len, tables.values())) > 30, tables   # the dispatchers' tables were found
    # the stream reaches the decoders through ttc_decoder_ops, the server's
    # dispatcher the return-parameter decoders through the function table
    assert ("ttc_dispatch.c", "ttc_decode_client") in tables[("ttc_decode.c", "decode_range")], tables
    assert ("ttc_dispatch.c", "ttc_rpa_execute") in tables[("ttc_dispatch.c", "parameters_message")], tables
    found = cycles(call_graphs(tmp_path), tables)
    assert found == [], f"recursive call chains in plugin/: {found}"


def test_finds_a_planted_cycle(tmp_path):
    """The check itself: a copy of ttc_dispatch.c whose fast-auth decoder calls
    the message decoder again (as before issue 11) is reported."""
    src = (ROOT / "plugin" / "decoders" / "ttc_dispatch.c").read_text()
    planted = src.replace("decode_nested(r, mt, pinfo, TTC_MSG_PROTOCOL, &part, scope);",
                          "ttc_decode_client(r, mt, pinfo, NULL, &part, scope);", 1)
    assert planted != src
    copy = tmp_path / "src" / "ttc_dispatch.c"
    copy.parent.mkdir()
    copy.write_text(planted)
    out = tmp_path / "ci"
    out.mkdir()
    found = cycles(call_graphs(out, {"ttc_dispatch.c": copy}), table_calls({"ttc_dispatch.c": copy}))
    assert any("ttc_decode_client" in comp for comp in found), found


def test_finds_a_cycle_through_a_dispatch_table(tmp_path):
    """The check follows the tables: a copy of ttc_describe.c whose implicit
    result decoder (reached from ttc_decode_server only through its table)
    calls ttc_decode_server again is reported."""
    src = (ROOT / "plugin" / "decoders" / "ttc_describe.c").read_text()
    planted = src.replace("        d = ttc_describe_body(r, mt, scope);",
                          "        ttc_decode_server(r, mt, NULL, st, res, scope);\n"
                          "        d = ttc_describe_body(r, mt, scope);", 1)
    assert planted != src
    copy = tmp_path / "src" / "ttc_describe.c"
    copy.parent.mkdir()
    copy.write_text(planted)
    out = tmp_path / "ci"
    out.mkdir()
    sources = {"ttc_describe.c": copy}
    assert cycles(call_graphs(out, sources)) == []       # not seen without the tables
    out2 = tmp_path / "ci2"
    out2.mkdir()
    found = cycles(call_graphs(out2, sources), table_calls(sources))
    assert any("ttc_decode_server" in comp for comp in found), found
