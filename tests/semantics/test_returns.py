"""``deadinit.semantics.returns`` and the ``__init__`` facts built on it: what a function returns, calls to
follow, tuple targets, parameters called, nested replacement and removals.

Every summary is built with both adapters (libcst and stdlib ``ast``): the facts must not depend on the parser.
"""

import textwrap

import pytest
from semantic_snippets import PARSE, classifier, function

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, FileSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.returns import ReturnsInference, declared_class, generator_mark, param_call, returns_value

ADAPTERS = ("cst", "ast")


def summary(source: str, adapter: str) -> FileSummary:
    got = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(got, FileSummary), got
    return got


def kinds(values) -> list[str | None]:
    return [v.kind if v is not None else None for v in values]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_direct_local_and_followed_returns(adapter):
    s = summary(
        """
        import torch
        from torch import nn
        def direct(n):
            return torch.zeros(n)
        def local(n):
            buf = torch.empty(n)
            return buf
        def chained(n):
            return direct(n)
        def layers(n, pp=None):
            mods = nn.ModuleList([nn.Linear(2, 2) for _ in range(n)])
            if pp is None:
                return mods
            return mods, 0, n
        def none_only():
            return None
        """,
        adapter,
    )
    assert kinds(s.functions["direct"].values) == ["tensor"]
    assert kinds(s.functions["local"].values) == ["tensor"]
    assert s.functions["chained"].values == (
        AllocInfo("call", callee="direct", args=(("name", "n"),)),
    )  # arguments kept: sizes bind them
    assert kinds(s.functions["layers"].values) == ["container", "tuple"]
    assert kinds(s.functions["layers"].values[1].items) == ["container", None, None]
    assert "none_only" not in s.functions


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_what_is_not_followed(adapter):
    s = summary(
        """
        import functools
        import torch
        _CACHE = {}
        def grow(buf, n):
            if buf.numel() >= n:
                return buf
            return torch.zeros(n)
        @functools.lru_cache
        def cached(n):
            return torch.zeros(n)
        def memo(n):
            if n not in _CACHE:
                _CACHE[n] = torch.zeros(n)
            return _CACHE[n]
        def gen(n):
            yield torch.zeros(n)
        def twice():
            return torch.zeros(1)
        def twice():
            return None
        """,
        adapter,
    )
    assert kinds(s.functions["grow"].values) == [None, "tensor"]  # one path returns the argument
    assert "cached" not in s.functions and "memo" not in s.functions and "gen" not in s.functions
    assert "twice" not in s.functions  # defined twice: which one runs depends on the path


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_return_annotation_speaks_only_for_calls(adapter):
    s = summary(
        """
        import copy
        import torch
        from torch import nn
        def head(t) -> nn.Module:
            return copy.deepcopy(t)
        def head_local(t) -> nn.Module:
            h = copy.deepcopy(t)
            return h
        def view(buf) -> torch.Tensor:
            return buf.view(-1)
        def narrow(buf) -> torch.Tensor:
            return torch.narrow(buf, 0, 0, 1)
        def pair(t) -> "tuple[nn.Module, int]":
            return copy.deepcopy(t), 1
        """,
        adapter,
    )
    assert s.functions["head"].annotated == AllocInfo("module", callee="torch.nn.Module")
    assert s.functions["head_local"].annotated == AllocInfo("module", callee="torch.nn.Module")
    assert "view" not in s.functions and "narrow" not in s.functions


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_init_facts(adapter):
    s = summary(
        """
        from torch import nn
        from helpers import make_layers
        class M(nn.Module):
            def __init__(self, n, norm_layer=nn.LayerNorm, act_layer=None):
                super().__init__()
                self.layers, self.start, *rest = make_layers(n)
                self.norm = norm_layer(n)
                self.act = act_layer(n)
                self.head = self._build_head(n)
                self.block.proj = nn.Linear(2, 2)
                del self.old
                for name in ("a", "b"):
                    delattr(self, name)
                for name in ("c", "d"):
                    if n:
                        break
                    delattr(self, name)
            def _build_head(self, n):
                return nn.Linear(n, n)
        """,
        adapter,
    )
    (cls,) = s.classes
    init = cls.methods["__init__"].init_flow
    by_attr = {(st.kind, st.attr): st for st in init if st.attr}
    layers = by_attr[("assign", "layers")].call
    assert layers == AllocInfo("item", element=AllocInfo("call", callee="make_layers", args=(("name", "n"),)), index=0)
    assert by_attr[("assign", "norm")].alloc == AllocInfo("module", callee="torch.nn.LayerNorm")
    assert by_attr[("assign", "act")].alloc is None and by_attr[("assign", "act")].call is None
    assert by_attr[("assign", "head")].call == AllocInfo("call", callee="self._build_head", args=(("name", "n"),))
    assert ("nested", "block.proj") in by_attr
    deleted = {st.attr: st.in_loop for st in init if st.kind == "delete"}
    assert deleted == {"old": False, "a": False, "b": False}  # the loop that may break removes nothing sure
    assert kinds(cls.methods["_build_head"].returns.values) == ["module"]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_followed_calls_keep_their_arguments_and_functions_their_parameters(adapter):
    s = summary(
        """
        import torch
        def make(rows, width=8, *, dtype=None):
            return torch.zeros(rows, width)
        def spread(*args, **kwargs):
            return make(*args, **kwargs)
        class M:
            def __init__(self, n):
                self.a = make(n, width=4)
            def build(self, k):
                return make(k)
        """,
        adapter,
    )
    call = s.classes[0].methods["__init__"].init_flow[0].call
    assert call == AllocInfo("call", callee="make", args=(("name", "n"),), kwargs=(("width", ("const", 4)),))
    assert [(p.name, p.kind) for p in s.functions["make"].params] == [
        ("rows", "normal"),
        ("width", "normal"),
        ("dtype", "kwonly"),
    ]
    assert s.functions["spread"].values[0].star_args
    assert [p.name for p in s.classes[0].methods["build"].returns.params] == ["k"]  # without self


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_generators_and_coroutines_return_no_allocation(adapter):
    s = summary(
        """
        import torch
        class M:
            def gen(self, n):
                yield n
                return torch.zeros(n)
            async def coro(self, n):
                await n
                return torch.zeros(n)
            def plain(self, n):
                def inner():
                    yield n
                later = lambda: (yield)
                return torch.zeros(n)
        def gen(n):
            return torch.zeros(n) if n else (yield n)
        def plain(n):
            class K:
                def m(self):
                    yield 1
            return torch.zeros(n)
        """,
        adapter,
    )
    methods = s.classes[0].methods
    assert methods["gen"].returns is None and methods["coro"].returns is None
    assert kinds(methods["plain"].returns.values) == ["tensor"]  # the yields are a nested function's, a lambda's
    assert "gen" not in s.functions
    assert kinds(s.functions["plain"].values) == ["tensor"]  # the yield is a nested class's method's


# -- the inference itself, on one function at a time --------------------------------------------


def returns_of(source: str, adapter: str, self_name: str | None = None):
    return ReturnsInference(function(source, adapter), self_name, classifier(), PARSE[adapter]).run()


def test_inference_of_direct_local_and_tuple_returns(adapter):
    got = returns_of(
        "def f(n):\n    if n:\n        return torch.zeros(n)\n    buf = nn.Linear(n, n)\n    return buf\n", adapter
    )
    assert kinds(got.values) == ["tensor", "module"] and got.annotated is None
    got = returns_of("def f(n):\n    a, b = make(n)\n    return nn.Linear(n, n), a\n", adapter)
    assert kinds(got.values) == ["tuple"] and kinds(got.values[0].items) == ["module", "item"]


def test_inference_gives_nothing_for_caches_and_plain_values(adapter):
    assert returns_of("def f(n):\n    _CACHE[n] = torch.zeros(n)\n    return _CACHE[n]\n", adapter) is None
    assert returns_of("def f(n):\n    global X\n    return torch.zeros(n)\n", adapter) is None
    assert returns_of("def f(n):\n    return n + 1\n", adapter) is None
    assert returns_of("def f(n):\n    return\n", adapter) is None
    assert returns_of("def f(n):\n    return None\n", adapter) is None


def test_inference_of_an_annotation_that_speaks_for_calls(adapter):
    got = returns_of("def f(n) -> nn.Module:\n    return build(n)\n", adapter)
    assert got.annotated.kind == "module"
    assert returns_of("def f(n) -> nn.Module:\n    x = n\n    return x\n", adapter) is None  # a parameter's value


def test_param_call(adapter):
    fn = function(
        "def f(norm=nn.LayerNorm, act: type[nn.ReLU] = None, flag=True, k: 'Callable[..., nn.GELU]' = None):\n    pass\n",
        adapter,
    )
    made = [param_call(p, classifier(), PARSE[adapter]) for p in fn.params]
    assert kinds(made) == ["module", "module", None, "module"]


def test_generator_mark(adapter):
    fn = function("def f():\n    yield 1\n", adapter)
    marks = [n for n in fn.body[0].children() if isinstance(n, sx.Other)]
    assert marks and all(generator_mark(n) for n in marks)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_return_of_none_is_no_value_so_a_factory_by_branch_returns_its_layers(adapter):
    s = summary(
        """
        from torch import nn
        def create(kind, dim):
            if kind == "linear":
                return nn.Linear(dim, dim)
            if kind is None:
                return None
            return nn.Identity()
        def maybe(dim, big):
            layer = None
            if big:
                layer = nn.Linear(dim, dim)
            return layer
        def reuse(layer, dim):
            if layer is not None:
                return layer
            return nn.Linear(dim, dim)
        """,
        adapter,
    )
    assert kinds(s.functions["create"].values) == ["module", "module"]
    assert kinds(s.functions["maybe"].values) == ["module"]
    assert kinds(s.functions["reuse"].values) == [None, "module"]  # its argument on one path: not an allocation


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_returned_local_handed_to_a_call_may_be_held_elsewhere(adapter):
    s = summary(
        """
        import torch
        from torch import nn
        def installed(layers, dim) -> Workspace:
            service = Workspace(dim)
            for layer in layers:
                layer.install(service)
            return service
        def initialised(dim):
            layer = nn.Linear(dim, dim)
            torch.nn.utils.weight_norm(layer)
            print(layer)
            return layer
        """,
        adapter,
    )
    assert "installed" not in s.functions  # neither its return nor its annotation is an allocation
    assert kinds(s.functions["initialised"].values) == ["module"]


@pytest.mark.parametrize(
    ("body", "returns"),
    [
        ("return x", True),
        ("if a:\n    return\nreturn None", False),  # no value, or the literal None
        ("for a in b:\n    pass\nelse:\n    return a", True),
        ("while a:\n    if b:\n        return b", True),
        ("try:\n    pass\nexcept E:\n    return 1", True),
        ("try:\n    pass\nfinally:\n    return 1", True),
        ("with c:\n    return c", True),
        ("def inner():\n    return 1\nreturn None", False),  # a nested function's return is its own
        ("x = lambda: 1", False),
    ],
)
def test_returns_value(body, returns, adapter):
    source = "def f(a, b, c):\n" + textwrap.indent(body, "    ") + "\n"
    assert returns_value(function(source, adapter, "f").body) is returns


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_declared_class_is_the_one_class_an_annotation_names_besides_type(adapter: str) -> None:
    f = function(
        "def build(parts: AttnParts, spec: Union[LayerSpec, type], kind: type, both: Union[A, B], *rest: A, bare): pass",
        adapter,
    )
    got = {p.name: declared_class(p, PARSE[adapter]) for p in f.params}
    assert got == {"parts": "AttnParts", "spec": "LayerSpec", "kind": None, "both": None, "rest": None, "bare": None}
