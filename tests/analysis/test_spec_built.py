"""Modules built through class-typed fields, class attributes and builders (``analysis.flow.returns``), and the
parent's configuring uses of them (``analysis.liveness.outside_chain``): fixtures/EXPECTED.md, table K."""

import textwrap

from deadinit.api.check import run_check
from deadinit.model.evidence import EvidenceKind
from deadinit.model.settings import Settings

PARTS = """
from dataclasses import dataclass
from typing import Optional, Union
import torch
from torch import nn
class RowProj(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = torch.zeros(n_out, n_in)
        self.n_out = n_out
class Plain:
    def __init__(self, n):
        self.n = n
@dataclass
class BaseParts:
    proj: Optional[type[RowProj]] = None
@dataclass
class Parts(BaseParts):
    plain: type[Plain] = Plain
    any_class: type = RowProj
    value: int = 4
"""


def findings(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/parts.py": PARTS, "pkg/m.py": textwrap.dedent(src)})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_a_field_declared_in_a_base_of_the_parameters_class(write_project):
    got = findings(
        write_project,
        """
        from torch import nn
        from pkg.parts import Parts
        class P(nn.Module):
            def __init__(self, parts: Parts, dim: int):
                super().__init__()
                self.proj = parts.proj(dim, 2 * dim)
                self.plain = parts.plain(dim)
                self.any = parts.any_class(dim)
                self.method = parts.keys(dim)
            def forward(self, x):
                return self.proj(x), self.plain, self.any, self.method
        class C(P):
            def __init__(self, parts: Parts, dim: int):
                super().__init__(parts, dim)
                self.proj = nn.Linear(dim, dim)
                self.plain = None
                self.any = None
                self.method = None
        """,
    )
    assert set(got) == {("DI001", "C", "proj"), ("DI001", "C", "any")}
    proj = got[("DI001", "C", "proj")]
    declared = [e for e in proj.evidence if e.kind == EvidenceKind.DECLARED]
    assert len(declared) == 1 and declared[0].text.startswith("`BaseParts.proj` is declared to hold `RowProj`")
    assert proj.size_expr and "dim" in proj.size_expr  # in the caller's terms
    assert got[("DI001", "C", "any")].estimated_bytes is None  # an unknown module: size unknown
    assert proj.fix_safety == "unsafe" and "class-typed field" in proj.fix_safety_reason


def test_a_class_attribute_declared_to_hold_a_class(write_project):
    got = findings(
        write_project,
        """
        from torch import nn
        from pkg.parts import RowProj
        class P(nn.Module):
            proj_cls: type[RowProj] = RowProj
            def __init__(self, dim: int):
                super().__init__()
                self.proj = self.proj_cls(dim, dim)
                self.built = self.build(dim)
            def build(self, dim):
                return dim
            def forward(self, x):
                return self.proj(x), self.built
        class C(P):
            def __init__(self, dim: int):
                super().__init__(dim)
                self.proj = nn.Linear(dim, dim)
                self.built = 0
        class Undeclared(P):
            proj_cls = nn.Linear
            def __init__(self, dim: int):
                super().__init__(dim)
                self.proj = nn.Linear(dim, dim)
        """,
    )
    assert set(got) == {("DI001", "C", "proj")}


def test_configuring_uses_are_no_reads_but_leave_no_fix(write_project):
    got = findings(
        write_project,
        """
        from torch import nn
        from pkg.parts import Parts, RowProj
        class P(nn.Module):
            def __init__(self, parts: Parts, dim: int):
                super().__init__()
                self.proj = parts.proj(dim, dim)
                if isinstance(self.proj, RowProj):
                    self.proj.fused = True
                self.out = parts.proj(dim, dim)
                self.out.fused = self.out.n_out > 2
            def forward(self, x):
                return self.out(self.proj(x))
        class C(P):
            def __init__(self, parts: Parts, dim: int):
                super().__init__(parts, dim)
                self.proj = nn.Linear(dim, dim)
                self.out = nn.Linear(dim, dim)
        """,
    )
    assert set(got) == {("DI001", "C", "proj")}  # ``out``: its flag is computed from a real read
    proj = got[("DI001", "C", "proj")]
    assert sum(e.kind == EvidenceKind.READ_NOT_COUNTED for e in proj.evidence) == 2
    assert proj.fix_safety == "none" and "still configures self.proj" in proj.fix_safety_reason
