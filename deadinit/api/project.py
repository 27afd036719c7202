"""Load the configuration once and run the engine over a project (shared by every command)."""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from deadinit.api.config import Config, load_config, split_codes
from deadinit.api.errors import UsageError
from deadinit.api.project_root import Scope, project_scope
from deadinit.index.discovery import discover
from deadinit.index.pathfilter import PathFilter
from deadinit.model.result import CheckResult
from deadinit.runtime.stat_memo import StatMemo


def path_filter(cfg: Config) -> PathFilter:
    """Discovery's ``excluded`` hook for the configuration's include / exclude / .gitignore."""
    return PathFilter(cfg.root, cfg.include, cfg.exclude, cfg.respect_gitignore)


def require_paths(paths: Iterable[str]) -> None:
    for p in paths:
        if not os.path.lexists(p):
            raise UsageError(f"path does not exist: {p}")


def configure(
    paths: list[str],
    config_file: str | None = None,
    select: str = "",
    ignore: str = "",
    show_unsure: bool = False,
    include_generation_sources: bool | None = None,
    extend_select: str = "",
) -> Config:
    """The run's configuration: the file's, then command-line overrides.

    ``--select`` replaces the configured selection; ``--extend-select`` and ``--ignore`` add to
    the selection and to the ignored list;
    ``include_generation_sources`` (None: as configured) replaces the configured value.
    """
    cfg = load_config(paths, config_file)
    s = cfg.settings
    if select.strip():
        s.select = split_codes("--select", select)
    extended = split_codes("--extend-select", extend_select) if extend_select.strip() else ()
    if extended and s.select:  # an empty selection is every rule already
        s.select = tuple(dict.fromkeys(s.select + extended))
    if ignore.strip():
        s.ignore = tuple(dict.fromkeys(s.ignore + split_codes("--ignore", ignore)))
    if show_unsure:
        s.show_unsure = True
    if include_generation_sources is not None:
        s.include_generation_sources = include_generation_sources
    return cfg


def configured_scope(
    paths: Iterable[str], project_dir: str | None = None, config_file: str | None = None, *overrides
) -> tuple[list[str], list[str] | None, Config]:
    """(what is analysed, the paths reported on or None for all, the configuration) of a run over
    ``paths`` (default ``.``): the project they lie in (``api.project_root``), or ``project_dir``
    when given.  A given file the project's configuration excludes is analysed too, as ruff lints
    a file named on its command line.  ``overrides``: ``configure``'s, after ``config_file``."""
    given = list(paths)
    require_paths([*given, *([project_dir] if project_dir else [])])
    if project_dir is not None:
        targets, scope = [project_dir], given or None
    else:
        found = project_scope(given or ["."], config_file)
        targets, scope = found.targets, found.scope
    cfg = configure(targets, config_file, *overrides)
    if scope is not None and project_dir is None:
        excluded = path_filter(cfg)
        targets += [p for p in scope if os.path.isfile(p) and excluded(p, False)]
    return targets, scope, cfg


def skipped_sources_note(result: CheckResult) -> str | None:
    """One line saying how many code-generation sources were left out and how to include them."""
    n = len(result.skipped_sources)
    if not n:
        return None
    what = "code-generation source" if n == 1 else "code-generation sources"
    return (
        f"skipped {n} {what} (files that generated files name as their origin and nothing imports); "
        "include them with --include-generation-sources or include-generation-sources = true"
    )


def analyse(paths: list[str], cfg: Config, wrap=None, summarizer=None, discovery=None) -> CheckResult:
    """``run_check`` with the configured path filter.

    ``summarizer``: e.g. ``deadinit.runtime.summarizer.ProjectSummarizer``; default the in-process one.
    ``wrap``: what the front-end puts around it (a progress bar), or None.
    """
    from deadinit.api.check import run_check  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    summarizer = wrap(summarizer) if wrap is not None else summarizer
    try:
        return run_check(paths, cfg.settings, summarizer=summarizer, excluded=path_filter(cfg), discovery=discovery)
    finally:
        if summarizer is not None:
            summarizer.close()


def analyse_incremental(paths: list[str], cfg: Config, wrap=None, summarizer=None, discovery=None) -> CheckResult:
    """``analyse`` that keeps the analysis state next to the per-file cache and analyses again only
    the classes whose inputs changed (``deadinit.rules.incremental``): the same result.  Without a
    caching ``summarizer`` (``--no-cache``), the full run."""
    if not getattr(summarizer, "use_cache", False):
        return analyse(paths, cfg, wrap, summarizer, discovery)
    from deadinit.api.check import run_incremental  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    excluded = path_filter(cfg)
    store, tables = _stores(paths, cfg, summarizer)
    wrapped = wrap(summarizer) if wrap is not None else summarizer
    try:
        return run_incremental(paths, cfg.settings, wrapped, excluded, store, discovery, tables)
    finally:
        wrapped.close()


def _stores(paths: list[str], cfg: Config, summarizer):
    """Where a cached run over ``paths`` keeps its analysis state and the tables ``explain`` reads
    (``runtime.analysis_state``: a ``StateStore`` and a ``TableStore``)."""
    from deadinit.runtime import result_cache as results  # noqa: PLC0415 - only a cached run reads it
    from deadinit.runtime.analysis_state import StateStore, TableStore  # noqa: PLC0415 - only a cached run reads it

    folder, key = summarizer.folder(cfg.settings), results.run_key(paths, cfg.settings, path_filter(cfg))
    return StateStore(folder, key), TableStore(folder, key)


def analyse_cached(paths: list[str], cfg: Config, wrap, summarizer, walked: list | None = None) -> CheckResult:
    """``analyse`` through the whole-run result cache (``deadinit.runtime.result_cache``), for ``check``.

    A hit returns the stored result, whose ``index`` is a ``LiteIndex`` (what reporters,
    DI100 and the exit code read) and which has no analyzer.  ``walked``: receives what
    discovery found, when it walked the paths (for a caller that summarises them next).
    """
    from deadinit.runtime import helper as helpers  # noqa: PLC0415 - multiprocessing: only a cached check
    from deadinit.runtime import result_cache as results  # noqa: PLC0415 - only a cached check reads it

    s = cfg.settings
    excluded = path_filter(cfg)
    found = []
    stats = StatMemo()  # each file stat'ed once: by the result cache's check, discovery or the summarizer

    def walk() -> tuple[list, list]:
        if not found:
            disc = _discovered(paths, s, excluded, stats)
            found.append(
                (
                    disc,
                    [(f.path, f.module, f.is_package) for f in disc.files],
                    [f"{os.path.normpath(p)}: {m}" for p, m in disc.errors],
                )
            )
            if walked is not None:
                walked.append(disc)
        return found[0][1], found[0][2]

    summarizer.remove_leftovers(s)
    store = results.ResultStore(summarizer.folder(s), results.run_key(paths, s, excluded))
    with helpers.take() as helper:  # loads the summarisers on the other core, in case a file changed
        snap = store.load()
        if snap is not None:
            fresh = results.refresh(snap, walk, s, summarizer, helper, stats)
            if fresh is not None:
                snap, dirty = fresh
                if dirty:
                    store.store(snap)
                summarizer.stats["result_cache"] = "hit"
                return snap.result
    items, notes = walk()
    with _stats_handed(summarizer, stats):
        result = analyse_incremental(paths, cfg, wrap, summarizer, discovery=found[0][0])  # a miss
    states = results.states_of(summarizer.last_inputs) if summarizer.last_inputs is not None else None
    # a run that an internal error cut short is not kept: the next run tries those files and classes again
    if states is not None and len(states) == len(items) and result.index is not None and not result.internal_failures:
        lite = dataclasses.replace(
            result,
            index=results.LiteIndex.of(result.index, [*result.findings, *result.unsure, *result.suppressed]),
            analyzer=None,
            analyses=[],
            baseline=None,
        )
        store.store(results.Snapshot(items, notes, states, lite))
    return result


def load_index(paths: list[str], cfg: Config, wrap=None, summarizer=None, hierarchy_errors: bool = True) -> CheckResult:
    """The project's index and an analyzer that analyses a class when asked (``api.check.index_project``),
    without the findings: for ``explain``, which looks at one class.  Summaries come through
    ``summarizer`` (the per-file cache and the workers) like ``analyse``'s.  ``hierarchy_errors``
    False: without the error lines of every class's hierarchy problems (``hierarchy_lines``)."""
    from deadinit.api.check import index_project  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    s = cfg.settings
    excluded = path_filter(cfg)
    stats = StatMemo()  # each file stat'ed once: by discovery, and the summarizer reuses it
    disc = _discovered(paths, s, excluded, stats)
    tables = _stores(paths, cfg, summarizer)[1] if getattr(summarizer, "use_cache", False) else None
    wrapped = wrap(summarizer) if wrap is not None else summarizer
    try:
        with _stats_handed(summarizer, stats):
            return index_project(paths, s, wrapped, excluded, disc, hierarchy_errors, tables)
    finally:
        if wrapped is not None:
            wrapped.close()


def _discovered(paths: list[str], s, excluded: PathFilter, stats: StatMemo):
    """What discovery finds (stat'ing through ``stats``), after removing a killed run's rewrites in flight."""
    from deadinit.runtime.temp_files import remove_leftovers  # noqa: PLC0415 - only a command that analyses writes

    disc = discover(paths, s.roots, excluded, max_bytes=s.max_file_size, stats=stats)
    remove_leftovers(disc.temp_files)
    return disc


@contextmanager
def _stats_handed(summarizer, stats: StatMemo) -> Iterator[None]:
    """The files' stats this run took, handed to ``summarizer``'s next call only: taken before this
    run read anything, they are not for a later one."""
    if summarizer is not None:
        summarizer.known_stats = stats
    try:
        yield
    finally:
        if summarizer is not None:
            summarizer.known_stats = None


def analyse_full(paths: list[str], cfg: Config, wrap, summarizer) -> CheckResult:
    """``check``'s result with the whole index, analyzer and analyses: every hierarchy analysed."""
    return analyse(paths, cfg, wrap, summarizer)


def analyse_for_fix(paths: list[str], cfg: Config, wrap, summarizer) -> CheckResult:
    """``check``'s result with the whole index and an analyzer, which ``fix`` plans from.

    Without a caching ``summarizer``, the full run (``analyse_full``).  With one, the findings
    come through the result cache (``analyse_cached``: on a miss, the incremental analysis,
    which stores them for ``check``), the index and analyzer from the cached summaries, and
    ``analyses_complete`` is False: the planners analyse the classes they look at
    (``deadinit.fixes.analyses``) instead of every hierarchy being analysed again.  ``baseline``:
    the analysis state ``check`` stored (a hit) or this run's (a miss), which the re-analysis of
    a plan starts from (None when there is none: it analyses every class)."""
    if not getattr(summarizer, "use_cache", False):
        return analyse_full(paths, cfg, wrap, summarizer)
    walked: list = []
    result = analyse_cached(paths, cfg, wrap, summarizer, walked)
    if result.analyzer is None:  # a hit: the stored result has a LiteIndex and no analyzer
        from deadinit.api.check import index_project  # noqa: PLC0415 - the analysis: a warm cached check never loads it

        disc = walked[0] if walked else None
        store, tables = _stores(paths, cfg, summarizer)
        indexed = index_project(  # the stored result has the error lines
            paths, cfg.settings, summarizer, path_filter(cfg), disc, hierarchy_errors=False, table_store=tables
        )
        summarizer.close()
        baseline = _stored_baseline(store, summarizer, indexed)
        result = dataclasses.replace(result, index=indexed.index, analyzer=indexed.analyzer, baseline=baseline)
    result.analyses_complete = False
    return result


def _stored_baseline(store, summarizer, indexed: CheckResult):
    """The analysis state ``store`` keeps with the fingerprints of ``indexed``'s summaries
    (``summarizer`` made them last), or None when no state is stored.  It is current when it
    analysed an index of the same summaries (``api.check.index_digest``): not so after an edit that
    left every summary as it was (a comment: the stored findings still hold), or when the last
    run's state could not be written or its journal stops early (an older state is loaded)."""
    from deadinit.api.check import index_digest  # noqa: PLC0415 - the analysis: a warm cached check never loads it
    from deadinit.rules.incremental import Baseline, content_fingerprints  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    state = store.load()
    if state is None:
        return None
    summaries = list(indexed.index.modules.data.values())
    fingerprints = content_fingerprints(summaries, summarizer.content_hashes)
    digest = index_digest(indexed.index, fingerprints)
    return Baseline(state, fingerprints, current=digest is not None and digest == state.inputs)


def analyse_indexed(paths: list[str], cfg: Config, wrap, summarizer) -> CheckResult:
    """``check``'s findings (through the result cache when ``summarizer`` caches) with the whole
    ``ProjectIndex`` and an analyzer, for ``graph``: a stored result holds only a ``LiteIndex``,
    so on a hit the index is built from the cached summaries and no hierarchy is analysed."""
    if not getattr(summarizer, "use_cache", False):
        return analyse(paths, cfg, wrap, summarizer)
    result = analyse_cached(paths, cfg, wrap, summarizer)
    if result.analyzer is not None:  # a miss: the full run made the index
        return result
    indexed = load_index(paths, cfg, None, summarizer, hierarchy_errors=False)  # the stored result has them
    return dataclasses.replace(result, index=indexed.index, analyzer=indexed.analyzer)


def hierarchy_lines(result: CheckResult, qualname: str) -> list[str]:
    """The error lines of the hierarchy problems of ``qualname`` and its ancestors."""
    from deadinit.index import hierarchy_problems as problems  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    index = result.index
    found = problems.hierarchy_problems(index, only=problems.with_ancestors(index, qualname))
    return problems.problem_lines(index, found)


def no_files_message(paths: list[str]) -> str:
    return "no Python files found in " + ", ".join(paths)


def scope_to(findings, errors, files: Iterable[str]):
    """Keep findings whose allocation, re-assignment or subclass lies in ``files`` (files, or
    folders: what lies in them), and the errors of those files."""
    scope = Scope(list(files))
    kept = [f for f in findings if touches(f, scope)]
    errs = [e for e in errors if scope.covers(e.split(": ", 1)[0])]
    return kept, errs


def touches(f, scope: Scope) -> bool:
    """Whether the finding's allocation, re-assignment or subclass lies in ``scope``."""
    return any(scope.covers(p) for p in dict.fromkeys([f.path, *f.related_paths]))


def with_findings(result: CheckResult, findings, errors=None) -> CheckResult:
    return dataclasses.replace(
        result, findings=list(findings), errors=list(result.errors if errors is None else errors)
    )


def resolve_class(result: CheckResult, name: str) -> str:
    """A class's qualified name from a full or trailing dotted name; ambiguity is a usage error."""
    classes = result.index.classes if result.index else {}
    if name in classes:
        return name
    matches = sorted(q for q in classes if q.endswith("." + name))
    if len(matches) == 1:
        return matches[0]
    if not matches:
        hint = " (code-generation sources were skipped: --include-generation-sources)" if result.skipped_sources else ""
        close = difflib.get_close_matches(name, sorted({q.rsplit(".", 1)[-1] for q in classes}), n=1)
        if close:
            hint = f" (did you mean {close[0]!r}?){hint}"
        raise UsageError(f"no class {name!r} in the analysed files{hint}")
    shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
    raise UsageError(f"class name {name!r} is ambiguous: {shown}")
