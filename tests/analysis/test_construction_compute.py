"""Construction flow across a computation (analysis.construction): a constructor parameter read only
to compute the value of an assignment that is dead on the built class is not a read of what it was
built from; anything that may keep the value (a read of the computed attribute, a method called on
the value, a call outside the project, a binding of its own in the value) still is."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

PARENT = """
import torch
class Steps:
    def __init__(self, n):
        self.ptr = torch.zeros(n, 8)
        self.kernels = []
    def plan(self):
        return [k.plan() for k in self.kernels]
class Child(Steps):
    def __init__(self, n):
        super().__init__(n)
        self.kernels = [Kernel(self.ptr[i]) for i in range(n)]
"""


def findings(write_project, kernel: str) -> dict:
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": PARENT + kernel})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def kernel(init: str, plan: str = "return 0", extra: str = "") -> str:
    body = "".join(f"        {line}\n" for line in init.split("; "))
    return f"class Kernel:\n    def __init__(self, buf):\n{body}    def plan(self):\n        {plan}\n{extra}"


def test_read_only_to_compute_a_dead_attribute(write_project):
    got = findings(write_project, kernel("self.rows = buf.shape[0] * 2"))
    f = got[("DI002", "Child", "ptr")]
    text = [e.text for e in f.evidence if "read only to build" in e.text]
    assert text and "whose `rows` it is read only to compute, which is dead on `Kernel` (never read)" in text[0]
    assert f.fix_safety == "none" and "still hands self.ptr to a constructor" in f.fix_safety_reason


def test_read_only_to_compute_what_computes_something_dead(write_project):
    got = findings(write_project, kernel("self.rows = buf.shape[0]; self.half = self.rows // 2"))
    assert ("DI002", "Child", "ptr") in got


@pytest.mark.parametrize(
    "built",
    [
        kernel("self.rows = buf.shape[0]", "return self.rows"),  # the computed attribute is read
        kernel("self.rows = buf.shape[0]; self.half = self.rows // 2", "return self.half"),  # read further on
        kernel("self.rows = buf.size(0)"),  # a method called on the value may keep it
        kernel("self.rows = len(buf)"),  # handed to a call outside the project
        kernel("self.rows = [x * 2 for x in buf]"),  # a value with a binding of its own
        kernel("self.rows = buf.shape[0]; rows = buf"),  # another mention uses it
        # a subclass of the built class reads the computed attribute
        kernel(
            "self.rows = buf.shape[0]", extra="class Wide(Kernel):\n    def plan(self):\n        return self.rows\n"
        ),
        # code outside the class reads it on a built kernel
        kernel("self.rows = buf.shape[0]", extra="def rows_of(k: Kernel):\n    return k.rows\n"),
    ],
)
def test_the_computation_keeps_the_read(write_project, built):
    assert ("DI002", "Child", "ptr") not in findings(write_project, built)
