"""Form one skip-flag group per subclass and decide, per ``__init__``, what it can guard.

A group is a subclass S plus the fixable findings it has on its ancestors.  Its
*path* is S's ``__init__`` chain from S up to the highest ancestor that allocates
something dead: that ancestor gets the flag parameter, every class between gains
it and forwards it, S passes ``True``.  Each ancestor that allocates something
dead (the top one and any middle one) guards those statements with the flag.

Attributes are dropped from the group, with the reason, when kept work still needs
them: a statement that stays reads them (directly or through a ``self`` method), a
statement writes them together with something that stays (it cannot be split), or
a later ``__init__`` in the chain reads them before re-assigning them.  Dropping one
attribute can keep the statements it reads alive, so this runs to a fixpoint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import libcst as cst

from deadinit.analysis.analyzer import ClassAnalysis
from deadinit.analysis.fact_records import AttrFact
from deadinit.analysis.fix_safety.fixable import fix_path
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.reads.reach import method_reads
from deadinit.fixes.analyses import PlanAnalyses
from deadinit.fixes.init_units import InitUnit, UnitKind, walk_units
from deadinit.fixes.skip_flag.live import WHOLE, solve
from deadinit.fixes.skip_flag.move import Move, alias_of, destination, movable
from deadinit.fixes.skip_flag.rewrite import Guard
from deadinit.fixes.skip_flag.shape import allocating_units, settled, shape
from deadinit.fixes.skip_flag.source import InitLocator
from deadinit.index.project_index import ProjectIndex
from deadinit.model.finding import Finding
from deadinit.model.kinds import ExprTag, InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.semantics import syntax as sx
from deadinit.semantics.statements import loads

# what makes two groups the same where they meet: the classes above the leaf, the attributes guarded
Signature = tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]
Facts = dict[tuple[str, str], AttrFact]  # (owner, attribute) -> the analysis' fact
Conflicts = dict[tuple[str, str], str]  # (owner, attribute) -> why it cannot be guarded


@dataclass
class Group:
    leaf: str
    findings: list[Finding]
    dead: dict[str, set[str]]  # owner -> attributes still planned
    path: list[str] = field(default_factory=list)  # chain.inits[0 .. top]
    flag: str = ""
    reuse: str | None = None  # an existing flag parameter of the top class the leaf already passes
    param: str | None = None  # a parameter of the top class that already guards the dead statements (guard_param)
    guards: dict[str, Guard] = field(default_factory=dict)  # owner -> its guard
    dropped: Conflicts = field(default_factory=dict)  # (owner, attr) -> reason
    refusal: str | None = None

    @property
    def id(self) -> str:
        return f"skip-flag:{self.leaf}"

    @property
    def top(self) -> str:
        return self.path[-1]

    def signature(self) -> Signature:
        return (tuple(self.path[1:]), tuple(sorted((o, tuple(sorted(a))) for o, a in self.dead.items() if a)))


class GroupBuilder:
    def __init__(
        self, index: ProjectIndex, analyses: PlanAnalyses, inits: InitLocator, flag_re: re.Pattern[str]
    ) -> None:
        self.flag_re = flag_re  # compiled pattern of flag names (``skip_init_\w+``)
        self.index = index
        self.analyses = analyses
        self.inits = inits
        self._closure: dict[tuple[tuple[str, ...], str], set[str]] = {}

    def build(self, leaf: str, findings: list[Finding]) -> Group:
        g = Group(leaf, findings, {})
        for f in findings:
            g.dead.setdefault(f.parent, set()).add(f.attribute)
        an = self.analyses.get(leaf)
        g.refusal = self._path(g, an)
        if g.refusal is None:
            self._solve(g, an)
        return g

    # -- the chain from the subclass to the top allocating ancestor ------------
    def _path(self, g: Group, an: ClassAnalysis | None) -> str | None:
        """The chain the flag travels (``analysis.fixable.fix_path``, which the verdicts read too),
        then what this rewrite needs of its source: each ``__init__`` and call on it found."""
        if an is None:
            return "no analysis for this class"
        found = fix_path(self.index, an.chain, g.dead)
        if found.refusal:
            return found.refusal
        g.path = list(found.path)
        for i, cls in enumerate(g.path):
            if self.inits.init(cls) is None:
                return f"cannot locate {short_name(cls)}.__init__ in {self.index.file_of(cls).path}"
            if i > 0:
                caller, st, _env = an.chain.calls[cls]
                if self.inits.super_call(caller, st.line) is None:
                    return f"cannot locate the super().__init__ call of {short_name(caller)} at line {st.line}"
        top = self.inits.located(g.path[-1])
        _, _, env = an.chain.calls[g.path[-1]]
        bound = [p for p in top.params() if self.flag_re.fullmatch(p) and env.get(p) == (ExprTag.CONST, True)]
        g.reuse = bound[0] if bound else None
        return None

    # -- per-owner guards, to a fixpoint -----------------------------------------
    def _solve(self, g: Group, an: ClassAnalysis | None) -> None:
        assert an is not None  # a group with a path has its analysis (``_path``)
        facts = {(f.owner, f.attr): f for f in an.facts}
        mro = self.index.mro(g.leaf) or [g.leaf]
        for _ in range(1 + sum(len(a) for a in g.dead.values())):
            conflicts: Conflicts = {}
            for owner, attrs in g.dead.items():
                if attrs:
                    g.guards[owner] = self._owner(g, an, owner, attrs, facts, mro, conflicts)
            self._chain_conflicts(g, an, facts, mro, conflicts)
            if not conflicts:
                break
            for key, reason in conflicts.items():
                g.dead[key[0]].discard(key[1])
                g.dropped[key] = reason
        g.guards = {o: gd for o, gd in g.guards.items() if g.dead.get(o)}

        def skipped(
            c: ChainStmt,
        ) -> bool:  # a ``kill`` (both branches assign) no longer holds when one branch is guarded
            gd = g.guards.get(c.owner)
            if gd is None:
                return False
            if c.stmt.kind == InitStmtKind.KILL:
                return gd.live.overlaps(c.stmt.line, c.stmt.end_line)
            return gd.live.covers(c.stmt.line, c.stmt.end_line)

        for gd in g.guards.values():
            gd.settled = settled(an, gd.attrs - set(gd.list_iters), skipped)
        owners = [o for o in g.path if g.dead.get(o)]
        if owners and g.reuse is None:  # ancestors above the last owner left would only take the flag
            g.path = g.path[: g.path.index(owners[-1]) + 1]

    def _owner(
        self,
        g: Group,
        an: ClassAnalysis,
        owner: str,
        attrs: set[str],
        facts: Facts,
        mro: list[str],
        conflicts: Conflicts,
    ) -> Guard:
        src = self.inits.located(owner)
        list_iters, keep = self._lists(g, owner, attrs, conflicts)
        aliases: set[int] = set()
        moves: dict[int, Move] = {}
        for u in src.units if list_iters else ():
            hit = set(u.self_reads) & set(list_iters)
            if not hit or u.kind not in WHOLE:
                continue
            if alias_of(u, src.self_name) in hit:
                aliases.add(id(u.node))
            elif movable(u, src.self_name):
                first = sorted(hit)[0]
                dest = destination(
                    self.inits, self.closure_of, mro, g.path, an, owner, u, first, facts.get((owner, first))
                )
                if isinstance(dest, str):
                    conflicts.setdefault((owner, first), "kept by live work: " + dest)
                else:
                    moves[id(u.node)] = dest
        globs = {n for u in walk_units(src.units) for n in u.globals_declared}
        forbidden = self.inits.module_reads_outside(owner, src, globs) if globs else set()
        done = {id(u.node) for u in walk_units(src.units) if g.reuse and _guarded_by(u, g.reuse)}
        live = solve(src.units, attrs, keep, forbidden, done, set(moves))
        where = f"{short_name(owner)}.__init__"
        for a, ln in live.live_writes.items():
            conflicts.setdefault(
                (owner, a),
                f"{where} line {ln} writes self.{a} in a statement that also does work that stays: it cannot be split",
            )
        inactive = _never_run(an, owner)
        for u in live.live_units:
            if any(u.start <= ln <= u.end for ln in inactive) and not any(
                u.start <= c.stmt.line <= u.end for c in an.chain.stmts if c.owner == owner and c.active is not False
            ):
                continue  # never runs for this class (a guard its chain decides): it reads nothing
            built = tuple(u.self_assigns) + tuple(sorted(u.self_fills))
            for name, ln in u.self_reads.items():
                if id(u.node) in aliases and name in list_iters:
                    continue
                for a in sorted(self.closure(mro, name) & attrs):
                    via = "" if name == a else f" through self.{name}()"
                    what = (
                        f"builds {', '.join('self.' + b for b in built)}, which stays, from self.{a}{via}"
                        if built
                        else f"stays and reads self.{a}{via}"
                    )
                    conflicts.setdefault((owner, a), f"kept by live work: {where} line {ln} {what}")
        for a in attrs:
            f = facts.get((owner, a))
            for c in f.stmts if f else ():
                if not live.covers(c.stmt.line, c.stmt.end_line):
                    conflicts.setdefault(
                        (owner, a),
                        f"{where} line {c.stmt.line} mixes building self.{a} with work that stays: it cannot be split",
                    )
        allocating = allocating_units(self.analyses.analyzer, an, owner, src.units, mro)
        pulls = shape(live, src.units, set(attrs), allocating, set(list_iters))
        return Guard("", live, set(attrs), list_iters, src.by_node, list(moves.values()), pulls=pulls)

    def _lists(
        self, g: Group, owner: str, attrs: set[str], conflicts: Conflicts
    ) -> tuple[dict[str, cst.BaseExpression], set[str]]:
        """Lists a lower class fills element-wise: the loop iterable that gives their length."""
        src = self.inits.located(owner)
        lower = g.path[: g.path.index(owner)]
        items = {a for c in lower for u in walk_units(self.inits.located(c).units) for a in u.self_items}
        assigned = {a for u in walk_units(src.units) for a in u.self_assigns}
        list_iters: dict[str, cst.BaseExpression] = {}
        keep: set[str] = set()
        for a in sorted(attrs & items & assigned):
            found = _list_iter(src.units, a)
            if found is None:
                conflicts[(owner, a)] = (
                    f"{short_name(lower[0])} fills self.{a}[...] element-wise, but the list "
                    f"{short_name(owner)}.__init__ builds has no length that can be reproduced"
                )
                continue
            list_iters[a], iterable = found
            keep |= set(loads(iterable, src.self_name).names)
        return list_iters, keep

    def _chain_conflicts(self, g: Group, an: ClassAnalysis, facts: Facts, mro: list[str], conflicts: Conflicts) -> None:
        events = [c for c in an.chain.stmts if c.active is not False]
        pos = {id(c): i for i, c in enumerate(events)}
        for owner, attrs in g.dead.items():
            for a in attrs:
                f = facts.get((owner, a))
                if f is None or (owner, a) in conflicts:
                    continue
                starts = [pos[id(c)] for c in f.stmts if id(c) in pos]
                if not starts:
                    continue
                end = pos.get(id(f.killer), len(events)) if f.killer is not None else len(events)
                for c in events[min(starts) + 1 : end]:
                    if c.owner == owner or not (self.closure_of(mro, c.stmt.reads) & {a}):
                        continue
                    gd = g.guards.get(c.owner)
                    if gd is not None and gd.live.covers(c.stmt.line, c.stmt.end_line):
                        continue
                    conflicts[(owner, a)] = (
                        f"{short_name(c.owner)}.__init__ line {c.stmt.line} reads self.{a} before it is re-assigned"
                    )
                    break

    def closure(self, mro: list[str], name: str) -> set[str]:
        key = (tuple(mro), name)
        if key not in self._closure:
            r = self.index.resolve_method(mro, name)
            self._closure[key] = {name} if r is None else set(method_reads(self.index, mro, [r], "").reads)
        return self._closure[key]

    def closure_of(self, mro: list[str], names: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for n in names:
            out |= self.closure(mro, n)
        return out


def _list_iter(units: list[InitUnit], attr: str) -> tuple[cst.BaseExpression, sx.Expr] | None:
    """The iterable (libcst and syntax) of the loop or comprehension that builds ``self.attr``
    with one element per item."""
    for u in walk_units(units):
        node, st = u.node, u.statements[0].stmt
        loop = u.kind == UnitKind.LOOP and isinstance(node, cst.For) and isinstance(st, sx.For) and not st.orelse
        if loop and isinstance(node, cst.For) and isinstance(st, sx.For) and u.blocks and not _jumps(st.body):
            body = u.blocks[0]
            top = sum(v.appends.count(attr) for v in body if v.kind in WHOLE)
            nested = sum(w.appends.count(attr) for v in body if v.kind not in WHOLE for w in walk_units([v]))
            if top == 1 and nested == 0:
                return node.iter, st.iter
        if u.kind == UnitKind.LINE and attr in u.self_assigns and isinstance(node, cst.SimpleStatementLine):
            value = getattr(st, "value", None)
            if (
                isinstance(value, sx.Comprehension)
                and value.shape == "list"
                and len(value.generators) == 1
                and not value.generators[0].ifs
            ):
                small = node.body[0]
                assert isinstance(small, (cst.Assign, cst.AnnAssign)) and isinstance(small.value, cst.ListComp)
                return small.value.for_in.iter, value.generators[0].iter
    return None


def _never_run(an: ClassAnalysis, owner: str) -> list[int]:
    """The lines of ``owner``'s ``__init__`` statements that never run on the class (``active`` False)."""
    return [c.stmt.line for c in an.chain.stmts if c.owner == owner and c.active is False]


def _guarded_by(u: InitUnit, flag: str) -> bool:
    """``if not <flag>:``: a block the flag already guards (left as it is)."""
    st = u.statements[0].stmt
    test = st.test if u.kind == UnitKind.IF and isinstance(st, sx.If) else None
    return (
        isinstance(test, sx.UnaryOp)
        and test.op == "not"
        and isinstance(test.operand, sx.Name)
        and test.operand.id == flag
    )


def _jumps(body: sx.Body) -> bool:
    """A ``break`` or ``continue`` of this loop (not of a loop or function nested in it)."""
    stack: list[sx.Node] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Simple) and n.what in (sx.Jump.BREAK, sx.Jump.CONTINUE):
            return True
        if not isinstance(n, (sx.For, sx.While, sx.FunctionDef)):
            stack.extend(n.children())
    return False
