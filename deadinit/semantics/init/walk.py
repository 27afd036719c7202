"""What an ``__init__`` walk (``deadinit.semantics.init.flow``) keeps and emits: its
locals (what each one reads and holds) and the ``InitStmt`` list, one effect at a time."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, cast

from deadinit.model.kinds import AllocKind, ExprTag, InitStmtKind
from deadinit.model.summary import AllocInfo, InitStmt, Pattern, RangeNames
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier, LocalCallee, inline_locals
from deadinit.semantics.annotations import ParseExpression
from deadinit.semantics.class_typed import called_builds
from deadinit.semantics.construction_args import Passed, passed_only
from deadinit.semantics.dynamic import RangeLoop
from deadinit.semantics.effects import Reads, holds_self, reads_of
from deadinit.semantics.exprs import UNKNOWN, Expr, dotted, to_expr
from deadinit.semantics.init.rebound import ANYTHING, Holds, defaulted, held, open_param
from deadinit.semantics.raises import leaf_roots
from deadinit.semantics.returns import declared_class, param_call

Guards = tuple[Expr, ...]  # conditions an effect runs under

CLASS_CHECKS = frozenset({"isinstance"})  # calls that look only at the class of their first argument
STOP = "stop"  # a statement after which nothing in its block runs (return, raise)


@dataclass
class Local:
    """A local name of the ``__init__``: the ``self`` attributes its value reads, what it allocates."""

    reads: set[str] = field(default_factory=set)
    alloc: AllocInfo | None = None
    value: Expr | None = None
    alias: str | None = None  # ``base = Parent`` on every path: the class name it holds
    call: AllocInfo | None = None  # the result of a call the analysis may follow
    calls: AllocInfo | None = None  # what calling it allocates (a parameter whose default is a class)
    # the one class it holds an instance of (its fields' calls are followed): a parameter's annotation, or
    # its rebinding (``spec = spec or Spec()``, ``deadinit.semantics.init.rebound``)
    declared: str | None = None
    param: bool = False  # the parameter itself, not rebound
    open: bool = False  # ... and one without an annotation that defaults to None (``rebound.open_param``)
    root: Expr | None = None  # bound on every path to ``self.a`` / a parameter's attribute...: that, in those terms


class InitWalk:
    """The walk's state and how it emits; ``InitFlattener`` adds the statements."""

    def __init__(
        self, func: sx.FunctionDef, self_name: str, classifier: AllocClassifier, parse: ParseExpression | None = None
    ) -> None:
        self.self_name = self_name
        self.cls = classifier
        reading = parse or (lambda _: None)
        self.locals: dict[str, Local] = {
            p.name: Local(
                calls=param_call(p, classifier, reading),
                declared=declared_class(p, reading),
                param=True,
                open=open_param(p),
            )
            for p in func.params
            if not p.star
        }
        self.globals: set[str] = set()
        self.out: list[InitStmt] = []
        self.after_return = False
        self.loop_iters: list[Expr] = []
        self.names: dict[str, Pattern] = {}  # loop variables that hold attribute names (semantics.dynamic)
        self.literal_loops: dict[str, bool] = {}  # variable of a loop over literal names -> the loop's own in_loop
        self.range_loops: dict[str, RangeLoop] = {}  # ``for i in range(n)`` (semantics.dynamic)
        self.dynamic: list[tuple[str, Pattern]] = []  # dynamic reads seen since the last statement was emitted
        self.held: dict[str, AllocInfo] = {}  # self attributes assigned an allocation on every path, not replaced since
        self.aliases: set[str] = set()  # locals that may hold ``self``, or an object holding it (``me = self``)
        self.start = func

    def _reads(self, node: sx.Node | None) -> Reads:
        r = reads_of(node, self.self_name, self.names.get, self.aliases)
        self.dynamic.extend(r.dynamic)
        return r

    def _alias(self, name: str, value: sx.Expr, maybe: bool) -> None:
        """``name`` is bound to ``value`` (``maybe``: on some paths only, or added to): an alias of ``self``
        when the value may hold it, which an earlier binding still may when this one may not run."""
        if holds_self(value, (self.self_name, *self.aliases)):
            self.aliases.add(name)
        elif not maybe:
            self.aliases.discard(name)

    def _all_reads(self, r: Reads) -> set[str]:
        out = set(r.attrs)
        for n in r.names:
            loc = self.locals.get(n)
            if loc is not None:
                out |= loc.reads
        return out

    def _local_value(self, name: str) -> Expr | None:
        loc = self.locals.get(name)
        return loc.value if loc is not None else None

    def _local_alloc(self, name: str) -> AllocInfo | None:
        """What a local allocates; for ``"self.a"``, what the attribute holds (``held``)."""
        owner, dot, attr = name.partition(".")
        if dot:
            return self.held.get(attr) if owner == self.self_name else None
        loc = self.locals.get(name)
        return loc.alloc if loc else None

    def _local_call(self, name: str) -> LocalCallee:
        loc = self.locals.get(name)
        if loc is None:
            return LocalCallee(False)
        return LocalCallee(True, loc.calls, loc.declared)

    def _name_holds(self, name: str) -> Holds:
        """What the local ``name`` may be an instance of (``deadinit.semantics.init.rebound``)."""
        loc = self.locals.get(name)
        return Holds(frozenset({loc.declared})) if loc is not None and loc.declared is not None else ANYTHING

    def _holds(self, value: sx.Expr, name: str, maybe: bool) -> Holds:
        """What ``name`` may be an instance of once bound to ``value`` (``maybe``: on some paths only; of an
        open parameter, ``if spec is None: spec = Spec()``, the other path keeps what a caller passes)."""
        loc = self.locals.get(name)
        if loc is not None and loc.open:
            default = defaulted(value, name)
            return held(value if default is None else default, self._name_holds)
        got = held(value, self._name_holds)
        return got | self._name_holds(name) if maybe else got

    def _classify(self, value: sx.Expr) -> AllocInfo | None:
        return self.cls.classify(value, self._local_alloc, self.self_name, self._local_call)

    def _range_of(self, var: str) -> tuple[int, ...] | None:
        got = self.range_loops.get(var)
        return got.values if got is not None else None

    def _range_names(self, call: sx.Call) -> RangeNames | None:
        """``self.add_module(f"layer{i}", m)`` in ``for i in range(depth)``: what each name is assigned,
        for the chain to name once it knows the range (``InitStmt.registers``); None for any other call."""
        got = self.cls.registration(call, self.self_name, self._local_alloc, loop_values=self._range_of)
        loop = self.range_loops.get(got.loop_var) if got is not None and got.loop_var is not None else None
        if got is None or loop is None or got.names:
            return None
        alloc = inline_locals(got.alloc, self._local_value) if got.alloc is not None else None
        value = to_expr(got.value, self.self_name)
        call_ = self._followed(got.value) if alloc is None else None
        return RangeNames(*got.affix, loop.start, loop.stop, loop.in_loop, alloc, value, call_)

    def _followed(self, value: sx.Expr) -> AllocInfo | None:
        """The call whose result ``value`` is, for the analysis to follow (also through a local)."""
        if isinstance(value, sx.Name):
            loc = self.locals.get(value.id)
            return loc.call if loc is not None else None
        call = self.cls.followed_call(value, self.self_name, self._local_call)
        if call is None or call.kind != AllocKind.CALL or not isinstance(value, sx.Call):
            return call
        if (dotted(value.func) or "").rpartition(".")[2] != call.callee.rpartition(".")[2]:
            return call  # ``f(x).to(device)``: the arguments are another call's
        given = [a.value for a in value.args if a.keyword is None and not a.star]
        builds = tuple(called_builds(a, self.cls, self._local_call) for a in given[: len(call.args)])
        return replace(call, arg_builds=builds) if any(b is not None for b in builds) else call

    def _root(self, e: Expr) -> Expr | None:
        """A name, ``self`` attribute or attribute chain in terms of ``self`` and the parameters (None: a local
        or global whose value is not one)."""
        if e[0] == ExprTag.SELF:
            return e
        if e[0] not in (ExprTag.NAME, ExprTag.DOTTED):
            return None
        first, _, rest = str(e[1]).partition(".")
        if first == self.self_name:
            return e
        loc = self.locals.get(first)
        if loc is None or not (loc.param or loc.root is not None):
            return None
        if loc.param or not rest:
            return e if loc.param else loc.root
        base = cast(Expr, loc.root)
        text = f"{self.self_name}.{base[1]}" if base[0] == ExprTag.SELF else str(base[1])
        return (ExprTag.DOTTED, f"{text}.{rest}")

    def _roots(self, *exprs: Expr | None) -> tuple[tuple[str, Expr], ...]:
        """The locals ``exprs`` name (parameters rebound included) and what each holds."""
        names = {n for e in exprs if e is not None for n in leaf_roots(e)}
        out = []
        for n in sorted(names):
            loc = self.locals.get(n)
            if loc is not None and not loc.param:
                out.append((n, loc.root or UNKNOWN))
        return tuple(out)

    def _emit(self, kind: InitStmtKind, node: sx.Node, guards: Guards, in_loop: bool, **kw: Any) -> InitStmt:
        dynamic, self.dynamic = tuple(self.dynamic), []
        named = [kw.get("value") if kind in ("assign", "assert") else None]
        if kind in ("super_init", "super_call"):
            named += [*kw.get("args", ()), *(v for _, v in kw.get("kwargs", ()))]
        roots = self._roots(*guards, *named)
        if roots:
            kw["roots"] = roots
        if kw.get("alloc") is not None:
            kw["alloc"] = inline_locals(kw["alloc"], self._local_value)
        if kw.get("reads") and kind != "super_init":
            passed = self._passed(node, frozenset(kw["reads"]))
            if passed:
                kw["passed"] = passed
                checked = {a for a, callee, at in passed if callee in CLASS_CHECKS and at == 0}
                checked -= {a for a, callee, at in passed if not (callee in CLASS_CHECKS and at == 0)}
                if checked:  # ``isinstance(self.x, T)``: looks at its class only
                    kw["configures"] = tuple(sorted({*kw.get("configures", ()), *checked}))
        st = InitStmt(
            dynamic=dynamic,
            kind=kind,
            line=node.line,
            col=node.col,
            end_line=node.end_line,
            guards=guards,
            in_loop=in_loop,
            after_return=self.after_return,
            loop_iter=self.loop_iters[-1] if self.loop_iters else None,
            **kw,
        )
        self.out.append(st)
        self._hold(st)
        return st

    def _hold(self, st: InitStmt) -> None:
        """Keep ``held`` to what ``st`` leaves: an allocation it assigns on every path; a write ends what the
        attribute held; a call that may run other code on ``self`` (a parent's ``__init__``, a method, ``self``
        passed on) ends everything."""
        if (
            st.kind in (InitStmtKind.SUPER_INIT, InitStmtKind.SUPER_CALL)
            or st.method
            or st.self_calls
            or st.passes_self
            or st.dynamic
        ):
            self.held.clear()
        if st.attr is None:
            return
        attr = st.attr.split(".", 1)[0]
        self.held.pop(attr, None)
        if st.kind == InitStmtKind.ASSIGN and st.alloc is not None and not (st.guards or st.in_loop or st.after_return):
            self.held[attr] = st.alloc

    def _passed(self, node: sx.Node, reads: frozenset[str]) -> tuple[Passed, ...]:
        """The attributes ``node`` reads only as arguments of calls of names that are not locals or parameters
        (and not through a local too)."""
        through_locals: set[str] = set()
        for n in reads_of(node, self.self_name).names:
            loc = self.locals.get(n)
            if loc is not None:
                through_locals |= loc.reads
        passed = passed_only(node, self.self_name, reads - through_locals)
        return tuple(p for p in passed if p[1].split(".")[0] not in self.locals)  # a local may hold any callable

    def _effect(
        self, node: sx.Node, r: Reads, guards: Guards, in_loop: bool, extra: frozenset[str] = frozenset()
    ) -> None:
        self._emit(
            InitStmtKind.EFFECT,
            node,
            guards,
            in_loop,
            reads=tuple(sorted(self._all_reads(r) | extra)),
            passes_self=bool(r.passes_self),
            constructs=tuple(r.passes_self),
        )
