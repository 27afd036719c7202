"""Turn direct-base rewrites into the shared ``Plan`` records (``deadinit.model.fix``)."""

from __future__ import annotations

import dataclasses

from deadinit.analysis.reach import short
from deadinit.fixes.direct_base.checks import verify
from deadinit.fixes.direct_base.source import Sources
from deadinit.model.fix import Change, FilePlan, Plan, Refusal

STRATEGY = "direct-base"


def targets(result, options) -> list[str]:
    if options.classes:
        out = []
        for want in options.classes:
            hits = sorted(qn for qn in result.index.classes if qn == want or qn.endswith("." + want))
            out += hits if hits else [want]
        return list(dict.fromkeys(out))
    flagged = {f.cls for f in result.findings if f.code == "DI003"}
    if not any(f.code == "DI003" for f in list(result.findings) + list(result.suppressed)):
        from deadinit.analysis.reuse import compute_reuse

        threshold = getattr(options.settings, "di003_threshold", 0.25)
        for an in result.analyses:
            r = compute_reuse(result.index, result.analyzer, an.cls, threshold, an=an)
            if r is not None and r.flagged:
                flagged.add(an.cls)
    return sorted(flagged)


def max_copy_lines(options) -> int:
    from deadinit.fixes.direct_base.planner import DEFAULT_MAX_COPY_LINES

    for obj in (options, getattr(options, "settings", None)):
        v = getattr(obj, "max_copy_lines", None) or getattr(obj, "direct_base_max_lines", None)
        if v:
            return int(v)
    return DEFAULT_MAX_COPY_LINES


def make_plan(result, options) -> Plan:
    from deadinit.fixes.direct_base.planner import rewrite_class

    plan = Plan()
    sources = Sources(result.index)
    settings = getattr(result.analyzer, "settings", None) or options.settings
    touched: set = set()
    for cls in targets(result, options):
        cid = f"{STRATEGY}:{cls}"
        if cid in getattr(options, "exclude", ()):
            continue
        out = rewrite_class(result, cls, max_copy_lines(options), sources)
        r = out.reuse
        parent = r.parent if r is not None else ""
        if out.nothing_to_do:
            plan.refusals.append(Refusal(cls, parent, [], out.nothing_to_do, [], "not-fixable"))
            continue
        if out.blockers:
            plan.refusals.append(Refusal(cls, parent, out.dropped_attrs, "; ".join(out.blockers), [], "refused"))
            continue
        if out.path in touched:
            plan.refusals.append(
                Refusal(
                    cls, parent, [], f"another class of {out.path} is re-based in this run: run again", [], "refused"
                )
            )
            continue
        problems = verify(result, out, settings, findings=False)
        if problems:
            plan.refusals.append(Refusal(cls, parent, out.dropped_attrs, "; ".join(problems), [], "unsafe-rewrite"))
            continue
        touched.add(out.path)
        keys = [
            f.key
            for f in list(result.findings) + list(result.unsure)
            if f.cls == cls and f.code in ("DI001", "DI002", "DI003")
        ]
        plan.files.append(FilePlan(out.path, out.old.encode(), out.new.encode(), out.regions, [cid]))
        own = _own_attrs(result.index, cls)
        allocations = {a.attr for a in r.attrs if a.allocation}
        extra = {
            k: v
            for k, v in (("new_bases", out.new_bases), ("removed_bases", out.removed_bases))
            if k in {f.name for f in dataclasses.fields(Change)}
        }  # once model.Change has them
        plan.changes.append(
            Change(
                **extra,
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
                notes=notes(out),
            )
        )
    return plan


def notes(out) -> list[str]:
    r = out.reuse
    base = "object" if r.suggestion == "object" else short(r.suggestion)
    lines = [
        f"base {short(r.parent)} -> {base}",
        f"new_bases: {', '.join(out.new_bases) or 'object'}; removed_bases: {', '.join(out.removed_bases)}",
        f"copied {out.copied_lines} lines",
    ]
    if out.copied_methods:
        lines.append("helpers copied: " + ", ".join(f"{m} ({n} lines)" for m, n in out.copied_methods))
    if out.copied_class_attrs:
        lines.append("class attributes copied: " + ", ".join(out.copied_class_attrs))
    lines += [f"dropped side effect: {e}" for e in out.dropped_effects]
    return lines


def _own_attrs(index, cls: str) -> set:
    """Attributes the class sets itself (its ``__init__``, its methods)."""
    k = index.classes[cls]
    out = set(k.class_attrs)
    for m in k.methods.values():
        out |= {a for a, _l, _c in m.writes}
    return out
