"""Which findings ``deadinit fix`` may fix: those that touch the paths it was given (a hook's staged
files), less those a ``--baseline`` file records.  The others are left alone: moved among the
result's suppressed findings, which the planners do not fix and the re-analysis of a plan does not
take for new ones, and not counted as left in the tree when the command exits."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.session.baseline import Baseline
from deadinit.session.findings import touches
from deadinit.session.project_root import Scope


@dataclass(frozen=True)
class Lane:
    scope: Scope | None = None  # None: every path of the project
    baselined: frozenset[str] = frozenset()  # finding keys to leave alone

    @classmethod
    def of(cls, paths: list[str] | None, baseline: Baseline | None) -> Lane:
        return cls(Scope(paths) if paths else None, frozenset(baseline.keys) if baseline else frozenset())

    @property
    def everything(self) -> bool:
        return self.scope is None and not self.baselined

    def keeps(self, f: Finding) -> bool:
        if f.code != "DI100" and f.key in self.baselined:
            return False
        return self.scope is None or touches(f, self.scope)


def in_lane(result: CheckResult, lane: Lane) -> CheckResult:
    """``result`` with the findings outside ``lane`` among the suppressed ones."""
    if lane.everything:
        return result
    kept = [f for f in result.findings if lane.keeps(f)]
    left = [f for f in result.findings if not lane.keeps(f)]
    return dataclasses.replace(result, findings=kept, suppressed=[*result.suppressed, *left])


def lane_classes(result: CheckResult, lane: Lane) -> tuple[str, ...]:
    """The classes a strategy that picks its own classes (direct-base) may rewrite in ``lane``: those
    defined in its paths, and the subclasses of its findings; () when the lane is every path."""
    if lane.scope is None or result.index is None:
        return ()
    index = result.index
    defined = [q for q in index.classes if lane.scope.covers(index.path_of(q))]
    return tuple(dict.fromkeys([*defined, *(f.cls for f in result.findings if lane.keeps(f) and f.cls)]))
