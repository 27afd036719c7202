"""What can run on an instance of a class: reachable methods and the attributes they read."""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.index.project_index import ProjectIndex
from deadinit.model.qualnames import short_name
from deadinit.model.summary import MethodSummary, Pattern


@dataclass
class Reach:
    cls: str
    mro: list[str]
    methods: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, name) -> why reached
    reads: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)  # attr -> [(owner, method, line)]
    dynamic: list[tuple[str, str, str, int, Pattern]] = field(
        default_factory=list
    )  # (owner, method, reason, line, pattern)
    walks: list[tuple[str, str, str, int]] = field(default_factory=list)  # (owner, method, walk, line)
    # attribute -> the method it names on ``mro`` (``ProjectIndex.resolve_method``), as looked up
    resolved: dict[str, tuple[str, MethodSummary] | None] = field(default_factory=dict, repr=False, compare=False)


def method_reads(
    index: ProjectIndex, mro: list[str], start: list[tuple[str, MethodSummary]], why: str, reach: Reach | None = None
) -> Reach:
    """Follow self calls, callbacks and super() calls from ``start``; collect reads."""
    reach = reach or Reach(mro[0], mro)
    stack = [(o, m, why) for o, m in start]
    found = reach.resolved if mro is reach.mro else {}
    while stack:
        owner, m, why = stack.pop()
        key = (owner, m.name)
        if key in reach.methods:
            continue
        reach.methods[key] = why
        for reason, line, pattern in m.dynamic:
            reach.dynamic.append((owner, m.name, reason, line, pattern))
        for walk, line in m.walks:  # nn.Module's own, unless the project defines the method (then followed)
            r = found[walk] if walk in found else found.setdefault(walk, index.resolve_method(mro, walk))
            if r is None:
                reach.walks.append((owner, m.name, walk, line))
        for attr, line, _col in m.reads:
            r = found[attr] if attr in found else found.setdefault(attr, index.resolve_method(mro, attr))
            if r is not None:
                stack.append((r[0], r[1], f"self.{attr} from {short_name(owner)}.{m.name}"))
            else:
                reach.reads.setdefault(attr, []).append((owner, m.name, line))
        for name, named_class in m.super_calls:
            r = index.resolve_super(mro, owner, name, named_class)
            if r is not None:
                stack.append((r[0], r[1], f"super().{name} from {short_name(owner)}.{m.name}"))
        for base, name in m.parent_calls:
            qn = index.resolve(index.class_module[owner], base)
            if qn is not None and qn in mro:
                r = index.resolve_method(mro[mro.index(qn) :], name)
                if r is not None:
                    stack.append((r[0], r[1], f"{base}.{name}(self) from {short_name(owner)}.{m.name}"))
    return reach


def entry_names(index: ProjectIndex, cls: str, external_names: set[str]) -> dict[str, str]:
    """Method names that are entry points for ``cls`` (from every method its MRO defines), with the reason.

    The hierarchy's roots are the classes of the MRO without a project base: with a mixin
    among the bases there are several, and the interface is what any of them declares."""
    out: dict[str, str] = {}
    roots = index.roots_of(cls)
    for name, (_owner, m) in index.methods_on(cls).items():
        if name == "__init__":
            continue
        if name.startswith("__") and name.endswith("__"):
            out[name] = "dunder method"
        elif m.is_property:
            out[name] = "property"
        elif root := next((r for r in roots if name in index.classes[r].methods), None):
            out[name] = f"declared by the hierarchy root {short_name(root)}"
        elif name in external_names:
            out[name] = "called or referenced outside the class"
    return out


def reachable(index: ProjectIndex, cls: str, external_names: set[str]) -> Reach:
    mro = index.mro(cls) or [cls]
    methods = index.methods_on(cls)  # what ``resolve_method`` finds on the MRO
    start = []
    reasons = {}
    for name, why in entry_names(index, cls, external_names).items():
        r = methods[name]
        start.append(r)
        reasons[(r[0], name)] = why
    reach = Reach(cls, mro)
    for owner, m in start:
        method_reads(index, mro, [(owner, m)], reasons[(owner, m.name)], reach)
    return reach
