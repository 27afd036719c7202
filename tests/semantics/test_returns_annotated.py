"""What a return annotation speaks for: a call of a class looked up at run time, the call results of a
returned tuple; and one element of what a followed call returns (``f(...)[k]``).  Both adapters."""

import textwrap

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary

ADAPTERS = ("cst", "ast")


def summary(source: str, adapter: str) -> FileSummary:
    got = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(got, FileSummary), got
    return got


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_class_looked_up_at_run_time(adapter):
    s = summary(
        """
        import torch.nn as nn
        LAYERS = {}
        def build(cfg, *args) -> nn.Module:
            layer_cls = LAYERS[cfg]
            layer = layer_cls(*args)
            return layer
        def passes(layer: nn.Module) -> nn.Module:
            return layer
        def calls_param(factory) -> nn.Module:
            return factory()
        def calls_module(x) -> nn.Module:
            m = nn.Linear(2, 2)
            return m(x)
        """,
        adapter,
    )
    assert s.functions["build"].annotated.callee == "torch.nn.Module"
    assert "passes" not in s.functions
    called = s.functions["calls_param"]  # what the caller passes decides, not the annotation
    assert [v.kind for v in called.values] == ["param-call"] and called.annotated is None
    assert "calls_module" not in s.functions  # calling a module gives its output


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_returned_tuple_takes_the_annotation_for_its_call_results(adapter):
    s = summary(
        """
        import torch.nn as nn
        NORMS = {}
        def build_norm(cfg, c) -> tuple[str, nn.Module]:
            name = cfg + "1"
            layer = NORMS[cfg](c)
            return name, layer
        def starred(cfg, *rest) -> tuple[str, nn.Module]:
            return (*rest,)
        """,
        adapter,
    )
    (value,) = s.functions["build_norm"].values
    assert value.kind == "tuple" and value.items[0] is None and value.items[1].callee == "torch.nn.Module"
    assert s.functions["starred"].values == (None,)  # a starred tuple: no element is known


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_element_of_a_followed_call(adapter):
    s = summary(
        """
        class Block:
            def __init__(self, c):
                self.norm = build_norm("bn", c)[1]
                self.last = build_norm("bn", c)[-1]
                self.keyed = build_norm("bn", c)["x"]
        """,
        adapter,
    )
    flow = {st.attr: st for st in s.classes[0].methods["__init__"].init_flow if st.attr}
    assert (flow["norm"].call.kind, flow["norm"].call.index, flow["norm"].call.element.callee) == (
        "item",
        1,
        "build_norm",
    )
    assert flow["last"].call.index == -1
    assert flow["keyed"].call is None
