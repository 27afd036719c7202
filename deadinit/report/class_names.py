"""Classes named as ``--class`` takes them alone: the shortest trailing dotted name of the qualified
name that no other class of the index ends with (``TrtMHABackend``; ``draft.TinyDecoderLayer`` where
two modules define a ``TinyDecoderLayer``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable


def option_names(index, qualnames: Iterable[str]) -> dict[str, str]:
    """qualname -> the shortest trailing dotted name ``--class`` resolves to it alone, for ``qualnames``
    ({} without an index)."""
    shown = {q for q in qualnames if q}
    if index is None or not shown:
        return {}
    by_short: dict[str, list[str]] = defaultdict(list)
    wanted = {q.rsplit(".", 1)[-1] for q in shown}
    for q in index.classes:
        last = q.rsplit(".", 1)[-1]
        if last in wanted:
            by_short[last].append(q)
    return {q: unique_suffix(q, by_short.get(q.rsplit(".", 1)[-1], [q])) for q in shown}


def unique_suffix(qualname: str, same_short: list[str]) -> str:
    parts = qualname.split(".")
    for k in range(1, len(parts) + 1):
        name = ".".join(parts[-k:])
        if sum(1 for q in same_short if q == name or q.endswith("." + name)) <= 1:
            return name
    return qualname
