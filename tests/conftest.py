from pathlib import Path

import pytest
from corpus_paths import CORPUS_DIR, FIXTURES, REPO, sglang_tree  # noqa: F401  (re-exported)


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
