"""The summary cache: hits, invalidation, damaged and foreign entries, concurrent writers."""

import os
import threading

import pytest
from corpus_paths import FIXTURES
from damaged_files import BYTE_DAMAGE, damage_bytes, rewrite_header

from deadinit.api.check import run_check
from deadinit.index.discovery import discover
from deadinit.model.settings import Settings
from deadinit.runtime import file_cache as cache_mod
from deadinit.runtime.file_cache import Cache, new_entry
from deadinit.runtime.summarizer import ProjectSummarizer

SRC = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import torch\nclass Base:\n    def __init__(self):\n        self.ws = torch.empty(8)\n"
    "    def run(self):\n        return self.ws\n",
    "pkg/child.py": "from pkg.base import Base\nclass Child(Base):\n    def run(self):\n        return 1\n",
    "pkg/util.py": "def helper(x):\n    return x.ws\n",
}


def _items(root):
    return [(f.path, f.module, f.is_package) for f in discover([str(root)]).files]


def _run(root, cache_dir, jobs=1, **kw):
    s = ProjectSummarizer(jobs=jobs, cache_dir=str(cache_dir), **kw)
    out = s(_items(root), Settings())
    return out, s.stats


def _old(root):
    """Files older than the racy-mtime window, as a checkout usually is."""
    for p in root.rglob("*.py"):
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns - 10 * cache_mod.RACY_NS))


def test_second_run_summarises_nothing_and_gives_equal_summaries(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    first, st1 = _run(root, tmp_path / "c")
    second, st2 = _run(root, tmp_path / "c")
    assert st1["summarised"] == 4 and st2["summarised"] == 0
    assert first == second


def test_cache_folder_has_its_own_gitignore(write_project, tmp_path):
    root = write_project(SRC)
    _run(root, tmp_path / "c")
    assert (tmp_path / "c" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_changed_file_is_summarised_again_and_only_it(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    _run(root, tmp_path / "c")
    (root / "pkg/util.py").write_text("def helper(x):\n    return x.other\n")
    out, st = _run(root, tmp_path / "c")
    assert st["summarised"] == 1
    util = next(s for s in out if s.module == "pkg.util")
    assert [a.attr for a in util.accesses] == ["other"]


def test_touched_but_unchanged_file_is_recognised_by_its_hash(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    _run(root, tmp_path / "c")
    os.utime(root / "pkg/base.py")  # new mtime, same content
    _, st = _run(root, tmp_path / "c")
    assert st["summarised"] == 0


def test_another_file_moved_over_one_with_its_size_and_mtime_is_summarised_again(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    _run(root, tmp_path / "c")
    p, other = root / "pkg/util.py", root / "util.py.new"
    other.write_text("def helper(x):\n    return x.wz\n")  # the same size
    st = p.stat()
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, p)  # another inode, the recorded size and mtime
    out, stats = _run(root, tmp_path / "c")
    assert stats["summarised"] == 1
    util = next(s for s in out if s.module == "pkg.util")
    assert [a.attr for a in util.accesses] == ["wz"]


def test_mtime_in_the_racy_window_is_not_trusted(write_project, tmp_path):
    root = write_project(SRC)  # just written: mtimes are "now"
    _run(root, tmp_path / "c")
    p = root / "pkg/util.py"
    mtime = p.stat().st_mtime_ns
    p.write_text("def helper(y):\n    return y.ws\n")  # same size, and the same mtime below
    os.utime(p, ns=(mtime, mtime))
    _, st = _run(root, tmp_path / "c")
    assert st["summarised"] == 1


def _entry_files(folder):
    return sorted((folder / "entries").rglob("*.bin"))


@pytest.mark.parametrize("damage", [*BYTE_DAMAGE, "foreign", "other-settings"])
def test_damaged_or_foreign_entries_are_rebuilt_never_trusted(write_project, tmp_path, damage):
    root = write_project(SRC)
    _old(root)
    good, _ = _run(root, tmp_path / "c")
    for f in _entry_files(tmp_path / "c"):
        if damage in BYTE_DAMAGE:
            damage_bytes(f, damage)
        else:
            field = "version" if damage == "foreign" else "settings"
            rewrite_header(f, cache_mod.MAGIC, lambda head, _, field=field: head.update({field: "someone else"}))
    again, st = _run(root, tmp_path / "c")
    assert again == good and st["summarised"] == 4
    assert st["cache_bad"] == 4
    _, st = _run(root, tmp_path / "c")
    assert st["summarised"] == 0  # rebuilt entries are good again


def test_a_payload_signed_with_another_key_is_not_unpickled(write_project, tmp_path, monkeypatch):
    root = write_project(SRC)
    _old(root)
    _run(root, tmp_path / "c")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-user"))
    _, st = _run(root, tmp_path / "c")
    assert st["summarised"] == 4 and st["cache_bad"] == 4


def test_concurrent_writers_leave_whole_entries(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    c = Cache(tmp_path / "c", Settings().summary_key())
    path = str(root / "pkg/base.py")
    st = os.stat(path)
    blobs = [bytes([i]) * (200_000 + i) for i in range(8)]

    def write(b):
        for _ in range(20):
            c.store(path, "pkg.base", False, new_entry(st, "h", b))

    threads = [threading.Thread(target=write, args=(b,)) for b in blobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    e = c.load(path, "pkg.base", False)
    assert e is not None and e.summary_bytes in blobs
    assert not [p for p in (tmp_path / "c").rglob("*.deadinit-tmp")]


def test_findings_with_a_warm_cache_equal_a_cold_run(tmp_path):
    stock = run_check([str(FIXTURES)], Settings())
    for _ in range(2):
        res = run_check([str(FIXTURES)], Settings(), summarizer=ProjectSummarizer(jobs=2, cache_dir=str(tmp_path)))
        assert [f.to_json() for f in res.findings] == [f.to_json() for f in stock.findings]


def test_unwritable_cache_folder_only_costs_speed(write_project, tmp_path):
    root = write_project(SRC)
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("")
    out, st = _run(root, blocker / "c")
    assert st["summarised"] == 4 and all(not hasattr(o, "message") for o in out)


def test_the_cache_key_follows_deadinits_own_code(tmp_path):
    """A summary cached by other code (an upgrade, another commit, an edited editable install) is
    not read back: the key holds a digest of the analysing modules, the GPU check's aside."""
    from deadinit.runtime.file_cache import ENV, code_digest

    (tmp_path / "semantics").mkdir()
    (tmp_path / "gpu_check").mkdir()
    module, gpu = tmp_path / "semantics" / "walk.py", tmp_path / "gpu_check" / "run.py"
    module.write_text("A = 1\n")
    gpu.write_text("B = 1\n")
    before = code_digest(tmp_path)
    gpu.write_text("B = 22\n")
    assert code_digest(tmp_path) == before
    module.write_text("A = 22\n")
    assert code_digest(tmp_path) != before
    assert code_digest() in ENV
