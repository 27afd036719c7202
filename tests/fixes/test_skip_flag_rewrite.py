"""Adding the flag to a signature or a call keeps the layout of what is already there."""

import libcst as cst
import pytest

from deadinit.fixes.skip_flag.layout import fit_call, fit_params
from deadinit.fixes.skip_flag.rewrite import add_kwarg, add_param


@pytest.mark.parametrize(
    "before, after",
    [
        ("def f(self): pass", "def f(self, skip: bool = False): pass"),
        ("def f(self, a, b=1): pass", "def f(self, a, b=1, skip: bool = False): pass"),
        ("def f(\n    self,\n    a,\n): pass", "def f(\n    self,\n    a,\n    skip: bool = False,\n): pass"),
        ("def f(self, a,\n      b=1): pass", "def f(self, a,\n      b=1,\n      skip: bool = False): pass"),
        ("def f(self, *, a=1): pass", "def f(self, *, a=1, skip: bool = False): pass"),
        ("def f(self, *args): pass", "def f(self, *args, skip: bool = False): pass"),
        ("def f(self, a, **kw): pass", "def f(self, a, skip: bool = False, **kw): pass"),
        ("def f(self, *args, **kw): pass", "def f(self, *args, skip: bool = False, **kw): pass"),
    ],
)
def test_add_param(before, after):
    func = cst.parse_statement(before)
    new = func.with_changes(params=add_param(func.params, "skip"))
    assert cst.Module(body=[new]).code.rstrip("\n") == after
    compile(after, "x", "exec")


@pytest.mark.parametrize(
    "before, after",
    [
        ("super().__init__()", "super().__init__(skip=True)"),
        ("super().__init__(a, b)", "super().__init__(a, b, skip=True)"),
        ("super().__init__(\n    a, b\n)", "super().__init__(\n    a, b, skip=True\n)"),
        ("super().__init__(\n    a,\n    b,\n)", "super().__init__(\n    a,\n    b,\n    skip=True,\n)"),
        ("P.__init__(self, a, **kw)", "P.__init__(self, a, skip=True, **kw)"),
    ],
)
def test_add_kwarg(before, after):
    call = cst.parse_expression(before)
    assert cst.Module(body=[]).code_for_node(add_kwarg(call, "skip", "True")) == after


def test_long_lines_are_laid_out_like_black():
    call = add_kwarg(
        cst.parse_expression("super().__init__(runner, skip_prefill, kv_indptr_buf)"),
        "skip_init_workspace_buffer",
        "True",
    )
    code = cst.Module(body=[]).code_for_node(fit_call(call, 8, 60, "    "))
    assert code == (
        "super().__init__(\n    runner,\n    skip_prefill,\n    kv_indptr_buf,\n    skip_init_workspace_buffer=True,\n)"
    )
    short = cst.Module(body=[]).code_for_node(fit_call(call, 8, 120, "    "))
    assert short == "super().__init__(runner, skip_prefill, kv_indptr_buf, skip_init_workspace_buffer=True)"
    func = cst.parse_statement("def __init__(self, runner, skip_prefill=False, kv_indptr_buf=None):\n    pass\n")
    func = func.with_changes(params=add_param(func.params, "skip_init_decode_wrapper"))
    hugged = cst.Module(body=[fit_params(func, 4, 100, "    ")]).code
    assert hugged.startswith(
        "def __init__(\n    self, runner, skip_prefill=False, kv_indptr_buf=None, "
        "skip_init_decode_wrapper: bool = False\n):\n"
    )
