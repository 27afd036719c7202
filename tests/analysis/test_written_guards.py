"""Guards as real code writes them (``analysis.flow.chain``, ``analysis.flow.conditions``, ``analysis.flow.ensured``):
a copy of the configuration with a field changed and passed up by keyword, a collection emptied
before the parent builds a container over it, an ``assert`` after ``super().__init__`` that
contradicts a parent's guard.  Each decides the guard (or empties the container); a change or an
assert that decides nothing leaves the finding."""

import pytest

from deadinit.analysis.flow.conditions import Facts, evaluate, length, text, value_of
from deadinit.api.check import run_check
from deadinit.model.settings import Settings

PARENT = """
import copy
import dataclasses
from dataclasses import replace
import torch
from torch import nn
class Merge(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Linear(n, n)
class Parent(nn.Module):
    def __init__(self, config, head_dim=64, use_fp4=False):
        super().__init__()
        self.head_dim = head_dim
        self.proj = nn.Linear(8, 8)
        if config.q_rank is not None:
            self.q_proj = nn.Linear(8, 8)
        if config.kv_rank is not None:
            self.kv_proj = nn.Linear(8, 8)
        self.ids = config.ids if hasattr(config, "ids") else [0, 1]
        self.mergers = nn.ModuleList([Merge(8) for _ in range(len(self.ids))])
        self.adapters = []
        for name in config.names:
            self.adapters.append(nn.Linear(8, 8))
        if head_dim == 512:
            self.wide = torch.empty(4096, 512)
        if not use_fp4:
            self.bf16 = torch.empty(64, 64)
    def forward(self, x):
        return self.proj(x), self.q_proj, self.kv_proj, self.mergers, self.adapters, self.wide, self.bf16
"""
ALL = ["adapters", "bf16", "kv_proj", "mergers", "q_proj", "wide"]


def found(write_project, init):
    src = f"""
class Sub(Parent):
    def __init__(self, config, head_dim=64, use_fp4=False):
{init}
    def forward(self, x):
        return self.proj(x)
"""
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": PARENT + src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return sorted(f.attribute for f in res.findings if f.code == "DI002")


def without(*quiet):
    return [a for a in ALL if a not in quiet]


def test_without_changes_every_allocation_is_a_finding(write_project):
    assert found(write_project, "        super().__init__(config, head_dim, use_fp4)") == ALL


@pytest.mark.parametrize(
    ("copier", "change"),
    [
        ("copy.copy", 'object.__setattr__(cfg, "q_rank", None)'),
        ("copy.deepcopy", 'setattr(cfg, "q_rank", None)'),
        ("copy.copy", "cfg.q_rank = None"),
    ],
)
def test_a_copied_config_with_a_field_set_passed_by_keyword(write_project, copier, change):
    init = f"        cfg = {copier}(config)\n        {change}\n        super().__init__(config=cfg, head_dim=head_dim)"
    assert found(write_project, init) == without("q_proj")


def test_a_getattr_guard_is_decided_by_the_field_set_on_the_copy(write_project):
    src = """
import copy
import torch
class Parent:
    def __init__(self, config):
        if getattr(config, "f", None) is not None:
            self.x = torch.zeros(config.f)
        if getattr(config, "g", None) is not None:
            self.y = torch.zeros(config.g)
    def forward(self):
        return None
class Sub(Parent):
    def __init__(self, config):
        cfg = copy.copy(config)
        cfg.f = None
        super().__init__(config=cfg)
"""
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    assert sorted(f.attribute for f in res.findings if f.cls.endswith("Sub")) == ["y"]


def test_dataclasses_replace_sets_the_fields_it_names(write_project):
    init = "        super().__init__(config=dataclasses.replace(config), head_dim=head_dim)"
    assert found(write_project, init) == ALL  # a replace that names no field changes nothing
    init = "        cfg = replace(config, q_rank=None, kv_rank=None)\n        super().__init__(cfg, head_dim)"
    assert found(write_project, init) == without("q_proj", "kv_proj")


def test_a_copy_that_changes_another_field_decides_nothing(write_project):
    init = '        cfg = copy.copy(config)\n        setattr(cfg, "hidden", None)\n        super().__init__(config=cfg)'
    assert found(write_project, init) == without("wide")  # head_dim takes its default: 64


def test_a_field_set_only_on_some_paths_decides_nothing(write_project):
    init = "        cfg = copy.copy(config)\n        if head_dim:\n            setattr(cfg, 'q_rank', None)\n"
    assert found(write_project, init + "        super().__init__(config=cfg)") == without("wide")


def test_an_emptied_collection_builds_empty_containers(write_project):
    init = (
        "        cfg = copy.copy(config)\n        cfg.ids = []\n        cfg.names = ()\n        super().__init__(cfg)"
    )
    assert found(write_project, init) == without("mergers", "adapters", "wide")


def test_a_copy_of_an_emptied_collection_sizes_empty_containers_and_tensors(write_project):
    src = """
import torch
from torch import nn
class Parent(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ids = list(config.ids)
        self.each = nn.ModuleList([nn.Linear(8, 8) for _ in self.ids])
        self.kept = nn.ModuleList([nn.Linear(8, 8) for _ in self.ids if _])
        self.sized = torch.zeros(2, len(self.ids))
    def forward(self):
        return None
class Sub(Parent):
    def __init__(self, config):
        config.ids = []
        super().__init__(config)
"""
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    assert sorted(f.attribute for f in res.findings) == ["kept"]  # a filtered comprehension is not counted


def test_a_collection_changed_but_not_emptied_builds_its_container(write_project):
    init = "        config.ids = [0]\n        setattr(config, 'names', ('a',))\n        super().__init__(config)"
    assert found(write_project, init) == without("wide")


def test_an_assert_after_super_contradicts_the_parents_guards(write_project):
    init = "        super().__init__(config, head_dim, use_fp4)\n        assert self.head_dim == 128 and use_fp4"
    assert found(write_project, init) == without("wide", "bf16")


def test_an_assert_of_membership_contradicts_an_equality_guard(write_project):
    init = "        super().__init__(config, head_dim, use_fp4)\n        assert self.head_dim in (64, 128)"
    assert found(write_project, init) == without("wide")
    init = "        super().__init__(config, head_dim, use_fp4)\n        assert self.head_dim in (128, 512)"
    assert found(write_project, init) == ALL  # 512 may still be held


def test_an_assert_decides_an_ordering_guard(write_project):
    src = """
import torch
class Parent:
    def __init__(self, head_dim=512):
        self.head_dim = head_dim
        if head_dim >= 256:
            self.wide = torch.zeros(head_dim)
        if 64 < head_dim:
            self.mid = torch.zeros(head_dim)
    def forward(self):
        return None
class Sub(Parent):
    def __init__(self, head_dim=128):
        super().__init__(head_dim)
        assert self.head_dim == 128
"""
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    assert sorted(f.attribute for f in res.findings if f.cls.endswith("Sub")) == ["mid"]  # 64 < 128 holds


def test_orderings_and_membership_of_literals():
    env = {"n": ("const", 128), "s": ("const", "a"), "none": ("const", None)}
    pair = ("tuple", (("const", 64), ("const", 128)))
    assert evaluate(("cmp", ">=", ("name", "n"), ("const", 256)), env, {}) is False
    assert evaluate(("cmp", "<", ("const", 64), ("name", "n")), env, {}) is True
    assert evaluate(("cmp", "<", ("name", "none"), ("const", 1)), env, {}) is None  # None does not order
    assert evaluate(("cmp", "<", ("name", "s"), ("const", 1)), env, {}) is None
    assert evaluate(("in", ("name", "n"), pair), env, {}) is True
    assert evaluate(("not", ("in", ("name", "n"), pair)), env, {}) is False
    assert evaluate(("in", ("name", "m"), pair), env, {}) is None
    assert text(("cmp", ">=", ("name", "n"), ("const", 256))) == "n >= 256"
    assert text(("not", ("in", ("self", "n"), pair))) == "self.n not in (64, 128)"


def test_an_assert_that_does_not_contradict_decides_nothing(write_project):
    init = "        super().__init__(config, head_dim, use_fp4)\n        assert self.head_dim != 128"
    assert found(write_project, init) == ALL
    init = "        super().__init__(config, head_dim, use_fp4)\n        assert self.head_dim == 512"
    assert found(write_project, init) == ALL  # a guard the assert makes true stays an allocation


def test_an_assert_on_a_value_replaced_since_decides_nothing(write_project):
    init = (
        "        super().__init__(config, head_dim, use_fp4)\n"
        "        self.head_dim = 128\n"
        "        assert self.head_dim == 128"
    )
    assert found(write_project, init) == ALL


def test_length_of_what_is_iterated():
    facts = Facts(dotted={"cfg.ids": ("empty",), "cfg.pair": ("tuple", (("const", 1), ("const", 2)))})
    env = {"n": ("const", 0), "m": ("const", 3)}

    def n(e):
        return length(e, env, {}, facts)

    assert n(("call", "range", (("name", "n"),), ())) == 0
    assert n(("call", "range", (("name", "m"),), ())) == 3
    assert n(("call", "range", (("call", "len", (("dotted", "cfg.ids"),), ()),), ())) == 0
    assert n(("call", "enumerate", (("dotted", "cfg.ids"),), ())) == 0
    assert n(("dotted", "cfg.pair")) == 2
    assert n(("dotted", "cfg.other")) is None
    assert length(("dotted", "cfg.ids"), env, {}) is None  # without the facts, unknown
    assert n(("call", "list", (("dotted", "cfg.ids"),), ())) == 0
    assert value_of(("call", "list", (("dotted", "cfg.ids"),), ()), env, {}, facts) == ("empty",)
    assert value_of(("call", "enumerate", (("dotted", "cfg.ids"),), ()), env, {}, facts) == ("?",)  # truthy
    assert value_of(("call", "list", (("dotted", "cfg.pair"),), ()), env, {}, facts) == ("?",)


def test_hasattr_and_conditional_values_under_facts():
    facts = Facts(dotted={"cfg.ids": ("empty",)})
    chosen = ("ifexp", ("call", "hasattr", (("name", "cfg"), ("const", "ids")), ()), ("dotted", "cfg.ids"), ("?",))
    assert value_of(chosen, {}, {}, facts) == ("empty",)
    assert value_of(chosen, {}, {}) == ("?",)  # hasattr undecided without the facts
    other = ("ifexp", ("call", "hasattr", (("name", "cfg"), ("const", "x")), ()), ("const", 1), ("const", 2))
    got = ("call", "getattr", (("name", "cfg"), ("const", "ids"), ("const", None)), ())
    assert value_of(got, {}, {}, facts) == ("empty",)
    assert value_of(got, {}, {}) == ("?",)
    assert value_of(("call", "getattr", (("name", "cfg"), ("const", "x")), ()), {}, {}, facts) == ("?",)
    assert value_of(other, {}, {}, facts) == ("?",)
