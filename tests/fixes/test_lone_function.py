"""``fixes.lone_function``: a function parsed alone has the nodes, positions and code a parse of its whole file gives."""

import libcst as cst
import pytest
from corpus_paths import FIXTURES, REPO, sglang_tree

from deadinit.fixes.lone_function import LoneFunctions, layout
from deadinit.fixes.parsed import ParsedModule, parse_module_exactly
from deadinit.semantics import syntax as sx

# each layout, with how many indented functions (methods, functions in functions) it has
LAYOUTS = [
    ("class A:\n  def __init__(self):\n      self.a = 1\n", 1),
    ("class A:\n\tdef __init__(self):\n\t\tif x:\n\t\t    y = 2\n", 1),
    ("class A:\r\n    def __init__(self):\r\n        self.a = (1,\r\n                  2)\r\n", 1),
    (
        "x = (\n        1)\n# c\n   # d\ns = '''\n  a'''\nclass A:\n   @dec\n   # between\n   def __init__(self):\n     pass\n",
        1,
    ),
    ("if x:\n        pass\nclass A:\n    def __init__(self): pass\n    def f(self):\n        return 1\n", 2),
    ("class A:\n    class B:\n        def __init__(self):\n            self.b = [\n    1]\n        # trailing\n", 1),
    ("class A:\n    def __init__(self):\n        x = 1\n# at column 0\n        y = 2\n    # footer", 1),
    ("x = 1\ny = 2\n", 0),
    ("class A:\r    def __init__(self):\r        pass\r", 1),
    ("class A:\r    def __init__(self):\r        pass\r\r    def f(self):\r        pass\r\r", 2),
    ("# -*- coding: utf-8 -*-\nclass A:\n    def __init__(self):\n        self.s = 'é'\n", 1),
]


def _functions(node: sx.Node):
    """Every indented function (a method or a function in a function)."""
    if isinstance(node, sx.FunctionDef) and node.col > 0:
        yield node
    for child in node.children():
        yield from _functions(child)


def _bare(func: cst.FunctionDef) -> cst.FunctionDef:
    """``func`` without the lines before it, which a whole file's parse gives it (they stay in the
    file's text as they are)."""
    return func.with_changes(leading_lines=())


def _nodes(func: cst.FunctionDef) -> list[cst.CSTNode]:
    """The nodes of ``func`` on its lines."""
    out: list[cst.CSTNode] = []
    before = set(map(id, func.leading_lines))

    class _All(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            if id(n) in before:
                return False
            out.append(n)
            return True

    func.visit(_All())
    return out


def same_as_whole(data: bytes) -> int:
    """Checks every indented function of ``data`` parsed alone; how many there were."""
    whole = ParsedModule("f.py", data, cst.parse_module(data))
    shape = layout(data)
    assert shape is not None
    assert (shape.indent, shape.newline) == (whole.module.default_indent, whole.module.default_newline)
    lone = LoneFunctions("f.py", data, shape)
    count = 0
    for func in _functions(whole.syntax):
        origin = whole.adapter.origins[id(func)]
        got = lone.parse(*func.lines())
        assert got.func.deep_equals(_bare(origin))
        for a, b in zip(_nodes(got.func), _nodes(origin), strict=True):
            assert got.parsed.code_range(a) == whole.code_range(b), type(a).__name__
        assert got.parsed.module.default_indent == whole.module.default_indent
        assert lone.replaced([(got, got.parsed.module)]) == data  # a last lone "\r" too
        count += 1
    return count


@pytest.mark.parametrize(("source", "functions"), LAYOUTS)
def test_tricky_layouts(source, functions):
    assert same_as_whole(source.encode()) == functions


def test_every_fixture_file():
    files = sorted(FIXTURES.rglob("*.py")) + sorted((REPO / "deadinit" / "fixes").rglob("*.py"))
    assert sum(same_as_whole(path.read_bytes()) for path in files) > 100


def test_a_module_parsed_exactly_gives_its_code_back():
    for source in ("x = 1\r", "x = 1\r\r", "x = 1\r# end\r", "x = 1\r\n", "x = 1\n", "x = 1"):
        assert cst.parse_module(source).code == source or source.endswith("\r")  # libcst drops a last "\r"
        assert parse_module_exactly(source).code == source
        assert parse_module_exactly(source.encode()).bytes == source.encode()


def test_files_parsed_whole():
    assert layout(b"# -*- coding: latin-1 -*-\nclass A:\n    pass\n") is None
    assert layout(b"class A:\n    x = '\xff'\n") is None
    assert layout(b"x = 1\n") == layout(b"x = 1") and layout(b"x = 1\n").indent == "    "


def test_a_rewritten_function_replaces_its_lines_only():
    data = b"class A:\n    # kept\n    def __init__(self):\n        pass\n    # footer\n\nx = 1\n"
    lone = LoneFunctions("f.py", data, layout(data))
    got = lone.parse(3, 4)
    new = got.func.with_changes(name=cst.Name("__other__"))
    module = got.parsed.module.deep_replace(got.func, new)
    assert lone.replaced([(got, module)]) == data.replace(b"__init__", b"__other__")
    with pytest.raises(ValueError):
        lone.parse(1, 1)


@pytest.mark.corpus
@pytest.mark.slow
def test_every_file_of_sglang_attention_and_models():
    root = sglang_tree()
    files = sorted((root / "srt" / "layers" / "attention").rglob("*.py")) + sorted(
        (root / "srt" / "models").glob("*.py")
    )
    assert sum(same_as_whole(path.read_bytes()) for path in files) > 1000
