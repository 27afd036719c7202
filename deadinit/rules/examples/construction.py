"""DI002 examples of transitive deadness across construction: a value only handed to constructed objects."""

from __future__ import annotations

from deadinit.rules.base import Example


def _steps(kernels: str, subclass: str, built: str) -> dict[str, str]:
    """A parent that allocates per-step index pointers, ``kernels`` (the kernel classes), and ``subclass``,
    which hands each step's pointers to ``built`` (a kernel's construction, of ``i``)."""
    return {
        "pkg/__init__.py": "",
        "pkg/steps.py": f"""
import torch

{kernels}

class StepBuffers:
    def __init__(self, steps, max_bs):
        self.index_ptr = torch.zeros((steps, max_bs + 1), dtype=torch.int32)
        self.kernels = []

    def plan(self, bs):
        return [k.plan(bs) for k in self.kernels]


class {subclass}(StepBuffers):
    def __init__(self, steps, max_bs):
        super().__init__(steps, max_bs)
        self.kernels = [{built} for i in range(steps)]
""",
    }


def _reading(example: dict[str, str], old: str, new: str) -> dict[str, str]:
    """``example`` with the kernel's ``plan`` reading ``new`` instead of ``old``."""
    return {**example, "pkg/steps.py": example["pkg/steps.py"].replace(old, new)}


HANDED_ON = _steps(
    """
class PagedKernel:
    def __init__(self, max_bs, index_buf=None):
        if index_buf is None:
            self.index_ptr = torch.zeros((max_bs + 1,), dtype=torch.int32)
        else:
            self.index_ptr = index_buf
        self.last_len = torch.ones((max_bs,), dtype=torch.int32)

    def plan(self, bs):
        return self.last_len[:bs]
""",
    "FusedSteps",
    "PagedKernel(max_bs, index_buf=self.index_ptr[i])",
)
HANDED_ON_INVALID = Example(
    HANDED_ON,
    [("DI002", "FusedSteps", "index_ptr")],
    note="only handed to per-step kernels, whose attribute it becomes is dead there: reported, not fixable",
)
HANDED_ON_VALID = Example(
    _reading(HANDED_ON, "return self.last_len", "return self.index_ptr"),
    note="handed to a kernel whose `plan` reads the attribute it becomes: a read",
)

COMPUTED = _steps(
    """
class RowKernel:
    def __init__(self, max_bs, index_buf):
        self.rows = index_buf.shape[0] - 1
        self.last_len = torch.ones((max_bs,), dtype=torch.int32)

    def plan(self, bs):
        return self.last_len[:bs]
""",
    "RowSteps",
    "RowKernel(max_bs, self.index_ptr[i])",
)
COMPUTED_INVALID = Example(
    COMPUTED,
    [("DI002", "RowSteps", "index_ptr")],
    note="read by the per-step kernels only to compute `rows`, which nothing reads there: reported, not fixable",
)
COMPUTED_VALID = Example(
    _reading(COMPUTED, "return self.last_len[:bs]", "return self.rows"),
    note="the kernel's `plan` reads the attribute computed from it: a read",
)

UPDATED = _steps(
    """
class IndexUpdater:
    def __init__(self, index_buf):
        self.index_buf = index_buf

    def update(self, bs):
        return self.index_buf[:bs]


class UpdatedKernel:
    def __init__(self, max_bs, index_buf):
        self.index_updater = IndexUpdater(index_buf)
        self.last_len = torch.ones((max_bs,), dtype=torch.int32)

    def plan(self, bs):
        return self.last_len[:bs]
""",
    "UpdatedSteps",
    "UpdatedKernel(max_bs, self.index_ptr[i])",
)
UPDATED_INVALID = Example(
    UPDATED,
    [("DI002", "UpdatedSteps", "index_ptr")],
    note="handed to an updater the kernel keeps in a dead attribute; the updater only stores it: reported, not fixable",
)
UPDATED_VALID = Example(
    _reading(UPDATED, "return self.last_len[:bs]", "return self.index_updater.update(bs)"),
    note="the kernel's `plan` updates through the updater, which reads the buffer: a read",
)
