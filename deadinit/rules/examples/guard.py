"""DI002 examples of guards as real code writes them: a copy of the configuration with a field
changed, passed up by keyword; a collection emptied before the parent builds a container over it;
an ``assert`` after ``super().__init__`` that contradicts a parent's guard.  Each valid example
has an invalid twin that differs in one thing and keeps the finding."""

from __future__ import annotations

from deadinit.rules.base import Example

_PARENT = """
import copy
import dataclasses
import torch
from torch import nn
class Attention(nn.Module):
    def __init__(self, config, head_dim=64):
        super().__init__()
        self.head_dim = head_dim
        self.proj = nn.Linear(config.hidden, config.hidden)
        if config.q_rank is not None:
            self.q_down = nn.Linear(config.hidden, config.q_rank)
        self.ids = config.ids if hasattr(config, "ids") else [0, 1]
        self.mergers = nn.ModuleList([nn.Linear(8, 8) for _ in range(len(self.ids))])
        if head_dim == 512:
            self.wide_rope = torch.empty(4096, 512)
    def forward(self, x):
        return self.proj(x), self.q_down, self.mergers, self.wide_rope
    def out_features(self):
        return self.proj.weight.shape[0]
class Dense(Attention):
    def __init__(self, config, head_dim=64):
"""
_CHILD_FORWARD = """    def forward(self, x):   # overrides the only reader
        return self.proj(x), self.out_features()
"""


def _project(init: str) -> dict[str, str]:
    return {"pkg/__init__.py": "", "pkg/m.py": _PARENT + init + _CHILD_FORWARD}


def _example(init: str, note: str, *attrs: str) -> Example:
    return Example(_project(init), [("DI002", "Dense", a) for a in attrs], note=note)


_COPIED = """        cfg = copy.copy(config)
        object.__setattr__(cfg, "{field}", None)
        cfg.ids = []
        super().__init__(config=cfg)
"""
_ASSERTED = """        cfg = dataclasses.replace(config, q_rank=None, ids=[])
        super().__init__(cfg, head_dim)
        assert self.head_dim {test}
"""

GUARD_VALID = (
    _example(
        _COPIED.format(field="q_rank"),
        "a copy of the config with q_rank set to None and ids emptied, passed by keyword: "
        "`if config.q_rank is not None:` is false, the ModuleList is empty",
    ),
    _example(
        "        cfg = dataclasses.replace(config, q_rank=None, ids=[])\n        super().__init__(config=cfg)\n",
        "dataclasses.replace(config, q_rank=None, ids=[]) decides the guard and empties the container",
    ),
    _example(
        _ASSERTED.format(test="== 128"),
        "an assert after super().__init__ contradicts `if head_dim == 512:`",
    ),
)
GUARD_INVALID = (
    _example(
        _COPIED.format(field="hidden"),
        "the copy changes another field: `if config.q_rank is not None:` stays open",
        "q_down",
    ),
    _example(
        "        cfg = dataclasses.replace(config, q_rank=None, ids=[0])\n        super().__init__(config=cfg)\n",
        "a collection changed but not emptied still builds the container",
        "mergers",
    ),
    _example(
        _ASSERTED.format(test="!= 128"),
        "an assert that does not contradict the guard decides nothing",
        "wide_rope",
    ),
)
