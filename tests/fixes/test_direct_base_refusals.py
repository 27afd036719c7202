"""direct-base refuses (with the reason) instead of writing a rewrite that could change behaviour."""

from pathlib import Path

import pytest

from deadinit.api.check import run_check
from deadinit.fixes.direct_base.planner import plan as direct_base_plan
from deadinit.fixes.direct_base.rewrite import rewrite_class
from deadinit.model.fix import FixOptions
from deadinit.model.settings import Settings

BASE = """
class Base:
    def forward(self, x):
        return self.run(x)

    def run(self, x):
        raise NotImplementedError
"""

PARENT = """
import torch
from pkg.base import Base


class Wrapper:
    def __init__(self, ws):
        self.ws = ws

    def go(self, x):
        return x + self.ws[0]


class P(Base):
    def __init__(self, n):
        super().__init__()
        self.idx = torch.zeros(n)
        self.ws = torch.empty(100)
        self.wrappers = [Wrapper(self.ws)]
{extra_init}
    def run(self, x):
        return self.wrappers[0].go(x)

    def plan(self, x):
        return self.wrappers

    def scale(self, x):
        return x
{extra}"""

CHILD = """
from pkg.p import P
{imports}

class C(P):
    def __init__(self, n):
{call}

    def run(self, x):
{run}

    def plan(self, x):
        return self.idx
"""


def project(
    write_project,
    extra_init="",
    extra="",
    call="        super().__init__(n)",
    run="        return self.idx[x]",
    imports="",
    more=None,
):
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": BASE,
        "pkg/p.py": PARENT.format(extra_init=extra_init, extra=extra),
        "pkg/c.py": CHILD.format(call=call, run=run, imports=imports),
    }
    files.update(more or {})
    root = write_project(files)
    return run_check([str(root / "pkg")], Settings())


def outcome(result, max_lines=400):
    return rewrite_class(result, "pkg.c.C", max_lines)


def test_baseline_project_is_rewritten(write_project):
    out = outcome(project(write_project))
    assert out.ok, out.blockers
    assert "class C(Base):" in out.new and "self.idx = torch.zeros(n)" in out.new
    assert "Wrapper" not in out.new and "self.ws" not in out.new


def test_isinstance_against_old_parent_blocks(write_project):
    res = project(
        write_project, more={"pkg/use.py": "from pkg.p import P\n\n\ndef f(b):\n    return isinstance(b, P)\n"}
    )
    out = outcome(res)
    assert any("isinstance" in b and "use.py:5" in b for b in out.blockers), out.blockers
    plan = direct_base_plan(res, FixOptions(classes=("pkg.c.C",)))
    assert not plan.files and "isinstance" in plan.refusals[0].reason


def test_isinstance_that_also_names_a_kept_class_is_fine(write_project):
    res = project(
        write_project,
        more={
            "pkg/use.py": "from pkg.p import P\nfrom pkg.base import Base\n\n\n"
            "def f(b):\n    return isinstance(b, (P, Base))\n"
        },
    )
    assert outcome(res).ok


def test_too_many_lines_to_copy(write_project):
    out = outcome(project(write_project), max_lines=1)
    assert any(b.startswith("would copy") and "limit 1" in b for b in out.blockers), out.blockers


def test_args_kwargs_forwarding(write_project):
    out = outcome(project(write_project, call="        super().__init__(*(n,))"))
    assert any("*args/**kwargs" in b for b in out.blockers), out.blockers


def test_parent_signature_with_kwargs(write_project):
    res = project(write_project, call="        super().__init__(n)")
    root_p = res.index.file_of("pkg.p.P").path
    src = Path(root_p).read_text().replace("def __init__(self, n):", "def __init__(self, n, **kw):")
    Path(root_p).write_text(src)
    out = outcome(run_check([str(res.index.file_of("pkg.p.P").path.rsplit("/", 1)[0])], Settings()))
    assert any("*args/**kwargs" in b for b in out.blockers), out.blockers


def test_side_effect_the_class_reads_blocks(write_project):
    extra_init = "        REGISTRY.append(n)\n"
    extra = "\n\nREGISTRY = []\n"
    res = project(
        write_project,
        extra_init=extra_init,
        extra=extra,
        imports="from pkg.p import REGISTRY",
        run="        return REGISTRY[x]",
    )
    out = outcome(res)
    assert any("REGISTRY" in b and "code that stays reads" in b for b in out.blockers), out.blockers


def test_side_effect_nobody_reads_is_dropped_and_listed(write_project):
    res = project(write_project, extra_init="        LOG.append(n)\n", extra="\n\nLOG = []\n")
    out = outcome(res)
    assert out.ok, out.blockers
    assert out.dropped_effects == ["P.__init__ line 20: `LOG.append(n)`"]
    assert "LOG" not in out.new


def test_passing_self_to_another_object_blocks(write_project):
    res = project(write_project, extra_init="        hooks.register(self)\n", extra="\n\nhooks = None\n")
    assert any("passes self" in b for b in outcome(res).blockers)


def test_super_call_into_the_old_parent_blocks(write_project):
    res = project(write_project, run="        return super().scale(x) + 1")
    assert any("super().scale" in b for b in outcome(res).blockers), outcome(res).blockers


def test_unresolvable_inlined_name_blocks(write_project):
    res = project(
        write_project,
        extra_init="        self.size = SIZE\n",
        more={"pkg/consts.py": "SIZE = 3\n"},
        run="        return self.idx[x] + self.size",
    )
    path = res.index.file_of("pkg.p.P").path
    src = Path(path).read_text().replace("import torch\n", "import torch\nfrom pkg.consts import *\n", 1)
    Path(path).write_text(src)
    out = outcome(run_check([path.rsplit("/", 1)[0]], Settings()))
    assert any("`SIZE`" in b for b in out.blockers), out.blockers


def test_name_meaning_something_else_in_the_child_module_blocks(write_project):
    res = project(
        write_project,
        extra_init="        self.size = SIZE\n",
        extra="\n\nSIZE = 3\n",
        imports="SIZE = 4",
        run="        return self.idx[x] + self.size",
    )
    assert any("`SIZE` means something else" in b for b in outcome(res).blockers)


def test_early_return_in_parent_init_blocks(write_project):
    res = project(
        write_project, extra_init="        if n > 5:\n            return\n        self.more = torch.ones(3)\n"
    )
    assert any("returns early" in b for b in outcome(res).blockers), outcome(res).blockers


def test_class_private_names_block(write_project):
    res = project(
        write_project,
        extra="\n    def _hidden(self):\n        return self.__secret\n",
        extra_init="        self.__secret = 1\n",
        run="        return self._hidden()",
    )
    assert any("class-private" in b for b in outcome(res).blockers), outcome(res).blockers


def test_nothing_dead_means_nothing_to_do(write_project):
    res = project(write_project, run="        return self.wrappers[0].go(x) + self.idx[x]")
    out = outcome(res)
    assert out.nothing_to_do and not out.new
    plan = direct_base_plan(res, FixOptions(classes=("pkg.c.C",)))
    assert plan.refusals[0].kind == "not-fixable"


@pytest.mark.parametrize("max_lines", [400])
def test_plan_without_class_uses_di003(write_project, max_lines):
    res = project(write_project)
    assert [f.cls for f in res.findings if f.code == "DI003"] == ["pkg.c.C"]
    plan = direct_base_plan(res, FixOptions())
    assert [c.cls for c in plan.changes] == ["pkg.c.C"]


def test_copied_helper_rebinding_a_module_global_blocks(write_project):
    extra = (
        "\n    def helper(self, x):\n        global COUNTER\n        COUNTER = x\n"
        "        return self.idx\n\n\nCOUNTER = 0\n"
    )
    res = project(write_project, extra=extra, run="        return self.helper(x)")
    assert any("rebinds `COUNTER`" in b for b in outcome(res).blockers), outcome(res).blockers


def test_decorated_parent_blocks(write_project):
    res = project(write_project)
    path = res.index.file_of("pkg.p.P").path
    src = (
        Path(path)
        .read_text()
        .replace("class P(Base):", "@register\nclass P(Base):")
        .replace("class Wrapper:", "def register(c):\n    return c\n\n\nclass Wrapper:")
    )
    Path(path).write_text(src)
    out = outcome(run_check([path.rsplit("/", 1)[0]], Settings()))
    assert any("decorated" in b for b in out.blockers), out.blockers


def test_subclass_super_call_into_the_old_parent_blocks(write_project):
    res = project(
        write_project,
        more={
            "pkg/d.py": (
                "from pkg.c import C\n\n\nclass D(C):\n    def run(self, x):\n        return super().scale(x)\n"
            )
        },
    )
    assert any("subclass D" in b and "super().scale" in b for b in outcome(res).blockers), outcome(res).blockers


def test_explicit_super_arguments_block(write_project):
    res = project(write_project)
    path = res.index.file_of("pkg.p.P").path
    src = Path(path).read_text().replace("super().__init__()", "super(P, self).__init__()")
    Path(path).write_text(src)
    out = outcome(run_check([path.rsplit("/", 1)[0]], Settings()))
    assert any("super(Class, self)" in b for b in out.blockers), out.blockers


def test_deleting_an_attribute_only_a_copied_class_attribute_would_hold_blocks(write_project):
    """``C`` deletes ``self.ws`` after ``P.__init__`` set it; re-based, ``C`` would inherit only the
    class attribute ``ws = None`` (copied for its read), and ``del self.ws`` would raise."""
    res = project(
        write_project,
        call="        super().__init__(n)\n        del self.ws",
        run="        return self.ws, self.idx[x]",
        extra="\n    ws = None\n",
    )
    plan = direct_base_plan(res, FixOptions(classes=("pkg.c.C",), unsafe_fixes=True))
    assert not plan.files, plan.files[0].new
    assert any("removes attributes that are no longer set: ws" in r.reason for r in plan.refusals), plan.refusals
