"""Object columns (CREATE TYPE ... AS OBJECT) in generated captures: object_*_goora.

Evidence: a real client accepting the scripted server's bytes.  go-ora v2.9.0 registers
the type SQLNET_POINT (its OID from ALL_TYPES, its attributes from ALL_TYPE_ATTRS, both
queries answered by the scripted server), then reads every row of a query whose second
column is of that type, and reports each object's attribute values; the generator's
verify step (sqlnet.verify, rule 1f) has already compared them with the objects the
server sent.  go-ora finds its registered type by the name in the column's describe
and walks each value as type OID, OID, snapshot, version, image length, flags and the
pickled image (the layout of python-oracledb packet.pyx read_dbobject): so the row and
object counts below come from the client, and the type name from the name the client
matched.  object_varray_19_goora's type SQLNET_SHAPE has a VARRAY-of-NUMBER attribute:
go-ora registers the collection first and reads each nested collection image (0 to 3
elements).  The server's image bytes themselves are our belief (go-ora reads them as the
reference does), not a real database's.
"""
import json
import shutil

import pytest

from tshark import TEST_CAPTURES



def object_manifests():
    out = []
    for path in sorted(TEST_CAPTURES.glob("object_*.json")):
        m = json.loads(path.read_text())
        if (TEST_CAPTURES / m["capture"]).is_file():
            out.append(pytest.param(m, id=m["scenario"]))
    return out


MANIFESTS = object_manifests()


def client_statement(manifest):
    """The client's report of its query on the object table."""
    rep = manifest["client"]["report"]
    for r in rep if isinstance(rep, list) else [rep]:
        for s in r.get("sessions", []):
            for st in s.get("statements", []):
                if "objects" in st:
                    return st
    raise AssertionError("no object query in the client's report")


def object_table(manifest):
    return next(t for t in manifest["server"]["tables"] if t.get("object_type"))


def test_object_scenarios_exist():
    """The object scenarios are generated (11.2, 19, 23ai with go-ora; a VARRAY attribute
    at 19)."""
    assert {m.values[0]["scenario"] for m in MANIFESTS} >= {"object_112_goora", "object_19_goora",
                                                             "object_23ai_goora", "object_varray_19_goora"}


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_object_rows_as_the_client_read_them(tshark, manifest):
    """Rows of the object query = the rows go-ora read (each with its object's attributes);
    one object value per row, of the type go-ora matched by its describe name; the
    capture decodes to its end (nothing skipped, no response partial)."""
    cap = TEST_CAPTURES / manifest["capture"]
    st = client_statement(manifest)
    otype = object_table(manifest)["object_type"]
    type_name = f'{otype["schema"]}.{otype["name"]}'
    assert st["error"] is None
    assert st["rows"] == len(st["objects"]) > 0
    attrs = {a["name"] for a in otype["attrs"]}
    assert all(len(row) == 1 and set(row[0]) == attrs for row in st["objects"])
    assert tshark.fields(cap, ["frame.number"], "sqlnet.undecoded || sqlnet.ttc.partial || _ws.malformed || "
                         "sqlnet.rt.partial || (sqlnet && _ws.expert.group == 0x05000000)") == []
    rows = sum(int(r[0]) for r in tshark.fields(cap, ["sqlnet.rows"], f'sqlnet.rows && sqlnet.sql == "{st["sql"]}"'))
    assert rows == st["rows"]
    # the column's describe names the type go-ora registered (it matched that name)
    names = tshark.fields(cap, ["sqlnet.describe.column.type_name"], "sqlnet.describe.column.type_name")
    assert names == [[type_name]]
    objs = tshark.fields(cap, ["sqlnet.row.object", "sqlnet.row.object.image_length"], "sqlnet.row.object")
    values = [(n, int(length)) for row in objs for n, length in zip(row[0].split(","), row[1].split(","))]
    assert len(values) == st["rows"]
    assert all(n == type_name and length > 0 for n, length in values)


def first_object_image(data, toid):
    """Offset of the DALC length byte of the first object image after `toid` in a row value
    (toid, then empty OID and snapshot, version 0: 00 00 00, image length ub4, flags 01 01)."""
    at = data.find(toid + b"\x00\x00\x00")
    assert at > 0
    p = at + len(toid) + 3
    p += 1 + data[p]                      # image length ub4 (universal: length byte, bytes)
    assert data[p:p + 2] == b"\x01\x01"    # flags
    return p + 2


@pytest.mark.parametrize("manifest", MANIFESTS[:1])
def test_corrupt_image_length_is_seen(tshark, manifest, tmp_path):
    """The check above can fail: the same capture with the first object image's length
    byte raised by 3 (hand-made from the capture's bytes) no longer decodes to its end."""
    src = TEST_CAPTURES / manifest["capture"]
    toid = bytes.fromhex(object_table(manifest)["object_type"]["toid"])
    data = bytearray(src.read_bytes())
    at = first_object_image(data, toid)
    assert data[at + 1] == 0x84           # image flags follow the length
    data[at] += 3
    bad = tmp_path / "corrupt.pcapng"
    bad.write_bytes(bytes(data))
    shutil.copymode(src, bad)
    st = client_statement(manifest)
    flagged = tshark.fields(bad, ["frame.number"], "sqlnet.undecoded || sqlnet.ttc.partial")
    rows = sum(int(r[0]) for r in tshark.fields(bad, ["sqlnet.rows"], f'sqlnet.rows && sqlnet.sql == "{st["sql"]}"'))
    assert flagged and rows != st["rows"]
