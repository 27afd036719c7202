"""``fixes.positions`` gives every node the range libcst's ``PositionProvider`` gives it."""

import logging
import sys
import types
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from deadinit.fixes import positions
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


# -- the guard of the fast pass (libcst's private API): checked once, else PositionProvider ----------


@pytest.fixture
def unchecked(monkeypatch, caplog):
    """The fast pass not yet checked in this process (restored after the test); debug notes captured."""
    monkeypatch.setattr(positions, "_fast_ok", None)
    caplog.set_level(logging.DEBUG, logger=positions.__name__)
    return caplog


def notes(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == positions.__name__]


def test_sample_covers_the_tricky_syntax():
    sample = positions._SAMPLE
    assert "\r\n" in sample and "\n" in sample.replace("\r\n", "")
    assert any(c == "\r" and sample[i + 1 : i + 2] != "\n" for i, c in enumerate(sample))  # a lone \r
    module = cst.parse_module(sample)
    assert module.code == sample
    kinds = [type(n) for n in positions._provider_spans(module)]
    assert kinds.count(cst.Decorator) >= 2 and kinds.count(cst.FunctionDef) >= 3
    assert cst.Semicolon in kinds and cst.Comment in kinds and cst.SimpleString in kinds
    assert any(
        '"""' in n.value and "\n" in n.value for n in positions._provider_spans(module) if type(n) is cst.SimpleString
    )


def test_fast_pass_agrees_on_this_libcst(unchecked, monkeypatch):
    assert positions.fast_path_agrees()
    assert notes(unchecked) == []

    def no_provider(module):
        raise AssertionError("PositionProvider used although the fast pass agrees")

    monkeypatch.setattr(positions, "_provider_spans", no_provider)
    for source in TRICKY:
        module = cst.parse_module(source)
        assert Positions(module)._spans == positions._fast_spans(module)


def wrong_update_position(self, value: str) -> None:
    """The fast state's ``_update_position`` gone wrong: a column too many past every token."""
    lines = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    self.line += len(lines) - 1
    self.column = (self.column if len(lines) == 1 else 0) + len(lines[-1]) + 1


def test_a_disagreeing_fast_pass_is_not_used(unchecked, monkeypatch):
    monkeypatch.setattr(positions._fast_state_class(), "_update_position", wrong_update_position)
    module = cst.parse_module("x = 1\n")
    assert positions._fast_spans(module) != positions._provider_spans(module)  # it does disagree
    for source in TRICKY:
        same_positions(source)
    same_positions(positions._SAMPLE)
    assert positions.fast_path_agrees() is False
    (note,) = notes(unchecked)  # once, for every module
    assert "differ" in note and "PositionProvider" in note


@pytest.mark.parametrize("name", ["PositionProvidingCodegenState", "NEWLINE_RE"])
def test_missing_private_names_fall_back(unchecked, monkeypatch, name):
    """As if a libcst release dropped or renamed ``name`` (``PositionProvider`` itself keeps working)."""
    import libcst.metadata.position_provider as position_provider

    without = types.ModuleType(position_provider.__name__)
    without.__dict__.update({k: v for k, v in vars(position_provider).items() if k != name})
    monkeypatch.setitem(sys.modules, position_provider.__name__, without)
    monkeypatch.setattr(positions, "_fast_state", None)  # built again, from what libcst has now
    for source in TRICKY:
        same_positions(source)
    assert positions.fast_path_agrees() is False
    (note,) = notes(unchecked)
    assert "missing" in note and name in note


def test_a_missing_private_attribute_falls_back(unchecked, monkeypatch):
    def before_codegen(self, node):
        self._stack_renamed.append((self.line, self.column))  # as if libcst renamed the field

    monkeypatch.setattr(positions._fast_state_class(), "before_codegen", before_codegen)
    for source in TRICKY:
        same_positions(source)
    (note,) = notes(unchecked)
    assert "missing" in note and "AttributeError" in note


def test_a_failing_fast_pass_falls_back(unchecked, monkeypatch):
    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        raise TypeError("changed signature")

    monkeypatch.setattr(positions._fast_state_class(), "record_syntactic_position", record_syntactic_position)
    for source in TRICKY:
        same_positions(source)
    (note,) = notes(unchecked)
    assert "TypeError" in note
