import shutil
import sys
from pathlib import Path

import pytest
from layer_site import SITE

from deadinit.installed import environment


@pytest.fixture(autouse=True)
def fresh_libraries(tmp_path, monkeypatch):
    """Each test reads libraries into a cache of its own, with no library index kept from another."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    environment._indexes.clear()
    yield
    environment._indexes.clear()


@pytest.fixture
def venv(tmp_path) -> Path:
    """A virtual environment's folder with layerlib installed in it (its files and its dist-info)."""
    root = tmp_path / "venv"
    site = root / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    shutil.copytree(SITE, site, ignore=shutil.ignore_patterns("__pycache__"))
    return root
