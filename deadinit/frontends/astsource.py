"""CPython ``ast`` helpers for ``deadinit.frontends.fastfacts``: positions as libcst counts
them, names as libcst reads them, children in libcst's visiting order."""

from __future__ import annotations

import ast
import re

import libcst as cst

_KEYWORDS = {None: "None", True: "True", False: "False"}


class Unsure(Exception):
    """This function needs the libcst visitor."""


class Source:
    """The file's bytes with (line, byte column) -> libcst's (line, character column)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0]
        for m in re.finditer(rb"\n", data):
            self.starts.append(m.end())
        self._ann: dict[str, tuple | None] = {}

    def col(self, line: int, col: int) -> int:
        start = self.starts[line - 1]
        head = self.data[start : start + col]
        return col if head.isascii() else len(head.decode("utf-8"))

    def segment(self, node: ast.AST) -> str:
        a = self.starts[node.lineno - 1] + node.col_offset
        b = self.starts[node.end_lineno - 1] + node.end_col_offset
        return self.data[a:b].decode("utf-8")

    def annotation(self, node: ast.AST) -> tuple | None:
        """``annotation_types`` of the visitor, on the same expression parsed by libcst."""
        from deadinit.frontends.cst_visitor import annotation_types

        text = self.segment(node)
        if text not in self._ann:
            try:
                self._ann[text] = annotation_types(cst.parse_expression(text))
            except Exception as e:
                raise Unsure(f"annotation {text!r}") from e
        return self._ann[text]


def dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Constant) and any(node.value is k for k in _KEYWORDS):
        parts.append(_KEYWORDS[node.value])  # libcst reads True/False/None as names
    else:
        return None
    return ".".join(reversed(parts))


def short(node) -> str:
    d = dotted(node)
    if d:
        return d if len(d) < 60 else d[:57] + "..."
    return "<expr>"


def name_of(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and any(node.value is k for k in _KEYWORDS):
        return _KEYWORDS[node.value]
    return None


def position(node) -> tuple[int, int]:
    return node.lineno, node.col_offset


def params(a: ast.arguments) -> list[tuple[ast.arg, ast.expr | None]]:
    """(parameter, default) in source order."""
    pos = a.posonlyargs + a.args
    out = list(zip(pos, [None] * (len(pos) - len(a.defaults)) + a.defaults))
    if a.vararg:
        out.append((a.vararg, None))
    out += list(zip(a.kwonlyargs, a.kw_defaults))
    if a.kwarg:
        out.append((a.kwarg, None))
    return out


def children(node) -> list:
    """Child nodes in the order libcst visits the matching nodes (source order)."""
    t = type(node)
    if t is ast.IfExp:
        return [node.body, node.test, node.orelse]
    if t is ast.Dict:
        out = []
        for k, v in zip(node.keys, node.values):
            if k is not None:
                out.append(k)
            out.append(v)
        return out
    if t is ast.Call:
        return [node.func] + sorted(node.args + node.keywords, key=position)
    if t is ast.MatchMapping:
        return [x for kv in zip(node.keys, node.patterns) for x in kv]
    if t is ast.Lambda:
        return [d for _, d in params(node.args) if d is not None] + [node.body]
    out = []
    for name in _FIELDS.get(t) or _fields(t):
        v = getattr(node, name)
        if isinstance(v, list):
            out += [x for x in v if isinstance(x, ast.AST)]
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


_SKIP = {"ctx", "op", "ops", "type_comment", "type_ignores"}  # operators and contexts hold no expressions
_FIELDS: dict = {}


def _fields(t: type) -> tuple:
    _FIELDS[t] = tuple(f for f in t._fields if f not in _SKIP)
    return _FIELDS[t]


def statements(body: list):
    """Every statement in ``body``, nested ones included (expressions are not entered)."""
    for st in body:
        yield st
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            sub = getattr(st, name, None)
            if isinstance(sub, list) and sub and not isinstance(sub[0], ast.expr):
                yield from statements(sub)


def arg_value(a):
    """The expression of a call argument (``*x`` and ``**x`` included, as libcst's ``Arg.value``)."""
    if isinstance(a, ast.keyword):
        return a.value
    return a.value if isinstance(a, ast.Starred) else a
