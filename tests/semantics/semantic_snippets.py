"""Small source snippets as ``deadinit.semantics.syntax`` trees, through both adapters (libcst and stdlib
``ast``): a semantic fact must not depend on the parser (a uniquely named module: several conftest.py
files exist)."""

from __future__ import annotations

import ast
import textwrap

import libcst as cst

from deadinit.frontends import ast_adapter, cst_adapter
from deadinit.model.settings import Settings
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier

ADAPTERS = ("cst", "ast")


def module(source: str, adapter: str) -> sx.Module:
    text = textwrap.dedent(source)
    if adapter == "cst":
        return cst_adapter.to_syntax(cst.parse_module(text))[0]
    return ast_adapter.to_syntax(ast.parse(text), text)


def stmt(source: str, adapter: str) -> sx.Stmt:
    """The first statement of ``source``."""
    return module(source, adapter).body[0]


def expr(source: str, adapter: str) -> sx.Expr:
    """``source`` as one expression."""
    st = stmt(source, adapter)
    assert isinstance(st, sx.ExprStmt), st
    return st.value


def function(source: str, adapter: str, name: str | None = None) -> sx.FunctionDef:
    """The first function of ``source`` (named ``name``, if given), a method included."""
    stack: list[sx.Node] = [module(source, adapter)]
    while stack:
        n = stack.pop(0)
        if isinstance(n, sx.FunctionDef) and (name is None or n.name == name):
            return n
        stack.extend(n.children())
    raise AssertionError(f"no function {name or ''} in the snippet")


# what the summary builder reads a string annotation with, per adapter
PARSE = {"cst": cst_adapter.parse_expression, "ast": ast_adapter.parse_expression}


# the imports of the module the classifier below classifies in
IMPORTS = {"nn": "torch.nn", "zeros": "torch.zeros"}


def classifier() -> AllocClassifier:
    """An allocation classifier with the default settings, in a module that imports ``IMPORTS`` and torch."""

    def canon(name: str) -> str:
        head, dot, rest = name.partition(".")
        return IMPORTS[head] + dot + rest if head in IMPORTS else name

    return AllocClassifier(Settings(), canon, lambda name: name in IMPORTS or name == "torch")
