"""The Debian package (issue 27, ./run.sh package): its control fields and files, read
with dpkg-deb and compared with what the system says (tshark's version and folders,
pkg-config's plugindir, dpkg's owner of libwireshark), not with scripts/package.sh.
Nothing is installed on the host (scripts/package_test.sh installs, uses and purges it
in a build root)."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tshark import BUILD, ROOT, staged_plugin

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("dpkg-deb", "dpkg-query", "pkg-config", "objdump", "tshark", "strip")),
    reason="dpkg-deb, pkg-config, objdump, strip or tshark missing")


def sh(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def deb(tmp_path_factory):
    if staged_plugin() is None:
        pytest.skip("build first")
    out = tmp_path_factory.mktemp("deb")
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "package.sh")], capture_output=True, text=True,
                          env=dict(os.environ, SQLNET_BUILD_DIR=str(BUILD), SQLNET_PACKAGE_DIR=str(out)))
    assert proc.returncode == 0, proc.stderr
    debs = list(out.glob("*.deb"))
    assert len(debs) == 1, debs
    tree = out / "x"
    sh("dpkg-deb", "-x", str(debs[0]), str(tree))
    return debs[0], tree


def ws_release():
    m = re.search(r"TShark \(Wireshark\) (\d+)\.(\d+)\.(\d+)", sh("tshark", "--version"))
    return m.group(1), m.group(2), m.group(3)


def folders():
    out = sh("tshark", "-G", "folders")
    return dict(line.split(":", 1)[0:1] + [line.split(":", 1)[1].strip()] for line in out.splitlines() if ":" in line)


def test_name_version_arch(deb):
    path, _ = deb
    major, minor, _ = ws_release()
    arch = sh("dpkg", "--print-architecture").strip()
    version = (ROOT / "plugin" / "VERSION").read_text().strip()
    assert path.name == f"sqlnet-wireshark{major}.{minor}_{version}_{arch}.deb"
    assert sh("dpkg-deb", "-f", str(path), "Package").strip() == f"sqlnet-wireshark{major}.{minor}"
    assert sh("dpkg-deb", "-f", str(path), "Architecture").strip() == arch


def test_depends_on_this_libwireshark_and_tshark(deb):
    path, _ = deb
    major, minor, micro = ws_release()
    # the package that owns the libwireshark tshark runs with
    libws = [line.split()[2] for line in sh("ldd", shutil.which("tshark")).splitlines()
             if "libwireshark.so" in line and "=>" in line][0]
    owner = sh("dpkg", "-S", os.path.realpath(libws)).split(":")[0]
    depends = [d.strip() for d in sh("dpkg-deb", "-f", str(path), "Depends").split(",")]
    assert f"{owner} (>= {major}.{minor}.{micro})" in depends, depends
    assert f"{owner} (<< {major}.{int(minor) + 1}~)" in depends, depends
    assert "tshark" in depends


def test_files_in_the_global_folders(deb):
    path, tree = deb
    plugindir = sh("pkg-config", "--variable=plugindir", "wireshark").strip()
    f = folders()
    assert f["Global Plugins"] == plugindir          # the two agree on this system
    module = tree / plugindir.lstrip("/") / "epan" / "sqlnet.so"
    assert module.is_file()
    assert "plugin_register" in sh("objdump", "-T", str(module))
    for lua in (ROOT / "lua").glob("*.lua"):
        assert (tree / f["Global Lua Plugins"].lstrip("/") / lua.name).read_bytes() == lua.read_bytes()
    for p in (ROOT / "profiles" / "SQLNet").iterdir():
        assert (tree / "usr/share/sqlnet/profiles/SQLNet" / p.name).read_bytes() == p.read_bytes()
    installer = tree / "usr/share/sqlnet/scripts/install_profile.sh"
    assert installer.read_bytes() == (ROOT / "scripts" / "install_profile.sh").read_bytes()
    assert os.access(installer, os.X_OK)
    pkg = path.name.split("_")[0]
    assert (tree / f"usr/share/doc/{pkg}/copyright").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert (tree / f"usr/share/doc/{pkg}/README.md").is_file()
    report = tree / "usr/bin/sqlnet-report"
    assert report.is_symlink() and (report.parent / os.readlink(report)).resolve().is_file()


def test_file_list_matches_dpkg_deb_c(deb):
    """dpkg-deb -c lists what dpkg-deb -x unpacked, all owned by root"""
    path, tree = deb
    listing = sh("dpkg-deb", "-c", str(path)).splitlines()
    assert all(" root/root " in line for line in listing)
    names = {line.split()[5].lstrip("./") for line in listing if not line.split()[5].endswith("/")}
    unpacked = {str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file() or p.is_symlink()}
    assert names == unpacked
