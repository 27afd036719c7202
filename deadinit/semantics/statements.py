"""What a statement needs from the scope it runs in, and what it defines there.

The fixes guard, move and inline whole statements of an ``__init__``, so they ask of
each one: which names and ``self`` attributes running it loads (``loads``), which names
it binds (``bound_names``), which ``__init__`` calls it makes (``init_calls_within``)
and whose methods it calls (``called_method_attr``).

``loads`` follows Python's scoping: names a comprehension, a lambda or a nested
``def``/``class`` binds are that scope's own; what those scopes take from outside
(free names, defaults, decorators, the first iterable of a comprehension) counts.  A
store target is not a load, but the object it stores into is (``a.b = 1`` loads
``a``; ``self.x[i] = v`` loads ``self.x`` and ``i``); ``x += 1`` and ``del x`` load
``x`` (both fail when it is unbound).  A local variable's annotation is not evaluated
inside a function (PEP 526), so it loads nothing.  ``self.x`` is recorded as the
attribute ``x`` (``getattr(self, "x")`` too, as ``effects.reads_of`` counts it);
``self`` is a loaded name only where it is used as a value of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from deadinit.semantics import syntax as sx
from deadinit.semantics.effects import FILL_METHODS, InitCall, init_call, literal_attr_of_self, target_names
from deadinit.semantics.exprs import self_attr

_SCOPES = (sx.FunctionDef, sx.ClassDef)


@dataclass
class Loads:
    """Names and ``self`` attributes loaded, each once, in source order."""

    names: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)

    def add_name(self, name: str) -> None:
        if name not in self.names:
            self.names.append(name)

    def add_attr(self, attr: str) -> None:
        if attr not in self.attrs:
            self.attrs.append(attr)


def loads(node: sx.Node | None, self_name: str | None, skip: sx.Stmt | None = None) -> Loads:
    """What running a statement (its blocks included) or evaluating an expression loads;
    ``skip``: a statement under ``node`` to leave out (the function a rewrite replaces)."""
    out = Loads()
    if node is not None:
        _LoadWalker(self_name, out, skip).node(node, frozenset(), frozenset())
    return out


def header_loads(stmt: sx.Stmt, self_name: str | None) -> Loads:
    """What a statement loads outside its blocks: an ``if``/``while`` test, a ``for``
    loop's iterable and target, ``with`` items, ``except`` types.  A simple statement,
    a ``def``/``class`` or a statement without rules (``match``) loads all it holds."""
    out = Loads()
    walk = _LoadWalker(self_name, out)
    none: frozenset[str] = frozenset()
    if isinstance(stmt, (sx.If, sx.While)):
        walk.expr(stmt.test, none)
    elif isinstance(stmt, sx.For):
        walk.expr(stmt.iter, none)
        walk.target(stmt.target, none)
    elif isinstance(stmt, sx.With):
        for item in stmt.items:
            walk.expr(item.expr, none)
            if item.asname is not None:
                walk.target(item.asname, none)
    elif isinstance(stmt, sx.Try):
        for h in stmt.handlers:
            walk.expr(h.type, none)
    else:
        walk.node(stmt, none, none)
    return out


class _LoadWalker:
    """``hidden``: names an inner scope binds (not the outer scope's); ``fn_hidden``: the
    part of it a function nested here inherits (class bodies do not lend their names)."""

    def __init__(self, self_name: str | None, out: Loads, skip: sx.Stmt | None = None) -> None:
        self.self_name = self_name
        self.out = out
        self.skip = skip

    def _is_self(self, node: sx.Node, hidden: frozenset[str]) -> bool:
        return isinstance(node, sx.Name) and node.id == self.self_name and node.id not in hidden

    def node(self, n: sx.Node, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        if isinstance(n, sx.Stmt):
            self.stmt(n, hidden, fn_hidden)
        else:
            self.expr(n, hidden)

    def expr(self, n: sx.Node | None, hidden: frozenset[str]) -> None:
        if n is None:
            return
        walk = _EXPRESSIONS.get(type(n))
        if walk is not None:
            walk(self, n, hidden)
        else:
            for c in n.children():
                self.node(c, hidden, hidden)

    def _name(self, n: sx.Name, hidden: frozenset[str]) -> None:
        if n.id not in hidden:
            self.out.add_name(n.id)

    def _attribute(self, n: sx.Attribute, hidden: frozenset[str]) -> None:
        if self._is_self(n.value, hidden):
            self.out.add_attr(n.attr)
        else:
            self.expr(n.value, hidden)

    def _call(self, n: sx.Call, hidden: frozenset[str]) -> None:
        if self.self_name not in hidden:
            literal = literal_attr_of_self(n, self.self_name, ("getattr", "hasattr"))
            if literal is not None:
                self.out.add_attr(literal)
        for c in n.children():
            self.expr(c, hidden)

    def _lambda(self, n: sx.Lambda, hidden: frozenset[str]) -> None:
        for p in n.params:
            self.expr(p.default, hidden)
        self.expr(n.body, hidden | {p.name for p in n.params})

    def _other(self, n: sx.Other, hidden: frozenset[str]) -> None:
        for c in n.items:
            if c in n.stores:  # the ``:=`` target (equal to, not the same node as, the stored one)
                self.target(c, hidden)
            else:
                self.node(c, hidden, hidden)

    def _comprehension(self, n: sx.Comprehension, hidden: frozenset[str]) -> None:
        inner = hidden | {name for g in n.generators for name in target_names(g.target)}
        self.expr(n.key, inner)
        self.expr(n.elt, inner)
        for i, g in enumerate(n.generators):
            self.target(g.target, inner)
            self.expr(g.iter, hidden if i == 0 else inner)
            for cond in g.ifs:
                self.expr(cond, inner)

    def target(self, t: sx.Node | None, hidden: frozenset[str]) -> None:
        """What storing into ``t`` loads."""
        if t is None or isinstance(t, sx.Name):
            return
        if isinstance(t, sx.Attribute):
            if not self._is_self(t.value, hidden):
                self.expr(t.value, hidden)
        elif isinstance(t, sx.Subscript):
            self.expr(t.value, hidden)
            for item in t.items:
                self.expr(item, hidden)
        elif isinstance(t, (sx.Sequence, sx.Starred)):
            for c in t.children():
                self.target(c, hidden)
        else:
            self.expr(t, hidden)

    def stmt(self, s: sx.Stmt, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        if s is self.skip:
            return
        walk = _STATEMENTS.get(type(s))
        if walk is not None:
            walk(self, s, hidden, fn_hidden)
        else:  # return, raise, assert, expression statements, statements without rules
            for c in s.children():
                self.node(c, hidden, fn_hidden)

    def _assign(self, s: sx.Assign | sx.AnnAssign, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        self.expr(s.value, hidden)
        for t in s.targets if isinstance(s, sx.Assign) else (s.target,):
            self.target(t, hidden)

    def _aug_assign(self, s: sx.AugAssign, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        self.expr(s.value, hidden)
        self.expr(s.target, hidden)

    def _delete(self, s: sx.Delete, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        for t in s.targets:
            self.expr(t, hidden)  # ``del x`` / ``del self.x`` fail when it is not there

    def _loads_nothing(self, s: sx.Stmt, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        return

    def _class(self, s: sx.ClassDef, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        for d in s.decorators:
            self.expr(d, hidden)
        for a in s.bases:
            self.expr(a.value, hidden)
        own = hidden | _scope_bindings(s.body)
        for st in s.body:
            self.stmt(st, own, fn_hidden)

    def _for(self, s: sx.For, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        self.expr(s.iter, hidden)
        self.target(s.target, hidden)
        self._blocks((s.body, s.orelse), hidden, fn_hidden)

    def _with(self, s: sx.With, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        for item in s.items:
            self.expr(item.expr, hidden)
            self.target(item.asname, hidden)
        self._blocks((s.body,), hidden, fn_hidden)

    def _try(self, s: sx.Try, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        self._blocks((s.body,), hidden, fn_hidden)
        for h in s.handlers:
            self.expr(h.type, hidden)
            self._blocks((h.body,), hidden, fn_hidden)
        self._blocks((s.orelse, s.finalbody), hidden, fn_hidden)

    def _if(self, s: sx.If | sx.While, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        self.expr(s.test, hidden)
        self._blocks((s.body, s.orelse), hidden, fn_hidden)

    def _blocks(self, blocks: Iterable[sx.Body], hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        for block in blocks:
            for st in block:
                self.stmt(st, hidden, fn_hidden)

    def _function(self, s: sx.FunctionDef, hidden: frozenset[str], fn_hidden: frozenset[str]) -> None:
        for d in s.decorators:
            self.expr(d, hidden)
        for p in s.params:
            self.expr(p.annotation, hidden)
            self.expr(p.default, hidden)
        self.expr(s.returns, hidden)
        own = fn_hidden | {p.name for p in s.params} | _scope_bindings(s.body)
        for st in s.body:
            self.stmt(st, own, own)


# what the walker does at each kind of expression and statement (any other kind: its children)
_EXPRESSIONS: dict[type[sx.Node], Callable[[_LoadWalker, Any, frozenset[str]], None]] = {
    sx.Name: _LoadWalker._name,
    sx.Attribute: _LoadWalker._attribute,
    sx.Call: _LoadWalker._call,
    sx.Lambda: _LoadWalker._lambda,
    sx.Comprehension: _LoadWalker._comprehension,
    sx.Other: _LoadWalker._other,
}
_STATEMENTS: dict[type[sx.Stmt], Callable[[_LoadWalker, Any, frozenset[str], frozenset[str]], None]] = {
    sx.Assign: _LoadWalker._assign,
    sx.AnnAssign: _LoadWalker._assign,
    sx.AugAssign: _LoadWalker._aug_assign,
    sx.Delete: _LoadWalker._delete,
    sx.Names: _LoadWalker._loads_nothing,
    sx.Import: _LoadWalker._loads_nothing,
    sx.Simple: _LoadWalker._loads_nothing,
    sx.FunctionDef: _LoadWalker._function,
    sx.ClassDef: _LoadWalker._class,
    sx.For: _LoadWalker._for,
    sx.With: _LoadWalker._with,
    sx.Try: _LoadWalker._try,
    sx.If: _LoadWalker._if,
    sx.While: _LoadWalker._if,
}


def _scope_bindings(body: sx.Body) -> frozenset[str]:
    """Names a function or class body binds in its own scope (``global``/``nonlocal`` ones excepted)."""
    bound: set[str] = set()
    declared: set[str] = set()
    for st in _scope_statements(body):
        bound.update(bound_names(st))
        if isinstance(st, sx.Names):
            declared.update(st.names)
    return frozenset(bound - declared)


def _scope_statements(body: sx.Body) -> Iterator[sx.Stmt]:
    """The statements of one scope: blocks of compound statements included, nested scopes not."""
    for st in body:
        yield st
        if not isinstance(st, _SCOPES):
            yield from _scope_statements(tuple(_blocks_of(st)))


def _blocks_of(st: sx.Stmt) -> Iterator[sx.Stmt]:
    if isinstance(st, (sx.If, sx.For, sx.While)):
        yield from st.body
        yield from st.orelse
    elif isinstance(st, sx.With):
        yield from st.body
    elif isinstance(st, sx.Try):
        yield from st.body
        for h in st.handlers:
            yield from h.body
        yield from st.orelse
        yield from st.finalbody
    elif isinstance(st, sx.OtherStmt):
        yield from (c for c in st.items if isinstance(c, sx.Stmt))


def bound_names(stmt: sx.Stmt) -> list[str]:
    """Names a statement binds in the scope it runs in, without the statements of its blocks:
    assignment, loop, ``with`` and ``except`` targets, imports, ``def``/``class`` names and
    ``:=`` targets.  A bare annotation binds nothing; ``global x`` declares, it does not bind."""
    binds = _BINDS.get(type(stmt))
    out = binds(stmt) if binds is not None else []
    for expr in _header_exprs(stmt):
        out += _walrus_targets(expr)
    return list(dict.fromkeys(out))


def _import_binds(stmt: sx.Import) -> list[str]:
    return [a.asname or (a.name.split(".")[0] if stmt.module is None else a.name) for a in stmt.names]


# the names each kind of statement binds itself (its ``:=`` targets aside)
_BINDS: dict[type[sx.Stmt], Callable[[Any], list[str]]] = {
    sx.Assign: lambda s: [n for t in s.targets for n in target_names(t)],
    sx.AnnAssign: lambda s: target_names(s.target) if s.value is not None else [],
    sx.AugAssign: lambda s: target_names(s.target),
    sx.For: lambda s: target_names(s.target),
    sx.With: lambda s: [n for item in s.items if item.asname is not None for n in target_names(item.asname)],
    sx.Try: lambda s: [n for h in s.handlers if h.name is not None for n in target_names(h.name)],
    sx.FunctionDef: lambda s: [s.name],
    sx.ClassDef: lambda s: [s.name],
    sx.Import: _import_binds,
}


def _header_exprs(stmt: sx.Stmt) -> Iterator[sx.Node]:
    """The expressions a statement evaluates itself (not its blocks', not a nested scope's body)."""
    if isinstance(stmt, (sx.If, sx.While)):
        yield stmt.test
    elif isinstance(stmt, sx.For):
        yield stmt.iter
    elif isinstance(stmt, sx.With):
        yield from (item.expr for item in stmt.items)
    elif isinstance(stmt, sx.Try):
        yield from (h.type for h in stmt.handlers if h.type is not None)
    elif isinstance(stmt, sx.FunctionDef):
        yield from stmt.decorators
        yield from (p.default for p in stmt.params if p.default is not None)
    elif isinstance(stmt, sx.ClassDef):
        yield from stmt.decorators
        yield from (a.value for a in stmt.bases)
    elif not isinstance(stmt, sx.OtherStmt):
        yield from stmt.children()


def _walrus_targets(node: sx.Node) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (sx.Lambda, sx.Stmt)):
            continue
        if isinstance(n, sx.Other) and n.stores:
            for s in n.stores:
                out += target_names(s)
        stack.extend(reversed(n.children()))
    return out


def init_calls_within(node: sx.Node, self_name: str | None) -> list[tuple[sx.Call, InitCall]]:
    """Every call of an ``__init__`` on the instance anywhere under ``node``, nested functions included."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Call):
            found = init_call(n, self_name)
            if found is not None:
                out.append((n, found))
        stack.extend(reversed(n.children()))
    return out


def called_method_attr(call: sx.Call, self_name: str | None) -> str | None:
    """``x`` for ``self.x.m(...)`` where ``m`` is not a filling method: a call that may change
    the object ``self.x`` holds without putting anything into it."""
    func = call.func
    if isinstance(func, sx.Attribute) and func.attr not in FILL_METHODS:
        return self_attr(func.value, self_name)
    return None
