"""Flatten an ``__init__`` body into ordered ``InitStmt`` effects.

Each effect records the conditions it runs under (``guards``), whether it can be
skipped by a loop or ``try`` (``in_loop``) or an earlier conditional ``return``,
the ``self`` attributes it reads (also through local variables), and what it
allocates.  An ``if``/``else`` whose branches both assign ``self.x`` on every path
adds a synthetic ``kill`` effect so that later stages see a definite overwrite.

Control flow (blocks, branches, loops, ``try``, ``with``) is followed here; the walk's
state and ``_emit`` are in ``walk``, the statements that write in ``writes``.
"""

from __future__ import annotations

from deadinit.model.kinds import ExprTag, InitStmtKind, PatternTag
from deadinit.model.summary import InitStmt
from deadinit.semantics import syntax as sx
from deadinit.semantics.dynamic import RangeLoop, loop_names, range_bounds, range_values
from deadinit.semantics.effects import Reads
from deadinit.semantics.exprs import to_expr
from deadinit.semantics.init.unpacking import leaves_early
from deadinit.semantics.init.walk import STOP, Guards, Local
from deadinit.semantics.init.writes import InitWrites
from deadinit.semantics.raises import raise_condition

__all__ = ["Guards", "InitFlattener"]


class InitFlattener(InitWrites):
    """``InitFlattener(func, self_name, classifier).run(func.body)``: the body's ``InitStmt`` list."""

    def run(self, body: sx.Body) -> list[InitStmt]:
        self._block(body, (), False)
        if self.dynamic:  # read by name into a local nothing else records
            self._emit(InitStmtKind.EFFECT, self.start, (), True)
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
                self._loop_target(st, r, in_loop)
            self._emit(InitStmtKind.EFFECT, head, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            self.loop_iters.append(to_expr(head, self.self_name) if isinstance(st, sx.For) else ("while",))
            self._block(st.body, guards, True)
            self.loop_iters.pop()
            if isinstance(st, sx.For) and isinstance(st.target, sx.Name):
                self.literal_loops.pop(st.target.id, None)
                self.range_loops.pop(st.target.id, None)
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
                self._emit(InitStmtKind.EFFECT, item.expr, guards, in_loop, reads=tuple(sorted(self._all_reads(r))))
            return self._block(st.body, guards, in_loop)
        if isinstance(st, (sx.FunctionDef, sx.ClassDef)):
            r = self._reads(st)
            self._emit(
                InitStmtKind.EFFECT,
                st,
                guards,
                in_loop,
                reads=tuple(sorted(self._all_reads(r))),
                passes_self=bool(r.passes_self),
            )
            if isinstance(st, sx.FunctionDef):
                self.locals[st.name] = Local(reads=self._all_reads(r))
            return None
        if isinstance(st, sx.OtherStmt):  # match and anything newer: reads count, may not run
            r = self._reads(st)
            self._emit(
                InitStmtKind.EFFECT,
                st,
                guards,
                True,
                reads=tuple(sorted(self._all_reads(r))),
                passes_self=bool(r.passes_self),
            )
            return None
        return self._small(st, guards, in_loop)

    def _loop_target(self, st: sx.For, r: Reads, in_loop: bool) -> None:
        """What ``for <target> in <iter>`` binds: locals reading what the iterable reads, attribute
        names (``semantics.dynamic``), and loops whose body runs once for every literal name or
        range value (what it removes is removed, what it registers under ``f"n{i}"`` registered)."""
        for n in self._reads(st.target).names:
            self.locals[n] = Local(reads=self._all_reads(r))
            self._alias(n, st.iter, True)
            self.names.pop(n, None)
            self.range_loops.pop(n, None)
        names = loop_names(st.iter, self.self_name)
        if isinstance(st.target, sx.Name) and names is not None:
            self.names[st.target.id] = names
        target = st.target
        # the body runs once per name, for every name: what it removes is removed
        literal = isinstance(target, sx.Name) and names is not None and names[0] == PatternTag.NAMES
        if literal and isinstance(target, sx.Name) and not leaves_early(st.body):
            self.literal_loops[target.id] = in_loop
        bounds = range_bounds(st.iter, self.self_name)
        if bounds is not None and isinstance(target, sx.Name) and not leaves_early(st.body):
            self.range_loops[target.id] = RangeLoop(*bounds, in_loop, range_values(st.iter))

    def _if(self, st: sx.If, guards: Guards, in_loop: bool) -> str | None:
        cond = to_expr(st.test, self.self_name)
        test = self._emit(
            InitStmtKind.EFFECT, st.test, guards, in_loop, reads=tuple(sorted(self._all_reads(self._reads(st.test))))
        )
        ensured = raise_condition(st, cond)
        if ensured is not None:  # the names as they are at the test, before the body rebinds any
            test.ensures, test.roots = ensured, self._roots(*guards, cond)
        start = len(self.out)
        saved = self.after_return
        body_stop = self._block(st.body, (*guards, cond), in_loop)
        mid = len(self.out)
        ret_after_body = self.after_return
        self.after_return = saved
        else_stop = self._block(st.orelse, (*guards, (ExprTag.NOT, cond)), in_loop) if st.orelse else None
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
                self._emit(InitStmtKind.KILL, st, guards, in_loop, attr=attr)
        return None

    def _small(self, st: sx.Stmt, guards: Guards, in_loop: bool) -> str | None:
        if isinstance(st, sx.Return):
            self._emit(InitStmtKind.RETURN, st, guards, in_loop, reads=tuple(sorted(self._all_reads(self._reads(st)))))
            if guards or in_loop:
                self.after_return = True
            return STOP
        if isinstance(st, sx.Raise):
            return STOP
        if isinstance(st, sx.Names):
            if st.scope == sx.NameScope.GLOBAL:
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
                InitStmtKind.ASSERT,
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


def _returns(body: sx.Body) -> bool:
    return any(isinstance(s, sx.Return) for s in body)


def _is_elif(body: sx.Body) -> bool:
    return len(body) == 1 and isinstance(body[0], sx.If) and body[0].is_elif


def _definite(stmts: list[InitStmt], depth: int) -> set[str]:
    return {
        s.attr
        for s in stmts
        if s.kind in (InitStmtKind.ASSIGN, InitStmtKind.KILL) and not s.in_loop and len(s.guards) <= depth and s.attr
    }
