"""``deadinit.semantics.class_typed``: what calling a value declared to hold a class builds, and the facts the
summary records of it (class-level field declarations, calls of a parameter's fields, configuring uses)."""

import textwrap

import pytest
from semantic_snippets import PARSE, classifier, expr

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, FileSummary
from deadinit.semantics.alloc import LocalCallee
from deadinit.semantics.class_typed import annotation_builds, called_builds

ADAPTERS = ("cst", "ast")


def builds(annotation: str, adapter: str, callables: bool = False):
    return annotation_builds(expr(annotation, adapter), classifier(), PARSE[adapter], callables)


def summary(source: str, adapter: str) -> FileSummary:
    got = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(got, FileSummary), got
    return got


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_class_typed_annotations(adapter):
    got = builds("type[nn.Linear]", adapter)
    assert (got.kind, got.callee) == ("module", "torch.nn.Linear")
    assert builds("Type[RowLinear]", adapter).kind == "maybe-class"  # the analysis settles a project class
    assert builds("Optional[type[nn.Linear]]", adapter).callee == "torch.nn.Linear"
    assert builds("type[nn.Linear] | None", adapter).callee == "torch.nn.Linear"
    assert builds("'type[nn.Linear]'", adapter).callee == "torch.nn.Linear"
    unknown = builds("Union[LayerSpec, type]", adapter)  # a spec member adds nothing; ``type``: an unknown module
    assert (unknown.kind, unknown.callee) == ("module", "")
    assert builds("type", adapter).kind == "module"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_what_builds_nothing(adapter):
    assert builds("type[dict]", adapter) is None  # a builtin class: no allocation
    assert builds("LayerSpec", adapter) is None  # calling a spec instance is no construction
    assert builds("float", adapter) is None
    assert builds("Union[type, Callable]", adapter) is None  # may be a plain function
    assert builds("Callable[..., nn.Module]", adapter) is None  # a field's callable: a function
    assert builds("Callable[..., nn.Module]", adapter, callables=True).kind == "module"  # a parameter's factory


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_fields_and_their_calls_in_a_summary(adapter):
    s = summary(
        """
        from dataclasses import dataclass
        from typing import Callable, Union
        from torch import nn

        @dataclass
        class Parts:
            proj: type[nn.Linear] = nn.Linear
            mixer: Union[LayerSpec, type] = None
            act: Callable[[int], int] = abs
            width: int = 4

        def build(spec: Union[LayerSpec, type], *args):
            made = spec.cls
            return made(*args)

        class Block(nn.Module):
            def __init__(self, parts: Parts, n: int, fn):
                super().__init__()
                self.proj = parts.proj(n, n)
                if isinstance(self.proj, nn.Linear):
                    self.proj.fused = True
                self.other = fn.proj(n)
                self.size = self.proj.weight.shape
        """,
        adapter,
    )
    parts = next(c for c in s.classes if c.name == "Parts")
    assert sorted(parts.field_builds) == ["mixer", "proj"]
    (value,) = s.functions["build"].values
    assert (value.kind, value.callee, value.member) == ("field", "LayerSpec", "cls")
    block = next(c for c in s.classes if c.name == "Block")
    flow = block.methods["__init__"].init_flow
    proj = next(st for st in flow if st.attr == "proj")
    assert (proj.call.kind, proj.call.callee, proj.call.member) == ("field", "Parts", "proj")
    assert proj.call.args == (("name", "n"), ("name", "n"))
    assert next(st for st in flow if st.attr == "other").call is None  # ``fn`` is not annotated
    check = next(st for st in flow if st.kind == "effect" and st.reads == ("proj",))
    assert check.configures == ("proj",)
    flag = next(st for st in flow if st.kind == "nested")
    assert (flag.attr, flag.configures) == ("proj.fused", ("proj",))
    assert next(st for st in flow if st.attr == "size").configures == ()  # a real read


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_methods_of_builtins_and_tensors_are_no_fields(adapter):
    s = summary(
        """
        import torch
        class Block:
            def __init__(self, x: torch.Tensor, name: str, cfg: Config):
                self.copy = x.clone()
                self.text = name.upper()
                self.made = cfg.make(4)
        """,
        adapter,
    )
    flow = {st.attr: st for st in s.classes[0].methods["__init__"].init_flow if st.attr}
    assert flow["copy"].call is None and flow["text"].call is None
    assert (flow["made"].call.kind, flow["made"].call.member) == ("field", "make")  # the analysis decides


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_what_calling_an_argument_builds(adapter):
    made = AllocInfo("module", callee="torch.nn.LayerNorm")
    locals_ = {"parts": LocalCallee(True, None, "Parts"), "norm": LocalCallee(True, made), "fn": LocalCallee(True)}

    def local_call(name):
        return locals_.get(name, LocalCallee(False))

    def got(source):
        return called_builds(expr(source, adapter), classifier(), local_call)

    assert got("parts.proj") == AllocInfo("field", callee="Parts", member="proj")
    assert got("norm") is made
    assert got("nn.Linear").callee == "torch.nn.Linear"
    assert got("fn") is None and got("halve") is None and got("parts.a.b") is None and got("f(x)") is None
