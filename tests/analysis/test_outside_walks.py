"""A walk over another object (``model.named_children()`` in a function outside the class) reads the
registered members it visits only when a visited element may leave that function
(``semantics.walk_elements``); the evidence names the walk."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

MODEL = """
import torch
from torch import nn
class Tower(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.side = nn.Linear(d, d)
    def forward(self, x):
        return self.proj(x)
class Frozen(Tower):
    def __init__(self, d):
        super().__init__(d)
"""

RECURSIVE = """
def hooks(name, module, out):
    if hasattr(module, "hook"):
        out[name] = module.hook()
    for sub, child in module.named_children():
        hooks(f"{name}.{sub}", child, out)
    return out
"""


def _check(write_project, walker):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": MODEL, "pkg/walk.py": walker})
    res = run_check([str(root)], Settings(select=("DI002",)))
    return {f.attribute for f in res.findings if f.cls.endswith("Frozen")}, res


@pytest.mark.parametrize(
    "walker",
    [
        RECURSIVE,
        "def count(model):\n    n = 0\n    for m in model.modules():\n        n += isinstance(m, Linear)\n    return n\n",
        "def freeze(model):\n    for p in model.parameters():\n        p.requires_grad = False\n    return model\n",
    ],
)
def test_a_walk_whose_elements_stay_in_its_function_reads_nothing(write_project, walker):
    found, _ = _check(write_project, walker)
    assert found == {"side"}


@pytest.mark.parametrize(
    "walker",
    [
        RECURSIVE.replace("    for sub", "    out[name + '.m'] = module\n    for sub"),  # the collector stores it
        "def dump(model):\n    return {n: c for n, c in model.named_children()}\n",
        "def run(model, x):\n    for c in model.children():\n        x = c(x)\n    return x\n",  # calls each
    ],
)
def test_a_walk_whose_elements_leave_reads_the_submodules_it_visits(write_project, walker):
    found, _ = _check(write_project, walker)
    assert not found


GUARDED = """
from torch import nn
KINDS = (nn.GroupNorm,)


class Special(nn.Module):
    pass


def collect(module, out):
    for child in module.children():
        if isinstance(child, {guard}):
            out.append(child)
        else:
            collect(child, out)
    return out
"""


@pytest.mark.parametrize("guard", ["nn.GroupNorm", "Special", "(nn.LayerNorm, Special)"])
def test_a_guarded_walk_reads_no_member_of_a_known_other_class(write_project, guard):
    found, _ = _check(write_project, GUARDED.format(guard=guard))
    assert found == {"side"}


@pytest.mark.parametrize("guard", ["nn.Linear", "nn.Module", "KINDS", "unknown_kinds"])
def test_a_guarded_walk_reads_a_member_that_may_be_what_it_names(write_project, guard):
    found, _ = _check(write_project, GUARDED.format(guard=guard))
    assert not found
