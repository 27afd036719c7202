"""Which installed distribution, at which version, holds a top-level package: read from the
``*.dist-info`` / ``*.egg-info`` folders of the search-path folder it was found in
(``importlib.metadata`` reads files; nothing is imported).  A package that no distribution
there names (a configured source folder, ``PYTHONPATH``) has none: its modules are then kept
by their files' sizes and modification times instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import importlib.metadata


class Distribution(NamedTuple):
    name: str
    version: str


class Distributions:
    def __init__(self) -> None:
        self._by_entry: dict[str, dict[str, Distribution]] = {}

    def owner(self, entry: str, top: str) -> Distribution | None:
        """The distribution installed in ``entry`` that provides the top-level package ``top``."""
        table = self._by_entry.get(entry)
        if table is None:
            table = self._by_entry[entry] = _tops(entry)
        return table.get(top)


def _tops(entry: str) -> dict[str, Distribution]:
    import importlib.metadata  # noqa: PLC0415 - ~12 ms, only when a library module is read

    out: dict[str, Distribution] = {}
    for dist in importlib.metadata.distributions(path=[entry]):
        try:
            name, version = dist.metadata["Name"], dist.version
        except Exception:  # a damaged metadata folder names nothing
            continue
        if not name or not version:
            continue
        for top in _top_levels(dist):
            out.setdefault(top, Distribution(name, version))
    return out


def _top_levels(dist: importlib.metadata.Distribution) -> set[str]:
    text = dist.read_text("top_level.txt")
    if text:
        return {line.strip() for line in text.splitlines() if line.strip()}
    tops = set()
    for f in dist.files or ():
        parts = f.parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info", ".data")) or parts[0] in ("..", "__pycache__"):
            continue
        tops.add(parts[0][:-3] if parts[0].endswith(".py") and len(parts) == 1 else parts[0])
    return tops
