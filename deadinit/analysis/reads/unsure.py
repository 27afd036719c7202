"""Which dynamic accesses make a finding on one attribute unsure."""

from __future__ import annotations

from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import ExprTag
from deadinit.model.summary import Pattern
from deadinit.semantics.dynamic import matches


def unsure_for(unsure: list[tuple[str, Pattern]], attr: str, index: ProjectIndex, mro: list[str]) -> list[str]:
    """The reasons of the accesses in ``unsure`` (reason, pattern) that could reach ``attr`` on a class
    with this MRO (a class attribute that lists names is read from the nearest class setting it)."""
    if not unsure:
        return []
    values = index.class_values(mro)

    def listed(name: str) -> tuple[str, ...] | None:
        v = values.get(name)
        if v and v[0] == ExprTag.TUPLE and all(x[0] == ExprTag.CONST and isinstance(x[1], str) for x in v[1]):
            return tuple(x[1] for x in v[1])
        return None

    return [reason for reason, pattern in unsure if matches(pattern, attr, listed)]
