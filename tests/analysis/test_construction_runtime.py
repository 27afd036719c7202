"""Slow property test: transitive deadness across construction against a recording run.

Random per-step kernel chains (a subclass hands ``self.ptr[i]`` to ``K1``, which stores
it, reads it, logs it, tests it, hands it to its parent's ``__init__`` or to ``K2``...)
are written to a package, checked, then executed with a recording tensor whose views
report any use back to the tensor they were sliced from.  A DI002 on ``Child.ptr``
must mean the run never used the buffer; recall (findings / dead at runtime) is printed.
"""

import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

RECORDING_TORCH = """
USED = set()


class Tensor:
    def __init__(self, root=None):
        self.root = root if root is not None else self

    def __getitem__(self, key):
        return Tensor(self.root)

    def sum(self):
        USED.add(id(self.root))
        return 0


def zeros(*shape):
    return Tensor()
"""

BEHAVIOURS = ("store_dead", "store_live", "log", "test_then_store_dead", "parent_dead", "parent_live", "pass_on")


def kernel(level: int, behaviour: str, last: bool) -> str:
    if behaviour == "pass_on" and last:
        behaviour = "store_dead"
    name, nxt = f"K{level}", f"K{level + 1}"
    bodies = {
        "store_dead": ("self.buf = buf", "return 0"),
        "store_live": ("self.buf = buf", "return self.buf.sum()"),
        "log": ("consume(buf)\n        self.buf = buf", "return 0"),
        "test_then_store_dead": (
            "if buf is None:\n            self.buf = None\n        else:\n            self.buf = buf",
            "return 0",
        ),
        "pass_on": (f"self.inner = {nxt}(buf)", "return self.inner.plan()"),
    }
    if behaviour in ("parent_dead", "parent_live"):
        reads = "return 0" if behaviour == "parent_dead" else "return self.buf.sum()"
        return textwrap.dedent(f"""
            class {name}Base:
                def __init__(self, buf):
                    self.buf = buf

                def plan(self):
                    return self.buf.sum()


            class {name}({name}Base):
                def __init__(self, buf):
                    super().__init__(buf)

                def plan(self):
                    {reads}
            """)
    init, plan = bodies[behaviour]
    return f"\n\nclass {name}:\n    def __init__(self, buf):\n        {init}\n\n    def plan(self):\n        {plan}\n"


def module(behaviours: list[str]) -> str:
    src = "import torch\n\n\ndef consume(x):\n    return x.sum()\n"
    for level, b in enumerate(behaviours, start=1):
        src += kernel(level, b, level == len(behaviours))
    src += textwrap.dedent("""

        class Parent:
            def __init__(self, n):
                self.ptr = torch.zeros(n, 4)
                self.kernels = []

            def plan(self):
                return [k.plan() for k in self.kernels]


        class Child(Parent):
            def __init__(self, n):
                super().__init__(n)
                self.kernels = [K1(self.ptr[i]) for i in range(n)]
        """)
    return src


RUN = """
import sys
sys.path[:0] = [sys.argv[2], sys.argv[1]]  # the recording torch first
import torch
from pkg import m
child = m.Child(3)
child.plan()
print(id(child.ptr) in torch.USED)
"""

SEEN = {"dead": 0, "reported": 0}


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(BEHAVIOURS), min_size=1, max_size=5))
def test_a_reported_buffer_is_never_used_at_runtime(tmp_path_factory, behaviours):
    base = tmp_path_factory.mktemp("construction")
    root, stub = base / "project", base / "stub"
    (root / "pkg").mkdir(parents=True)
    stub.mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "m.py").write_text(module(behaviours))
    (stub / "torch.py").write_text(RECORDING_TORCH)
    res = run_check([str(root)], Settings(select=("DI002",), module_bases=()))
    reported = any(f.cls.endswith(".Child") and f.attribute == "ptr" for f in res.findings)
    run = [sys.executable, "-c", RUN, str(root), str(stub)]
    out = subprocess.run(run, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    used = out.stdout.strip() == "True"
    assert not (reported and used), f"{behaviours}: reported, but the run used the buffer"
    SEEN["dead"] += not used
    SEEN["reported"] += reported
    print(f"recall so far: {SEEN['reported']}/{SEEN['dead']} dead buffers reported")
