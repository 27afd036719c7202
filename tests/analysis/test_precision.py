"""What runs: ``super(X, self)`` at any MRO position, explicit ``Base.__init__``, calls that cannot bind,
subscripted bases, reads by name, removals, and guards the subclass decides."""

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

HEAD = """
import torch
from torch import nn
from typing import Generic, TypeVar
T = TypeVar("T")
class Base:
    def forward(self, x):
        raise NotImplementedError
"""


def found(write_project, src, codes=("DI001", "DI002", "DI004"), **kw):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": HEAD + src})
    res = run_check([str(root)], Settings(select=codes, **kw))
    return sorted((f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in res.findings), res


GRANDPARENT = """
class GP(Base):
    def __init__(self):
        self.g = torch.zeros(4)
    def forward(self, x):
        return self.g
class P(GP):
    def __init__(self, n):
        super().__init__()
        self.proj = nn.Linear(n, n)
"""


def test_super_of_the_parent_skips_the_parents_init(write_project):
    got, _ = found(
        write_project,
        GRANDPARENT
        + """
class C(P):
    def __init__(self, n):
        super(P, self).__init__()   # P.__init__ does not run: nothing of P's is allocated
        self.proj = nn.Linear(n, 2 * n)
""",
    )
    assert got == []


def test_super_of_the_class_itself_is_plain_super(write_project):
    got, _ = found(
        write_project,
        GRANDPARENT
        + """
class C(P):
    def __init__(self, n):
        super(C, self).__init__(n)
        self.proj = nn.Linear(n, 2 * n)
""",
    )
    assert got == [("DI001", "C", "proj")]


def test_super_of_the_grandparent_skips_both(write_project):
    got, res = found(
        write_project,
        GRANDPARENT
        + """
class C(P):
    def __init__(self, n):
        super(GP, self).__init__()
        self.proj = nn.Linear(n, 2 * n)
        self.g = torch.ones(1)
""",
    )
    assert got == []
    assert res.analyzer.analyse("pkg.m.C") is None  # nothing of an ancestor runs


def test_explicit_base_init_in_multiple_inheritance_runs_that_base(write_project):
    got, _ = found(
        write_project,
        """
class A(Base):
    def __init__(self):
        self.a = torch.zeros(8)
class B(Base):
    def __init__(self):
        self.b = torch.zeros(8)
class C(A, B):
    def __init__(self):
        B.__init__(self)             # A.__init__ never runs
        self.a = torch.ones(2)
    def forward(self, x):
        return self.a
""",
    )
    assert got == [("DI002", "C", "b")]


def test_a_call_that_cannot_bind_stops_the_chain_and_is_reported_once(write_project):
    got, _ = found(
        write_project,
        """
class P(Base):
    def __init__(self, n, device=None):
        self.ws = torch.empty(n)
class C(P):
    def __init__(self, n):
        super().__init__(n, "cuda", 8)
        self.ws = torch.zeros(1)
class D(C):
    pass
""",
    )
    assert got == [("DI004", "C", "__init__")]


def test_keyword_binding_problems(write_project):
    got, _ = found(
        write_project,
        """
class P(Base):
    def __init__(self, n, *, device):
        self.ws = torch.empty(n)
class C(P):
    def __init__(self, n):
        super().__init__(n, device=1, dtype=2)
class E(P):
    def __init__(self, n):
        super().__init__(n)
class F(P):
    def __init__(self, n, **kw):
        super().__init__(n, **kw)    # forwarded: not judged
""",
    )
    assert got == [("DI002", "F", "ws"), ("DI004", "C", "__init__"), ("DI004", "E", "__init__")]


def test_a_subscripted_base_is_that_base_and_generic_is_not_unsure(write_project):
    got, res = found(
        write_project,
        """
class Builder(Generic[T]):
    def __init__(self, n):
        self.kv_indices = torch.empty(n, dtype=torch.int32)
        self.qo_indptr = torch.empty(n + 1, dtype=torch.int32)
    def build(self, meta: T):
        return self.kv_indices, self.qo_indptr
class CpuBuilder(Builder[int]):
    def build(self, meta: int):
        return meta
""",
    )
    assert got == [("DI002", "CpuBuilder", "kv_indices"), ("DI002", "CpuBuilder", "qo_indptr")]
    assert not res.unsure


def test_a_computed_name_makes_unsure_only_what_it_could_name(write_project):
    got, res = found(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.k_buf = torch.empty(8)
        self.v_buf = torch.empty(8)
        self.scale = torch.ones(1)
        self.table = torch.zeros(4)
    def forward(self, x):
        return 0
class Other:
    pass
class C(P):
    _exported = ("table",)
    def dump(self, which):
        return getattr(self, f"{which}_buf")
    def export(self):
        for name in self._exported:
            getattr(self, name)
        return getattr(Other(), "scale")        # another object's, of an unrelated class (other.scale reads it)
    def forward(self, x):
        return self.dump("k"), self.export()
""",
    )
    assert got == [("DI002", "C", "scale")]
    assert sorted(f.attribute for f in res.unsure) == ["k_buf", "table", "v_buf"]
    why = {f.attribute: f.unsure for f in res.unsure}
    assert "ending with '_buf'" in why["k_buf"][0] and "self._exported" in why["table"][0]


def test_reads_through_dict_and_modules_storage(write_project):
    got, _ = found(
        write_project,
        """
class P(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)
        self.table = torch.zeros(4)
class C(P):
    def __init__(self):
        super().__init__()
        old = self._modules.pop("head")
        self.head = old
        self.norm = vars(self)["norm"]
    def forward(self, x):
        return self.head(x), self.norm(x), self.__dict__.get("table")
""",
        codes=("DI001",),
    )
    assert got == []


def test_del_is_not_a_read(write_project):
    got, _ = found(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.cache = torch.zeros(1024)
    def forward(self, x):
        return x
class C(P):
    def __init__(self):
        super().__init__()
        del self.cache
""",
    )
    assert got == [("DI001", "C", "cache")]  # removed before any read: a DI001 with "deleted" evidence


def test_guards_the_subclass_decides(write_project):
    got, _ = found(
        write_project,
        """
class P(Base):
    use_shared = True
    def __init__(self, config, head_dim):
        if self.use_shared:
            self.shared = nn.Linear(4, 4)
        if config.n_shared_experts is not None:
            self.experts = nn.Linear(8, 8)
        if head_dim == 512:
            self.big = torch.empty(512 * 1024)
        if config.maybe:
            self.opt_buf = torch.empty(16)
    def forward(self, x):
        return x
class C(P):
    use_shared = False
    def __init__(self, config, head_dim):
        config.n_shared_experts = None
        assert head_dim == 128
        super().__init__(config, head_dim)
""",
    )
    assert got == [("DI002", "C", "opt_buf")]


def test_a_class_value_never_rules_an_allocation_in(write_project):
    got, _ = found(
        write_project,
        """
class P(Base):
    use_shared = False
    def __init__(self):
        if self.use_shared:
            self.shared = nn.Linear(4, 4)
    def forward(self, x):
        return x
class C(P):
    use_shared = True
""",
    )
    assert [f for f in got if f[2] == "shared"] == [("DI002", "C", "shared")]


def test_names_from_a_literal_tuple_in_a_comprehension(write_project):
    got, res = found(
        write_project,
        """
class P:
    def __init__(self):
        self.rope_cache = torch.empty(8)
        self.logit_buf = torch.empty(8)
    def caches(self):
        return [getattr(self, name) for name in ("rope_cache",)]
    def forward(self, x):
        return x
class C(P):
    pass
""",
    )
    assert got == [("DI002", "C", "logit_buf")]
    assert [(f.attribute, f.unsure) for f in res.unsure] == [
        ("rope_cache", ["P.caches uses getattr(self, <computed>) with one of rope_cache (line 15)"])
    ]


def test_a_store_into_storage_with_a_computed_name_only_writes(write_project):
    got, res = found(
        write_project,
        """
class Registry(Base):
    def __setattr__(self, name, value):
        self.__dict__[name] = value
class P(Registry):
    def __init__(self):
        self.ws = torch.empty(8)
class C(P):
    def __init__(self):
        super().__init__()
        self.ws = torch.zeros(4)
    def forward(self, x):
        return self.ws
""",
    )
    assert got == [("DI001", "C", "ws")]
    assert not res.unsure


def test_every_root_of_a_multiple_inheritance_declares_entry_points(write_project):
    got, _ = found(
        write_project,
        """
class Builder(Generic[T]):
    def __init__(self, n):
        self.kv_indices = torch.empty(n)
    def build(self, meta):
        return self.kv_indices
class PinMixin:
    def pin(self, t):
        return t
class PinnedBuilder(Builder[int], PinMixin):   # build is public on Builder, a root as much as PinMixin
    pass
""",
    )
    assert got == []
