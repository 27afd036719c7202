"""DI001: a subclass re-assigns an attribute its parent's ``__init__`` just allocated."""

from __future__ import annotations

from deadinit.analysis.facts import AttrFact
from deadinit.analysis.flow.chain import ChainStmt
from deadinit.model.kinds import InitStmtKind
from deadinit.rules.base import AttributeRule, Example, FixExample
from deadinit.rules.examples.overrides import OVERRIDES_INVALID, OVERRIDES_VALID
from deadinit.rules.examples.precision import not_allocated
from deadinit.rules.examples.refill import REFILL_INVALID, REFILL_VALID
from deadinit.rules.examples.registration import REGISTRATION_INVALID, REGISTRATION_VALID
from deadinit.rules.examples.spec import SPEC_INVALID, SPEC_VALID
from deadinit.rules.finding_builder import describe, finding_from_fact

WORKSPACE = {
    "pkg/__init__.py": "",
    "pkg/backend.py": """
import torch


class Parent:
    def __init__(self):
        self.workspace = torch.empty(512 * 1024 * 1024, dtype=torch.uint8)


class Child(Parent):
    def __init__(self):
        super().__init__()
        self.workspace = torch.zeros(128 * 1024 * 1024, dtype=torch.uint8)  # the parent's 512 MiB thrown away
""",
}

WORKSPACE_FIXED = {
    "pkg/backend.py": """
import torch


class Parent:
    def __init__(self, skip_init_workspace: bool = False):
        if not skip_init_workspace:
            self.workspace = torch.empty(512 * 1024 * 1024, dtype=torch.uint8)


class Child(Parent):
    def __init__(self):
        super().__init__(skip_init_workspace=True)
        self.workspace = torch.zeros(128 * 1024 * 1024, dtype=torch.uint8)  # the parent's 512 MiB thrown away
""",
}


def overwritten_by(fact: AttrFact) -> ChainStmt | None:
    """The assignment that throws the ancestor's allocation away, if this rule applies.

    Every allocating binding is replaced before a read that counts, and the last
    replacement is made by another class (the subclass or one between): a value
    replaced inside its own ``__init__`` is no inherited waste.
    """
    last = fact.killer
    if fact.allocations_overwritten and last is not None and last.owner != fact.owner:
        return last
    return None


class OverwrittenParentAllocation(AttributeRule):
    code = "DI001"
    name = "overwritten-parent-allocation"
    fate = "overwritten"
    summary = "An ancestor's `__init__` allocates `self.x`; the subclass re-assigns it before anything reads it."
    what_it_does = """
Checks every class whose `__init__` chain runs an ancestor's `__init__` for
attributes that the ancestor allocates (tensors, cached buffers, global
singletons, wrapper/updater/runner objects, `nn.Module`s, lists of those) and
that the subclass, or a class between the two, assigns again (or removes with
`del` / `delattr`) on every path after the ancestor's `__init__` returned, with
no read in between that counts. Reads made only to build other dead attributes
do not count. An allocation may be made through project functions and methods
(followed to what they return), one element of a tuple target, or a part of a
sub-object the ancestor built and the subclass replaces (`self.attn.qkv = ...`),
and it may be made in a helper the `__init__` calls (`self._init_layers()`, an
override of which the subclass may run through `super()._init_layers()`). A
re-assignment under a condition nothing decides (`if self.conv_to_res:`) is
reported "only when" it holds; one that a subclass's arguments or a parameter's
default decide is decided.
"""
    why_bad = """
The first allocation is thrown away: on a GPU that is device memory and
allocation time paid at every construction, and for cached buffers an entry
that stays alive for the whole process.
"""
    fix = (
        "`deadinit fix --strategy skip-flag` guards the parent's allocation with a `skip_init_<name>` flag "
        "that the subclass passes."
    )
    fix_safety = """
Safe: the subclass assigns its own value on every path, so after the fix every
reader (methods, `obj.x` elsewhere, an `nn.Module`'s checkpoint keys, which the
subclass registers again under the same name) sees what it sees today. Unsafe
when the analysis is unsure (with `--show-unsure`), or when the allocation is made
inside a project function or method the value comes from (skipping the call skips
its other effects too). A replaced part of a sub-object (`self.block.proj = ...`),
and a removal that uncovers a class attribute of the same name, are not fixable by
a flag, and neither are an allocation made in a helper or one the subclass
replaces only under a condition.
"""
    VALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/backend.py": """
import torch


class Parent:
    def __init__(self):
        self.workspace = torch.empty(512 * 1024 * 1024, dtype=torch.uint8)

    def workspace_size(self):
        raise NotImplementedError


class Child(Parent):
    def __init__(self):
        super().__init__()
        self.old_size = self.workspace.numel()  # the parent's workspace is read before it is replaced
        self.workspace = torch.zeros(128 * 1024 * 1024, dtype=torch.uint8)

    def workspace_size(self):
        return self.old_size
""",
            },
            note="read before it is replaced",
        ),
        *not_allocated(own=True),
        *SPEC_VALID,
        *REFILL_VALID,
        *REGISTRATION_VALID,
        *OVERRIDES_VALID,
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
_CACHE = {}
def shared_workspace(n):
    if n not in _CACHE:
        _CACHE[n] = torch.empty(n)
    return _CACHE[n]
def reuse_or_grow(buf, n):
    if buf is not None and buf.numel() >= n:
        return buf
    return torch.zeros(n)
class P:
    def __init__(self):
        self.ws = shared_workspace(1024)
        self.staging = reuse_or_grow(None, 64)
    def run(self):
        return self.ws, self.staging
class C(P):
    def __init__(self):
        super().__init__()
        self.ws = torch.empty(2048)
        self.staging = torch.empty(128)
""",
            },
            note="a cached factory, and a helper that may return its argument: not allocations",
        ),
    )
    INVALID = (
        Example(WORKSPACE, [("DI001", "Child", "workspace")], note="the subclass allocates its own"),
        *SPEC_INVALID,
        *REFILL_INVALID,
        *REGISTRATION_INVALID,
        *OVERRIDES_INVALID,
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class P:
    def __init__(self):
        self.ws = torch.empty(10)
    def run(self):
        raise NotImplementedError
class C(P):
    def __init__(self, flag=False):
        super().__init__()
        if flag:
            self.ws = torch.zeros(4)   # not on every path
    def run(self):
        return self.ws
class D(C):
    def __init__(self):
        super().__init__()   # the default decides: C keeps the parent's
""",
            },
            [("DI001", "C", "ws")],
            note="an overwrite under a condition nothing decides: reported with 'only when flag'; "
            "a subclass that leaves the default is not",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class P:
    def __init__(self):
        self.ws = torch.empty(10)
class C(P):
    def __init__(self, flag):
        super().__init__()
        if flag:
            self.ws = torch.zeros(4)
        else:
            self.ws = torch.ones(4)
    def run(self):
        return self.ws
""",
            },
            [("DI001", "C", "ws")],
            note="both branches overwrite",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/utils.py": """
from torch import nn
def make_layers(n, layer_fn, pp_rank=None, pp_size=None):
    layers = nn.ModuleList([layer_fn(i) for i in range(n)])
    if pp_rank is None or pp_size is None:
        return layers
    return layers, pp_rank * n // pp_size, (pp_rank + 1) * n // pp_size
""",
                "pkg/m.py": """
from torch import nn
from pkg.utils import make_layers
class Model(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers, self.start, self.end = make_layers(n, nn.Identity, 0, 1)
    def forward(self, x):
        return self.layers[self.start](x)
class Short(Model):
    def __init__(self, n):
        super().__init__(n)
        self.layers, self.start, self.end = make_layers(n // 2, nn.Identity, 0, 1)
""",
            },
            [("DI001", "Short", "layers")],
            note="a tuple target, element by element, through a project function",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Buffers:
    def __init__(self, n):
        self.positions = torch.zeros(n)
        self.mrope = torch.zeros(3, n)
        self.loc = torch.zeros(n)
    def run(self):
        return self.positions
class A(Buffers):
    def __init__(self, n):
        super().__init__(n)
        del self.mrope
class B(Buffers):
    def __init__(self, n):
        super().__init__(n)
        for name in ("mrope", "loc"):
            delattr(self, name)
""",
            },
            [("DI001", "A", "mrope"), ("DI001", "B", "loc"), ("DI001", "B", "mrope")],
            note="removed: del, and delattr over literal names",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
from torch import nn
class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
    def forward(self, x):
        return self.qkv(x)
class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.attn = Attention(dim)
    def forward(self, x):
        return self.attn(x)
class FusedBlock(Block):
    def __init__(self, dim):
        super().__init__(dim)
        self.attn.qkv = nn.Linear(dim, 3 * dim, bias=False)
""",
            },
            [("DI001", "FusedBlock", "attn.qkv")],
            note="a part of a sub-module replaced: reported against the class that built it",
        ),
    )

    FIXES = (FixExample(WORKSPACE, WORKSPACE_FIXED, note="the parent skips its allocation when the subclass asks"),)

    @staticmethod
    def reports(fact: AttrFact) -> bool:
        return overwritten_by(fact) is not None

    def check(self, ctx):
        for an in ctx.analyses:
            for fact in an.facts:
                k = overwritten_by(fact)
                if k is None:
                    continue
                verb = "deleted" if k.stmt.kind == InitStmtKind.DELETE else "overwritten"
                by = f"{fact.show(k.owner)}.{k.method} (line {k.stmt.line})"
                msg = f"{describe(fact)} is {verb} by {by} before any read"
                yield finding_from_fact(self, fact, ctx, msg)
