"""What every family of ``idiom_gen`` builds from: the hierarchy record and random reads."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Hier:
    family: str
    variant: str  # the drawn variant, for the per-construct figures
    files: dict  # relative path -> source
    classes: list  # class names, "Root" first
    config: bool = False  # every class is built as C(Config())
    holders: tuple = ()  # (module, class) of other project classes holding allocations
    lists: bool = False  # allocations in lists stored in attributes
    # other inputs a caller could give (another default of ``Config``, other arguments of the subclass): the
    # files that differ, each executed too; a guard no such world makes true is decided by the code
    worlds: list = field(default_factory=list)


def reads(rng: random.Random, attrs: list[str]) -> str:
    """A method body reading a random subset of ``attrs`` (``self.x``, or ``getattr(self, "x")``)."""
    picked = [a for a in attrs if rng.random() < 0.4]
    if not picked:
        return "        return None\n"
    return "        return (" + "".join(rng.choice([f"self.{a}, ", f'getattr(self, "{a}"), ']) for a in picked) + ")\n"


def app(rng: random.Random, attrs: list[str]) -> str:
    """``app.py``: functions reading one attribute each of any instance (``obj.x``, ``getattr(obj, "x")``
    or ``getattr(obj, "x", None)``)."""
    out = ""
    for k, a in enumerate(a for a in attrs if rng.random() < 0.2):
        read = rng.choice([f"obj.{a}", f'getattr(obj, "{a}")', f'getattr(obj, "{a}", None)'])
        out += f"\n\ndef use_{k}(obj):\n    return {read}\n"
    return out or "\n"
