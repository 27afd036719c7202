"""Random expressions and assignment targets (hypothesis) for ``module_gen``.

Each strategy draws source text; nested lines are indented by ``IND`` units, which
``module_gen.render`` turns into spaces or a tab.  ``Scope`` says what the text may
use where it goes (local names, ``await``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hypothesis import strategies as st

ATTRS = ("ws", "buf", "kv_indptr", "wrappers", "__p", "größe", "_cache", "n")
LOCALS = ("x", "y", "ñ", "tmp", "λ")
IND = "\x00"  # one indentation unit, replaced by spaces or a tab in ``render``

INTS = st.sampled_from(["0", "1", "4", "0x10", "1_024", "2**20", "-3", "3.5", "1e3", "2j"])
STRINGS = st.sampled_from(
    ["'k'", '"é"', "'😀'", "b'raw'", "r'\\d+'", "'a' 'b'", '"""two\nlines"""', "'ws'", '"größe"', "''"]
)
ALLOC_CALLS = (
    "torch.zeros({e})",
    "torch.empty(({e}, 4), dtype=torch.uint8)",
    "torch.zeros({e}).cuda()",
    "nn.Linear({e}, 4)",
    "Wrapper({e}, workspace=self.ws)",
    "[torch.empty(1) for _ in range({e})]",
    "get_buffer('k', lambda: torch.empty({e}))",
    "b.Base({e})",
    "nn.Parameter(torch.empty({e}))",
)


@dataclass(frozen=True)
class Scope:
    locals: tuple = ("n", "flag")
    depth: int = 0
    in_async: bool = False
    in_loop: bool = False
    cls: str = "C"
    parent: str = "b.Base"

    def deeper(self, **kw) -> Scope:
        return replace(self, depth=self.depth + 1, **kw)


# -- expressions ------------------------------------------------------------------


@st.composite
def self_attr(draw) -> str:
    attr = draw(st.sampled_from(ATTRS))
    return draw(st.sampled_from([f"self.{attr}", f"(self).{attr}", f"self . {attr}", f"self.{attr}.data"]))


@st.composite
def plain(draw, scope: Scope) -> str:
    """An expression without string literals or backslashes (fits inside an f-string)."""
    kind = draw(st.sampled_from(["local", "self", "int", "call"]))
    if kind == "local":
        return draw(st.sampled_from(scope.locals))
    if kind == "self":
        return draw(self_attr())
    if kind == "int":
        return draw(st.sampled_from(["0", "1", "n"]))
    return f"len({draw(self_attr())})"


@st.composite
def expr(draw, scope: Scope) -> str:
    leaf = st.one_of(plain(scope), INTS, STRINGS, st.sampled_from(["None", "True", "False", "...", "flag"]))
    if scope.depth >= 2:
        return draw(leaf)
    sub = expr(scope.deeper())
    kind = draw(
        st.sampled_from(
            ["leaf", "leaf", "call", "alloc", "dynamic", "attr", "subscript", "binop", "boolop", "compare", "unary"]
            + ["ifexp", "lambda", "comp", "display", "fstring", "walrus", "paren", "multiline"]
            + (["await"] if scope.in_async else [])
        )
    )
    if kind == "leaf":
        return draw(leaf)
    if kind == "call":
        func = draw(st.sampled_from(["make", "self.m", "b.Base", "self.runner.update", "Updater", "range", "(f)"]))
        if draw(st.integers(0, 5)) == 0:  # a generator expression as the only argument: no parentheses of its own
            return f"{func}(q.ws for q in {operand(draw(sub))} if (y := q))"
        return f"{func}({draw(call_args(scope))})"
    if kind == "alloc":
        return draw(st.sampled_from(ALLOC_CALLS)).format(e=draw(sub))
    if kind == "dynamic":
        return draw(
            st.sampled_from(
                ["getattr(self, 'ws')", "getattr(self, name)", "vars(self)", "self.__dict__", "getattr(self, 'n', 0)"]
            )
        )
    if kind == "attr":
        return f"{operand(draw(sub))}.{draw(st.sampled_from(ATTRS))}"
    if kind == "subscript":
        index = draw(st.sampled_from(["0", "i", "1:2", "::2", "a, b", "...", ":n, None", "-1"]))
        return f"{draw(self_attr())}[{index}]"
    if kind == "binop":
        op = draw(st.sampled_from(["+", "-", "*", "@", "//", "%", "**", "|", "&", "<<"]))
        return f"{operand(draw(sub))} {op} {operand(draw(sub))}"
    if kind == "boolop":
        parts = draw(st.lists(sub, min_size=2, max_size=3))
        return f" {draw(st.sampled_from(['and', 'or']))} ".join(f"({p})" for p in parts)
    if kind == "compare":
        op = draw(st.sampled_from(["is None", "is not None", "== 1", "< n <= 4", "not in (1, 2)", "in self.buf"]))
        return f"{operand(draw(sub))} {op}"
    if kind == "unary":
        return f"{draw(st.sampled_from(['not ', '-', '~', '+']))}({draw(sub)})"
    if kind == "ifexp":
        return f"{operand(draw(sub))} if {operand(draw(sub))} else {operand(draw(sub))}"
    if kind == "lambda":
        body = draw(expr(scope.deeper(in_async=False)))  # ``await`` is not allowed in a lambda
        form = draw(st.sampled_from(["lambda: {e}", "lambda q, r={e}: q.ws + r", "lambda *a, **k: {e}"]))
        return form.format(e=body)
    if kind == "comp":
        form = draw(
            st.sampled_from(
                [
                    "[q.ws for q in {e} if q]",
                    "{{q: q.buf for q in {e}}}",
                    "{{q for q, _ in {e}}}",
                    "(q.n for q in {e})",
                    "[r for q in {e} for r in q.ws if r if not r]",
                ]
            )
        )
        return form.format(e=draw(sub))
    if kind == "display":
        items = ", ".join(draw(st.lists(sub, min_size=1, max_size=3)))
        form = draw(st.sampled_from(["({},)", "[{}]", "{{{}}}", "[*xs, {}]", "{{'k': {}}}", "{{**kw, 'k': {}}}"]))
        return form.format(items if "'k'" not in form else draw(sub))
    if kind == "fstring":
        inner = draw(plain(scope))
        return draw(st.sampled_from([f'f"{{{inner}}}"', f"f'{{{inner}!r:>{{n}}}} é'", f'f"a{{{inner}=}}b"']))
    if kind == "walrus":
        return f"(y := {draw(sub)})"
    if kind == "paren":
        return f"({draw(sub)})"
    if kind == "multiline":
        return f"(\n{IND}{operand(draw(sub))}\n{IND}+ {operand(draw(sub))}  # a comment\n)"
    return f"await {operand(draw(sub))}"


_ATOM = re.compile(r"[^\W\d][\w.]*")


def operand(e: str) -> str:
    """``e`` where an operator's operand goes: parenthesised unless a name or attribute chain."""
    return e if _ATOM.fullmatch(e) else f"({e})"


@st.composite
def call_args(draw, scope: Scope) -> str:
    """Positional and ``*`` arguments, then keywords, then ``**`` (the order Python requires)."""
    e = expr(scope.deeper())
    positional = draw(st.lists(st.one_of(e, e.map("*{}".format), st.sampled_from(["self", "*args"])), max_size=2))
    keywords = [f"k{i}={v}" for i, v in enumerate(draw(st.lists(e, max_size=2)))]
    double = draw(st.lists(st.one_of(e.map("**{}".format), st.just("**kw")), max_size=1))
    return ", ".join(positional + keywords + double)


@st.composite
def target(draw, scope: Scope) -> str:
    kind = draw(st.sampled_from(["self", "local", "tuple", "subscript", "nested"]))
    if kind == "self":
        return draw(self_attr())
    if kind == "local":
        return draw(st.sampled_from(LOCALS))
    if kind == "subscript":
        return f"self.{draw(st.sampled_from(ATTRS))}[{draw(st.sampled_from(['0', 'i', ':']))}]"
    a, c = draw(self_attr()), draw(st.sampled_from(LOCALS))
    if kind == "tuple":
        return f"{a}, {c}"
    return f"({a}, [{c}, *self.{draw(st.sampled_from(ATTRS))}])"
