"""Spec-built modules reached through an open parameter's defaulting idiom (``semantics.init.rebound``) and
through builders without annotations that call what they are given (kind ``param-call``,
``analysis.flow.returns``): fixtures/EXPECTED.md, table K, K5-K6."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

PARTS = """
from dataclasses import dataclass
import torch
from torch import nn
class RowProj(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = torch.zeros(n_out, n_in)
@dataclass
class Spec:
    cls: type
@dataclass
class Parts:
    proj: type[RowProj] = RowProj
    mixer: type = nn.Identity
def make(spec, *args):
    if isinstance(spec, Spec):
        return spec.cls(*args)
    return spec(*args)
def apply_to(fn, n):
    return fn(n)
def halve(n):
    return n // 2
def make_parts():
    return Parts()
"""

SUB = """
class C(P):
    def __init__(self, dim=4):
        super().__init__(dim=dim)
        self.proj = nn.Linear(dim, dim)
"""


PARENT = """
class P(nn.Module):
    def __init__(self, parts=None, dim=4):
        super().__init__()
        {binding}
        self.proj = {built}
    def helper(self, n):
        return n
    def forward(self, x):
        return self.proj
"""


def findings(write_project, binding: str, built: str = "parts.proj(dim, dim)") -> set[tuple[str, str, str]]:
    """The findings on ``C`` when ``P.__init__`` binds ``parts`` by ``binding`` (lines indented by 8) and
    builds ``self.proj`` by ``built``."""
    src = "from torch import nn\nfrom pkg.parts import *\n" + PARENT.format(binding=binding, built=built)
    root = write_project({"pkg/__init__.py": "", "pkg/parts.py": PARTS, "pkg/m.py": src + SUB})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    assert not res.errors, res.errors
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in res.findings}


@pytest.mark.parametrize(
    "defaulting",
    [
        "parts = parts or Parts()",
        "parts = Parts() if parts is None else parts",
        "parts = parts if parts is not None else Parts()",
        "if parts is None:\n            parts = Parts()",
    ],
)
def test_an_open_parameter_defaulted_holds_its_default(write_project, defaulting):
    assert findings(write_project, defaulting) == {("DI001", "C", "proj")}


@pytest.mark.parametrize(
    "binding",
    [
        "parts = parts or make_parts()",  # a function's result: of no known class
        "pass",  # never defaulted: what a caller passes
        "parts = parts or Parts()\n        parts = make_parts()",  # rebound again
    ],
)
def test_no_known_class_builds_nothing_known(write_project, binding):
    assert findings(write_project, binding) == set()


@pytest.mark.parametrize("argument", ["parts.mixer", "nn.Linear", "parts.proj"])
def test_a_builder_without_annotations_builds_what_calling_its_argument_builds(write_project, argument):
    got = findings(write_project, "parts = parts or Parts()", f"make({argument}, dim)")
    assert got == {("DI001", "C", "proj")}


@pytest.mark.parametrize("argument", ["halve", "parts", "self.helper"])
def test_a_builder_handed_no_class_builds_nothing(write_project, argument):
    assert findings(write_project, "parts = parts or Parts()", f"apply_to({argument}, dim)") == set()
