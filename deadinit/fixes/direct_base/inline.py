"""Inline the sliced ``__init__`` of the dropped ancestors where the subclass called it.

``Inliner.inline(owner, args)`` returns the statements that replace the call of
``owner.__init__``: parameters are replaced by the arguments the caller passed
(defaults applied; an argument that is not a name or literal is bound to a local
once), locals that clash with the caller's names are renamed, literal branches
are folded as the engine decides them, and a nested call of another dropped
``__init__`` is inlined in turn.  Globals the kept code uses are collected for
the import fixer; problems are collected as blockers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import Assignment, Scope

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.flow.conditions import Env, evaluate, value_of
from deadinit.fixes.direct_base.class_plan import ClassPlan
from deadinit.fixes.direct_base.keep import InlineResult, KeepDecider
from deadinit.fixes.direct_base.live import StayReads
from deadinit.fixes.direct_base.names import name_loads
from deadinit.fixes.direct_base.rebuild import Replacements, UnitRebuilder
from deadinit.fixes.direct_base.slice import SliceInput, SliceKind, SliceRole, SliceUnit, build, walk
from deadinit.fixes.direct_base.source import MODULE_LEVEL, ModuleSource
from deadinit.fixes.init_units import InitBody
from deadinit.model.kinds import ExprTag, InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import UNKNOWN, dotted, is_name, to_expr

Arguments = dict[str, cst.BaseExpression]  # parameter name -> the argument that replaces it


class Inliner:
    """``clash``: names the caller already uses; ``retained``: dotted names code that stays
    mentions; ``extra_attrs``: attributes set before the inlined code runs; ``stay``: what
    code that survives the rewrite reads."""

    def __init__(
        self,
        plan: ClassPlan,
        an: ClassAnalysis,
        clash: set[str],
        retained: set[str],
        extra_attrs: set[str],
        stay: StayReads | None,
    ) -> None:
        self.p = plan
        self.an = an
        self.clash = set(clash)
        self.out = InlineResult()
        self.keep = KeepDecider(plan, stay, self.out, retained, set(extra_attrs))
        self.rebuilder = UnitRebuilder(self._inline_call)
        self._snap = self._self_env_snapshots()

    # -- folding ---------------------------------------------------------------
    def _self_env_snapshots(self) -> dict[tuple[str, int, int], Env]:
        snap: dict[tuple[str, int, int], Env] = {}
        env: Env = {}
        for c in self.an.chain.stmts:
            snap[(c.owner, c.stmt.line, c.stmt.col)] = dict(env)
            st = c.stmt
            if c.active is False:
                continue
            if (
                st.kind == InitStmtKind.ASSIGN
                and st.attr is not None
                and st.value is not None
                and st.value[0] in (ExprTag.NAME, ExprTag.CONST)
                and c.active is True
            ):
                env[st.attr] = value_of(st.value, c.env, env)
            elif st.kind == InitStmtKind.ASSIGN and st.attr is not None and st.attr in env and c.active is not True:
                env[st.attr] = UNKNOWN
        return snap

    def _folder(self, owner: str, self_name: str, penv: Env) -> Callable[[sx.Expr], bool | None]:
        index = self.p.index
        module = index.class_module[owner]
        old_mro = set(self.p.mro)

        def cls_of(node: sx.Node) -> str | None:
            d = dotted(node)
            return index.resolve(module, d) if d else None

        def is_self_type(node: sx.Node) -> bool:
            if isinstance(node, sx.Attribute) and node.attr == "__class__":
                return is_name(node.value, self_name)
            return (
                isinstance(node, sx.Call)
                and dotted(node.func) == "type"
                and len(node.args) == 1
                and is_name(node.args[0].value, self_name)
            )

        def fold(test: sx.Expr) -> bool | None:
            if isinstance(test, sx.UnaryOp) and test.op == "not":
                v = fold(test.operand)
                return None if v is None else not v
            if isinstance(test, sx.BoolOp):
                a, b = fold(test.left), fold(test.right)
                if test.op == "and":
                    return False if False in (a, b) else (True if a is True and b is True else None)
                return True if True in (a, b) else (False if a is False and b is False else None)
            if isinstance(test, sx.Compare) and len(test.ops) == 1 and is_self_type(test.left):
                target = cls_of(test.comparators[0])
                if target is not None and target != self.p.cls and test.ops[0] in ("is", "==", "is not", "!="):
                    return test.ops[0] in ("is not", "!=")
            if (
                isinstance(test, sx.Call)
                and dotted(test.func) == "isinstance"
                and len(test.args) == 2
                and is_name(test.args[0].value, self_name)
            ):
                target = cls_of(test.args[1].value)
                if target is not None and target in old_mro:
                    return True
            self_env = self._snap.get((owner, test.line, test.col))
            if self_env is None:
                keys = [k for k in self._snap if k[0] == owner and k[1] <= test.line]
                self_env = self._snap[max(keys, key=lambda k: (k[1], k[2]))] if keys else {}
            return evaluate(to_expr(test, self_name), penv, self_env)

        return fold

    # -- one ancestor ----------------------------------------------------------
    def inline(self, owner: str, args: Arguments) -> list[cst.BaseStatement]:
        """The statements that replace the call of ``owner.__init__`` with ``args`` ([]: blocked)."""
        found = self._init_of(owner)
        if found is None:
            return []
        src, fn = found
        params = fn.params
        plist = list(params.posonly_params) + list(params.params)
        own = src.init_body(fn)
        named = plist[1:] + list(params.kwonly_params)
        units = self._slice(owner, src, own, named)
        local_defs: set[str] = set()
        for u in walk(units):
            local_defs |= u.defs
        body = fn.body.body
        rn = _Respelling(src, src.scopes.get(body[0]) if body else None, own.self_name, local_defs)
        kept_ids = {id(n) for node in _kept_nodes(units) for n in name_loads(node)}
        for q in [plist[0], *named]:
            refs, stores = self._refs(rn.scope, q.name.value)
            if not any(id(r) in kept_ids for r in refs):
                continue
            if q is plist[0]:
                if rn.self_name != self.p.self_name:
                    for r in refs:
                        rn.replace[id(r)] = cst.Name(self.p.self_name)
            else:
                self._bind_param(rn, owner, q, args.get(q.name.value), refs, stores)
        self._rename_clashes(rn, local_defs - {q.name.value for q in named})
        self.clash |= local_defs
        self._collect_globals(src, list(_kept_nodes(units)))
        stmts = self.rebuilder.rebuild(units, owner, rn.replace)
        stmts = [_respelled_statement(s, rn.replace) for s in [*rn.prologue, *stmts]]
        for u in walk(units):
            if u.keep:
                self.out.attrs |= u.self_writes
                self.out.self_reads |= u.self_reads
        return stmts

    def _init_of(self, owner: str) -> tuple[ModuleSource, cst.FunctionDef] | None:
        """``owner``'s source and ``__init__`` (None: blocked, not found or its arguments cannot be mapped)."""
        p = self.p
        src = p.sources.of_class(owner)
        cnode = src.class_node(owner)
        fns = src.methods(cnode, "__init__") if cnode is not None else []
        if not fns:
            p.block(f"cannot find {short_name(owner)}.__init__ in {src.path}")
            return None
        params = fns[0].params
        if (
            params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) and isinstance(params.star_arg, cst.Param)
        ) or params.star_kwarg is not None:
            p.block(f"{short_name(owner)}.__init__ takes *args/**kwargs: arguments cannot be mapped")
            return None
        return src, fns[0]

    def _slice(self, owner: str, src: ModuleSource, own: InitBody, named: list[cst.Param]) -> list[SliceUnit]:
        """``owner.__init__`` cut into units, each marked kept or not (``KeepDecider``)."""
        p = self.p
        self_name = own.self_name
        events = [c for c in self.an.chain.stmts if c.owner == owner]
        effective = [
            c
            for i, c in enumerate(x for x in self.an.chain.stmts if x.active is not False)
            if i in self.an.effective and c.owner == owner
        ]
        penv = events[0].env if events else {}
        method_names = p.method_names()
        si = SliceInput(
            self_name=self_name,
            eff={(c.stmt.line, c.stmt.col) for c in effective},
            fold=self._folder(owner, self_name, penv),
            methods=method_names,
            method_reads=p.method_reads,
            inline_target=lambda target: p.init_target(owner, target) in p.dropped,
        )
        units = build(own.units, si)
        self.keep.decide(units, si, {q.name.value for q in named}, owner, src.path)
        for u in walk(units):
            if u.kind == SliceKind.SMALL and u.role == SliceRole.ATTR and not u.keep:
                self.out.dropped_attrs |= u.self_writes
        return units

    def _bind_param(
        self,
        rn: _Respelling,
        owner: str,
        q: cst.Param,
        arg: cst.BaseExpression | None,
        refs: list[cst.Name],
        stores: list[cst.Name],
    ) -> None:
        """Replace parameter ``q`` by its argument (its default when none is passed), or bind the
        argument to a fresh local in the prologue when it is not a plain name or literal."""
        name = q.name.value
        if arg is None:
            if q.default is None:
                self.p.block(f"{short_name(owner)}.__init__ parameter `{name}` gets no argument")
                return
            arg = q.default
            self._collect_globals(rn.src, [arg])
        if not stores and _simple(arg) and not (isinstance(arg, cst.Name) and arg.value in rn.local_defs):
            if not (isinstance(arg, cst.Name) and arg.value == name):
                for r in refs:
                    rn.replace[id(r)] = arg
            return
        new = self._fresh(name)
        rn.prologue.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(new))], arg)]))
        for r in list(refs) + list(stores):
            rn.replace[id(r)] = cst.Name(new)

    def _rename_clashes(self, rn: _Respelling, names: set[str]) -> None:
        """Rename the locals among ``names`` that the caller already uses."""
        for name in sorted(names):
            if name in self.clash:
                refs, stores = self._refs(rn.scope, name)
                new = self._fresh(name)
                for r in list(refs) + list(stores):
                    rn.replace[id(r)] = cst.Name(new)

    def _fresh(self, name: str) -> str:
        new = name if name not in self.clash else f"{name}_"
        i = 2
        while new in self.clash:
            new = f"{name}_{i}"
            i += 1
        self.clash.add(new)
        return new

    @staticmethod
    def _refs(scope: Scope | None, name: str) -> tuple[list[cst.Name], list[cst.Name]]:
        """(loads, plain-name stores) of the function-scope binding ``name``."""
        refs: list[cst.Name] = []
        stores: list[cst.Name] = []
        if scope is None:
            return refs, stores
        for a in scope[name]:
            if a.scope is not scope:
                continue
            if isinstance(a, Assignment) and isinstance(a.node, cst.Name):
                stores.append(a.node)
            refs.extend(r.node for r in a.references if isinstance(r.node, cst.Name))
        return refs, stores

    def _collect_globals(self, src: ModuleSource, nodes: Sequence[cst.CSTNode]) -> None:
        for node in nodes:
            for n in name_loads(node):
                if src.resolution(n) in MODULE_LEVEL:
                    self.out.globals_used.append((src, n.value))

    def _inline_call(self, owner: str, call: cst.Call, target: str, replace: Replacements) -> list[cst.BaseStatement]:
        nxt = self.p.init_target(owner, target)
        assert nxt is not None  # the slice inlines a call only where the next __init__ is a dropped class's
        args_nodes = list(call.args) if target == "super" else list(call.args)[1:]
        src = self.p.sources.of_class(nxt)
        cnode = src.class_node(nxt)
        assert cnode is not None  # a class of the project, in its module
        fn = src.methods(cnode, "__init__")[0]
        plist = list(fn.params.posonly_params) + list(fn.params.params)
        names = [q.name.value for q in plist[1:]]
        args: Arguments = {}
        for i, a in enumerate(args_nodes):
            if a.star:
                self.p.block(f"{short_name(owner)}.__init__ forwards *args/**kwargs to {short_name(nxt)}.__init__")
                return []
            v = _respelled_expression(a.value, replace)
            if a.keyword is not None:
                args[a.keyword.value] = v
            elif i < len(names):
                args[names[i]] = v
        return self.inline(nxt, args)


@dataclass
class _Respelling:
    """How the inlined body is respelled: ``replace`` maps id(Name) -> the node put in its place;
    ``prologue``: the assignments binding arguments to fresh locals; ``scope``: the ``__init__``'s
    function scope (None: an empty body)."""

    src: ModuleSource
    scope: Scope | None
    self_name: str
    local_defs: set[str]
    replace: Replacements = field(default_factory=dict)
    prologue: list[cst.BaseStatement] = field(default_factory=list)


class _ReplaceNames(cst.CSTTransformer):
    def __init__(self, replace: Replacements) -> None:
        self.replace = replace

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        r = self.replace.get(id(original_node))
        return r if r is not None else updated_node


def _respelled_statement(node: cst.BaseStatement, replace: Replacements) -> cst.BaseStatement:
    """``node`` with the names ``replace`` maps replaced (a statement again: only names change)."""
    out = node.visit(_ReplaceNames(replace))
    assert isinstance(out, cst.BaseStatement)
    return out


def _respelled_expression(node: cst.BaseExpression, replace: Replacements) -> cst.BaseExpression:
    """``node`` with the names ``replace`` maps replaced (an expression again: only names change)."""
    out = node.visit(_ReplaceNames(replace))
    assert isinstance(out, cst.BaseExpression)
    return out


def _simple(node: cst.CSTNode) -> bool:
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    return isinstance(node, cst.Name)


def _kept_nodes(units: list[SliceUnit]) -> Iterator[cst.CSTNode]:
    """CST pieces of kept code, without the parts of compounds that were dropped."""
    for u in units:
        if not u.keep:
            continue
        if u.kind in (SliceKind.SMALL, SliceKind.DEF, SliceKind.OPAQUE):
            if not (u.role == SliceRole.SUPER and u.inline is not None):
                yield u.node
            else:
                yield from (a.value for a in u.inline.args)
            continue
        n = u.node
        for attr in ("test", "iter", "target"):
            if getattr(n, attr, None) is not None:
                yield getattr(n, attr)
        if u.kind == SliceKind.WITH:
            assert isinstance(n, cst.With)
            yield from (i.item for i in n.items)
        if u.kind == SliceKind.TRY:
            assert isinstance(n, (cst.Try, cst.TryStar))
            handlers: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = n.handlers
            yield from (h.type for h in handlers if h.type is not None)
        for b in u.blocks:
            yield from _kept_nodes(b)
