"""What ``deadinit graph [QUALNAME]`` prints: the class hierarchy as a tree, with findings and waste per class.

A node counts the findings that hold for its instances: its own, and those
reported once at an ancestor subclass whose chain it runs (``extra["subclasses"]``).
"""

from __future__ import annotations

from collections import defaultdict

from rich.text import Text
from rich.tree import Tree

from deadinit.model.finding import human_bytes
from deadinit.model.kinds import BaseKind
from deadinit.model.qualnames import short_name


def per_class(findings) -> dict[str, list]:
    out: dict[str, list] = defaultdict(list)
    for f in findings:
        if not f.cls:
            continue
        out[f.cls].append(f)
        for sub in f.extra.get("subclasses", []):
            out[sub].append(f)
    return out


def _label(qn: str, found: list, repeated: bool) -> Text:
    t = Text()
    t.append(short_name(qn), style="bold cyan")
    t.append(f"  {qn}", style="dim")
    if found:
        counts = defaultdict(int)
        for f in found:
            counts[f.code] += 1
        t.append("  " + ", ".join(f"{c} x{n}" for c, n in sorted(counts.items())), style="bold yellow")
        per_attr = [f for f in found if f.attribute]  # class-level findings (DI003) repeat these bytes
        known = sum(f.estimated_bytes or 0 for f in per_attr)
        unknown = sum(1 for f in per_attr if f.estimated_bytes is None)
        waste = f"~{human_bytes(known)} per instance" if known else ""
        if unknown:
            waste += (" + " if waste else "") + f"{unknown} of unknown size"
        if waste:
            t.append(f"  [{waste}]", style="green")
    if repeated:
        t.append("  (shown above)", style="italic dim")
    return t


def build_tree(index, root: str, found: dict) -> Tree:
    tree = Tree(_label(root, found.get(root, []), False))
    seen = {root}

    def grow(node: Tree, qn: str) -> None:
        for sub in sorted(index.subclasses.get(qn, [])):
            repeated = sub in seen
            child = node.add(_label(sub, found.get(sub, []), repeated))
            if not repeated:
                seen.add(sub)
                grow(child, sub)

    grow(tree, root)
    return tree


def roots(index) -> list[str]:
    """Project classes with subclasses and no project base: the tops of hierarchies."""
    return sorted(
        qn
        for qn in index.classes
        if index.subclasses.get(qn) and not any(b.kind == BaseKind.CLASS for b in index.bases(qn))
    )


def render(console, index, tops: list[str], findings, show_all: bool, pick: bool) -> None:
    """The trees of ``tops`` with their findings; without a class picked (``pick`` False), only the
    hierarchies with findings unless ``show_all``."""
    found = per_class(findings)
    shown = 0
    for top in tops:
        tree_classes = {top} | index.all_subclasses(top)
        if not pick and not show_all and not any(c in found for c in tree_classes):
            continue
        console.print(build_tree(index, top, found))
        shown += 1
    hidden = len(tops) - shown
    if hidden:
        console.print(Text(f"{hidden} hierarchies without findings not shown (--all shows them)", style="dim"))
    elif not tops:
        console.print("no class hierarchies found")
