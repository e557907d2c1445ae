"""The object scenarios' own checks (object_*_goora): verify's rule 1f is not vacuous, and
the type catalogue answers a query by its bound type name.

Evidence: go-ora's report in the committed manifests (what the real client read); the
mutations below are ours, to show the comparison can fail."""

import copy
import json
import sys

import pytest

from testgen_helpers import CAPTURES, ROOT

sys.path.insert(0, str(ROOT / "testgen"))
from sqlnetgen.verify import verify  # noqa: E402
from sqlnetgen import catalog  # noqa: E402

NAMES = ["object_19_goora", "object_varray_19_goora"]


def manifest(name):
    p = CAPTURES / f"{name}.json"
    if not p.exists():
        pytest.skip(f"{p.name} not generated")
    return json.loads(p.read_text())


def object_rows(m):
    for s in m["client"]["report"]["sessions"]:
        for st in s["statements"]:
            if "objects" in st:
                return st["objects"]
    raise AssertionError("no object query in the report")


@pytest.mark.parametrize("name", NAMES)
def test_verify_compares_every_attribute(name):
    """The committed manifest verifies; changing one attribute the client read, dropping a
    row, or a failed type registration each make verify report a problem."""
    m = manifest(name)
    assert verify(m) == []
    rows = object_rows(m)
    assert len(rows) == m["client"]["rows_received"]
    bad = copy.deepcopy(m)
    obj = object_rows(bad)[7][0]
    key = next(k for k, v in obj.items() if v)
    obj[key] = obj[key][:-1] if isinstance(obj[key], list) else str(obj[key]) + "0"
    assert any("objects of" in p for p in verify(bad))
    bad = copy.deepcopy(m)
    object_rows(bad).pop()
    assert any("objects of" in p for p in verify(bad))
    bad = copy.deepcopy(m)
    reg = next(st for st in bad["client"]["report"]["sessions"][0]["statements"]
               if str(st.get("action", "")).startswith("register_type"))
    reg["error"] = "type: SQLNET_POINT is not present or wrong type name"
    assert any("register_type" in p for p in verify(bad))


def test_varray_rows_have_collections_of_0_to_3_elements():
    """go-ora read the nested VARRAY of every row: 0 to 3 elements, the empty one too."""
    rows = object_rows(manifest("object_varray_19_goora"))
    assert {len(r[0]["VERTICES"]) for r in rows} == {0, 1, 2, 3}


def test_catalogue_answers_by_bound_type_name():
    """The server's ALL_TYPES answers each RegisterType query with the one row of the type
    it binds (go-ora queried two types: two executions, one row each)."""
    m = manifest("object_varray_19_goora")
    sent = [r["response"]["rows_sent"] for c in m["connections"] for r in c["requests"]
            if (r.get("sql") or "").startswith("SELECT type_oid FROM ALL_TYPES")]
    assert sent == [1, 1]
    assert "object_varray_19_goora" in catalog.by_name()
