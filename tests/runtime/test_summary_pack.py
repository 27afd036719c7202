"""The pack of all summaries: served only for unchanged files, never trusted when damaged or foreign."""

import hashlib
import mmap
import os
import pickle
import shutil

import pytest
from damaged_files import BYTE_DAMAGE, damage_bytes, rewrite_header

from deadinit.index.discovery import discover
from deadinit.model.settings import Settings
from deadinit.runtime import file_cache, summarizer, summary_pack
from deadinit.runtime.summarizer import ProjectSummarizer

SRC = {
    "pkg/__init__.py": "",
    "pkg/base.py": "import torch\nclass Base:\n    def __init__(self):\n        self.ws = torch.empty(8)\n"
    "    def run(self):\n        return self.ws\n",
    "pkg/child.py": "from pkg.base import Base\nclass Child(Base):\n    def run(self):\n        return 1\n",
    "pkg/util.py": "def helper(x):\n    return x.ws\n",
}


@pytest.fixture(autouse=True)
def _small_projects_packed(monkeypatch):
    monkeypatch.setattr(summarizer, "PACK_MIN_FILES", 0)
    monkeypatch.setattr(summarizer, "REPACK_STALE", 0)


def _run(root, cache_dir):
    s = ProjectSummarizer(jobs=1, cache_dir=str(cache_dir))
    out = s([(f.path, f.module, f.is_package) for f in discover([str(root)]).files], Settings())
    return out, s.stats


def _old(root):
    for p in root.rglob("*.py"):
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns - 10 * file_cache.RACY_NS))


def _pack(cache_dir):
    (pack,) = (cache_dir / summary_pack.FOLDER).glob("*.pack")
    return pack


@pytest.fixture
def warm(write_project, tmp_path):
    root = write_project(SRC)
    _old(root)
    first, st = _run(root, tmp_path / "c")
    assert st["pack_hit"] == 0 and st["pack_written"]
    return root, tmp_path / "c", first


def test_second_run_reads_every_summary_from_the_pack(warm):
    root, cache, first = warm
    second, st = _run(root, cache)
    assert second == first
    assert st["pack_hit"] == 4 and st["summarised"] == 0


def test_changed_file_is_not_served_from_the_pack(warm):
    root, cache, _ = warm
    (root / "pkg/util.py").write_text("def helper(x):\n    return x.other\n")
    out, st = _run(root, cache)
    assert st["pack_hit"] == 3 and st["summarised"] == 1
    util = next(s for s in out if s.module == "pkg.util")
    assert [a.attr for a in util.accesses] == ["other"]


def test_fresh_checkout_is_served_from_the_pack_by_content_hash(warm):
    root, cache, first = warm
    for p in root.rglob("*.py"):
        os.utime(p)  # every mtime new, the content the same
    again, st = _run(root, cache)
    assert again == first
    assert st["pack_hit"] == 0 and st["pack_same"] == 4 and st["summarised"] == 0 and st["pack_written"]


def test_file_replaced_by_one_of_equal_size_and_mtime_is_not_served(warm):
    root, cache, _ = warm
    p = root / "pkg/util.py"
    st = p.stat()
    other = root / "other.txt"
    other.write_text("def helper(y):\n    return y.ws\n")  # same size
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, p)  # a new inode
    _, stats = _run(root, cache)
    assert stats["pack_hit"] == 3


def test_other_targets_use_another_pack(warm):
    root, cache, _ = warm
    _, st = _run(root / "pkg" / "util.py", cache)
    assert st["pack_hit"] == 0 and st["summarised"] == 0 and st["files"] == 1
    assert len(list((cache / summary_pack.FOLDER).glob("*.pack"))) == 2


@pytest.mark.parametrize("damage", [*BYTE_DAMAGE, "foreign", "planted"])
def test_damaged_or_foreign_pack_is_never_trusted(warm, damage):
    root, cache, first = warm
    pack = _pack(cache)
    if damage in BYTE_DAMAGE:
        damage_bytes(pack, damage)
    elif damage == "foreign":
        rewrite_header(pack, summary_pack.MAGIC, lambda head, _: head.update(settings="someone else"))
    else:  # signed with another key
        rewrite_header(pack, summary_pack.MAGIC, lambda head, payload: head.update(digest=_foreign_digest(payload)))
    again, st = _run(root, cache)
    assert again == first
    assert st["pack_hit"] == 0 and st["summarised"] == 0 and st["pack_written"]
    _, st = _run(root, cache)
    assert st["pack_hit"] == 4  # rewritten whole


def test_pack_alone_serves_when_entries_are_gone(warm):
    root, cache, first = warm
    shutil.rmtree(cache / "entries")
    again, st = _run(root, cache)
    assert again == first and st["pack_hit"] == 4


def _foreign_digest(payload: bytes) -> str:
    return hashlib.blake2b(payload, key=b"k" * 32, digest_size=16).hexdigest()


def test_pack_only_its_owner_can_write_is_mapped_else_read(warm):
    root, cache, first = warm
    pack = _pack(cache)
    assert isinstance(summary_pack._read(pack), mmap.mmap)
    pack.chmod(0o664)  # others could change it after its digest was checked: read into memory
    assert isinstance(summary_pack._read(pack), bytes)
    again, st = _run(root, cache)
    assert again == first and st["pack_hit"] == 4


def test_pack_replaced_while_mapped_keeps_serving_the_old_bytes(warm):
    root, cache, first = warm
    old_inode = _pack(cache).stat().st_ino
    packed = summary_pack.SummaryPack(cache, Settings().summary_key(), _items(root)).load()
    assert packed is not None and all(k is not None for k in packed)
    (root / "pkg/util.py").write_text("def helper(x):\n    return x.other\n")
    _, st = _run(root, cache)
    assert st["pack_written"] and _pack(cache).stat().st_ino != old_inode  # moved over the mapped one
    assert [pickle.loads(k.summary_bytes) for k in packed] == first


def _items(root):
    return [(f.path, f.module, f.is_package) for f in discover([str(root)]).files]
