"""What a function or method returns, as far as allocations go: the ``Returns`` fact.

The body is read in source order, without control flow: a local is an allocation
only when every binding of it other than ``None`` is one (a parameter counts as a
binding that is not), so ``if buf is None: buf = torch.zeros(n)`` / ``return buf``
returns no allocation.  Each ``return`` gives what its value allocates: an
allocation, a call the analysis follows project-wide (kind ``call``), a tuple of
those element by element (kind ``tuple``), or None.  Generators and coroutines
return no allocation: ``generator_mark`` finds what makes one, and the summary builder,
whose walk meets every node of the body, drops what ``run`` gives for one.  Calling a
parameter builds what its default or annotation names (``norm_layer=nn.LayerNorm``,
``Callable[..., nn.Module]``), else nothing known.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deadinit.model.kinds import AllocKind, ExprTag
from deadinit.model.summary import AllocInfo, Returns
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier, LocalCallee
from deadinit.semantics.annotations import ParseExpression, annotation_types
from deadinit.semantics.class_typed import CLASS_TYPES, annotation_builds, called_builds
from deadinit.semantics.effects import target_names
from deadinit.semantics.exprs import dotted, isinstance_classes, literal

_GENERATOR_MARKS = ("yield", "await")


@dataclass
class _Local:
    bindings: list[AllocInfo | None] = field(default_factory=list)  # what each binding gives, None: not one
    calls: AllocInfo | None = None  # what calling it allocates (a parameter with a class default)
    declared: str | None = None  # a parameter annotated with one class: that class (its fields' calls are followed)
    builders: list[AllocInfo | None] = field(default_factory=list)  # per binding: what calling its value builds
    from_calls: bool = True  # every binding is the result of a call the return annotation may speak for
    parameter: bool = False

    def value(self) -> AllocInfo | None:
        if not self.bindings or any(b is None for b in self.bindings):
            return None
        return self.bindings[0]


def param_call(param: sx.Param, classifier: AllocClassifier, parse: ParseExpression) -> AllocInfo | None:
    """What calling the parameter allocates: its default is a class (``norm_layer=nn.LayerNorm``), or its
    annotation says it builds one (``type[nn.Module]``, ``Callable[..., nn.Module]``)."""
    if param.default is not None:
        name = dotted(param.default)
        if name is not None and name not in ("None", "True", "False") and name.split(".")[-1][:1].isupper():
            call = sx.Call(param.default.line, param.default.col, param.default.end_line, param.default, ())
            return classifier.classify(call, lambda _: None, None)
    return annotation_builds(param.annotation, classifier, parse, callables=True)


def declared_class(param: sx.Param, parse: ParseExpression) -> str | None:
    """The one class a parameter's annotation names besides ``type`` (``parts: AttnParts``,
    ``spec: Union[LayerSpec, type]``), dotted as written: where the fields its calls reach are declared."""
    types = annotation_types(param.annotation, parse) if not param.star else None
    named = [t.dotted for t in types or () if t.dotted.split(".")[-1] not in CLASS_TYPES]
    return named[0] if len(named) == 1 else None


class ReturnsInference:
    def __init__(
        self, func: sx.FunctionDef, self_name: str | None, classifier: AllocClassifier, parse: ParseExpression
    ) -> None:
        self.func = func
        self.self_name = self_name
        self.cls = classifier
        self.parse = parse
        self.locals: dict[str, _Local] = {}
        self.values: list[AllocInfo | None] = []
        self.calls_only = True  # every return gives the result of a call the annotation may speak for
        self.caches = False  # stores into a module-level name: what it returns may be shared between calls
        # per return: of a tuple, whether the annotation may speak for each element (else ())
        self.speaking: list[tuple[bool, ...]] = []
        self.returned: list[str | None] = []  # per return: the local it returns whole, if any

    def run(self) -> Returns | None:
        if not returns_value(self.func.body):  # nothing to infer: the walk below would record no value
            return None
        for p in self.func.params:
            if p.name != self.self_name:
                self.locals[p.name] = _Local(
                    [None],
                    param_call(p, self.cls, self.parse),
                    declared_class(p, self.parse),
                    from_calls=False,
                    parameter=True,
                )
        self._block(self.func.body)
        if self.caches or not self.values:
            return None
        self._drop_escaped()
        annotated = None
        if self.calls_only:
            annotated = self.cls.annotated(self.func.returns, self.parse)
        elif any(self.speaking):
            self._tuples_from_annotation(self.cls.annotated(self.func.returns, self.parse))
        if all(v is None for v in self.values) and annotated is None:
            return None
        return Returns(self.func.line, tuple(self.values), annotated)

    def _drop_escaped(self) -> None:
        """A returned local the function also hands to a call (``fusion.install(service)``; not a tensor library
        function nor a cheap builtin) may be held by something else that stays: that return is no allocation
        the caller owns alone."""
        names = {n for n, v in zip(self.returned, self.values, strict=True) if n is not None and v is not None}
        if not names:
            return
        escaped = _passed_to_calls(self.func.body, names, self._shares)
        if escaped:  # nor does the return annotation speak for it
            self.calls_only = False
            self.values = [None if n in escaped else v for n, v in zip(self.returned, self.values, strict=True)]

    def _shares(self, call: sx.Call) -> bool:
        """A call that may keep an argument it is given."""
        name = dotted(call.func)
        if name is None:
            return True
        if name in _CHEAP_BUILTINS:
            return False
        canon = self.cls.canon(name)
        return not any(canon == m or canon.startswith(m + ".") for m in self.cls.s.tensor_modules)

    def _tuples_from_annotation(self, annotated: AllocInfo | None) -> None:
        """``return name, layer`` with ``-> tuple[str, nn.Module]``: an element that is the result of a call
        the annotation may speak for, and is no allocation we know, is what the annotation says it is."""
        if annotated is None or annotated.kind != AllocKind.TUPLE:
            return
        for i, (value, speaks) in enumerate(zip(self.values, self.speaking, strict=True)):
            if value is None or value.kind != AllocKind.TUPLE or len(speaks) != len(annotated.items):
                continue
            items = tuple(
                item if item is not None or not speak else promised
                for item, speak, promised in zip(value.items, speaks, annotated.items, strict=True)
            )
            self.values[i] = AllocInfo("tuple", items=items)

    # -- values ------------------------------------------------------------------
    def _local_alloc(self, name: str) -> AllocInfo | None:
        loc = self.locals.get(name)
        return loc.value() if loc is not None else None

    def _local_call(self, name: str) -> LocalCallee:
        loc = self.locals.get(name)
        if loc is None:
            return LocalCallee(False)
        if loc.parameter:
            only = len(loc.bindings) == 1  # not rebound
            builds = loc.calls or (AllocInfo("param-call", member=name) if only else None)
            return LocalCallee(True, builds, loc.declared if only else None)
        # a local bound only to class-typed values (``cls = spec.cls``): calling it builds what the first does
        every = len(loc.builders) == len(loc.bindings) and all(b is not None for b in loc.builders)
        return LocalCallee(True, loc.builders[0] if loc.builders and every else None)

    def value_of(self, node: sx.Expr) -> AllocInfo | None:
        if isinstance(node, sx.Name):
            return self._local_alloc(node.id)
        made = self.cls.classify(node, self._local_alloc, self.self_name, self._local_call)
        return made or self.cls.followed_call(node, self.self_name, self._local_call)

    def _returned(self, node: sx.Expr) -> None:
        if isinstance(node, sx.Sequence) and node.shape == "tuple" and node.elts:
            self.returned.append(None)
            if any(isinstance(e, sx.Starred) for e in node.elts):
                self.values.append(None)
                self.speaking.append(())
                return
            self.values.append(AllocInfo("tuple", items=tuple(self.value_of(e) for e in node.elts)))
            self.speaking.append(tuple(self._annotation_may_speak(e) for e in node.elts))
            self.calls_only = False
            return
        self.values.append(self.value_of(node))
        self.speaking.append(())
        self.returned.append(node.id if isinstance(node, sx.Name) else None)
        if not self._annotation_may_speak(node):
            self.calls_only = False

    def _annotation_may_speak(self, node: sx.Expr) -> bool:
        """A call of something that is not a local, a parameter or a tensor library function (those the
        classifier decides: ``torch.narrow`` returns a view)."""
        if isinstance(node, sx.Name):
            loc = self.locals.get(node.id)
            return loc is not None and loc.from_calls and bool(loc.bindings)
        if not isinstance(node, sx.Call):
            return False
        if isinstance(node.func, sx.Subscript):  # ``NORMS[kind](c)``: a class looked up at run time
            return isinstance(node.func.value, sx.Name) and node.func.value.id not in self.locals
        name = dotted(node.func)
        if name is None:
            return False
        head, _, rest = name.partition(".")
        if head in self.locals:
            # a class or factory looked up at run time (``layer = REGISTRY[kind]``; ``layer(*args)``), not a
            # parameter and not an object it built (calling a module gives its output)
            loc = self.locals[head]
            return not rest and not loc.parameter and loc.value() is None
        if head == self.self_name and "." in rest:
            return False
        if rest and head != self.self_name and not self.cls.imported(head):
            return False  # a method of a module-level object (``_CACHE.setdefault(...)``), not a factory
        return self.cls.canon(name).rpartition(".")[0] not in self.cls.s.tensor_modules

    # -- statements --------------------------------------------------------------
    def _block(self, body: sx.Body) -> None:
        for st in body:
            self._stmt(st)

    def _stmt(self, st: sx.Stmt) -> None:
        step = _STEPS.get(type(st))
        if step is not None:  # any other statement: nothing it binds or returns counts
            step(self, st)

    def _return(self, st: sx.Return) -> None:
        v = st.value
        if v is not None and not _is_none(v):
            self._returned(v)

    def _assign(self, st: sx.Assign | sx.AnnAssign) -> None:
        targets = st.targets if isinstance(st, sx.Assign) else (st.target,)
        if isinstance(st, sx.Assign) and any(self._stores_outside(x) for x in targets):
            self.caches = True
        if st.value is not None:
            for x in targets:
                self._bind(x, st.value)

    def _aug_assign(self, st: sx.AugAssign) -> None:
        if self._stores_outside(st.target):
            self.caches = True
        self._unknown(st.target)

    def _for(self, st: sx.For) -> None:
        self._unknown(st.target)
        self._block(st.body)
        self._block(st.orelse)

    def _branches(self, st: sx.If | sx.While) -> None:
        # ``if isinstance(spec, ModuleSpec): return spec.module(n)``: the parameter's fields' calls are followed
        narrowed: list[str] = []
        for name, loc in self.locals.items() if isinstance(st, sx.If) else ():
            classes = isinstance_classes(st.test, name) if loc.parameter and loc.declared is None else None
            if classes is not None and len(classes) == 1:
                loc.declared = classes[0]
                narrowed.append(name)
        self._block(st.body)
        for name in narrowed:
            self.locals[name].declared = None
        self._block(st.orelse)

    def _try(self, st: sx.Try) -> None:
        self._block(st.body)
        for h in st.handlers:
            self._block(h.body)
        self._block(st.orelse)
        self._block(st.finalbody)

    def _with(self, st: sx.With) -> None:
        for item in st.items:
            if item.asname is not None:
                self._unknown(item.asname)
        self._block(st.body)

    def _definition(self, st: sx.FunctionDef | sx.ClassDef) -> None:
        self.locals.setdefault(st.name, _Local()).bindings.append(None)

    def _declaration(self, st: sx.Names) -> None:  # global / nonlocal
        self.caches = True

    def _bind(self, target: sx.Expr, value: sx.Expr) -> None:
        if isinstance(target, sx.Name):
            if _is_none(value):
                self.locals.setdefault(target.id, _Local())
                return
            made = self.value_of(value)
            if isinstance(value, sx.Name) and value.id in self.locals:
                made = self.locals[value.id].value()
            loc = self.locals.setdefault(target.id, _Local())
            loc.bindings.append(made)
            loc.builders.append(self._class_of(value))
            loc.from_calls = loc.from_calls and self._annotation_may_speak(value)
            return
        if isinstance(target, sx.Sequence) and not any(isinstance(e, sx.Starred) for e in target.elts):
            whole = self.value_of(value)
            n = len(target.elts)
            for i, el in enumerate(target.elts):
                if isinstance(el, sx.Name):
                    item = AllocInfo("item", element=whole, index=i, count=(ExprTag.CONST, n)) if whole else None
                    loc = self.locals.setdefault(el.id, _Local())
                    loc.bindings.append(item)
                    loc.from_calls = False
                else:
                    self._unknown(el)
            return
        self._unknown(target)

    def _class_of(self, value: sx.Expr) -> AllocInfo | None:
        """What calling ``value`` builds (``class_typed.called_builds``: a class, ``cls = spec`` of a parameter
        declared to hold one, ``cls = spec.cls`` of a field of a parameter's declared class); of ``a if c else
        b``, what ``a`` builds when both build."""
        if isinstance(value, sx.IfExp):
            body, orelse = self._class_of(value.body), self._class_of(value.orelse)
            return body if orelse is not None else None
        return called_builds(value, self.cls, self._local_call)

    def _stores_outside(self, target: sx.Expr) -> bool:
        """``_CACHE[key] = ...`` / ``_STATE.x = ...``: a store into an object no local names."""
        if isinstance(target, sx.Sequence):
            return any(self._stores_outside(e) for e in target.elts)
        if isinstance(target, (sx.Subscript, sx.Attribute)):
            base = target.value
            while isinstance(base, (sx.Subscript, sx.Attribute)):
                base = base.value
            return isinstance(base, sx.Name) and base.id not in self.locals and base.id != self.self_name
        return False

    def _unknown(self, target: sx.Expr) -> None:
        for n in target_names(target):
            loc = self.locals.setdefault(n, _Local())
            loc.bindings.append(None)
            loc.from_calls = False


# what each kind of statement does to the inference (any other kind: nothing)
_STEPS: dict[type[sx.Stmt], Callable[[ReturnsInference, Any], None]] = {
    sx.Return: ReturnsInference._return,
    sx.Assign: ReturnsInference._assign,
    sx.AnnAssign: ReturnsInference._assign,
    sx.AugAssign: ReturnsInference._aug_assign,
    sx.For: ReturnsInference._for,
    sx.While: ReturnsInference._branches,
    sx.If: ReturnsInference._branches,
    sx.Try: ReturnsInference._try,
    sx.With: ReturnsInference._with,
    sx.FunctionDef: ReturnsInference._definition,
    sx.ClassDef: ReturnsInference._definition,
    sx.Names: ReturnsInference._declaration,
}


def returns_value(body: sx.Body) -> bool:
    """A ``return`` of a value other than ``None`` among the statements ``ReturnsInference._stmt`` reads."""
    for st in body:
        t = type(st)
        if t is sx.Return:
            v = st.value  # type: ignore[attr-defined]
            if v is not None and not _is_none(v):
                return True
        elif t is sx.For or t is sx.While or t is sx.If:
            if returns_value(st.body) or returns_value(st.orelse):  # type: ignore[attr-defined]
                return True
        elif t is sx.Try:
            blocks = (st.body, *(h.body for h in st.handlers), st.orelse, st.finalbody)  # type: ignore[attr-defined]
            if any(returns_value(b) for b in blocks):
                return True
        elif t is sx.With and returns_value(st.body):  # type: ignore[attr-defined]
            return True
    return False


_CHEAP_BUILTINS = frozenset({"len", "isinstance", "id", "print", "repr", "str", "type", "hasattr", "getattr"})


def _passed_to_calls(body: sx.Body, names: set[str], shares: Callable[[sx.Call], bool]) -> set[str]:
    """The ``names`` that a call in ``body`` for which ``shares`` holds is given whole as an argument."""
    out: set[str] = set()
    stack: list[sx.Node] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Call):
            given = {a.value.id for a in n.args if isinstance(a.value, sx.Name) and a.value.id in names}
            if given and shares(n):
                out |= given
        stack.extend(n.children())
    return out


def _is_none(node: sx.Expr) -> bool:
    """The literal ``None`` (a ``Name``, as the tree reads keywords)."""
    return literal(node) == (True, None)


def generator_mark(node: sx.Other) -> bool:
    """A ``yield`` or ``await``: one in a function's body (not in a nested function, class or lambda)
    makes it a generator or coroutine, whose call returns no allocation."""
    return node.what.lower().startswith(_GENERATOR_MARKS)
