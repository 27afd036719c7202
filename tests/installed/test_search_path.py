"""Where libraries are read from, whichever way deadinit was started, and the digest of it."""

import os

from deadinit.installed.search_path import environment_digest, search_entries
from deadinit.model.settings import Settings


def test_configured_folders_come_first_and_only_they_without_installed_packages(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    settings = Settings(library_paths=("lib", str(tmp_path / "missing")), config_root=str(tmp_path))
    assert search_entries(settings)[0] == str(lib.resolve())
    settings.installed_packages = False
    assert search_entries(settings) == (str(lib.resolve()),)


def test_pythonpath_and_the_active_venv_with_its_pth_folders(tmp_path, monkeypatch, venv):
    extra, editable = tmp_path / "extra", tmp_path / "editable"
    extra.mkdir()
    editable.mkdir()
    site = next(venv.glob("lib/python*/site-packages"))
    (site / "project.pth").write_text(f"# a comment\nimport sys\n{editable}\n")
    monkeypatch.setenv("PYTHONPATH", str(extra))
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    entries = search_entries(Settings())
    assert entries[:3] == (str(extra.resolve()), str(site.resolve()), str(editable.resolve()))
    assert os.getcwd() not in entries[:3]


def test_installing_a_package_changes_the_digest(tmp_path):
    settings = Settings(installed_packages=False, library_paths=(str(tmp_path),))
    before = environment_digest(settings)
    assert environment_digest(settings) == before
    (tmp_path / "newlib").mkdir()
    os.utime(tmp_path, ns=(0, os.stat(tmp_path).st_mtime_ns + 1_000_000_000))
    assert environment_digest(settings) != before
