"""Values handed to a constructor: which ``self`` attributes a statement only passes as call
arguments, and what an ``__init__`` does with each of its parameters.

Together they let the analysis follow a value across a construction: ``B(buf=self.kv[i])``
passes ``kv`` to ``B``'s parameter ``buf``; ``B.__init__`` stores ``buf`` into ``self.kv``
(``PARAM_STORE``), reads it only to compute the value of a plain ``self.a = ...``
(``PARAM_COMPUTE``: it counts only if that binding of ``a`` is live on ``B``), hands it to its
parent's ``__init__`` (``PARAM_INIT``) or to another named callee (``PARAM_CALL``: the analysis
follows it when that is a project class), only tests it against ``None`` (``PARAM_TEST``), or does
anything else with it (``PARAM_USE``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from deadinit.semantics import syntax as sx
from deadinit.semantics.effects import init_call, reads_of, target_names
from deadinit.semantics.exprs import dotted, is_name, self_attr

PARAM_STORE = "store"  # target: the self attribute it becomes
PARAM_INIT = "init"  # target: the argument slot of the parent ``__init__`` call it is passed to
PARAM_CALL = "call"  # target: the argument slot of a call of a named callee (``callee``), e.g. a constructor
PARAM_TEST = "test"  # ``p is None`` / ``p is not None``: only its identity is looked at
PARAM_COMPUTE = "compute"  # target: the self attribute whose assigned value it is read to compute
PARAM_USE = "use"  # anything else: its value is used

Slot = int | str  # a positional index or a keyword
Passed = tuple[str, str, Slot]  # (self attribute, dotted callee as written, argument slot)
ParamFlow = tuple[str, str, Slot, int, str]  # (parameter, PARAM_* kind, target, line, dotted callee of a call)


def _walk(node: sx.Node) -> Iterator[sx.Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children()))


def _body_nodes(body: sx.Body) -> list[sx.Node]:
    """Every node of ``body``, each statement's before its children (``_walk`` order), in one list."""
    out: list[sx.Node] = []
    stack: list[sx.Node] = list(reversed(body))
    pop, push, add = stack.pop, stack.extend, out.append
    while stack:
        n = pop()
        add(n)
        push(reversed(n.children()))
    return out


def _argument_slots(args: tuple[sx.Arg, ...]) -> Iterator[tuple[Slot, sx.Expr]]:
    """Each argument that binds to one parameter, with its slot (nothing after a ``*args``)."""
    position = 0
    for a in args:
        if a.star:
            if a.star == "*":
                return
            continue
        if a.keyword is not None:
            yield a.keyword, a.value
        else:
            yield position, a.value
            position += 1


def _whole_value(value: sx.Expr, self_name: str) -> str | None:
    """``a`` for an argument ``self.a`` or ``self.a[...]`` (the attribute's object or a part of it)."""
    if isinstance(value, sx.Subscript):
        value = value.value
    return self_attr(value, self_name)


def passed_only(node: sx.Node, self_name: str, attrs: frozenset[str]) -> tuple[Passed, ...]:
    """The ``attrs`` that ``node`` loads only as whole arguments of calls of named callees (not
    methods of self), each with every (callee, slot) it goes to; an attribute loaded any other way
    in ``node`` is left out."""
    passed: dict[str, list[tuple[str, Slot]]] = {}
    for n in _walk(node):
        if not isinstance(n, sx.Call):
            continue
        callee = dotted(n.func)
        if callee is None or callee.split(".")[0] == self_name:
            continue
        for slot, value in _argument_slots(n.args):
            attr = _whole_value(value, self_name)
            if attr is not None and attr in attrs:
                passed.setdefault(attr, []).append((callee, slot))
    loads = Counter(reads_of(node, self_name).attrs)
    return tuple(
        (attr, callee, slot)
        for attr in sorted(passed)
        if loads[attr] == len(passed[attr])
        for callee, slot in passed[attr]
    )


def _stored_param(value: sx.Expr) -> sx.Expr:
    """What is stored: ``p`` for ``p``, ``[p]``, ``(p,)`` and ``p[...]``."""
    if isinstance(value, sx.Sequence) and len(value.elts) == 1:
        value = value.elts[0]
    if isinstance(value, sx.Subscript):
        value = value.value
    return value


_LEAVES = frozenset({sx.Name, sx.Attribute, sx.Const, sx.Arg})  # nothing that binds or that is classified
# a value with one of these may bind a name of its own (a comprehension's target, a walrus, a lambda's
# parameter): a mention there may be another binding, so it is not read to compute the value
_SCOPES = (sx.Comprehension, sx.Generator, sx.Lambda, sx.FunctionDef)


def _plain_value(value: sx.Expr) -> bool:
    """``value`` binds no name of its own (no comprehension, lambda or walrus inside)."""
    return not any(isinstance(n, _SCOPES) or (isinstance(n, sx.Other) and n.stores) for n in _walk(value))


def _nested_scopes(nodes: list[sx.Node]) -> set[int]:
    """The nodes inside functions and lambdas nested in a function (``nodes``: its body's): a name
    there may be another binding."""
    inner: set[int] = set()
    for n in nodes:
        if isinstance(n, (sx.FunctionDef, sx.Lambda)):
            inner.update(id(m) for m in _walk(n))
    return inner


def _bound_names(func: sx.FunctionDef, nodes: list[sx.Node]) -> set[str]:
    """The names ``func`` binds (parameters, assignment, loop, ``with`` and import targets, definitions)."""
    out = {p.name for p in func.params}
    for n in nodes:
        if type(n) in _LEAVES:
            continue
        targets: tuple[sx.Node | None, ...] = ()
        if isinstance(n, sx.Assign):
            targets = n.targets
        elif isinstance(n, (sx.AnnAssign, sx.AugAssign, sx.For)):
            targets = (n.target,)
        elif isinstance(n, sx.WithItem):
            targets = (n.asname,)
        elif isinstance(n, sx.Import):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (sx.FunctionDef, sx.ClassDef)):
            out.add(n.name)
        out.update(name for t in targets if t is not None for name in target_names(t))
    return out


def param_flow(func: sx.FunctionDef, self_name: str) -> tuple[ParamFlow, ...]:
    """Where each parameter of ``func`` (an ``__init__``) goes: one entry per mention of it (a
    rebinding, or a mention in a nested function, is a ``PARAM_USE``)."""
    nodes = _body_nodes(func.body)
    flow = _ParamFlow(func, self_name, nodes)
    for n in nodes:
        if type(n) not in _LEAVES and id(n) not in flow.inner:
            flow.classify(n)
    for n in nodes:
        if isinstance(n, sx.Name) and n.id in flow.params and id(n) not in flow.classified:
            flow.out.append((n.id, PARAM_USE, "", n.line, ""))
    return tuple(sorted(set(flow.out), key=lambda f: (f[0], f[3], f[1], str(f[2]), f[4])))


class _ParamFlow:
    """The mentions of an ``__init__``'s parameters classified so far (``classified``: their nodes)."""

    def __init__(self, func: sx.FunctionDef, self_name: str, nodes: list[sx.Node]) -> None:
        self.self_name = self_name
        self.params = {p.name for p in func.params if not p.star and p.name != self_name}
        self.inner = _nested_scopes(nodes)
        self.bound = _bound_names(func, nodes)
        self.classified: set[int] = set()
        self.out: list[ParamFlow] = []

    def param(self, node: sx.Node) -> str | None:
        return node.id if isinstance(node, sx.Name) and node.id in self.params and id(node) not in self.inner else None

    def classify(self, n: sx.Node) -> None:
        if isinstance(n, (sx.Assign, sx.AnnAssign)) and n.value is not None:
            self._store(n, n.value)
        elif isinstance(n, sx.Compare) and len(n.ops) == 1 and n.ops[0] in ("is", "is not"):
            self._test(n)
        elif isinstance(n, sx.Call) and (call := init_call(n, self.self_name)) is not None:
            for slot, value in _argument_slots(call.args):
                name = self.param(value)
                if name is not None:
                    self.classified.add(id(value))
                    self.out.append((name, PARAM_INIT, slot, n.line, ""))
        elif isinstance(n, sx.Call) and (callee := dotted(n.func)) is not None and callee != "super":
            self._call(n, callee)

    def _store(self, n: sx.Assign | sx.AnnAssign, value: sx.Expr) -> None:
        """``self.a = p`` (``self.a = b = p``, ``self.a = [p]``...): ``p`` stored into ``a``."""
        targets = n.targets if isinstance(n, sx.Assign) else (n.target,)
        stored = _stored_param(value)
        attrs = [self_attr(t, self.self_name) for t in targets]
        if not all(a is not None for a in attrs):
            return
        name = self.param(stored)
        if name is not None:
            self.classified.add(id(stored))
            self.out.extend((name, PARAM_STORE, str(a), n.line, "") for a in attrs)
        elif _plain_value(value):
            self._compute(n, value, [str(a) for a in attrs])

    def _compute(self, n: sx.Assign | sx.AnnAssign, value: sx.Expr, attrs: list[str]) -> None:
        """``self.a = p.shape[0] * 2``: each mention of ``p`` in the value outside any call only computes
        ``a``. Inside a call it is the call's (``classify``: handed to a named callee, or a use): the
        callee, or a method called on ``p``, may keep the value somewhere."""
        stack: list[sx.Node] = [value]
        while stack:
            m = stack.pop()
            if isinstance(m, sx.Call):
                continue
            name = self.param(m)
            if name is not None:
                self.classified.add(id(m))
                self.out.extend((name, PARAM_COMPUTE, a, n.line, "") for a in attrs)
            stack.extend(m.children())

    def _test(self, n: sx.Compare) -> None:
        """``p is None`` / ``p is not None``: only ``p``'s identity is looked at."""
        name = self.param(n.left)
        if name is not None and is_name(n.comparators[0], "None"):
            self.classified.add(id(n.left))
            self.out.append((name, PARAM_TEST, "", n.line, ""))

    def _call(self, n: sx.Call, callee: str) -> None:
        """``p`` (or ``p[...]``) handed to a named callee that is not self's method or a local."""
        if callee.split(".")[0] in self.bound:  # self's method, or a local that may hold any callable
            return
        for slot, value in _argument_slots(n.args):
            whole = value.value if isinstance(value, sx.Subscript) else value
            name = self.param(whole)
            if name is not None:
                self.classified.add(id(whole))
                self.out.append((name, PARAM_CALL, slot, n.line, callee))
