"""Names a user can guess (issue 34, symptoms 6, 7 and 8): the array size under
that name, ORA errors as written ("ORA-01722"), Expert Info grouped by ORA
number with its text, the TLS key-log hint a Warning that names Wireshark's
preference and never asks to turn on what is on.
"""
import json
import re

import pytest

from tshark import ROOT, TEST_CAPTURES
from test_tls import TLS_MANIFESTS, discard_secrets

SWEEP = TEST_CAPTURES / "sweep_arraysize.pcapng"
ERROR_CAPTURES = ["error_midfetch", "jdbc_error_midfetch"]
ORA_TABLE = ROOT / "plugin" / "consumers" / "ora_errors.h"
PI_WARN = 0x00600000          # Wireshark's expert severity "Warning" (epan/proto.h)


def manifest(name):
    return json.loads((TEST_CAPTURES / f"{name}.json").read_text())


def responses(m):
    for c in m["connections"]:
        for r in c["requests"]:
            if r.get("response"):
                yield r, r["response"]


@pytest.fixture(scope="module")
def fields_g(tshark):
    """(abbrev, name, type, description) of every registered field (tshark -G fields)."""
    out = tshark.run_plain(["-G", "fields"]).stdout
    rows = []
    for line in out.splitlines():
        p = line.split("\t")
        if p[0] == "F" and len(p) >= 8:
            rows.append((p[2], p[1], p[3], p[7]))
    return rows


def ora_table():
    """(number, digits, text) rows of the plugin's table of common ORA errors."""
    return [(int(n), d, t) for n, d, t in
            re.findall(r'X\((\d+), "(\d{5})", "([^"]*)"\)', ORA_TABLE.read_text())]


def test_array_size_found_by_the_filter_dialog_search(fields_g):
    """Wireshark 4.0's Display Filter Expression dialog shows a field when its
    label "<abbrev> · <name>" contains the search text (case-insensitive
    regular expression; ui/qt/display_filter_expression_dialog.cpp: fillTree
    and on_searchLineEdit_textChanged; the description is not searched). A
    search for "array size" and one for "fetch size" both find
    sqlnet.array_size, whose name says "rows asked per fetch". Evidence: the
    dialog's rule applied to tshark -G fields."""
    def found(text):
        rx = re.compile(text, re.I)
        return {a for a, n, _, _ in fields_g if a.startswith("sqlnet.") and rx.search(f"{a} \u00b7 {n}")}
    assert "sqlnet.array_size" in found("array size")
    assert "sqlnet.array_size" in found("fetch size")
    name = {a: n for a, n, _, _ in fields_g}["sqlnet.array_size"]
    assert "rows asked per fetch" in name.lower()
    # the aliases stay, and their descriptions name the new field
    desc = {a: d for a, _, _, d in fields_g}
    assert "sqlnet.array_size" in desc["sqlnet.fetch.rows"]
    assert {"sqlnet.ofetch.rows", "sqlnet.oall8.prefetch"} <= set(desc)


def test_array_size_is_the_rows_asked(tshark):
    """sqlnet.array_size is on the packet that carries a call that asks for
    rows and on the packet that completes its response, with the rows the
    generator asked (manifest rows_requested), and equals sqlnet.fetch.rows
    wherever either is. Evidence: the generator's manifest."""
    m = manifest("sweep_arraysize")
    rows = tshark.fields(SWEEP, ["frame.number", "sqlnet.array_size", "sqlnet.fetch.rows"],
                         "sqlnet.array_size || sqlnet.fetch.rows")
    assert rows and all(a == f for _, a, f in rows)
    got = {int(fr): int(a) for fr, a, _ in rows}
    want_resp = {resp["last_frame"]: r["rows_requested"] for r, resp in responses(m)
                 if r.get("rows_requested") is not None}
    assert want_resp
    for frame, asked in want_resp.items():
        assert got.get(frame) == asked, frame
    # one on each call, one on each response: twice the calls that ask
    assert len(got) == 2 * len(want_resp)


@pytest.mark.parametrize("name", ERROR_CAPTURES)
def test_ora_string_filters_as_written(tshark, name):
    """`sqlnet.ora == "ORA-01722"` matches the responses the generator made
    fail with ORA-01722; sqlnet.ora is on every response whose error is not
    0, ORA-01403 included (as sqlnet.ora_error), and reads "ORA-" and five
    digits. `sqlnet.ora_error == 01722` is octal (978) and matches nothing:
    the reason for the string field. Evidence: the generator's manifest."""
    m = manifest(name)
    cap = TEST_CAPTURES / f"{name}.pcapng"
    want = {resp["last_frame"]: resp["ora_error"] for _, resp in responses(m) if resp.get("ora_error")}
    assert 1722 in want.values()
    got = {int(f): o for f, o in tshark.fields(cap, ["frame.number", "sqlnet.ora"], "sqlnet.ora")}
    assert got == {f: f"ORA-{e:05d}" for f, e in want.items()}
    hit = [int(f) for (f,) in tshark.fields(cap, ["frame.number"], 'sqlnet.ora == "ORA-01722"')]
    assert hit == sorted(f for f, e in want.items() if e == 1722)
    assert tshark.fields(cap, ["frame.number"], "sqlnet.ora_error == 01722") == []
    assert [int(f) for (f,) in tshark.fields(cap, ["frame.number"], "sqlnet.ora_error == 1722")] == hit


def test_ora_table_is_sorted_and_consistent():
    """The table of common ORA errors is sorted (metrics.c bisects it), each
    row's digits are its number, and ORA-01403 (end of fetch, no expert
    item) is not in it. Evidence: the table's own text, read here."""
    t = ora_table()
    assert len(t) >= 50
    assert [n for n, _, _ in t] == sorted({n for n, _, _ in t})
    assert all(int(d) == n for n, d, _ in t)
    assert 1403 not in [n for n, _, _ in t]


@pytest.mark.parametrize("name", ERROR_CAPTURES)
def test_ora_expert_grouped_by_number(tshark, fields_g, name):
    """Expert Info's default view groups items by the summary their expert
    field was registered with: each ORA error of the generator's manifest
    (other than 1403) raises the expert field of its number, registered as
    "ORA-01722: invalid number", so the group's line names number and text
    without unticking "Group by summary". Evidence: the manifest's errors,
    the registered names (tshark -G fields) and the ORA table's text."""
    m = manifest(name)
    cap = TEST_CAPTURES / f"{name}.pcapng"
    table = {n: (d, t) for n, d, t in ora_table()}
    names = {a: n for a, n, _, _ in fields_g}
    errors = {resp["last_frame"]: resp["ora_error"] for _, resp in responses(m)
              if resp.get("ora_error") not in (None, 0, 1403)}
    assert errors
    for frame, err in errors.items():
        assert err in table, err
        digits, text = table[err]
        abbrev = f"sqlnet.ora_error.ora{digits}"
        assert names[abbrev] == f"ORA-{digits}: {text}"
        hits = [int(f) for (f,) in tshark.fields(cap, ["frame.number"], abbrev)]
        assert frame in hits, (abbrev, hits)
    # tshark's expert report (grouped by summary) has one line per error, with its text
    out = tshark.run(cap, ["-q", "-z", "expert,warn"]).stdout
    for err in set(errors.values()):
        assert re.search(rf"Response\s+SQL\*Net\s+ORA-{err:05d}: \S", out), out


@pytest.fixture(scope="module")
def tls_stripped(tmp_path_factory):
    d = tmp_path_factory.mktemp("hint")
    m = TLS_MANIFESTS[0].values[0]
    dst = d / m["capture"]
    dst.write_bytes(discard_secrets((TEST_CAPTURES / m["capture"]).read_bytes()))
    return dst


@pytest.mark.parametrize("estimate", ["TRUE", "FALSE"])
def test_keylog_hint_is_a_warning_that_knows_the_estimate(tshark, tls_stripped, estimate):
    """TCPS without its secrets: the hint is a Warning (not a Note lost among
    TCP notes), names Wireshark's preference as its dialog shows it
    (Protocols > TLS > (Pre)-Master-Secret log filename) and the README where
    the package installs it (/usr/share/doc/<package>/, scripts/package.sh),
    no repository path (docs/...), and says to turn on sqlnet.tls_estimate only
    when it is off. Evidence: the preference as run (-o) and the package's
    layout."""
    rows = tshark.fields(tls_stripped, ["_ws.expert.severity", "_ws.expert.message"], "sqlnet.tls.undecrypted",
                         extra=["-o", f"sqlnet.tls_estimate:{estimate}"])
    assert len(rows) == 1
    sev, msg = rows[0]
    assert int(sev.split(",")[0]) == PI_WARN
    assert "Protocols > TLS > (Pre)-Master-Secret log filename" in msg and "tls.keylog_file" in msg
    assert "/usr/share/doc/sqlnet-wireshark" in msg and "docs/" not in msg
    assert ("turn on" in msg) == (estimate == "FALSE")
    package = (ROOT / "scripts" / "package.sh").read_text()
    assert 'DOC=$STAGE/usr/share/doc/$PKG' in package and 'README.md "$DOC/README.md"' in package
    assert "PKG=sqlnet-wireshark" in package
    assert re.search(r"^## Encrypted traffic$", (ROOT / "README.md").read_text(), re.M)
