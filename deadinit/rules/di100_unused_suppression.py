"""Unused ``# deadinit: ignore`` comments (``--report-unused-ignores``), reported as DI100.

The comments are parsed per file by the summary stage and applied by
``deadinit.api``; this module only finds the ones that suppressed nothing.
"""

from __future__ import annotations

import linecache
import re

from deadinit.model.result import CheckResult
from deadinit.rules.engine import matching_suppression, selected_rules
from deadinit.model.finding import Finding
from deadinit.rules.base import Rule
from deadinit.rules.registry import ALL_RULES

_COMMENT = re.compile(r"#\s*deadinit:\s*ignore")


class UnusedSuppression(Rule):
    code = "DI100"
    name = "unused-suppression"
    summary = "A `# deadinit: ignore` comment suppresses nothing (reported with `--report-unused-ignores`)."
    what_it_does = """
Lists suppression comments that no finding used: a bare `# deadinit: ignore`
on a line where nothing was reported, or codes in `# deadinit: ignore[DI001,DI002]`
that matched no finding there. Codes of rules that are not selected are left
alone; unknown codes are always reported.
"""
    why_bad = """
A stale suppression hides the next real finding on that line, and it tells
readers that something is wrong where nothing is.
"""
    example = """
class Child(Parent):  # deadinit: ignore[DI002]   <- Child no longer has a finding
    ...
"""
    fix = "Delete the comment, or the codes it lists that matched nothing."
    fix_safety = "Not fixed automatically."


def all_rules() -> list[type[Rule]]:
    """The analysis rules plus the DI100 meta-rule, for docs, select/ignore and SARIF."""
    return [*ALL_RULES, UnusedSuppression]


def lookup(token: str) -> type[Rule] | None:
    for r in all_rules():
        if token.upper() == r.code or token.lower() == r.name:
            return r
    return None


def _column(path: str, line: int) -> int:
    m = _COMMENT.search(linecache.getline(path, line))
    return m.start() + 1 if m else 1


def unused_suppressions(result: CheckResult, settings) -> list[Finding]:
    """DI100 findings for the suppression comments of ``result`` that suppressed nothing."""
    if result.index is None:
        return []
    used: dict[tuple[str, int], set] = {}
    for f in result.suppressed:
        hit = matching_suppression(f, result.index)
        if hit is not None:
            used.setdefault(hit, set()).update({f.code.upper(), f.name.upper()})
    known = {t.upper(): r for r in all_rules() for t in (r.code, r.name)}
    active = {t.upper() for r in selected_rules(settings) for t in (r.code, r.name)}
    out = []
    for s in sorted(result.index.modules.values(), key=lambda s: s.path):
        for line, codes in sorted(s.suppressions.items()):
            hits = used.get((s.path, line))
            if codes is None:
                if hits:
                    continue
                msg = "unused suppression `# deadinit: ignore`: nothing is reported here"
            else:
                unknown = sorted(c for c in codes if c.upper() not in known)
                stale = sorted(
                    c for c in codes if c.upper() in known and c.upper() in active and c.upper() not in (hits or ())
                )
                if not unknown and not stale:
                    continue
                parts = []
                if stale:
                    parts.append("unused code(s) " + ", ".join(stale))
                if unknown:
                    parts.append("unknown code(s) " + ", ".join(unknown))
                msg = "suppression comment has " + " and ".join(parts)
            out.append(
                Finding(
                    code=UnusedSuppression.code,
                    name=UnusedSuppression.name,
                    path=s.path,
                    line=line,
                    column=_column(s.path, line),
                    cls="",
                    parent="",
                    attribute="",
                    kind="suppression",
                    estimated_bytes=None,
                    message=msg,
                    fix_safety="none",
                    related_paths=[s.path],
                    related_lines=[(s.path, line)],
                )
            )
    return out
