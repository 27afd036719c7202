"""What the summaries record for sizes and for reads on modules, the same through both adapters."""

import pytest

from deadinit.frontends.parse import FileError, summarize_source
from deadinit.model.settings import Settings

SOURCE = """
import torch
import pkg.layers
import pkg.ops as ops
from pkg import utils
from pkg.models.llama import Config

def on_modules():
    return pkg.layers.mlp, ops.gemm, utils.helper

def shadowed(ops):
    for pkg in ops:
        return pkg.layers, ops.gemm

class Model(torch.nn.Module):
    def __init__(self, config: Config, hidden: "Config", other: int | None = None, *args, **kw):
        super().__init__()
        width = 4 * config.hidden_size
        self.proj = torch.nn.Linear(config.hidden_size, width, bias=False)
        self.block = Block(config, *args, scale=2)
        self.buf = torch.empty(width, dtype=torch.bfloat16)
        self.scale = torch.nn.Parameter(torch.ones(width))

    def forward(self, x):
        return pkg.layers.norm(x)
"""


@pytest.fixture(params=["ast", "cst"])
def summary(request):
    s = summarize_source(SOURCE.encode(), "m.py", "pkg.m", False, Settings(), adapter=request.param)
    assert not isinstance(s, FileError), s
    return s


def test_both_adapters_agree():
    a, c = (summarize_source(SOURCE.encode(), "m.py", "pkg.m", False, Settings(), adapter=x) for x in ("ast", "cst"))
    assert a == c


def test_an_import_statement_reads_no_attribute(summary):
    assert not [a for a in summary.accesses if a.line in (3, 4, 5, 6)]


def test_attributes_of_imported_modules_are_marked(summary):
    got = {(a.receiver, a.attr, a.in_function): a.on_module for a in summary.accesses}
    assert got[("pkg", "layers", "on_modules")] is True
    assert got[("pkg.layers", "mlp", "on_modules")] is True
    assert got[("ops", "gemm", "on_modules")] is True
    assert got[("pkg", "layers", "forward")] is True
    # ``from pkg import utils`` may bind anything: not known to be a module here
    assert got[("utils", "helper", "on_modules")] is False
    # a parameter or loop variable with a module's name is an object
    assert got[("pkg", "layers", "shadowed")] is False
    assert got[("ops", "gemm", "shadowed")] is False


def test_parameters_keep_the_class_their_annotation_names(summary):
    init = next(c for c in summary.classes if c.name == "Model").methods["__init__"]
    assert [(p.name, p.annotation) for p in init.params] == [
        ("config", "Config"),
        ("hidden", "Config"),
        ("other", "int"),  # Optional: the one class besides None
        ("args", None),
        ("kw", None),
    ]


def test_allocations_keep_their_constructor_arguments_with_locals_inlined(summary):
    flow = {st.attr: st for st in next(c for c in summary.classes if c.name == "Model").methods["__init__"].init_flow}
    width = ("bin", "*", ("const", 4), ("dotted", "config.hidden_size"))
    proj = flow["proj"].alloc
    assert proj.args == (("dotted", "config.hidden_size"), width)
    assert proj.kwargs == (("bias", ("const", False)),)
    block = flow["block"].alloc
    assert block.args == (("name", "config"),)  # nothing after *args: its position is unknown
    assert block.kwargs == (("scale", ("const", 2)),)
    assert flow["buf"].alloc.shape == (width,)
    assert flow["scale"].alloc.kind == "parameter" and flow["scale"].alloc.element.shape == (width,)
