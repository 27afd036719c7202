"""Classes that share a short name (the last part of the qualified name): what decides how short a
name ``--class`` takes for one class alone."""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.model.qualnames import short_name


def namesakes(qualnames: Iterable[str], shorts: set[str]) -> dict[str, list[str]]:
    """short name -> the ``qualnames`` with it, for the short names in ``shorts``."""
    out: dict[str, list[str]] = {}
    for q in qualnames:
        short = short_name(q)
        if short in shorts:
            out.setdefault(short, []).append(q)
    return out
