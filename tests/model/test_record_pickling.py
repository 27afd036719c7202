"""The small records of a summary pickle compactly, read back equal, pickle to the same bytes
each time, and keep their dataclass API."""

import copy
import dataclasses
import inspect
import pickle

import pytest

from deadinit.model.access import Access, TypeRef
from deadinit.model.pickled import LAZY_BLOB
from deadinit.model.record_pickling import built_by_init, without_defaults
from deadinit.model.summary import (
    _CLASS_STATE,
    AllocInfo,
    ClassSummary,
    Construct,
    FileSummary,
    Import,
    InitStmt,
    MethodSummary,
    Param,
    Returns,
    _unpickled_class,
)

TENSOR = AllocInfo("tensor", "torch.empty", shape=(("const", 8),), dtype="uint8")
RECORDS = [
    Import("nn", "torch", "nn", 0, 3),
    TypeRef("pkg.Base", True),
    Access("ws", 12, 4, "self.backend", (TypeRef("pkg.Base", False),), "pkg.C", "run"),
    Access("ws", 13, 8, "backend", None, None, "f", self_attr="backend", param=(1, "backend"), on_module=False),
    Construct("pkg.Base", 20, "pkg.C", "__init__"),
    Construct("pkg.Base", 21, None, None, self_args=(0, "owner")),
    TENSOR,
    AllocInfo("container", "list", element=TENSOR, count=("const", 4), items=(TENSOR, None), star_args=True),
    Param("x", None),
    Param("y", ("const", 1), "kwonly", "pkg.Base"),
    Returns(5, (TENSOR, None), TENSOR, (Param("n", None),)),
    InitStmt("assign", 7, 8, 7, attr="ws", alloc=TENSOR, guards=(("name", "flag"),), kwargs=(("n", ("const", 1)),)),
    MethodSummary("__init__", 3, 4, 9, params=[Param("n", None)], init_flow=[InitStmt("super_init", 4, 8, 4)]),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_round_trip_equal_and_same_bytes_each_time(record):
    data = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    back = pickle.loads(data)
    assert back == record and type(back) is type(record)
    assert pickle.dumps(back, protocol=pickle.HIGHEST_PROTOCOL) == data
    assert pickle.dumps(pickle.loads(data), protocol=pickle.HIGHEST_PROTOCOL) == data
    assert repr(back) == repr(record)
    assert all(getattr(back, f.name) == getattr(record, f.name) for f in dataclasses.fields(record))


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_api_of_an_unpickled_record_is_the_dataclass_one(record):
    back = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
    first = dataclasses.fields(record)[0].name
    assert dataclasses.replace(back, **{first: getattr(record, first)}) == record
    assert dataclasses.asdict(back) == dataclasses.asdict(record)
    assert copy.copy(back) == record and copy.deepcopy(back) == record
    if type(record).__hash__ is not None:
        assert hash(back) == hash(record) and back in {record}
    if type(record).__dataclass_params__.frozen:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(back, first, None)
    else:
        setattr(back, first, "changed")
        assert getattr(back, first) == "changed" and back != record


def test_frozen_record_pickles_without_fields_at_their_default():
    plain = Access("ws", 12, 4, "o", None, None, "f")
    assert set(plain.__getstate__()) == {"attr", "line", "col", "receiver", "types", "in_class", "in_function"}
    back = pickle.loads(pickle.dumps(plain))
    assert back.self_attr is None and back.param is None and back.on_module is False and back.through is None
    assert back == plain and hash(back) == hash(plain)
    moved = dataclasses.replace(back, line=13)
    assert moved.line == 13 and moved.on_module is False
    # a value equal to the default but of another type is kept
    odd = Construct("C", 1, None, None, self_args=[])  # type: ignore[arg-type]
    assert "self_args" in odd.__getstate__()
    assert pickle.loads(pickle.dumps(odd)).self_args == []


def test_mutable_record_pickles_as_a_call_of_its_class():
    assert TENSOR.__reduce__() == (AllocInfo, tuple(getattr(TENSOR, f.name) for f in dataclasses.fields(AllocInfo)))
    assert pickle.loads(pickle.dumps(TENSOR)) == TENSOR
    assert b"shape" not in pickle.dumps(TENSOR)  # no field names in the bytes


def test_shared_record_stays_shared():
    s = InitStmt("assign", 1, 0, 1, alloc=TENSOR, call=TENSOR)
    back = pickle.loads(pickle.dumps(s))
    assert back.alloc is back.call


def test_a_record_with_a_field_not_in_init_is_refused():
    @dataclasses.dataclass
    class Odd:
        a: int
        b: int = dataclasses.field(init=False, default=0)

    with pytest.raises(TypeError):
        built_by_init(Odd)


@without_defaults
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 0


def test_a_default_is_read_from_the_class_once_unpickled():
    back = pickle.loads(pickle.dumps(Point(1)))
    assert back == Point(1) and back.y == 0 and "y" not in vars(back)
    assert Point(1).__getstate__() == {"x": 1} and Point(1, 2).__getstate__() == {"x": 1, "y": 2}


def _file_summary():
    cls = ClassSummary("C", "m.C", 1, 0, 9, ["Base"], ["Base"], methods={"__init__": RECORDS[-1]})
    cls.attr_types["ws"] = [TypeRef("torch.Tensor", True)]
    return FileSummary("m.py", "m", False, imports=[RECORDS[0]], classes=[cls], accesses=RECORDS[2:4], lines=9)


def test_class_and_file_summaries_pickle_as_calls_not_states():
    s = _file_summary()
    data = pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)
    assert b"qualname" not in data and b"is_package" not in data  # no field names
    back = pickle.loads(data)
    assert back == s and pickle.dumps(back, protocol=pickle.HIGHEST_PROTOCOL) == data
    assert back.classes[0].attr_types == {"ws": [TypeRef("torch.Tensor", True)]}
    assert dataclasses.replace(back, lines=10).classes == s.classes


def test_class_summary_state_order_is_its_unpickling_parameters():
    names = list(inspect.signature(_unpickled_class).parameters)
    assert names[:-1] == list(_CLASS_STATE[:-1]) and _CLASS_STATE[-1] == LAZY_BLOB


def test_a_summary_with_something_more_set_on_it_pickles_whole():
    s = _file_summary()
    s.classes[0].note = "extra"  # type: ignore[attr-defined]
    s.note = "extra"  # type: ignore[attr-defined]
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.note == "extra" and back.classes[0].note == "extra"


def test_a_file_summary_pickles_to_the_same_bytes_however_often_it_went_through_a_pickle():
    s = _file_summary()
    s.element_writes = {f"attr_{i}" for i in range(200)}  # a set's order may change on a round trip
    data = pickle.dumps(s)
    for _ in range(3):
        back = pickle.loads(data)
        assert back == s and isinstance(back.element_writes, set)
        assert pickle.dumps(back) == data
        data = pickle.dumps(back)
