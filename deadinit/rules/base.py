"""What every rule module provides.

A rule is one module with one ``Rule`` subclass: a stable ``code`` and a readable
``name``, its doc in ruff's shape (what it does, why is this bad, fix, fix safety,
options), and its examples: ``VALID`` (nothing reported), ``INVALID`` (the
findings listed) and ``FIXES`` (the rewrite ``deadinit fix`` makes).  The same
examples run as tests (``deadinit.session.rule_examples``) and are the doc's examples
(``deadinit.rules.doc``): no example text exists that does not run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar

from deadinit.analysis.facts import AttrFact
from deadinit.model.finding import Finding
from deadinit.rules.doc import render_doc


@dataclass(frozen=True)
class Example:
    """A small project ``{path: source}`` and the findings the rule reports on it (none for a valid one)."""

    files: dict[str, str]
    # (code, where, attribute): where is the class's name, or "path:line" for a finding outside classes
    expect: list[tuple[str, str, str]] = field(default_factory=list)
    note: str = ""
    settings: dict = field(default_factory=dict)  # Settings fields to check with, e.g. {"show_unsure": True}


@dataclass(frozen=True)
class FixExample:
    """A small project and what ``deadinit fix --strategy STRATEGY`` rewrites in it."""

    files: dict[str, str]
    expected: dict[str, str]  # every file the fix changes, as it reads afterwards
    strategy: str = "skip-flag"
    unsafe_fixes: bool = False  # --unsafe-fixes
    classes: tuple[str, ...] = ()  # --class
    note: str = ""


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[str] = "warning"  # error: the code cannot work as written (SARIF level, annotation)
    summary: ClassVar[str] = ""
    what_it_does: ClassVar[str] = ""
    why_bad: ClassVar[str] = ""
    fix: ClassVar[str] = ""
    fix_safety: ClassVar[str] = ""
    options: ClassVar[str] = ""
    VALID: ClassVar[tuple[Example, ...]] = ()
    INVALID: ClassVar[tuple[Example, ...]] = ()
    FIXES: ClassVar[tuple[FixExample, ...]] = ()

    def check(self, ctx) -> Iterable[Finding]:  # pragma: no cover - interface
        raise NotImplementedError

    @classmethod
    def doc(cls) -> str:
        return render_doc(cls)


class AttributeRule(Rule):
    """A rule about one attribute an ancestor's ``__init__`` allocates: it decides which facts are its findings."""

    fate: ClassVar[str] = ""  # one word for the facts it reports, as ``deadinit explain`` shows them

    @staticmethod
    def reports(fact: AttrFact) -> bool:  # pragma: no cover - interface
        raise NotImplementedError
