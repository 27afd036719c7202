"""Names of classes in messages: the class name alone, unless two classes of one finding share it.

``llama_eagle3.LlamaDecoderLayer`` subclasses ``llama.LlamaDecoderLayer``: in a finding that
names both, each is shown with as many trailing parts of its module as tell them apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from deadinit.index.project_index import ProjectIndex


def display_names(index: ProjectIndex, classes: Iterable[str]) -> dict[str, str]:
    """qualname -> the name to show; classes whose short names clash get module parts."""
    by_short: dict[str, set[str]] = defaultdict(set)
    for qn in classes:
        by_short[qn.rsplit(".", 1)[-1]].add(qn)
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


def _module_parts(index: ProjectIndex, qn: str) -> list[str]:
    module = index.class_module.get(qn)
    if module is None:
        return qn.split(".")[:-1]
    return module.split(".")
