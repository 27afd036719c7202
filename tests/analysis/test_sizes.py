"""Size estimates: layers from their arguments, project classes summed through their ``__init__``,
tensors from shape and dtype; numbers where the project fixes them, expressions otherwise."""

import pytest

from deadinit.analysis.sizes.size_model import MAX_DEPTH, SizeModel
from deadinit.analysis.sizes.symbolic import Poly, Size, rank_key
from deadinit.analysis.sizes.values import Context
from deadinit.api.check import run_check
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo

HEAD = """
import torch
from torch import nn
from transformers import PretrainedConfig

MAX_TOKENS = 1024

class Config:
    def __init__(self, hidden_size: int = 64, vocab_size: int = 1000, layers: int = 3):
        self.hidden_size = hidden_size
        self.vocab_size = vocab_size
        self.layers = layers

class Base(nn.Module):
    def forward(self, x):
        return x
"""


def sizes(write_project, parent_init: str, params: str = "self, config: Config", **settings):
    """{attribute: (estimated_bytes, size_expr)} for what ``Parent.__init__`` allocates and ``Child`` never reads."""
    src = (
        HEAD
        + f"""
class Parent(Base):
    def __init__({params}):
        super().__init__()
{parent_init}

class Child(Parent):
    pass
"""
    )
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI002",), **settings))
    return {f.attribute: (f.estimated_bytes, f.size_expr) for f in res.findings}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # nn.Linear has a bias by default: in * out + out parameters, 2 bytes each
        ("self.a = nn.Linear(config.hidden_size, 10)", (64 * 10 + 10) * 2),
        ("self.a = nn.Linear(64, 10, bias=False)", 64 * 10 * 2),
        ("self.a = nn.Linear(in_features=64, out_features=10, bias=False, dtype=torch.float32)", 64 * 10 * 4),
        ("self.a = nn.Embedding(config.vocab_size, config.hidden_size)", 1000 * 64 * 2),
        ("self.a = nn.Conv2d(3, 8, 3)", (3 * 8 * 9 + 8) * 2),
        ("self.a = nn.Conv2d(8, 8, (3, 1), groups=4, bias=False)", (2 * 8 * 3) * 2),
        ("self.a = nn.LayerNorm(config.hidden_size)", 2 * 64 * 2),
        ("self.a = nn.RMSNorm(config.hidden_size)", 64 * 2),
        ("self.a = torch.empty(MAX_TOKENS, config.hidden_size, dtype=torch.bfloat16)", 1024 * 64 * 2),
        # a parameter holds the tensor it is given
        ("self.a = nn.Parameter(torch.zeros(config.hidden_size))", 64 * 4),
        # a local variable's value is what the size is made of
        ("n = 2 * config.hidden_size\n        self.a = torch.zeros(n, dtype=torch.int32)", 128 * 4),
        # a container: an element times the number of elements
        ("self.a = nn.ModuleList([nn.Linear(4, 4) for _ in range(config.layers)])", 3 * 20 * 2),
        # a join weighs its parts together; a copy of an attribute that holds a new tensor, that tensor
        ("self.a = torch.cat([torch.zeros(8), torch.ones(8, dtype=torch.int64)])", 8 * 4 + 8 * 8),
        ("n = 2 * config.hidden_size\n        self.a = torch.stack([torch.zeros(n) for _ in range(3)])", 3 * 128 * 4),
        ("self.b = torch.zeros(16)\n        self.a = self.b.clone()", 16 * 4),
    ],
)
def test_known_sizes(write_project, line, expected):
    assert sizes(write_project, "        " + line)["a"] == (expected, None)


def test_parameter_bytes_is_a_setting(write_project):
    got = sizes(write_project, "        self.a = nn.Linear(64, 10, bias=False)", parameter_bytes=4)
    assert got["a"] == (64 * 10 * 4, None)


def test_a_config_from_outside_the_project_leaves_an_expression(write_project):
    got = sizes(
        write_project,
        "        self.a = nn.Linear(config.hidden_size, config.vocab_size, bias=False)\n"
        "        self.b = torch.empty(config.max_batch, config.hidden_size, dtype=self.dtype)",
        params="self, config: PretrainedConfig",
    )
    assert got["a"] == (None, "hidden_size × vocab_size × 2 B")
    assert got["b"] == (None, "hidden_size × max_batch × sizeof(dtype) B")


def test_project_classes_are_summed_through_their_init_chain(write_project):
    src = (
        HEAD
        + """
class Block(Base):
    def __init__(self, config: Config, width):
        super().__init__()
        self.up = nn.Linear(config.hidden_size, width, bias=False)
        self.table = torch.empty(width, dtype=torch.uint8)
        self.name = "block"

class WideBlock(Block):
    def __init__(self, config: Config):
        super().__init__(config, 4 * config.hidden_size)
        self.down = nn.Linear(4 * config.hidden_size, config.hidden_size, bias=False)

class Loop(Base):
    def __init__(self, config: Config):
        super().__init__()
        self.again = Loop(config)

class Parent(Base):
    def __init__(self, config: Config, n):
        super().__init__()
        self.block = WideBlock(config)
        self.unknown = Block(config, n)
        self.loop = Loop(config)

class Child(Parent):
    pass
"""
    )
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings(select=("DI002",)))
    got = {f.attribute: (f.estimated_bytes, f.size_expr) for f in res.findings}
    wide = 64 * 256 * 2 + 256 + 256 * 64 * 2
    assert got["block"] == (wide, None)
    assert got["unknown"] == (None, "n × 129 B")  # 64 * n * 2 + n
    assert got["loop"] == (None, None)  # a class built from itself: cut, unknown


def test_polynomial_text_and_ranking():
    h, v = Poly.symbol("hidden_size"), Poly.symbol("vocab_size")
    weight = h.mul(v).scale(2)
    assert weight.text("B") == "hidden_size × vocab_size × 2 B"
    assert weight.add(v.scale(2)).text("B") == "(hidden_size × vocab_size + vocab_size) × 2 B"
    assert Size(Poly.const(4096), partial=True).expression() == "≥ 4 KiB"
    assert Size(Poly.const(4096)).expression() is None
    keys = [
        rank_key(None, None),
        rank_key(None, v.scale(2)),
        rank_key(10, None),
        rank_key(None, weight),
        rank_key(99, None),
    ]
    assert sorted(keys) == [
        rank_key(99, None),
        rank_key(10, None),
        rank_key(None, weight),
        rank_key(None, v.scale(2)),
        (2,),
    ]


def test_a_class_size_does_not_depend_on_which_class_asked_first(write_project):
    """Nested constructions are weighed to a bounded depth: a class weighed deep inside another
    must not hand its truncated size to a later question about it (``explain`` asks one class)."""
    levels = MAX_DEPTH + 3
    src = "import torch\n" + "".join(
        f"class L{i}:\n    def __init__(self):\n        self.part = L{i + 1}()\n" for i in range(levels)
    )
    src += f"class L{levels}:\n    def __init__(self):\n        self.buf = torch.zeros(1024, dtype=torch.uint8)\n"
    root = write_project({"pkg/__init__.py": "", "pkg/m.py": src})
    res = run_check([str(root)], Settings())
    index = ProjectIndex(res.index.modules.values())

    def weigh(model: SizeModel, cls: str) -> Size | None:
        return model.size(AllocInfo("maybe-class", callee=cls), Context("pkg.m", {}, {}, {}, {}))

    alone = weigh(SizeModel(index, Settings()), "L4")
    warmed = SizeModel(index, Settings())
    weigh(warmed, "L0")
    assert weigh(warmed, "L4") == alone
    assert alone is not None and alone.poly.number == 1024
