"""``nn.Module``'s own walks over what a module registered.

``self.named_children()``, ``self.modules()``, ``self.parameters()``, ``self.state_dict()``,
``self.apply(fn)``...: called on an ``nn.Module`` (and not overridden by the project), each
visits every registered submodule, parameter or buffer of ``self`` that its kind reaches.
It reads them when what it visits may leave the method with what the method gives back
(``sharded_state_dict`` building a checkpoint from ``self.named_children()``); the summary
records those walks (``MethodSummary.walks``) and drops them from a method that returns
nothing (which only acts on each element: moves it, initialises it, counts it).  A walk that
``next()`` takes the first element of (``next(self.parameters()).device``) reads no
particular attribute.  ``self._modules.values()`` and the other storages stay wholesale
dynamic accesses (``semantics.dynamic``): they reach any name.

A walk over another object (``dict(model.named_children())`` in a function outside the class,
``model._modules.values()``) is recorded as the read ``model.named_children`` is
(``model.access.Access``); ``OBJECT_WALKS`` says what it visits on whatever module the object
may hold.
"""

from __future__ import annotations

from enum import Enum

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, self_attr


class Registration(Enum):
    """How ``nn.Module`` holds an attribute it registered."""

    MODULE = "module"  # a submodule (a module container included)
    PARAMETER = "parameter"
    BUFFER = "buffer"


_MODULES = frozenset({Registration.MODULE})
_PARAMETERS = frozenset({Registration.MODULE, Registration.PARAMETER})  # a submodule's parameters are its own
_BUFFERS = frozenset({Registration.MODULE, Registration.BUFFER})
_EVERYTHING = frozenset(Registration)

WALKS: dict[str, frozenset[Registration]] = {
    "children": _MODULES,
    "named_children": _MODULES,
    "modules": _MODULES,
    "named_modules": _MODULES,
    "apply": _MODULES,
    "parameters": _PARAMETERS,
    "named_parameters": _PARAMETERS,
    "buffers": _BUFFERS,
    "named_buffers": _BUFFERS,
    "state_dict": _EVERYTHING,
}


# what a walk over another object (``model.named_children()``, ``model._modules.values()``) visits on it: the
# same walks, and the storages (on ``self`` a wholesale dynamic access instead)
OBJECT_WALKS: dict[str, frozenset[Registration]] = {
    **WALKS,
    "_modules": _MODULES,
    "_parameters": frozenset({Registration.PARAMETER}),
    "_buffers": frozenset({Registration.BUFFER}),
}


_STORAGES = frozenset({"_modules", "_parameters", "_buffers"})


def object_walk(attr: str, called: bool) -> bool:
    """Whether ``obj.<attr>`` walks what ``obj`` registered: a walk called (``obj.children()``, not a
    field ``node.children``), or a storage however it is used."""
    return attr in OBJECT_WALKS and (called or attr in _STORAGES)


def walk_reaches(name: str) -> frozenset[Registration]:
    """What ``self.<name>()`` visits on an ``nn.Module``; empty for a name that walks nothing."""
    return WALKS.get(name, frozenset())


def walk_name(node: sx.Call, self_name: str) -> str | None:
    """``name`` for a call ``self.<name>(...)`` of one of ``nn.Module``'s walks."""
    func = node.func
    if isinstance(func, sx.Attribute) and func.attr in WALKS and self_attr(func, self_name) == func.attr:
        return func.attr
    return None


def first_of_walk(node: sx.Call, self_name: str) -> sx.Call | None:
    """The walk in ``next(self.<walk>(...))`` (with or without a default), else None."""
    if dotted(node.func) != "next" or not node.args:
        return None
    inner = node.args[0].value
    return inner if isinstance(inner, sx.Call) and walk_name(inner, self_name) is not None else None
