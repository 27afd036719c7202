"""``deadinit.semantics.stubs``: which method bodies are interface stubs."""

import pytest
from semantic_snippets import function

from deadinit.semantics.stubs import is_stub


@pytest.mark.parametrize(
    ("body", "stub"),
    [
        ("pass", True),
        ("...", True),
        ('"""Docstring."""', True),
        ('"""Doc."""\n    raise NotImplementedError', True),
        ('raise NotImplementedError("subclasses")', True),
        ("None", True),
        ("raise ValueError", False),
        ("return 1", False),
        ("self.x = 1", False),
        ("raise", False),
    ],
)
def test_is_stub(body, stub, adapter):
    assert is_stub(function(f"def f(self):\n    {body}\n", adapter)) is stub
