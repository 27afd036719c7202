"""The session's stages: summarise what discovery found, then index, analyse and make the findings
final (``check_summaries``: ``deadinit.rules.engine`` runs the rules, ``deadinit.session.findings``
settles what they find), fully or incrementally, or index only.

``deadinit.session.run.Session`` puts them together for a command; ``deadinit.api.check`` is
their public face for a library caller.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from deadinit.index.discovery import Discovery, Skip
from deadinit.index.generation_sources import find_generation_sources
from deadinit.index.project_gaps import outside_bases
from deadinit.installed.environment import library_counts
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.file_error import FileError
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.engine import analyse, findings_for, index_summaries
from deadinit.session.discovery import discovered
from deadinit.session.findings import settle
from deadinit.session.summarizing import Fingerprinted, Summarize

if TYPE_CHECKING:
    from deadinit.analysis.liveness.variant_sites import Resolved
    from deadinit.index.project_index import ProjectIndex
    from deadinit.session.analysis_state import StateStore, TableStore


def summarize(
    paths: Iterable[str],
    settings: Settings,
    summarizer: Summarize | None = None,
    excluded: Skip | None = None,
    discovery: Discovery | None = None,
    failed: list[str] | None = None,
    unreadable: list[FileError] | None = None,
) -> tuple[list[FileSummary], list[str], int]:
    """``discovery``: what ``discover`` found for these paths, when the caller already walked them
    (and removed the temporary files a killed run left there).  ``failed`` receives the paths of
    the files an internal error lost, ``unreadable`` every file that could not be summarised
    (their lines are among the errors too)."""
    disc = discovery if discovery is not None else discovered(paths, settings, excluded)
    errors = [f"{os.path.normpath(p)}: {m}" for p, m in disc.errors]
    items = [(f.path, f.module, f.is_package) for f in disc.files]
    if summarizer is None:
        from deadinit.frontends.parse import summarize_many  # noqa: PLC0415 - the parser loads only when files are summarised here

        summarizer = summarize_many
    results = summarizer(items, settings)
    summaries = []
    for (path, _, _), r in zip(items, results, strict=True):
        if isinstance(r, FileSummary) and r.path != path:
            r.path = path  # the per-file cache keys a file by its real path: a summary says it as given
        if isinstance(r, FileError):
            errors.append(str(r))
            if unreadable is not None:
                unreadable.append(r)
            if r.internal and failed is not None:
                failed.append(r.path)
        else:
            summaries.append(r)
    return summaries, errors, len(disc.files)


def check_summaries(
    summaries: list[FileSummary], settings: Settings, result: CheckResult | None = None, hierarchy_errors: bool = True
) -> CheckResult:
    """The final findings of a project given its summaries (into ``result``, which may carry
    discovery's errors): indexed, every candidate class analysed, the rules run, their findings
    settled (``session.findings.settle``); ``hierarchy_errors`` False: without the hierarchy
    problems' error lines (``rules.engine.index_summaries``)."""
    res = result if result is not None else CheckResult(files=len(summaries))
    res = index_summaries(summaries, settings, res, hierarchy_errors)
    index = res.index
    assert index is not None  # index_summaries built it
    analyzer, analyses = analyse(index, settings, analyzer=res.analyzer, result=res)
    res.analyses = analyses
    settle(res, findings_for(index, analyzer, analyses, settings, res), settings)
    return res


def run_check(
    paths: Iterable[str],
    settings: Settings | None = None,
    summarizer: Summarize | None = None,
    excluded: Skip | None = None,
    summaries: list[FileSummary] | None = None,
    discovery: Discovery | None = None,
) -> CheckResult:
    """The findings of the project at ``paths``; code-generation sources are left out unless
    ``settings.include_generation_sources`` (``deadinit.index.generation_sources``)."""
    settings = settings or Settings()
    res, kept = _summarised(list(paths), settings, summarizer, excluded, summaries, discovery)
    check_summaries(kept, settings, res)
    note_generated_files(res, kept)
    assert res.index is not None  # check_summaries indexed them
    res.outside_bases = outside_bases(res.index)
    _library_stats()
    return res


def run_incremental(
    paths: Iterable[str],
    settings: Settings,
    summarizer: Fingerprinted,
    excluded: Skip | None,
    store: StateStore,
    discovery: Discovery | None = None,
    table_store: TableStore | None = None,
) -> CheckResult:
    """``run_check`` that analyses only the classes whose inputs changed since the run whose state
    ``store`` (``deadinit.session.analysis_state.StateStore``) keeps, and stores this run's state:
    the same result (``deadinit.session.incremental``).  ``result.analyses`` holds the classes
    analysed this time only; ``result.baseline`` this run's state, for ``fix`` to re-analyse from.
    ``table_store`` (a ``TableStore``): receives the subclass table and the construction sites, for
    ``index_project``."""
    from deadinit.session.incremental import (  # noqa: PLC0415 - the analysis: a warm cached check never loads it
        Baseline,
        check_incremental,
        content_fingerprints,
    )
    from deadinit.session.stored_sites import stored_resolved, stored_tables  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    res, kept = _summarised(list(paths), settings, summarizer, excluded, None, discovery)
    fingerprints = content_fingerprints(kept, summarizer.content_hashes)
    t0 = time.perf_counter()
    previous = store.load()
    tables = table_store.load() if table_store is not None and previous is not None else None
    loaded = time.perf_counter()

    def resolved(index: ProjectIndex) -> Resolved | None:
        return stored_resolved(tables, index, fingerprints)

    res, state, stats = check_incremental(kept, settings, res, previous, fingerprints, resolved=resolved)
    stored = time.perf_counter()
    assert state is not None and res.index is not None  # a state is built (``next_state``) of the index
    inputs = inputs_digest(kept, fingerprints)
    state.inputs = index_digest(res.index, fingerprints)
    store.store(state)
    res.baseline = Baseline(state, fingerprints, current=True)
    if table_store is not None and inputs is not None and res.index is not None and res.analyzer is not None:
        exports = res.analyzer.exported.parts()
        table_store.store(stored_tables(inputs, res.index, res.analyzer.ext, exports, fingerprints, tables))
    stats["seconds"].update(load=round(loaded - t0, 3), store=round(time.perf_counter() - stored, 3))
    stats = {"full": previous is None, **stats}
    counts = getattr(summarizer, "stats", None)
    if isinstance(counts, dict):  # a progress bar around it has none
        counts["incremental"] = stats
    if os.environ.get("DEADINIT_STATS"):
        print(f"deadinit: incremental: {stats}", file=sys.stderr)
    _library_stats()
    note_generated_files(res, kept)
    return res


def _library_stats() -> None:
    """``DEADINIT_STATS``: the installed library modules the analysis read from their cache or summarised."""
    if os.environ.get("DEADINIT_STATS"):
        print(f"deadinit: installed: {library_counts()}", file=sys.stderr)


def index_project(
    paths: Iterable[str],
    settings: Settings | None = None,
    summarizer: Summarize | None = None,
    excluded: Skip | None = None,
    discovery: Discovery | None = None,
    hierarchy_errors: bool = True,
    table_store: TableStore | None = None,
) -> CheckResult:
    """The project's index and an analyzer that analyses a class when asked, without the findings.

    For the commands that look at a few classes (``explain``) or that take the findings
    from elsewhere (``graph``, after the result cache): the same summaries, files,
    errors and generation sources as ``run_check``, the analysis of no class.
    ``table_store``: the subclass table, construction sites and exports of the last incremental run
    (``run_incremental``), read only: the table installed when it was built from the same
    summaries, the sites and exports with those of the changed modules resolved again
    (``session.stored_sites``)."""
    settings = settings or Settings()
    res, kept = _summarised(list(paths), settings, summarizer, excluded, None, discovery)
    index_summaries(kept, settings, res, hierarchy_errors)
    stored = table_store.load() if table_store is not None else None
    if stored is not None:
        assert res.index is not None and res.analyzer is not None  # index_summaries built them
        from deadinit.session.incremental import content_fingerprints  # noqa: PLC0415 - only with stored tables
        from deadinit.session.stored_sites import stored_resolved  # noqa: PLC0415 - only with stored tables

        fingerprints = content_fingerprints(kept, getattr(summarizer, "content_hashes", {}))
        if stored.inputs == inputs_digest(kept, fingerprints):
            res.index.install_subclasses(stored.subclasses)
        resolved = stored_resolved(stored, res.index, fingerprints)
        if resolved is not None:
            res.analyzer.install(resolved)
    return res


def inputs_digest(kept: list[FileSummary], fingerprints: Mapping[str, str]) -> str | None:
    """One digest of the summaries an index is built from, in order (None when one has no
    fingerprint): equal digests, equal indexes (the run key covers the settings and code)."""
    if any(s.path not in fingerprints for s in kept):
        return None
    lines = [fingerprints[s.path] for s in kept]
    return hashlib.blake2b(("\n".join(lines) + "\n" if lines else "").encode(), digest_size=16).hexdigest()


def index_digest(index: ProjectIndex, fingerprints: Mapping[str, str]) -> str | None:
    """``inputs_digest`` of the summaries ``index`` holds (one per module), which are all that an
    analysis of its classes reads of the files: equal digests, every class analysed the same."""
    return inputs_digest(list(index.modules.data.values()), fingerprints)


def _summarised(
    paths: list[str],
    settings: Settings,
    summarizer: Summarize | None,
    excluded: Skip | None,
    summaries: list[FileSummary] | None,
    discovery: Discovery | None,
) -> tuple[CheckResult, list[FileSummary]]:
    """A result with the files, errors and generation sources, and the summaries analysed."""
    res = CheckResult()
    if summaries is None:
        found = summarize(paths, settings, summarizer, excluded, discovery, res.internal_failures, res.unreadable)
        summaries, res.errors, res.files = found
    else:
        res.files = len(summaries)
    sources = find_generation_sources(summaries, named=[p for p in paths if os.path.isfile(p)])
    res.generation_sources = sources.origins
    if not settings.include_generation_sources and sources.skipped:
        summaries = sources.kept
        res.skipped_sources = [s.path for s in sources.skipped]
        res.files -= len(sources.skipped)
    return res, summaries


def note_generated_files(res: CheckResult, summaries: list[FileSummary]) -> None:
    """Evidence on each finding that involves a generated file: the fix belongs in its source."""
    generated = {s.path: s for s in summaries if s.generated_marker}
    if not generated:
        return
    for f in [*res.findings, *res.unsure]:
        for path in dict.fromkeys([f.path, *f.related_paths]):
            s = generated.get(path)
            if s is None:
                continue
            source = res.generation_sources.get(path)
            text = f"{path} is generated (header: {s.generated_marker!r}): "
            if source is not None:
                regenerate = text + "change its source and regenerate"
                f.evidence.append(Evidence(EvidenceKind.GENERATED, regenerate, source, 1))
            elif s.generated_from:
                f.evidence.append(
                    Evidence(EvidenceKind.GENERATED, text + f"change its source {s.generated_from} and regenerate")
                )
            else:
                f.evidence.append(Evidence(EvidenceKind.GENERATED, text + "change what generates it"))
