"""Unit tests of what the idiom differential's runtime truth adds (``torch_standin``, ``runtime_oracle``,
``idiom_differential``): nn.Module's walks read what torch's do, a view uses the buffer it views, the
allocations of a list belong to its attribute, another holder's reads use what it holds, an empty
container is not runtime-dead, and a condition the code decides makes a conditional finding false."""

from types import SimpleNamespace

import pytest
from idiom_differential import _empty_triples, _judge_decided
from idiom_gen import FAMILIES, generate
from runtime_oracle import Instance, observe

_WALKER = """import torch
from torch import nn


class Root(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4)
        self.weight = nn.Parameter(torch.zeros(4))
        self.register_buffer("scale", torch.zeros(4))
        self.plain = torch.zeros(4)

    def walk(self):
        return {WALK}
"""


def _run(tmp_path, files: dict, classes=("Root",), **kw) -> dict[str, Instance]:
    pkg = tmp_path / f"p{len(list(tmp_path.iterdir()))}"
    pkg.mkdir()
    for rel, src in {"__init__.py": "", "app.py": "\n", **files}.items():
        (pkg / rel).write_text(src)
    return observe(pkg, list(classes), **kw)


def _read_attrs(inst: Instance) -> set[str]:
    return {b.attr for b in inst.allocs if id(b) in inst.used and b.attr}


@pytest.mark.parametrize(
    ("walk", "reads"),
    [
        ("list(self.named_children())", {"proj"}),
        ("list(self._modules.values())", {"proj"}),
        ("list(self.modules())", {"proj"}),
        ("list(self.parameters())", {"proj", "weight"}),
        ("list(self.buffers())", {"scale"}),
        ("self.state_dict()", {"proj", "weight", "scale"}),
        ("self.apply(lambda m: m)", {"proj"}),
    ],
)
def test_module_walks_read_what_torch_walks_yield(tmp_path, walk, reads):
    inst = _run(tmp_path, {"base.py": _WALKER.replace("{WALK}", walk)})["Root"]
    assert _read_attrs(inst) == reads


def test_a_view_uses_the_buffer_and_another_holder_reads_it_elsewhere(tmp_path):
    files = {
        "base.py": "import torch\n\nfrom .helpers import Step\n\n\nclass Root:\n    def __init__(self):\n"
        "        self.kv = torch.zeros(4)\n        self.step = Step(self.kv[0])\n\n"
        "    def forward(self):\n        return self.step.get()\n",
        "helpers.py": "class Step:\n    def __init__(self, buf):\n        self.buf = buf\n\n"
        "    def get(self):\n        return self.buf\n",
    }
    inst = _run(tmp_path, files, holders=(("helpers", "Step"),))["Root"]
    (kv,) = inst.allocs  # the view is not an allocation
    assert id(kv) in inst.used and id(kv) not in inst.read


def test_a_list_refilled_element_by_element_belongs_to_its_attribute(tmp_path):
    files = {
        "base.py": "import torch\n\n\nclass Root:\n    def __init__(self):\n"
        "        self.steps = [torch.zeros(2) for _ in range(2)]\n\n    def forward(self):\n        return None\n\n\n"
        "class Mid(Root):\n    def __init__(self):\n        super().__init__()\n"
        "        for i in range(2):\n            self.steps[i] = torch.empty(2)\n",
    }
    inst = _run(tmp_path, files, classes=("Root", "Mid"), lists=True)["Mid"]
    assert (
        sorted((b.site, b.attr) for b in inst.allocs)
        == [("Mid.__init__", "steps")] * 2 + [("Root.__init__", "steps")] * 2
    )
    assert not inst.used


def test_an_empty_container_is_not_runtime_dead():
    inst = Instance("C", ["C", "Root"])
    inst.allocs = [SimpleNamespace(site="Root.__init__", attr="m", size=0, kind="module_list")]
    assert _empty_triples({"C": inst}) == {("C", "Root", "m")}
    inst.allocs.append(SimpleNamespace(site="Root.__init__", attr="m", size=2, kind="module_list"))
    assert _empty_triples({"C": inst}) == set()


def test_a_conditional_finding_no_world_allocates_is_false():
    finding = SimpleNamespace(code="DI001", cls="p.C", parent="p.Root", attribute="x", extra={"conditional": True})
    result, made = SimpleNamespace(findings=[finding]), Instance("C")
    made.allocs = [SimpleNamespace(site="Root.__init__", attr="x")]
    for worlds, wrong in (([{"C": Instance("C")}], 1), ([{"C": Instance("C")}, {"C": made}], 0)):
        v = SimpleNamespace(false_positives=[])
        _judge_decided(result, worlds, v)
        assert len(v.false_positives) == wrong


def test_every_family_is_generated_in_turn_and_is_repeatable():
    assert [generate(i).family for i in range(len(FAMILIES))] == list(FAMILIES)
    assert generate(40).files == generate(40).files
