"""What every rule module provides.

A rule is one module with one ``Rule`` subclass: a stable ``code`` and ``name``,
a doc in ruff's shape, and ``VALID`` / ``INVALID`` examples that the test suite
runs.  An example is a small project ``{path: source}``; an invalid one also
lists the findings it must produce as ``(code, class name, attribute)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Example:
    files: dict[str, str]
    expect: list[tuple[str, str, str]] = field(default_factory=list)  # (code, ClassName, attribute)
    note: str = ""


class Rule:
    code: str = ""
    name: str = ""
    severity: str = "warning"  # error: the code cannot work as written (SARIF level, GitHub annotation)
    summary: str = ""
    what_it_does: str = ""
    why_bad: str = ""
    example: str = ""
    fix: str = ""
    fix_safety: str = ""
    options: str = ""
    VALID: list[Example] = []
    INVALID: list[Example] = []

    def check(self, ctx) -> Iterable:  # pragma: no cover - interface
        raise NotImplementedError

    @classmethod
    def doc(cls) -> str:
        parts = [
            f"# {cls.name} ({cls.code})",
            "",
            cls.summary,
            "",
            "## What it does",
            cls.what_it_does.strip(),
            "",
            "## Why is this bad?",
            cls.why_bad.strip(),
            "",
            "## Example",
            "```python",
            cls.example.strip(),
            "```",
            "",
        ]
        if cls.fix:
            parts += ["## Fix", cls.fix.strip(), ""]
        parts += ["## Fix safety", cls.fix_safety.strip(), ""]
        if cls.options:
            parts += ["## Options", cls.options.strip(), ""]
        return "\n".join(parts)
