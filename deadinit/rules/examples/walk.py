"""DI002 examples of ``nn.Module``'s own walks (``semantics.walks``): a reachable
``self.named_children()``, ``self.parameters()`` or ``self.state_dict()`` reads every
registered attribute of the kinds it visits, and nothing else; so does a walk over another
object that may hold the class (``dict(block.named_children())`` in a function)."""

from __future__ import annotations

from deadinit.rules.base import Example


def _walking(walk: str, scratch: bool = True, outside: str = "") -> dict[str, str]:
    plain = "        self.scratch = torch.empty(d, d)\n" if scratch else ""
    return {
        "pkg/dump.py": outside,
        "pkg/__init__.py": "",
        "pkg/m.py": f"""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.adapter = nn.Linear(d, d)
        self.gate = nn.Parameter(torch.zeros(d))
        self.register_buffer("mask", torch.ones(d))
{plain}
    def forward(self, x):
        return self.proj(x)


class ShardedBlock(Block):
    def __init__(self, d):
        super().__init__(d)

    def checkpoint(self):
{walk}
""",
        "pkg/save.py": """
def save(block):
    return block.checkpoint()
""",
    }


# a generic recursive walker (``semantics.walk_elements``); ``keep``: a line that lets each module leave
_RECURSIVE = """
def hooks(name, module, out):
    if hasattr(module, "hook"):
        out[name] = module.hook(){keep}
    for sub, child in module.named_children():
        hooks(f"{{name}}.{{sub}}", child, out)
    return out
"""


# a walker that collects the modules of one class, skipping the others early
_COLLECTOR = """
from torch import nn


def norms(module):
    found = []
    for m in module.modules():
        if not isinstance(m, nn.GroupNorm):
            continue
        found.append(m)
    return found
"""


# a walker that replaces the children of one class and recurses through its own class into the others
_SWAPPER = """
from torch import nn


class Swapper:
    @staticmethod
    def swap(module, make):
        n = 0
        for name, child in module.named_children():
            if isinstance(child, {guard}):
                setattr(module, name, make(child.weight))
                n += 1
            else:
                n += Swapper.swap(child, make)
        return n
"""


WALK_VALID = (
    Example(
        _walking("        return dict(self.state_dict())", scratch=False),
        note="self.state_dict() in a reachable method reads every registered module, parameter and buffer",
    ),
)

WALK_INVALID = (
    Example(
        _walking("        return {name: child for name, child in self.named_children()}"),
        [("DI002", "ShardedBlock", a) for a in ("gate", "mask", "scratch")],
        note="self.named_children() reads the registered submodules only: a dead parameter or buffer is still reported",
    ),
    Example(
        _walking("        return list(self.parameters())"),
        [("DI002", "ShardedBlock", a) for a in ("mask", "scratch")],
        note="self.parameters() reads submodules and parameters, not buffers",
    ),
    Example(
        _walking("        for p in self.parameters():\n            p.data = p.data.cpu()   # gives nothing back"),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walk in a method that returns nothing only acts on each element (here: moves it): no read",
    ),
    Example(
        _walking(
            "        return dict(self.named_children())\n\n"
            "    def named_children(self):   # the project's own: followed as any method is\n"
            "        return iter([('proj', self.proj)])"
        ),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walk the class overrides is its own method: what it reads counts, not nn.Module's walk",
    ),
    Example(
        _walking("        return next(self.parameters()).device"),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="next(self.parameters()) takes the first parameter only: no particular attribute is read",
    ),
    Example(
        _walking("        return dict(self.state_dict())"),
        [("DI002", "ShardedBlock", "scratch")],
        note="a plain tensor attribute is not registered: self.state_dict() does not read it",
    ),
    Example(
        _walking("        return None", outside="def dump(block):\n    return dict(block.named_children())\n"),
        [("DI002", "ShardedBlock", a) for a in ("gate", "mask", "scratch")],
        note="a walk over another object of no known class reads the registered submodules of any module it may be",
    ),
    Example(
        _walking(
            "        return None",
            outside="def patch(block):\n    for child in block.children():\n        child.forward = wrap(child)\n",
        ),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walk over another object in a function that gives nothing back acts on each element: no read",
    ),
    Example(
        _walking(
            "        return None",
            outside="class Tokenizer:\n    pass\n\n\ndef dump(t: Tokenizer):\n    return list(t._modules.values())\n",
        ),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walk over an object whose class is known and unrelated reads nothing of the class",
    ),
    Example(
        _walking("        return None", outside=_RECURSIVE.format(keep="")),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a recursive walker that only reads another attribute of each child and recurses uses no child itself",
    ),
    Example(
        _walking(
            "        return None", scratch=False, outside=_RECURSIVE.format(keep="\n    out[name + '.m'] = module")
        ),
        [("DI002", "ShardedBlock", a) for a in ("gate", "mask")],
        note="a recursive walker whose parameter is stored hands each child out: the walk reads the submodules",
    ),
    Example(
        _walking("        return None", outside=_SWAPPER.format(guard="nn.GroupNorm")),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walker that hands out only the children that are a GroupNorm reads no nn.Linear member",
    ),
    Example(
        _walking("        return None", outside=_SWAPPER.format(guard="nn.Linear")),
        [("DI002", "ShardedBlock", a) for a in ("gate", "mask", "scratch")],
        note="... but the members that may be what its isinstance guard names",
    ),
    Example(
        _walking("        return None", outside=_COLLECTOR),
        [("DI002", "ShardedBlock", a) for a in ("adapter", "gate", "mask", "scratch")],
        note="a walker that skips every child but a GroupNorm (if not isinstance(...): continue) reads no "
        "nn.Linear member",
    ),
)
