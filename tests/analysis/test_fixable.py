"""What the skip-flag rewrite can make of a chain (deadinit.analysis.fix_safety.fixable): one test per decision."""

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

TOP = """
import torch


class A:
    def __init__(self):
        self.buf = torch.zeros(4096)


class B(A):
    def __init__(self):
        super().__init__()
        self.buf = torch.zeros(8)


class M(A):
    def __init__(self):
        super().__init__()
"""


def _findings(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": TOP + src})
    res = run_check([str(root)], Settings(select=("DI001",)))
    return {(f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_a_chain_of_single_bases_carries_the_flag(write_project):
    src = "\n\nclass Leaf(B):\n    def __init__(self):\n        super().__init__()\n"
    f = _findings(write_project, src)[("B", "buf")]
    assert (f.fix_safety, f.fix_safety_reason) == ("safe", "")


def test_a_subclass_whose_mro_reaches_another_init_refuses_the_flag(write_project):
    src = "\n\nclass D(B, M):\n    pass\n"
    f = _findings(write_project, src)[("B", "buf")]
    assert f.fix_safety == "none"
    assert f.fix_safety_reason == (
        "D inherits B.__init__, but in its MRO super().__init__ reaches M, not A: the flag would go to the wrong class"
    )
