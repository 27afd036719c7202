"""What counts as an allocation: the one place that decides it.

Tensor factories of the configured tensor modules, buffer helpers
(``get_buffer("k", lambda: ...)``), ``torch.nn`` layers and module containers,
classes whose name matches the heavy-class pattern (``...Wrapper``, ``...Updater``),
containers of any of those, and copies through chained tensor methods
(``torch.empty(...).to(dev)``).  Project classes that derive from a module base can
only be recognised once the project is indexed: such calls come out as kind
``maybe-class`` and ``deadinit.analysis`` settles them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Expr
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, substitute, to_expr

CHAIN_METHODS = frozenset(
    {"to", "cuda", "contiguous", "pin_memory", "clone", "view", "reshape", "fill_", "zero_", "share_memory_"}
)
MODULE_CONTAINERS = frozenset({"ModuleList", "ModuleDict", "Sequential", "ParameterList"})
WRAPPERS_OF_TENSORS = frozenset({"Parameter", "Buffer"})  # torch.nn classes that hold the tensor they are given
LocalAlloc = Callable[[str], AllocInfo | None]


def heavy_kind(name: str, settings: Settings) -> str | None:
    last = name.split(".")[-1]
    if not last[:1].isupper():
        return None
    m = settings.heavy_re().search(last)
    if not m:
        return None
    suffix = m.group(1)
    return "updater" if suffix.startswith("Updater") else suffix.lower()


class AllocClassifier:
    """Classify expressions of one module; ``canon`` maps dotted names through its imports."""

    def __init__(self, settings: Settings, canon: Callable[[str], str]) -> None:
        self.s = settings
        self.canon = canon

    def classify(self, node: sx.Node, local_alloc: LocalAlloc, self_name: str | None = "self") -> AllocInfo | None:
        if isinstance(node, sx.Name):
            return local_alloc(node.id)
        if isinstance(node, sx.Call):
            return self._call(node, local_alloc, self_name)
        if isinstance(node, sx.Sequence):
            for el in node.elts:
                inner = self.classify(el.value if isinstance(el, sx.Starred) else el, local_alloc, self_name)
                if inner is not None:
                    return AllocInfo("container", element=inner, count=("const", len(node.elts)))
            return None
        if isinstance(node, sx.Comprehension):
            inner = self.classify(node.elt, local_alloc, self_name)
            if inner is None:
                return None
            if node.shape == "dict":
                return AllocInfo("container", element=inner)
            count = None
            it = node.generators[0].iter
            if isinstance(it, sx.Call) and dotted(it.func) == "range" and len(it.args) == 1:
                count = to_expr(it.args[0].value, self_name)
            return AllocInfo("container", element=inner, count=count)
        if isinstance(node, sx.Dict):
            for item in node.items:
                if item.key is not None:
                    inner = self.classify(item.value, local_alloc, self_name)
                    if inner is not None:
                        return AllocInfo("container", element=inner)
            return None
        if isinstance(node, sx.IfExp):
            return self.classify(node.body, local_alloc, self_name) or self.classify(
                node.orelse, local_alloc, self_name
            )
        return None

    def _call(self, node: sx.Call, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        func = node.func
        if isinstance(func, sx.Attribute) and func.attr in CHAIN_METHODS:
            inner = self.classify(func.value, local_alloc, self_name)
            if inner is not None:
                return inner
        name = dotted(func)
        if name is None:
            return None
        canon = self.canon(name)
        head, _, last = canon.rpartition(".")
        if head in self.s.tensor_modules and (last in self.s.tensor_factories or last.endswith("_like")):
            shape, dtype = shape_and_dtype(node, self_name)
            return AllocInfo("tensor", callee=canon, shape=shape, dtype=dtype)
        if last in self.s.buffer_helpers:
            for a in node.args:
                if isinstance(a.value, sx.Lambda):
                    inner = self.classify(a.value.body, local_alloc, self_name)
                    return AllocInfo("cached-buffer", callee=canon, element=inner)
            return AllocInfo("cached-buffer", callee=canon)
        for mod in self.s.tensor_modules:
            if canon.startswith(mod + ".nn.") and last[:1].isupper():
                if last in MODULE_CONTAINERS:
                    return self._module_container(node, canon, local_alloc, self_name)
                wrapped = self._wrapped_tensor(node, last, local_alloc, self_name)
                return AllocInfo("module", callee=canon, element=wrapped, **call_arguments(node, self_name))
        kind = heavy_kind(canon, self.s)
        if kind is not None:
            return AllocInfo(kind, callee=name, **call_arguments(node, self_name))
        if last[:1].isupper():
            return AllocInfo("maybe-class", callee=name, **call_arguments(node, self_name))
        return None

    def _wrapped_tensor(
        self, node: sx.Call, last: str, local_alloc: LocalAlloc, self_name: str | None
    ) -> AllocInfo | None:
        """The allocation ``nn.Parameter(torch.zeros(n))`` / ``nn.Buffer(...)`` registers, if any."""
        if last not in WRAPPERS_OF_TENSORS or not node.args or node.args[0].keyword is not None or node.args[0].star:
            return None
        return self.classify(node.args[0].value, local_alloc, self_name)

    def _module_container(self, node: sx.Call, canon: str, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo:
        el = None
        for a in node.args:
            el = self.classify(a.value, local_alloc, self_name)
            if el is not None:
                break
        if el is not None and el.kind == "container":  # ModuleList([... for ...]) is one list
            return AllocInfo("container", callee=canon, element=el.element, count=el.count)
        return AllocInfo("container", callee=canon, element=el or AllocInfo("module", callee=canon))


def inline_locals(alloc: AllocInfo, value_of: Callable[[str], Expr | None]) -> AllocInfo:
    """``alloc`` with the local variables its sizes name replaced by their values (``n = 2 * h``)."""

    def sub(e: Expr) -> Expr:
        return substitute(e, value_of)

    return replace(
        alloc,
        shape=tuple(sub(x) for x in alloc.shape),
        count=sub(alloc.count) if alloc.count is not None else None,
        args=tuple(sub(x) for x in alloc.args),
        kwargs=tuple((k, sub(v)) for k, v in alloc.kwargs),
        element=inline_locals(alloc.element, value_of) if alloc.element is not None else None,
    )


def call_arguments(node: sx.Call, self_name: str | None) -> dict[str, Any]:
    """The ``args`` and ``kwargs`` of an ``AllocInfo`` for a constructor call (what sizes fold);
    ``**kwargs`` is left out, and so is every positional argument from a ``*args`` on (its position is unknown)."""
    args: list[Expr] = []
    for a in node.args:
        if a.star == "*":
            break
        if a.keyword is None and not a.star:
            args.append(to_expr(a.value, self_name))
    kwargs = tuple((a.keyword, to_expr(a.value, self_name)) for a in node.args if a.keyword is not None)
    return {"args": tuple(args), "kwargs": kwargs}


def shape_and_dtype(node: sx.Call, self_name: str | None) -> tuple[tuple[Expr, ...], str]:
    shape: list[Expr] = []
    dtype = ""
    for a in node.args:
        if a.keyword is None and not a.star:
            _extend_shape(shape, a.value, self_name)
        elif a.keyword == "dtype":
            d = dotted(a.value)
            dtype = d.split(".")[-1] if d else ""
        elif a.keyword == "size":
            _extend_shape(shape, a.value, self_name)
    return tuple(shape), dtype


def _extend_shape(shape: list[Expr], v: sx.Expr, self_name: str | None) -> None:
    if isinstance(v, sx.Sequence) and v.shape in ("tuple", "list"):
        shape.extend(to_expr(e.value if isinstance(e, sx.Starred) else e, self_name) for e in v.elts)
    else:
        shape.append(to_expr(v, self_name))
