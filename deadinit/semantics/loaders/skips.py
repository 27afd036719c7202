"""Whether a weight loader provably skips the weight names its model does not know.

A loader of the shape ::

    def load_weights(self, weights):
        params_dict = dict(self.named_parameters())
        for name, loaded_weight in weights:
            ...
            if name not in params_dict:
                continue
            param = params_dict[name]
            ...

skips a checkpoint name that names no parameter: after a registered module is no
longer built, its checkpoint entries reach the ``continue`` and nothing else changes.
The proof is path by path over the body of the one loop over the weights: until the
weight's name (or a name derived from it) is known to be a key of the parameter
table, nothing may fail because the name is unknown.  That rules out, on such a path:

* a lookup ``params_dict[k]`` whose key is not known to be in the table;
* the name (or anything built from it) passed to a call, used as an index, or
  subscripted, except string methods, comparisons, f-strings, logging calls and
  ``params_dict.get(name)`` (whose result may then only be compared with ``None``);
* ``raise``, ``assert``, ``return`` and a ``break`` of the loop over the weights
  (a ``break`` or ``return`` would stop loading the weights that follow).

A name becomes known by ``if name not in params_dict: continue`` (or any test whose
falsity implies it, ``a or name not in params_dict``), inside ``if name in
params_dict:`` (``params_dict.keys()`` too), and by ``if param is None: continue``
after ``param = params_dict.get(name)``.  Re-binding a name forgets what was known
about it.  The weights may be used only as the loop's iterable, the table must be
built once from ``dict(self.named_parameters(...))`` and never passed anywhere, and
anything the check has no rule for (a walrus, a nested ``def``) is no proof.
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import is_name
from deadinit.semantics.loaders.names import MAX_PASSES, Failed, NameFlow, State, merge
from deadinit.semantics.statements import bound_names


@dataclass
class _LoaderCheck(NameFlow):
    """The statements of the loop over the weights, path by path (``NameFlow`` reads the expressions)."""

    # -- statements -------------------------------------------------------------------
    def body(self, stmts: sx.Body, st: State | None, depth: int) -> State | None:
        """The state after ``stmts``; None when no path gets past them (``continue``)."""
        for s in stmts:
            if st is None:
                return None
            st = self.stmt(s, st, depth)
        if st is not None:
            self.seen |= st.tainted
        return st

    def stmt(self, s: sx.Stmt, st: State, depth: int) -> State | None:
        self.seen |= st.tainted
        step = _STEPS.get(type(s))
        if step is None:
            raise Failed  # a nested def or class, an import, a match...: no rule, no proof
        return step(self, s, st, depth)

    def _expression(self, s: sx.ExprStmt, st: State, depth: int) -> State:
        self.ok(s.value, st, carrier=True)
        return st

    def _with(self, s: sx.With, st: State, depth: int) -> State | None:
        for item in s.items:
            self.ok(item.expr, st, carrier=True)
            if item.asname is not None:
                st = self._bind(item.asname, self.carries(item.expr, st), st)
        return self.body(s.body, st, depth)

    def _simple(self, s: sx.Simple, st: State, depth: int) -> State | None:
        if s.what == sx.Jump.CONTINUE:
            return None
        if s.what == sx.Jump.BREAK:
            if depth == 0 and not st.proven:
                raise Failed
            return None
        return st

    def _leave(self, s: sx.Raise | sx.Assert | sx.Return, st: State, depth: int) -> State | None:
        """``raise``, ``return`` (the loader stops) and ``assert`` (it may): only once the name is known."""
        if not st.proven:
            raise Failed
        for c in s.children():
            self.ok(c, st, carrier=True)
        return None if not isinstance(s, sx.Assert) else st

    def _delete(self, s: sx.Delete, st: State, depth: int) -> State:
        for t in s.targets:
            if not isinstance(t, sx.Name) or t.id == self.table:
                raise Failed
            st = self._bind(t, False, st)
        return st

    def _assign(self, s: sx.Assign | sx.AnnAssign | sx.AugAssign, st: State, depth: int) -> State:
        value = s.value
        self.ok(value, st, carrier=True)
        carried = self.carries(value, st)
        targets: tuple[sx.Expr, ...] = s.targets if isinstance(s, sx.Assign) else (s.target,)
        if isinstance(s, sx.AugAssign):
            carried = carried or self.carries(s.target, st)
        for t in targets:
            st = self._bind(t, carried, st)
        return st

    def _bind(self, target: sx.Node, carried: bool, st: State) -> State:
        if isinstance(target, sx.Name):
            if target.id == self.table:
                raise Failed
            tainted = st.tainted | {target.id} if carried else st.tainted - {target.id}
            return State(tainted, st.known - {target.id})
        if isinstance(target, sx.Sequence | sx.Starred):
            for c in target.children():
                st = self._bind(c, carried, st)
            return st
        if isinstance(target, sx.Subscript):
            if is_name(target.value, self.table):
                raise Failed
            self.ok(target.value, st)
            for i in target.items:
                self.ok(i, st)
            return st
        if isinstance(target, sx.Attribute):
            self.ok(target.value, st)
            return st
        raise Failed

    def _if(self, s: sx.If, st: State, depth: int) -> State | None:
        self.ok(s.test, st, carrier=True)
        when_true = self.facts(s.test, True, st)
        when_false = self.facts(s.test, False, st)
        if when_true or when_false:
            self.guards.append(s.line)
        after_body = self.body(s.body, replace(st, known=st.known | when_true), depth)
        after_else = self.body(s.orelse, replace(st, known=st.known | when_false), depth)
        return merge(after_body, after_else)

    def _loop(self, s: sx.For | sx.While, st: State, depth: int) -> State:
        stored = _stored_names(s)
        entry = State(st.tainted, st.known - stored)
        if isinstance(s, sx.For):
            self.ok(s.iter, st, carrier=True)
            entry = self._bind(s.target, self.carries(s.iter, st), entry)
        else:
            self.ok(s.test, st, carrier=True)
        for _ in range(MAX_PASSES):
            self.body(s.body, entry, depth + 1)
            grown = entry.tainted | self.seen
            if grown == entry.tainted:
                break
            entry = State(grown, entry.known)
        else:
            raise Failed
        after_else = self.body(s.orelse, entry, depth)
        return merge(entry, after_else) or entry

    def _try(self, s: sx.Try, st: State, depth: int) -> State | None:
        stored = _stored_names(s)
        end = self.body(s.body, st, depth)
        end = self.body(s.orelse, end, depth)
        weak = State(st.tainted | self.seen, st.known - stored)
        for h in s.handlers:
            self.ok(h.type, weak)
            handled = self._bind(h.name, False, weak) if h.name is not None else weak
            end = merge(end, self.body(h.body, handled, depth))
        if s.finalbody:
            final = self.body(s.finalbody, weak, depth)
            return None if final is None else end
        return end


# what each kind of statement in the loop does to the state (any other kind: no proof)
_STEPS: dict[type[sx.Stmt], Callable[[_LoaderCheck, Any, State, int], State | None]] = {
    sx.Assign: _LoaderCheck._assign,
    sx.AnnAssign: _LoaderCheck._assign,
    sx.AugAssign: _LoaderCheck._assign,
    sx.ExprStmt: _LoaderCheck._expression,
    sx.If: _LoaderCheck._if,
    sx.For: _LoaderCheck._loop,
    sx.While: _LoaderCheck._loop,
    sx.With: _LoaderCheck._with,
    sx.Try: _LoaderCheck._try,
    sx.Simple: _LoaderCheck._simple,
    sx.Raise: _LoaderCheck._leave,
    sx.Assert: _LoaderCheck._leave,
    sx.Return: _LoaderCheck._leave,
    sx.Delete: _LoaderCheck._delete,
}


def _stored_names(node: sx.Node) -> frozenset[str]:
    """The names any statement inside ``node`` binds (``statements.bound_names``)."""
    out: set[str] = set()
    stack: list[sx.Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Stmt):
            out.update(bound_names(n))
        stack.extend(n.children())
    return frozenset(out)


def skips_unknown_weights(fn: sx.FunctionDef, self_name: str | None) -> int | None:
    """The line of the test that makes ``fn`` skip unknown weight names, when it provably does; else None."""
    if self_name is None:
        return None
    params = [p.name for p in fn.params if not p.star and p.name != self_name]
    loops = [s for s in fn.body if isinstance(s, sx.For) and isinstance(s.iter, sx.Name) and s.iter.id in params]
    if len(loops) != 1:
        return None
    loop = loops[0]
    assert isinstance(loop.iter, sx.Name)  # the loops kept iterate a parameter
    weights = loop.iter.id
    if _uses(fn, weights) != 1:
        return None
    table = _parameter_table(fn, self_name, loop)
    if table is None:
        return None
    target = loop.target
    if not (isinstance(target, sx.Sequence) and target.elts and isinstance(target.elts[0], sx.Name)):
        return None
    name = target.elts[0].id
    check = _LoaderCheck(table)
    tainted = frozenset({name})
    try:
        for _ in range(MAX_PASSES):
            entry = check._bind(target, False, State(tainted))
            check.body(loop.body, State(entry.tainted | {name}), 0)
            if check.seen <= tainted:
                break
            tainted = tainted | check.seen
        else:
            return None
    except Failed:
        return None
    if loop.orelse or not check.guards:
        return None
    return min(check.guards)


def _parameter_table(fn: sx.FunctionDef, self_name: str, loop: sx.For) -> str | None:
    """The local bound, before the loop and once in the whole function, to ``dict(self.named_parameters())``."""
    for s in fn.body:
        if s is loop:
            return None
        if not (isinstance(s, sx.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], sx.Name)):
            continue
        v = s.value
        if not (isinstance(v, sx.Call) and is_name(v.func, "dict") and len(v.args) == 1):
            continue
        inner = v.args[0].value
        if (
            isinstance(inner, sx.Call)
            and isinstance(inner.func, sx.Attribute)
            and inner.func.attr == "named_parameters"
            and is_name(inner.func.value, self_name)
        ):
            local = s.targets[0].id
            return local if local not in _stored_names(_without(fn, s)) else None
    return None


def _without(fn: sx.FunctionDef, skip: sx.Stmt) -> sx.Node:
    return sx.Module(tuple(s for s in fn.body if s is not skip))


def _uses(node: sx.Node, name: str) -> int:
    count = 0
    stack: list[sx.Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Name) and n.id == name:
            count += 1
        stack.extend(n.children())
    return count
