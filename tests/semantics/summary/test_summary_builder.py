"""``deadinit.semantics.summary.builder``: one walk over a module, its ``FileSummary``."""

from semantic_snippets import PARSE, module
from summary_snippets import cls, method, summarize

from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary, Param
from deadinit.semantics.summary.builder import SummaryBuilder

SOURCE = """
import torch
from torch import nn

SIZE = 4
__all__ = ["Kid"]

def make(n) -> torch.Tensor:
    return torch.zeros(n)

def twice():
    return 1

def twice():
    return 2

@register
class Base(nn.Module, metaclass=Meta):
    scale = 2

    def __init__(self, n, *, device=None):
        super().__init__()
        self.buf = torch.zeros(n)

    def forward(self, x):
        return self.buf + x

    @staticmethod
    def helper(a):
        return a

    def load(self):
        raise NotImplementedError

    class Inner:
        pass

class Kid(Base):
    def __init__(self, n):
        super().__init__(n)
        self.buf = None

    def gen(self):
        yield self.buf
"""


def line(fragment: str) -> int:
    """The line of ``SOURCE`` that holds ``fragment`` (the first one)."""
    return next(i for i, text in enumerate(SOURCE.splitlines(), 1) if fragment in text)


def test_classes_with_their_bases_and_header(adapter):
    s = summarize(SOURCE, adapter)
    assert [c.qualname for c in s.classes] == ["pkg.m.Base", "pkg.m.Base.Inner", "pkg.m.Kid"]
    base = cls(s, "Base")
    assert (base.bases, base.base_text, base.keywords, base.decorators) == (
        ["nn.Module"],
        ["nn.Module"],
        ["metaclass=Meta"],
        ("register",),
    )
    assert base.class_attrs == {"scale": line("scale = 2")} and base.class_values == {"scale": ("const", 2)}
    assert base.init_lines == (line("def __init__(self, n, *"), line("self.buf = torch.zeros(n)"))


def test_methods(adapter):
    s = summarize(SOURCE, adapter)
    init = method(s, "Base", "__init__")
    assert [(p.name, p.kind) for p in init.params] == [("n", "normal"), ("device", "kwonly")]
    assert [st.kind for st in init.init_flow] == ["super_init", "assign"]
    assert init.param_flow == (("n", "call", 0, line("self.buf = torch.zeros(n)"), "torch.zeros"),)
    assert init.writes == [("buf", line("self.buf = torch.zeros(n)"), 8)]
    assert method(s, "Base", "forward").reads == [("buf", line("return self.buf + x"), 15)]
    helper = method(s, "Base", "helper")
    assert helper.self_name is None and helper.params == [Param("a", None)]
    assert method(s, "Base", "load").is_stub
    assert method(s, "Kid", "gen").returns is None  # a generator returns no allocation


def test_module_facts(adapter):
    s = summarize(SOURCE, adapter)
    assert s.constants["SIZE"] == ("const", 4) and s.exports == ("Kid",)
    assert set(s.functions) == {"make"}  # ``twice`` is defined twice: which one runs depends on the path
    assert s.return_types["make"][0].dotted == "torch.Tensor"
    assert [i.local for i in s.imports] == ["torch", "nn"]


def test_private_names_are_mangled_once_built(adapter):
    s = summarize(
        "class K:\n    def __init__(self):\n        self.__x = 1\n    def __h(self):\n        return self.__x\n",
        adapter,
    )
    k = cls(s, "K")
    assert set(k.methods) == {"__init__", "_K__h"}
    assert k.methods["_K__h"].reads == [("_K__x", 5, 15)]


def test_build_fills_the_summary_it_is_given(adapter):
    summary = FileSummary("pkg/m.py", "pkg.m", False)
    got = SummaryBuilder(summary, Settings(), PARSE[adapter]).build(module("class K:\n    pass\n", adapter))
    assert got is summary and [c.qualname for c in summary.classes] == ["pkg.m.K"]


HELPERS = """
class P:
    def __init__(self, n):
        self._init_layers(n)
        self.check()

    def _init_layers(self, n):
        self.a = torch.zeros(n)
        self._init_more()

    def _init_more(self):
        self.b = torch.zeros(1)

    def check(self):
        return self.a

    def forward(self, x):
        return self.a

    @staticmethod
    def static_helper():
        return 1


class C(P):
    def _init_layers(self, n):
        super()._init_layers(n)
        self.a = torch.ones(n)

    def forward(self, x):
        return super().forward(x)


class O(P):
    def _init_more(self):
        self.b = torch.ones(2)

    def forward(self, x):
        return self.b
"""


def test_helpers_construction_runs_are_flattened(adapter):
    """Those an ``__init__`` calls as ``self.m(...)``, transitively, and every method that writes to self
    (an override a parent's ``__init__`` may call, with or without ``super()``); no other method."""
    s = summarize(HELPERS, adapter)
    flowed = {(c.name, n) for c in s.classes for n, m in c.methods.items() if m.init_flow is not None}
    assert flowed == {
        ("P", "__init__"),
        ("P", "_init_layers"),
        ("P", "_init_more"),
        ("P", "check"),
        ("C", "_init_layers"),
        ("O", "_init_more"),
    }
    assert [(st.kind, st.attr) for st in method(s, "P", "_init_layers").init_flow] == [
        ("assign", "a"),
        ("effect", None),
    ]
    assert [(st.kind, st.method) for st in method(s, "C", "_init_layers").init_flow] == [
        ("super_call", "_init_layers"),
        ("assign", None),
    ]
