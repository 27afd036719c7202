"""Examples shared by DI001 and DI002 (their ``VALID`` / ``INVALID`` extend with these).

What decides whether an ancestor's ``__init__`` runs and what it allocates: the
``super(X, self)`` forms, and guards the subclass decides (a class attribute, a value set on
the object it passes before the call, an ``assert``, a ``raise`` under the same condition).
And one example per pattern of access by a computed name (``getattr(self, ...)``, ``self.__dict__[...]``), which makes
unsure, and so hides by default, only the attributes that pattern could name.
"""

from __future__ import annotations

from deadinit.rules.base import Example

HEAD = """
import torch
from torch import nn
"""


def _super_of_the_parent(own: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": HEAD
        + """
class Norm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = torch.ones(n)
    def norm(self, x):
        return x * self.weight
class GatedMLP(Norm):
    def __init__(self, n):
        super().__init__(n)
        self.proj = nn.Linear(n, 4 * n)
    def forward(self, x):
        return self.proj(self.norm(x))
class DenseMLP(GatedMLP):
    def __init__(self, n):
        super(GatedMLP, self).__init__(n)   # starts after GatedMLP: runs Norm.__init__, not GatedMLP's
"""
        + own
        + """    def forward(self, x):
        return self.norm(x)
""",
    }


def _guarded(guard: str, child: str, own: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": HEAD
        + f"""
class MoEBlock(nn.Module):
    use_shared_experts = True
    def __init__(self, config, head_dim):
        super().__init__()
        if {guard}:
            self.shared_experts = nn.Linear(1024, 1024)
    def forward(self, x):
        return self.shared_experts(x)
    def expert_range(self, rank):
        return rank, rank + 1
class DenseBlock(MoEBlock):
"""
        + child
        + own
        + """    def forward(self, x):   # overrides the only reader
        return x
""",
    }


CLASS_ATTRIBUTE = (
    "self.use_shared_experts",
    """    use_shared_experts = False            # decides the parent's `if self.use_shared_experts:`
    def __init__(self, config, head_dim):
        super().__init__(config, head_dim)
""",
)
SET_BEFORE_THE_CALL = (
    "config.n_shared_experts is not None",
    """    def __init__(self, config, head_dim):
        config.n_shared_experts = None        # on the object it passes, before the call
        super().__init__(config, head_dim)
""",
)
ASSERTED = (
    "head_dim == 512",
    """    def __init__(self, config, head_dim):
        assert head_dim == 128                # contradicts the parent's `if head_dim == 512:`
        super().__init__(config, head_dim)
""",
)
RAISED_ON = (
    "config.use_shared_experts",
    """    def __init__(self, config, head_dim):
        super().__init__(config, head_dim)
        if config.use_shared_experts:         # no built instance passed the parent's guard
            raise ValueError("DenseBlock has no shared experts")
""",
)
OWN = "        self.shared_experts = nn.Linear(1024, 64)\n"


def not_allocated(own: bool) -> tuple[Example, ...]:
    """The ancestor's allocation never happens for the subclass: neither overwritten (``own``) nor unread."""
    mine = OWN if own else ""
    return (
        Example(
            _super_of_the_parent("        self.proj = nn.Linear(n, 2 * n)\n" if own else ""),
            note="super(Parent, self) skips Parent.__init__",
        ),
        Example(_guarded(*CLASS_ATTRIBUTE, mine), note="guard decided by a class attribute the subclass overrides"),
        Example(_guarded(*SET_BEFORE_THE_CALL, mine), note="guard decided by a value set on the passed object"),
        Example(_guarded(*ASSERTED, mine), note="guard contradicted by an assert in the subclass"),
        Example(_guarded(*RAISED_ON, mine), note="guard the subclass raises on, after the call"),
    )


def _dynamic(helper: str, class_attrs: str = "") -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": HEAD
        + """
class ModelBase:
"""
        + class_attrs
        + """    def __init__(self, n):
        self.k_scale_buf = torch.ones(n)
        self.rope_cache = torch.empty(4096, n)
        self.logit_buf = torch.empty(64, n)
"""
        + helper
        + """    def logits(self, x):
        return x, self.logit_buf
class TinyModel(ModelBase):
    def logits(self, x):   # overrides the only reader of logit_buf
        return x
""",
    }


ATTRIBUTES = ("k_scale_buf", "rope_cache", "logit_buf")


def _unsure(helper: str, hidden: str, note: str, class_attrs: str = "") -> Example:
    """The helper could name only ``hidden``: that finding is unsure (hidden by default); the others stay."""
    return Example(_dynamic(helper, class_attrs), [("DI002", "TinyModel", a) for a in ATTRIBUTES if a != hidden], note)


DYNAMIC_BY_PATTERN = (
    _unsure(
        """    def scale_of(self, which):
        return getattr(self, f"{which}_scale_buf")
""",
        "k_scale_buf",
        "unsure: getattr(self, <computed>) with a literal suffix names only *_scale_buf",
    ),
    _unsure(
        """    def caches(self):
        return [getattr(self, name) for name in ("rope_cache",)]
""",
        "rope_cache",
        "unsure: a name taken from a literal tuple",
    ),
    _unsure(
        """    def tied(self):
        return [self.__dict__[name] for name in self._tied_names]
""",
        "rope_cache",
        "unsure: self.__dict__[<computed>] with a name from a class attribute that lists names",
        class_attrs='    _tied_names = ("rope_cache",)\n',
    ),
    Example(
        _dynamic(
            """    def has(self, which):
        return hasattr(self, which + "_extra")   # only tests for presence
    def peer_value(self, peer, name):
        return getattr(peer, name)               # another object, not self
"""
        ),
        [("DI002", "TinyModel", a) for a in ATTRIBUTES],
        note="hasattr with a computed name and getattr on another object make nothing unsure",
    ),
)

ANY_NAME = Example(
    _dynamic(
        """    def dump(self, name):
        return getattr(self, name)   # could be any name
"""
    ),
    note="unsure: getattr(self, <computed>) that could be any name hides every finding of the class by default",
)
