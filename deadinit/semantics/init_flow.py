"""Flatten an ``__init__`` body into ordered ``InitStmt`` effects.

Each effect records the conditions it runs under (``guards``), whether it can be
skipped by a loop or ``try`` (``in_loop``) or an earlier conditional ``return``,
the ``self`` attributes it reads (also through local variables), and what it
allocates.  An ``if``/``else`` whose branches both assign ``self.x`` on every path
adds a synthetic ``kill`` effect so that later stages see a definite overwrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from deadinit.model.summary import AllocInfo, InitStmt
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier
from deadinit.semantics.annotations import ParseExpression
from deadinit.semantics.dynamic import access_of, loop_names
from deadinit.semantics.effects import (
    Reads,
    filled_attr,
    init_call,
    literal_attr_of_self,
    reads_of,
    self_targets,
    target_names,
)
from deadinit.semantics.exprs import Expr, dotted, is_name, self_attr, to_expr
from deadinit.semantics.returns import param_call
from deadinit.semantics.unpacking import leaves_early, nested_path, unpacked

Guards = tuple[Expr, ...]  # conditions an effect runs under

STOP = "stop"


@dataclass
class _Local:
    reads: set[str] = field(default_factory=set)
    alloc: AllocInfo | None = None
    value: Expr | None = None
    call: AllocInfo | None = None  # the result of a call the analysis may follow
    calls: AllocInfo | None = None  # what calling it allocates (a parameter whose default is a class)


class InitFlattener:
    def __init__(
        self, func: sx.FunctionDef, self_name: str, classifier: AllocClassifier, parse: ParseExpression | None = None
    ) -> None:
        self.self_name = self_name
        self.cls = classifier
        self.locals: dict[str, _Local] = {
            p.name: _Local(calls=param_call(p, classifier, parse or (lambda _: None)))
            for p in func.params
            if not p.star
        }
        self.globals: set[str] = set()
        self.out: list[InitStmt] = []
        self.after_return = False
        self.loop_iters: list[Expr] = []
        self.names: dict[str, tuple] = {}  # loop variables that hold attribute names (semantics.dynamic)
        self.literal_loops: dict[str, bool] = {}  # variable of a loop over literal names -> the loop's own in_loop
        self.dynamic: list[tuple] = []  # dynamic reads seen since the last statement was emitted
        self.start = func

    # -- helpers -----------------------------------------------------------------
    def _reads(self, node: sx.Node | None) -> Reads:
        r = reads_of(node, self.self_name, self.names.get)
        self.dynamic.extend(r.dynamic)
        return r

    def _all_reads(self, r: Reads) -> set[str]:
        out = set(r.attrs)
        for n in r.names:
            loc = self.locals.get(n)
            if loc is not None:
                out |= loc.reads
        return out

    def _local_alloc(self, name: str) -> AllocInfo | None:
        loc = self.locals.get(name)
        return loc.alloc if loc else None

    def _local_call(self, name: str) -> tuple[bool, AllocInfo | None]:
        loc = self.locals.get(name)
        return (True, loc.calls) if loc is not None else (False, None)

    def _classify(self, value: sx.Expr) -> AllocInfo | None:
        return self.cls.classify(value, self._local_alloc, self.self_name, self._local_call)

    def _followed(self, value: sx.Expr) -> AllocInfo | None:
        """The call whose result ``value`` is, for the analysis to follow (also through a local)."""
        if isinstance(value, sx.Name):
            loc = self.locals.get(value.id)
            return loc.call if loc is not None else None
        return self.cls.followed_call(value, self.self_name, self._local_call)

    def _emit(self, kind: str, node: sx.Node, guards: Guards, in_loop: bool, **kw: Any) -> InitStmt:
        dynamic, self.dynamic = tuple(self.dynamic), []
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
        return st

    def _effect(
        self, node: sx.Node, r: Reads, guards: Guards, in_loop: bool, extra: frozenset[str] = frozenset()
    ) -> None:
        self._emit(
            "effect",
            node,
            guards,
            in_loop,
            reads=tuple(sorted(self._all_reads(r) | extra)),
            passes_self=bool(r.passes_self),
            constructs=tuple(r.passes_self),
        )

    # -- statements --------------------------------------------------------------
    def run(self, body: sx.Body) -> list[InitStmt]:
        self._block(body, (), False)
        if self.dynamic:  # read by name into a local nothing else records
            self._emit("effect", self.start, (), True)
        return self.out

    def _block(self, body: sx.Body, guards: Guards, in_loop: bool) -> str | None:
        for st in body:
            if self._stmt(st, guards, in_loop) == STOP:
                return STOP
        return None

    def _stmt(self, st: sx.Stmt, guards: Guards, in_loop: bool) -> str | None:
        if isinstance(st, sx.If):
            return self._if(st, guards, in_loop)
        if isinstance(st, (sx.For, sx.While)):
            head = st.iter if isinstance(st, sx.For) else st.test
            r = self._reads(head)
            if isinstance(st, sx.For):
                for n in self._reads(st.target).names:
                    self.locals[n] = _Local(reads=self._all_reads(r))
                    self.names.pop(n, None)
                names = loop_names(st.iter, self.self_name)
                if isinstance(st.target, sx.Name) and names is not None:
                    self.names[st.target.id] = names
                target = st.target
                # the body runs once per name, for every name: what it removes is removed
                literal = isinstance(target, sx.Name) and names is not None and names[0] == "names"
                if literal and isinstance(target, sx.Name) and not leaves_early(st.body):
                    self.literal_loops[target.id] = in_loop
            self._emit("effect", head, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            self.loop_iters.append(to_expr(head, self.self_name) if isinstance(st, sx.For) else ("while",))
            self._block(st.body, guards, True)
            self.loop_iters.pop()
            if isinstance(st, sx.For) and isinstance(st.target, sx.Name):
                self.literal_loops.pop(st.target.id, None)
            self._block(st.orelse, guards, True)
            return None
        if isinstance(st, sx.Try):
            self._block(st.body, guards, True)
            for h in st.handlers:
                self._block(h.body, guards, True)
            self._block(st.orelse, guards, True)
            return self._block(st.finalbody, guards, in_loop)
        if isinstance(st, sx.With):
            for item in st.items:
                r = self._reads(item.expr)
                self._emit("effect", item.expr, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            return self._block(st.body, guards, in_loop)
        if isinstance(st, (sx.FunctionDef, sx.ClassDef)):
            r = self._reads(st)
            self._emit(
                "effect", st, guards, in_loop, reads=tuple(sorted(self._all_reads(r))), passes_self=bool(r.passes_self)
            )
            if isinstance(st, sx.FunctionDef):
                self.locals[st.name] = _Local(reads=self._all_reads(r))
            return None
        if isinstance(st, sx.OtherStmt):  # match and anything newer: reads count, may not run
            r = self._reads(st)
            self._emit(
                "effect", st, guards, True, reads=tuple(sorted(self._all_reads(r))), passes_self=bool(r.passes_self)
            )
            return None
        return self._small(st, guards, in_loop)

    def _if(self, st: sx.If, guards: Guards, in_loop: bool) -> str | None:
        cond = to_expr(st.test, self.self_name)
        self._emit("effect", st.test, guards, in_loop, reads=tuple(sorted(self._all_reads(self._reads(st.test)))))
        start = len(self.out)
        saved = self.after_return
        body_stop = self._block(st.body, (*guards, cond), in_loop)
        mid = len(self.out)
        ret_after_body = self.after_return
        self.after_return = saved
        else_stop = self._block(st.orelse, (*guards, ("not", cond)), in_loop) if st.orelse else None
        end = len(self.out)
        self.after_return = self.after_return or ret_after_body
        if body_stop == STOP or else_stop == STOP:
            if body_stop == STOP and else_stop == STOP:  # both branches leave: so does the if
                return STOP
            if _returns(st.body) or (st.orelse and not _is_elif(st.orelse) and _returns(st.orelse)):
                self.after_return = True
        if st.orelse:
            depth = len(guards) + 1
            if body_stop == STOP:
                both = _definite(self.out[mid:end], depth)
            elif else_stop == STOP:
                both = _definite(self.out[start:mid], depth)
            else:
                both = _definite(self.out[start:mid], depth) & _definite(self.out[mid:end], depth)
            for attr in sorted(both):
                self._emit("kill", st, guards, in_loop, attr=attr)
        return None

    def _small(self, st: sx.Stmt, guards: Guards, in_loop: bool) -> str | None:
        if isinstance(st, sx.Return):
            self._emit("return", st, guards, in_loop, reads=tuple(sorted(self._all_reads(self._reads(st)))))
            if guards or in_loop:
                self.after_return = True
            return STOP
        if isinstance(st, sx.Raise):
            return STOP
        if isinstance(st, sx.Names):
            if st.scope == "global":
                self.globals |= set(st.names)
            return None
        if isinstance(st, (sx.Assign, sx.AnnAssign, sx.AugAssign)):
            return self._assign(st, guards, in_loop)
        if isinstance(st, sx.ExprStmt) and isinstance(st.value, sx.Call):
            return self._call_stmt(st, st.value, guards, in_loop)
        if isinstance(st, sx.Delete):
            return self._delete(st, guards, in_loop)
        if isinstance(st, sx.Assert):
            r = self._reads(st)
            self._emit(
                "assert",
                st,
                guards,
                in_loop,
                value=to_expr(st.test, self.self_name),
                reads=tuple(sorted(self._all_reads(r))),
            )
            return None
        r = self._reads(st)
        if r.attrs or r.passes_self or r.names & set(self.locals):
            self._effect(st, r, guards, in_loop)
        return None

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
            vexpr = ("empty",)
        aug = isinstance(st, sx.AugAssign)
        escapes = {"passes_self": bool(r.passes_self), "constructs": tuple(r.passes_self)}
        for t in targets:
            attr = self_attr(t, self.self_name) or self._named_target(t)
            if attr is not None:
                if aug:
                    self._emit(
                        "fill", st, guards, in_loop, attr=attr, reads=tuple(sorted(reads | {attr})), fill_kind="aug"
                    )
                else:
                    self._emit(
                        "assign",
                        st,
                        guards,
                        in_loop,
                        attr=attr,
                        reads=tuple(sorted(reads)),
                        alloc=alloc,
                        value=vexpr,
                        call=call,
                        **escapes,
                    )
                continue
            if isinstance(t, sx.Subscript):
                base = self_attr(t.value, self.self_name)
                if base is not None:
                    index_reads = set(self._reads(t.items[0]).attrs) if t.items else set()
                    self._emit(
                        "fill",
                        st,
                        guards,
                        in_loop,
                        attr=base,
                        reads=tuple(sorted(reads | index_reads)),
                        alloc=alloc,
                        fill_kind="setitem",
                        **escapes,
                    )
                    continue
            if isinstance(t, sx.Name):
                self._bind(t.id, reads, alloc, vexpr, guards, in_loop, aug)
                self.locals[t.id].call = None if aug else call
                if r.passes_self:
                    self._emit("effect", st, guards, in_loop, reads=tuple(sorted(reads)), **escapes)
                continue
            if isinstance(t, sx.Attribute) and isinstance(t.value, sx.Name) and not aug:
                # ``config.x = None`` on a parameter or local: what a parent's guard may read
                self._emit(
                    "set",
                    st,
                    guards,
                    in_loop,
                    attr=f"{t.value.id}.{t.attr}",
                    reads=tuple(sorted(reads)),
                    value=vexpr,
                    **escapes,
                )
                continue
            part = nested_path(t, self.self_name)
            if part is not None and not aug and part[0] not in reads:
                # ``self.block.proj = ...`` replaces a part of an object self holds (the load of ``block`` reads it)
                self._emit(
                    "nested",
                    st,
                    guards,
                    in_loop,
                    attr=".".join(part),
                    reads=tuple(sorted(reads | {part[0]})),
                    **escapes,
                )
                continue
            # tuple targets, attributes of other objects, subscripts of locals...
            tr = self._reads(t)
            for n in target_names(t):
                self.locals[n] = _Local(reads=set(reads))
            assigned = self_targets(t, self.self_name)
            parts = unpacked(t, value, self._classify, self._followed) if isinstance(t, sx.Sequence) and not aug else []
            for el, el_alloc, el_call in parts:
                if isinstance(el, sx.Name):
                    self.locals[el.id].alloc, self.locals[el.id].call = el_alloc, el_call
            made = {self_attr(el, self.self_name): (a, c) for el, a, c in parts}
            for a in assigned:
                el_alloc, el_call = made.get(a, (None, None))
                self._emit(
                    "assign",
                    st,
                    guards,
                    in_loop,
                    attr=a,
                    reads=tuple(sorted(reads)),
                    value=("?",),
                    alloc=el_alloc,
                    call=el_call,
                )
            if not assigned and (reads or tr.attrs or r.passes_self):
                self._emit("effect", st, guards, in_loop, reads=tuple(sorted(reads | set(tr.attrs))), **escapes)
        return None

    def _named_target(self, t: sx.Expr) -> str | None:
        """``x`` for ``self.__dict__["x"] = ...`` / ``self._modules["x"] = ...``."""
        got = access_of(t, self.self_name) if isinstance(t, sx.Subscript) else None
        return got[0][1] if got is not None and got[0][0] == "read" else None

    def _bind(
        self, name: str, reads: set[str], alloc: AllocInfo | None, vexpr: Expr, guards: Guards, in_loop: bool, aug: bool
    ) -> None:
        old = self.locals.get(name)
        loc = _Local(reads=set(reads), alloc=alloc, value=vexpr)
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
                self._emit("delete", t, guards, in_loop, attr=a)
            if not attrs:
                rest.append(t)
        for t in rest:
            r = self._reads(t)
            if r.attrs or r.names & set(self.locals):
                self._effect(st, r, guards, in_loop)
        return None

    def _named_write(self, st: sx.Stmt, call: sx.Call, guards: Guards, in_loop: bool) -> bool:
        """``setattr(self, "x", v)`` assigns ``x``; ``delattr(self, "x")`` removes it."""
        literal = literal_attr_of_self(call, self.self_name, ("setattr", "delattr"))
        if literal is None:
            return self._deletes_named(st, call, guards)
        if dotted(call.func) == "delattr":
            self._emit("delete", st, guards, in_loop, attr=literal)
            return True
        if len(call.args) < 3:
            return False
        value = call.args[2].value
        r = self._reads(value)
        self._emit(
            "assign",
            st,
            guards,
            in_loop,
            attr=literal,
            reads=tuple(sorted(self._all_reads(r))),
            alloc=self._classify(value),
            value=to_expr(value, self.self_name),
            call=self._followed(value) if self._classify(value) is None else None,
            passes_self=bool(r.passes_self),
            constructs=tuple(r.passes_self),
        )
        return True

    def _deletes_named(self, st: sx.Stmt, call: sx.Call, guards: Guards) -> bool:
        """``for name in ("a", "b"): delattr(self, name)`` removes ``a`` and ``b``."""
        if dotted(call.func) != "delattr" or len(call.args) != 2 or not is_name(call.args[0].value, self.self_name):
            return False
        var = call.args[1].value
        if not isinstance(var, sx.Name) or var.id not in self.literal_loops:
            return False
        for attr in self.names[var.id][1]:
            self._emit("delete", st, guards, self.literal_loops[var.id], attr=attr)
        return True

    def _call_stmt(self, st: sx.Stmt, call: sx.Call, guards: Guards, in_loop: bool) -> str | None:
        if self._named_write(st, call, guards, in_loop):
            return None
        ic = init_call(call, self.self_name)
        if ic is not None:
            pos_args = tuple(to_expr(a.value, self.self_name) for a in ic.args if a.keyword is None and not a.star)
            kw = tuple((a.keyword, to_expr(a.value, self.self_name)) for a in ic.args if a.keyword is not None)
            self._emit(
                "super_init",
                st,
                guards,
                in_loop,
                target=ic.target,
                start=ic.start,
                args=pos_args,
                kwargs=kw,
                star_args=any(a.star for a in ic.args),
                reads=tuple(sorted(self._all_reads(self._reads(call)))),
            )
            return None
        base = filled_attr(call, self.self_name)
        if base is not None:
            alloc = None
            for a in call.args:
                alloc = alloc or self.cls.classify(a.value, self._local_alloc, self.self_name)
            r = self._reads(call)
            self._emit(
                "fill",
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
        return None


def _returns(body: sx.Body) -> bool:
    return any(isinstance(s, sx.Return) for s in body)


def _is_elif(body: sx.Body) -> bool:
    return len(body) == 1 and isinstance(body[0], sx.If) and body[0].is_elif


def _definite(stmts: list[InitStmt], depth: int) -> set[str]:
    return {
        s.attr for s in stmts if s.kind in ("assign", "kill") and not s.in_loop and len(s.guards) <= depth and s.attr
    }


def _empty_literal(value: sx.Expr) -> bool:
    return (isinstance(value, sx.Sequence) and value.shape == "list" and not value.elts) or (
        isinstance(value, sx.Dict) and not value.items
    )
