"""``deadinit.semantics.returns`` for builders: a function that calls its parameter (kind ``param-call``) or a
field of it narrowed by ``isinstance``, a local bound to a class, and what a followed call records of what
calling its arguments builds (``AllocInfo.arg_builds``).  Both adapters, as in ``test_returns``."""

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
def test_a_builder_calling_its_parameter_or_a_field_of_it_narrowed_by_isinstance(adapter):
    s = summary(
        """
        class Spec:
            cls: type
        def make(spec, *args):
            if isinstance(spec, Spec):
                return spec.cls(*args)
            return spec(*args)
        def rebound(spec, n):
            spec = spec.inner
            return spec(n)
        def later(spec, n):
            if isinstance(spec, Spec):
                pass
            return spec.cls(n)
        """,
        adapter,
    )
    made = s.functions["make"].values
    assert [(v.kind, v.callee, v.member) for v in made] == [("field", "Spec", "cls"), ("param-call", "", "spec")]
    assert "rebound" not in s.functions  # rebound: no longer what a caller passes; nothing known returned
    assert "later" not in s.functions  # the narrowing holds in its branch only


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_followed_call_records_what_calling_its_arguments_builds(adapter):
    s = summary(
        """
        from torch import nn
        from dataclasses import dataclass
        @dataclass
        class Parts:
            proj: type = nn.Linear
        class P(nn.Module):
            def __init__(self, parts=None, n=4):
                super().__init__()
                parts = parts or Parts()
                self.a = make(parts.proj, n)
                self.b = make(nn.Linear, n)
                self.c = make(halve, n)
        """,
        adapter,
    )
    cls = next(c for c in s.classes if c.name == "P")
    calls = {st.attr: st.call for st in cls.methods["__init__"].init_flow if st.call is not None}
    assert [(b.kind, b.callee, b.member) for b in calls["a"].arg_builds[:1]] == [("field", "Parts", "proj")]
    assert calls["b"].arg_builds[0].kind == "module"
    assert calls["c"].arg_builds == ()


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_local_bound_to_a_class_builds_it_when_called(adapter):
    s = summary(
        """
        from torch import nn
        def f(n, wide):
            cls = nn.Linear if wide else nn.Identity
            return cls(n, n)
        def g(n, pick):
            cls = pick(n)
            return cls(n)
        """,
        adapter,
    )
    assert [v.callee for v in s.functions["f"].values] == ["torch.nn.Linear"]
    assert "g" not in s.functions  # a function's result: not known to be a class
