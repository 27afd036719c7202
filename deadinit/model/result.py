"""What a ``deadinit check`` run produced (kept apart from ``deadinit.api`` so that a stored
result loads without importing the analysis)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from deadinit.model.file_error import FileError
from deadinit.model.finding import Finding
from deadinit.model.kinds import LibraryStatus


class Unanalysed(NamedTuple):
    """A top-level package the project's classes take calls or bases from, with no Python source
    where installed libraries are read: what is built through it is not analysed."""

    package: str
    calls: int  # ``__init__`` calls whose assigned value it makes
    bases: int  # base classes named through it
    status: LibraryStatus  # MISSING or COMPILED


class MisnamedPackage(NamedTuple):
    """A top-level name the project's imports use for its classes' bases and calls that is a folder of
    the project, not one of its modules: its modules are named otherwise than its code imports them."""

    package: str
    bases: int
    calls: int
    root: str  # the folder that, as a ``roots`` entry, names the modules as the imports do


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    unsure: list[Finding] = field(default_factory=list)  # quiet unless --show-unsure
    errors: list[str] = field(default_factory=list)
    internal_failures: list[str] = field(default_factory=list)  # files and classes an internal error lost: exit 2
    files: int = 0  # files discovered, those of ``unreadable`` included
    unreadable: list[FileError] = field(default_factory=list)  # files that could not be summarised (also in errors)
    index: Any | None = None  # ProjectIndex; a LiteIndex from the result cache
    analyzer: Any | None = None
    analyses: list[Any] = field(default_factory=list)
    analyses_complete: bool = True  # False: ``analyses`` holds only the classes this run analysed
    suppressed: list[Finding] = field(default_factory=list)
    used_suppressions: set[tuple[str, int]] = field(default_factory=set)
    skipped_sources: list[str] = field(default_factory=list)  # paths of code-generation sources left out
    generation_sources: dict[str, str] = field(default_factory=dict)  # generated file's path -> its source's path
    unanalysed: list[Unanalysed] = field(default_factory=list)  # packages not installed here, most calls first
    misnamed: list[MisnamedPackage] = field(default_factory=list)  # the project's own folders its imports name
    # bases of project classes in modules of the project's packages that were not analysed
    outside_bases: list[str] = field(default_factory=list)
    # where an incremental analysis of a variant of the project starts (``session.incremental.Baseline``):
    # set by a cached analysis, for ``fix``'s re-analysis of its plan; never stored with the result
    baseline: Any | None = None
