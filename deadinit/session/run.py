"""``Session``: one run over a project, from discovery to the findings and the re-analysis of a
rewrite.  Every command goes through one: ``check`` (``check``), ``explain`` (``explained``),
``graph`` (``with_index``) and ``fix`` (``for_fix``, then ``session.reanalysis``).

The session decides, once, whether the run is cached (``summarizer.use_cache``): a cached run
answers from the whole-run result cache (``runtime.result_cache``) when nothing changed, else
analyses again only the classes whose inputs changed (``session.incremental``) and stores the
state; an uncached one (``--no-cache``) analyses every class and stores nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from deadinit.index.discovery import Discovery
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult
from deadinit.runtime.stat_memo import StatMemo
from deadinit.session.config import Config
from deadinit.session.discovery import discovered
from deadinit.session.errors import UsageError
from deadinit.session.findings import no_files_message
from deadinit.session.setup import path_filter
from deadinit.session.summarizing import StageSummarizer, Summarize

if TYPE_CHECKING:
    from deadinit.runtime.summarizer import ProjectSummarizer
    from deadinit.session.analysis_state import StateStore, TableStore


@dataclass
class Explained:
    """What ``explain`` shows: the project's index and analyzer, and the class asked about."""

    result: CheckResult
    qualname: str


@dataclass
class Session:
    """A run over ``paths`` with ``cfg``.  ``summarizer``: the per-file cache and the workers
    (``runtime.summarizer.ProjectSummarizer``), or None for the in-process summariser, uncached;
    ``wrap``: what the front-end puts around it while files are summarised (a progress bar)."""

    paths: list[str]
    cfg: Config
    summarizer: ProjectSummarizer | None = None
    wrap: Callable[[Summarize], StageSummarizer] | None = None
    stats: StatMemo = field(default_factory=StatMemo)  # each file stat'ed once per run
    _discovery: Discovery | None = None

    def __post_init__(self) -> None:
        self.paths = list(self.paths)
        self.settings = self.cfg.settings
        self.excluded = path_filter(self.cfg)
        self.cached = self.summarizer is not None and self.summarizer.use_cache

    # -- the stages ---------------------------------------------------------------------------

    def discovery(self) -> Discovery:
        """What discovery finds at the paths: walked once per session."""
        if self._discovery is None:
            self._discovery = discovered(self.paths, self.settings, self.excluded, self.stats)
        return self._discovery

    @contextmanager
    def _summarising(self, wrapped: bool = True) -> Iterator[StageSummarizer | None]:
        """The summarizer one stage calls (in ``wrap`` when ``wrapped``), handed the files' stats
        this run took (for that call only: they are not for a later run), closed after."""
        base = self.summarizer
        used: StageSummarizer | None = base
        if wrapped and self.wrap is not None:
            if base is None:
                from deadinit.frontends.parse import summarize_many  # noqa: PLC0415 - the parser: a cached run summarises nothing

                used = self.wrap(summarize_many)
            else:
                used = self.wrap(base)
        if base is not None:
            base.known_stats = self.stats
        try:
            yield used
        finally:
            if base is not None:
                base.known_stats = None
            if used is not None:
                used.close()

    def _stores(self) -> tuple[StateStore, TableStore]:
        """Where a cached run keeps its analysis state and the tables ``explain`` reads."""
        from deadinit.runtime import result_cache as results  # noqa: PLC0415 - only a cached run reads it
        from deadinit.session.analysis_state import StateStore, TableStore  # noqa: PLC0415 - only a cached run

        assert self.summarizer is not None
        folder, key = self.summarizer.folder(self.settings), results.run_key(self.paths, self.settings, self.excluded)
        return StateStore(folder, key), TableStore(folder, key)

    def full(self) -> CheckResult:
        """Every class analysed; nothing stored."""
        from deadinit.session.pipeline import run_check  # noqa: PLC0415 - the analysis: a warm cached check never loads it

        with self._summarising() as summarizer:
            return run_check(self.paths, self.settings, summarizer, self.excluded, discovery=self.discovery())

    def incremental(self) -> CheckResult:
        """``full``'s result, analysing again only the classes whose inputs changed since the state
        kept next to the per-file cache, and storing this run's (``session.incremental``)."""
        if not self.cached:
            return self.full()
        from deadinit.session.pipeline import run_incremental  # noqa: PLC0415 - the analysis: a warm cached check never loads it

        store, tables = self._stores()
        with self._summarising() as summarizer:
            assert summarizer is not None
            return run_incremental(
                self.paths, self.settings, summarizer, self.excluded, store, self.discovery(), tables
            )

    def index(self, hierarchy_errors: bool = True, wrapped: bool = True) -> CheckResult:
        """The project's index and an analyzer that analyses a class when asked, without the
        findings (``session.pipeline.index_project``; a cached run installs the tables the last
        incremental run stored).  ``hierarchy_errors`` False: without the error lines of every
        class's hierarchy problems."""
        from deadinit.session.pipeline import index_project  # noqa: PLC0415 - the analysis: a warm cached check never loads it

        tables = self._stores()[1] if self.cached else None
        with self._summarising(wrapped) as summarizer:
            disc = self.discovery()
            return index_project(self.paths, self.settings, summarizer, self.excluded, disc, hierarchy_errors, tables)

    # -- what the commands ask --------------------------------------------------------------

    def check(self) -> CheckResult:
        """``check``'s result: through the whole-run result cache when cached (``session.result``:
        a hit's ``index`` is a ``LiteIndex`` and it has no analyzer), else ``full``."""
        if not self.cached:
            return self.full()
        from deadinit.session.result import cached_check  # noqa: PLC0415 - multiprocessing: only a cached check

        return cached_check(self)

    def with_index(self) -> CheckResult:
        """``check``'s findings with the whole ``ProjectIndex`` and an analyzer, for ``graph``: on a
        result-cache hit the index is built from the cached summaries and no hierarchy analysed."""
        result = self.check()
        if result.analyzer is not None:  # uncached, or a miss: the run made the index
            return result
        indexed = self.index(hierarchy_errors=False, wrapped=False)  # the stored result has the error lines
        return dataclasses.replace(result, index=indexed.index, analyzer=indexed.analyzer)

    def for_fix(self) -> CheckResult:
        """``check``'s result with the whole index and an analyzer, which ``fix`` plans from.

        Uncached, ``full``.  Cached, the findings come through the result cache (on a miss, the
        incremental analysis, which stores them for ``check``), the index and analyzer from the
        cached summaries, and ``analyses_complete`` is False: the planners analyse the classes they
        look at (``deadinit.fixes.analyses``).  ``baseline``: the analysis state ``check`` stored (a
        hit) or this run's (a miss), which the re-analysis of a plan starts from (None when there is
        none: it analyses every class)."""
        if not self.cached:
            return self.full()
        result = self.check()
        if result.analyzer is None:  # a hit: the stored result has a LiteIndex and no analyzer
            from deadinit.session.result import stored_baseline  # noqa: PLC0415 - the analysis

            indexed = self.index(hierarchy_errors=False, wrapped=False)  # the stored result has the error lines
            assert self.summarizer is not None  # a cached run's
            baseline = stored_baseline(self._stores()[0], self.summarizer, indexed)
            result = dataclasses.replace(result, index=indexed.index, analyzer=indexed.analyzer, baseline=baseline)
        result.analyses_complete = False
        return result

    def explained(self, name: str) -> Explained:
        """The index and analyzer ``explain`` reads for the class ``name`` (full or trailing dotted
        name), with the error lines of its and its ancestors' hierarchy problems only."""
        result = self.index(hierarchy_errors=False)
        if result.files == 0:
            raise UsageError(no_files_message(self.paths))
        qualname = resolve_class(result, name)
        result.errors.extend(hierarchy_lines(result, qualname))
        return Explained(result, qualname)


def hierarchy_lines(result: CheckResult, qualname: str) -> list[str]:
    """The error lines of the hierarchy problems of ``qualname`` and its ancestors."""
    from deadinit.index import hierarchy_problems as problems  # noqa: PLC0415 - the analysis: a warm cached check never loads it

    index = result.index
    assert index is not None  # explain indexed the project
    found = problems.hierarchy_problems(index, only=problems.with_ancestors(index, qualname))
    return problems.problem_lines(index, found)


def resolve_class(result: CheckResult, name: str) -> str:
    """A class's qualified name from a full or trailing dotted name; ambiguity is a usage error."""
    classes: Mapping[str, object] = result.index.classes if result.index else {}
    if name in classes:
        return name
    matches = sorted(q for q in classes if q.endswith("." + name))
    if len(matches) == 1:
        return matches[0]
    if not matches:
        hint = " (code-generation sources were skipped: --include-generation-sources)" if result.skipped_sources else ""
        import difflib  # noqa: PLC0415 - only a name that matches nothing asks for a close one

        close = difflib.get_close_matches(name, sorted({short_name(q) for q in classes}), n=1)
        if close:
            hint = f" (did you mean {close[0]!r}?){hint}"
        raise UsageError(f"no class {name!r} in the analysed files{hint}")
    shown = ", ".join(matches[:5]) + (" ..." if len(matches) > 5 else "")
    raise UsageError(f"class name {name!r} is ambiguous: {shown}")
