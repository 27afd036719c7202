"""Code-generation sources: modules that a generated file names as its origin and nothing imports.

A code generator expands a template (HF transformers' ``modular_x.py``) into the
module the package runs (``modeling_x.py``), whose header says so ("This file was
automatically generated from src/.../modular_x.py. Do NOT edit").  The template is
never imported, so nothing in it runs: a finding there is noise, and a fix there
changes nothing that runs.  ``find_generation_sources`` decides which modules are
such templates:

* the origin a generated file's header names (``FileSummary.generated_from``) is
  matched to an analysed file: the path taken relative to the generated file's
  folder when that is an analysed file; otherwise by path suffix, the analysed file
  whose path shares the longest run of trailing components with the origin (the
  file name and, when the origin names a folder, at least the folder it sits in);
  a tie matches nothing;
* a matched module is a generation source unless a module that is not one imports
  it, in any form (``import a.m``, ``from a import m``, ``from a.m import X``,
  relative imports; importing ``a.m`` imports the package ``a`` too).  Imports made
  only by other generation sources do not count, since those never run either:
  the largest set closed under this rule is taken.

A module that a subclass elsewhere derives from is imported by that subclass's
module, so it is never a generation source.  Files named on the command line are
never one either (as with ``exclude``, naming a file analyses it).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from deadinit.index.module_names import absolute_module
from deadinit.model.summary import FileSummary, Import


@dataclass
class GenerationSources:
    kept: list[FileSummary] = field(default_factory=list)  # every other summary, in input order
    skipped: list[FileSummary] = field(default_factory=list)  # the generation sources
    origins: dict[str, str] = field(default_factory=dict)  # generated file's path -> analysed path of its origin


def find_generation_sources(summaries: list[FileSummary], named: Iterable[str] = ()) -> GenerationSources:
    """Split ``summaries`` into generation sources and the rest; ``named``: paths given explicitly."""
    matched = match_origins(summaries)
    explicit = {os.path.realpath(p) for p in named}
    candidates = {s.module: s for s in matched.values() if os.path.realpath(s.path) not in explicit}
    skipped = _never_imported(summaries, candidates)
    skipped_paths = {candidates[m].path for m in skipped}
    return GenerationSources(
        kept=[s for s in summaries if s.path not in skipped_paths],
        skipped=[s for s in summaries if s.path in skipped_paths],
        origins={generated: source.path for generated, source in matched.items()},
    )


def match_origins(summaries: list[FileSummary]) -> dict[str, FileSummary]:
    """Generated file's path -> the analysed file its header names as its origin (when one matches)."""
    generated = [s for s in summaries if s.generated_from]
    if not generated:
        return {}
    by_abs: dict[str, FileSummary] = {}
    by_name: dict[str, list[tuple[list[str], FileSummary]]] = {}
    for s in summaries:
        full = os.path.abspath(s.path)
        by_abs.setdefault(full, s)
        parts = [p for p in full.replace(os.sep, "/").split("/") if p]
        by_name.setdefault(parts[-1], []).append((parts, s))
    out = {}
    for s in generated:
        source = _resolve(s, s.generated_from or "", by_abs, by_name)
        if source is not None and source.path != s.path:
            out[s.path] = source
    return out


def _resolve(
    generated: FileSummary,
    origin: str,
    by_abs: dict[str, FileSummary],
    by_name: dict[str, list[tuple[list[str], FileSummary]]],
) -> FileSummary | None:
    written = origin.replace("\\", "/")
    near = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(generated.path)), written))
    if near in by_abs:
        return by_abs[near]
    wanted = [p for p in written.split("/") if p not in ("", ".", "..")]
    if not wanted:
        return None
    best, found = 0, []
    for parts, s in by_name.get(wanted[-1], ()):
        n = _common_tail(wanted, parts)
        if n > best:
            best, found = n, [s]
        elif n == best:
            found.append(s)
    if best < min(2, len(wanted)) or len(found) != 1:
        return None  # too little in common, or ambiguous
    return found[0]


def _common_tail(a: list[str], b: list[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _never_imported(summaries: list[FileSummary], candidates: dict[str, FileSummary]) -> set[str]:
    """The largest subset of ``candidates`` (module names) that no module outside it imports."""
    if not candidates:
        return set()
    importers = imported_by(summaries, set(candidates))
    skipped = set(candidates)
    changed = True
    while changed:
        changed = False
        for module in sorted(skipped):
            if any(i not in skipped for i in importers.get(module, ())):
                skipped.discard(module)
                changed = True
    return skipped


def imported_by(summaries: list[FileSummary], wanted: set[str]) -> dict[str, set[str]]:
    """Module in ``wanted`` -> the modules that import it (themselves excluded)."""
    out: dict[str, set[str]] = {}
    for s in summaries:
        for imp in s.imports:
            for target in imported_modules(s.module, s.is_package, imp):
                if target in wanted and target != s.module:
                    out.setdefault(target, set()).add(s.module)
    return out


def imported_modules(module: str, is_package: bool, imp: Import) -> list[str]:
    """The modules an import statement of ``module`` imports (packages above them included)."""
    if imp.name is None:  # import a.b.c [as m]
        return _with_packages(imp.module)
    base = absolute_module(module, is_package, imp)
    out = _with_packages(base) if base else []
    if imp.name != "*":
        out.append(f"{base}.{imp.name}" if base else imp.name)  # from a import m: m may be a module
    return out


def _with_packages(dotted: str) -> list[str]:
    parts = dotted.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]
