"""The prefilter's per-file scan and plan, apart from the prefilter itself (which loads
libcst): the cache and the result cache read them in processes that never parse."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Scan:
    classes: list[tuple[str, frozenset]] = field(default_factory=list)  # (name, identifiers in bases)
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (original, alias)


def variant(scan, hier):
    """What a file's prefiltered summary depends on besides its content: its classes
    that are in a hierarchy (``prefilter.hierarchy_names``); None without the prefilter."""
    if scan is None or hier is None:
        return None
    return tuple(sorted({name for name, _ in scan.classes if name in hier}))
