"""``deadinit.model.summary``: a file summary's module-level names (imports, constants, functions,
return annotations) and its constructions stay pickled bytes until one of their group is read, and
read back equal to the eager summary, with either adapter; records built by hand-written
``__init__`` methods are the dataclass's records."""

import dataclasses
import pickle
from pathlib import Path

import pytest
from corpus_paths import FIXTURES

from deadinit.frontends.parse import summarize_source
from deadinit.model.access import Access, TypeRef
from deadinit.model.settings import Settings
from deadinit.model.summary import CONSTRUCTS_BLOB, MODULE_CONSTRUCTS, MODULE_NAMES, NAMES_BLOB, FileSummary

SOURCES = sorted(FIXTURES.rglob("*.py"))
LAZY = (*MODULE_NAMES, *MODULE_CONSTRUCTS)


def _summary(path: Path, adapter: str) -> FileSummary:
    s = summarize_source(path.read_bytes(), str(path), path.stem, False, Settings(), adapter=adapter)
    assert not isinstance(s, Exception), s
    return s


@pytest.mark.parametrize("adapter", ["ast", "cst"])
@pytest.mark.parametrize("path", SOURCES[:30], ids=lambda p: p.name)
def test_round_trip_is_the_eager_summary_and_lazy(path, adapter):
    fresh = _summary(path, adapter)
    eager = {name: getattr(fresh, name) for name in LAZY}
    loaded = pickle.loads(pickle.dumps(fresh))
    assert not set(LAZY) & loaded.__dict__.keys()  # bytes until read
    assert pickle.dumps(loaded) == pickle.dumps(fresh)  # pickled again from the same bytes, still unread
    assert loaded == fresh  # every field read: equal to the eager summary
    assert {name: getattr(loaded, name) for name in LAZY} == eager
    assert pickle.dumps(loaded) == pickle.dumps(fresh)


def test_each_group_is_unpickled_on_its_own_first_read():
    fresh = _summary(FIXTURES / "backends" / "flash_backend.py", "ast")
    assert fresh.imports and fresh.constructs
    loaded = pickle.loads(pickle.dumps(fresh))
    assert loaded.imports == fresh.imports  # the names' group, not the constructions
    assert set(MODULE_NAMES) <= loaded.__dict__.keys()
    assert not set(MODULE_CONSTRUCTS) & loaded.__dict__.keys()
    assert loaded.constructs == fresh.constructs
    assert {NAMES_BLOB, CONSTRUCTS_BLOB} <= loaded.__dict__.keys()  # kept: pickling again reuses them


def test_a_summary_with_more_set_on_it_pickles_whole():
    fresh = _summary(FIXTURES / "backends" / "flash_backend.py", "ast")
    fresh.extra = 1
    loaded = pickle.loads(pickle.dumps(fresh))
    assert loaded.extra == 1 and loaded == fresh and loaded.constructs == fresh.constructs


def test_access_init_sets_every_field_in_order():
    a = Access("x", 3, 4, "self.m", (TypeRef("M", False),), "C", "f", through="m")
    assert list(vars(a)) == [f.name for f in dataclasses.fields(Access)]  # the order a pickle keeps
    assert (a.self_attr, a.param, a.on_module) == (None, None, False)  # the fields' defaults
    assert a == dataclasses.replace(a) and hash(a) == hash(dataclasses.replace(a))
    assert pickle.loads(pickle.dumps(a, protocol=pickle.HIGHEST_PROTOCOL)) == a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.attr = "y"  # type: ignore[misc]
