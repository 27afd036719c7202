"""What counts as an allocation: the one place that decides it.

Tensor factories of the configured tensor modules, buffer helpers
(``get_buffer("k", lambda: ...)``), ``torch.nn`` layers and module containers,
classes whose name matches the heavy-class pattern (``...Wrapper``, ``...Updater``),
containers of any of those, and copies through chained tensor methods
(``torch.empty(...).to(dev)``).  Registered state of a module is told apart from
the tensors it wraps: ``nn.Parameter(t)`` is a ``parameter``,
``self.register_buffer("x", t)`` a ``buffer`` and ``self.register_parameter("x", p)``
a ``parameter`` (``registration``), each with the wrapped allocation as its element,
so that sizes see through them and fixes know they are checkpoint keys.  Project
classes that derive from a module base can only be recognised once the project is
indexed: such calls come out as kind ``maybe-class`` and ``deadinit.analysis``
settles them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

from deadinit.model.kinds import AllocKind, ExprTag
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Expr
from deadinit.semantics import syntax as sx
from deadinit.semantics.dynamic import Registered, registered_names
from deadinit.semantics.exprs import dotted, self_attr, substitute, to_expr

CHAIN_METHODS = frozenset(
    {"to", "cuda", "contiguous", "pin_memory", "clone", "view", "reshape", "fill_", "zero_", "share_memory_"}
)
JOINS = frozenset({"stack", "cat", "concat", "concatenate", "hstack", "vstack"})  # new tensors from a sequence
FRESH_COPIES = frozenset({"clone"})  # a new tensor whatever it is called on: of a ``self`` attribute that holds one too
MODULE_CONTAINERS = frozenset({"ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict"})
PARAMETER_CLASSES = frozenset({"Parameter", "UninitializedParameter"})
BUFFER_CLASSES = frozenset({"Buffer", "UninitializedBuffer"})
REGISTRATIONS = {
    "register_buffer": "buffer",
    "register_parameter": "parameter",
    "register_module": "module",
    "add_module": "module",
}
LocalAlloc = Callable[[str], AllocInfo | None]


class LocalCallee(NamedTuple):
    """What a walk knows of a name called or called through (``norm_layer(dim)``, ``parts.proj(n)``)."""

    local: bool  # a local or parameter
    builds: AllocInfo | None = None  # what calling it allocates (a parameter whose default or annotation is a class)
    declared: str | None = None  # a parameter annotated with one class: that class, dotted as written


LocalCall = Callable[[str], LocalCallee]


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

    def __init__(
        self, settings: Settings, canon: Callable[[str], str], imported: Callable[[str], bool] = lambda _: False
    ) -> None:
        self.s = settings
        self.canon = canon
        self.imported = imported  # the module binds this name by an import

    def classify(
        self,
        node: sx.Node,
        local_alloc: LocalAlloc,
        self_name: str | None = "self",
        local_call: LocalCall | None = None,
    ) -> AllocInfo | None:
        if isinstance(node, sx.Name):
            return local_alloc(node.id)
        if isinstance(node, sx.Call):
            if local_call is not None and isinstance(node.func, sx.Name):
                is_local, made, _ = local_call(node.func.id)
                if is_local:  # ``norm_layer(dim)``: what the parameter's default or annotation says it builds
                    return made
            return self._call(node, local_alloc, self_name)
        if isinstance(node, sx.Sequence):
            return self._sequence(node, local_alloc, self_name)
        if isinstance(node, sx.Comprehension):
            return self._comprehension(node, local_alloc, self_name)
        if isinstance(node, sx.Dict):
            return self._dict(node, local_alloc, self_name)
        if isinstance(node, sx.IfExp):
            return self.classify(node.body, local_alloc, self_name) or self.classify(
                node.orelse, local_alloc, self_name
            )
        return None

    def _sequence(self, node: sx.Sequence, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        """A list, tuple or set literal: a container of its first element that allocates."""
        for el in node.elts:
            inner = self.classify(el.value if isinstance(el, sx.Starred) else el, local_alloc, self_name)
            if inner is not None:
                return AllocInfo("container", element=inner, count=(ExprTag.CONST, len(node.elts)))
        return None

    def _comprehension(
        self, node: sx.Comprehension, local_alloc: LocalAlloc, self_name: str | None
    ) -> AllocInfo | None:
        """A comprehension whose element allocates; counted over ``range(n)`` or one unfiltered ``ids`` (len)."""
        inner = self.classify(node.elt, local_alloc, self_name)
        if inner is None:
            return None
        if node.shape == "dict":
            return AllocInfo("container", element=inner)
        count = None
        it = node.generators[0].iter
        if isinstance(it, sx.Call) and dotted(it.func) == "range" and len(it.args) == 1:
            count = to_expr(it.args[0].value, self_name)
        elif len(node.generators) == 1 and not node.generators[0].ifs:
            count = (ExprTag.CALL, "len", (to_expr(it, self_name),), ())
        return AllocInfo("container", element=inner, count=count)

    def _dict(self, node: sx.Dict, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        """A dict literal: a container of its first keyed value that allocates."""
        for item in node.items:
            if item.key is not None:
                inner = self.classify(item.value, local_alloc, self_name)
                if inner is not None:
                    return AllocInfo("container", element=inner)
        return None

    def _call(self, node: sx.Call, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        func = node.func
        if isinstance(func, sx.Attribute) and func.attr in CHAIN_METHODS:
            inner = self._chained(func, local_alloc, self_name)
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
        if head in self.s.tensor_modules and last in JOINS and node.args and not node.args[0].star:
            return self._joined(canon, node.args[0].value, local_alloc, self_name)
        if last in self.s.buffer_helpers:
            for a in node.args:
                if isinstance(a.value, sx.Lambda):
                    inner = self.classify(a.value.body, local_alloc, self_name)
                    return AllocInfo("cached-buffer", callee=canon, element=inner)
            return AllocInfo("cached-buffer", callee=canon)
        for mod in self.s.tensor_modules:
            if canon.startswith(mod + ".nn.") and last[:1].isupper():
                if last in PARAMETER_CLASSES or last in BUFFER_CLASSES:
                    wrapper = "parameter" if last in PARAMETER_CLASSES else "buffer"
                    return self._wrapped(node, wrapper, canon, local_alloc, self_name)
                if last in MODULE_CONTAINERS:
                    return self._module_container(node, canon, local_alloc, self_name)
                return AllocInfo("module", callee=canon, **call_arguments(node, self_name))
        kind = heavy_kind(canon, self.s)
        if kind is not None:
            return AllocInfo(kind, callee=name, **call_arguments(node, self_name))
        if last[:1].isupper():
            return AllocInfo("maybe-class", callee=name, **call_arguments(node, self_name))
        return None

    def _chained(self, func: sx.Attribute, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        """``torch.empty(n).to(dev)``: what the chained value allocates; ``self.a.clone()``: the tensor ``self.a``
        holds (a copy is new whatever it copies; ``self.a.to(dev)`` may be ``self.a`` itself)."""
        inner = self.classify(func.value, local_alloc, self_name)
        if inner is None and func.attr in FRESH_COPIES:
            inner = _held_tensor(func.value, local_alloc, self_name)
        return inner

    def _joined(self, canon: str, parts: sx.Expr, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
        """``torch.stack([torch.zeros(n), self.a])``, ``torch.cat([... for ...])``: a new tensor, when a part is an
        allocation (or a ``self`` attribute that holds one); its ``items`` are the parts, which its size sums
        (a part that is no allocation we know leaves the size unknown)."""
        if isinstance(parts, sx.Sequence) and not any(isinstance(e, sx.Starred) for e in parts.elts):
            items = tuple(
                self.classify(e, local_alloc, self_name) or _held_tensor(e, local_alloc, self_name) for e in parts.elts
            )
            if not any(items):
                return None
            return AllocInfo("tensor", callee=canon, items=items if all(items) else ())
        whole = self.classify(parts, local_alloc, self_name)
        return AllocInfo("tensor", callee=canon, items=(whole,)) if whole is not None else None

    def registration(
        self,
        call: sx.Call,
        self_name: str | None,
        local_alloc: LocalAlloc,
        self_literal: Callable[[str], str | None] = lambda _: None,
        loop_values: Callable[[str], tuple[int, ...] | None] = lambda _: None,
    ) -> Registered | None:
        """What ``self.register_buffer("name", value)`` and friends (``self.add_module(name, m)``)
        register.  The name is a literal, ``self.x`` where ``self_literal`` says which literal
        ``self.x`` holds (``self.norm1_name = "bn1"`` just before), or ``f"norm{i}"`` (a literal
        prefix) where ``loop_values`` says which values the loop variable ``i`` takes (``for i in
        range(2)``: ``norm0`` and ``norm1``, one name each).

        The allocation is a ``buffer`` / ``parameter`` / ``module`` wrapping what ``value``
        allocates; None when the value is no allocation (``register_buffer("x", None)``)."""
        func = call.func
        if not (isinstance(func, sx.Attribute) and func.attr in REGISTRATIONS and self_name is not None):
            return None
        if not (isinstance(func.value, sx.Name) and func.value.id == self_name):
            return None
        positional = [a for a in call.args if a.keyword is None and not a.star]
        named = {a.keyword: a.value for a in call.args if a.keyword is not None}
        name_node = positional[0].value if positional else named.get("name")
        value = (
            positional[1].value
            if len(positional) > 1
            else next((named[k] for k in ("tensor", "param", "module") if k in named), None)
        )
        names, loop_var, affix = registered_names(name_node, self_name, self_literal, loop_values)
        if not (names or loop_var) or value is None:
            return None
        kind = REGISTRATIONS[func.attr]
        inner = self.classify(value, local_alloc, self_name)
        if inner is not None and kind != "module" and inner.kind != kind:
            inner = AllocInfo(kind, callee=f"{self_name}.{func.attr}", element=inner)
        return Registered(names, inner, value, loop_var, affix)

    def _wrapped(
        self, node: sx.Call, kind: str, canon: str, local_alloc: LocalAlloc, self_name: str | None
    ) -> AllocInfo:
        """``nn.Parameter(torch.empty(...))``: a parameter (or buffer) wrapping the tensor it is given."""
        first = next((a.value for a in node.args if a.keyword in (None, "data") and not a.star), None)
        inner = self.classify(first, local_alloc, self_name) if first is not None else None
        return AllocInfo(kind, callee=canon, element=inner)

    def followed_call(self, node: sx.Node, self_name: str | None, local_call: LocalCall | None) -> AllocInfo | None:
        """``f(...)``, ``mod.f(...)``, ``self.m(...)``: a call whose result the analysis may follow to what the
        project function or method returns (kind ``call``), or a call of a field of a parameter's declared class
        (``parts.proj(n)``, kind ``field``).  Classes, locals and parameters themselves are not followed."""
        if isinstance(node, sx.IfExp):
            return self.followed_call(node.body, self_name, local_call) or self.followed_call(
                node.orelse, self_name, local_call
            )
        if isinstance(node, sx.Subscript):  # ``build_norm_layer(cfg, c)[1]``: one element of what it returns
            index = _constant_index(node)
            whole = self.followed_call(node.value, self_name, local_call) if index is not None else None
            return AllocInfo("item", element=whole, index=index) if whole is not None else None
        if not isinstance(node, sx.Call):
            return None
        func = node.func
        if isinstance(func, sx.Attribute) and func.attr in CHAIN_METHODS:
            inner = self.followed_call(func.value, self_name, local_call)
            if inner is not None:
                return inner
        name = dotted(func)
        if name is None or name.split(".")[-1][:1].isupper():
            return None
        head, _, rest = name.partition(".")
        if self_name and head == self_name:
            if not rest or "." in rest:
                return None
            return _followed(f"self.{rest}", node, self_name)
        callee = local_call(head) if local_call is not None else LocalCallee(False)
        if callee.declared is not None and rest and "." not in rest and self.may_declare(callee.declared):
            # ``parts.proj(n)``: what the field of the parameter's declared class holds (the analysis reads it)
            return AllocInfo("field", callee=callee.declared, member=rest, **call_arguments(node, self_name))
        if callee.local:
            return None
        if self.canon(name).rpartition(".")[0] in self.s.tensor_modules:
            return None  # the tensor library's own functions: ``classify`` decides them
        return _followed(name, node, self_name)

    def may_declare(self, cls: str) -> bool:
        """A class whose fields may hold classes: not a builtin (``str``) nor a tensor library's (``torch.Tensor``)."""
        return cls.split(".")[-1][:1].isupper() and self.canon(cls).rpartition(".")[0] not in self.s.tensor_modules

    def annotated(self, node: sx.Expr | None, parse: Callable[[str], sx.Expr | None]) -> AllocInfo | None:
        """The allocation a return annotation promises: ``torch.Tensor``, a ``torch.nn`` class, a heavy or project
        class, or a tuple of those (``Tuple[nn.Module, int, int]``)."""
        if isinstance(node, sx.Const) and isinstance(node.value, str):
            return self.annotated(parse(node.value), parse)
        if isinstance(node, sx.Subscript):
            base = (dotted(node.value) or "").split(".")[-1]
            if base in ("Tuple", "tuple"):
                items = tuple(self.annotated(i, parse) for i in node.items)
                return AllocInfo("tuple", items=items) if any(items) and len(items) > 1 else None
            return None
        name = dotted(node) if node is not None else None
        if name is None:
            return None
        canon = self.canon(name)
        head, _, last = canon.rpartition(".")
        if head in self.s.tensor_modules and last == "Tensor":
            return AllocInfo("tensor", callee=canon)
        if head in self.s.tensor_modules or last in ("Any", "object") or not last[:1].isupper():
            return None  # torch.Size, torch.dtype...
        assert node is not None
        return self._call(sx.Call(node.line, node.col, node.end_line, node, ()), lambda _: None, None)

    def _module_container(self, node: sx.Call, canon: str, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo:
        el = None
        for a in node.args:
            el = self.classify(a.value, local_alloc, self_name)
            if el is not None:
                break
        if el is not None and el.kind == AllocKind.CONTAINER:  # ModuleList([... for ...]) is one list
            return AllocInfo("container", callee=canon, element=el.element, count=el.count)
        return AllocInfo("container", callee=canon, element=el or AllocInfo("module", callee=canon))


def _held_tensor(node: sx.Expr, local_alloc: LocalAlloc, self_name: str | None) -> AllocInfo | None:
    """The tensor ``self.a`` holds, where the walk knows it (``local_alloc`` answers ``"self.a"``: an ``__init__``
    assigned it a tensor on every path, and nothing since could have replaced it)."""
    attr = self_attr(node, self_name) if self_name is not None else None
    held = local_alloc(f"{self_name}.{attr}") if attr is not None else None
    return held if held is not None and held.kind == AllocKind.TENSOR else None


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
        items=tuple(inline_locals(i, value_of) if i is not None else None for i in alloc.items),
    )


def call_arguments(node: sx.Call, self_name: str | None) -> dict[str, Any]:
    """The ``args`` and ``kwargs`` of an ``AllocInfo`` for a constructor call (what sizes fold)."""
    return call_arguments_of(node.args, self_name)


def call_arguments_of(given: tuple[sx.Arg, ...], self_name: str | None) -> dict[str, Any]:
    """A call's ``args`` and ``kwargs`` as records keep them: ``**kwargs`` is left out, and so is every
    positional argument from a ``*args`` on (its position is unknown)."""
    args: list[Expr] = []
    for a in given:
        if a.star == "*":
            break
        if a.keyword is None and not a.star:
            args.append(to_expr(a.value, self_name))
    kwargs = tuple((a.keyword, to_expr(a.value, self_name)) for a in given if a.keyword is not None)
    return {"args": tuple(args), "kwargs": kwargs}


def _constant_index(node: sx.Subscript) -> int | None:
    """``k`` of ``x[k]`` for one integer literal ``k`` (``-1`` too)."""
    if len(node.items) != 1:
        return None
    item = node.items[0]
    if isinstance(item, sx.UnaryOp) and item.op == "-" and isinstance(item.operand, sx.Const):
        value = item.operand.value
        return -value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(item, sx.Const) and isinstance(item.value, int) and not isinstance(item.value, bool):
        return item.value
    return None


def _followed(callee: str, node: sx.Call, self_name: str | None) -> AllocInfo:
    """A call to follow, with its arguments (to bind to the callee's parameters for sizes)."""
    return AllocInfo("call", callee=callee, **call_arguments(node, self_name), star_args=any(a.star for a in node.args))


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
