"""A summary's reads and method summaries stay pickled bytes until asked for, and read back
equal to what was pickled."""

import dataclasses
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.access import group_object_reads, object_read_tally, object_reads, read_line
from deadinit.model.pickled import PickledGroups, PickledMapping, unpickled_on_first_read
from deadinit.model.settings import Settings
from deadinit.model.summary import CLASS_BODY, ClassSummary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SOURCES = sorted(FIXTURES.rglob("*.py"))


def _summary(path: Path):
    s = summarize_source(path.read_bytes(), str(path), path.stem, False, Settings())
    assert not isinstance(s, Exception), s
    return s


@pytest.mark.parametrize("path", SOURCES[:40], ids=lambda p: p.name)
def test_round_trip_is_equal_and_lazy(path):
    fresh = _summary(path)
    again = pickle.loads(pickle.dumps(_summary(path)))
    assert again == fresh
    if fresh.accesses:
        loaded = pickle.loads(pickle.dumps(fresh))
        assert isinstance(loaded.accesses, PickledGroups)
        assert len(loaded.accesses) == len(fresh.accesses)
        assert object_read_tally(loaded.accesses) == object_read_tally(list(fresh.accesses))
        groups = group_object_reads(list(fresh.accesses))
        for attr, reads in groups.items():
            assert object_reads(loaded.accesses, attr) == reads
        assert loaded.accesses._data is None  # each attribute's reads came alone
        assert object_reads(loaded.accesses, "no_such_attribute") == []
        assert list(loaded.accesses) == list(fresh.accesses)  # the whole list, in source order
    for c in pickle.loads(pickle.dumps(fresh)).classes:
        if c.methods:
            assert isinstance(c.methods, PickledMapping)
            names = list(c.methods)
            assert c.methods._data is None  # names without unpickling
            assert names == list(next(k for k in fresh.classes if k.qualname == c.qualname).methods)


def test_pickling_twice_gives_the_same_bytes():
    s = _summary(SOURCES[0])
    first = pickle.dumps(s)
    assert pickle.dumps(pickle.loads(first)) == first


def test_tally_tells_equal_reads_from_changed_ones():
    src = b"def f(o, p):\n    return o.ws + p.ws + o.buf\n"
    moved = b"\n\ndef f(o, p):\n    return o.ws + p.ws + o.buf\n"
    changed = b"def f(o, p):\n    return o.ws + o.ws + o.buf\n"

    def tally(text):
        s = summarize_source(text, "m.py", "m", False, Settings())
        return object_read_tally(pickle.loads(pickle.dumps(s)).accesses)

    base = tally(src)
    assert base["ws"][0] == 2 and base["buf"][0] == 1
    what = {attr: t[:2] for attr, t in base.items()}
    assert {attr: t[:2] for attr, t in tally(moved).items()} == what  # a read's line is where, not what
    assert [read_line(tally(moved)["ws"], i) for i in (0, 1)] == [4, 4]
    assert tally(changed)["ws"][:2] != what["ws"] and tally(changed)["buf"][:2] == what["buf"]


def test_pickled_containers_act_as_plain_ones():
    m = PickledMapping.of({"a": 1, "b": 2})
    back = pickle.loads(pickle.dumps(m))
    assert "a" in back and len(back) == 2 and back == {"a": 1, "b": 2} and back["b"] == 2
    data = [3, 4, 5, 6, 7]
    grouped = PickledGroups.of(data, {"odd": [3, 5, 7], "four": [4]}, [6], tally={"odd": 3})
    lst = pickle.loads(pickle.dumps(grouped))
    assert lst.tally == {"odd": 3} and len(lst) == 5
    assert lst.group("four") == [4] and lst.group("odd") == [3, 5, 7] and lst.group("none") == []
    assert lst == data and lst[1:] == [4, 5, 6, 7] and list(lst) == data


def test_a_missing_name_is_answered_without_unpickling_the_mapping():
    back = pickle.loads(pickle.dumps(PickledMapping.of({"a": 1, "b": None})))
    assert back.get("zz") is None and back.get("zz", 5) == 5
    assert back._data is None  # still bytes
    assert back.get("a") == 1 and back.get("b", 5) is None and back.get("zz", 5) == 5


def test_what_a_class_says_about_its_attributes_is_unpickled_on_first_read():
    s = _summary(FIXTURES / "backends" / "flash_backend.py")
    fresh = next(c for c in s.classes if c.attr_types)
    loaded = next(c for c in pickle.loads(pickle.dumps(s)).classes if c.qualname == fresh.qualname)
    assert not set(CLASS_BODY) & loaded.__dict__.keys()  # bytes until read
    assert pickle.dumps(loaded) == pickle.dumps(fresh)  # pickled again from the same bytes, still unread
    assert not set(CLASS_BODY) & loaded.__dict__.keys()
    assert loaded.attr_types == fresh.attr_types  # the first read unpickles them all
    assert set(CLASS_BODY) <= loaded.__dict__.keys()
    assert loaded == fresh and pickle.dumps(loaded) == pickle.dumps(fresh)
    with pytest.raises(AttributeError):
        _ = loaded.no_such_field


def test_lazy_fields_are_descriptors_not_a_getattr():
    s = _summary(FIXTURES / "backends" / "flash_backend.py")
    fresh = next(c for c in s.classes if c.attr_types)
    loaded = next(c for c in pickle.loads(pickle.dumps(s)).classes if c.qualname == fresh.qualname)
    assert "__getattr__" not in vars(ClassSummary)  # unpickling looks for __setstate__ without Python code
    assert dataclasses.replace(loaded, name="Other").attr_types == fresh.attr_types
    bare = ClassSummary.__new__(ClassSummary)
    with pytest.raises(AttributeError):
        _ = bare.attr_types  # neither a value nor a blob
    assert not hasattr(bare, "class_values")


def test_a_lazy_field_must_have_no_class_attribute():
    @dataclasses.dataclass
    class WithDefault:
        a: int = 0

    with pytest.raises(TypeError):
        unpickled_on_first_read(WithDefault, ("a",))


_SEEDED = (
    "import hashlib, pickle\n"
    "from deadinit.model.summary import ClassSummary\n"
    "c = ClassSummary('C', 'm.C', 1, 0, 9, [], [])\n"
    "c.attr_unknown = {f'attr_{i}' for i in range(40)}\n"
    "c.attr_elements_unknown = frozenset(f'elt_{i}' for i in range(40))\n"
    "print(hashlib.sha256(pickle.dumps(c, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest())\n"
)


def test_a_class_with_set_fields_pickles_to_the_same_bytes_in_every_process():
    """String hashing is randomised per process; the incremental analysis's digests hash a class's pickle."""
    digests = {
        subprocess.run(
            [sys.executable, "-c", _SEEDED],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1


def test_a_set_field_reads_back_as_the_set():
    c = ClassSummary("C", "m.C", 1, 0, 9, [], [])
    c.attr_unknown = {"b", "a"}
    c.attr_elements_unknown = frozenset({"x"})
    again = pickle.loads(pickle.dumps(c))
    assert type(again.attr_unknown) is set and again.attr_unknown == {"a", "b"}
    assert type(again.attr_elements_unknown) is frozenset and again.attr_elements_unknown == {"x"}
