"""DI002 examples of reads on receivers typed by flow: an element of a collection whose elements are known
(``for m in self.metas``, ``self.plans[i]``), and the reads that still count (elements not known, or elements
that could be the class itself)."""

from __future__ import annotations

from deadinit.rules.base import Example

_PARENT = """
import torch
from typing import List


class StepMetadata:
    def __init__(self):
        self.kv_last_page_len = None


class Backend:
    def forward_decode(self, q):
        raise NotImplementedError


class PagedBackend(Backend):
    def __init__(self, max_bs):
        self.kv_last_page_len = torch.ones(max_bs, dtype=torch.int32)

    def forward_decode(self, q):
        return q, self.kv_last_page_len
"""


def _with(subclass: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/m.py": _PARENT + subclass}


FLOW_INVALID = (
    Example(
        _with(
            """

class MultiStepBackend(PagedBackend):
    def __init__(self, max_bs, steps):
        super().__init__(max_bs)
        self.metas = [StepMetadata() for _ in range(steps)]

    def forward_decode(self, q):
        return [meta.kv_last_page_len for meta in self.metas]   # elements of self.metas: StepMetadata
"""
        ),
        [("DI002", "MultiStepBackend", "kv_last_page_len")],
        note="a read on the elements of a collection that holds only an unrelated class",
    ),
)

FLOW_VALID = (
    Example(
        _with(
            """

class MultiStepBackend(PagedBackend):
    def __init__(self, max_bs, steps, metas):
        super().__init__(max_bs)
        self.metas = list(metas)   # elements not known: a read on one counts

    def forward_decode(self, q):
        return [meta.kv_last_page_len for meta in self.metas]
"""
        ),
        note="elements of a collection built from a parameter",
    ),
    Example(
        _with(
            """

class MultiStepBackend(PagedBackend):
    def __init__(self, max_bs, steps):
        super().__init__(max_bs)
        self.steps: List[PagedBackend] = []   # elements could be a MultiStepBackend

    def forward_decode(self, q):
        return [step.kv_last_page_len for step in self.steps]
"""
        ),
        note="elements annotated with an ancestor of the class",
    ),
)
