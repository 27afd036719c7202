"""The ``__init__`` chain a class runs, flattened, with literal arguments folded.

``init_chain(index, S)`` walks ``S.__init__`` and, at each ``super().__init__``
call, splices in the parent's statements with the arguments S passed bound to
the parent's parameters.  Every statement gets a tri-state ``active``: True (runs
on every path), None (may run), or False (cannot run for S).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import InitStmtKind, ParamKind
from deadinit.model.summary import Expr, InitStmt, MethodSummary
from deadinit.semantics.exprs import NOTNONE, certainly_not_none
from deadinit.semantics.exprs import UNKNOWN as UNKNOWN  # the fixes read it from here

Env = dict[str, Expr]  # a name (parameter or self attribute) -> what it holds


@dataclass
class ChainStmt:
    stmt: InitStmt
    owner: str  # class whose __init__ holds the statement
    path: str
    active: bool | None  # True definite, None maybe, False never
    env: Env = field(default_factory=dict, repr=False)
    guards_hold: bool | None = None  # the guards alone (loops and returns aside)

    @property
    def definite(self) -> bool:
        return self.active is True and not self.stmt.in_loop and not self.stmt.after_return


@dataclass
class Chain:
    cls: str
    stmts: list[ChainStmt]
    inits: list[str]  # owners whose __init__ ran, in call order
    notes: list[str] = field(default_factory=list)
    # owner -> (caller owner, the caller's super_init statement, the bound parameters)
    calls: dict[str, tuple[str, InitStmt, Env]] = field(default_factory=dict)


def evaluate(cond: Expr, env: Env, self_env: Env) -> bool | None:
    """Tri-state truth of a condition under parameter bindings."""
    k = cond[0]
    if k == "not":
        inner = evaluate(cond[1], env, self_env)
        return None if inner is None else not inner
    if k in ("and", "or"):
        a, b = evaluate(cond[1], env, self_env), evaluate(cond[2], env, self_env)
        if k == "and":
            if a is False or b is False:
                return False
            return True if a is True and b is True else None
        if a is True or b is True:
            return True
        return False if a is False and b is False else None
    if k in ("is_none", "is_not_none"):
        v = value_of(cond[1], env, self_env)
        if v[0] == "const":
            r = v[1] is None
        elif v == NOTNONE:
            r = False
        else:
            return None
        return r if k == "is_none" else not r
    if k in ("eq", "ne"):
        left, right = value_of(cond[1], env, self_env), value_of(cond[2], env, self_env)
        if left[0] == "const" and right[0] == "const":
            return bool(left[1] == right[1]) if k == "eq" else bool(left[1] != right[1])
        return None
    v = value_of(cond, env, self_env)
    return bool(v[1]) if v[0] == "const" else None


def value_of(e: Expr, env: Env, self_env: Env) -> Expr:
    if e[0] == "const" or e == NOTNONE:
        return e
    if e[0] == "name":
        return env.get(e[1], UNKNOWN)
    if e[0] == "self":
        return self_env.get(e[1], UNKNOWN)
    if certainly_not_none(e):
        return NOTNONE
    return UNKNOWN


def _bind(method: MethodSummary, call: InitStmt, caller_env: Env, self_env: Env) -> Env:
    env: Env = {}
    params = [p for p in method.params if p.kind == ParamKind.NORMAL]
    if call.star_args:
        return {p.name: UNKNOWN for p in method.params}
    for p, a in zip(params, call.args, strict=False):  # extra args go to *args below
        env[p.name] = value_of(a, caller_env, self_env)
    if len(call.args) > len(params):
        star = [p for p in method.params if p.kind == ParamKind.STAR]
        if star:
            env[star[0].name] = UNKNOWN
    for name, a in call.kwargs:
        env[name] = value_of(a, caller_env, self_env)
    for p in method.params:
        if p.name not in env:
            if p.kind in (ParamKind.STAR, ParamKind.DSTAR):
                env[p.name] = UNKNOWN
            elif p.default is not None:
                env[p.name] = (
                    p.default if p.default[0] == "const" else (NOTNONE if certainly_not_none(p.default) else UNKNOWN)
                )
            else:
                env[p.name] = UNKNOWN
    return env


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
    _walk(index, mro, owner, method, env, {}, True, chain, depth=0)
    return chain


def _walk(
    index: ProjectIndex,
    mro: list[str],
    owner: str,
    method: MethodSummary,
    env: Env,
    self_env: Env,
    active: bool | None,
    chain: Chain,
    depth: int,
) -> None:
    if depth > 30 or method.init_flow is None or owner in chain.inits:
        return
    chain.inits.append(owner)
    path = index.file_of(owner).path
    for st in method.init_flow:
        state = active
        for g in st.guards:
            v = evaluate(g, env, self_env)
            if v is False:
                state = False
                break
            if v is None and state is True:
                state = None
        guards_hold = state
        if state is not False and (st.in_loop or st.after_return) and state is True:
            state = None if st.kind != InitStmtKind.SUPER_INIT else True
        cs = ChainStmt(st, owner, path, state, env, guards_hold)
        chain.stmts.append(cs)
        if state is False:
            continue
        if st.kind == InitStmtKind.ASSIGN and st.attr is not None:
            if st.value is not None and st.value[0] in ("name", "const") and state is True:
                self_env[st.attr] = value_of(st.value, env, self_env)
            elif st.attr in self_env and state is not True:
                self_env[st.attr] = UNKNOWN
        if st.kind == InitStmtKind.SUPER_INIT and st.target is not None:
            if st.target == "super":
                nxt = index.resolve_method(mro, "__init__", after=owner)
            else:
                qn = index.resolve(index.class_module[owner], st.target)
                nxt = (
                    index.resolve_method(mro, "__init__", after=mro[mro.index(qn) - 1])
                    if qn in mro and mro.index(qn) > 0
                    else None
                )
                if qn is not None and qn not in mro:
                    chain.notes.append(f"{owner} calls {st.target}.__init__, which is not in its MRO")
            if nxt is None:
                continue
            pow_, pm = nxt
            penv = _bind(pm, st, env, self_env)
            chain.calls[pow_] = (owner, st, penv)
            _walk(index, mro, pow_, pm, penv, self_env, state, chain, depth + 1)
