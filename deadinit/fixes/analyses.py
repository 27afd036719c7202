"""The class analyses a fix plans from, made when a planner asks for them.

A full run (``check_summaries``) hands over the analysis of every candidate class that has
facts or a broken ``__init__`` chain (``result.analyses``); ``deadinit fix`` on a warm cache
starts from the stored findings instead (``session.run.Session.for_fix``) and its result says
``analyses_complete = False``: the analyses it holds are only those the run made.  Planners ask
``PlanAnalyses`` either way and get what the full run's list holds: the analysis of one class
(``get``), those whose chain is broken (``broken``), or all of them (``everything``), each made
by the result's analyzer on first use, which gives what the full run gives.  Which chains are
broken, the analysis state the result carries says when it is the project's as it is (each class's
record), instead of every candidate's chain being walked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deadinit.analysis.analyzer import Analyzer, ClassAnalysis
from deadinit.analysis.flow.chain import init_chain
from deadinit.index.project_index import ProjectIndex
from deadinit.model.result import CheckResult
from deadinit.rules.engine import candidate_classes

if TYPE_CHECKING:
    from deadinit.session.incremental import Baseline


def project_index(result: CheckResult) -> ProjectIndex:
    """The whole index a fix plans from (``session.run.Session.for_fix`` gives one)."""
    index: ProjectIndex | None = result.index
    assert index is not None
    return index


def project_analyzer(result: CheckResult) -> Analyzer:
    """The analyzer a fix plans with (``session.run.Session.for_fix`` gives one)."""
    analyzer: Analyzer | None = result.analyzer
    assert analyzer is not None
    return analyzer


def kept(an: ClassAnalysis | None) -> ClassAnalysis | None:
    """``an`` when the full run's list holds it (``rules.engine.analyse``), else None."""
    return an if an is not None and (an.facts or an.chain.broken is not None) else None


class PlanAnalyses:
    def __init__(self, result: CheckResult) -> None:
        self.index, self.analyzer = project_index(result), project_analyzer(result)
        self.complete = result.analyses_complete
        self.baseline: Baseline | None = result.baseline
        self._made: dict[str, ClassAnalysis | None] = {an.cls: an for an in result.analyses}
        self._classes: list[str] | None = None
        self._candidates: set[str] | None = None
        self._broken: list[ClassAnalysis] | None = None

    def _candidate_classes(self) -> list[str]:
        if self._classes is None:
            self._classes = candidate_classes(self.index)
        return self._classes

    def _is_candidate(self, cls: str) -> bool:
        if self._candidates is None:
            self._candidates = set(self._candidate_classes())
        return cls in self._candidates

    def get(self, cls: str) -> ClassAnalysis | None:
        """The analysis of ``cls`` the full run's list holds, or None."""
        if cls not in self._made:
            if self.complete or not self._is_candidate(cls):
                return None
            self._made[cls] = kept(self.analyzer.analyse(cls))
        return self._made[cls]

    def __getitem__(self, cls: str) -> ClassAnalysis:
        an = self.get(cls)
        if an is None:
            raise KeyError(cls)
        return an

    def broken(self) -> list[ClassAnalysis]:
        """The analyses whose ``__init__`` chain cannot bind (DI004), in class order."""
        if self._broken is None:
            if self.complete:
                found = [an for an in self._made.values() if an is not None]
            else:  # the chain alone says whether it is broken: only those classes are analysed
                found = [an for cls in self._broken_classes() if (an := self.get(cls)) is not None]
            self._broken = [an for an in found if an.chain.broken is not None]
        return self._broken

    def _broken_classes(self) -> list[str]:
        """The candidate classes whose chain is broken, in order: from the records of the analysis
        state when it is the project's as it is (``session.incremental.Baseline.broken``), else from
        each one's chain."""
        classes = self._candidate_classes()
        stored = self.baseline.broken(classes) if self.baseline is not None else None
        if stored is not None:
            return stored
        return [cls for cls in classes if init_chain(self.index, cls).broken is not None]

    def everything(self) -> list[ClassAnalysis]:
        """The full run's list: every candidate class's analysis it keeps, in class order."""
        if self.complete:
            return [an for an in self._made.values() if an is not None]
        out: list[ClassAnalysis] = []
        for cls in self._candidate_classes():
            an = self.get(cls)
            if an is not None:
                out.append(an)
        return out
