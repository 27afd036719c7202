"""Plain records shared by every fix strategy, the safety checks and ``deadinit fix``.

A strategy turns a ``CheckResult`` into a ``Plan``: the rewritten text of every file
it touches (``FilePlan``), one ``Change`` per fix it made (what the report and the
summary table show) and one ``Refusal`` per finding it would not fix, with the
reason.  Strategies never write files; ``deadinit.fixes.driver`` checks a plan
with ``deadinit.fixes.safety`` and writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deadinit.model.kinds import RefusalKind
from deadinit.model.plain import plain_fields
from deadinit.model.settings import Settings


@dataclass
class FixOptions:
    settings: Settings = field(default_factory=Settings)
    classes: tuple[str, ...] = ()  # qualnames (or trailing dotted names) to fix; empty = all
    select: tuple[str, ...] = ()  # rule codes or names; empty = DI001 and DI002
    unsafe_fixes: bool = False
    flag_name: str | None = None  # overrides the derived ``skip_init_<name>``
    max_copy_lines: int | None = None  # direct-base: refuse past this many copied lines
    exclude: frozenset[str] = frozenset()  # Change.id values a previous attempt rejected


@dataclass(kw_only=True)
class Change:
    """One fix: a class that stops paying for some inherited allocations.

    Built by keyword only: a positional call written before ``new_bases``/``removed_bases``
    came put the notes in ``new_bases``, which gpu-check reads as the bases to expect.
    """

    id: str  # stable within one run, e.g. "skip-flag:pkg.mod.Child"
    strategy: str
    cls: str  # the subclass that benefits
    file: str  # that subclass's file
    attributes: list[str]  # attributes no longer built at all: None (or absent) on an instance
    findings: list[str]  # Finding.key of every finding this change resolves
    overwritten: list[str] = field(default_factory=list)  # no longer built by the parent; the class sets its own
    files: list[str] = field(default_factory=list)  # every file the change edits
    flag: str | None = None
    parents: list[str] = field(default_factory=list)  # classes whose __init__ changed
    estimated_bytes: int | None = None  # known part of the saving, per instance
    unknown_sizes: int = 0  # attributes whose size could not be estimated
    size: str = ""  # the saving per instance as check shows it, both columns (``Totals.saving``)
    reads: list[str] = field(default_factory=list)  # inherited allocations the class still reads
    new_bases: list[str] = field(default_factory=list)  # direct-base: the bases after the rewrite
    removed_bases: list[str] = field(default_factory=list)  # direct-base: ancestors no longer in the MRO
    notes: list[str] = field(default_factory=list)  # prose for reviewers: what the rewrite did

    def to_json(self) -> dict[str, Any]:
        d = plain_fields(self)
        d["class"] = d.pop("cls")
        d["flag_name"] = self.flag
        return d


@dataclass
class Refusal:
    """A finding (or group of findings) left alone, and why."""

    cls: str
    parent: str
    attributes: list[str]
    reason: str
    findings: list[str] = field(default_factory=list)
    kind: RefusalKind = RefusalKind.REFUSED

    def to_json(self) -> dict[str, Any]:
        d = plain_fields(self)
        d["class"] = d.pop("cls")
        return d


@dataclass
class FilePlan:
    path: str
    old: bytes
    new: bytes
    regions: list[tuple[int, int]]  # 1-based inclusive line ranges of ``old`` the rewrite may change
    changes: list[str] = field(default_factory=list)  # Change.id values that edit this file


@dataclass
class Plan:
    files: list[FilePlan] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)

    def file(self, path: str) -> FilePlan | None:
        return next((f for f in self.files if f.path == path), None)
