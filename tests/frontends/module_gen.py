"""Random small modules (hypothesis) for the adapter-equality property.

``modules()`` draws the source of one module: imports, module-level helpers, and a
few classes deriving from each other or from imported bases, whose ``__init__`` and
methods mix what the semantic model reads (allocations, reads through locals and
lambdas, fills, augmented and tuple assignments, conditionals, loops, ``try``, early
``return``, ``super()`` and ``Parent.__init__`` calls, dynamic access, class-private
names, nested functions) with odd but valid syntax (unicode identifiers and strings,
expressions split over lines, decorators, comprehensions, f-strings, walrus, star
arguments, ``global``, ``match``, ``;`` and backslash continuations, tabs, CRLF, a BOM).
"""

from __future__ import annotations

import warnings

from expr_gen import ALLOC_CALLS, ATTRS, IND, LOCALS, Scope, call_args, expr, self_attr, target
from hypothesis import strategies as st

BASES = ("b.Base", "nn.Module", "object", "Generic[T]", "b.Base, metaclass=Meta", "base.Mixin, b.Base", "*mixins")
DECORATORS = ("@dataclass", "@b.register('k')", "@functools.lru_cache(maxsize=None)", "@(lambda f: f)")


def block(header: str, body: list[str]) -> list[str]:
    return [header, *(IND + line for line in (body or ["pass"]))]


@st.composite
def alloc_stmt(draw, scope: Scope) -> list[str]:
    attr = draw(st.sampled_from(ATTRS))
    value = draw(st.sampled_from(ALLOC_CALLS)).format(e=draw(expr(scope.deeper())))
    guarded = draw(st.booleans())
    stmt = draw(st.sampled_from([f"self.{attr} = {value}", f"self.{attr}: torch.Tensor = {value}"]))
    if not guarded:
        return [stmt]
    flag = attr.strip("_")
    return [*block(f"if not skip_{flag}:", [stmt]), *block("else:", [f"self.{attr} = None"])]


@st.composite
def simple_stmt(draw, scope: Scope) -> list[str]:
    e = expr(scope.deeper())
    attr = draw(st.sampled_from(ATTRS))
    kind = draw(
        st.sampled_from(
            [
                *("alloc", "alloc", "assign", "local", "fill", "aug", "tuple", "super", "dynamic", "call"),
                *("lambda", "del", "assert", "raise", "semicolons", "backslash", "pass", "walrus", "chained"),
                *("starred", "import", "followed", "unpacked", "nested", "delattr_loop", "param_call"),
            ]
        )
    )
    if kind == "alloc":
        return draw(alloc_stmt(scope))
    if kind == "assign":
        return [f"{draw(target(scope))} = {draw(e)}"]
    if kind == "local":
        return [f"{draw(st.sampled_from(LOCALS))} = {draw(self_attr())}"]
    if kind == "fill":
        form = draw(st.sampled_from(["self.{a}[i] = {e}", "self.{a}.append({e})", "self.{a}.copy_({e})"]))
        return [form.format(a=attr, e=draw(e))]
    if kind == "aug":
        op = draw(st.sampled_from(["+=", "-=", "|=", "@=", "**=", ">>="]))
        return [f"{draw(st.sampled_from([f'self.{attr}', f'self.{attr}[0]', 'x']))} {op} {draw(e)}"]
    if kind == "tuple":
        return [f"{draw(target(scope))} = {draw(e)}, ({draw(e)}, {draw(e)})"]
    if kind == "super":
        args = draw(call_args(scope))
        form = draw(
            st.sampled_from(
                [
                    "super().__init__({a})",
                    "super({c}, self).__init__({a})",
                    "{p}.__init__(self{sep}{a})",
                    "super().forward({a})",
                    "super().__init__(\n{i}n,\n{i}skip_ws=True,\n)",
                ]
            )
        )
        return [
            form.format(a=args, c=scope.cls, p=scope.parent.split(",")[0].lstrip("*"), sep=", " if args else "", i=IND)
        ]
    if kind == "dynamic":
        return [
            draw(
                st.sampled_from(
                    [
                        "setattr(self, 'ws', None)",
                        "setattr(self, name, torch.zeros(1))",
                        "self.register_buffer('ws', torch.zeros(1), persistent=False)",
                        "self.register_parameter(name, None)",
                        "self.__dict__.update(kw)",
                        "getattr(self, _NAMES[0])()",
                        "vars(self)['buf'] = 1",
                    ]
                )
            )
        ]
    if kind == "call":
        return [f"{draw(st.sampled_from(['self.runner.update', 'Updater', 'self.m', 'print']))}(self, {draw(e)})"]
    if kind == "lambda":
        return [f"self.{attr} = lambda *a: {draw(self_attr())}(*a)"]
    if kind == "del":
        return [f"del {draw(self_attr())}"]
    if kind == "assert":
        return [f"assert {draw(e)}, 'é'"]
    if kind == "raise":
        return [draw(st.sampled_from(["raise", "raise ValueError(n)", "raise ValueError(n) from None"]))]
    if kind == "semicolons":
        return [f"x = {draw(e)}; self.{attr} = x; y = self.{attr}"]
    if kind == "backslash":
        return [f"self.{attr} = \\\n{IND}{draw(e)}"]
    if kind == "walrus":
        return [f"if (tmp := {draw(self_attr())}) is not None:", f"{IND}self.{attr} = tmp"]
    if kind == "chained":
        return [f"self.{attr} = {draw(target(scope))} = {draw(e)}"]
    if kind == "starred":
        return [f"*self.{attr}, x = {draw(e)}", f"del self.{attr}[0], x"]
    if kind == "import":
        return [draw(st.sampled_from(["import torch.nn as tnn", "from .base import Mixin as M", "x: int"]))]
    if kind == "followed":
        callee = draw(st.sampled_from(["make_buf", "self._helper", "b.build", "helper"]))
        return [f"self.{attr} = {callee}({draw(e)}).to(n)", f"buf = {callee}(n)", f"self.{attr} = buf"]
    if kind == "unpacked":
        return [f"self.{attr}, x, *rest = make_layers({draw(e)})", f"y, self.{attr} = helper(n), {draw(e)}"]
    if kind == "nested":
        return [f"self.{attr}.part = {draw(e)}", f"self.{attr}.a.b = self.{attr}"]
    if kind == "delattr_loop":
        return block("for name in ('a', 'b'):", ["delattr(self, name)", f"delattr(self, '{attr}')"])
    if kind == "param_call":
        return [f"self.{attr} = {draw(st.sampled_from(['n', 'flag', 'runner', 'name']))}({draw(e)})"]
    return ["pass"]


@st.composite
def stmts(draw, scope: Scope, max_size: int = 4) -> list[str]:
    out: list[str] = []
    for s in draw(st.lists(stmt(scope), min_size=1, max_size=max_size)):
        out += s
    return out


@st.composite
def stmt(draw, scope: Scope) -> list[str]:
    if scope.depth >= 2:
        return draw(simple_stmt(scope))
    inner = scope.deeper()
    body = stmts(inner, 3)
    e = draw(expr(inner))
    kind = draw(
        st.sampled_from(
            ["simple", "simple", "simple", "if", "for", "while", "try", "return", "nested", "with", "match"]
            + ["one-line"]
            + (["break"] if scope.in_loop else [])
            + (["async"] if scope.in_async else [])
        )
    )
    if kind == "simple":
        return draw(simple_stmt(scope))
    if kind == "one-line":  # a compound statement with its body on the header's line
        one = simple_stmt(inner).filter(lambda lines: len(lines) == 1 and "\n" not in lines[0])
        small = "; ".join(draw(one)[0] for _ in range(draw(st.integers(1, 2))))
        head = draw(st.sampled_from([f"if {e}:", "for i in range(n):", "while flag:", "with lock:", "else"]))
        return [f"{head} {small}"] if head != "else" else ["if flag: pass", f"else: {small}"]
    if kind == "async":
        return block(draw(st.sampled_from(["async for q in self.ws:", "async with lock as (a, b):"])), draw(body))
    if kind == "if":
        out = block(f"if {e}:", draw(body))
        for _ in range(draw(st.integers(0, 2))):
            out += block(f"elif {draw(expr(inner))}:", draw(body))
        if draw(st.booleans()):
            out += block("else:", draw(body))
        return out
    if kind == "for":
        loop = scope.deeper(in_loop=True)
        head = draw(st.sampled_from(["for i in range(n):", "for self.ws in self.buf:", "for a, (b, *c) in x:"]))
        out = block(head, draw(stmts(loop, 3)))
        return out + (block("else:", draw(body)) if draw(st.booleans()) else [])
    if kind == "while":
        return block(f"while {e}:", [*draw(stmts(scope.deeper(in_loop=True), 3)), "break"])
    if kind == "try":
        out = block("try:", draw(body))
        handler = draw(st.sampled_from(["except ValueError as err:", "except (KeyError, b.Error):", "except:"]))
        out += block(handler, draw(body))
        if draw(st.booleans()):
            out += block("else:", draw(body))
        return out + (block("finally:", draw(body)) if draw(st.booleans()) else [])
    if kind == "return":
        return block(f"if {e}:", [draw(st.sampled_from(["return", "return None", f"return {draw(self_attr())}"]))])
    if kind == "nested":
        head = draw(st.sampled_from(["def helper(q={s}):", "async def helper(q, *, r={s}):", "def helper(*a, **k):"]))
        inner_scope = Scope(("q", "n"), 1, head.startswith("async"), False, scope.cls, scope.parent)
        deco = [draw(st.sampled_from(DECORATORS))] if draw(st.booleans()) else []
        first = ["nonlocal n", "n = 1"] if draw(st.booleans()) else []  # before any use of ``n``
        last = draw(
            st.sampled_from(["return q.y", "return self.ws", "pass", *(["yield q"] if "async" not in head else [])])
        )
        return [*deco, *block(head.format(s=draw(self_attr())), [*first, *draw(stmts(inner_scope, 2)), last])]
    if kind == "with":
        head = draw(
            st.sampled_from(
                [
                    "with open(p) as fh, ctx() as (self.ws):",
                    "with (\n{i}open(p) as fh,\n{i}ctx(),\n):",
                    "with lock:",
                ]
            )
        ).format(i=IND)
        return block(head, draw(body))
    if kind == "match":
        out = [f"match {e}:"]
        cases = draw(
            st.lists(
                st.sampled_from(
                    [
                        "case 1 | 2:",
                        "case b.Base.X | 'é':",
                        "case {'k': v, **rest}:",
                        "case b.Base(ws=1, buf=[_, *others]):",
                        "case [a, (b, c), *_] if a > n:",
                        "case str() as s:",
                    ]
                ),
                min_size=1,
                max_size=3,
            )
        )
        if draw(st.booleans()):
            cases.append("case _:")
        for c in cases:
            out += [IND + line for line in block(c, draw(body))]
        return out
    return ["break"]


# -- classes and modules ----------------------------------------------------------

INIT_HEADS = (
    "def __init__(self, n, flag=False, *args, skip_ws=False, **kw):",
    "def __init__(self, n: int = 4, /, name: 'str | None' = None, *, skip_buf: bool = False):",
    "def __init__(\n{i}self,\n{i}n,  # the size\n{i}runner: b.Base = None,\n{i}**kw,\n):",
)
METHOD_HEADS = (
    "def forward(self, n, *args, **kw):",
    "def _helper(self, n=1):",
    "async def run(self, n):",
    "def __call__(self, n, x=None):",
    "@property\ndef size(self, n=0):",
    "@staticmethod\ndef build(self, n):",
    "@classmethod\ndef make(cls, n, self=None):",
    "def __helper(self, n):",
    "def m(self, other: 'Child', n=1) -> 'b.Base':",
    "@size.setter\ndef size(self, n):",
    "def gen(self, n) -> Iterator[int]:",
)


@st.composite
def method(draw, head: str, cls: str, parent: str) -> list[str]:
    head = head.format(i=IND)
    *decos, line = head.split("\n") if head.startswith("@") else [head]
    scope = Scope(("n", "x", "self"), 0, line.startswith("async"), False, cls, parent)
    body = draw(stmts(scope, 4))
    if draw(st.booleans()):
        body = ["global G", "G = torch.empty(4)", *body]
    if draw(st.booleans()):
        body = ["'''Doc with ünïcode.'''", *body]
    if draw(st.booleans()):
        decos = [*decos, draw(st.sampled_from(DECORATORS))]
    return [*decos, *block(line, body)]


@st.composite
def class_def(draw, name: str, earlier: list[str]) -> list[str]:
    parent = draw(st.sampled_from([*earlier, *earlier, *BASES]))
    out = [draw(st.sampled_from(DECORATORS))] if draw(st.booleans()) else []
    body: list[str] = []
    if draw(st.booleans()):
        body += ["'doc'", f"{draw(st.sampled_from(ATTRS)).strip('_')}: torch.Tensor", "kind = 'é'"]
    if draw(st.booleans()):
        body += block("if TYPE_CHECKING:", ["ws: b.Base"])
    if draw(st.integers(0, 3)):
        body += draw(method(draw(st.sampled_from(INIT_HEADS)), name, parent))
    for head in draw(st.lists(st.sampled_from(METHOD_HEADS), max_size=2, unique=True)):
        body += ["", *draw(method(head, name, parent))]
    if draw(st.integers(0, 4)) == 0:
        body += block("class Inner(b.Base):", draw(method(INIT_HEADS[0], "Inner", "b.Base")))
    header = f"class {name}({parent}):" if parent != "object" else f"class {name}:"
    return [*out, *block(header, body)]


HEADER = [
    "import functools",
    "import os.path as osp, torch",
    "from typing import TYPE_CHECKING, Generic, TypeVar",
    "from dataclasses import dataclass",
    "from torch import nn",
    "from pkg import base as b",
    "from . import base",
    "from .. sub . mod import (\n{i}Wrapper,\n{i}get_buffer as gb,  # alias\n)",
    "T = TypeVar('T')",
    "_NAMES = ('ws', 'buf')",
]


def compiles(text: str) -> bool:
    """Python 3.10+ accepts ``text`` (a few drawn combinations it refuses, e.g. a walrus in a
    comprehension's iterable, are left out)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ``x is 1`` and the like: valid, with a warning
            compile(text, "mod.py", "exec")
    except SyntaxError:
        return False
    return True


FACTORY_HEADS = (
    "def make_buf(n, norm=nn.LayerNorm):",
    "def make_layers(n) -> Tuple[nn.Module, int]:",
    "def helper(n) -> 'torch.Tensor':",
)
FACTORY_RETURNS = (
    "torch.zeros(n)",
    "buf",
    "buf, 0, n",
    "make_buf(n)",
    "norm(n)",
    "copy.deepcopy(buf)",
    "_CACHE.setdefault(n, buf)",
    "None",
)


@st.composite
def factory(draw) -> list[str]:
    """A module-level helper returning (or not) what the semantic model follows."""
    body = ["buf = torch.empty(n)"]
    if draw(st.booleans()):
        body += block("if n:", [f"return {draw(st.sampled_from(FACTORY_RETURNS))}"])
    if draw(st.booleans()):
        body += ["_CACHE[n] = buf"]
    body += [f"return {draw(st.sampled_from(FACTORY_RETURNS))}"]
    return block(draw(st.sampled_from(FACTORY_HEADS)), body)


def modules() -> st.SearchStrategy[str]:
    """The source of one module that compiles."""
    return module_text().filter(compiles)


@st.composite
def module_text(draw) -> str:
    lines = [h.format(i=IND) for h in draw(st.lists(st.sampled_from(HEADER), max_size=4, unique=True))]
    if draw(st.booleans()):
        lines += ["", *block("def use(obj, *others, **kw):", ["return obj.ws, [o.buf for o in others]"])]
    if draw(st.booleans()):
        lines += ["", *draw(factory())]
    names: list[str] = []
    for name in draw(
        st.lists(
            st.sampled_from(["Base", "Child", "Grand", "Ünï", "Trt", "__Priv"]), min_size=1, max_size=3, unique=True
        )
    ):
        lines += ["", "", *draw(class_def(name, names))]
        names.append(name)
    if draw(st.booleans()):
        lines += ["", f"obj = {names[-1]}(4)", "obj.ws, obj.buf", "setattr(obj, 'n', 1)"]
    return render(lines, draw(st.sampled_from(["    ", "\t", "  "])), draw(st.sampled_from(["\n", "\r\n"])))


def render(lines: list[str], indent: str, newline: str) -> str:
    text = "\n".join(lines).replace(IND, indent) + "\n"
    return text.replace("\n", newline) if newline != "\n" else text
