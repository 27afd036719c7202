"""The ``__init__`` statements that write (``deadinit.semantics.init.flow``): assignments
to ``self`` attributes, locals, subscripts and other objects, fills, ``del``,
``setattr``/``delattr``, and the call of a parent's ``__init__``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from deadinit.model.kinds import ExprTag, FillKind, InitStmtKind
from deadinit.model.summary import AllocInfo
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import call_arguments_of
from deadinit.semantics.dynamic import KeyedRead, access_of
from deadinit.semantics.effects import (
    FieldWrite,
    copied_fields,
    field_write,
    filled_attr,
    init_call,
    literal_attr_of_self,
    self_targets,
    super_method_call,
    target_names,
)
from deadinit.semantics.exprs import EMPTY, UNKNOWN, Expr, dotted, is_name, self_attr, to_expr
from deadinit.semantics.init.rebound import ANYTHING
from deadinit.semantics.init.unpacking import nested_path, unpacked
from deadinit.semantics.init.walk import Guards, InitWalk, Local
from deadinit.semantics.raises import self_call


@dataclass(frozen=True)
class _Value:
    """The right side of an assignment, judged once for all its targets."""

    node: sx.Expr
    reads: set[str]  # the ``self`` attributes it reads, through locals too
    passes_self: bool  # it hands ``self`` to a call
    escapes: dict[str, Any]  # the ``passes_self`` / ``constructs`` fields of what it emits
    alloc: AllocInfo | None
    call: AllocInfo | None  # the call whose result it is, for the analysis to follow
    expr: Expr
    aug: bool  # ``x += ...``


class InitWrites(InitWalk):
    """The flattener's statements that write; ``InitFlattener`` adds the control flow."""

    def _assign(self, st: sx.Assign | sx.AnnAssign | sx.AugAssign, guards: Guards, in_loop: bool) -> str | None:
        value = st.value
        if value is None:  # a bare annotation
            return None
        targets = st.targets if isinstance(st, sx.Assign) else (st.target,)
        r = self._reads(value)
        reads = self._all_reads(r)
        alloc = self._classify(value)
        call = None if alloc is not None else self._followed(value)
        vexpr = to_expr(value, self.self_name)
        if _empty_literal(value):
            vexpr = EMPTY
        escapes = {"passes_self": bool(r.passes_self), "constructs": tuple(r.passes_self)}
        v = _Value(value, reads, bool(r.passes_self), escapes, alloc, call, vexpr, isinstance(st, sx.AugAssign))
        for t in targets:
            self._assign_target(st, t, v, guards, in_loop)
        return None

    def _assign_target(self, st: sx.Stmt, t: sx.Expr, v: _Value, guards: Guards, in_loop: bool) -> None:
        attr = self_attr(t, self.self_name) or self._named_target(t)
        if attr is not None:
            self._assign_attr(st, attr, v, guards, in_loop)
        elif isinstance(t, sx.Subscript) and self._assign_item(st, t, v, guards, in_loop):
            pass
        elif isinstance(t, sx.Name):
            holds = self._holds(v.node, t.id, bool(guards or in_loop)) if not v.aug else ANYTHING
            self._bind(t.id, v.reads, v.alloc, v.expr, guards, in_loop, v.aug)
            self.locals[t.id].declared = holds.one()
            self._alias(t.id, v.node, bool(guards or in_loop or v.aug))
            self.locals[t.id].call = None if v.aug else v.call
            if v.passes_self:
                self._emit(InitStmtKind.EFFECT, st, guards, in_loop, reads=tuple(sorted(v.reads)), **v.escapes)
            for fw in () if v.aug else copied_fields(v.node, t.id, self.cls.canon):
                self._set_field(st, fw, guards, in_loop)
        elif isinstance(t, sx.Attribute) and isinstance(t.value, sx.Name) and not v.aug:
            # ``config.x = None`` on a parameter or local: what a parent's guard may read
            attr = f"{t.value.id}.{t.attr}"
            self._emit(
                InitStmtKind.SET,
                st,
                guards,
                in_loop,
                attr=attr,
                reads=tuple(sorted(v.reads)),
                value=v.expr,
                **v.escapes,
            )
        elif not self._assign_nested(st, t, v, guards, in_loop):
            self._assign_other(st, t, v, guards, in_loop)

    def _set_field(self, st: sx.Stmt, fw: FieldWrite, guards: Guards, in_loop: bool) -> None:
        """``setattr(config, "x", None)``, a field a copy replaces: what a parent's guard may read, as
        ``config.x = None`` is."""
        r = self._reads(fw.value)
        value = EMPTY if _empty_literal(fw.value) else to_expr(fw.value, self.self_name)
        attr = f"{fw.obj}.{fw.field}"
        reads = tuple(sorted(self._all_reads(r)))
        escapes = {"passes_self": bool(r.passes_self), "constructs": tuple(r.passes_self)}
        self._emit(InitStmtKind.SET, st, guards, in_loop, attr=attr, reads=reads, value=value, **escapes)

    def _assign_attr(self, st: sx.Stmt, attr: str, v: _Value, guards: Guards, in_loop: bool) -> None:
        """``self.x = ...`` (or ``self.__dict__["x"] = ...``); ``self.x += ...`` fills ``x``."""
        if v.aug:
            self._emit(
                InitStmtKind.FILL,
                st,
                guards,
                in_loop,
                attr=attr,
                reads=tuple(sorted(v.reads | {attr})),
                fill_kind=FillKind.AUG,
            )
            return
        self._emit(
            InitStmtKind.ASSIGN,
            st,
            guards,
            in_loop,
            attr=attr,
            reads=tuple(sorted(v.reads)),
            alloc=v.alloc,
            value=v.expr,
            call=v.call,
            **v.escapes,
        )

    def _assign_item(self, st: sx.Stmt, t: sx.Subscript, v: _Value, guards: Guards, in_loop: bool) -> bool:
        """``self.x[i] = ...`` fills ``x``; False for the subscript of anything else."""
        base = self_attr(t.value, self.self_name)
        if base is None:
            return False
        index_reads = set(self._reads(t.items[0]).attrs) if t.items else set()
        self._emit(
            InitStmtKind.FILL,
            st,
            guards,
            in_loop,
            attr=base,
            reads=tuple(sorted(v.reads | index_reads)),
            alloc=v.alloc,
            fill_kind=FillKind.SETITEM,
            **v.escapes,
        )
        return True

    def _assign_nested(self, st: sx.Stmt, t: sx.Expr, v: _Value, guards: Guards, in_loop: bool) -> bool:
        """``self.block.proj = ...`` replaces a part of an object self holds (the load of ``block`` reads it)."""
        part = nested_path(t, self.self_name)
        if part is None or v.aug or part[0] in v.reads:
            return False
        reads = tuple(sorted(v.reads | {part[0]}))
        # a value that builds nothing (``self.x.flag = True``) only configures what self.x holds
        configures = (part[0],) if v.alloc is None and v.call is None else ()
        self._emit(
            InitStmtKind.NESTED,
            st,
            guards,
            in_loop,
            attr=".".join(part),
            reads=reads,
            configures=configures,
            **v.escapes,
        )
        return True

    def _assign_other(self, st: sx.Stmt, t: sx.Expr, v: _Value, guards: Guards, in_loop: bool) -> None:
        """Tuple targets, attributes of other objects, subscripts of locals..."""
        tr = self._reads(t)
        for n in target_names(t):
            self.locals[n] = Local(reads=set(v.reads))
            self._alias(n, v.node, v.aug)
        assigned = self_targets(t, self.self_name)
        parts = unpacked(t, v.node, self._classify, self._followed) if isinstance(t, sx.Sequence) and not v.aug else []
        for el, el_alloc, el_call in parts:
            if isinstance(el, sx.Name):
                self.locals[el.id].alloc, self.locals[el.id].call = el_alloc, el_call
        made = {self_attr(el, self.self_name): (a, c) for el, a, c in parts}
        for a in assigned:
            el_alloc, el_call = made.get(a, (None, None))
            self._emit(
                InitStmtKind.ASSIGN,
                st,
                guards,
                in_loop,
                attr=a,
                reads=tuple(sorted(v.reads)),
                value=UNKNOWN,
                alloc=el_alloc,
                call=el_call,
            )
        if not assigned and (v.reads or tr.attrs or v.passes_self):
            self._emit(
                InitStmtKind.EFFECT, st, guards, in_loop, reads=tuple(sorted(v.reads | set(tr.attrs))), **v.escapes
            )

    def _named_target(self, t: sx.Expr) -> str | None:
        """``x`` for ``self.__dict__["x"] = ...`` / ``self._modules["x"] = ...``."""
        got = access_of(t, self.self_name) if isinstance(t, sx.Subscript) else None
        return got.event.attr if got is not None and isinstance(got.event, KeyedRead) else None

    def _bind(
        self, name: str, reads: set[str], alloc: AllocInfo | None, vexpr: Expr, guards: Guards, in_loop: bool, aug: bool
    ) -> None:
        old = self.locals.get(name)
        self.range_loops.pop(name, None)  # rebound in the body: no longer one of the range's values
        loc = Local(reads=set(reads), alloc=alloc, value=vexpr)
        if vexpr[0] in (ExprTag.NAME, ExprTag.DOTTED) and not (guards or in_loop or aug):
            loc.alias = vexpr[1]
        if not (guards or in_loop or aug):
            loc.root = self._root(vexpr)
        if name in self.globals and alloc is not None:
            loc.alloc = AllocInfo("global-singleton", callee=alloc.callee, element=alloc)
        if old is not None and (guards or in_loop) and name in self.globals:
            loc.reads |= old.reads  # ``if g is None: g = alloc`` keeps the allocation visible after the if
        if aug and old is not None:
            loc.reads |= old.reads
        self.locals[name] = loc

    def _delete(self, st: sx.Delete, guards: Guards, in_loop: bool) -> str | None:
        """``del self.x`` removes ``x`` (it reads nothing); other targets are read as before."""
        rest = []
        for t in st.targets:
            attrs = self_targets(t, self.self_name)
            for a in attrs:
                self._emit(InitStmtKind.DELETE, t, guards, in_loop, attr=a)
            if not attrs:
                rest.append(t)
        for t in rest:
            r = self._reads(t)
            if r.attrs or r.names & set(self.locals):
                self._effect(st, r, guards, in_loop)
        return None

    def _named_write(self, st: sx.Stmt, call: sx.Call, guards: Guards, in_loop: bool) -> bool:
        """``setattr(self, "x", v)`` and ``self.register_buffer("x", v)`` (``register_parameter``,
        ``register_module``) assign ``x``; ``delattr(self, "x")`` removes it.  ``add_module(f"n{i}", m)``
        in ``for i in range(2)`` assigns ``n0`` and ``n1``, each on every run of the loop's own context."""
        registered = self.cls.registration(call, self.self_name, self._local_alloc, self._self_literal, self._range_of)
        literal = literal_attr_of_self(call, self.self_name, ("setattr", "delattr"))
        names: tuple[str, ...] = (literal,) if literal is not None else ()
        if registered is not None:
            names, alloc, value = registered.names, registered.alloc, registered.value
            if not names:  # ``f"layer{i}"`` in ``range(depth)``: the chain decides (``_call_stmt``)
                return False
            if registered.loop_var is not None:
                in_loop = in_loop and self.range_loops[registered.loop_var].in_loop
        elif literal is None:
            return self._deletes_named(st, call, guards)
        elif dotted(call.func) == "delattr":
            self._emit(InitStmtKind.DELETE, st, guards, in_loop, attr=literal)
            return True
        elif len(call.args) < 3:
            return False
        else:
            value = call.args[2].value
            alloc = self._classify(value)
        r = self._reads(value)
        for name in names:
            self._emit(
                InitStmtKind.ASSIGN,
                st,
                guards,
                in_loop,
                attr=name,
                reads=tuple(sorted(self._all_reads(r))),
                alloc=alloc,
                value=to_expr(value, self.self_name),
                call=self._followed(value) if alloc is None else None,
                passes_self=bool(r.passes_self),
                constructs=tuple(r.passes_self),
            )
        return True

    def _self_literal(self, attr: str) -> str | None:
        """The string literal ``self.<attr>`` holds here: its last assignment so far in this
        ``__init__``, unconditional and outside loops, is of one."""
        for st in reversed(self.out):
            if st.attr == attr and st.kind in (InitStmtKind.ASSIGN, InitStmtKind.DELETE, InitStmtKind.KILL):
                value = st.value if st.kind == InitStmtKind.ASSIGN and not st.guards and not st.in_loop else None
                if value is not None and value[0] == ExprTag.CONST and isinstance(value[1], str):
                    return value[1]
                return None
        return None

    def _deletes_named(self, st: sx.Stmt, call: sx.Call, guards: Guards) -> bool:
        """``for name in ("a", "b"): delattr(self, name)`` removes ``a`` and ``b``."""
        if dotted(call.func) != "delattr" or len(call.args) != 2 or not is_name(call.args[0].value, self.self_name):
            return False
        var = call.args[1].value
        if not isinstance(var, sx.Name) or var.id not in self.literal_loops:
            return False
        for attr in self.names[var.id][1]:
            self._emit(InitStmtKind.DELETE, st, guards, self.literal_loops[var.id], attr=attr)
        return True

    def _aliased(self, target: str) -> str:
        """``base.__init__(self)`` after ``base = Parent``: the call is ``Parent.__init__(self)``."""
        loc = self.locals.get(target)
        return loc.alias if loc is not None and loc.alias is not None else target

    def _call_stmt(self, st: sx.Stmt, call: sx.Call, guards: Guards, in_loop: bool) -> str | None:
        if self._named_write(st, call, guards, in_loop):
            return None
        fw = field_write(call, self.self_name)
        if fw is not None:
            self._set_field(st, fw, guards, in_loop)
            return None
        ic = init_call(call, self.self_name)
        if ic is not None:
            target = self._aliased(ic.target)
            reads = tuple(sorted(self._all_reads(self._reads(call))))
            self._emit(
                InitStmtKind.SUPER_INIT,
                st,
                guards,
                in_loop,
                target=target,
                start=ic.start,
                reads=reads,
                **self._args(ic.args),
            )
            return None
        helper = super_method_call(call, self.self_name)
        if helper is not None:  # ``super().m(...)``: the parent's helper, which the chain follows
            method, sc = helper
            reads = tuple(sorted(self._all_reads(self._reads(call))))
            given = self._args(sc.args)
            self._emit(
                InitStmtKind.SUPER_CALL,
                st,
                guards,
                in_loop,
                method=method,
                target="super",
                start=sc.start,
                reads=reads,
                **given,
            )
            return None
        base = filled_attr(call, self.self_name)
        if base is not None:
            alloc = None
            for a in call.args:
                alloc = alloc or self._classify(a.value)
            r = self._reads(call)
            self._emit(
                InitStmtKind.FILL,
                st,
                guards,
                in_loop,
                attr=base,
                reads=tuple(sorted(self._all_reads(r) - {base})),
                alloc=alloc,
                passes_self=bool(r.passes_self),
                constructs=tuple(r.passes_self),
                fill_kind=cast(sx.Attribute, call.func).attr,
            )
            return None
        self._effect(st, self._reads(call), guards, in_loop)
        called = self_call(st, self.self_name)
        if called is not None:  # ``self.m(...)``: with its arguments, which the chain binds to m's parameters
            last, given = self.out[-1], self._args(call.args)
            last.method, last.args, last.kwargs = called, given["args"], given["kwargs"]
            last.spreads_args, last.spreads_kwargs = given["spreads_args"], given["spreads_kwargs"]
            last.registers = self._range_names(call)
            self.held.clear()  # the method may replace what self's attributes hold
        return None

    def _args(self, args: tuple[sx.Arg, ...]) -> dict[str, Any]:
        """A call's arguments as ``InitStmt`` fields: the positional ones before any ``*args`` (a positional
        argument after one has no known position), the keywords, and which spreads are passed."""
        return {
            **call_arguments_of(args, self.self_name),
            "spreads_args": any(a.star == "*" for a in args),
            "spreads_kwargs": any(a.star == "**" for a in args),
        }


def _empty_literal(value: sx.Expr) -> bool:
    return (isinstance(value, sx.Sequence) and value.shape == "list" and not value.elts) or (
        isinstance(value, sx.Dict) and not value.items
    )
