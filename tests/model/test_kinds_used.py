"""The records' kinds are enums and the code compares with their members, not with string literals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.kinds import EXPR_FORMS, PATTERN_FORMS, ExprTag, InitStmtKind, NameKind, ParamKind
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary

PACKAGE = Path(__file__).resolve().parents[2] / "deadinit"
# ``x.kind == "literal"``, ``x.kind != "literal"``, ``x.kind in ("a", "b")`` (gpu_check's report reads JSON)
LITERAL_KIND = re.compile(r"\.kind (?:==|!=|in|not in) \(?\"")
ROLE_LITERAL = re.compile(r"\.role (?:==|!=|in|not in) \(?\"")
# an expression's form compared with the string of an ``ExprTag``: ``e[0] == "const"``, ``k in ("and", "or")``
_TAGS = "|".join(re.escape(t) for t in sorted(EXPR_FORMS))
EXPR_TAG_LITERAL = re.compile(rf"(?:(?<!\))\[0\]|(?<![\w.])(?:k|head)) (?:==|!=|in|not in) \(?\"(?:{_TAGS})\"")
# a tagged tuple's first item compared with a tag's string: a dynamic access's pattern (``PatternTag``),
# a resolved name's kind (``NameKind``), a keyed access (``KeyedRead`` / ``KeyedDynamic`` are records)
_TUPLE_TAGS = sorted(PATTERN_FORMS | {k.value for k in NameKind} | {"read", "dynamic"})
TUPLE_TAG_LITERAL = re.compile(rf"\[0\] (?:==|!=|in|not in) \(?\"(?:{'|'.join(re.escape(t) for t in _TUPLE_TAGS)})\"")
# the syntax model's fixed words, a fill's kind, a hierarchy problem, where a copied name is bound
WORD_LITERAL = re.compile(r"(?:\.what|\.scope|fill_kind|resolution\([^)]*\)) (?:==|!=|in|not in) \(?\"")


@pytest.mark.parametrize(
    "pattern",
    [LITERAL_KIND, ROLE_LITERAL, EXPR_TAG_LITERAL, TUPLE_TAG_LITERAL, WORD_LITERAL],
    ids=["kind", "role", "expr-tag", "tuple-tag", "word"],
)
def test_no_kind_is_compared_with_a_string_literal(pattern: re.Pattern[str]) -> None:
    hits = [
        f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "gpu_check" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


SOURCE = b"""
import torch

class A:
    def __init__(self, n, *args, k=1, **kw):
        super().__init__()
        self.x = torch.zeros(n)
        self.xs = []
        self.xs.append(torch.ones(n))
        del self.x
"""


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_the_front_ends_build_records_holding_enum_members(adapter: str) -> None:
    summary = summarize_source(SOURCE, "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(summary, FileSummary)
    init = next(c for c in summary.classes if c.name == "A").methods["__init__"]
    kinds = [st.kind for st in init.init_flow or ()]
    assert all(type(k) is InitStmtKind for k in kinds)
    assert {InitStmtKind.SUPER_INIT, InitStmtKind.ASSIGN, InitStmtKind.FILL, InitStmtKind.DELETE} <= set(kinds)
    params = [p.kind for p in init.params]
    assert all(type(k) is ParamKind for k in params)
    assert params == [ParamKind.NORMAL, ParamKind.STAR, ParamKind.KWONLY, ParamKind.DSTAR]


EXPRESSIONS = b"""
import torch

class A:
    def __init__(self, cfg, n=3, flag=None):
        if flag is not None and (n > 2 or cfg.x == "a"):
            self.x = torch.zeros(n + 1, *(n, 2))
        if not cfg.y in ("p", "q"):
            self.y = cfg.make(n if flag else self.x, k=len(cfg))
"""


_PARTS = {  # where each form keeps the expressions inside it
    **dict.fromkeys((ExprTag.NOT, ExprTag.IS_NONE, ExprTag.IS_NOT_NONE), slice(1, 2)),
    **dict.fromkeys((ExprTag.AND, ExprTag.OR, ExprTag.EQ, ExprTag.NE, ExprTag.IN), slice(1, 3)),
    **dict.fromkeys((ExprTag.CMP, ExprTag.BIN), slice(2, 4)),
    ExprTag.IFEXP: slice(1, 4),
}


def _tags(e: tuple[object, ...]) -> list[object]:
    """The form of ``e`` and of every expression inside it."""
    tag = e[0]
    if tag == ExprTag.CALL:
        parts = [*e[2], *(v for _, v in e[3])]
    elif tag == ExprTag.TUPLE:
        parts = list(e[1])
    else:
        parts = list(e[_PARTS[tag]]) if tag in _PARTS else []
    return [tag, *(t for p in parts for t in _tags(p))]


@pytest.mark.parametrize("adapter", ["ast", "cst"])
def test_the_front_ends_build_expressions_of_the_listed_forms(adapter: str) -> None:
    summary = summarize_source(EXPRESSIONS, "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(summary, FileSummary)
    init = next(c for c in summary.classes if c.name == "A").methods["__init__"]
    exprs = [e for st in init.init_flow or () for e in (*st.guards, st.value, *st.args) if e is not None]
    exprs += [p.default for p in init.params if p.default is not None]
    tags = [t for e in exprs for t in _tags(e)]
    assert set(tags) <= EXPR_FORMS, tags
    assert all(type(t) is str for t in tags)  # pickled as the plain strings they are (``ExprTag``)
    assert {ExprTag.AND, ExprTag.OR, ExprTag.CMP, ExprTag.EQ, ExprTag.NOT, ExprTag.IN, ExprTag.IS_NOT_NONE} <= set(tags)
    assert {ExprTag.CONST, ExprTag.NAME, ExprTag.DOTTED, ExprTag.TUPLE} <= set(tags)


def test_the_scan_for_tagged_tuples_catches_each_form_it_names() -> None:
    for line in ('if pattern[0] == "names":', 'r[0] != "class"', 'got[0][0] == "read"', 'p[0] in ("affix", "any")'):
        assert TUPLE_TAG_LITERAL.search(line), line
    assert not TUPLE_TAG_LITERAL.search("if pattern[0] == PatternTag.NAMES:")


def test_dynamic_patterns_pickle_as_plain_strings() -> None:
    from deadinit.semantics.dynamic import ANY

    assert all(type(t) is str for t in PATTERN_FORMS) and type(ANY[0]) is str  # as summaries pickled them before


def test_the_scan_for_fixed_words_catches_each_form_it_names() -> None:
    for line in (
        'if st.what == "pass":',
        'n.what in ("break", "continue")',
        'st.scope == "global"',
        'a.fill_kind == "append"',
        'p.what != "cycle"',
        'src.resolution(n) in ("global", "unresolved")',
    ):
        assert WORD_LITERAL.search(line), line
    assert not WORD_LITERAL.search("if st.what == sx.Jump.PASS:")
