"""``deadinit.semantics.syntax.statements``: the statement nodes both adapters build, the same for both."""

from semantic_snippets import ADAPTERS, function, module

from deadinit.semantics import syntax as sx
from deadinit.semantics.syntax.statements import Module, Simple

SOURCE = """
import a.b as c
from .x import y
class K(Base, metaclass=M):
    z: int = 1
    @dec
    def f(self, a, /, b=2, *args, c, **kw) -> int:
        global g
        for i in r:
            if i:
                continue
            elif a:
                break
        else:
            pass
        while b:
            b -= 1
        try:
            del self.q
        except E as e:
            raise
        finally:
            assert a, "m"
        with open(p) as h, lock:
            return h
"""


def test_both_adapters_build_equal_trees():
    cst_tree, ast_tree = (module(SOURCE, a) for a in ADAPTERS)
    assert cst_tree == ast_tree


def test_statement_kinds(adapter):
    tree = module(SOURCE, adapter)
    imp, imp_from, cls = tree.body
    assert (
        isinstance(imp, sx.Import) and imp.module is None and [(n.name, n.asname) for n in imp.names] == [("a.b", "c")]
    )
    assert isinstance(imp_from, sx.Import) and imp_from.module is not None
    assert isinstance(cls, sx.ClassDef) and cls.texts == ("Base", "M")
    ann, fn = cls.body
    assert isinstance(ann, sx.AnnAssign) and isinstance(fn, sx.FunctionDef)
    assert [type(s).__name__ for s in fn.body] == ["Names", "For", "While", "Try", "With"]
    assert [(p.name, p.group, p.star) for p in fn.params] == [
        ("self", "posonly", ""),
        ("a", "posonly", ""),
        ("b", "normal", ""),
        ("args", "normal", "*"),
        ("c", "kwonly", ""),
        ("kw", "normal", "**"),  # as libcst groups it
    ]


def test_function_lines_start_at_the_decorators(adapter):
    fn = function("class K:\n    @dec\n    @other(1)\n    def f(self):\n        pass\n", adapter)
    assert fn.lines() == (2, 5) and fn.line == 4


def test_an_elif_is_marked(adapter):
    tree = module("if a:\n    pass\nelif b:\n    pass\n", adapter)
    first = tree.body[0]
    assert not first.is_elif and first.orelse[0].is_elif


def test_a_module_holds_its_statements():
    body = (Simple(1, 0, 1, "pass"),)
    tree = Module(body)
    assert tree.children() == body and (tree.line, tree.col) == (1, 0)
