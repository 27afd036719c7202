"""A list rebuilt element by element by an intermediate ``__init__`` and again by a subclass (issue 35,
part 2): the intermediate's rebuild is a candidate as the root's build is (``binding_fate.replaces_elements``)."""

from deadinit.api.check import run_check
from deadinit.model.kinds import FixSafety
from deadinit.model.settings import Settings

ROOT = """
import torch
from torch import nn
class Step(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.buf = torch.zeros(n)
class FastStep(Step):
    pass
class TinyStep(Step):
    pass
class Root:
    def __init__(self, n, steps):
        self.steps_n = steps
        self.steps = []
        for _ in range(self.steps_n):
            self.steps.append(Step(n))
    def forward(self, x):
        return [s.buf for s in self.steps]
class Mid(Root):
    def __init__(self, n, steps, fast=True):
        super().__init__(n, steps)
        if fast:
            for i in range(self.steps_n):
                self.steps[i] = FastStep(n)
"""


def findings(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": ROOT + src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.cls.rsplit(".", 1)[-1], f.parent.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_the_intermediate_rebuild_a_subclass_replaces_again_is_dead(write_project):
    got = findings(
        write_project,
        """
class Top(Mid):
    def __init__(self, n, steps):
        super().__init__(n, steps, fast=True)
        for i in range(self.steps_n):
            self.steps[i] = TinyStep(n)
""",
    )
    assert set(got) == {("Top", "Root", "steps"), ("Top", "Mid", "steps")}
    mid = got[("Top", "Mid", "steps")]
    assert mid.code == "DI001" and "only when" not in mid.message
    assert mid.path.endswith("m.py")
    # no flag skips an intermediate's refill: the placeholders it leaves would reach what reads the list
    # after it (the intermediate's own fix moves such reads there)
    assert mid.fix_safety == FixSafety.NONE
    assert (
        mid.fix_safety_reason.startswith("Mid.__init__ line ")
        and "refills self.steps element by element" in mid.fix_safety_reason
    )


def test_a_rebuild_under_a_guard_the_subclass_leaves_open_is_dead_only_when_it_holds(write_project):
    got = findings(
        write_project,
        """
class Top(Mid):
    def __init__(self, n, steps, fast=True):
        super().__init__(n, steps, fast)
        for i in range(self.steps_n):
            self.steps[i] = TinyStep(n)
""",
    )
    mid = got[("Top", "Mid", "steps")]
    assert mid.message.endswith("(only when fast)") and mid.extra["conditional"]


def test_the_intermediate_rebuild_read_before_it_is_replaced_is_live(write_project):
    got = findings(
        write_project,
        """
class Top(Mid):
    def __init__(self, n, steps):
        super().__init__(n, steps, fast=True)
        if any(s.buf is None for s in self.steps):
            raise ValueError("no buffer")
        for i in range(self.steps_n):
            self.steps[i] = TinyStep(n)
""",
    )
    assert ("Top", "Mid", "steps") not in got


def test_a_subclass_that_replaces_nothing_keeps_the_rebuild(write_project):
    got = findings(
        write_project,
        """
class Top(Mid):
    def __init__(self, n, steps):
        super().__init__(n, steps, fast=True)
        self.tag = "top"
""",
    )
    assert not any(parent == "Mid" for _, parent, _ in got)


def test_a_loop_over_a_local_is_not_known_to_cover_the_same_elements(write_project):
    """``range(steps)`` names each ``__init__``'s own parameter: the two loops need not cover the same items."""
    got = findings(
        write_project,
        """
class LocalMid(Root):
    def __init__(self, n, steps):
        super().__init__(n, steps + 1)
        for i in range(steps):
            self.steps[i] = FastStep(n)
class LocalTop(LocalMid):
    def __init__(self, n, steps):
        super().__init__(n, 2 * steps)
        for i in range(steps):
            self.steps[i] = TinyStep(n)
""",
    )
    assert ("LocalTop", "LocalMid", "steps") not in got


WHOLE = """
import torch
from torch import nn
class Step(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.buf = torch.zeros(n)
class Root:
    def __init__(self, n):
        self.steps = {built}
    def forward(self, x):
        return [s.buf for s in self.steps]
class Sub(Root):
    def __init__(self, n):
        super().__init__(n)
        for i in {loop}:
            self.steps[i] = Step(2 * n)
"""


def whole_findings(write_project, built: str, loop: str):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": WHOLE.format(built=built, loop=loop)})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_a_list_built_whole_with_a_constant_count_and_refilled_over_it_is_dead(write_project):
    for built in ("[Step(n) for _ in range(3)]", "[Step(n), Step(n), Step(n)]"):
        got = whole_findings(write_project, built, "range(3)")
        assert set(got) == {("Sub", "steps")}, built
        f = got[("Sub", "steps")]
        assert f.code == "DI001" and f.fix_safety == FixSafety.SAFE  # the root's else branch keeps the list's shape


def test_a_refill_not_known_to_cover_every_element_keeps_the_list(write_project):
    for built, loop in (
        ("[Step(n) for _ in range(3)]", "range(2)"),  # one left
        ("[Step(n) for _ in range(n)]", "range(3)"),  # a count that is no constant
        ("[Step(n) for _ in range(3)]", "range(0, 3, 2)"),  # every other one
        ("[Step(n) for _ in range(3)]", "[0, 1, 2]"),  # not a range (not recognised: a miss, not a guess)
    ):
        assert whole_findings(write_project, built, loop) == {}, (built, loop)
