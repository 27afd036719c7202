"""Names of classes in messages: the class name alone, unless two classes of one finding share it.

``llama_eagle3.LlamaDecoderLayer`` subclasses ``llama.LlamaDecoderLayer``: in a finding that
names both, each is shown with as many trailing parts of its module as tell them apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Protocol

from deadinit.model.qualnames import short_name


class KnowsModules(Protocol):
    """A project index, or the light one cached results keep: what naming needs of it."""

    @property
    def modules(self) -> Mapping[str, object]: ...


def display_names(index: KnowsModules, classes: Iterable[str]) -> dict[str, str]:
    """qualname -> the name to show; classes whose short names clash get module parts."""
    by_short: dict[str, set[str]] = defaultdict(set)
    for qn in classes:
        by_short[short_name(qn)].add(qn)
    out: dict[str, str] = {}
    for short, group in by_short.items():
        if len(group) == 1:
            out[next(iter(group))] = short
            continue
        parts = {qn: _module_parts(index, qn) for qn in group}
        inner = {qn: qn[len(".".join(parts[qn])) + 1 :] if parts[qn] else qn for qn in group}
        depth = 1
        longest = max(len(p) for p in parts.values())
        while True:
            names = {qn: ".".join([*parts[qn][-depth:], inner[qn]]) for qn in group}
            if len(set(names.values())) == len(group) or depth >= longest:
                break
            depth += 1
        out.update(names)
    return out


def _module_parts(index: KnowsModules, qn: str) -> list[str]:
    """The parts of the module that defines ``qn`` (the longest prefix that is a module)."""
    parts = qn.split(".")
    for n in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:n]) in index.modules:
            return parts[:n]
    return parts[:-1]
