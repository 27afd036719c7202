"""What ``deadinit fix`` says besides its tables: class names ``--class`` accepts, the strategy that
fixes what this one cannot, and the findings fixed (``--show-fixes``)."""

from __future__ import annotations

from collections import Counter, defaultdict

from deadinit.api.fix import STRATEGY_CODES
from deadinit.report.class_names import option_names
from deadinit.report.paths import display


def table_names(out) -> dict[str, str]:
    """qualname -> the name ``--class`` takes as this class alone, for every class the fix tables name."""
    shown = {c.cls for c in out.plan.changes} | {r.cls for r in out.refusals} | {r.parent for r in out.refusals}
    return option_names(getattr(out.before, "index", None), shown)


def other_strategy_hint(out) -> str | None:
    """With nothing planned or refused: which strategy fixes the findings this one does not."""
    if out.plan.changes or out.refusals:
        return None
    mine = set(STRATEGY_CODES.get(out.strategy, ()))
    counts = Counter(f.code for f in out.before.findings if f.code not in mine)
    notes = []
    for strategy, codes in STRATEGY_CODES.items():
        if strategy == out.strategy:
            continue
        n = {c: counts[c] for c in codes if counts[c]}
        if n:
            listed = ", ".join(f"{k} {c}" for c, k in n.items())
            notes.append(f"{listed} finding(s) are fixed by --strategy {strategy}")
    return "; ".join(notes) or None


def fixed_lines(out, applied: bool) -> list[str]:
    """ruff's ``--show-fixes``: the findings the changes fix, counted by file and rule."""
    found = {f.key: f for f in out.before.findings}
    fixed = [found[k] for c in out.plan.changes for k in c.findings if k in found]
    if not fixed:
        return ["No findings fixed." if applied else "No findings would be fixed."]
    by_file: dict[str, Counter] = defaultdict(Counter)
    for f in fixed:
        by_file[display(f.path)][(f.code, f.name)] += 1
    head = f"{'Fixed' if applied else 'Would fix'} {len(fixed)} finding(s):"
    lines = [head]
    for path in sorted(by_file):
        lines.append(f"- {path}:")
        lines += [f"    {n} × {code} ({name})" for (code, name), n in sorted(by_file[path].items())]
    return lines
