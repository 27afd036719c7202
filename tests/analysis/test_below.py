"""The merge of what the classes below a class read (``analysis.liveness.below``): the same
answer as asking each subclass in name order, built once per class."""

import textwrap

from deadinit.analysis.analyzer import Analyzer
from deadinit.analysis.liveness.below import own_reads
from deadinit.frontends.parse import summarize_source
from deadinit.index.dependencies import recording
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

SOURCE = """
import torch
class A:
    def __init__(self):
        self.x = torch.zeros(4)
        self.y = torch.zeros(4)
class Zed(A):
    def __init__(self):
        super().__init__()
        print(self.x)
class B(A):
    def __init__(self):
        super().__init__()
        print(self.x)
class C(B):
    def __init__(self):
        super().__init__()
        print(self.y)
    def run(self):
        return getattr(self, "y")
    def walk(self):
        return list(self.children())
"""


def _analyzer(src: str) -> Analyzer:
    s = summarize_source(textwrap.dedent(src).encode(), "m.py", "m", False, Settings())
    return Analyzer(ProjectIndex([s]), Settings(), lambda fact: True)


def _walked_one_by_one(an: Analyzer, cls: str) -> tuple[dict[str, str], list[str]]:
    """What asking every subclass in name order finds: attr -> first reason; the unsure reasons."""
    marks: dict[str, str] = {}
    unsure: list[str] = []
    for sub in sorted(an.index.all_subclasses(cls)):
        own = own_reads(an.index, sub, an.reach_of(sub))
        for attr, why in own.ordered_marks():
            marks.setdefault(attr, why)
        unsure += [why for why, _ in own.unsure.get(sub, [])]
    return marks, unsure


def test_merge_gives_each_attribute_the_first_subclass_by_name():
    an = _analyzer(SOURCE)
    for cls in ("m.A", "m.B", "m.C"):
        below = an.below.below(cls)
        assert below is not None
        marks, unsure = _walked_one_by_one(an, cls)
        assert dict(below.ordered_marks()) == marks
        assert [why for sub in sorted(below.unsure) for why, _ in below.unsure[sub]] == unsure
    below = an.below.below("m.A")
    assert below is not None
    assert "B.__init__" in dict(below.ordered_marks())["x"]  # B before Zed, by name
    assert "C.__init__" in dict(below.ordered_marks())["y"]


def test_merge_is_kept_per_class_and_notes_what_it_read_on_a_hit():
    an = _analyzer(SOURCE)
    with recording() as first:
        an.below.below("m.A")
    with recording() as again:
        an.below.below("m.A")
    assert ("class", "m.C") in first
    assert first <= again


def test_a_subclass_cycle_below_gives_no_merge():
    an = _analyzer(
        """
class Top:
    pass
class P(Top, Q):
    pass
class Q(P):
    pass
"""
    )
    assert an.below.below("m.Top") is None


def test_a_chain_deeper_than_three_frames_a_class_allows_is_merged_without_recursion():
    lines = ["class C0:", "    def __init__(self):", "        self.a0 = 0"]
    for i in range(1, 600):
        lines += [f"class C{i}(C{i - 1}):", "    def __init__(self):", "        super().__init__()"]
        lines += [f"        print(self.a{i - 1})"]
    an = _analyzer("\n".join(lines))
    below = an.below.below("m.C0")
    assert below is not None
    assert dict(below.ordered_marks())["a0"] == "read in C1.__init__ (line 7)"
    assert len(below.marks) == 599
