"""``self.add_module(name, m)`` assigns ``name``: a literal, or ``self.x`` holding one set just before."""

import textwrap

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary


@pytest.mark.parametrize("adapter", ("cst", "ast"))
def test_registered_names(adapter):
    source = """
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self, c, wide):
                super().__init__()
                self.add_module("proj", nn.Linear(c, c))
                self.norm_name = "ln"
                self.add_module(self.norm_name, nn.LayerNorm(c))
                self.act_name = "relu" if wide else "gelu"
                self.add_module(self.act_name, nn.ReLU())
                if wide:
                    self.gate_name = "gate"
                self.add_module(self.gate_name, nn.Linear(c, c))
                self.blocks = nn.ModuleList()
                self.blocks.add_module("0", nn.Linear(c, c))
        """
    s = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(s, FileSummary)
    flow = s.classes[0].methods["__init__"].init_flow
    assigned = [(st.attr, st.alloc.callee) for st in flow if st.kind == "assign" and st.alloc is not None]
    assert assigned == [("proj", "torch.nn.Linear"), ("ln", "torch.nn.LayerNorm"), ("blocks", "torch.nn.ModuleList")]
    assert not any(st.attr == "0" for st in flow)  # an element of the list, not an attribute of self


@pytest.mark.parametrize("adapter", ("cst", "ast"))
def test_names_from_a_literal_prefix(adapter):
    """``for i in range(2): self.add_module(f"norm{i}", m)`` registers ``norm0`` and ``norm1``
    (fixtures/EXPECTED.md, after table R's non-findings: not followed today, so a subclass's
    ``delattr(self, "norm0")`` is no finding)."""
    source = """
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self, c):
                super().__init__()
                for i in range(2):
                    self.add_module(f"norm{i}", nn.LayerNorm(c))
        """
    s = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(s, FileSummary)
    flow = s.classes[0].methods["__init__"].init_flow
    assert {st.attr for st in flow if st.alloc is not None} == {"norm0", "norm1"}


@pytest.mark.parametrize("adapter", ("cst", "ast"))
def test_names_from_a_literal_prefix_only_where_the_range_decides_them(adapter):
    """Each name is assigned on every run of the loop's own context (not ``in_loop``); a range no literal
    decides, a loop that may leave early, a rebound variable or a prefix no literal fixes add nothing."""
    source = """
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self, c, n, kind):
                super().__init__()
                for i in range(1, 3):
                    self.add_module(f"norm{i}_x", nn.LayerNorm(c))
                for i in range(n):
                    self.add_module(f"deep{i}", nn.LayerNorm(c))
                for i in range(2):
                    if c:
                        break
                    self.add_module(f"early{i}", nn.LayerNorm(c))
                for i in range(2):
                    i = i + 1
                    self.add_module(f"moved{i}", nn.LayerNorm(c))
                for i in range(2):
                    self.add_module(f"{kind}{i}", nn.LayerNorm(c))
                if c:
                    for j in range(1):
                        self.add_module(f"cond{j}", nn.LayerNorm(c))
        """
    s = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(s, FileSummary)
    flow = s.classes[0].methods["__init__"].init_flow
    got = {st.attr: (st.in_loop, len(st.guards)) for st in flow if st.alloc is not None}
    assert got == {"norm1_x": (False, 0), "norm2_x": (False, 0), "cond0": (False, 1)}


@pytest.mark.parametrize("adapter", ("cst", "ast"))
def test_names_of_a_range_no_literal_decides_are_left_to_the_chain(adapter):
    """``f"deep{i}"`` in ``range(n)``: the call keeps its effect, with what each name would be assigned
    (``InitStmt.registers``), for the chain to name once it knows ``n``; a loop over anything else, or
    one that may leave early, gives nothing to name."""
    source = """
        import torch.nn as nn
        class Block(nn.Module):
            def __init__(self, c, n):
                super().__init__()
                m = nn.Linear(c, c)
                for i in range(1, n):
                    self.add_module(f"deep{i}_x", m)
                for i in self.ids:
                    self.add_module(f"id{i}", nn.LayerNorm(c))
                for i in range(n):
                    if c:
                        break
                    self.add_module(f"early{i}", nn.LayerNorm(c))
        """
    s = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(s, FileSummary)
    flow = s.classes[0].methods["__init__"].init_flow
    got = [st.registers for st in flow if st.registers is not None]
    assert len(got) == 1 and not any(st.attr and st.attr.startswith(("deep", "id", "early")) for st in flow)
    r = got[0]
    assert (r.prefix, r.suffix, r.start, r.stop, r.in_loop) == ("deep", "_x", ("const", 1), ("name", "n"), False)
    assert r.alloc is not None and (r.alloc.kind, r.alloc.callee) == ("module", "torch.nn.Linear")  # the local inlined
