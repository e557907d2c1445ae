"""A filter on a field the message decoders add matches the same frames with a
tree that is not shown as with one that is.

With a hidden tree (-Y, -2 -Y, the SQLNet profile's columns) the stream
decodes a packet's messages again only when a decoder field, an expert
field, the expert tap or the Expert column wants them
(plugin/ttc/ttc_stream.c, display_decode_wanted).  Evidence: tshark's own
matching over a shown tree (-T fields shows every item: the messages are
always decoded there), turned into the expected frame set in Python
(membership, "contains", "> 0" on the printed values); the hidden-tree runs
print the summary lines, whose first column is the frame number.  One
-T fields run per capture, one run per filter and mode.
"""
import re

import pytest

from tshark import TEST_CAPTURES

# rows (repeated columns), bind values, an ORA in the middle of a fetch
CAPTURES = ["arraysize_10.pcapng", "binds_23ai_python.pcapng", "error_midfetch.pcapng"]
FIELDS = ["frame.number", "sqlnet.row.value", "sqlnet.bind.value", "sqlnet.sql", "sqlnet.oer.error",
          "_ws.expert.message", "sqlnet.fetch.rows"]

# filter -> test of one frame's shown fields (a dict of field -> list of values)
FILTERS = {
    'sqlnet.row.value contains "1"': lambda f: any("1" in v for v in f["sqlnet.row.value"]),
    "sqlnet.bind.value": lambda f: bool(f["sqlnet.bind.value"]),
    # on calls the decoders' item; on responses the summary's (not decoded again)
    'sqlnet.sql contains "SELECT"': lambda f: any("SELECT" in v for v in f["sqlnet.sql"]),
    "sqlnet.oer.error > 0": lambda f: any(int(v) > 0 for v in f["sqlnet.oer.error"] if v),
    "_ws.expert.message": lambda f: bool(f["_ws.expert.message"]),
    # an expert info by its own name: on the round trip's record (metrics.c),
    # which a tree that is not shown leaves without its item unless the
    # info's field or _ws.expert's are referenced (sqlnet_expert_item)
    "sqlnet.small_fetch": lambda f: any(v.startswith("Small fetch size") for v in f["_ws.expert.message"]),
    # ORA-01722 has an expert field of its own (ora_errors.h)
    "sqlnet.ora_error.ora01722": lambda f: any(v.startswith("ORA-01722") for v in f["_ws.expert.message"]),
    # the round trip's summary (consumers/metrics.c), no decoder field: the
    # messages are not decoded again, and the frames are the same
    "sqlnet.fetch.rows < 50": lambda f: any(int(v) < 50 for v in f["sqlnet.fetch.rows"] if v),
}


def _profile_columns():
    text = (TEST_CAPTURES.parent / "profiles" / "SQLNet" / "preferences").read_text()
    block = text.split("gui.column.format:", 1)[1].split("\n\n", 1)[0]
    vals = re.findall(r'"([^"]*)"', block)
    return ["-o", "gui.column.format:" + ",".join(f'"{v}"' for v in vals)]


# -2 -Y: the second pass, over frames already visited.  (-2 -R matches no
# frame on a field below the TNS header, sqlnet.data.len included, before
# and after this change: not compared here.)
MODES = {"Y": lambda flt: ["-Y", flt],
         "2Y": lambda flt: ["-2", "-Y", flt],
         "columns": lambda flt: _profile_columns() + ["-Y", flt]}


@pytest.fixture(scope="module")
def shown(tshark):
    """Per capture: frame number -> its fields, from a shown tree."""
    out = {}
    for name in CAPTURES:
        rows = tshark.run(TEST_CAPTURES / name,
                          ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=\x1f"]
                          + [x for f in FIELDS for x in ("-e", f)]).stdout.splitlines()
        frames = {}
        for line in rows:
            cols = line.split("\t")
            cols += [""] * (len(FIELDS) - len(cols))
            frames[int(cols[0])] = {f: [v for v in c.split("\x1f") if v] for f, c in zip(FIELDS[1:], cols[1:])}
        out[name] = frames
    return out


def _frames(tshark, name, args):
    proc = tshark.run(TEST_CAPTURES / name, args)
    assert proc.stderr.strip() == "", proc.stderr
    return {int(line.split()[0]) for line in proc.stdout.splitlines() if line.strip()}


# every filter with -Y; the second pass and the profile's columns with two
CASES = [(flt, "Y") for flt in sorted(FILTERS)] + \
        [(flt, mode) for flt in ('sqlnet.row.value contains "1"', "sqlnet.fetch.rows < 50", "sqlnet.small_fetch",
                                 "sqlnet.ora_error.ora01722", "_ws.expert.message") for mode in ("2Y", "columns")]


@pytest.mark.parametrize("flt,mode", CASES)
def test_hidden_tree_filter_matches_shown_tree(tshark, shown, flt, mode):
    for name in CAPTURES:
        expected = {n for n, f in shown[name].items() if FILTERS[flt](f)}
        assert _frames(tshark, name, MODES[mode](flt)) == expected, (name, flt, mode)


def test_filters_match_something(shown):
    """Each filter matches frames in at least one capture (else the test above
    could not fail for it)."""
    for flt, match in FILTERS.items():
        assert any(match(f) for name in CAPTURES for f in shown[name].values()), flt
