"""``deadinit fix --strategy direct-base``: re-base a subclass that reuses little of its parent.

For each class (``--class``, else every class with a DI003 finding) the reuse
table (``deadinit.analysis.reuse``) names the suggested base and the dropped
ancestors.  The rewrite (``rewrite_class``) then:

1. changes the base that named the old parent to the suggested base;
2. replaces ``super().__init__(...)`` by the dropped ancestors' ``__init__``
   statements that build what the class still needs, in order, parameters
   substituted and literal branches folded (``direct_base.inline``), keeping the
   call of the new base's ``__init__`` where the last dropped ancestor made it;
3. copies the helpers the class still reaches and the class attributes it reads;
4. fixes the imports of the class's module (``direct_base.imports``).

Nothing is written when a blocker is found (``direct_base.checks``): isinstance /
issubclass checks against a dropped class, side effects the class needs, names
that cannot be resolved, ``*args/**kwargs`` forwarding, ``super()`` calls into a
dropped class, or more copied lines than ``max_copy_lines``.  A class whose
parent ``__init__`` builds nothing dead is left alone, so a second run changes
nothing.  ``rewrite_class`` is pure (sources in, new source text out).
"""

from __future__ import annotations

from deadinit.analysis.reuse import compute_reuse
from deadinit.fixes.analyses import PlanAnalyses, project_analyzer, project_index
from deadinit.fixes.direct_base.checks import verify
from deadinit.fixes.direct_base.class_plan import DEFAULT_MAX_COPY_LINES, Outcome
from deadinit.fixes.direct_base.rewrite import rewrite_class
from deadinit.fixes.direct_base.source import ModuleSources
from deadinit.index.project_index import ProjectIndex
from deadinit.model.fix import Change, FilePlan, FixOptions, Plan, Refusal
from deadinit.model.kinds import RefusalKind
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult

STRATEGY = "direct-base"


def targets(result: CheckResult, options: FixOptions) -> list[str]:
    index = project_index(result)
    if options.classes:
        out: list[str] = []
        for want in options.classes:
            hits = sorted(qn for qn in index.classes if qn == want or qn.endswith("." + want))
            out += hits if hits else [want]
        return list(dict.fromkeys(out))
    flagged = {f.cls for f in result.findings if f.code == "DI003"}
    if not any(f.code == "DI003" for f in list(result.findings) + list(result.suppressed)):
        threshold = getattr(options.settings, "di003_threshold", 0.25)
        for an in PlanAnalyses(result).everything():
            r = compute_reuse(index, project_analyzer(result), an.cls, threshold, an=an)
            if r is not None and r.flagged:
                flagged.add(an.cls)
    return sorted(flagged)


def max_copy_lines(options: FixOptions) -> int:
    for obj in (options, getattr(options, "settings", None)):
        v = getattr(obj, "max_copy_lines", None) or getattr(obj, "direct_base_max_lines", None)
        if v:
            return int(v)
    return DEFAULT_MAX_COPY_LINES


def plan(result: CheckResult, options: FixOptions) -> Plan:
    out_plan = Plan()
    sources = ModuleSources(project_index(result))
    settings = getattr(result.analyzer, "settings", None) or options.settings
    touched: set[str] = set()
    for cls in targets(result, options):
        cid = f"{STRATEGY}:{cls}"
        if cid in getattr(options, "exclude", ()):
            continue
        out = rewrite_class(result, cls, max_copy_lines(options), sources)
        r = out.reuse
        parent = r.parent if r is not None else ""
        if out.nothing_to_do:
            out_plan.refusals.append(Refusal(cls, parent, [], out.nothing_to_do, [], RefusalKind.NOT_FIXABLE))
            continue
        if out.blockers:
            out_plan.refusals.append(
                Refusal(cls, parent, out.dropped_attrs, "; ".join(out.blockers), [], RefusalKind.REFUSED)
            )
            continue
        if out.path in touched:
            out_plan.refusals.append(
                Refusal(
                    cls,
                    parent,
                    [],
                    f"another class of {out.path} is re-based in this run: run again",
                    [],
                    RefusalKind.REFUSED,
                )
            )
            continue
        problems = verify(result, out, settings, findings=False)
        if problems:
            out_plan.refusals.append(
                Refusal(cls, parent, out.dropped_attrs, "; ".join(problems), [], RefusalKind.UNSAFE_REWRITE)
            )
            continue
        touched.add(out.path)
        assert r is not None  # a class with something to do has its reuse table
        keys = [
            f.key
            for f in list(result.findings) + list(result.unsure)
            if f.cls == cls and f.code in ("DI001", "DI002", "DI003")
        ]
        out_plan.files.append(FilePlan(out.path, out.old.encode(), out.new.encode(), out.regions, [cid]))
        own = _own_attrs(project_index(result), cls)
        allocations = {a.attr for a in r.attrs if a.allocation}
        out_plan.changes.append(
            Change(
                id=cid,
                strategy=STRATEGY,
                cls=cls,
                file=out.path,
                findings=keys,
                attributes=[a for a in out.dropped_attrs if a not in own],
                overwritten=[a for a in out.dropped_attrs if a in own],
                files=[out.path],
                parents=list(r.dropped),
                estimated_bytes=r.dead_bytes,
                unknown_sizes=sum(1 for a in r.dead_allocations if a.bytes is None),
                reads=[a for a in out.kept_attrs if a in allocations],
                new_bases=out.new_bases,
                removed_bases=out.removed_bases,
                notes=notes(out),
            )
        )
    return out_plan


def notes(out: Outcome) -> list[str]:
    r = out.reuse
    assert r is not None  # a rewrite's outcome
    base = "object" if r.suggestion == "object" else short_name(r.suggestion)
    lines = [
        f"base {short_name(r.parent)} -> {base}",
        f"new_bases: {', '.join(out.new_bases) or 'object'}; removed_bases: {', '.join(out.removed_bases)}",
        f"copied {out.copied_lines} lines",
    ]
    if out.copied_methods:
        lines.append("helpers copied: " + ", ".join(f"{m} ({n} lines)" for m, n in out.copied_methods))
    if out.copied_class_attrs:
        lines.append("class attributes copied: " + ", ".join(out.copied_class_attrs))
    lines += [f"dropped side effect: {e}" for e in out.dropped_effects]
    return lines


def _own_attrs(index: ProjectIndex, cls: str) -> set[str]:
    """Attributes the class sets itself (its ``__init__``, its methods)."""
    k = index.classes[cls]
    out = set(k.class_attrs)
    for m in k.methods.values():
        out |= {a for a, _l, _c in m.writes}
    return out
