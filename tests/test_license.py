"""The licence (issue 27): LICENSE holds the GPL version 2 text and says sqlnet is
GPL-2.0-or-later; every C source and header and every Lua script says so in an SPDX line."""
import re

from tshark import ROOT

SPDX = "SPDX-License-Identifier: GPL-2.0-or-later"


def test_license_file_is_gpl2_or_later():
    text = (ROOT / "LICENSE").read_text()
    assert SPDX in text
    assert "either version 2 of the License, or (at your option) any later" in text
    # the licence text itself, in full: from its title to its last section
    assert re.search(r"GNU GENERAL PUBLIC LICENSE\s+Version 2, June 1991", text)
    assert "TERMS AND CONDITIONS FOR COPYING, DISTRIBUTION AND MODIFICATION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert "How to Apply These Terms to Your New Programs" in text


def test_every_source_carries_the_spdx_line():
    files = sorted(ROOT.glob("plugin/**/*.[ch]")) + sorted(ROOT.glob("lua/*.lua"))
    assert len(files) > 20
    missing = [str(f.relative_to(ROOT)) for f in files
               if SPDX not in "\n".join(f.read_text().splitlines()[:80])]
    assert not missing, f"no '{SPDX}' line in the header of: {missing}"


def test_readme_names_the_licence():
    readme = (ROOT / "README.md").read_text()
    assert "GPL-2.0-or-later" in readme and "(LICENSE)" in readme
