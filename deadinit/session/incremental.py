"""``check_summaries`` that analyses again only the classes whose inputs changed.

Each candidate class is analysed, and the rules run on its one analysis, inside a recording
(``deadinit.index.dependencies``): the keys of every table entry and memo it read are its
dependencies.  The next run rebuilds the index and the tables from all summaries, compares
the digest of each recorded entry with the stored one (``deadinit.session.table_digests``), and
analyses again the new classes and those that read a changed entry; the others keep their
stored findings.  What combines the classes (dedupe over subclasses, order, suppressions)
runs over all findings every time, as in a full run: the result is the full run's.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import pickle
import time
from array import array
from collections.abc import Callable, Mapping
from typing import Any

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.analysis.liveness.variant_sites import Resolved
from deadinit.index.dependencies import ALL, Key, recording
from deadinit.index.hierarchy_problems import problem_lines
from deadinit.index.project_index import ProjectIndex
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.base import Rule
from deadinit.rules.engine import RuleContext, candidate_classes, index_summaries
from deadinit.rules.isolation import isolated
from deadinit.rules.registry import selected_rules
from deadinit.session.analysis_state import AnalysisState, ClassRecord, Digest
from deadinit.session.class_graph import GRAPH_DERIVED, ClassGraph, class_graph
from deadinit.session.findings import settle
from deadinit.session.table_digests import TableDigests


def summary_fingerprint(summary: FileSummary) -> str:
    return hashlib.blake2b(pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).hexdigest()


def content_fingerprint(summary: FileSummary, content_hash: str) -> str:
    """The fingerprint of a summary made from content that hashes to ``content_hash``
    (``runtime.file_cache.content_hash``), with what else it is made from: its module, package
    flag and path.  Cheaper than ``summary_fingerprint``, which pickles the summary."""
    return f"{content_hash}:{summary.module}:{summary.is_package}:{summary.path}"


def content_fingerprints(summaries: list[FileSummary], hashes: Mapping[str, str]) -> dict[str, str]:
    """Path -> ``content_fingerprint``, for each summary whose content's hash ``hashes`` knows."""
    return {s.path: content_fingerprint(s, hashes[s.path]) for s in summaries if s.path in hashes}


@dataclasses.dataclass
class Baseline:
    """What analysing a variant of a project (``deadinit fix``'s plan, in memory) starts from:
    the analysis state of the project as it is, and the fingerprints of its summaries."""

    state: AnalysisState
    fingerprints: Mapping[str, str]
    current: bool = False  # the state is the analysis of the project as it is: every class's record holds

    def broken(self, classes: list[str]) -> list[str] | None:
        """Those of ``classes`` whose ``__init__`` chain cannot bind, in order, from their records
        (``ClassRecord.broken``); None unless the state is current and has a record of each."""
        records = self.state.classes
        if not self.current or any(qn not in records for qn in classes):
            return None
        return [qn for qn in classes if records[qn].broken]


def check_incremental(
    summaries: list[FileSummary],
    settings: Settings,
    result: CheckResult,
    previous: AnalysisState | None,
    fingerprints: Mapping[str, str] | None = None,
    next_state: bool = True,
    resolved: Callable[[ProjectIndex], Resolved | None] | None = None,
    moved: Callable[[ProjectIndex, Analyzer], Callable[[Key], bool]] | None = None,
) -> tuple[CheckResult, AnalysisState | None, dict[str, Any]]:
    """``check_summaries(summaries, settings, result)`` and the state the next run starts from, reusing
    ``previous`` (None: every class is analysed; it is never changed).  ``fingerprints``: path -> a
    hash of the content its summary was made from, where known (else the summary is hashed).
    ``next_state`` False: no state is built (None), for summaries that no run will start from.
    ``resolved``: the construction sites and exports of the index built from ``summaries``, where the
    caller can tell them (None: it cannot), installed instead of resolving every construction's
    callee and every exported name.
    ``moved``: whether a stored key's entry only moved (``session.line_shift``), where the caller can
    tell (a class that read only such changed keys keeps its record when it has no findings to place).
    ``result.analyses`` holds the analyses of the classes analysed this time only; the stats count
    classes analysed and reused."""
    laps = _Laps()
    res = index_summaries(summaries, settings, result, hierarchy_errors=False)
    index, analyzer = res.index, res.analyzer
    assert index is not None and analyzer is not None  # index_summaries built them
    given = resolved(index) if resolved is not None else None
    if given is not None:
        analyzer.install(given)
    laps.lap("index")
    diff = _diff(res, previous, fingerprints or {}, moved(index, analyzer) if moved is not None else None)
    laps.lap("diff")
    rules = [rule() for rule in selected_rules(settings)]
    runs = _ClassRuns(previous, diff.changed, diff.moved)
    for qn in candidate_classes(index):
        runs.run(qn, res, functools.partial(_analysed, analyzer, qn, rules, settings), len(rules))
    laps.lap("analyse")
    per_class = runs.per_class
    findings = [f for i in range(len(rules)) for qn in per_class for f in per_class[qn][i]]
    settle(res, findings, settings)
    laps.lap("combine")
    state = _new_state(previous, runs.kept, runs.fresh, diff.now, diff.digests, diff.graph) if next_state else None
    laps.lap("state")
    whole = sum(1 for keys, _, _ in runs.fresh.values() if any(k[1] == ALL for k in keys))  # always analysed again
    stats = {
        "analysed": len(runs.fresh),
        "reused": len(runs.kept),
        "changed_keys": len(diff.changed),
        "moved_keys": len(diff.moved),
        "whole_table_reads": whole,
        "class_graph": "reused" if diff.graph.reused else "built",
        "sites": "given" if given is not None else "resolved",
        "exports": "given" if given is not None and given.exports is not None else "resolved",
        "seconds": laps.times,
    }
    return res, state, stats


class _Laps:
    """The seconds each step took (``times``: step -> seconds since the step before)."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.times[name] = round(now - self._last, 3)
        self._last = now


@dataclasses.dataclass
class _Diff:
    digests: TableDigests
    now: list[Digest]  # per stored key: its digest in this run
    changed: set[int]  # the stored keys whose digest changed (but those that only moved)
    graph: ClassGraph
    moved: set[int]  # the stored keys whose digest changed but whose entry only moved


def _diff(
    res: CheckResult,
    previous: AnalysisState | None,
    known: Mapping[str, str],
    only_moved: Callable[[Key], bool] | None = None,
) -> _Diff:
    """Compare the digest of each stored key with this run's, building the class graph on the way
    (reused when none of its inputs changed); its problems and outside bases go to ``res``.  The
    keys ``only_moved`` tells go from ``changed`` to ``moved``."""
    index = res.index
    assert index is not None and res.analyzer is not None  # check_incremental indexed the summaries
    fps = {m: known.get(s.path) or summary_fingerprint(s) for m, s in index.modules.data.items()}
    digests = TableDigests(index, res.analyzer, fps)
    now: list[Digest] = list(previous.digests) if previous is not None else []
    changed: set[int] = set()
    later: list[int] = []  # entries of the subclass table: compared once the table is there
    moved: set[int] = set()
    if previous is not None:
        later = digests.compare_groups(previous.keys, previous.digests, previous.by_kind, now, changed, GRAPH_DERIVED)
        _set_apart(previous, changed, moved, only_moved)
    graph = class_graph(index, previous, changed)
    res.errors.extend(problem_lines(index, graph.problems))
    res.outside_bases = graph.outside
    if previous is not None:
        digests.compare_stored(previous.keys, previous.digests, later, now, changed)
        _set_apart(previous, changed, moved, only_moved)
    return _Diff(digests, now, changed, graph, moved)


def _set_apart(
    previous: AnalysisState, changed: set[int], moved: set[int], only_moved: Callable[[Key], bool] | None
) -> None:
    """Move the keys of ``changed`` whose entries ``only_moved`` tells into ``moved``."""
    if only_moved is not None:
        gone = {i for i in changed if only_moved(previous.keys[i])}
        changed -= gone
        moved |= gone


class _ClassRuns:
    """Each candidate class's findings (``per_class``: per rule), from its stored record when it
    read no changed key (``kept``), nor a ``moved`` one while it has findings (their places would
    move), else analysed again inside a recording (``fresh``: its keys, pickled findings, whether its
    chain is broken)."""

    def __init__(self, previous: AnalysisState | None, changed: set[int], moved: set[int] | None = None) -> None:
        self.previous = previous
        self.changed = changed
        self.moved = moved or set()
        self.per_class: dict[str, list[list[Finding]]] = {}
        self.fresh: dict[str, tuple[set[Key], bytes, bool]] = {}
        self.kept: dict[str, ClassRecord] = {}

    def run(
        self,
        qn: str,
        res: CheckResult,
        analyse: Callable[[], tuple[ClassAnalysis | None, list[list[Finding]]]],
        n_rules: int,
    ) -> None:
        old = self.previous.classes.get(qn) if self.previous is not None else None
        if old is not None and self.changed.isdisjoint(old.keys):
            found = pickle.loads(old.findings)
            if not any(found) or self.moved.isdisjoint(old.keys):
                self.kept[qn] = old
                self.per_class[qn] = found
                return
        assert res.index is not None  # the classes run are the index's (``candidate_classes``)
        with recording() as keys:
            done = isolated(res.index, res, qn, analyse)
        if done is None:  # an internal error: no findings, no record (the next run tries it again)
            self.per_class[qn] = [[] for _ in range(n_rules)]
            return
        an, found = done
        if found:
            res.analyses.append(an)
        else:
            found = [[] for _ in range(n_rules)]
        keys.add(("class", qn))
        broken = an is not None and an.chain.broken is not None
        self.fresh[qn] = (keys, pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL), broken)
        self.per_class[qn] = found


def _analysed(
    analyzer: Analyzer, qn: str, rules: list[Rule], settings: Settings
) -> tuple[ClassAnalysis | None, list[list[Finding]]]:
    """``qn``'s analysis and each rule's findings on it ([] when nothing is reported on it)."""
    an = analyzer.analyse(qn)
    if an is None or not (an.facts or an.chain.broken is not None):
        return an, []
    ctx = RuleContext(analyzer.index, analyzer, [an], settings)
    return an, [list(rule.check(ctx)) for rule in rules]


def _new_state(
    previous: AnalysisState | None,
    kept: dict[str, ClassRecord],
    fresh: dict[str, tuple[set[Key], bytes, bool]],
    now: list[Digest],
    digests: TableDigests,
    graph: ClassGraph,
) -> AnalysisState:
    """The state after this run: the previous keys in place (the kept records stay as they are),
    new keys appended; rebuilt without the keys no record reads once they are half."""
    state = AnalysisState()
    ids: dict[Key, int] = {}
    if previous is not None:
        state.keys = list(previous.keys)
        state.digests = now
        state.live = previous.live
        state.by_kind = {kind: array("I", group) for kind, group in previous.by_kind.items()}
        ids = _known_ids(previous, fresh, graph)

    def numbered(keys: set[Key]) -> array[int]:
        out = array("I")
        for k in keys:
            i = ids.get(k)
            if i is None:
                i = ids[k] = state.append(k, digests.digest(k))
            out.append(i)
        return out

    for qn, record in kept.items():
        state.classes[qn] = record
    for qn, (keys, blob, broken) in fresh.items():
        state.classes[qn] = ClassRecord(numbered(keys), blob, broken)
    state.graph = graph.record if graph.reused else graph.new_record(numbered)
    if previous is None:
        state.live = len(state.keys)  # numbered as the records first read them: as compacted
    elif len(state.keys) > 2 * max(state.live, 1000):
        state = _compacted(state)
    return state


def _known_ids(previous: AnalysisState, fresh: dict[str, Any], graph: ClassGraph) -> dict[Key, int]:
    """The stored keys' numbers that the records made this run most likely read again: those their
    classes' previous records read, and the previous class graph's when the graph was built again.
    A key read elsewhere only is appended once more (``_compacted`` takes such copies together):
    numbering every stored key would hash all of them (~90,000 on sglang) on every run."""
    read = [previous.classes[qn].keys for qn in fresh if qn in previous.classes]
    if not graph.reused and previous.graph is not None:
        read.append(previous.graph.keys)
    ids: dict[Key, int] = {}
    for numbers in read:
        ids.update(zip(map(previous.keys.__getitem__, numbers), numbers, strict=True))
    return ids


def _compacted(state: AnalysisState) -> AnalysisState:
    """``state`` with only the keys its records read, each once (a key appended again by a run that
    did not look it up, ``_known_ids``, takes its first number)."""
    out = AnalysisState()
    renumber: dict[int, int] = {}
    first: dict[Key, int] = {}

    def renumbered(keys: array[int]) -> array[int]:
        ids = array("I")
        for i in keys:
            j = renumber.get(i)
            if j is None:
                key = state.keys[i]
                j = first.get(key)
                if j is None:
                    j = first[key] = out.append(key, state.digests[i])
                renumber[i] = j
            ids.append(j)
        return ids

    for qn, record in state.classes.items():
        out.classes[qn] = dataclasses.replace(record, keys=renumbered(record.keys))
    if state.graph is not None:
        out.graph = dataclasses.replace(state.graph, keys=renumbered(state.graph.keys))
    out.live = len(out.keys)
    out.inputs = state.inputs
    return out
