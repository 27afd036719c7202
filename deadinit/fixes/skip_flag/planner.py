"""``deadinit fix --strategy skip-flag``: stop a parent from building what a subclass never uses.

For every subclass S with fixable DI001/DI002 findings:

* the highest ancestor P whose ``__init__`` allocates something dead gets a parameter
  ``skip_init_<name>: bool = False`` (``<name>`` is the dead attribute the others are
  built from, e.g. the workspace; ``--flag-name`` overrides).  Its dead statements are
  guarded by ``if not skip_init_<name>:``; the ``else:`` sets each skipped attribute to
  ``None`` so that it always exists;
* every class between S and P gains the same parameter and forwards it, and guards
  its own allocations that S never uses with it;
* S passes ``skip_init_<name>=True`` to ``super().__init__``.  Every other subclass
  keeps today's behaviour (the default is False).

**Groups.**  One group per subclass.  Subclasses whose paths and dead sets are equal
share one flag; a subclass with a different dead set on the same parent gets its
own flag (``_2``, ``_3``... when the derived names clash), and a statement dead for
several flags is guarded by ``if not (a or b):``.  Findings reported once on a
class and listed for its subclasses (``extra["subclasses"]``) are fixed once, on
that class: its subclasses inherit the flag it passes.

**Reuse.**  When S already passes a ``skip_init_*`` flag to P, that flag is
extended to the newly found dead statements instead of adding a second one.

**Lists replaced element-wise** (speculative draft backends: the parent appends one
backend per step, the subclass assigns ``self.attn_backends[i] = ...``): the
guarded parent builds ``self.attn_backends = [None for _ in <the same iterable>]``
so the subclass's element-wise assignment still works and the list keeps its length.

**Not fixed, with the reason**: findings whose verdict (``analysis.verdicts``,
``analysis.fix_safety.fixable``) says no fix can be made (``fix_safety == "none"``: an overwritten value
a live attribute was built from, a chain a flag cannot travel, a statement that stays and
reads it...), and unsafe ones without ``--unsafe-fixes``, each with the reason check gives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import libcst as cst

from deadinit.fixes.analyses import PlanAnalyses, project_index
from deadinit.fixes.formatter import style_for
from deadinit.fixes.registry import STRATEGY_CODES
from deadinit.fixes.skip_flag.groups import Group, GroupBuilder, Signature
from deadinit.fixes.skip_flag.guard_param import guard_parameter
from deadinit.fixes.skip_flag.rewrite import FunctionEdit, rewrite_function
from deadinit.fixes.skip_flag.source import InitLocator
from deadinit.model.finding import Finding
from deadinit.model.fix import Change, FilePlan, FixOptions, Plan, Refusal
from deadinit.model.kinds import FixSafety, InitStmtKind, RefusalKind
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult

STRATEGY = "skip-flag"
CODES = STRATEGY_CODES["skip-flag"]


def plan(result: CheckResult, options: FixOptions) -> Plan:
    return _Planner(result, options).run()


def class_matches(qualname: str, wanted: Iterable[str]) -> bool:
    return not wanted or any(qualname == w or qualname.endswith("." + w) for w in wanted)


class _Planner:
    def __init__(self, result: CheckResult, options: FixOptions) -> None:
        self.result = result
        self.o = options
        self.index = project_index(result)
        self.analyses = PlanAnalyses(result)
        self.inits = InitLocator(self.index)
        tpl = options.settings.flag_name_template
        self.flag_re = re.compile(re.escape(tpl).replace(re.escape("{name}"), r"\w+"))
        self.plan = Plan()

    def refuse(self, f: Finding, reason: str, kind: RefusalKind = RefusalKind.REFUSED) -> None:
        self.plan.refusals.append(Refusal(f.cls, f.parent, [f.attribute], reason, [f.key], kind))

    def run(self) -> Plan:
        wanted = {c.upper() for c in self.o.select}
        cands: dict[str, list[Finding]] = {}
        for f in self.result.findings:
            if f.code not in CODES or (wanted and f.code not in wanted and f.name.upper() not in wanted):
                continue
            if not class_matches(f.cls, self.o.classes):
                continue
            if f.fix_safety == FixSafety.NONE:
                self.refuse(f, kept_reason(f), RefusalKind.NOT_FIXABLE)
            elif f.fix_safety == FixSafety.UNSAFE and not self.o.unsafe_fixes:
                self.refuse(f, unsafe_reason(f), RefusalKind.UNSAFE)
            elif f.fix_safety == FixSafety.SAFE and f.verdict is not None and f.verdict.deferred:
                self.refuse(f, f.fix_text, RefusalKind.NOT_WORTH_IT)
            else:
                cands.setdefault(f.cls, []).append(f)
        builder = GroupBuilder(self.index, self.analyses, self.inits, self.flag_re)
        groups: list[Group] = []
        for leaf in sorted(cands):
            g = builder.build(leaf, cands[leaf])
            if g.id in self.o.exclude:
                continue
            for f in g.findings:
                if g.refusal:
                    self.refuse(f, g.refusal)
                elif (f.parent, f.attribute) in g.dropped:
                    self.refuse(f, g.dropped[(f.parent, f.attribute)])
            if not g.refusal and g.guards:
                g.param = guard_parameter(self.index, self.inits, g, self.analyses[leaf])
                unbindable = self._unbindable_callee(g)
                if unbindable:
                    for f in g.findings:
                        self.refuse(f, unbindable)
                    continue
                groups.append(g)
        self.name(groups)
        self.rewrite(self.edits(groups))
        self.plan.changes = [self.change(g) for g in groups if g.id in self._touched]
        return self.plan

    def _unbindable_callee(self, g: Group) -> str | None:
        """Why adding the flag to the chain's ``__init__`` signatures could change behaviour: some call
        reaching one of them cannot bind today (DI004), and a new parameter might let it bind."""
        if g.param:
            return None
        for an in self.analyses.broken():  # the analysis, not the findings: a suppressed DI004 still counts
            broken = an.chain.broken
            if broken is not None and broken[2] in g.path[1:]:
                return (
                    f"{short_name(broken[0])} calls {short_name(broken[2])}.__init__ with arguments it cannot take "
                    f"(DI004): a new parameter could make that call bind"
                )
        return None

    # -- flag names ---------------------------------------------------------
    def name(self, groups: list[Group]) -> None:
        taken: dict[tuple[str, str], Signature] = {}  # (class, flag) -> group signature
        tpl = self.o.settings.flag_name_template
        for g in sorted(groups, key=lambda g: (-len(g.path), g.leaf)):
            if g.reuse or g.param:
                g.flag = g.reuse or g.param or ""
                continue
            base = self.o.flag_name or tpl.format(name=flag_word(root_attr(g)))
            name, k = base, 2
            while not self._free(g, name, taken):
                name, k = f"{base}_{k}", k + 1
            g.flag = name
            for c in g.path[1:]:
                taken[(c, name)] = g.signature()

    def _free(self, g: Group, name: str, taken: dict[tuple[str, str], Signature]) -> bool:
        for c in g.path[1:]:
            other = taken.get((c, name))
            if other is not None and other != g.signature():
                return False
            src = self.inits.located(c)
            written = {n for u in src.walk() for n in u.names_bound}
            if other is None and (name in src.params() or name in written):
                return False
        return True

    # -- edits per __init__ ---------------------------------------------------
    def edits(self, groups: list[Group]) -> dict[str, FunctionEdit]:
        edits: dict[str, FunctionEdit] = {}

        def edit(cls: str) -> FunctionEdit:
            if cls not in edits:
                edits[cls] = FunctionEdit(cls, self.inits.located(cls).self_name)
            return edits[cls]

        self._owners: dict[str, set[str]] = {}
        for g in groups:
            an = self.analyses[g.leaf]
            if g.param:  # the parent's own switch: only the subclass's call changes
                e = edit(g.leaf)
                e.call_node = self.inits.super_call(g.leaf, an.chain.calls[g.top][1].line)
                e.call_kwargs.append((g.param, "False"))
                self._owners.setdefault(g.leaf, set()).add(g.id)
                continue
            for owner, guard in g.guards.items():
                guard.flag = g.flag
                e = edit(owner)
                if all(x.flag != g.flag for x in e.guards):
                    e.guards.append(guard)
                    for cls, after, stmt in guard.moves:
                        lead = [
                            ln.with_changes(comment=cst.Comment(ln.comment.value.replace("<flag>", g.flag)))
                            if ln.comment is not None
                            else ln
                            for ln in stmt.leading_lines
                        ]
                        stmt = stmt.with_changes(leading_lines=lead)
                        edit(cls).inserts.setdefault(id(after), []).append(stmt)
                self._owners.setdefault(owner, set()).add(g.id)
            for i, cls in enumerate(g.path):
                e = edit(cls)
                self._owners.setdefault(cls, set()).add(g.id)
                if i > 0 and g.flag not in self.inits.located(cls).params() and g.flag not in e.add_params:
                    e.add_params.append(g.flag)
                if i + 1 < len(g.path):
                    _, st, _env = an.chain.calls[g.path[i + 1]]
                    value = "True" if i == 0 else g.flag
                    passed = g.flag in {k for k, _ in st.kwargs}
                    if not passed and all(k != g.flag for k, _ in e.call_kwargs):
                        e.call_node = self.inits.super_call(cls, st.line)
                        e.call_kwargs.append((g.flag, value))
        return edits

    def rewrite(self, edits: dict[str, FunctionEdit]) -> None:
        by_file: dict[str, list[FunctionEdit]] = {}
        for cls, e in edits.items():
            if e.guards or e.add_params or e.call_kwargs or e.inserts:
                by_file.setdefault(self.index.file_of(cls).path, []).append(e)
        self._touched: set[str] = set()
        self._files: dict[str, set[str]] = {}
        for path, es in sorted(by_file.items()):
            source = self.inits.source(path)
            repl: dict[int, cst.FunctionDef] = {}
            regions: list[tuple[int, int]] = []
            ids: set[str] = set()
            for e in es:
                src = self.inits.located(e.cls)
                where = self.inits.parsed(src.func)
                new, regs = rewrite_function(
                    src.func, e, where.code_range, style_for(path).line_length, where.module.default_indent
                )
                repl[id(src.func)] = new
                regions += regs
                ids |= self._owners.get(e.cls, set())
            new_source = self.inits.rewritten(path, repl)
            if new_source == source:
                continue
            self.plan.files.append(FilePlan(path, source, new_source, sorted(regions), sorted(ids)))
            self._touched |= ids
            for i in ids:
                self._files.setdefault(i, set()).add(path)

    # -- report records ---------------------------------------------------------
    def change(self, g: Group) -> Change:
        an = self.analyses[g.leaf]
        fixed = [f for f in g.findings if f.attribute in g.dead.get(f.parent, ())]
        unread = _uniq(f.attribute for f in fixed if f.code == "DI002")
        over = _uniq(f.attribute for f in fixed if f.code == "DI001")
        skipped = set(unread) | set(over)
        reads = sorted(
            a
            for a in an.live
            if a not in skipped
            and any(
                c.owner != g.leaf
                and c.stmt.kind == InitStmtKind.ASSIGN
                and c.stmt.attr == a
                and c.stmt.alloc is not None
                and c.active is not False
                for c in an.chain.stmts
            )
        )
        if g.param:
            notes = [
                f"passes {g.param}=False to {short_name(g.top)}.__init__: its own parameter already guards "
                f"{', '.join('self.' + a for a in sorted(g.dead[g.top]))}, so no new flag is added"
            ]
            return self._record(g, fixed, unread, over, reads, notes)
        notes = [f"{short_name(o)}.__init__ guarded by `if not {g.flag}:`" for o in g.guards]
        notes += [
            f"`{cst.Module([]).code_for_node(st.with_changes(leading_lines=[])).strip()}` moved from "
            f"{short_name(o)}.__init__ into {short_name(cls)}.__init__, after it refills the list"
            for o, gd in g.guards.items()
            for cls, _, st in gd.moves
        ]
        notes += [f"{short_name(c)}.__init__ forwards {g.flag}" for c in g.path[1:] if c not in g.guards]
        return self._record(g, fixed, unread, over, reads, notes)

    def _record(
        self, g: Group, fixed: list[Finding], unread: list[str], over: list[str], reads: list[str], notes: list[str]
    ) -> Change:
        sizes = [f.estimated_bytes for f in fixed]
        return Change(
            id=g.id,
            strategy=STRATEGY,
            cls=g.leaf,
            file=self.index.file_of(g.leaf).path,
            attributes=unread,
            findings=[f.key for f in fixed],
            overwritten=over,
            files=sorted(self._files.get(g.id, ())),
            flag=g.flag,
            parents=list(g.path[1:]),
            estimated_bytes=sum(s for s in sizes if s) or (0 if any(s is not None for s in sizes) else None),
            unknown_sizes=sum(1 for s in sizes if s is None),
            reads=reads,
            notes=notes,
        )


def _uniq(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def root_attr(g: Group) -> str:
    """The dead attribute the others are built from (the workspace), else the first one."""
    dead = {a for attrs in g.dead.values() for a in attrs}
    order = {o: i for i, o in enumerate(g.path)}

    def key(f: Finding) -> tuple[int, bool, int, int, str]:
        feeds = set(f.extra.get("feeds") or ()) & dead
        return (-len(feeds), f.code != "DI001", -order.get(f.parent, 0), f.line, f.attribute)

    return min((f for f in g.findings if f.attribute in g.dead.get(f.parent, ())), key=key).attribute


def flag_word(attr: str) -> str:
    """The attribute as a word of a flag name: no leading or doubled underscores (``_x`` gives
    ``skip_init_x``, a name-mangled ``_Cls__x`` gives ``skip_init_x``)."""
    word = re.sub(r"^_[A-Za-z0-9]+__(?=[A-Za-z0-9])", "", attr) if attr.startswith("_") and "__" in attr else attr
    return re.sub("_+", "_", word).strip("_") or "attr"


def kept_reason(f: Finding) -> str:
    """The reason the analysis gives (``Finding.fix_text``): the fix prints what check prints."""
    return f.fix_text or "not fixable: the analysis marks this finding as not fixable"


def unsafe_reason(f: Finding) -> str:
    return f"{f.fix_text or 'unsafe fix: it may change behaviour'}; use --unsafe-fixes"
