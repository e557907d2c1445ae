"""The plugin's layering (issue 24): one folder per layer, data flowing one way.

plugin/CMakeLists.txt names the layers bottom to top (SQLNET_LAYERS); plugin.c,
which registers everything and wires the layers together, sits above them all.
A file may include headers and call functions of its own layer and the layers
below it; a lower layer reaches a higher one only through a callback it was
given (a function pointer) or the tap, which this graph does not follow.
Inside one layer, the files' calls and includes have no cycle.

Evidence: the compiler's call graph (GCC -fcallgraph-info, compiled with the
build's own flags, as tests/test_no_recursion.py does) and the preprocessor
includes as written; test_finds_a_planted_upward_call shows the check fails
on a call from a lower layer to a higher one.
"""
import re
from pathlib import Path

from test_no_recursion import NODE, EDGE, call_graphs

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "plugin"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layers():
    text = (PLUGIN / "CMakeLists.txt").read_text()
    names = re.search(r"set\(SQLNET_LAYERS ([^)]*)\)", text).group(1).split()
    return names


def rank_of(path):
    """Layer rank of a plugin file: its folder's place in SQLNET_LAYERS;
    plugin.c (top level) above them all."""
    rel = path.relative_to(PLUGIN)
    names = layers()
    if len(rel.parts) == 1:
        return len(names), "plugin.c"
    assert rel.parts[0] in names, f"{rel}: folder {rel.parts[0]} is not a layer in SQLNET_LAYERS"
    return names.index(rel.parts[0]), rel.parts[0]


def plugin_files():
    return sorted(p for p in PLUGIN.rglob("*.[ch]"))


def find_cycle(graph):
    """A cycle in a small file graph (list of nodes) or None."""
    state = {}
    for start in graph:
        if start in state:
            continue
        stack = [(start, iter(sorted(graph.get(start, ()))))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop(); path.pop(); state[node] = 2
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(sorted(graph.get(nxt, ())))))
    return None


def include_edges(sources=None):
    by_name = {p.name: p for p in plugin_files()}
    edges = set()
    for p in plugin_files():
        text = (sources or {}).get(p.name, p).read_text()
        for inc in INCLUDE.findall(text):
            target = by_name.get(Path(inc).name)
            if target is not None and target != p:
                edges.add((p, target))
    return edges


def call_edges(tmp_path, sources=None):
    """(caller file, callee file, caller, callee) for every direct call
    between two plugin files."""
    owner = {}      # function node -> defining file
    edges = []
    by_stem = {p.stem: p for p in PLUGIN.rglob("*.c")}
    for ci in call_graphs(tmp_path, sources):
        src = by_stem[ci.stem]
        text = ci.read_text()
        for n in NODE.findall(text):
            owner[n] = src
        edges += [(src, a, b) for a, b in EDGE.findall(text)]
    out = set()
    for src, a, b in edges:
        if b in owner and a in owner and owner[a] != owner[b]:
            out.add((owner[a], owner[b], a.rsplit(":", 1)[-1], b.rsplit(":", 1)[-1]))
    return out


def violations(inc, calls):
    found = []
    for a, b in sorted(inc):
        if rank_of(b)[0] > rank_of(a)[0]:
            found.append(f"include up: {a.relative_to(PLUGIN)} -> {b.relative_to(PLUGIN)}")
    for a, b, fa, fb in sorted(calls):
        if rank_of(b)[0] > rank_of(a)[0]:
            found.append(f"call up: {a.relative_to(PLUGIN)}:{fa} -> {b.relative_to(PLUGIN)}:{fb}")
    return found


def test_every_source_is_in_a_layer():
    names = layers()
    assert names[0] == "core" and names[-1] == "consumers", names
    for p in plugin_files():
        rank_of(p)       # asserts on a folder that is not a layer
    for d in PLUGIN.iterdir():
        if d.is_dir():
            assert d.name in names, f"plugin/{d.name}/ is not a layer in SQLNET_LAYERS"


def test_no_include_or_call_goes_up(tmp_path):
    found = violations(include_edges(), call_edges(tmp_path))
    assert found == [], "\n".join(found)


def test_no_cycle_between_files(tmp_path):
    inc = {(a, b) for a, b in include_edges()}
    calls = {(a, b) for a, b, _fa, _fb in call_edges(tmp_path)}
    for kind, edges in (("include", inc), ("call", calls)):
        graph = {}
        for a, b in edges:
            graph.setdefault(str(a.relative_to(PLUGIN)), set()).add(str(b.relative_to(PLUGIN)))
        cycle = find_cycle(graph)
        assert cycle is None, f"{kind} cycle: {' -> '.join(cycle)}"


def test_finds_a_planted_upward_call(tmp_path):
    """The check itself: a copy of session.c (core, the bottom layer) that
    calls the statistics registration (consumers) is reported."""
    src = (PLUGIN / "core" / "session.c").read_text()
    planted = src + "\nvoid stats_register(void);\nvoid sqlnet_planted(void);\nvoid sqlnet_planted(void) { stats_register(); }\n"
    copy = tmp_path / "src" / "session.c"
    copy.parent.mkdir()
    copy.write_text(planted)
    out = tmp_path / "ci"
    out.mkdir()
    found = violations(set(), call_edges(out, {"session.c": copy}))
    assert "call up: core/session.c:sqlnet_planted -> consumers/stats.c:stats_register" in found, found
