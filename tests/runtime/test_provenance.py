"""deadinit.runtime.provenance: the commit of the checkout deadinit runs from, and only of that one."""

import os
import shutil
import subprocess

import pytest

from deadinit import __version__
from deadinit.runtime.provenance import Provenance, provenance

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(cwd, *args) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env={**os.environ, **env})
    return out.stdout.strip()


def _repo(root, *tracked: str):
    """A git work tree with ``deadinit/__init__.py`` and ``README.md`` at its top; ``tracked`` committed."""
    (root / "deadinit").mkdir(parents=True)
    (root / "deadinit" / "__init__.py").write_text("")
    (root / "README.md").write_text("x\n")
    _git(root, "init", "-q")
    _git(root, "add", *tracked)
    _git(root, "commit", "-q", "-m", "one")
    return root


@pytest.fixture
def checkout(tmp_path):
    """A git work tree with a committed ``deadinit/`` at its top, as a clone of the project has."""
    return _repo(tmp_path / "repo", ".")


def test_a_clean_checkout_names_its_commit(checkout):
    got = provenance(checkout / "deadinit")
    assert got == Provenance(__version__, _git(checkout, "rev-parse", "HEAD"), False)
    assert got.to_json() == {"version": __version__, "commit": got.commit, "modified": False}


def test_a_change_to_the_package_marks_it_modified_and_one_beside_it_does_not(checkout):
    (checkout / "README.md").write_text("changed\n")
    (checkout / "notes.txt").write_text("untracked, outside the package\n")
    assert provenance(checkout / "deadinit").modified is False
    (checkout / "deadinit" / "new.py").write_text("")  # untracked inside the package
    assert provenance(checkout / "deadinit").modified is True
    (checkout / "deadinit" / "new.py").unlink()
    (checkout / "deadinit" / "__init__.py").write_text("x = 1\n")
    assert provenance(checkout / "deadinit").modified is True


def test_an_installed_copy_inside_another_repository_names_no_commit(checkout):
    site = checkout / "venv" / "lib" / "site-packages" / "deadinit"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text("")
    assert provenance(site) == Provenance(__version__, None, None)


def test_an_untracked_package_at_the_top_names_no_commit(tmp_path):
    root = _repo(tmp_path / "repo", "README.md")
    assert provenance(root / "deadinit") == Provenance(__version__, None, None)


def test_a_git_hooks_repository_is_not_taken_for_deadinits(checkout, tmp_path, monkeypatch):
    """Run from a pre-commit hook, GIT_DIR names the project being committed to."""
    other = tmp_path / "project"
    other.mkdir()
    _git(other, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    assert provenance(checkout / "deadinit").commit == _git(
        checkout, "--git-dir", str(checkout / ".git"), "rev-parse", "HEAD"
    )


def test_outside_any_repository_no_commit(tmp_path):
    (tmp_path / "deadinit").mkdir()
    (tmp_path / "deadinit" / "__init__.py").write_text("")
    assert provenance(tmp_path / "deadinit") == Provenance(__version__, None, None)
