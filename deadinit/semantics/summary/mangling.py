"""Python's private-name mangling, applied to summaries before the project is indexed.

Inside ``class K``, ``self.__x`` names the attribute ``_K__x``: a subclass that
assigns ``self.__x`` sets its own ``_C__x`` and leaves the parent's untouched, and
``def __helper`` defines ``_K__helper``.  The summary builder records names as written;
``mangle_file`` renames every class-private name (``__x``, not ``__x__``) recorded
inside a class to its mangled form, as the compiler does, so that a subclass's
``self.__x = ...`` is not taken for an overwrite of the parent's ``self.__x``
(a false DI001 otherwise).  Python does not mangle
the string in ``getattr(self, "__x")``, but summaries record it like a written
name, so it is mangled too: at worst a read is credited to ``_K__x`` and a finding
is missed, never invented.
Idempotent: a mangled name no longer starts with two underscores.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from deadinit.model.kinds import ExprTag
from deadinit.model.qualnames import short_name
from deadinit.model.summary import ClassSummary, FileSummary


def private(name: object) -> bool:
    return isinstance(name, str) and name.startswith("__") and not name.endswith("__") and name[2:].isidentifier()


def mangled(cls_name: str, name: str) -> str:
    stripped = cls_name.lstrip("_")
    return f"_{stripped}{name}" if stripped and private(name) else name


def mangle_file(summary: FileSummary) -> None:
    for cls in summary.classes:
        if _needs(cls):
            _mangle_class(cls)
    if any(a.in_class and private(a.attr) for a in summary.accesses):
        summary.accesses = [
            dataclasses.replace(a, attr=mangled(short_name(a.in_class), a.attr))
            if a.in_class and private(a.attr)
            else a
            for a in summary.accesses
        ]


def _needs(cls: ClassSummary) -> bool:
    names = (*cls.methods, *cls.class_attrs, *cls.attr_types, *cls.attr_declared, *cls.attr_elements)
    if any(private(k) for k in (*names, *cls.attr_elements_declared, *cls.attr_elements_unknown)):
        return True
    for m in cls.methods.values():
        if any(private(a) for a, _, _ in (*m.reads, *m.writes)) or any(private(s) for s, _ in m.super_calls):
            return True
        if m.init_flow and any(private(s.attr) or any(private(r) for r in s.reads + s.self_calls) for s in m.init_flow):
            return True
    return False


def _mangle_class(cls: ClassSummary) -> None:
    k = cls.name
    cls.methods = {mangled(k, n): _walk(m, k) for n, m in cls.methods.items()}
    cls.class_attrs = {mangled(k, n): v for n, v in cls.class_attrs.items()}
    cls.class_values = {mangled(k, n): v for n, v in cls.class_values.items()}
    cls.attr_types = {mangled(k, n): v for n, v in cls.attr_types.items()}
    cls.attr_declared = {mangled(k, n): v for n, v in cls.attr_declared.items()}
    cls.attr_unknown = {mangled(k, n) for n in cls.attr_unknown}
    cls.attr_elements = {mangled(k, n): v for n, v in cls.attr_elements.items()}
    cls.attr_elements_declared = {mangled(k, n): v for n, v in cls.attr_elements_declared.items()}
    cls.attr_elements_unknown = {mangled(k, n) for n in cls.attr_elements_unknown}


def _walk(v: Any, k: str) -> Any:
    if isinstance(v, str):
        return mangled(k, v)
    if isinstance(v, tuple):
        if v and v[0] == ExprTag.CONST:  # a string constant is not a name
            return v
        return tuple(_walk(x, k) for x in v)
    if isinstance(v, list):
        return [_walk(x, k) for x in v]
    if isinstance(v, dict):
        return {_walk(a, k): _walk(b, k) for a, b in v.items()}
    if isinstance(v, (set, frozenset)):
        return type(v)(_walk(x, k) for x in v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        changes = {f.name: _walk(getattr(v, f.name), k) for f in dataclasses.fields(v) if f.init}
        return dataclasses.replace(v, **changes)
    return v
