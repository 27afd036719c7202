"""Constructor-argument sensitivity, reachability and per-binding liveness."""

from deadinit.analysis.flow.chain import init_chain
from deadinit.api.check import run_check
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings

BASE = """
import torch
class Base:
    def forward(self, x):
        raise NotImplementedError
"""


def findings(write_project, src, **kw):
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": BASE + src})
    kw.setdefault("select", ("DI001", "DI002"))
    res = run_check([str(root)], Settings(**kw))
    return sorted((f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in res.findings), res


def test_literal_flag_disables_parent_branch(write_project):
    got, _ = findings(
        write_project,
        """
class P(Base):
    def __init__(self, skip_prefill=False, buf=None):
        if not skip_prefill:
            self.prefill = PrefillWrapper()
        if buf is None:
            self.buf = torch.zeros(8)
        else:
            self.buf = buf
        self.decode = DecodeWrapper()
    def forward(self, x):
        return self.prefill, self.decode, self.buf
class C(P):
    def __init__(self):
        super().__init__(skip_prefill=True, buf=torch.ones(2))
    def forward(self, x):
        return self.buf
""",
    )
    assert got == [("DI002", "C", "decode")]


def test_private_helper_only_called_by_overridden_method_is_dead(write_project):
    got, _ = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.w = DecodeWrapper()
    def forward(self, x):
        return self._plan(x)
    def _plan(self, x):
        return self.w
class C(P):
    def forward(self, x):
        return x
""",
    )
    assert got == [("DI002", "C", "w")]


def test_super_property_and_external_reads_keep_alive(write_project):
    got, _ = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.a = DecodeWrapper()
        self.b = DecodeWrapper()
        self.c = DecodeWrapper()
    def forward(self, x):
        return self.a
    @property
    def bee(self):
        return self.b
class C(P):
    def forward(self, x):
        return super().forward(x)
def use(backend: P):
    return backend.c
""",
    )
    assert got == []


def test_exact_constructor_receiver_does_not_count(write_project):
    got, _ = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.w = DecodeWrapper()
    def forward(self, x):
        return self.w
class C(P):
    def forward(self, x):
        return x
class Holder:
    def __init__(self):
        self.p = P()
    def run(self):
        return self.p.w
""",
    )
    assert got == [("DI002", "C", "w")]


def test_dynamic_getattr_is_unsure_and_quiet_by_default(write_project):
    src = """
class P(Base):
    def __init__(self):
        self.w = DecodeWrapper()
class C(P):
    def forward(self, name):
        return getattr(self, name)
"""
    got, res = findings(write_project, src)
    assert got == [] and len(res.unsure) == 1
    got, _ = findings(write_project, src, show_unsure=True)
    assert got == [("DI002", "C", "w")]


def test_child_without_super_init_gets_nothing(write_project):
    got, _ = findings(
        write_project,
        """
class P(Base):
    def __init__(self):
        self.w = DecodeWrapper()
class C(P):
    def __init__(self):
        self.v = 1
    def forward(self, x):
        return x
""",
    )
    assert got == []


def test_nn_module_subclass_rebuilt_is_an_allocation(write_project):
    got, _ = findings(
        write_project,
        """
class Layer(torch.nn.Module):
    pass
class Model(Base):
    def __init__(self):
        self.layers = torch.nn.ModuleList([Layer() for _ in range(4)])
    def forward(self, x):
        return self.layers
class Child(Model):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([Layer() for _ in range(4)])
""",
    )
    assert got == [("DI001", "Child", "layers")]


def test_size_is_constant_folded(write_project):
    _, res = findings(
        write_project,
        """
WS_MB = 64
class P(Base):
    def __init__(self):
        self.ws = torch.empty(WS_MB * 1024 * 1024, dtype=torch.uint8)
class C(P):
    def __init__(self):
        super().__init__()
        self.ws = torch.empty(8, dtype=torch.int32)
    def forward(self, x):
        return self.ws
""",
    )
    assert [f.estimated_bytes for f in res.findings] == [64 << 20]


def test_helpers_the_parent_init_calls_run_where_they_are_called(write_project):
    """An override of the helper that extends the parent's, and a re-assignment after ``super().__init__``."""
    src = """
class P(Base):
    def __init__(self, n, wide=False):
        self._init_layers(n, wide)
        self.tail = torch.zeros(n)
    def _init_layers(self, n, wide):
        self.a = torch.zeros(n)
        if wide:
            self.b = torch.zeros(n)
        self.c = torch.zeros(n)
    def forward(self, x):
        return self.a, self.b, self.c, self.tail
class Over(P):
    def _init_layers(self, n, wide):
        super()._init_layers(n, wide)
        self.a = torch.ones(n)
class Narrow(P):
    def __init__(self, n):
        super().__init__(n, wide=True)
        self.b = torch.ones(n)
class Reads(P):
    def _init_layers(self, n, wide):
        super()._init_layers(n, wide)
        self.c = self.c + 1
"""
    got, res = findings(write_project, src)
    assert got == [("DI001", "Narrow", "b"), ("DI001", "Over", "a")]
    (narrow,) = [f for f in res.findings if f.cls.endswith("Narrow")]
    assert "allocated by P._init_layers is overwritten by Narrow.__init__" in narrow.message
    assert not narrow.message.endswith(")")  # ``wide=True`` decides the guard: no condition left


def test_a_helper_that_calls_itself_is_walked_once_and_its_statements_say_where_they_are():
    src = """
class P:
    def __init__(self, n):
        self._grow(n)
    def _grow(self, n):
        self.a = torch.zeros(n)
        if n > 1:
            self._grow(n - 1)
class C(P):
    def __init__(self, n):
        super().__init__(n)
        self.a = torch.ones(n)
"""
    s = summarize_source(src.encode(), "m.py", "m", False, Settings())
    chain = init_chain(ProjectIndex([s]), "m.C")
    assert [(c.owner, c.method, c.stmt.kind) for c in chain.stmts] == [
        ("m.C", "__init__", "super_init"),
        ("m.P", "__init__", "effect"),
        ("m.P", "_grow", "assign"),
        ("m.P", "_grow", "effect"),  # the test ``n > 1``
        ("m.P", "_grow", "effect"),  # the second call of _grow: not walked again
        ("m.C", "__init__", "assign"),
    ]
    assert chain.inits == ["m.C", "m.P"] and chain.reruns == []


def test_a_replacement_under_a_guard_nothing_decides_is_reported_only_when_it_holds(write_project):
    src = """
class P(Base):
    def __init__(self, n):
        self.a = torch.zeros(n)
        self.b = torch.zeros(n)
    def forward(self, x):
        return self.a, self.b
class C(P):
    def __init__(self, n, wide=False, grow=True):
        super().__init__(n)
        self.grow = grow
        if wide:
            self.a = torch.ones(2 * n)
        if self.grow:
            self.b = self.b.repeat(2)
class Keeps(C):
    def __init__(self, n):
        super().__init__(n)
class Widens(C):
    def __init__(self, n):
        super().__init__(n, wide=True)
class InLoop(P):
    def __init__(self, n):
        super().__init__(n)
        for _ in range(n):
            if n:
                self.a = torch.ones(n)
"""
    got, res = findings(write_project, src)
    assert got == [("DI001", "C", "a"), ("DI001", "Widens", "a")]
    by = {f.cls.rsplit(".", 1)[-1]: f for f in res.findings}
    assert by["C"].message.endswith("(only when wide)") and by["C"].extra["conditional"]
    assert by["C"].fix_safety == "none" and "replaced only when wide" in by["C"].fix_safety_reason
    assert not by["Widens"].message.endswith(")") and not by["Widens"].extra["conditional"]
