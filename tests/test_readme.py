"""The documentation (README.md and docs/) against the plugin and the captures.

Field names are a public contract: every registered field is documented, and
the field table in docs/fields.md is the one scripts/fields_table.py generates
from the registered fields. The README's filter examples run, and where the
generated captures' manifests (the scripted server's own counts) say how many
frames they must match, they match that many. The tshark commands shown in
the docs run, and the output they show is what tshark prints.
"""
import json
import re
import shlex
import subprocess
import sys

import pytest

from tshark import ROOT, TEST_CAPTURES, staged_plugin

sys.path.insert(0, str(ROOT / "scripts"))
import fields_table  # noqa: E402

README = ROOT / "README.md"
DOCS = ROOT / "docs"
FIELDS_MD = DOCS / "fields.md"
REPORTS_MD = DOCS / "reports.md"
DEMO = TEST_CAPTURES / "sweep_arraysize.pcapng"
ERRORS = TEST_CAPTURES / "error_midfetch.pcapng"
PAGES = [README] + sorted(DOCS.glob("*.md")) + [ROOT / "profiles" / "README.md"]
# The output shown in the docs is Wireshark 4.0's (Debian 12); later releases
# lay out Wireshark's own tables (stats tree, SRT) their way, so there the
# commands only have to run.
SHOWN_RELEASE = "4.0"


@pytest.fixture(scope="module")
def fields_output(tshark):
    return tshark.run_plain(["-G", "fields"]).stdout


@pytest.fixture(scope="module")
def registered(fields_output):
    fields = [p[2] for p in (line.split("\t") for line in fields_output.splitlines())
              if len(p) > 4 and p[0] == "F" and p[4] == "sqlnet"]
    assert len(fields) > 50          # the plugin is loaded and registered its fields
    return fields


def requests(capture):
    m = json.loads(capture.with_suffix(".json").read_text())
    return [r for c in m["connections"] for r in c["requests"]]


# ---- fields ------------------------------------------------------------------

def test_fields_page_is_the_generated_table(fields_output, registered):
    m = re.search(re.escape(fields_table.BEGIN) + r"\n(.*?)\n" + re.escape(fields_table.END),
                  FIELDS_MD.read_text(), re.S)
    assert m, "no generated table in docs/fields.md"
    assert m.group(1) == fields_table.table_from(fields_output), \
        "docs/fields.md is stale: python3 scripts/fields_table.py --update docs/fields.md"


def test_every_registered_field_is_documented(registered):
    text = FIELDS_MD.read_text()
    missing = [f for f in registered if f"`{f}`" not in text]
    assert not missing, f"fields missing from docs/fields.md: {missing}"


def test_contract_fields_exist(fields_output):
    """Names promised in the issues; renaming one breaks users' filters."""
    fields = {p[2] for p in (line.split("\t") for line in fields_output.splitlines()) if len(p) > 2}
    promised = ["sqlnet.length", "sqlnet.type", "sqlnet.flags", "sqlnet.data.flags",
                "sqlnet.data.flags.eof", "sqlnet.data.flags.compressed",
                "sqlnet.data.flags.end_of_request", "sqlnet.data.flags.begin_pipeline",
                "sqlnet.data.flags.end_of_response", "sqlnet.data.len",
                "sqlnet.connect.version", "sqlnet.connect.sdu", "sqlnet.connect.tdu",
                "sqlnet.accept.version", "sqlnet.accept.sdu", "sqlnet.accept.tdu",
                "sqlnet.version", "sqlnet.sdu", "sqlnet.tdu", "sqlnet.sdu_fill", "sqlnet.refuse.err"]
    assert [f for f in promised if f not in fields] == []


# ---- the README's filter table ------------------------------------------------

def readme_filters():
    """(field, example) rows of the README's table of the most used fields."""
    text = README.read_text()
    section = text[text.index("## Filter on it"):]
    section = section[:section.index("\n## ", 1)]
    rows = re.findall(r"^\| `(sqlnet\.[a-z0-9_.]+)` \|.*\| `([^`]+)` \|$", section, re.M)
    assert len(rows) == 12, rows
    return rows


def count(tshark, capture, dfilter):
    proc = tshark.run(capture, ["-Y", dfilter])
    assert proc.stderr == "", (dfilter, proc.stderr)
    return len(proc.stdout.splitlines())


def test_readme_filters_run(tshark, registered):
    for field, example in readme_filters():
        assert field in registered, field
        assert field in example, (field, example)
        count(tshark, DEMO, example)          # compiles and runs without a message


def test_readme_filters_match_the_manifests(tshark):
    demo, errors = requests(DEMO), requests(ERRORS)
    resp = [r["response"] for r in demo]
    done = [r for r in resp if r.get("last_frame")]        # round trips with a response in the capture
    want = {
        "sqlnet.rt.rows": (DEMO, sum(1 for r in done if r["rows_sent"] < 50)),
        "sqlnet.rt.rows_asked": (DEMO, sum(1 for r in demo if r["response"].get("last_frame")
                                           and r["func_code"] == 5 and r["rows_requested"] is not None
                                           and r["rows_requested"] < 50)),
        "sqlnet.ora": (ERRORS, sum(1 for r in errors if r["response"]["ora_error"] == 1722)),
        "sqlnet.rt.response.segments": (DEMO, sum(1 for r in done if r["tcp_segments"] > r["tns_packets"])),
        "sqlnet.array_size": (DEMO, sum(1 for r in demo if r["rows_requested"] is not None
                                        and r["rows_requested"] < 50)),
    }
    examples = dict(readme_filters())
    assert set(want) <= set(examples)
    for field, (capture, n) in want.items():
        assert n > 0, field                   # the example shows something on this capture
        assert count(tshark, capture, examples[field]) == n, (field, examples[field])


def test_readme_report_commands_run(tshark):
    """Every `tshark -r cap.pcapng ... -z sqlnet,...` of the README, on the demo capture."""
    commands = re.findall(r"`tshark -r cap\.pcapng (-q -z sqlnet,[a-z]+)`", README.read_text())
    assert {c.split(",")[1] for c in commands} == {"stmt", "tree", "srt", "arraysize", "advise"}
    for c in commands:
        proc = tshark.run(DEMO, shlex.split(c))
        assert proc.stderr == "", (c, proc.stderr)
        assert "SQL*Net" in proc.stdout and len(proc.stdout.splitlines()) > 3, c


# ---- commands and output shown in the docs -------------------------------------

def shown_commands(page):
    """(argv after `tshark`, shown output lines or None) for every ```sh block of
    one `tshark -r test-captures/...` line; the output shown is a plain ```
    block right after it."""
    blocks = list(re.finditer(r"^```(\w*)\n(.*?)^```$", page.read_text(), re.S | re.M))
    out = []
    for i, b in enumerate(blocks):
        lines = b.group(2).strip("\n").splitlines()
        if b.group(1) != "sh" or len(lines) != 1 or not lines[0].startswith("tshark -r test-captures/"):
            continue
        shown = None
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if nxt and nxt.group(1) == "" and page.read_text()[b.end():nxt.start()].strip() == "":
            shown = [l.rstrip() for l in nxt.group(2).strip("\n").splitlines()]
        out.append((shlex.split(lines[0])[1:], shown))
    return out


def appears_in_order(shown, printed):
    """The shown lines ("..." skips) are lines of `printed`, in the same order."""
    printed = [l.rstrip() for l in printed.splitlines()]
    at = 0
    for line in shown:
        if line == "...":
            continue
        while at < len(printed) and printed[at] != line:
            at += 1
        if at == len(printed):
            return line
        at += 1
    return None


PROFILE_MD = ROOT / "profiles" / "README.md"


@pytest.mark.parametrize("page", [p for p in PAGES if shown_commands(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_shown_commands_print_what_is_shown(tshark, page, registered):
    """Every page's shown `tshark -r test-captures/...` command runs and prints
    what the page shows (README, every docs/ page, profiles/README.md)."""
    commands = shown_commands(page)
    if page == PROFILE_MD:
        tshark.install_profile()          # the commands with -C SQLNet
        used = set(re.findall(r"sqlnet\.rt\.[a-z_.]*[a-z]", page.read_text()))
        if used - set(registered):
            pytest.skip(f"fields not registered by this build yet: {sorted(used - set(registered))}")
    for argv, shown in commands:
        capture = ROOT / argv[1]
        proc = tshark.run(capture, argv[2:])
        for _ in range(3):
            # tshark 4.0's io,stat MAX over a double field now and then prints a
            # 300-digit number: valgrind shows its tap (in /usr/bin/tshark) reading
            # an uninitialised value created on libwiretap's stack, not the plugin's;
            # the same run again prints the column's maximum
            if "io,stat" not in " ".join(argv) or not re.search(r"\d{40,}", proc.stdout):
                break
            proc = subprocess.run(tshark.command(["-r", str(tshark.readable(capture))] + argv[2:]),
                                  capture_output=True, text=True, timeout=300)
        assert proc.stderr == "", (argv, proc.stderr)
        assert proc.stdout.strip(), argv
        if shown is not None and staged_plugin().parent.parent.name == SHOWN_RELEASE:
            missing = appears_in_order(shown, proc.stdout)
            assert missing is None, f"{page.name}: `tshark {' '.join(argv)}` does not print {missing!r}"


def test_info_column_examples(tshark):
    text = FIELDS_MD.read_text()
    section = text[text.index("## The Info column"):]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    info = set()
    for capture in (DEMO, ERRORS):
        info |= {l.rstrip() for l in tshark.run(capture, ["-Y", "sqlnet", "-T", "fields", "-e",
                                                          "_ws.col.Info"]).stdout.splitlines()}
    missing = [l for l in block.strip("\n").splitlines() if l not in info]
    assert not missing, missing


# ---- links -------------------------------------------------------------------

def slug(heading):
    """GitHub's anchor for a heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def test_every_doc_page_is_linked_from_the_readme():
    links = set(re.findall(r"\]\(([^)#]+)", README.read_text()))
    assert {f"docs/{p.name}" for p in DOCS.glob("*.md")} <= links


def test_relative_links_resolve():
    bad = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                bad.append(f"{page.name}: {target}")
            elif anchor and dest.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", dest.read_text(), re.M)
                if anchor not in {slug(h) for h in headings}:
                    bad.append(f"{page.name}: {target} (no such heading)")
    assert not bad, bad
