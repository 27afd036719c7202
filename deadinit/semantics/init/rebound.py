"""The class a local holds an instance of once it is rebound, so that calls of its fields
(``submodules.linear_proj(n)``) build what the class declares and reads through it (``spec.x``) are
of that class: ``spec = Spec(...)``, and the defaulting idiom of an *open* parameter (one without an
annotation whose default is ``None``): ``spec = spec or Spec()``, ``spec = Spec() if spec is None else
spec``, in an ``__init__`` also ``if spec is None: spec = Spec()``.  An open parameter is taken to
hold what its default binding builds (a caller passes one of those); a parameter declaring a class,
or an earlier such binding, says that class; anything else (another call, an attribute, a global) may
hold anything, and the local then declares no class.  Both the ``__init__`` walk and the summary's
value typing read these rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted


class Holds(NamedTuple):
    """The classes a value may be an instance of; ``unknown``: it may also be anything else."""

    classes: frozenset[str] = frozenset()
    unknown: bool = False

    def __or__(self, other: object) -> Holds:
        assert isinstance(other, Holds)
        return Holds(self.classes | other.classes, self.unknown or other.unknown)

    def one(self) -> str | None:
        """The class, when the value is an instance of exactly one and of nothing else."""
        return next(iter(self.classes)) if len(self.classes) == 1 and not self.unknown else None


NOTHING = Holds()
ANYTHING = Holds(unknown=True)


def open_param(param: sx.Param) -> bool:
    """A parameter without an annotation whose default is ``None``."""
    return not param.star and param.annotation is None and param.default is not None and _none(param.default)


def defaulted(value: sx.Expr, name: str) -> sx.Expr | None:
    """``V`` when ``name = value`` is the defaulting idiom ``name or V``, ``V if name is None else name``,
    ``name if name is not None else V`` (or ``name if name else V``); else None."""
    if isinstance(value, sx.BoolOp) and value.op == "or" and _is(value.left, name):
        return value.right
    if not isinstance(value, sx.IfExp):
        return None
    test = value.test
    if isinstance(test, sx.Compare) and len(test.ops) == 1 and _is(test.left, name) and _none(test.comparators[0]):
        kept, default = (value.orelse, value.body) if test.ops[0] == "is" else (value.body, value.orelse)
        return default if test.ops[0] in ("is", "is not") and _is(kept, name) else None
    return value.orelse if _is(test, name) and _is(value.body, name) else None


def _is(node: sx.Expr, name: str) -> bool:
    return isinstance(node, sx.Name) and node.id == name


def _none(node: sx.Expr) -> bool:
    return (isinstance(node, sx.Name) and node.id == "None") or (isinstance(node, sx.Const) and node.value is None)


def held(value: sx.Expr, name_holds: Callable[[str], Holds]) -> Holds:
    """What ``value`` may be an instance of; ``name_holds`` answers for a name."""
    if isinstance(value, sx.BoolOp) and value.op == "or":
        return held(value.left, name_holds) | held(value.right, name_holds)
    if isinstance(value, sx.IfExp):
        return held(value.body, name_holds) | held(value.orelse, name_holds)
    if _none(value):
        return NOTHING
    if isinstance(value, sx.Name):
        return name_holds(value.id)
    name = dotted(value.func) if isinstance(value, sx.Call) else None
    if name is not None and name.split(".")[-1][:1].isupper():
        return Holds(frozenset({name}))
    return ANYTHING
