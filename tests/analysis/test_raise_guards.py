"""A guard the constructed class raises on: ``if C: raise`` (or ``assert not C``) on every path of
its ``__init__`` chain, in the ``__init__`` or in a method it calls, makes an allocation under C
impossible on any instance that gets built."""

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

PARENT = """
import torch
from torch import nn
class Parent(nn.Module):
    def __init__(self, config, n):
        super().__init__()
        self.config = config.arch
        arch = self.config
        self.sound = arch.sound
        self.proj = nn.Linear(n, n)
        if arch.sound:
            self.audio = nn.Linear(n, n)
        if arch.action:
            self.act = nn.Linear(n, n)
        if self.config.video:
            self.vid = nn.Linear(n, n)
    def forward(self, x):
        x = self.proj(x)
        if self.sound:
            x = self.audio(x)
        return x
"""


def found(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": PARENT + src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return sorted((f.cls.rsplit(".", 1)[-1], f.attribute) for f in res.findings if f.code == "DI002")


ACT_AND_EXTRA = [("Sub", "act"), ("Sub", "vid")]


def sub(body, helper=""):
    return f"""
class Sub(Parent):
    def __init__(self, config, n):
        super().__init__(config, n)
{body}
    def forward(self, x):
        return self.proj(x)
{helper}"""


def test_without_a_raise_every_conditional_allocation_is_a_finding(write_project):
    assert found(write_project, sub("        self.k = 1")) == [("Sub", "act"), ("Sub", "audio"), ("Sub", "vid")]


def test_a_raise_in_the_subclass_init_after_super(write_project):
    src = sub("        if self.sound:\n            raise ValueError('no sound')")
    assert found(write_project, src) == ACT_AND_EXTRA


def test_a_raise_in_a_helper_the_init_calls(write_project):
    helper = """
    def _validate(self):
        for k in ("a", "b"):
            pass
        if self.sound:
            raise ValueError("no sound")
"""
    assert found(write_project, sub("        self._validate()", helper)) == ACT_AND_EXTRA


def test_a_raise_in_a_helper_the_helper_calls(write_project):
    helper = """
    def _validate(self):
        self._check()
    def _check(self):
        if self.config.sound:
            raise ValueError("no sound")
"""
    assert found(write_project, sub("        self._validate()", helper)) == ACT_AND_EXTRA


def test_assert_not(write_project):
    assert found(write_project, sub("        assert not self.sound")) == ACT_AND_EXTRA


def test_or_of_two_flags_makes_each_false(write_project):
    helper = """
    def _validate(self):
        if self.sound or self.config.action:
            raise ValueError("no sound or action")
"""
    assert found(write_project, sub("        self._validate()", helper)) == [("Sub", "vid")]


def test_a_raise_before_super_on_the_parameter(write_project):
    src = """
class Sub(Parent):
    def __init__(self, config, n):
        if config.arch.video:
            raise ValueError("no video")
        super().__init__(config, n)
    def forward(self, x):
        return self.proj(x)
"""
    assert found(write_project, src) == [("Sub", "act"), ("Sub", "audio")]


def test_elif_after_a_raise_runs_on_every_path(write_project):
    src = sub(
        "        if self.sound:\n            raise ValueError\n        elif self.config.action:\n            raise ValueError"
    )
    assert found(write_project, src) == [("Sub", "vid")]


def test_a_raise_that_does_not_always_run_stays_a_finding(write_project):
    conditional = sub("        if n > 4:\n            if self.sound:\n                raise ValueError('no sound')")
    helper_in_loop = sub(
        "        for _ in range(n):\n            self._validate()",
        "    def _validate(self):\n        if self.sound:\n            raise ValueError\n",
    )
    after_return = sub(
        "        self._validate()",
        "    def _validate(self):\n        if self.k:\n            return\n        if self.sound:\n            raise ValueError\n",
    )
    caught = sub(
        "        try:\n            self._validate()\n        except ValueError:\n            pass",
        "    def _validate(self):\n        if self.sound:\n            raise ValueError\n",
    )
    everything = [("Sub", "act"), ("Sub", "audio"), ("Sub", "vid")]
    for src in (conditional, helper_in_loop, after_return, caught):
        assert found(write_project, src) == everything, src


def test_a_raise_that_tests_a_different_value_stays_a_finding(write_project):
    other_attr = sub("        if self.k:\n            raise ValueError")
    rewritten = sub("        self.sound = n > 2\n        if self.sound:\n            raise ValueError")
    helper_writes = sub(
        "        self._validate()",
        "    def _validate(self):\n        self.sound = False\n        if self.sound:\n            raise ValueError\n",
    )
    everything = [("Sub", "act"), ("Sub", "audio"), ("Sub", "vid")]
    for src in (other_attr, rewritten, helper_writes):
        assert found(write_project, src) == everything, src


def test_a_raise_on_a_local_of_the_subclass(write_project):
    src = sub("        arch = self.config\n        if arch.sound or arch.action:\n            raise ValueError")
    assert found(write_project, src) == [("Sub", "vid")]
