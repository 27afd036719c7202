"""Fixtures for the fix tests; the helpers live in ``codemod_helpers`` (re-exported here)."""

from pathlib import Path

import pytest
from codemod_helpers import (  # noqa: F401  (re-exported for tests that import conftest)
    GOLDEN,
    HERE,
    PROBE,
    REPO,
    SCENARIOS,
    CachingSummarizer,
    copy_fixtures,
    fix,
    probe,
)


@pytest.fixture
def fixture_tree(tmp_path, monkeypatch):
    """A private copy of ``fixtures/`` as the current folder (finding paths are relative)."""
    copy_fixtures(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def original_probe(tmp_path_factory):
    return probe(copy_fixtures(tmp_path_factory.mktemp("original")))


@pytest.fixture
def write_project(tmp_path):
    """Write {relpath: source} under tmp_path and return the root."""

    def _write(files: dict) -> Path:
        for rel, src in files.items():
            p = tmp_path / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(src)
        return tmp_path

    return _write
