"""Sizes of allocations made inside project functions: each followed call's arguments are bound to the
callee's parameters (positional, keyword, literal defaults, through calls in between), so the size folds, or
stays an expression in the caller's terms."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings

HELPERS = """
import torch
from torch import nn

ROWS = 1024

def make_buf(rows, width=8):
    return torch.zeros(rows, width, dtype=torch.int32)

def make_twice(n):
    return make_buf(n, width=2)

def forward_all(*args, **kwargs):
    return make_buf(*args, **kwargs)

def make_head(dim, vocab=100):
    return nn.Linear(dim, vocab, bias=False)
"""


def sizes(write_project, body: str, params: str = "self, max_bs, dim") -> dict:
    src = (
        HELPERS
        + f"""
class Parent:
    def __init__({params}):
{body}

    def run(self):
        return self.a

class Child(Parent):
    def run(self):
        return None
"""
    )
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI002",)))
    return {f.attribute: (f.estimated_bytes, f.size_expr) for f in res.findings}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("self.a = make_buf(ROWS)", (1024 * 8 * 4, None)),  # positional + the default width
        ("self.a = make_buf(width=2, rows=ROWS)", (1024 * 2 * 4, None)),  # keywords
        ("self.a = make_buf(max_bs)", (None, "max_bs × 32 B")),  # the caller's name, not the helper's `rows`
        ("self.a = make_twice(dim)", (None, "dim × 8 B")),  # two calls deep; a caller's parameter stays a name
        ("self.a = make_twice(self.cap)", (None, "cap × 8 B")),
        ("self.a = make_head(dim)", (None, "dim × 200 B")),  # a module's parameters, the default vocab bound
        ("self.a = self.build(ROWS)", (1024 * 4 * 4, None)),  # a method of the class
    ],
)
def test_followed_sizes_bind_the_call_arguments(write_project, line, expected):
    body = f"        {line}"
    if "self.build" in line:
        body += "\n\n    def build(self, n, width=4):\n        return make_buf(n, width)"
    assert sizes(write_project, body)["a"] == expected


def test_star_arguments_leave_the_defaults_unbound(write_project):
    # forward_all(ROWS, width=...) through **kwargs: `width` may be passed, so its default is not assumed
    got = sizes(write_project, "        self.a = forward_all(ROWS)")["a"]
    assert got == (None, "rows × width × 4 B")
