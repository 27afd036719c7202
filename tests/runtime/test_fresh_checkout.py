"""CI with a restored cache: a fresh checkout and a fresh install of the same code still hit.

A checkout gives every file a new mtime and ``pip install`` every deadinit module one:
the per-file cache recognises the contents by their hash, and so does the result
cache (every file is hashed, none summarised), whose key reads deadinit's modules by
content.
"""

import ast
import json
import os

import pytest
from sample_project import invoke

from deadinit.runtime import result_cache

FILES = 24  # more than result_cache.MAX_CHANGED: every one of them gets a new mtime


@pytest.fixture
def proj(write_project):
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "import torch\nclass Base:\n    def __init__(self):\n        self.ws = torch.empty(8)\n",
    }
    for i in range(FILES):
        files[f"pkg/child{i}.py"] = (
            f"import torch\nfrom pkg.base import Base\nclass Child{i}(Base):\n    def __init__(self):\n"
            "        super().__init__()\n        self.ws = torch.empty(16)\n"
        )
    return write_project(files)


def _check(root):
    res = invoke(
        ["check", ".", "--format", "json", "--cache-dir", root / ".cache-ci"], cwd=root, env={"DEADINIT_STATS": "1"}
    )
    assert res.exit_code == 1, res.stderr
    return json.loads(res.stdout), res.stderr


def _new_mtimes(root, seconds: int) -> None:
    for p in root.rglob("*.py"):
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def test_every_mtime_new_same_contents_is_a_hit(proj, full_runs):
    assert FILES > result_cache.MAX_CHANGED
    first, _ = _check(proj)
    _new_mtimes(proj, 60)
    again, stderr = _check(proj)
    assert again == first and len(full_runs) == 1
    assert "deadinit: summaries:" not in stderr  # nothing summarised: the stored result held


def test_new_mtimes_and_one_edit_summarise_only_the_edit(proj, full_runs):
    first, _ = _check(proj)
    _new_mtimes(proj, 60)
    child = proj / "pkg/child3.py"
    child.write_text(child.read_text().replace("self.ws = torch.empty(16)", "self.other = torch.empty(16)"))
    after, stderr = _check(proj)
    assert len(full_runs) == 2 and after != first
    stats = ast.literal_eval(stderr.split("deadinit: summaries: ", 1)[1].splitlines()[0])
    assert stats["summarised"] <= 1  # the edited file (the result cache's helper may have done it)


def test_the_result_key_reads_deadinits_modules_by_content(tmp_path, monkeypatch):
    package = tmp_path / "deadinit"
    (package / "runtime").mkdir(parents=True)
    module = package / "runtime" / "result_cache.py"
    module.write_text("x = 1\n")
    monkeypatch.setattr(result_cache, "__file__", str(module))

    def fingerprint():  # read once per process: a new process each time
        result_cache.code_fingerprint.cache_clear()
        return result_cache.code_fingerprint()

    try:
        before = fingerprint()
        os.utime(module, ns=(0, 10**18))  # reinstalled: new mtime, same code
        assert fingerprint() == before
        module.write_text("x = 2\n")
        assert fingerprint() != before
    finally:
        result_cache.code_fingerprint.cache_clear()
