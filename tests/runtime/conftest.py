"""Fixtures shared by the cache tests: a per-test user key folder, and a count of full analyses."""

import pytest

from deadinit.api import project as project_cmd


@pytest.fixture(autouse=True)
def _user_key(tmp_path, monkeypatch):
    """The cache's signing key lives outside the project, per user: one per test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))


@pytest.fixture
def full_runs(monkeypatch):
    """Counts the runs that analysed (result-cache misses run the incremental analysis, ``--no-cache`` the full one)."""
    calls = []

    def counting(real):
        def run(*a, **kw):
            calls.append(1)
            return real(*a, **kw)

        return run

    for name in ("full", "incremental"):
        monkeypatch.setattr(project_cmd.Session, name, counting(getattr(project_cmd.Session, name)))
    return calls
