"""How the small records of a summary pickle: so that unpickling ~200,000 of them is cheap.

A warm run unpickles every file's summary (on sglang, ~180,000 records outside the method
summaries, ~40,000 method summaries and their ``__init__`` statements when classes are
analysed).  By default a dataclass instance pickles as its class and a dictionary of all its
fields, which unpickling builds key by key and then copies into the instance's own.

* ``without_defaults`` (frozen records): the dictionary leaves out the fields whose value
  is their default, which the instance then reads from the class attribute the dataclass
  keeps for it (a frozen record cannot be built by its ``__init__`` faster than that).
* ``built_by_init`` (mutable records): the record pickles as a call of its class with its
  fields' values, so unpickling builds it with its ``__init__``, attribute by attribute into
  its (in CPython) compact storage, with no dictionary of names at all.

Neither changes a record's API (fields, equality, hashing, ``dataclasses.replace``), and
the same record pickles to the same bytes each time (fingerprints and digests hash pickles).
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def without_defaults(cls: C) -> C:
    """Class decorator, above ``@dataclass``: pickle the record's fields but those at their default."""
    defaults = {f.name: f.default for f in _fields(cls) if f.default is not dataclasses.MISSING}

    def __getstate__(self: Any) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in defaults or not _is_default(v, defaults[k])}

    record: Any = cls
    record.__getstate__ = __getstate__
    return cls


def built_by_init(cls: C) -> C:
    """Class decorator, above ``@dataclass``: pickle the record as a call of its class with the
    values of its fields (each an ``__init__`` parameter, in order)."""
    fields = _fields(cls)
    if len(fields) < 2 or not all(f.init for f in fields):
        raise TypeError(f"{cls.__name__}: every field (two or more) must be a parameter of __init__")
    values = operator.attrgetter(*(f.name for f in fields))

    def __reduce__(self: Any) -> tuple[Any, ...]:
        return (cls, values(self))

    record: Any = cls
    record.__reduce__ = __reduce__
    return cls


def _fields(cls: Any) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


def _is_default(value: object, default: object) -> bool:
    return value is default or (type(value) is type(default) and value == default)
