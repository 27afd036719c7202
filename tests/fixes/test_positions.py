"""``fixes.positions`` gives every node the range libcst's ``PositionProvider`` gives it."""

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from deadinit.fixes.positions import Positions

REPO = Path(__file__).resolve().parents[2]

TRICKY = [
    "x = 1; y = 2\nif x: pass\nelif y: z = 3\nelse:\n    pass\n",
    "class A:\r\n    def __init__(self):\r\n        self.a = (1,\r\n                  2)\r\n",
    "def f(a, /, b=1, *c, d, **e):\n\treturn a\n",
    '@dec\n# comment\n@other(\n    1,\n)\n\nasync def g():\n    """doc\n    string"""\n    await x\n',
    "s = 'a' \\\n    'b'\nt = f'{s!r:>{10}}' + rb'\\r'\n",
    "x = [\n    i  # c\n    for i in range(3)\n    if i\n]\n\x0c\nwith a as b, c:\n    pass\n",
    "try:\n    pass\nexcept (A, B) as e:\n    raise X from e\nfinally:\n    del a[1:2, ::3]\n",
    "lambda: (yield)\nmatch p:\n    case [1, *rest] if rest:\n        pass\n    case {'k': v}:\n        pass\n",
    "",
    "# only a comment",
    "x = 1\r",
]


def same_positions(source: str | bytes) -> None:
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = Positions(module)
    assert set(got) == set(expected) and len(got) == len(expected)
    for node, r in expected.items():
        assert got[node] == r, (type(node).__name__, r, got[node])
        assert got.get(node) == r and node in got
    assert got.get(cst.Name("absent")) is None


@pytest.mark.parametrize("source", TRICKY)
def test_tricky_sources(source):
    same_positions(source)


def test_every_fixture_file():
    files = sorted((REPO / "fixtures").rglob("*.py")) + sorted((REPO / "deadinit" / "fixes").rglob("*.py"))
    assert len(files) > 40
    for path in files:
        same_positions(path.read_bytes())
