"""What a summary records of an ``obj.x`` read (``Access``) and how its reads are tallied.

A file's reads of an object's attributes (not a module's) are grouped by attribute name and
tallied (``model.read_tally``): how many, a digest of their shapes, their lines.
"""

from __future__ import annotations

import hashlib
import operator
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum

from deadinit.model.pickled import PickledGroups
from deadinit.model.read_tally import DIGEST_SIZE, ReadTallies, ReadTally
from deadinit.model.record_pickling import without_defaults

_SET = object.__setattr__  # how a frozen record sets its fields


class ObjectWalk(Enum):
    """An ``Access`` that is a walk over its receiver (``model.named_children()``, ``model._modules``)."""

    GIVES_BACK = "gives-back"  # its elements may leave with what its function gives back
    ACTS = "acts"  # in a function that gives nothing back: it acts on each element (moves it, patches it)
    STAYS = "stays"  # its elements stay in the function (``semantics.walk_elements``): attributes read, recursion
    GUARDED = "guarded"  # its elements leave only where ``isinstance(element, <one of Access.guard>)`` holds


@dataclass(frozen=True)
class TypeRef:
    """A possible class of a receiver: ``dotted`` as written in this module."""

    dotted: str
    exact: bool  # True when built by a constructor call: subclasses excluded


@without_defaults
@dataclass(frozen=True, init=False)
class Access:
    """``recv.attr`` loaded somewhere, where ``recv`` is not the method's self."""

    attr: str
    line: int
    col: int
    receiver: str  # source text of the receiver, shortened
    types: tuple[TypeRef, ...] | None  # None: unknown receiver class
    in_class: str | None  # qualified name of the enclosing class, if any
    in_function: str | None
    self_attr: str | None = None  # receiver is ``self.<self_attr>``
    param: tuple[int, str] | None = None  # receiver is this (position, name) parameter of the function
    on_module: bool = False  # receiver is a module bound by ``import``: an attribute of a module, not of an object
    through: str | None = None  # receiver is ``<root>.<through>``: ``types`` / ``self_attr`` describe the root
    walk: ObjectWalk | None = None  # a walk over the receiver (``semantics.walks.OBJECT_WALKS``): how it is used
    guard: tuple[str, ...] = ()  # ``ObjectWalk.GUARDED``: the classes (dotted as written) an element must be to leave

    def __init__(
        self,
        attr: str,
        line: int,
        col: int,
        receiver: str,
        types: tuple[TypeRef, ...] | None,
        in_class: str | None,
        in_function: str | None,
        self_attr: str | None = None,
        param: tuple[int, str] | None = None,
        on_module: bool = False,
        through: str | None = None,
        walk: ObjectWalk | None = None,
        guard: tuple[str, ...] = (),
    ) -> None:
        """The dataclass's ``__init__`` with ``object.__setattr__`` looked up once, not once per field
        (a summary makes one per ``obj.x`` read: ~500,000 in sglang)."""
        set_ = _SET
        set_(self, "attr", attr)
        set_(self, "line", line)
        set_(self, "col", col)
        set_(self, "receiver", receiver)
        set_(self, "types", types)
        set_(self, "in_class", in_class)
        set_(self, "in_function", in_function)
        set_(self, "self_attr", self_attr)
        set_(self, "param", param)
        set_(self, "on_module", on_module)
        set_(self, "through", through)
        set_(self, "walk", walk)
        set_(self, "guard", guard)


# what a read is and how it is made, without where (an ``Access`` without its line and column): an
# edit that moves a read (a line inserted above it, a statement indented) leaves its shape as it was;
# the analysis names a read's line through a recorded ``attr_line`` key and never reads its column
read_shape = operator.attrgetter(*(f.name for f in fields(Access) if f.name not in ("line", "col")))


def object_read_tally(accesses: Sequence[Access]) -> ReadTallies:
    """Per attribute of an object (not of a module) that ``accesses`` reads: how many reads, a
    digest of their shapes (``read_shape``) and their lines, known without unpickling them."""
    if isinstance(accesses, PickledGroups):
        tally: ReadTallies = accesses.tally
        return tally
    return tally_object_reads(group_object_reads(accesses))


def object_reads(accesses: Sequence[Access], attr: str) -> list[Access]:
    """The reads of ``attr`` on an object (not a module) among ``accesses``, in source order;
    only those are unpickled."""
    if isinstance(accesses, PickledGroups):
        reads: list[Access] = accesses.group(attr)
        return reads
    return [a for a in accesses if a.attr == attr and not a.on_module]


def group_object_reads(accesses: Sequence[Access]) -> dict[str, list[Access]]:
    """The reads of an object's attribute (not a module's) by attribute name, in source order."""
    groups: dict[str, list[Access]] = {}
    for a in accesses:
        if not a.on_module:
            groups.setdefault(a.attr, []).append(a)
    return groups


def tally_object_reads(groups: dict[str, list[Access]]) -> ReadTallies:
    return ReadTallies.of((attr, _tally_of(reads)) for attr, reads in groups.items())


def _tally_of(reads: list[Access]) -> ReadTally:
    shapes = repr([read_shape(a) for a in reads]).encode()  # by value: equal reads, equal digest
    lines = array("I", [a.line for a in reads]).tobytes()
    return len(reads), hashlib.blake2b(shapes, digest_size=DIGEST_SIZE).digest(), lines


def read_line(tally: ReadTally, i: int) -> int:
    """The line of the ``i``-th read a tally counts."""
    return array("I", tally[2])[i]
