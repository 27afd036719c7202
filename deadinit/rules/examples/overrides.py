"""DI001 examples of issue 36's parts 3 and 4: layers a parent's helper builds and an override re-assigns
after its ``super()._init_layers()`` call; explicit keywords beside spreads (``*args, **kwargs,
weight_init="skip"``); a project factory whose returns differ by branch; and ``torch.cat`` /
``torch.stack`` / ``.clone()`` / ``.to(device)`` of new tensors."""

from __future__ import annotations

from deadinit.rules.base import Example


def _helper(override: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
from torch import nn


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self._init_layers(d)

    def _init_layers(self, d):
        self.decoder = nn.Linear(d, d)

    def forward(self, x):
        return self.decoder(x)


class DeformDecoder(Decoder):
    def _init_layers(self, d):
{override}
""",
    }


def _spread(keyword: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
from torch import nn


class Block(nn.Module):
    def __init__(self, d, weight_init="normal"):
        super().__init__()
        self.norm = None
        if weight_init != "skip":
            self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(x) if self.norm is not None else x


class OwnNormBlock(Block):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs, weight_init="{keyword}")
        self.norm = nn.LayerNorm(4)
""",
    }


_COPIES = {
    "pkg/__init__.py": "",
    "pkg/m.py": """
import torch
from torch import nn


def create_aa(kind, d):
    if kind == "blur":
        return nn.Linear(d, d)
    return nn.Identity()


def reuse(layer, d):
    if layer is not None:
        return layer
    return nn.Linear(d, d)


class Stem(nn.Module):
    def __init__(self, d, shared=None, device="cpu"):
        super().__init__()
        self.aa = create_aa("blur", d)
        self.shared = reuse(shared, d)
        self.freqs = torch.zeros(d)
        self.cache = self.freqs.clone()
        self.table = torch.cat([self.freqs, torch.ones(d)])
        self.steps = torch.stack([torch.zeros(d), torch.ones(d)])
        self.moved = torch.zeros(d).to(device)
        self.on_device = self.freqs.to(device)

    def forward(self, x):
        return self.aa(self.shared(x)), self.cache, self.table, self.steps, self.moved, self.on_device


class PlainStem(Stem):
    def __init__(self, d):
        super().__init__(d)
        self.aa = nn.Identity()
        self.shared = nn.Linear(d, d)
        self.cache = torch.zeros(d)
        self.table = torch.zeros(2 * d)
        self.steps = torch.zeros(2, d)
        self.moved = torch.zeros(d)
        self.on_device = self.freqs
""",
}

OVERRIDES_INVALID = (
    Example(
        _helper("        super()._init_layers(d)\n        self.decoder = nn.Linear(d, 2 * d)"),
        [("DI001", "DeformDecoder", "decoder")],
        note="the override calls the parent's helper first, then re-assigns what it built",
    ),
    Example(
        _spread("normal"),
        [("DI001", "OwnNormBlock", "norm")],
        note="weight_init='normal' binds beside *args/**kwargs: the parent's guard holds, its norm is replaced",
    ),
    Example(
        _COPIES,
        [("DI001", "PlainStem", a) for a in ("aa", "cache", "table", "steps", "moved")],
        note="a factory returning a layer or nn.Identity() by branch; clone, cat, stack and .to of new tensors",
    ),
)

OVERRIDES_VALID = (
    Example(
        _helper("        self.decoder = nn.Linear(d, 2 * d)\n        super()._init_layers(d)"),
        note="the override builds its own first and the parent's helper replaces it: the parent's is the live one",
    ),
    Example(
        _helper("        self.decoder = nn.Sequential(nn.Linear(d, d))"),
        note="the override never calls the parent's helper: the parent's layer is never built",
    ),
    Example(_spread("skip"), note="weight_init='skip' binds beside the spreads: the parent builds no norm"),
)
