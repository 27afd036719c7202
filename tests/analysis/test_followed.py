"""Allocations followed through project functions and methods, tuple targets, nested replacement, removals."""

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

BASE = """
import torch
from torch import nn
class Base:
    def forward(self, x):
        raise NotImplementedError
"""


def findings(write_project, src):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": BASE + src})
    res = run_check([str(root)], Settings(select=("DI001", "DI002")))
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_depth_is_bounded(write_project):
    chain = (
        "\n".join(f"def f{i}(n):\n    return f{i + 1}(n)" for i in range(6)) + "\ndef f6(n):\n    return torch.zeros(n)"
    )
    got = findings(
        write_project,
        chain
        + """
class P(Base):
    def __init__(self):
        self.deep = f0(4)
        self.near = f4(4)
    def forward(self, x):
        return self.deep, self.near
class C(P):
    def forward(self, x):
        return x
""",
    )
    assert set(got) == {("DI002", "C", "near")}
    texts = [e.text for e in got[("DI002", "C", "near")].evidence if e.kind.value == "followed"]
    assert len(texts) == 3 and texts[0].startswith("`f4` returns")


def test_tuple_targets_match_the_returned_tuple(write_project):
    got = findings(
        write_project,
        """
def three(n):
    return nn.ModuleList([nn.Linear(n, n)]), 0, n
def pair_or_list(n, pair=False):
    layers = nn.ModuleList([nn.Linear(n, n)])
    if pair:
        return layers, n
    return layers
class P(Base):
    def __init__(self):
        self.a, self.b = three(4)  # raises: nothing to report
        self.first, *self.rest = three(4)
        self.start, self.layers = pair_or_list(4, True)
    def forward(self, x):
        return self.first, self.layers, self.start
class C(P):
    def forward(self, x):
        return x
""",
    )
    assert set(got) == {("DI002", "C", "first"), ("DI002", "C", "start")}  # start receives the list, item 0


def test_method_resolved_through_the_instance_class(write_project):
    got = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.head = self._build_head()
    def _build_head(self):
        return None
    def forward(self, x):
        return self.head
class Builds(P):
    def _build_head(self):
        return nn.Linear(4, 4)
    def forward(self, x):
        return x
class Skips(P):
    def forward(self, x):
        return x
""",
    )
    assert set(got) == {("DI002", "Builds", "head")}
    assert got[("DI002", "Builds", "head")].fix_safety == "none"  # Builds has no __init__ to pass a flag from


def test_nested_part_through_two_constructions(write_project):
    got = findings(
        write_project,
        """
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attn()
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = Layer()
class Fused(Model):
    def __init__(self):
        super().__init__()
        self.layer.attn.proj = nn.Linear(4, 4, bias=False)
class ReadsFirst(Model):
    def __init__(self):
        super().__init__()
        self.old = self.layer.attn.proj.weight
        self.layer.attn.proj = nn.Linear(4, 4, bias=False)
""",
    )
    assert set(got) == {("DI001", "Fused", "layer.attn.proj")}
    f = got[("DI001", "Fused", "layer.attn.proj")]
    assert f.parent.endswith(".Attn") and f.fix_safety == "none"


def test_removal_forms_are_reported_alike(write_project):
    got = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.x = torch.zeros(4)
        self.y = torch.zeros(4)
        self.z = torch.zeros(4)
    def forward(self, q):
        return self.x, self.y, self.z
class C(P):
    def __init__(self):
        super().__init__()
        del self.x
        delattr(self, "y")
        for name in ("z",):
            delattr(self, name)
    def forward(self, q):
        return q
""",
    )
    assert set(got) == {("DI001", "C", "x"), ("DI001", "C", "y"), ("DI001", "C", "z")}
    for f in got.values():
        assert "deleted" in {e.kind.value for e in f.evidence}
        assert "deleted by C.__init__" in f.message


def test_removal_that_uncovers_a_property_is_not_fixable(write_project):
    got = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.mergers = nn.ModuleList([nn.Linear(4, 4)])
    def forward(self, q):
        return self.mergers
class C(P):
    def __init__(self):
        super().__init__()
        self.merger_list = nn.ModuleList([nn.Linear(4, 4)])
        del self.mergers
    @property
    def mergers(self):
        return self.merger_list
""",
    )
    f = got[("DI001", "C", "mergers")]
    assert f.fix_safety == "none" and "uncover C.mergers" in f.fix_safety_reason


def test_receivers_typed_by_what_produced_them(write_project):
    got = findings(
        write_project,
        """
class Meta:
    pass
def make_meta() -> Meta:
    return Meta()
def make_any():
    return Meta()
class P(Base):
    def __init__(self):
        self.a = torch.zeros(4)
        self.b = torch.zeros(4)
        self.c = torch.zeros(4)
        self.d = torch.zeros(4)
        self.meta = None
    def forward(self, x):
        return self.a, self.b, self.c, self.d
class C(P):
    def forward(self, x):
        self.meta = self._meta()
        m = make_meta()
        n = make_any()
        return self.meta.a, m.b, n.c, self.meta2().d
    def _meta(self) -> Meta:
        return make_meta()
    def meta2(self):
        return make_meta()
class D(C):
    def _meta(self):  # an override without an annotation: self.meta could be anything
        return make_meta()
""",
    )
    assert {k for k in got if k[1] == "C"} == {("DI002", "C", "b")}  # a: D's override; c, d: not annotated


def test_receivers_typed_through_an_attribute_of_a_known_class(write_project):
    got = findings(
        write_project,
        """
from dataclasses import dataclass
class Spec:
    pass
@dataclass
class Batch:
    spec: Spec
    loose: object
class Holder:
    def __init__(self):
        self.spec = Spec()
class P(Base):
    def __init__(self):
        self.a = torch.zeros(4)
        self.b = torch.zeros(4)
        self.c = torch.zeros(4)
        self.holder = Holder()
    def forward(self, x):
        return self.a, self.b, self.c
class C(P):
    def forward(self, x):
        return x
    def step(self, batch: Batch):
        return batch.spec.a, self.holder.spec.b, batch.loose.c
""",
    )
    assert {k for k in got if k[1] == "C"} == {("DI002", "C", "a"), ("DI002", "C", "b")}  # c: loose is object
