"""Flatten an ``__init__`` body into ordered ``InitStmt`` effects.

Each effect records the conditions it runs under (``guards``), whether it can be
skipped by a loop or ``try`` (``in_loop``) or an earlier conditional ``return``,
the ``self`` attributes it reads (also through local variables), and what it
allocates.  An ``if``/``else`` whose branches both assign ``self.x`` on every path
adds a synthetic ``kill`` effect so that later stages see a definite overwrite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from deadinit.model.summary import AllocInfo, InitStmt
from deadinit.semantics.alloc import AllocClassifier
from deadinit.semantics.exprs import dotted, to_expr

_FILL_METHODS = {"append", "extend", "insert", "update", "setdefault", "__setitem__", "add"}


@dataclass
class _Local:
    reads: set = field(default_factory=set)
    alloc: AllocInfo | None = None
    value: tuple | None = None


class _Reads(cst.CSTVisitor):
    """Collect self attribute loads, self method uses, locals used, and escapes of self."""

    def __init__(self, self_name: str):
        self.self_name = self_name
        self.attrs: list[str] = []
        self.names: set[str] = set()
        self.passes_self: list[str] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool | None:
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            self.attrs.append(node.attr.value)
            return False
        return True

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        fn = dotted(node.func)
        if fn in ("getattr", "hasattr") and len(node.args) >= 2:
            first, second = node.args[0].value, node.args[1].value
            if isinstance(first, cst.Name) and first.value == self.self_name and isinstance(second, cst.SimpleString):
                self.attrs.append(second.evaluated_value)
        for a in node.args:
            if (
                isinstance(a.value, cst.Name)
                and a.value.value == self.self_name
                and fn is not None
                and fn not in ("getattr", "hasattr", "isinstance", "setattr", "super")
            ):
                self.passes_self.append(fn)


class InitFlattener:
    def __init__(self, func: cst.FunctionDef, self_name: str, classifier: AllocClassifier, pos: Callable):
        self.self_name = self_name
        self.cls = classifier
        self.pos = pos
        self.locals: dict[str, _Local] = {}
        self.globals: set[str] = set()
        self.out: list[InitStmt] = []
        self.after_return = False
        self.top_index = 0
        self.loop_iters: list = []
        params = func.params
        for p in list(params.params) + list(params.kwonly_params) + list(params.posonly_params):
            self.locals[p.name.value] = _Local()

    # -- helpers ---------------------------------------------------------
    def _reads(self, node: cst.CSTNode) -> _Reads:
        r = _Reads(self.self_name)
        node.visit(r)
        return r

    def _all_reads(self, r: _Reads) -> set:
        out = set(r.attrs)
        for n in r.names:
            loc = self.locals.get(n)
            if loc is not None:
                out |= loc.reads
        return out

    def _local_alloc(self, name: str) -> AllocInfo | None:
        loc = self.locals.get(name)
        return loc.alloc if loc else None

    def _emit(self, kind: str, node: cst.CSTNode, guards: tuple, in_loop: bool, **kw) -> InitStmt:
        rng = self.pos(node)
        st = InitStmt(
            kind=kind,
            line=rng.start.line,
            col=rng.start.column,
            end_line=rng.end.line,
            guards=guards,
            in_loop=in_loop,
            after_return=self.after_return,
            stmt_index=self.top_index,
            loop_iter=self.loop_iters[-1] if self.loop_iters else None,
            **kw,
        )
        self.out.append(st)
        return st

    def _is_self_attr(self, node) -> str | None:
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            return node.attr.value
        return None

    # -- statements ------------------------------------------------------
    def run(self, body: cst.BaseSuite) -> list[InitStmt]:
        stmts = body.body if isinstance(body, cst.IndentedBlock) else [body]
        for i, st in enumerate(stmts):
            self.top_index = i
            if self._stmt(st, (), False) == "stop":
                break
        return self.out

    def _block(self, suite: cst.BaseSuite, guards: tuple, in_loop: bool) -> str | None:
        stmts = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
        for st in stmts:
            if self._stmt(st, guards, in_loop) == "stop":
                return "stop"
        return None

    def _stmt(self, st, guards: tuple, in_loop: bool) -> str | None:
        if isinstance(st, cst.SimpleStatementLine):
            for small in st.body:
                if self._small(small, st, guards, in_loop) == "stop":
                    return "stop"
            return None
        if isinstance(st, cst.SimpleStatementSuite):
            for small in st.body:
                if self._small(small, st, guards, in_loop) == "stop":
                    return "stop"
            return None
        if isinstance(st, cst.If):
            return self._if(st, guards, in_loop)
        if isinstance(st, (cst.For, cst.While)):
            head = st.iter if isinstance(st, cst.For) else st.test
            r = self._reads(head)
            if isinstance(st, cst.For):
                tr = self._reads(st.target)
                for n in tr.names:
                    self.locals[n] = _Local(reads=self._all_reads(r))
            self._emit("effect", head, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            self.loop_iters.append(to_expr(head, self.self_name) if isinstance(st, cst.For) else ("while",))
            self._block(st.body, guards, True)
            self.loop_iters.pop()
            if st.orelse is not None:
                self._block(st.orelse.body, guards, True)
            return None
        if isinstance(st, cst.Try) or type(st).__name__ == "TryStar":
            self._block(st.body, guards, True)
            for h in st.handlers:
                self._block(h.body, guards, True)
            if st.orelse is not None:
                self._block(st.orelse.body, guards, True)
            if st.finalbody is not None:
                return self._block(st.finalbody.body, guards, in_loop)
            return None
        if isinstance(st, cst.With):
            for item in st.items:
                r = self._reads(item.item)
                self._emit("effect", item.item, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            return self._block(st.body, guards, in_loop)
        if isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            r = self._reads(st)
            self._emit(
                "effect", st, guards, in_loop, reads=tuple(sorted(self._all_reads(r))), passes_self=bool(r.passes_self)
            )
            if isinstance(st, cst.FunctionDef):
                self.locals[st.name.value] = _Local(reads=self._all_reads(r))
            return None
        # match statements and anything else: reads count, may not run
        r = self._reads(st)
        self._emit("effect", st, guards, True, reads=tuple(sorted(self._all_reads(r))), passes_self=bool(r.passes_self))
        return None

    def _if(self, st: cst.If, guards: tuple, in_loop: bool) -> str | None:
        cond = to_expr(st.test, self.self_name)
        r = self._reads(st.test)
        self._emit("effect", st.test, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
        start = len(self.out)
        saved = self.after_return
        body_stop = self._block(st.body, guards + (cond,), in_loop)
        mid = len(self.out)
        else_stop = None
        ret_after_body = self.after_return
        self.after_return = saved
        if st.orelse is not None:
            neg = guards + (("not", cond),)
            if isinstance(st.orelse, cst.If):
                else_stop = self._if(st.orelse, neg, in_loop)
            else:
                else_stop = self._block(st.orelse.body, neg, in_loop)
        end = len(self.out)
        self.after_return = self.after_return or ret_after_body
        if body_stop == "stop" or else_stop == "stop":
            # one branch returns or raises: later statements may be skipped
            if body_stop == "stop" and else_stop == "stop":
                return "stop"
            if self._returns(st.body) or (
                st.orelse is not None and not isinstance(st.orelse, cst.If) and self._returns(st.orelse.body)
            ):
                self.after_return = True
        if st.orelse is not None:
            both = self._definite(self.out[start:mid], len(guards) + 1) & self._definite(
                self.out[mid:end], len(guards) + 1
            )
            if body_stop == "stop":
                both = self._definite(self.out[mid:end], len(guards) + 1)
            elif else_stop == "stop":
                both = self._definite(self.out[start:mid], len(guards) + 1)
            for attr in sorted(both):
                self._emit("kill", st, guards, in_loop, attr=attr)
        elif body_stop == "stop" and not self._returns(st.body):
            # ``if cond: raise``: the rest runs only when cond is false; no effect on definiteness
            pass
        return None

    @staticmethod
    def _returns(suite) -> bool:
        stmts = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
        for s in stmts:
            if isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Return) for x in s.body):
                return True
        return False

    def _definite(self, stmts: list[InitStmt], depth: int) -> set:
        return {
            s.attr
            for s in stmts
            if s.kind in ("assign", "kill") and not s.in_loop and len(s.guards) <= depth and s.attr
        }

    def _small(self, small, line_node, guards: tuple, in_loop: bool) -> str | None:
        if isinstance(small, cst.Return):
            r = self._reads(small)
            self._emit("return", small, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            if not guards and not in_loop:
                return "stop"
            self.after_return = True
            return "stop"
        if isinstance(small, cst.Raise):
            return "stop"
        if isinstance(small, cst.Global):
            self.globals |= {n.name.value for n in small.names}
            return None
        if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            return self._assign(small, guards, in_loop)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            return self._call_stmt(small, small.value, guards, in_loop)
        r = self._reads(small)
        if r.attrs or r.passes_self or r.names & set(self.locals):
            self._emit(
                "effect",
                small,
                guards,
                in_loop,
                reads=tuple(sorted(self._all_reads(r))),
                passes_self=bool(r.passes_self),
                constructs=tuple(r.passes_self),
            )
        return None

    def _assign(self, small, guards, in_loop):
        value = getattr(small, "value", None)
        if isinstance(small, cst.Assign):
            targets = [t.target for t in small.targets]
        else:
            targets = [small.target]
        if value is None:  # bare annotation
            return None
        r = self._reads(value)
        reads = self._all_reads(r)
        alloc = self.cls.classify(value, self._local_alloc, self.self_name)
        vexpr = to_expr(value, self.self_name)
        if isinstance(value, (cst.List, cst.Dict)) and not (value.elements):
            vexpr = ("empty",)
        aug = isinstance(small, cst.AugAssign)
        for t in targets:
            attr = self._is_self_attr(t)
            if attr is not None:
                if aug:
                    self._emit(
                        "fill", small, guards, in_loop, attr=attr, reads=tuple(sorted(reads | {attr})), fill_kind="aug"
                    )
                else:
                    self._emit(
                        "assign",
                        small,
                        guards,
                        in_loop,
                        attr=attr,
                        reads=tuple(sorted(reads)),
                        alloc=alloc,
                        value=vexpr,
                        passes_self=bool(r.passes_self),
                        constructs=tuple(r.passes_self),
                    )
                continue
            if isinstance(t, cst.Subscript):
                base = self._is_self_attr(t.value)
                if base is not None:
                    self._emit(
                        "fill",
                        small,
                        guards,
                        in_loop,
                        attr=base,
                        reads=tuple(sorted(reads | set(self._reads(t.slice[0]).attrs) if t.slice else reads)),
                        alloc=alloc,
                        passes_self=bool(r.passes_self),
                        constructs=tuple(r.passes_self),
                        fill_kind="setitem",
                    )
                    continue
            if isinstance(t, cst.Name):
                name = t.value
                old = self.locals.get(name)
                loc = _Local(reads=set(reads), alloc=alloc, value=vexpr)
                if name in self.globals and alloc is not None:
                    loc.alloc = AllocInfo("global-singleton", callee=alloc.callee, element=alloc)
                if old is not None and (guards or in_loop) and name in self.globals:
                    # ``if g is None: g = alloc`` keeps the allocation visible after the if
                    loc.reads |= old.reads
                if aug and old is not None:
                    loc.reads |= old.reads
                self.locals[name] = loc
                if r.passes_self:
                    self._emit(
                        "effect",
                        small,
                        guards,
                        in_loop,
                        reads=tuple(sorted(reads)),
                        passes_self=True,
                        constructs=tuple(r.passes_self),
                    )
                continue
            # tuple targets, attributes of other objects, subscripts of locals...
            tr = self._reads(t)
            names = _target_names(t)
            for n in names:
                self.locals[n] = _Local(reads=set(reads))
            self_targets = [a for a in _self_targets(t, self.self_name)]
            for a in self_targets:
                self._emit("assign", small, guards, in_loop, attr=a, reads=tuple(sorted(reads)), value=("?",))
            if not self_targets and (reads or tr.attrs or r.passes_self):
                self._emit(
                    "effect",
                    small,
                    guards,
                    in_loop,
                    reads=tuple(sorted(reads | set(tr.attrs))),
                    passes_self=bool(r.passes_self),
                    constructs=tuple(r.passes_self),
                )
        return None

    def _call_stmt(self, small, call: cst.Call, guards, in_loop):
        func = call.func
        # super().__init__(...), super(C, self).__init__(...), Parent.__init__(self, ...)
        if isinstance(func, cst.Attribute) and func.attr.value == "__init__":
            target = None
            args = list(call.args)
            if isinstance(func.value, cst.Call) and dotted(func.value.func) == "super":
                target = "super"
            else:
                d = dotted(func.value)
                if d and args and isinstance(args[0].value, cst.Name) and args[0].value.value == self.self_name:
                    target = d
                    args = args[1:]
            if target is not None:
                r = self._reads(call)
                pos_args = tuple(self._arg_expr(a.value) for a in args if a.keyword is None and not a.star)
                kw = tuple((a.keyword.value, self._arg_expr(a.value)) for a in args if a.keyword is not None)
                star = any(a.star for a in args)
                self._emit(
                    "super_init",
                    small,
                    guards,
                    in_loop,
                    target=target,
                    args=pos_args,
                    kwargs=kw,
                    star_args=star,
                    reads=tuple(sorted(self._all_reads(r))),
                )
                return None
        if isinstance(func, cst.Attribute):
            base = self._is_self_attr(func.value)
            if base is not None and func.attr.value in _FILL_METHODS:
                alloc = None
                for a in call.args:
                    alloc = alloc or self.cls.classify(a.value, self._local_alloc, self.self_name)
                r = self._reads(call)
                reads = self._all_reads(r) - {base}
                self._emit(
                    "fill",
                    small,
                    guards,
                    in_loop,
                    attr=base,
                    reads=tuple(sorted(reads)),
                    alloc=alloc,
                    passes_self=bool(r.passes_self),
                    constructs=tuple(r.passes_self),
                    fill_kind=func.attr.value,
                )
                return None
        r = self._reads(call)
        self._emit(
            "effect",
            small,
            guards,
            in_loop,
            reads=tuple(sorted(self._all_reads(r))),
            passes_self=bool(r.passes_self),
            constructs=tuple(r.passes_self),
        )
        return None

    def _arg_expr(self, node) -> tuple:
        e = to_expr(node, self.self_name)
        return e


def _target_names(t) -> list[str]:
    out = []
    if isinstance(t, cst.Name):
        out.append(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for el in t.elements:
            out.extend(_target_names(el.value))
    elif isinstance(t, cst.StarredElement):
        out.extend(_target_names(t.value))
    return out


def _self_targets(t, self_name) -> list[str]:
    out = []
    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name:
        out.append(t.attr.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for el in t.elements:
            out.extend(_self_targets(el.value, self_name))
    elif isinstance(t, cst.StarredElement):
        out.extend(_self_targets(t.value, self_name))
    return out
