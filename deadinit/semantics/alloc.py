"""Decide whether an expression allocates something expensive (summary level).

Project classes that derive from ``torch.nn.Module`` can only be recognised once
the whole project is indexed: such calls come out as kind ``maybe-class`` and
``deadinit.analysis.classify`` settles them.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo
from deadinit.semantics.exprs import dotted, to_expr

_CHAIN_METHODS = {
    "to",
    "cuda",
    "contiguous",
    "pin_memory",
    "clone",
    "view",
    "reshape",
    "fill_",
    "zero_",
    "share_memory_",
}
_CONTAINERS = (cst.List, cst.Tuple, cst.Set)
_COMPS = (cst.ListComp, cst.SetComp, cst.GeneratorExp)


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
    """Classify call expressions of one module; ``canon`` maps dotted names through imports."""

    def __init__(self, settings: Settings, canon: Callable[[str], str]):
        self.s = settings
        self.canon = canon

    def classify(
        self, node: cst.BaseExpression, local_alloc: Callable[[str], AllocInfo | None], self_name: str = "self"
    ) -> AllocInfo | None:
        if isinstance(node, cst.Name):
            return local_alloc(node.value)
        if isinstance(node, cst.Call):
            return self._call(node, local_alloc, self_name)
        if isinstance(node, _CONTAINERS):
            for el in node.elements:
                inner = self.classify(el.value, local_alloc, self_name)
                if inner is not None:
                    return AllocInfo("container", element=inner, count=("const", len(node.elements)))
            return None
        if isinstance(node, _COMPS):
            inner = self.classify(node.elt, local_alloc, self_name)
            if inner is None:
                return None
            count = None
            comp = node.for_in
            if isinstance(comp.iter, cst.Call) and dotted(comp.iter.func) == "range" and len(comp.iter.args) == 1:
                count = to_expr(comp.iter.args[0].value, self_name)
            return AllocInfo("container", element=inner, count=count)
        if isinstance(node, cst.DictComp):
            inner = self.classify(node.value, local_alloc, self_name)
            return AllocInfo("container", element=inner) if inner else None
        if isinstance(node, cst.Dict):
            for el in node.elements:
                if isinstance(el, cst.DictElement):
                    inner = self.classify(el.value, local_alloc, self_name)
                    if inner is not None:
                        return AllocInfo("container", element=inner)
            return None
        if isinstance(node, cst.IfExp):
            return self.classify(node.body, local_alloc, self_name) or self.classify(
                node.orelse, local_alloc, self_name
            )
        return None

    def _call(self, node: cst.Call, local_alloc, self_name) -> AllocInfo | None:
        func = node.func
        # chains: torch.empty(...).to(dev), x.cuda()
        if isinstance(func, cst.Attribute) and func.attr.value in _CHAIN_METHODS:
            inner = self.classify(func.value, local_alloc, self_name)
            if inner is not None:
                return inner
        name = dotted(func)
        if name is None:
            return None
        canon = self.canon(name)
        head, _, last = canon.rpartition(".")
        # tensor factories
        if head in self.s.tensor_modules and (last in self.s.tensor_factories or last.endswith("_like")):
            shape, dtype = _shape_and_dtype(node, self_name)
            return AllocInfo("tensor", callee=canon, shape=shape, dtype=dtype)
        # cached buffers: get_buffer("k", lambda: torch.empty(...))
        if last in self.s.buffer_helpers:
            for a in node.args:
                if isinstance(a.value, cst.Lambda):
                    inner = self.classify(a.value.body, local_alloc, self_name)
                    return AllocInfo("cached-buffer", callee=canon, element=inner)
            return AllocInfo("cached-buffer", callee=canon)
        # nn layers and containers
        for mod in self.s.tensor_modules:
            if canon.startswith(mod + ".nn.") and last[:1].isupper():
                if last in ("ModuleList", "ModuleDict", "Sequential", "ParameterList"):
                    el = None
                    for a in node.args:
                        el = self.classify(a.value, local_alloc, self_name)
                        if el is not None:
                            break
                    if el is not None and el.kind == "container":  # ModuleList([... for ...]) is one list
                        return AllocInfo("container", callee=canon, element=el.element, count=el.count)
                    return AllocInfo("container", callee=canon, element=el or AllocInfo("module", callee=canon))
                return AllocInfo("module", callee=canon)
        kind = heavy_kind(canon, self.s)
        if kind is not None:
            return AllocInfo(kind, callee=name)
        if last[:1].isupper():
            return AllocInfo("maybe-class", callee=name)
        return None


def _shape_and_dtype(node: cst.Call, self_name: str) -> tuple[tuple, str]:
    shape = []
    dtype = ""
    for a in node.args:
        if a.keyword is None and not a.star:
            v = a.value
            if isinstance(v, (cst.Tuple, cst.List)):
                shape.extend(to_expr(e.value, self_name) for e in v.elements)
            else:
                shape.append(to_expr(v, self_name))
        elif a.keyword is not None and a.keyword.value == "dtype":
            d = dotted(a.value)
            dtype = d.split(".")[-1] if d else ""
        elif a.keyword is not None and a.keyword.value == "size":
            v = a.value
            if isinstance(v, (cst.Tuple, cst.List)):
                shape.extend(to_expr(e.value, self_name) for e in v.elements)
            else:
                shape.append(to_expr(v, self_name))
    return tuple(shape), dtype
