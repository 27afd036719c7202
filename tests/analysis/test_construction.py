"""Transitive deadness across construction (analysis.construction): an attribute only handed to a project
class's constructor counts as read only if the parameter reaches something live on the built object."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

PARENT = """
import logging
import torch
class Steps:
    def __init__(self, n):
        self.n = n
        self.ptr = torch.zeros(n, 8)
        self.kernels = []
    def plan(self):
        return [k.plan() for k in self.kernels]
"""


def findings(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": PARENT + src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def steps_building(kernel: str, call: str = "{k}(buf=self.ptr[i])") -> str:
    built = call.format(k=kernel)
    return f"""
class Child(Steps):
    def __init__(self, n):
        super().__init__(n)
        self.kernels = [{built} for i in range(n)]
"""


def test_argument_stored_into_an_overwritten_attribute_is_not_a_read(write_project):
    src = """
class Kernel:
    def __init__(self, buf=None):
        self.buf = buf
        self.buf = torch.ones(2)
    def plan(self):
        return self.buf
"""
    got = findings(write_project, src + steps_building("Kernel"))
    f = got[("DI002", "Child", "ptr")]
    text = [e.text for e in f.evidence if "read only to build" in e.text]
    assert text and "`Kernel(buf=...)`" in text[0] and "whose `buf` it becomes, which is dead on `Kernel`" in text[0]
    assert "overwritten at" in text[0]
    assert f.fix_safety == "none" and "still hands self.ptr to a constructor" in f.fix_safety_reason


def test_through_the_parent_init_of_the_built_class(write_project):
    src = """
class Base:
    def __init__(self, buf=None):
        if buf is None:
            self.buf = torch.zeros(4)
        else:
            self.buf = buf
    def plan(self):
        return self.buf
class Fused(Base):
    def __init__(self, tag, buf=None):
        super().__init__(buf)
        self.tag = tag
    def plan(self):
        return self.tag
"""
    got = findings(write_project, src + steps_building("Fused", "{k}(i, buf=self.ptr[i])"))
    assert ("DI002", "Child", "ptr") in got


@pytest.mark.parametrize(
    "kernel",
    [
        # stored and read on the built class
        "class Kernel:\n    def __init__(self, buf):\n        self.buf = buf\n    def plan(self):\n        return self.buf\n",
        # handed to a function outside the project
        "class Kernel:\n    def __init__(self, buf):\n        logging.info(buf)\n        self.buf = buf\n"
        "    def plan(self):\n        return 0\n",
        # used in a condition
        "class Kernel:\n    def __init__(self, buf):\n        self.ok = bool(buf)\n    def plan(self):\n        return self.ok\n",
        # rebound before it is stored
        "class Kernel:\n    def __init__(self, buf):\n        buf = buf.clone()\n        self.copy = buf\n"
        "    def plan(self):\n        return self.copy\n",
        # a dynamic access on the built class may read it
        "class Kernel:\n    def __init__(self, buf):\n        self.buf = buf\n    def plan(self, name):\n"
        "        return getattr(self, name)\n",
        # the built class is made by a decorator
        "import dataclasses\n@dataclasses.dataclass\nclass Kernel:\n    buf: object = None\n    def plan(self):\n"
        "        return 0\n",
        # stored through a property setter
        "class Kernel:\n    def __init__(self, buf):\n        self.buf = buf\n    @property\n    def buf(self):\n"
        "        return 0\n    @buf.setter\n    def buf(self, v):\n        v.fill_(0)\n    def plan(self):\n"
        "        return 0\n",
        # a class with its own __setattr__
        "class Kernel:\n    def __init__(self, buf):\n        self.buf = buf\n    def __setattr__(self, k, v):\n"
        "        object.__setattr__(self, k, v.clone())\n    def plan(self):\n        return 0\n",
        # the argument goes to *args
        "class Kernel:\n    def __init__(self, *bufs):\n        self.bufs = bufs\n    def plan(self):\n        return 0\n",
    ],
)
def test_the_argument_counts_as_read(write_project, kernel):
    src = kernel + steps_building("Kernel", "{k}(self.ptr[i])")
    assert ("DI002", "Child", "ptr") not in findings(write_project, src)


def test_a_class_outside_the_project_keeps_the_read(write_project):
    src = "import types\n" + steps_building("types.SimpleNamespace", "{k}(buf=self.ptr[i])")
    assert ("DI002", "Child", "ptr") not in findings(write_project, src)


def test_a_read_through_a_local_or_a_method_still_counts(write_project):
    src = """
class Kernel:
    def __init__(self, buf):
        self.buf = buf
    def plan(self):
        return 0
class Child(Steps):
    def __init__(self, n):
        super().__init__(n)
        self.kernels = [Kernel(self.ptr[i]) for i in range(n)]
        self.first = self.ptr[0]
    def plan(self):
        return self.first
"""
    assert ("DI002", "Child", "ptr") not in findings(write_project, src)


def relays(depth: int) -> str:
    out = "class Sink:\n    def __init__(self, buf):\n        self.buf = buf\n    def plan(self):\n        return 0\n"
    inner = "Sink"
    for k in range(depth - 1, 0, -1):
        out += (
            f"class Relay{k}:\n    def __init__(self, buf):\n        self.inner = {inner}(buf)\n"
            "    def plan(self):\n        return self.inner.plan()\n"
        )
        inner = f"Relay{k}"
    return out + steps_building(inner, "{k}(self.ptr[i])")


def test_depth_limit(write_project):
    assert ("DI002", "Child", "ptr") in findings(write_project, relays(3))  # Relay1 -> Relay2 -> Sink
    assert ("DI002", "Child", "ptr") not in findings(write_project, relays(4))  # one construction too deep


def test_construction_cycle_terminates(write_project):
    src = """
class Kernel:
    def __init__(self, buf, again=True):
        self.buf = buf
        self.child = Kernel(buf, again=False) if again else None
    def plan(self):
        return self.child
"""
    assert ("DI002", "Child", "ptr") not in findings(write_project, src + steps_building("Kernel", "{k}(self.ptr[i])"))


UPDATER = "KEEP = []\nclass Updater:\n    def __init__(self, buf):\n        self.buf = buf\n{extra}    def get(self):\n        return self.buf\n    def setup(self):\n        KEEP.append(self.buf)\n"
HOLDER = "class Kernel:\n    def __init__(self, buf):\n        self.updater = {made}\n    def plan(self):\n        return {plan}\n"


@pytest.mark.parametrize("made", ["Updater(buf)", "[Updater(buf)]"])
def test_an_object_built_from_the_argument_into_a_dead_attribute_keeps_nothing(write_project, made):
    src = UPDATER.format(extra="") + HOLDER.format(made=made, plan="0") + steps_building("Kernel", "{k}(self.ptr[i])")
    f = findings(write_project, src)[("DI002", "Child", "ptr")]
    text = " ".join(e.text for e in f.evidence)
    assert (
        "whose `updater` it is read only to compute" in text and "`Updater` keeps it only in its own attributes" in text
    )


@pytest.mark.parametrize(
    ("extra", "plan"),
    [
        ("", "self.updater"),  # the holder's attribute is live
        ("        KEEP.append(buf)\n", "0"),  # handed to a call while it is built
        ("        KEEP.append(self.buf)\n", "0"),  # its own attribute read while it is built
        ("        self.setup()\n", "0"),  # a method of it runs while it is built
    ],
)
def test_an_object_built_from_the_argument_that_may_keep_it_keeps_the_read(write_project, extra, plan):
    src = UPDATER.format(extra=extra) + HOLDER.format(made="Updater(buf)", plan=plan)
    assert ("DI002", "Child", "ptr") not in findings(write_project, src + steps_building("Kernel", "{k}(self.ptr[i])"))
