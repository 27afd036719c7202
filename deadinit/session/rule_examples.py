"""Run a rule's VALID / INVALID examples: what the test suite checks for every rule.

An example is written to an empty folder and checked there as ``deadinit check``
would, its findings made final by the session (the analysis rules with only the example's rule
selected; DI100 as with ``--report-unused-ignores``).  A finding is named ``(code, where, attribute)``:
``where`` is the class's name, or ``path:line`` (relative to the folder) for a
finding that belongs to no class.  Fix examples rewrite files, which is the fix
layer's business: ``tests/rules/test_rule_examples.py`` runs them through
``deadinit fix --diff`` and compares with ``deadinit.rules.doc.fix_diff``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from deadinit.frontends.parse import summarize_many
from deadinit.index.discovery import discover
from deadinit.index.generation_sources import find_generation_sources
from deadinit.model.file_error import FileError
from deadinit.model.finding import Finding
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings
from deadinit.rules.base import Example, Rule
from deadinit.rules.doc import source_text
from deadinit.rules.registry import ALL_RULES, ANALYSIS_RULES
from deadinit.session.findings import final_findings
from deadinit.session.pipeline import check_summaries


def write_files(files: dict[str, str], root: Path) -> Path:
    """Write ``{relative path: source}`` under ``root``."""
    for rel, src in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(source_text(src), encoding="utf-8")
    return root


def cases(kind: str) -> list[tuple[type[Rule], int, object]]:
    """(rule, number, example) for every rule's ``VALID``, ``INVALID`` or ``FIXES`` list."""
    return [(r, i, ex) for r in ALL_RULES for i, ex in enumerate(getattr(r, kind))]


def _name(f: Finding, root: Path) -> tuple[str, str, str]:
    where = short_name(f.cls) if f.cls else f"{Path(os.path.relpath(f.path, root)).as_posix()}:{f.line}"
    return f.code, where, f.attribute


def findings_of(rule: type[Rule], example: Example, root: Path) -> list[tuple[str, str, str]]:
    """The rule's findings on the example, written to the empty folder ``root``; sorted."""
    write_files(example.files, root)
    analysis_rule = rule in ANALYSIS_RULES
    settings = Settings(select=(rule.code,) if analysis_rule else ())
    settings = dataclasses.replace(settings, **example.settings)
    found = discover([str(root)])
    results = summarize_many([(f.path, f.module, f.is_package) for f in found.files], settings)
    summaries = [s for s in results if not isinstance(s, FileError)]
    errors = [str(s) for s in results if isinstance(s, FileError)] + [f"{p}: {m}" for p, m in found.errors]
    if errors:
        raise ValueError(f"{rule.code} example does not parse: {errors}")
    if not settings.include_generation_sources:  # as `deadinit check` (session.pipeline.run_check) does
        summaries = find_generation_sources(summaries).kept
    result = check_summaries(summaries, settings)
    reported = final_findings(result, settings, unused_suppressions=not analysis_rule).findings
    return sorted(_name(f, root) for f in reported if f.code == rule.code)
