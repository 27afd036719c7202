"""``check_summaries`` that analyses again only the classes whose inputs changed.

Each candidate class is analysed, and the rules run on its one analysis, inside a recording
(``deadinit.index.dependencies``): the keys of every table entry and memo it read are its
dependencies.  The next run rebuilds the index and the tables from all summaries, compares
the digest of each recorded entry with the stored one (``deadinit.rules.table_digests``), and
analyses again the new classes and those that read a changed entry; the others keep their
stored findings.  What combines the classes (dedupe over subclasses, order, suppressions)
runs over all findings every time, as in a full run: the result is the full run's.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Hashable, Mapping

from deadinit.index.dependencies import Key, recording
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.rules.engine import (
    RuleContext,
    candidate_classes,
    index_summaries,
    ordered_findings,
    sort_findings,
)
from deadinit.rules.registry import selected_rules
from deadinit.rules.table_digests import TableDigests
from deadinit.runtime.analysis_state import AnalysisState, ClassRecord


def summary_fingerprint(summary: FileSummary) -> str:
    return hashlib.blake2b(pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16).hexdigest()


def check_incremental(
    summaries: list[FileSummary],
    settings: Settings,
    result: CheckResult,
    previous: AnalysisState | None,
    fingerprints: Mapping[str, str] | None = None,
) -> tuple[CheckResult, AnalysisState, dict[str, int]]:
    """``check_summaries(summaries, settings, result)`` and the state the next run starts from, reusing
    ``previous`` (None: every class is analysed).  ``fingerprints``: path -> a hash of the content its
    summary was made from, where known (else the summary is hashed).  ``result.analyses`` holds the
    analyses of the classes analysed this time only; the stats count classes analysed and reused."""
    res = index_summaries(summaries, settings, result)
    index, analyzer = res.index, res.analyzer
    known = fingerprints or {}
    fps = {m: known.get(s.path) or summary_fingerprint(s) for m, s in index.modules.data.items()}
    digests = TableDigests(index, analyzer, fps)
    now: dict[Key, Hashable] = {}
    changed: set[int] = set()
    if previous is not None:
        for i, (key, stored) in enumerate(zip(previous.keys, previous.digests, strict=True)):
            moved, now[key] = digests.compare(key, stored)
            if moved:
                changed.add(i)
    rules = [rule() for rule in selected_rules(settings)]
    per_class: dict[str, list[list[Finding]]] = {}
    fresh: dict[str, tuple[set[Key], bytes]] = {}
    kept: dict[str, ClassRecord] = {}
    for qn in candidate_classes(index):
        old = previous.classes.get(qn) if previous is not None else None
        if old is not None and changed.isdisjoint(old.keys):
            kept[qn] = old
            per_class[qn] = pickle.loads(old.findings)
            continue
        with recording() as keys:
            an = analyzer.analyse(qn)
            found: list[list[Finding]] = [[] for _ in rules]
            if an is not None and (an.facts or an.chain.broken is not None):
                res.analyses.append(an)
                ctx = RuleContext(index, analyzer, [an], settings)
                found = [list(rule.check(ctx)) for rule in rules]
        keys.add(("class", qn))
        fresh[qn] = (keys, pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
        per_class[qn] = found
    findings = [f for i in range(len(rules)) for qn in per_class for f in per_class[qn][i]]
    sort_findings(res, ordered_findings(index, findings), settings)
    stats = {"analysed": len(fresh), "reused": len(kept), "changed_keys": len(changed)}
    return res, _new_state(previous, kept, fresh, now, digests), stats


def _new_state(
    previous: AnalysisState | None,
    kept: dict[str, ClassRecord],
    fresh: dict[str, tuple[set[Key], bytes]],
    now: dict[Key, Hashable],
    digests: TableDigests,
) -> AnalysisState:
    state = AnalysisState()
    ids: dict[Key, int] = {}

    def intern(key: Key) -> int:
        i = ids.get(key)
        if i is None:
            i = ids[key] = len(state.keys)
            state.keys.append(key)
            state.digests.append(now[key] if key in now else digests.digest(key))
        return i

    old_keys = previous.keys if previous is not None else []
    for qn, record in kept.items():
        state.classes[qn] = ClassRecord(tuple(intern(old_keys[i]) for i in record.keys), record.findings)
    for qn, (keys, blob) in fresh.items():
        state.classes[qn] = ClassRecord(tuple(intern(k) for k in keys), blob)
    return state
