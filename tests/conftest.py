import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tshark import PUBLIC, Tshark  # noqa: E402


@pytest.fixture(scope="session")
def tshark():
    t = Tshark()
    yield t
    t.close()


@pytest.fixture(scope="session")
def public_dir():
    if not (PUBLIC / "EXPECTED.json").is_file():
        pytest.skip(f"public captures not available ({PUBLIC})")
    return PUBLIC
