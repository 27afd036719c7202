"""Summarising a file with the ``ast`` adapter (``check``'s) leaves no reference cycle: a worker drops
each summary (and its syntax tree) as soon as it is pickled, and reference counting alone frees them,
without the cyclic collector."""

import gc
import textwrap

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary

SOURCE = textwrap.dedent(
    """
    import torch
    from torch import nn

    def make(n: "int") -> torch.Tensor:
        buf = torch.zeros(n)
        return buf

    class Base(nn.Module):
        def __init__(self, n, norm=nn.LayerNorm):
            super().__init__()
            self.buf = torch.empty(n)
            self.layers = nn.ModuleList([nn.Linear(n, n) for _ in range(n)])
            if n > 2:
                self.extra: "list[Plan]" = []

        def grow(self, plan):
            items = self.layers
            items.append(plan)
            self.extra.append(Plan(plan))
            for layer in self.layers:
                layer.weight.zero_()

            def inner():
                return self.buf.sum()

            return inner

    class Child(Base):
        def __init__(self, n):
            Base.__init__(self, n)
            self.buf = torch.ones(n)
    """
)


def test_a_summary_and_its_syntax_tree_are_freed_without_the_cyclic_collector():
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        got = summarize_source(SOURCE.encode(), "m.py", "m", False, Settings(), adapter="ast")
        assert isinstance(got, FileSummary), got
        assert got.classes and got.accesses and got.functions  # the walk recorded what it should
        del got
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
