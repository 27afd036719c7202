"""Fix safety levels (deadinit.analysis.fix_safety.fix_level): one test per decision."""

from deadinit.api.check import run_check
from deadinit.model.evidence import EvidenceKind
from deadinit.model.settings import Settings

HEAD = """
import torch
from torch import nn


class Base:
    def forward(self, x):
        raise NotImplementedError
"""


def levels(write_project, src, files=None, **kw):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": HEAD + src, **(files or {})})
    kw.setdefault("select", ("DI001", "DI002"))
    res = run_check([str(root)], Settings(**kw))
    return {(f.code, f.cls.rsplit(".", 1)[-1], f.attribute): f for f in res.findings}


def test_overwritten_attribute_is_safe_whatever_reads_its_name_elsewhere(write_project):
    got = levels(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.ws = torch.empty(1024)
    def forward(self, x):
        return self.ws
class C(P):
    def __init__(self):
        super().__init__()
        self.ws = torch.empty(16)
class Other:
    def __init__(self):
        self.ws = torch.empty(4)
def peek(o: Other):
    return o.ws
""",
    )
    f = got[("DI001", "C", "ws")]
    assert f.fix_safety == "safe" and f.fix_safety_reason == ""


def test_unread_attribute_read_only_on_an_annotated_unrelated_receiver_is_safe(write_project):
    got = levels(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.meta = torch.empty(64)
    def forward(self, x):
        return self.meta
class C(P):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return x
class Metadata:
    def __init__(self):
        self.meta = torch.empty(1)
def use(m: Metadata):
    return m.meta
""",
    )
    assert got[("DI002", "C", "meta")].fix_safety == "safe"


def test_registered_module_of_an_nn_module_is_unsafe_with_evidence(write_project):
    got = levels(
        write_project,
        """
class Tower(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
    def forward(self, x):
        return self.norm(self.proj(x))
class Plain(Tower):
    def __init__(self, dim):
        super().__init__(dim)
    def forward(self, x):
        return self.proj(x)
""",
    )
    f = got[("DI002", "Plain", "norm")]
    assert f.fix_safety == "unsafe"
    assert "registered module `norm`" in f.fix_safety_reason and "checkpoint keys" in f.fix_safety_reason
    assert any(e.kind is EvidenceKind.REGISTERED and "changes the checkpoint keys" in e.text for e in f.evidence)


def test_a_module_named_like_a_heavy_object_is_registered_too(write_project):
    got = levels(
        write_project,
        """
class RotaryCache(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.inv_freq = nn.Parameter(torch.ones(dim))
    def forward(self, x):
        return x * self.inv_freq
class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.rotary = RotaryCache(dim)
    def forward(self, x):
        return self.rotary(x)
class NoPosition(Attention):
    def __init__(self, dim):
        super().__init__(dim)
    def forward(self, x):
        return x
""",
    )
    f = got[("DI002", "NoPosition", "rotary")]
    assert f.kind == "cache" and "registered module `rotary`" in f.fix_safety_reason


def test_overwritten_registered_module_stays_safe(write_project):
    got = levels(
        write_project,
        """
class Tower(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(4)])
    def forward(self, x):
        return self.blocks[0](x)
class Deep(Tower):
    def __init__(self, dim):
        super().__init__(dim)
        self.blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(8)])
""",
    )
    f = got[("DI001", "Deep", "blocks")]
    assert f.fix_safety == "safe" and f.kind == "list of module"
    assert any(e.kind is EvidenceKind.REGISTERED and "do not change" in e.text for e in f.evidence)


def test_parameters_and_buffers_have_their_own_kinds_and_are_unsafe(write_project):
    got = levels(
        write_project,
        """
class Scale(nn.Parameter):
    pass
class Q(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.empty(8, 8))
        self.s = Scale(torch.ones(8))
        self.register_buffer("zero_point", torch.zeros(8, dtype=torch.int32))
        self.table = torch.zeros(256)
    def forward(self, x):
        return x @ self.w * self.s + self.zero_point + self.table
class F(Q):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return x @ self.w
""",
    )
    assert got[("DI002", "F", "s")].kind == "parameter"
    assert got[("DI002", "F", "zero_point")].kind == "buffer"
    assert got[("DI002", "F", "zero_point")].estimated_bytes == 32  # the wrapped tensor's size
    assert all(got[("DI002", "F", a)].fix_safety == "unsafe" for a in ("s", "zero_point"))
    assert got[("DI002", "F", "table")].fix_safety == "safe"  # a plain tensor attribute: no checkpoint key


PUBLIC_READER = """
class P(Base):
    def __init__(self):
        self._table = torch.zeros(64)
        self._scratch = torch.zeros(64)
    def forward(self, x):
        return self._fill(x)
    def _fill(self, x):
        return self._scratch
    def snapshot(self):
        return self._table
class C(P):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return x
"""


def test_an_unused_public_method_of_an_exported_class_makes_the_fix_unsafe(write_project):
    got = levels(write_project, PUBLIC_READER + '__all__ = ["C"]\n')
    assert "its public method P.snapshot reads self._table" in got[("DI002", "C", "_table")].fix_safety_reason
    assert got[("DI002", "C", "_scratch")].fix_safety == "safe"  # read only by a private helper


def test_an_unused_public_method_of_a_class_not_exported_does_not(write_project):
    got = levels(write_project, PUBLIC_READER)
    assert got[("DI002", "C", "_table")].fix_safety == "safe"


def test_an_exported_class_with_a_public_attribute_is_unsafe(write_project):
    src = """
class P(Base):
    def __init__(self):
        self.cache = torch.zeros(64)
        self._own = torch.zeros(64)
    def forward(self, x):
        return self.cache, self._own
class C(P):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return x
"""
    got = levels(write_project, src, {"pkg/__init__.py": "from pkg.m import C\n"})
    assert "exported (re-exported by" in got[("DI002", "C", "cache")].fix_safety_reason
    assert got[("DI002", "C", "_own")].fix_safety == "safe"
    got = levels(write_project, src + '\n__all__ = ["C"]\n')
    assert "exported (pkg.m.__all__)" in got[("DI002", "C", "cache")].fix_safety_reason


def test_a_receiver_typed_by_an_external_ancestor_may_hold_the_class(write_project):
    got = levels(
        write_project,
        """
class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = torch.zeros(64)
    def forward(self, x):
        return self.cache
class Plain(Tower):
    def forward(self, x):
        return x
def peek(m: nn.Module):
    return m.cache
""",
    )
    assert ("DI002", "Plain", "cache") not in got


def test_unsure_findings_are_unsafe(write_project):
    got = levels(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.k_buf = torch.zeros(64)
    def forward(self, x):
        return self.k_buf
class C(P):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return getattr(self, x)
""",
        show_unsure=True,
    )
    f = got[("DI002", "C", "k_buf")]
    assert f.fix_safety == "unsafe" and f.fix_safety_reason.startswith("the analysis is unsure: ")
