"""No recursion in plugin/: the wire must not control the depth of any call chain.

GCC's -fcallgraph-info writes each translation unit's call graph; the test
recompiles every plugin source with the build's own flags
(build/compile_commands.json), joins the graphs (a call to an external name
goes to the file that defines it) and fails on any cycle, a function calling
itself included.  Calls through function pointers are followed where the
plugin makes them: the TTC dispatchers' tables (`static const ttc_*_fn
name[...] = { [code] = decoder, ... }`, see plugin/decoders/ttc_msg.h) make every
indirect call in the plugin an edge to every decoder in a table.  The other
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
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD = Path(os.environ.get("SQLNET_BUILD_DIR", ROOT / "build"))
NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^"]*" \}')   # defined here (no "shape : ellipse")
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
TABLE = re.compile(r"static const ttc_\w+_fn (\w+)\[\w*\] = \{(.*?)\};", re.S)
ENTRY = re.compile(r"\b([a-z_][a-z0-9_]*)\b")     # decoders (designators are upper-case constants)


FUNC = re.compile(r"^(\w+)\([^;{]*?\)\n\{\n(.*?)^\}", re.S | re.M)


def table_calls(sources=None):
    """(file, function) -> {(file, decoder)}: the decoders a function can call
    through the dispatch tables it indexes."""
    calls = {}
    for src in sorted((ROOT / "plugin").rglob("*.c")):
        src = (sources or {}).get(src.name, src)
        text = src.read_text()
        tables = {m.group(1): ENTRY.findall(m.group(2)) for m in TABLE.finditer(text)}
        for fname, body in FUNC.findall(text):
            for tname, entries in tables.items():
                if re.search(r"\b%s\[" % tname, body):
                    calls.setdefault((src.name, fname), set()).update((src.name, e) for e in entries)
    return calls


def call_graphs(tmp_path, sources=None):
    db = BUILD / "compile_commands.json"
    if not db.exists():
        pytest.skip(f"{db} missing: build with ./run.sh build")
    entries = [e for e in json.loads(db.read_text()) if "/plugin/" in e["file"]]
    assert entries, "no plugin sources in compile_commands.json"
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
    return sorted(tmp_path.glob("*.ci"))


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
        assert src in indirect, f"{src} indexes a dispatch table but makes no indirect call"
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
    found = cycles(call_graphs(tmp_path), tables)
    assert found == [], f"recursive call chains in plugin/: {found}"


def test_finds_a_planted_cycle(tmp_path):
    """The check itself: a copy of ttc_calls.c whose fast-auth decoder calls
    the message decoder again (as before issue 11) is reported."""
    src = (ROOT / "plugin" / "decoders" / "ttc_calls.c").read_text()
    planted = src.replace("decode_nested(r, mt, TTC_MSG_PROTOCOL, &part, scope);",
                          "ttc_decode_client(r, mt, NULL, NULL, &part, scope);", 1)
    assert planted != src
    copy = tmp_path / "src" / "ttc_calls.c"
    copy.parent.mkdir()
    copy.write_text(planted)
    out = tmp_path / "ci"
    out.mkdir()
    found = cycles(call_graphs(out, {"ttc_calls.c": copy}), table_calls({"ttc_calls.c": copy}))
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
