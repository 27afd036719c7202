"""``deadinit.model.summary``: records built by hand-written ``__init__`` methods are the dataclass's records."""

import dataclasses
import pickle

import pytest

from deadinit.model.summary import Access, TypeRef


def test_access_init_sets_every_field_in_order():
    a = Access("x", 3, 4, "self.m", (TypeRef("M", False),), "C", "f", through="m")
    assert list(vars(a)) == [f.name for f in dataclasses.fields(Access)]  # the order a pickle keeps
    assert (a.self_attr, a.param, a.on_module) == (None, None, False)  # the fields' defaults
    assert a == dataclasses.replace(a) and hash(a) == hash(dataclasses.replace(a))
    assert pickle.loads(pickle.dumps(a, protocol=pickle.HIGHEST_PROTOCOL)) == a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.attr = "y"  # type: ignore[misc]
