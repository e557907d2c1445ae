"""The Lua scripts in a Wireshark without the sqlnet C plugin (issue 27): one clear line
that says the plugin is not loaded, no Lua error, and no sqlnet report registered
(tshark then rejects -z sqlnet,advise as it rejects any unknown -z argument)."""
import pytest

from tshark import TEST_CAPTURES, Tshark

LINE = "sqlnet Lua reports: the sqlnet plugin (sqlnet.so) is not loaded"


@pytest.fixture(scope="module")
def lua_only():
    t = Tshark(with_plugin=False)
    assert not list(t.plugin_dir.rglob("*.so")) and list(t.plugin_dir.glob("sqlnet_*.lua"))
    yield t
    t.close()


def test_one_clear_line_and_no_lua_error(lua_only):
    proc = lua_only.run(TEST_CAPTURES / "sweep_arraysize.pcapng", ["-q"])
    said = [line for line in proc.stderr.splitlines() if LINE in line]
    assert len(said) == 1, proc.stderr
    assert "README" in said[0]
    assert "Lua: Error" not in proc.stderr and "stack traceback" not in proc.stderr, proc.stderr
    # everything else tshark prints on stderr is that one line
    assert proc.stderr.strip() == said[0], proc.stderr


def test_no_sqlnet_report_registered(lua_only):
    proc = lua_only.run(TEST_CAPTURES / "sweep_arraysize.pcapng", ["-q", "-z", "sqlnet,advise"], check=False)
    assert 'Invalid -z argument "sqlnet,advise"' in proc.stderr
    assert "Lua: Error" not in proc.stderr, proc.stderr
    listed = proc.stderr.split("it must be one of:")[-1].split()
    assert not [z for z in listed if z.startswith("sqlnet,")], listed
