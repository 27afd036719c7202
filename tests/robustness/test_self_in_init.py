"""Regressions of the ``__init__`` model's view of ``self``: a local that may hold it is ``self``,
and ``self`` handed on inside an expression escapes (both found by unit tests of
``deadinit.semantics``)."""

import textwrap

import pytest
from production_path import fix_run

from deadinit.api.check import run_check


def _keys(tmp_path, files: dict) -> list[tuple[str, str, str]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, src in files.items():
        (pkg / name).write_text(textwrap.dedent(src))
    return sorted((f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in run_check([str(pkg)]).findings)


@pytest.mark.parametrize("read", ["print(me.buf)", "print(getattr(me, 'buf'))"])
def test_a_read_through_a_local_alias_of_self_keeps_the_parent_allocation(tmp_path, read):
    """``me = self; print(me.buf)`` reads the parent's ``self.buf`` before the subclass replaces it:
    no DI001, and no skip flag that would leave the read an attribute that was never built (the
    ``__init__`` flattener followed only ``self`` itself, found by a unit test)."""
    files = {
        "m.py": f"""
        import torch

        class Parent(torch.nn.Module):
            def __init__(self, n):
                super().__init__()
                self.buf = torch.zeros(n)

        class Child(Parent):
            def __init__(self, n):
                super().__init__(n)
                me = self
                {read}
                self.buf = torch.zeros(n)
        """
    }
    assert _keys(tmp_path, files) == []
    out = fix_run([str(tmp_path / "pkg")], "skip-flag", tmp_path / "cache", write=False)
    assert out.plan.changes == []


@pytest.mark.parametrize("escape", ["register(self)", "register([self])", "register({'o': self})"])
def test_a_part_whose_owner_lets_self_escape_inside_an_expression_is_not_replaced(tmp_path, escape):
    """``SelfAttention.__init__`` hands itself to ``register`` after building ``qkv_proj``, bare or inside a
    list or a dict: ``register`` may keep ``self.qkv_proj``, so the subclass's nested replacement is no
    DI001 (``effects.reads_of`` saw the bare argument only, found by a unit test)."""
    files = {
        "m.py": f"""
        import torch
        from torch import nn
        from outside import register

        class SelfAttention(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.qkv_proj = nn.Linear(dim, 3 * dim)
                {escape}

            def forward(self, x):
                return self.qkv_proj(x)

        class DecoderBlock(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.self_attn = SelfAttention(dim)

            def forward(self, x):
                return self.self_attn(x)

        class FusedDecoderBlock(DecoderBlock):
            def __init__(self, dim):
                super().__init__(dim)
                self.self_attn.qkv_proj = nn.Linear(dim, 3 * dim)
        """
    }
    assert _keys(tmp_path, files) == []
