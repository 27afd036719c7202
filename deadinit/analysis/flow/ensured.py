"""What every constructed instance makes sure of, and the guards it decides.

An ``if C: raise`` (or ``assert``) that runs on every path of a class's ``__init__`` chain,
in an ``__init__`` or in a method of the instance one calls on every path, means C is
false on every instance that gets built.  A parent's allocation guarded by C (the same
value: ``self.x`` after ``self.x = arch.x``, ``arch.x`` after ``arch = self.config``, a
parameter bound to it) then never happens on one.

Conditions are compared by *keys*: each leaf (``self.a.b``, a parameter's ``p.b``) is
replaced by a name for the value it reads that is the same in every frame of the chain
(``arg:p.b`` for the constructed class's own parameter, ``self:a#3.b`` for the value the
chain last gave ``self.a``).  A write the chain makes to a value gives it a new name, so a
fact about the new value never decides a guard on the old one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import ExprTag, FillKind, InitStmtKind, ParamKind
from deadinit.model.summary import InitStmt, MethodSummary
from deadinit.semantics.exprs import UNKNOWN, Expr, ordered


class ChainStmt(Protocol):
    """A statement of the chain as ``deadinit.analysis.flow.chain`` records it (what this module reads and decides)."""

    stmt: InitStmt
    active: bool | None
    guards_hold: bool | None
    open_guards: tuple[Expr, ...]


Sym = dict[str, str]  # a frame's parameter -> the key of the value bound to it

_HELPER_DEPTH = 4  # methods called from methods called from the ``__init__``


@dataclass
class Frame:
    """One ``__init__`` of the chain: its self name and what its parameters hold."""

    self_name: str | None
    sym: Sym


@dataclass
class Ensured:
    """Collects, along the chain walk, the facts and the undecided guards; ``apply`` decides."""

    index: ProjectIndex
    mro: list[str]
    self_keys: dict[str, str] = field(default_factory=dict)
    truths: dict[Expr, bool] = field(default_factory=dict)
    pending: list[tuple[ChainStmt, list[Expr | None]]] = field(default_factory=list)
    fresh: int = 0

    def top(self, method: MethodSummary) -> Frame:
        return Frame(method.self_name, {p.name: f"arg:{p.name}" for p in method.params})

    def bind(self, method: MethodSummary, call: InitStmt, caller: Frame) -> Frame:
        """The frame of the ``__init__`` ``call`` runs, its parameters named by the caller's keys."""
        sym: Sym = {}
        roots = dict(call.roots)
        positional = [p for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
        pairs = [(p.name, a) for p, a in zip(positional, call.args, strict=False)] + list(call.kwargs)
        for name, arg in pairs:  # the explicit arguments (a spread's values are unknown)
            key = self._leaf(arg, caller, roots)
            if key is not None and key[0] == ExprTag.KEY:
                sym[name] = key[1]
        return Frame(method.self_name, sym)

    def step(self, c: ChainStmt, frame: Frame, runs: bool | None) -> None:
        """What statement ``c`` (already given its state; ``runs``: its ``__init__`` does) tells: a fact,
        an undecided guard, a new value."""
        st, roots = c.stmt, dict(c.stmt.roots)
        guards: list[Expr | None] = [self.key(g, frame, roots) for g in c.open_guards]
        if c.active is None and guards:
            self.pending.append((c, guards))
        reached = c.active is True or (
            runs is True and c.guards_hold is None and all(g is not None and self.value(g) is True for g in guards)
        )
        definite = reached and not st.in_loop and not st.after_return
        if definite and st.ensures is not None:
            self._add(self.key(st.ensures, frame, roots), True)
        if definite and st.kind == InitStmtKind.ASSERT and st.value is not None:
            self._add(self.key(st.value, frame, roots), True)
        if st.method is not None:
            ensures, written = self._helpers(st.method)
            if definite:
                for e, method in ensures:
                    self._add(self.key(e, Frame(method.self_name, {}), {}), True)
            for attr in written:
                self.self_keys[attr] = self._new(attr)
        self._written(st, frame, roots, definite)

    def apply(self) -> None:
        """Statements under a guard the facts make false cannot run on a constructed instance."""
        for c, keys in self.pending:
            if any(k is not None and self.value(k) is False for k in keys):
                c.active, c.guards_hold, c.open_guards = False, False, ()

    def key(self, e: Expr, frame: Frame, roots: dict[str, Expr]) -> Expr | None:
        """The condition with its leaves named by key; None when a leaf cannot be named."""
        k = e[0]
        if k == ExprTag.CONST:
            return e
        if k in (ExprTag.NAME, ExprTag.SELF, ExprTag.DOTTED):
            return self._leaf(e, frame, roots)
        if k in (ExprTag.NOT, ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):
            sub = self.key(e[1], frame, roots)
            return None if sub is None else (k, sub)
        if k in (ExprTag.AND, ExprTag.OR, ExprTag.EQ, ExprTag.NE, ExprTag.IN):
            a, b = self.key(e[1], frame, roots), self.key(e[2], frame, roots)
            return None if a is None or b is None else (k, a, b)
        if k == ExprTag.CMP:
            a, b = self.key(e[2], frame, roots), self.key(e[3], frame, roots)
            return None if a is None or b is None else (k, e[1], a, b)
        if k == ExprTag.TUPLE and all(x[0] == ExprTag.CONST for x in e[1]):
            return e
        return None

    def value(self, key: Expr) -> bool | None:
        """Tri-state truth of a keyed condition under the facts."""
        if key in self.truths:
            return self.truths[key]
        k = key[0]
        if k == ExprTag.NOT or k == ExprTag.IS_NOT_NONE:
            v = self.value(key[1] if k == ExprTag.NOT else (ExprTag.IS_NONE, key[1]))
            return None if v is None else not v
        if k == ExprTag.NE:
            v = self.value((ExprTag.EQ, key[1], key[2]))
            return None if v is None else not v
        if k in (ExprTag.EQ, ExprTag.IS_NONE, ExprTag.CMP, ExprTag.IN):
            return self._compared(key)
        if k in (ExprTag.AND, ExprTag.OR):
            a, b = self.value(key[1]), self.value(key[2])
            if k == ExprTag.AND:
                return False if False in (a, b) else (True if a is True and b is True else None)
            return True if True in (a, b) else (False if a is False and b is False else None)
        return None

    def _compared(self, key: Expr) -> bool | None:
        """``a == c`` / ``a is None`` / ``a < c`` / ``a in (c, d)`` against the literals the facts say ``a`` may
        hold (``assert a == 128`` makes ``a == 512`` and ``a >= 256`` false, ``assert a in (128, 256)`` makes
        ``a == 512`` false): decided when every one of them gives the same answer, as Python compares them."""
        if key[0] == ExprTag.CMP:
            op, left, right = key[1], key[2], key[3]
            if left[0] == ExprTag.CONST:
                op, left, right = _FLIPPED[op], right, left
        else:
            op, left, right = key[0], key[1], (key[2] if key[0] != ExprTag.IS_NONE else (ExprTag.CONST, None))
            if left[0] == ExprTag.CONST and op == ExprTag.EQ:
                left, right = right, left
        held = self._literals(left)
        if held is None or right[0] not in (ExprTag.CONST, ExprTag.TUPLE):
            return None
        answers = {_answer(op, v, right) for v in held}
        return answers.pop() if len(answers) == 1 else None

    def _literals(self, leaf: Expr) -> tuple[object, ...] | None:
        """The literals established facts say ``leaf`` may hold: one for ``leaf == c`` (or ``leaf is None``),
        those of ``c`` for ``leaf in c`` (a tuple of literals); None when no fact says."""
        if self.truths.get((ExprTag.IS_NONE, leaf)) is True:
            return (None,)
        for fact, truth in self.truths.items():
            if truth and fact[0] == ExprTag.EQ and leaf in fact[1:]:
                other: Expr = fact[2] if fact[1] == leaf else fact[1]
                if other[0] == ExprTag.CONST:
                    return (other[1],)
            if truth and fact[0] == ExprTag.IN and fact[1] == leaf and fact[2][0] == ExprTag.TUPLE:
                return tuple(x[1] for x in fact[2][1])
        return None

    def _add(self, key: Expr | None, truth: bool) -> None:
        if key is None:
            return
        k = key[0]
        if k == ExprTag.NOT:
            self._add(key[1], not truth)
        elif k == ExprTag.IS_NOT_NONE:
            self._add((ExprTag.IS_NONE, key[1]), not truth)
        elif k == ExprTag.NE:
            self._add((ExprTag.EQ, key[1], key[2]), not truth)
        elif (k == ExprTag.OR and not truth) or (k == ExprTag.AND and truth):
            self._add(key[1], truth)
            self._add(key[2], truth)
        else:
            self.truths.setdefault(key, truth)

    def _leaf(self, e: Expr, frame: Frame, roots: dict[str, Expr], depth: int = 0) -> Expr | None:
        if e[0] == ExprTag.CONST:
            return e
        if e[0] not in (ExprTag.NAME, ExprTag.SELF, ExprTag.DOTTED) or depth > 3:
            return None
        text = f"{frame.self_name}.{e[1]}" if e[0] == ExprTag.SELF else str(e[1])
        first, _, rest = text.partition(".")
        if first == frame.self_name and rest:
            attr, _, more = rest.partition(".")
            return (ExprTag.KEY, _join(self.self_keys.get(attr, f"self:{attr}"), more))
        if first in roots:
            held = roots[first]
            base = None if held == UNKNOWN else self._leaf(held, frame, {}, depth + 1)
            return None if base is None or base[0] != ExprTag.KEY else (ExprTag.KEY, _join(base[1], rest))
        if first in frame.sym:
            return (ExprTag.KEY, _join(frame.sym[first], rest))
        return None

    def _written(self, st: InitStmt, frame: Frame, roots: dict[str, Expr], definite: bool) -> None:
        """A new key for what the statement writes: ``self.a = v`` names ``a`` by ``v``'s key."""
        if st.attr is None:
            return
        if st.kind == InitStmtKind.ASSIGN:
            value = self._leaf(st.value, frame, roots) if st.value is not None and definite else None
            self.self_keys[st.attr] = value[1] if value is not None and value[0] == ExprTag.KEY else self._new(st.attr)
        elif st.kind in (InitStmtKind.DELETE, InitStmtKind.KILL, InitStmtKind.NESTED) or (
            st.kind == InitStmtKind.FILL and st.fill_kind == FillKind.AUG
        ):
            attr = st.attr.split(".", 1)[0]
            self.self_keys[attr] = self._new(attr)
        elif st.kind == InitStmtKind.SET:
            obj = st.attr.split(".", 1)[0]
            if obj in frame.sym:
                frame.sym[obj] = self._new(obj)

    def _helpers(self, name: str) -> tuple[list[tuple[Expr, MethodSummary]], set[str]]:
        """What the methods ``self.<name>()`` runs on every path make sure of, and what they write."""
        ensures: list[tuple[Expr, MethodSummary]] = []
        written: set[str] = set()
        seen: set[str] = set()
        todo = [(name, 0)]
        while todo:
            m, depth = todo.pop()
            found = self.index.resolve_method(self.mro, m)
            if m in seen or found is None or depth > _HELPER_DEPTH:
                continue
            seen.add(m)
            method = found[1]
            written |= {w[0] for w in method.writes}
            ensures += [(e, method) for e in method.ensures]
            todo += [(c, depth + 1) for c in method.calls]
        return [(e, m) for e, m in ensures if not _self_attrs(e, m.self_name) & written], written

    def _new(self, what: str) -> str:
        self.fresh += 1
        return f"{what}#{self.fresh}"


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}  # ``c < a`` is ``a > c``


def _answer(op: str, held: object, right: Expr) -> bool | None:
    """``held op right`` for a literal ``held``; None when it does not decide."""
    if op == ExprTag.IN:
        return any(x[1] == held for x in right[1]) if right[0] == ExprTag.TUPLE else None
    if right[0] != ExprTag.CONST:
        return None
    if op == ExprTag.IS_NONE:
        return held is None
    if op == ExprTag.EQ:
        return bool(held == right[1])
    return ordered(op, held, right[1])


def _join(base: str, rest: str) -> str:
    return f"{base}.{rest}" if rest else base


def _self_attrs(e: Expr, self_name: str | None) -> set[str]:
    return set(_leaf_attrs(e, self_name))


def _leaf_attrs(e: Expr, self_name: str | None) -> Iterator[str]:
    k = e[0]
    if k == ExprTag.SELF:
        yield str(e[1]).split(".", 1)[0]
    elif k == ExprTag.DOTTED:
        parts = str(e[1]).split(".")
        if parts[0] == self_name and len(parts) > 1:
            yield parts[1]
    elif k in (ExprTag.NOT, ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):
        yield from _leaf_attrs(e[1], self_name)
    elif k in (ExprTag.AND, ExprTag.OR, ExprTag.EQ, ExprTag.NE, ExprTag.IN):
        yield from _leaf_attrs(e[1], self_name)
        yield from _leaf_attrs(e[2], self_name)
    elif k == ExprTag.CMP:
        yield from _leaf_attrs(e[2], self_name)
        yield from _leaf_attrs(e[3], self_name)
