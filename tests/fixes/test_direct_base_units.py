"""direct-base pieces: folding, parameter substitution, renames, nested ancestors, imports, undefined names."""

import textwrap

import libcst as cst
import pytest

from deadinit.api.check import run_check
from deadinit.fixes.direct_base.imports import ImportSpec, add_imports, remove_unused
from deadinit.fixes.direct_base.names import free_after
from deadinit.fixes.direct_base.rewrite import rewrite_class
from deadinit.fixes.direct_base.source import undefined_names
from deadinit.model.settings import Settings

BASE = """
class Base:
    def __init__(self, dev=None):
        self.dev = dev

    def forward(self, x):
        return self.run(x)

    def run(self, x):
        raise NotImplementedError
"""


def rewrite(write_project, files, cls="pkg.c.C"):
    files = {"pkg/__init__.py": "", "pkg/base.py": BASE, **{k: textwrap.dedent(v) for k, v in files.items()}}
    root = write_project(files)
    res = run_check([str(root / "pkg")], Settings())
    out = rewrite_class(res, cls)
    assert out.ok, (out.blockers, out.nothing_to_do)
    return out


def test_literal_arguments_and_defaults_fold_branches(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/p.py": """
        import torch
        from pkg.base import Base

        class P(Base):
            def __init__(self, n, skip=False, fresh=False):
                super().__init__(None)
                self.skip = skip
                if fresh:
                    self.idx = torch.ones(n)
                else:
                    self.idx = torch.zeros(n)
                if not self.skip:
                    self.extra = torch.empty(n)
                if self.__class__ is P:
                    self.only_p = torch.empty(1)
            def run(self, x):
                return self.extra
        """,
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def __init__(self, n):
                super().__init__(n, skip=True)

            def run(self, x):
                return self.idx[x]
        """,
        },
    )
    assert "        super().__init__(None)\n        self.idx = torch.zeros(n)\n" in out.new
    for gone in ("fresh", "torch.ones", "extra", "only_p", "__class__", "if "):
        assert gone not in out.new, gone
    assert "import torch" in out.new and "from pkg.base import Base" in out.new
    assert "from pkg.p import P" not in out.new


def test_complex_arguments_are_bound_once_and_locals_renamed(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/p.py": """
        import torch
        from pkg.base import Base

        class P(Base):
            def __init__(self, n):
                size = n + 1
                self.idx = torch.zeros(size)
                self.more = torch.zeros(n)
                self.ws = torch.empty(1000)
            def run(self, x):
                return self.ws
        """,
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def __init__(self, m):
                size = 3
                super().__init__(m * 2)
                self.size = size

            def run(self, x):
                return self.idx[x] + self.more[x] + self.size
        """,
        },
    )
    body = out.new.split("def __init__(self, m):\n")[1].split("\n\n")[0]
    assert body == textwrap.indent(
        textwrap.dedent("""\
        size = 3
        n = m * 2
        size_ = n + 1
        self.idx = torch.zeros(size_)
        self.more = torch.zeros(n)
        self.size = size"""),
        "        ",
    )


def test_two_dropped_ancestors_are_inlined_in_order(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/q.py": """
        import torch
        from pkg.base import Base

        class Q(Base):
            def __init__(self, dev, big):
                super().__init__(dev)
                self.q_idx = torch.zeros(4, device=dev)
                self.q_ws = torch.empty(big)
            def run(self, x):
                return self.q_ws
        """,
            "pkg/p.py": """
        import torch
        from pkg.q import Q

        class P(Q):
            def __init__(self, dev):
                super().__init__(dev, 1 << 20)
                self.p_idx = torch.zeros(2, device=dev)
                self.p_ws = torch.empty(1 << 20)
            def run(self, x):
                return self.p_ws
            def helper(self, x):
                return self.q_idx[x]
        """,
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def __init__(self, device):
                super().__init__(device)

            def run(self, x):
                return self.helper(x) + self.p_idx[x]
        """,
        },
    )
    assert out.reuse.dropped == ["pkg.p.P", "pkg.q.Q"] and out.reuse.suggestion == "pkg.base.Base"
    body = out.new.split("def __init__(self, device):\n")[1].split("\n\n")[0]
    assert body == textwrap.indent(
        textwrap.dedent("""\
        super().__init__(device)
        self.q_idx = torch.zeros(4, device=device)
        self.p_idx = torch.zeros(2, device=device)"""),
        "        ",
    )
    assert "    def helper(self, x):\n        return self.q_idx[x]\n" in out.new
    assert "class C(Base):" in out.new and "import torch\n" in out.new


def test_class_without_init_gets_one_with_the_parent_signature(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/p.py": """
        import torch
        from pkg.base import Base

        WIDTH = 8

        class P(Base):
            def __init__(self, n, width=WIDTH):
                self.idx = torch.zeros(n, width)
                self.ws = torch.empty(1000)
            def run(self, x):
                return self.ws
        """,
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def run(self, x):
                return self.idx[x]
        """,
        },
    )
    assert "    def __init__(self, n, width=WIDTH):\n        self.idx = torch.zeros(n, width)\n" in out.new
    assert "from pkg.p import WIDTH" in out.new


def test_class_attributes_and_type_checking_imports_move(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/p.py": """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        import torch
        from .base import Base
        if TYPE_CHECKING:
            from pkg.layer import Layer

        class P(Base):
            capped: bool = True
            unused_flag = 1
            def __init__(self, n):
                self.idx = torch.zeros(n)
                self.ws = torch.empty(1000)
            def run(self, x):
                return self.ws
            def _scale(self, layer: Layer):
                return layer.k * self.capped
        """,
            "pkg/layer.py": "class Layer:\n    k = 1\n",
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def __init__(self, n):
                super().__init__(n)

            def run(self, x):
                return self.idx[x] * self._scale(x)
        """,
        },
    )
    assert "class C(Base):\n    capped: bool = True\n" in out.new
    assert "unused_flag" not in out.new
    assert "if TYPE_CHECKING:\n    from pkg.layer import Layer\n" in out.new
    assert "from typing import TYPE_CHECKING" in out.new and "from pkg.base import Base" in out.new
    assert "def _scale(self, layer: Layer):" in out.new
    assert undefined_names(out.new) == []


def test_add_imports_merges_into_parenthesized_list():
    src = "from a import (\n    x,\n    y,\n)\nfrom b import z\n\nX = 1\n"
    out = add_imports(src, [ImportSpec("a", "w", None), ImportSpec("b", "v", None), ImportSpec("c.d", None, "cd")])
    assert out == "from a import (\n    w,\n    x,\n    y,\n)\nfrom b import v, z\nimport c.d as cd\n\nX = 1\n"


def test_add_imports_keeps_sorted_imports_sorted():
    src = "import os\n\nfrom pkg.b import B\nfrom pkg.d import y, x\n\nX = 1\n"
    specs = [ImportSpec("pkg.a", "A", None), ImportSpec("pkg.c", "C", None), ImportSpec("pkg.d", "z", None)]
    out = add_imports(src, specs)
    # a new module in its sorted place (the first of the group takes the blank line); names where
    # they were not sorted go at the end
    assert (
        out
        == "import os\n\nfrom pkg.a import A\nfrom pkg.b import B\nfrom pkg.c import C\nfrom pkg.d import y, x, z\n\nX = 1\n"
    )
    unsorted = "from pkg.d import D\nfrom pkg.b import B\n\nX = 1\n"
    assert add_imports(unsorted, [ImportSpec("pkg.c", "C", None)]) == (
        "from pkg.d import D\nfrom pkg.b import B\nfrom pkg.c import C\n\nX = 1\n"
    )


@pytest.mark.parametrize(
    "body, free",
    [
        ("x = 1\nsuper().__init__(a)\nprint(x)\n", False),  # bound before, read after: a clash
        ("super().__init__(a)\nif a:\n    x = 3\n    print(x)\n", True),  # bound again before its read
        ("super().__init__(a)\nprint(x)\nx = 2\n", False),  # read first: a global or builtin
        ("super().__init__(x)\nx = 2\n", False),  # passed to the call
        ("super().__init__(a)\nx = x + 1\n", False),  # reads itself
        ("super().__init__(a)\nx = 1\nf = lambda: x\n", True),
        ("super().__init__(a)\nx = 1\ndef g():\n    return x\n", False),  # a nested scope
    ],
)
def test_free_after(body, free):
    func = cst.parse_statement("def __init__(self, a):\n" + textwrap.indent(body, "    "))
    call = next(st for st in func.body.body if "super()" in cst.Module([]).code_for_node(st))
    assert ("x" in free_after(func, call)) == free


def test_remove_unused_drops_only_unused_names():
    src = "from a import (\n    P,\n    Q,\n)\nfrom b import R\n\nclass C(Q):\n    pass\n"
    assert remove_unused(src, {"P", "R"}) == "from a import (\n    Q,\n)\n\nclass C(Q):\n    pass\n"
    assert remove_unused(src, {"Q"}) == src


def test_undefined_names():
    src = (
        "import os\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x import T\n"
        "def f(a: T):\n    return os.sep, missing, [q for q in a], __name__\n"
    )
    assert undefined_names(src) == [("missing", 6)]


def test_parent_in_the_same_module(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/c.py": """
        import torch
        from pkg.base import Base

        class P(Base):
            def __init__(self, n):
                self.idx = torch.zeros(n)
                self.ws = torch.empty(1000)
            def run(self, x):
                return self.ws
            def pick(self, x):
                return self.idx[x]

        class C(P):
            def __init__(self, n):
                super().__init__(n)

            def run(self, x):
                return self.pick(x)
        """
        },
    )
    assert "class P(Base):" in out.new and "class C(Base):" in out.new
    assert out.new.count("def pick(self, x):") == 2
    assert out.new.count("import torch") == 1 and undefined_names(out.new) == []


def test_helpers_a_subclass_reaches_are_copied_too(write_project):
    out = rewrite(
        write_project,
        {
            "pkg/p.py": """
        import torch
        from pkg.base import Base

        class P(Base):
            def __init__(self, n):
                self.idx = torch.zeros(n)
                self.ws = torch.empty(1000)
            def run(self, x):
                return self.ws
            def only_for_d(self, x):
                return self.idx[x]
        """,
            "pkg/c.py": """
        from pkg.p import P

        class C(P):
            def __init__(self, n):
                super().__init__(n)

            def run(self, x):
                return self.idx[x]

        class D(C):
            def run(self, x):
                return self.only_for_d(x)
        """,
        },
    )
    assert "    def only_for_d(self, x):\n" in out.new
