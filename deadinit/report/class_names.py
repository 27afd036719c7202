"""Classes named as ``--class`` takes them alone: the shortest trailing dotted name of the qualified
name that no other class of the index ends with (``TrtMHABackend``; ``draft.TinyDecoderLayer`` where
two modules define a ``TinyDecoderLayer``)."""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.model.namesakes import namesakes
from deadinit.model.qualnames import short_name


def option_names(index, qualnames: Iterable[str]) -> dict[str, str]:
    """qualname -> the shortest trailing dotted name ``--class`` resolves to it alone, for ``qualnames``
    ({} without an index). A stored result's index keeps the namesakes of its findings' classes."""
    shown = {q for q in qualnames if q}
    if index is None or not shown:
        return {}
    wanted = {short_name(q) for q in shown}
    kept = getattr(index, "namesakes", None)  # a LiteIndex: the rest of the classes are not kept
    same = kept if kept is not None else namesakes(index.classes, wanted)
    return {q: unique_suffix(q, same.get(short_name(q), [q])) for q in shown}


def unique_suffix(qualname: str, same_short: list[str]) -> str:
    parts = qualname.split(".")
    for k in range(1, len(parts) + 1):
        name = ".".join(parts[-k:])
        if sum(1 for q in same_short if q == name or q.endswith("." + name)) <= 1:
            return name
    return qualname
