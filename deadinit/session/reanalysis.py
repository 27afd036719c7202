"""The re-analysis of a rewrite: the findings of the project as it would be once a plan's files
are written (in memory: nothing is written or stored), which ``fix`` compares with the findings of
the project as it is (``fixes.safety.compare``)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from deadinit.analysis.analyzer import Analyzer
from deadinit.analysis.liveness.variant_sites import Resolved, variant_resolved
from deadinit.frontends.parse import summarize_source
from deadinit.index.dependencies import Key
from deadinit.index.project_index import ProjectIndex
from deadinit.model.file_error import FileError
from deadinit.model.fix import FilePlan
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.runtime.file_cache import content_hash
from deadinit.session.incremental import check_incremental, content_fingerprint
from deadinit.session.line_shift import MovedEntries, line_maps
from deadinit.session.pipeline import check_summaries


def reanalyse(result: CheckResult, files: list[FilePlan], settings: Settings) -> CheckResult:
    """The findings of the project as it would be after ``files`` are written (in memory).

    From ``result.baseline`` when it has one (the analysis state of the project as it is), only
    the classes whose inputs the rewrite changes are analysed again
    (``deadinit.session.incremental``: the same findings); no state is built or stored for the
    rewritten project, which is not on disk; the construction sites and exports of the modules
    not rewritten are taken from the project as it is, but those whose lookups visited a rewritten
    module that binds other names (``analysis.liveness.variant_sites``).  Else every class is analysed."""
    changed = {fp.path: fp.new for fp in files}
    assert result.index is not None and result.analyzer is not None  # a full result: fix planned from it
    summaries: list[FileSummary] = []
    t0 = time.perf_counter()
    for s in result.index.modules.values():
        if s.path in changed:
            r = summarize_source(changed[s.path], s.path, s.module, s.is_package, settings)
            if isinstance(r, FileError):
                raise ValueError(str(r))
            summaries.append(r)
        else:
            summaries.append(s)
    summarised = round(time.perf_counter() - t0, 3)
    baseline = result.baseline
    if baseline is None:
        return check_summaries(summaries, settings, hierarchy_errors=False)  # ``compare`` reads findings only
    fingerprints = dict(baseline.fingerprints)
    for s in summaries:
        if s.path in changed:
            fingerprints[s.path] = content_fingerprint(s, content_hash(changed[s.path]))
    rewritten = {s.module for s in summaries if s.path in changed}
    analyzer = result.analyzer
    analyzer.ext.construct_sites()  # its sites by number are complete once constructed (or installed)
    given = Resolved((analyzer.ext.site_refs, analyzer.ext.site_visits), analyzer.exported.parts())

    before: ProjectIndex = result.index

    def resolved(index: ProjectIndex) -> Resolved | None:
        return variant_resolved(before, given, index, rewritten)

    lines = line_maps(files)

    def moved(index: ProjectIndex, now: Analyzer) -> Callable[[Key], bool]:
        return MovedEntries(lines, (before, analyzer), (index, now)).moved

    after, _, stats = check_incremental(
        summaries,
        settings,
        CheckResult(files=len(summaries)),
        baseline.state,
        fingerprints,
        False,
        resolved,
        moved if baseline.current else None,
    )
    if os.environ.get("DEADINIT_STATS"):
        stats["seconds"]["summarise"] = summarised
        print(f"deadinit: reanalysis: {stats}", file=sys.stderr)
    return after
