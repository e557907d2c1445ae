"""Field names are a public contract: every registered field is in the README."""
from tshark import ROOT


def test_every_registered_field_is_documented(tshark):
    out = tshark.run_plain(["-G", "fields"]).stdout
    fields = [p[2] for p in (line.split("\t") for line in out.splitlines())
              if len(p) > 4 and p[0] == "F" and p[4] == "sqlnet"]
    assert len(fields) > 50          # the plugin is loaded and registered its fields
    readme = (ROOT / "README.md").read_text()
    missing = [f for f in fields if f"`{f}`" not in readme]
    assert not missing, f"fields missing from README.md: {missing}"


def test_contract_fields_exist(tshark):
    """Names promised in the issues; renaming one breaks users' filters."""
    out = tshark.run_plain(["-G", "fields"]).stdout
    fields = {p[2] for p in (line.split("\t") for line in out.splitlines()) if len(p) > 2}
    promised = ["sqlnet.length", "sqlnet.type", "sqlnet.flags", "sqlnet.data.flags",
                "sqlnet.data.flags.eof", "sqlnet.data.flags.compressed",
                "sqlnet.data.flags.end_of_request", "sqlnet.data.flags.begin_pipeline",
                "sqlnet.data.flags.end_of_response", "sqlnet.data.len",
                "sqlnet.connect.version", "sqlnet.connect.sdu", "sqlnet.connect.tdu",
                "sqlnet.accept.version", "sqlnet.accept.sdu", "sqlnet.accept.tdu",
                "sqlnet.version", "sqlnet.sdu", "sqlnet.tdu", "sqlnet.sdu_fill", "sqlnet.refuse.err"]
    assert [f for f in promised if f not in fields] == []
