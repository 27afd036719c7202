"""``deadinit.semantics.alloc``: what counts as an allocation, and what it is made of."""

from dataclasses import replace

import pytest
from semantic_snippets import PARSE, classifier, expr

from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo
from deadinit.semantics.alloc import (
    AllocClassifier,
    LocalCallee,
    call_arguments,
    call_arguments_of,
    heavy_kind,
    inline_locals,
    shape_and_dtype,
)


def classify(source: str, adapter: str, locals_: dict | None = None) -> AllocInfo | None:
    return classifier().classify(expr(source, adapter), (locals_ or {}).get, "self")


def test_tensor_factories_with_shape_and_dtype(adapter):
    got = classify("torch.empty(n, 4, dtype=torch.uint8)", adapter)
    assert (got.kind, got.callee, got.shape, got.dtype) == (
        "tensor",
        "torch.empty",
        (("name", "n"), ("const", 4)),
        "uint8",
    )
    got = classify("zeros((self.h, 2))", adapter)  # through the import of the name
    assert (got.kind, got.callee, got.shape) == ("tensor", "torch.zeros", (("self", "h"), ("const", 2)))
    assert classify("torch.empty_like(x)", adapter).kind == "tensor"
    assert classify("torch.cat(xs)", adapter) is None


def test_modules_containers_and_registered_state(adapter):
    got = classify("nn.Linear(h, 2 * h, bias=False)", adapter)
    assert (got.kind, got.callee, got.args, got.kwargs[0][0]) == (
        "module",
        "torch.nn.Linear",
        (("name", "h"), ("bin", "*", ("const", 2), ("name", "h"))),
        "bias",
    )
    got = classify("nn.ModuleList([nn.Linear(h, h) for _ in range(n)])", adapter)
    assert (got.kind, got.element.kind, got.count) == ("container", "module", ("name", "n"))
    got = classify("nn.Parameter(torch.zeros(n))", adapter)
    assert (got.kind, got.element.kind) == ("parameter", "tensor")
    assert classify("nn.Buffer(torch.zeros(n))", adapter).kind == "buffer"


def test_containers_of_allocations(adapter):
    got = classify("[torch.zeros(1), torch.ones(2)]", adapter)
    assert (got.kind, got.element.kind, got.count) == ("container", "tensor", ("const", 2))
    got = classify("{k: torch.zeros(1) for k in ks}", adapter)
    assert (got.kind, got.count) == ("container", None)
    assert classify("{'a': torch.zeros(1)}", adapter).kind == "container"
    assert classify("[1, 2]", adapter) is None
    assert classify("[x for x in y]", adapter) is None


def test_chains_conditionals_locals_and_heavy_classes(adapter):
    assert classify("torch.empty(4).to(device).contiguous()", adapter).kind == "tensor"
    assert classify("torch.zeros(1) if c else None", adapter).kind == "tensor"
    held = AllocInfo("tensor", callee="torch.zeros")
    assert classify("buf", adapter, {"buf": held}) is held
    assert classify("DecodeWrapper(n)", adapter).kind == "wrapper"
    assert classify("StateUpdater()", adapter).kind == "updater"
    assert classify("Block(n)", adapter).kind == "maybe-class"  # the index decides
    assert classify("make(n)", adapter) is None


def test_a_parameter_whose_default_builds_something(adapter):
    made = AllocInfo("module", callee="torch.nn.LayerNorm")
    got = classifier().classify(
        expr("norm(dim)", adapter), {}.get, "self", lambda name: LocalCallee(name == "norm", made)
    )
    assert got is made


def test_buffer_helpers(adapter):
    got = classify("get_buffer('k', lambda: torch.zeros(n))", adapter)
    assert (got.kind, got.element.kind) == ("cached-buffer", "tensor")
    assert classify("get_buffer('k')", adapter).element is None


def test_registration(adapter):
    c = classifier()
    names, alloc, *_ = c.registration(expr("self.register_buffer('mask', torch.ones(n))", adapter), "self", {}.get)
    assert (names, alloc.kind, alloc.element.kind) == (("mask",), "buffer", "tensor")
    names, alloc, *_ = c.registration(
        expr("self.register_parameter(name='w', param=nn.Parameter(x))", adapter), "self", {}.get
    )
    assert (names, alloc.kind) == (("w",), "parameter")
    names, alloc, *_ = c.registration(expr("self.register_buffer('m', None)", adapter), "self", {}.get)
    assert (names, alloc) == (("m",), None)
    got = c.registration(
        expr("self.add_module(f'norm{i}', nn.LayerNorm(n))", adapter), "self", {}.get, loop_values={"i": (0, 1)}.get
    )
    assert (got.names, got.alloc.kind, got.loop_var) == (("norm0", "norm1"), "module", "i")
    got = c.registration(expr("self.add_module(f'layer{i}_a', nn.LayerNorm(n))", adapter), "self", {}.get)
    assert (got.names, got.loop_var, got.affix) == ((), "i", ("layer", "_a"))  # a range the chain may decide
    assert c.registration(expr("other.register_buffer('m', x)", adapter), "self", {}.get) is None
    assert c.registration(expr("self.register_buffer(key, x)", adapter), "self", {}.get) is None


@pytest.mark.parametrize(
    ("source", "callee"),
    [("make(n)", "make"), ("pkg.make(n)", "pkg.make"), ("self.build(n)", "self.build"), ("make(n).to(d)", "make")],
)
def test_followed_calls(source, callee, adapter):
    got = classifier().followed_call(expr(source, adapter), "self", None)
    assert (got.kind, got.callee) == ("call", callee)


@pytest.mark.parametrize("source", ["Block(n)", "torch.cat(x)", "self.a.b(n)", "x"])
def test_calls_not_followed(source, adapter):
    assert classifier().followed_call(expr(source, adapter), "self", None) is None


def test_a_local_callable_is_not_followed(adapter):
    assert classifier().followed_call(expr("fn(n)", adapter), "self", lambda name: LocalCallee(True)) is None


def test_annotated_returns(adapter):
    c, parse = classifier(), PARSE[adapter]
    assert c.annotated(expr("torch.Tensor", adapter), parse).kind == "tensor"
    assert c.annotated(expr("nn.Linear", adapter), parse).kind == "module"
    got = c.annotated(expr("Tuple[nn.Module, int]", adapter), parse)
    assert (got.kind, [i.kind if i else None for i in got.items]) == ("tuple", ["module", None])
    assert c.annotated(expr("'torch.Tensor'", adapter), parse).kind == "tensor"
    assert c.annotated(expr("torch.Size", adapter), parse) is None
    assert c.annotated(expr("int", adapter), parse) is None


def test_heavy_kind():
    settings = Settings()
    assert heavy_kind("pkg.DecodeWrapper", settings) == "wrapper"
    assert heavy_kind("wrapper", settings) is None
    assert heavy_kind("Block", settings) is None


def test_inline_locals_replaces_names_in_sizes():
    alloc = AllocInfo("container", element=AllocInfo("tensor", shape=(("name", "n"),)), count=("name", "k"))
    got = inline_locals(alloc, {"n": ("const", 8), "k": ("const", 2)}.get)
    assert (got.count, got.element.shape) == (("const", 2), (("const", 8),))


def test_call_arguments_and_shape(adapter):
    call = expr("Block(a, b, *rest, c, key=d, **extra)", adapter)
    assert call_arguments(call, "self") == {"args": (("name", "a"), ("name", "b")), "kwargs": (("key", ("name", "d")),)}
    assert shape_and_dtype(expr("torch.zeros(size=(2, n))", adapter), "self") == ((("const", 2), ("name", "n")), "")
    assert shape_and_dtype(expr("torch.zeros([2, *dims], dtype=dt)", adapter), "self") == (
        (("const", 2), ("name", "dims")),
        "dt",
    )


def test_joins_keep_their_parts_and_copies_of_held_attributes_are_new_tensors(adapter):
    held = {"buf": AllocInfo("tensor", "torch.zeros", shape=(("name", "n"),)), "self.a": AllocInfo("tensor")}
    got = classify("torch.cat([buf, torch.ones(n)])", adapter, held)
    assert (got.kind, [i.callee for i in got.items]) == ("tensor", ["torch.zeros", "torch.ones"])
    assert classify("torch.stack([self.a, x])", adapter, held).items == ()  # a new tensor, of unknown size
    stacked = classify("torch.stack([torch.zeros(n) for _ in range(k)])", adapter)
    assert stacked.items[0].kind == "container" and stacked.items[0].count == ("name", "k")
    assert classify("self.a.clone()", adapter, held) == held["self.a"]
    assert classify("self.a.to(device)", adapter, held) is None  # may be ``self.a`` itself
    assert classify("self.b.clone()", adapter, held) is None and classify("torch.cat([self.b, x])", adapter) is None


def test_call_arguments_of_a_header_argument_list(adapter):
    given = expr("f(self.h, n + 1, *rest, late, k=self.k, **extra)", adapter).args
    assert call_arguments_of(given, "self") == {
        "args": (("self", "h"), ("bin", "+", ("name", "n"), ("const", 1))),  # from *rest on, positions are unknown
        "kwargs": (("k", ("self", "k")),),  # **extra names no keyword
    }
    assert call_arguments_of((), "self") == {"args": (), "kwargs": ()}


def test_the_classifier_follows_its_settings_and_local_calls(adapter):
    made = AllocInfo("module", "Norm")
    plain = AllocClassifier(Settings(), lambda name: name)
    assert plain.classify(expr("mx.zeros(n)", adapter), {}.get) is None
    mx = AllocClassifier(replace(Settings(), tensor_modules=("mx",)), lambda name: name)
    assert mx.classify(expr("mx.zeros(n)", adapter), {}.get).shape == (("name", "n"),)
    local = {"norm": LocalCallee(True, made)}.get
    assert plain.classify(expr("norm(d)", adapter), {}.get, "self", lambda n: local(n, LocalCallee(False))) is made
    assert plain.classify(expr("other(d)", adapter), {}.get, "self", lambda n: local(n, LocalCallee(False))) is None
