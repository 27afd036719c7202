"""``deadinit check sglang`` after a one-file edit (the incremental analysis on a result-cache miss)
gives the JSON of a ``--no-cache`` run, on sglang 0.5.20 and 0.5.23 (skips without the corpus).

Each version: a private copy of the tree, a first ``check`` (fills the per-file cache and the
analysis state), then per edit (an import at the top, a method added, an allocation's argument
changed in a parent ``__init__`` many classes inherit) a cached ``check`` and a ``--no-cache`` one,
compared as JSON.  Minutes per version: slow tier.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_paths import sglang_tree

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

BACKEND = "srt/layers/attention/flashinfer_backend.py"
PARENT = "srt/multimodal/processors/base_processor.py"


def check(tree: Path, cache: Path, *extra: str) -> tuple[dict, str]:
    cmd = [sys.executable, "-m", "deadinit", "check", tree.name, "--format", "json", "--cache-dir", str(cache), *extra]
    env = dict(os.environ, DEADINIT_STATS="1")
    done = subprocess.run(cmd, cwd=tree.parent, capture_output=True, text=True, env=env, check=False)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return json.loads(done.stdout), done.stderr


def edits(tree: Path):
    backend = tree / BACKEND
    text = backend.read_text()
    yield "import at the top", lambda: backend.write_text("import os as _incremental_probe\n" + text)
    marker = "\nclass FlashInferAttnBackend("
    at = text.index(marker)
    yield (
        "method added",
        lambda: backend.write_text(
            text[:at]
            + marker
            + text[at + len(marker) :].replace(
                "\n    def ", "\n    def _incremental_probe(self):\n        return self.__class__\n\n    def ", 1
            )
        ),
    )
    parent = tree / PARENT
    original = parent.read_text()
    if "max_entries=8192," in original:
        yield (
            "parent allocation changed",
            lambda: (
                backend.write_text(text),
                parent.write_text(original.replace("max_entries=8192,", "max_entries=8000,", 1)),
            ),
        )


@pytest.mark.parametrize("version", ["0.5.20", "0.5.23"])
def test_one_file_edits_match_a_full_run(tmp_path, version):
    tree = tmp_path / "sglang"
    shutil.copytree(sglang_tree(version), tree, ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    check(tree, cache)
    for what, edit in edits(tree):
        edit()
        got, err = check(tree, cache)
        assert "deadinit: incremental:" in err and "'full': False" in err, f"{what}: {err[-500:]}"
        want, _ = check(tree, tmp_path / "nocache", "--no-cache")
        assert got == want, f"sglang {version}, {what}"
