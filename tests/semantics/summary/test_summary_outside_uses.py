"""``deadinit.semantics.summary.outside_uses``: what a file's classes take from the packages it imports."""

from summary_snippets import summarize

from deadinit.model.summary import FileSummary, OutsideUse
from deadinit.semantics.summary.outside_uses import outside_uses


def test_calls_assigned_in_init_and_bases_per_imported_package(adapter):
    s = summarize(
        """
        import torch
        from torch import nn
        import vllm.layers as vl
        from .local import Helper

        class K(nn.Module, vl.Mixin):
            def __init__(self, n):
                super().__init__()
                self.a = nn.Linear(n, n)
                self.b, self.c = vl.make_pair(n)
                self.d = torch.zeros(n)
                self.e = Helper()
                self.f = self.build()
        """,
        adapter,
    )
    assert s.outside == (OutsideUse("torch", 2, 1), OutsideUse("vllm", 2, 1))  # ``make_pair``: once per target
    assert outside_uses(s) == s.outside


def test_nothing_without_absolute_imports():
    assert outside_uses(FileSummary("m.py", "m", False)) == ()
