"""Skipping the construction of a registered layer with parameters changes a seeded model's initial
weights: the fix says so (evidence, or appended to an unsafe reason); ``random_stream_unsafe`` makes
such a fix unsafe."""

from deadinit.analysis.fix_safety.fix_level import RANDOM_STREAM
from deadinit.api.check import run_check
from deadinit.model.settings import Settings

SOURCE = """
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.proj = nn.Linear(c, c)
        self.act = nn.ReLU()
        self.extra = nn.Linear(c, c)

    def forward(self, x):
        return self.act(self.proj(x)) + self.extra(x)


class Light(Block):
    def __init__(self, c):
        super().__init__(c)
        self.proj = nn.Linear(c, 2 * c)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.proj(x))
"""


def _findings(write_project, settings):
    root = write_project({"app/__init__.py": "", "app/m.py": SOURCE})
    result = run_check([str(root / "app")], settings)
    return {f.attribute: f for f in result.findings}


def test_the_note_is_evidence_of_a_safe_fix_and_part_of_an_unsafe_reason(write_project):
    found = _findings(write_project, Settings())
    note = RANDOM_STREAM.format(attr="proj")
    assert found["proj"].fix_safety == "safe"
    assert note in [e.text for e in found["proj"].evidence]
    assert found["extra"].fix_safety == "unsafe"
    assert found["extra"].fix_safety_reason.endswith(RANDOM_STREAM.format(attr="extra"))
    assert "act" not in found  # a layer without parameters wastes nothing: no finding, no note


def test_the_setting_makes_it_unsafe(write_project):
    found = _findings(write_project, Settings(random_stream_unsafe=True))
    assert (found["proj"].fix_safety, found["proj"].fix_safety_reason) == ("unsafe", RANDOM_STREAM.format(attr="proj"))
