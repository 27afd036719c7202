"""Unused ``# deadinit: ignore`` comments (``--report-unused-ignores``), reported as DI100.

The comments are parsed per file by the summary stage and applied by
``deadinit.api``; this module only finds the ones that suppressed nothing.
"""

from __future__ import annotations

import linecache
import re

from deadinit.model.finding import Finding
from deadinit.model.kinds import FixSafety
from deadinit.model.result import CheckResult
from deadinit.rules.base import Example, Rule
from deadinit.rules.suppressions import matching_suppression

_COMMENT = re.compile(r"#\s*(?:deadinit:\s*ignore|noqa\b)", re.IGNORECASE)


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
    fix = "Delete the comment, or the codes it lists that matched nothing."
    fix_safety = "Not fixed automatically."
    VALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/backend.py": """
import torch


class Parent:
    def __init__(self):
        self.workspace = torch.empty(1024)


class Child(Parent):  # deadinit: ignore[DI001]
    def __init__(self):
        super().__init__()
        self.workspace = torch.zeros(16)
""",
            },
            note="the comment suppresses Child's DI001",
        ),
    )
    INVALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/backend.py": """
import torch


class Parent:
    def __init__(self):
        self.workspace = torch.empty(1024)


class Child(Parent):  # deadinit: ignore[DI001, DI002, DI777]
    def __init__(self):
        super().__init__()
        self.workspace = torch.zeros(16)


def helper():  # deadinit: ignore
    return 1
""",
            },
            [("DI100", "pkg/backend.py:9", ""), ("DI100", "pkg/backend.py:15", "")],
            note="Child has no DI002 and DI777 is no rule; nothing is reported on helper",
        ),
    )

    @classmethod
    def findings(cls, result: CheckResult, known: set[str], active: set[str]) -> list[Finding]:
        """The comments of ``result`` that suppressed nothing.

        ``known``: every rule code and name (upper case); ``active``: those of the selected rules.
        """
        return _unused(result, known, active)


def _column(path: str, line: int) -> int:
    m = _COMMENT.search(linecache.getline(path, line))
    return m.start() + 1 if m else 1


def _unused(result: CheckResult, known: set[str], active: set[str]) -> list[Finding]:
    if result.index is None:
        return []
    used: dict[tuple[str, int], set] = {}
    for f in result.suppressed:
        hit = matching_suppression(f, result.index)
        if hit is not None:
            used.setdefault(hit, set()).update({f.code.upper(), f.name.upper()})
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
                    fix_safety=FixSafety.NONE,
                    related_paths=[s.path],
                    related_lines=[(s.path, line)],
                )
            )
    return out
