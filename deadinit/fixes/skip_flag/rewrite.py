"""The libcst rewrite of one ``__init__``: guard dead runs, add the flag, pass it on.

Dead statements are guarded in maximal runs of consecutive statements that are
dead for the same flags; a run's first statement gives its leading comments and
blank lines to the new ``if``.  The ``else:`` sets every attribute the run
assigns to ``None`` (or, for a list the subclass later fills element-wise, to
``[None for _ in <the parent's loop iterable>]``), so the attribute always exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import libcst as cst
from libcst.metadata import CodeRange

from deadinit.fixes.init_units import InitUnit, UnitKind, walk_units
from deadinit.fixes.skip_flag.layout import fit_call, fit_params
from deadinit.fixes.skip_flag.live import Liveness
from deadinit.fixes.skip_flag.move import Move

Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement  # what a block of an ``__init__`` holds
Position = Callable[[cst.CSTNode], CodeRange]  # a node's range in the file
Run = list[tuple[Statement, Statement]]  # statements dead for the same flags: (as they were, as rewritten)
_Element = TypeVar("_Element", cst.Arg, cst.Param)


@dataclass
class Guard:
    flag: str
    live: Liveness
    attrs: set[str]
    list_iters: dict[str, cst.BaseExpression] = field(default_factory=dict)  # attr -> iterable of the loop building it
    units: dict[int, InitUnit] = field(default_factory=dict)  # id(node) -> InitUnit, for the else branch
    moves: list[Move] = field(default_factory=list)  # statements moved into the subclass
    settled: set[str] = field(default_factory=set)  # attributes set on every path without the guarded code
    # id(first statement of a run) -> locals moved to its start
    pulls: dict[int, list[InitUnit]] = field(default_factory=dict)


@dataclass
class FunctionEdit:
    cls: str
    self_name: str = "self"
    add_params: list[str] = field(default_factory=list)  # flags to add as parameters
    # (flag, value source) for the super().__init__ call
    call_kwargs: list[tuple[str, str]] = field(default_factory=list)
    call_node: cst.Call | None = None
    guards: list[Guard] = field(default_factory=list)
    inserts: dict[int, list[Statement]] = field(default_factory=dict)  # id(statement) -> statements to add after it


_EMPTY = cst.Module(body=[])


def _code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


class _Rebuild:
    def __init__(self, edit: FunctionEdit, pos: Position) -> None:
        self.e = edit
        self.pos = pos
        self.regions: list[tuple[int, int]] = []

    def block(self, stmts: Sequence[cst.BaseStatement]) -> list[Statement]:
        out: list[Statement] = []
        run: Run = []
        run_flags: frozenset[str] = frozenset()
        pulled: set[int] = set()
        for st in self.pulled(_statements(stmts), pulled):
            full = frozenset(g.flag for g in self.e.guards if id(st) in g.live.dead or id(st) in pulled)
            inner = [g for g in self.e.guards if id(st) in g.live.mixed and g.flag not in full]
            new = self.inside(st, inner) if inner else st
            if full != run_flags:
                self.flush(out, run, run_flags)
                run, run_flags = [], full
            run.append((st, new))
            if id(st) in self.e.inserts:
                self.flush(out, run, run_flags)
                run, run_flags = [], frozenset()
                out.extend(self.e.inserts[id(st)])
                end = self.pos(st).end.line
                self.regions.append((end, end))
        self.flush(out, run, run_flags)
        return out

    def pulled(self, stmts: list[Statement], moved: set[int]) -> list[Statement]:
        """``stmts`` with the locals a later guard takes moved to its start (one guard in the function:
        with several, runs split by flags could leave a moved local outside every guard); ``moved``
        gets the id of each one moved."""
        if len(self.e.guards) != 1 or not self.e.guards[0].pulls:
            return stmts
        pulls = self.e.guards[0].pulls
        here = {id(st) for st in stmts}
        moved |= {id(u.node) for target, us in pulls.items() if target in here for u in us}
        out: list[Statement] = []
        for st in stmts:
            if id(st) in moved:
                continue
            out.extend(_statements([u.node for u in pulls.get(id(st), ())]))
            out.append(st)
        return out

    def flush(self, out: list[Statement], run: Run, flags: frozenset[str]) -> None:
        if not run:
            return
        if not flags:
            out.extend(new for _, new in run)
            return
        first_old = run[0][0]
        lead = list(first_old.leading_lines)
        start = self.pos(first_old).start.line - len(lead)
        self.regions.append((start, self.pos(run[-1][0]).end.line))
        guards = [g for g in self.e.guards if g.flag in flags]
        names = sorted(flags, key=[g.flag for g in self.e.guards].index)
        attrs = self.missing(run, guards)
        extended = None if attrs else extend_condition(run, guards, names)
        if extended is not None:
            out.extend(extended)
            return
        test = f"not {names[0]}" if len(names) == 1 else "not (" + " or ".join(names) + ")"
        body = [run[0][1].with_changes(leading_lines=[])] + [new for _, new in run[1:]]
        orelse: cst.Else | None = None
        if attrs:
            lines = [self.else_value(a, guards) for a in attrs]
            orelse = cst.Else(body=cst.IndentedBlock(body=[cst.parse_statement(s) for s in lines]))
            if _code(cst.IndentedBlock(body=body)) == _code(orelse.body):  # a guard that changes nothing
                out.extend(new for _, new in run)
                return
        out.append(
            cst.If(
                test=cst.parse_expression(test), body=cst.IndentedBlock(body=body), orelse=orelse, leading_lines=lead
            )
        )

    def missing(self, run: Run, guards: list[Guard]) -> list[str]:
        """The attributes the run assigns that would be missing when it is skipped: set to None in ``else``."""
        attrs: list[str] = []
        for old, _ in run:
            unit = next((g.units[id(old)] for g in guards if id(old) in g.units), None)
            for v in walk_units([unit]) if unit else ():
                attrs.extend(
                    a
                    for a in v.self_assigns
                    if a not in attrs and any(a in g.attrs and a not in g.settled for g in guards)
                )
        return attrs

    def else_value(self, attr: str, guards: list[Guard]) -> str:
        for g in guards:
            it = g.list_iters.get(attr)
            if it is not None:
                return f"{self.e.self_name}.{attr} = [None for _ in {_code(it).strip()}]\n"
        return f"{self.e.self_name}.{attr} = None\n"

    def inside(self, st: Statement, guards: list[Guard]) -> Statement:
        saved = self.e.guards
        self.e.guards = guards
        try:
            return self._inside(st)
        finally:
            self.e.guards = saved

    def _suite(self, suite: cst.BaseSuite) -> cst.BaseSuite:
        if isinstance(suite, cst.IndentedBlock):
            return suite.with_changes(body=self.block(suite.body))
        return suite

    def _inside(self, st: Statement) -> Statement:
        if isinstance(st, cst.If):
            orelse: cst.If | cst.Else | None = st.orelse
            if isinstance(orelse, cst.If):
                if any(id(orelse) in g.live.mixed for g in self.e.guards):
                    inner = self._inside(orelse)
                    assert isinstance(inner, cst.If)  # an ``elif`` stays one
                    orelse = inner
            elif orelse is not None:
                orelse = orelse.with_changes(body=self._suite(orelse.body))
            return st.with_changes(body=self._suite(st.body), orelse=orelse)
        if isinstance(st, (cst.For, cst.While)):
            orelse = st.orelse.with_changes(body=self._suite(st.orelse.body)) if st.orelse else None
            return st.with_changes(body=self._suite(st.body), orelse=orelse)
        if isinstance(st, cst.With):
            return st.with_changes(body=self._suite(st.body))
        if isinstance(st, (cst.Try, cst.TryStar)):
            old: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = st.handlers
            handlers = [h.with_changes(body=self._suite(h.body)) for h in old]
            orelse = st.orelse.with_changes(body=self._suite(st.orelse.body)) if st.orelse else None
            final = st.finalbody.with_changes(body=self._suite(st.finalbody.body)) if st.finalbody else None
            return st.with_changes(body=self._suite(st.body), handlers=handlers, orelse=orelse, finalbody=final)
        return st


def _statements(nodes: Sequence[cst.CSTNode]) -> list[Statement]:
    """The statements of a block (libcst's only kinds of statement)."""
    out: list[Statement] = []
    for n in nodes:
        assert isinstance(n, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        out.append(n)
    return out


def extend_condition(run: Run, guards: list[Guard], names: list[str]) -> list[Statement] | None:
    """``if <test> and not <flag>:`` for a run that is one ``if`` without ``else`` (after the locals
    its test reads, which stay as they are), else None."""
    units = [next((g.units[id(old)] for g in guards if id(old) in g.units), None) for old, _ in run]
    *locals_, last = units
    node = run[-1][0]
    if last is None or last.kind != UnitKind.IF or not last.can_wrap or not isinstance(node, cst.If) or node.orelse:
        return None
    if any(
        u is None or u.kind != UnitKind.LINE or u.self_assigns or u.self_fills or u.untracked_writes for u in locals_
    ):
        return None
    flag = names[0] if len(names) == 1 else "(" + " or ".join(names) + ")"
    test = node.test
    inner = test.with_changes(lpar=[], rpar=[])
    if isinstance(inner, (cst.IfExp, cst.Lambda, cst.NamedExpr)) or (
        isinstance(inner, cst.BooleanOperation) and isinstance(inner.operator, cst.Or)
    ):
        inner = inner.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    new_test = cst.BooleanOperation(
        left=inner, operator=cst.And(), right=cst.parse_expression(f"not {flag}"), lpar=test.lpar, rpar=test.rpar
    )
    return [new for _, new in run[:-1]] + [node.with_changes(test=new_test)]


def _with_comma_after(elements: list[_Element], i: int, template: object) -> list[_Element]:
    """Give ``elements[i]`` a comma copied from ``template`` (or ``, ``)."""
    comma = template if isinstance(template, cst.Comma) else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    elements[i] = elements[i].with_changes(comma=comma)
    return elements


def _append(elements: list[_Element], new: _Element) -> list[_Element]:
    """Append ``new`` keeping the layout: a trailing comma stays trailing, and the
    whitespace before the closing parenthesis moves to the new last element."""
    if not elements:
        return [new]
    ws = "whitespace_after_arg" if isinstance(new, cst.Arg) else "whitespace_after_param"
    elements = list(elements)
    last = elements[-1]
    prev = elements[-2] if len(elements) > 1 else None
    new = new.with_changes(**{ws: getattr(last, ws)})
    last = last.with_changes(**{ws: getattr(prev, ws) if prev is not None else cst.SimpleWhitespace("")})
    template: object  # the comma the old last element gets (``_with_comma_after``)
    if isinstance(last.comma, cst.Comma):  # trailing comma: the new element takes it
        new = new.with_changes(comma=last.comma)
        template = prev.comma if prev is not None and isinstance(prev.comma, cst.Comma) else last.comma
    else:
        template = prev.comma if prev is not None else None
    elements[-1] = last
    out = _with_comma_after(elements, len(elements) - 1, template)
    out.append(new)
    return out


def add_param(params: cst.Parameters, flag: str) -> cst.Parameters:
    """``flag: bool = False`` as the last parameter that can be passed by keyword."""
    new = cst.Param(
        name=cst.Name(flag),
        annotation=cst.Annotation(cst.Name("bool")),
        default=cst.Name("False"),
        equal=cst.AssignEqual(cst.SimpleWhitespace(" "), cst.SimpleWhitespace(" ")),
    )
    star = params.star_arg if isinstance(params.star_arg, (cst.Param, cst.ParamStar)) else None
    kw = list(params.kwonly_params)
    if params.star_kwarg is not None:  # ``..., new, **kwargs``: new takes the comma before **kwargs
        before = kw[-1] if kw else (star if star is not None else params.params[-1])
        new = new.with_changes(comma=before.comma)
        if star is None:
            return params.with_changes(params=[*params.params, new])
        return params.with_changes(kwonly_params=[*kw, new])
    if kw:
        return params.with_changes(kwonly_params=_append(kw, new))
    if star is not None:
        if not isinstance(star.comma, cst.Comma):
            star = star.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return params.with_changes(star_arg=star, kwonly_params=[new])
    return params.with_changes(params=_append(list(params.params), new))


def add_kwarg(call: cst.Call, flag: str, value: str) -> cst.Call:
    new = cst.Arg(
        keyword=cst.Name(flag),
        value=cst.Name(value),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    args = list(call.args)
    if args and args[-1].star == "**":
        before = args[-2] if len(args) > 1 else None
        new = new.with_changes(
            comma=before.comma
            if before is not None and isinstance(before.comma, cst.Comma)
            else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
        return call.with_changes(args=[*args[:-1], new, args[-1]])
    return call.with_changes(args=_append(args, new))


class _CallEdit(cst.CSTTransformer):
    def __init__(self, target: cst.Call, kwargs: list[tuple[str, str]], fit: Callable[[cst.Call], cst.Call]) -> None:
        self.target = target
        self.kwargs = kwargs
        self.fit = fit

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if original is self.target:
            for flag, value in self.kwargs:
                updated = add_kwarg(updated, flag, value)
            updated = self.fit(updated)
        return updated


def rewrite_function(
    func: cst.FunctionDef, edit: FunctionEdit, pos: Position, limit: int = 88, indent: str = "    "
) -> tuple[cst.FunctionDef, list[tuple[int, int]]]:
    """The rewritten function and the line ranges of the original it changes."""
    rb = _Rebuild(edit, pos)
    regions: list[tuple[int, int]] = []
    new = func
    if (edit.guards or edit.inserts) and isinstance(func.body, cst.IndentedBlock):
        new = new.with_changes(body=func.body.with_changes(body=rb.block(func.body.body)))
        regions += rb.regions
    if edit.call_kwargs and edit.call_node is not None:
        col = pos(edit.call_node).start.column
        visited = new.visit(_CallEdit(edit.call_node, edit.call_kwargs, lambda c: fit_call(c, col, limit, indent)))
        assert isinstance(visited, cst.FunctionDef)  # only the call changes
        new = visited
        r = pos(edit.call_node)
        regions.append((r.start.line, r.end.line))
    for flag in edit.add_params:
        new = new.with_changes(params=add_param(new.params, flag))
    if edit.add_params:
        new = fit_params(new, pos(func).start.column, limit, indent)
        r = pos(func.params) if func.params.params else pos(func)
        regions.append((r.start.line, r.end.line + 1))
    return new, regions
