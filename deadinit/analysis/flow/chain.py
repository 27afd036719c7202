"""The ``__init__`` chain a class runs, flattened, with literal arguments folded.

``init_chain(index, S)`` walks ``S.__init__`` and, at each ``super().__init__``
call, splices in the parent's statements with the arguments S passed bound to
the parent's parameters.  Every statement gets a tri-state ``active``: True (runs
on every path), None (may run), or False (cannot run for S).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from deadinit.analysis.flow.conditions import Env, Facts, guard_state, length, value_of
from deadinit.analysis.flow.ensured import Ensured, Frame
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import AllocKind, ExprTag, InitStmtKind, ParamKind
from deadinit.model.summary import AllocInfo, InitStmt, MethodSummary
from deadinit.semantics.arguments import spread_fills
from deadinit.semantics.exprs import NOTNONE, UNKNOWN, Expr, certainly_not_none
from deadinit.semantics.init.flow import Guards

__all__ = ["NOTNONE", "UNKNOWN", "Chain", "ChainStmt", "Env", "init_chain"]


@dataclass
class ChainStmt:
    stmt: InitStmt
    owner: str  # class whose __init__ holds the statement
    path: str
    active: bool | None  # True definite, None maybe, False never
    env: Env = field(default_factory=dict, repr=False)
    guards_hold: bool | None = None  # the guards alone (loops and returns aside)
    open_guards: Guards = ()  # the guards nothing decides, when ``active`` is None because of them
    method: str = "__init__"  # the method of ``owner`` whose body holds it: ``__init__`` or a helper it calls

    @property
    def definite(self) -> bool:
        return self.active is True and not self.stmt.in_loop and not self.stmt.after_return


@dataclass
class Chain:
    cls: str
    stmts: list[ChainStmt]
    inits: list[str]  # owners whose __init__ ran, in call order
    notes: list[str] = field(default_factory=list)
    # owner -> (caller owner, its super_init statement, the bound env)
    calls: dict[str, tuple[str, InitStmt, Env]] = field(default_factory=dict)
    # (caller owner, InitStmt, target owner, why): constructing the class raises
    broken: tuple[str, InitStmt, str, str] | None = None
    reruns: list[str] = field(default_factory=list)  # owners whose __init__ a later call runs a second time


def bind_problem(method: MethodSummary, call: InitStmt) -> str | None:
    """Why the call's arguments cannot bind to ``method``'s parameters (the call raises TypeError), or None."""
    if call.star_args:
        return None
    positional = [p for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
    has_star = any(p.kind == ParamKind.STAR for p in method.params)
    has_dstar = any(p.kind == ParamKind.DSTAR for p in method.params)
    if len(call.args) > len(positional) and not has_star:
        return f"{len(call.args)} positional arguments given, it takes {len(positional)}"
    given = {p.name for p in positional[: len(call.args)]}
    by_name = {p.name: p for p in method.params if p.kind in (ParamKind.NORMAL, ParamKind.KWONLY)}
    for name, _ in call.kwargs:
        if name in given:
            return f"`{name}` given twice"
        if name not in by_name and not has_dstar:
            return f"no parameter `{name}`"
        given.add(name)
    missing = [
        p.name
        for p in method.params
        if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL, ParamKind.KWONLY)
        and p.default is None
        and p.name not in given
    ]
    if missing:
        return "required " + ", ".join(f"`{m}`" for m in missing) + " not given"
    return None


def _bind(method: MethodSummary, call: InitStmt, caller_env: Env, self_env: Env) -> Env:
    """``method``'s parameters bound to the call's arguments. With spreads (``*args, **kwargs, mode="skip"``)
    the explicit arguments still bind (positional ones before ``*args``, keywords); a parameter a spread may
    fill is unknown, and one no spread can fill takes its default as without spreads."""
    env: Env = {}
    params = [p for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
    for p, a in zip(params, call.args, strict=False):  # extra args go to *args below
        env[p.name] = value_of(a, caller_env, self_env)
    if len(call.args) > len(params):
        star = [p for p in method.params if p.kind == ParamKind.STAR]
        if star:
            env[star[0].name] = UNKNOWN
    named = {p.name for p in method.params if p.kind in (ParamKind.NORMAL, ParamKind.KWONLY)}
    for name, a in call.kwargs:
        if name in named or not call.star_args:
            env[name] = value_of(a, caller_env, self_env)
    spread = spread_fills(method.params, call)
    for p in method.params:
        if p.name not in env:
            if p.kind in (ParamKind.STAR, ParamKind.DSTAR) or p.name in spread:
                env[p.name] = UNKNOWN
            elif p.default is not None:
                env[p.name] = (
                    p.default
                    if p.default[0] == ExprTag.CONST or _literal_tuple(p.default)
                    else (NOTNONE if certainly_not_none(p.default) else UNKNOWN)
                )
            else:
                env[p.name] = UNKNOWN
    return env


def _literal_tuple(e: Expr) -> bool:
    """A tuple of literals (a default such as ``channels=(64, 128)``: its length decides ``range(len(...))``)."""
    return e[0] == ExprTag.TUPLE and all(x[0] == ExprTag.CONST for x in e[1])


def init_chain(index: ProjectIndex, qualname: str) -> Chain:
    mro = index.mro(qualname)
    chain = Chain(qualname, [], [])
    if not mro:
        chain.notes.append("inconsistent or cyclic class hierarchy")
        return chain
    first = index.resolve_method(mro, "__init__")
    if first is None:
        return chain
    owner, method = first
    env = {p.name: UNKNOWN for p in method.params}
    facts = Facts(class_values=index.class_values_of(qualname))
    ensured = Ensured(index, mro)
    w = _Walk(index, mro, chain, facts, ensured)
    _walk(w, _Body(owner, method, env, {}, True, Facts(), ensured.top(method), depth=0))
    ensured.apply()
    return chain


@dataclass
class _Walk:
    index: ProjectIndex
    order: list[str]  # the instance's MRO
    chain: Chain
    facts: Facts  # class values and what the chain assigned: shared by every frame
    ensured: Ensured  # what every constructed instance makes sure of (``if C: raise``)
    helpers: list[tuple[str, str]] = field(default_factory=list)  # (owner, name) of the helpers being walked


@dataclass(frozen=True)
class _Body:
    """One body the walk is in (an ``__init__`` or a helper it calls) and what its statements see."""

    owner: str  # the class whose method it is
    method: MethodSummary
    env: Env  # its parameters' values
    self_env: Env  # self's attributes' values, shared by the chain's bodies
    active: bool | None  # whether the call that runs it runs (``ChainStmt.active``)
    frame: Facts  # what its statements established about its names and objects
    keys: Frame  # what it makes sure of (``Ensured``)
    depth: int  # calls from the class's own ``__init__``

    def callee(
        self, method: MethodSummary, call: InitStmt, owner: str, env: Env, state: bool | None, keys: Frame
    ) -> _Body:
        """The body ``call`` (a statement of this one, ``state`` its ``active``) runs: ``owner``'s ``method``."""
        return _Body(owner, method, env, self.self_env, state, _passed(method, call, self.frame), keys, self.depth + 1)


def _walk(w: _Walk, body: _Body) -> None:
    chain, owner, method, active = w.chain, body.owner, body.method, body.active
    env, self_env, frame = body.env, body.self_env, body.frame
    if body.depth > 30 or method.init_flow is None:
        return
    if method.name == "__init__":  # a helper's body (``_helper``) is no run of an ``__init__``
        if owner in chain.inits:  # a second run, not walked: what it assigns is left undecided (liveness)
            chain.reruns.append(owner)
            return
        chain.inits.append(owner)
    path = w.index.path_of(owner)
    returned = False  # a return whose guards hold came before: nothing after it runs
    for st in _named(method.init_flow, env, self_env):
        if chain.broken is not None:
            return
        facts = _facts(frame, w.facts)
        held, open_ = guard_state(st.guards, env, self_env, facts)
        never = st.loop_iter is not None and length(st.loop_iter, env, self_env, facts) == 0  # ``for`` over nothing
        state = False if returned or never else held
        if st.alloc is not None and _builds_nothing(st.alloc, env, self_env, facts):
            st = replace(st, alloc=None)  # an empty container: on this chain, a plain value
        if state is not False and active is not True:
            state = False if active is False else None
        guards_hold = state
        returned = returned or (st.kind == InitStmtKind.RETURN and held is True and not st.in_loop)
        if state is not False and (st.in_loop or st.after_return) and state is True:
            state = None if st.kind != InitStmtKind.SUPER_INIT else True
        c = ChainStmt(st, owner, path, state, env, guards_hold, tuple(open_), method.name)
        chain.stmts.append(c)
        if state is False:
            continue
        w.ensured.step(c, body.keys, active)
        _remember(st, state, env, self_env, frame, w.facts)
        if st.kind == InitStmtKind.SUPER_INIT:
            _call(w, body, st, state)
        elif st.method is not None:
            _helper(w, body, st, state)


NAMES_LIMIT = 64  # a range of more values is not expanded into names


def _named(flow: list[InitStmt], env: Env, self_env: Env) -> Iterator[InitStmt]:
    """The statements, with ``self.add_module(f"layer{i}", m)`` over a range this chain decides
    (``range(depth)``, ``range(self.depth)``, ``range(len(self.channels))``: ``RangeNames``) in place
    as one assignment per name, as a literal range's are; an undecided range stays the call it is.
    Lazy: a bound is evaluated with the values the statements before it gave."""
    for st in flow:
        r = st.registers
        start, stop = (value_of(r.start, env, self_env), value_of(r.stop, env, self_env)) if r else (UNKNOWN, UNKNOWN)
        if r is None or not _ints(start, stop) or not 0 < stop[1] - start[1] <= NAMES_LIMIT:
            yield st
            continue
        reads = tuple(a for a in st.reads if a != st.method)
        for i in range(start[1], stop[1]):
            yield replace(
                st,
                kind=InitStmtKind.ASSIGN,
                attr=f"{r.prefix}{i}{r.suffix}",
                in_loop=r.in_loop,
                reads=reads,
                alloc=r.alloc,
                value=r.value,
                call=r.call,
                method=None,
                args=(),
                kwargs=(),
                spreads_args=False,
                spreads_kwargs=False,
                registers=None,
            )


def _ints(*values: Expr) -> bool:
    return all(v[0] == ExprTag.CONST and type(v[1]) is int for v in values)


def _facts(frame: Facts, shared: Facts) -> Facts:
    """What decides a statement's guards: its frame's names and objects, the chain's class and self values."""
    return Facts(frame.names, frame.dotted, shared.class_values, shared.assigned, shared.self_values)


def _builds_nothing(alloc: AllocInfo, env: Env, self_env: Env, facts: Facts) -> bool:
    """A container built over an empty range (``ModuleList([M() for _ in range(len(ids))])`` after ``ids``
    became ``[]``), a tensor with a dimension of 0 (``torch.zeros(len(ids))``): it holds no allocation."""
    if alloc.kind == AllocKind.TENSOR:
        return any(value_of(d, env, self_env, facts) == (ExprTag.CONST, 0) for d in alloc.shape)
    if alloc.kind != AllocKind.CONTAINER or alloc.count is None:
        return False
    return length((ExprTag.CALL, "range", (alloc.count,), ()), env, self_env, facts) == 0


def _remember(st: InitStmt, state: bool | None, env: Env, self_env: Env, frame: Facts, shared: Facts) -> None:
    """What a statement tells later ones: self values, asserted names, attributes set on objects."""
    if st.passes_self or st.dynamic or st.method is not None:
        shared.self_values.clear()  # other code may assign self's attributes
    if (
        st.kind in (InitStmtKind.ASSIGN, InitStmtKind.DELETE, InitStmtKind.FILL, InitStmtKind.KILL, InitStmtKind.NESTED)
        and st.attr
    ):
        shared.self_values.pop(st.attr.split(".", 1)[0], None)
    if st.kind in (InitStmtKind.ASSIGN, InitStmtKind.DELETE) and st.attr:
        shared.assigned.add(st.attr)
        if (
            st.kind == InitStmtKind.ASSIGN
            and st.value is not None
            and st.value[0] in (ExprTag.NAME, ExprTag.CONST, ExprTag.TUPLE)
            and state is True
        ):
            self_env[st.attr] = value_of(st.value, env, self_env)
        elif st.attr in self_env:
            self_env[st.attr] = UNKNOWN
        if (
            st.kind == InitStmtKind.ASSIGN
            and st.value is not None
            and state is True
            and self_env.get(st.attr, UNKNOWN) == UNKNOWN
        ):
            given = value_of(st.value, env, self_env, _facts(frame, shared))
            if given != UNKNOWN:  # like the facts it comes from, it only rules statements out
                shared.self_values[st.attr] = given
    elif st.kind == InitStmtKind.SET and st.attr and st.value is not None:
        v = st.value if st.value[0] == ExprTag.TUPLE else value_of(st.value, env, self_env)  # a tuple keeps its length
        frame.dotted[st.attr] = v if state is True and not st.in_loop else UNKNOWN
    elif st.kind == InitStmtKind.ASSERT and state is True and st.value is not None:
        test = st.value
        if test[0] == ExprTag.EQ and test[1][0] == ExprTag.NAME and test[2][0] == ExprTag.CONST:
            frame.names[test[1][1]] = test[2]
        elif test[0] == ExprTag.IS_NONE and test[1][0] == ExprTag.NAME:
            frame.names[test[1][1]] = (ExprTag.CONST, None)


def _call(w: _Walk, at: _Body, st: InitStmt, state: bool | None) -> None:
    """The ``__init__`` a ``super().__init__``-like statement ``st`` of body ``at`` runs, walked in place."""
    index, chain = w.index, w.chain
    nxt, why = index.init_called(w.order, at.owner, st.target or "super", st.start)
    if why is not None:
        chain.notes.append(why)
    if nxt is None:
        return
    callee, method = nxt
    problem = bind_problem(method, st)
    if problem is not None and state is not False:
        chain.broken = (at.owner, st, callee, problem)
        return
    penv = _bind(method, st, at.env, at.self_env)
    chain.calls[callee] = (at.owner, st, penv)
    _walk(w, at.callee(method, st, callee, penv, state, w.ensured.bind(method, st, at.keys)))


def _helper(w: _Walk, at: _Body, st: InitStmt, state: bool | None) -> None:
    """A helper the statement calls, walked where the call is, as ``super().__init__`` is: ``self.m(...)``
    resolved on the instance's MRO (an override runs), ``super().m(...)`` after ``owner``; the call's
    arguments bound to its parameters. Only helpers with a flattened body (``MethodSummary.init_flow``)."""
    index = w.index
    if st.kind == InitStmtKind.SUPER_CALL:
        found = index.resolve_super(w.order, at.owner, st.method or "", st.start)
    else:
        found = index.resolve_method(w.order, st.method or "")
    if found is None or found[1].init_flow is None or found[1].name == "__init__":
        return
    callee, method = found
    if (callee, method.name) in w.helpers:  # a helper that calls itself again: walked once
        return
    penv = _bind(method, st, at.env, at.self_env) if bind_problem(method, st) is None else {}
    penv = {p.name: penv.get(p.name, UNKNOWN) for p in method.params}
    w.helpers.append((callee, method.name))
    _walk(w, at.callee(method, st, callee, penv, state, w.ensured.bind(method, st, at.keys)))
    w.helpers.pop()


def _passed(method: MethodSummary, call: InitStmt, frame: Facts) -> Facts:
    """The facts the callee can use: what was established about the objects the caller passed (by its
    explicit arguments: a spread's are unknown)."""
    out = Facts()
    positional = [p for p in method.params if p.kind in (ParamKind.POSONLY, ParamKind.NORMAL)]
    pairs = [(p.name, a) for p, a in zip(positional, call.args, strict=False)] + list(call.kwargs)
    for param, arg in pairs:
        if arg[0] != ExprTag.NAME:
            continue
        if arg[1] in frame.names:
            out.names[param] = frame.names[arg[1]]
        prefix = arg[1] + "."
        for key, v in frame.dotted.items():
            if key.startswith(prefix):
                out.dotted[param + key[len(arg[1]) :]] = v
    return out
