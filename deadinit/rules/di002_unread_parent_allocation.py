"""DI002: a parent's ``__init__`` allocates an attribute nothing on the subclass reads."""

from __future__ import annotations

from deadinit.analysis.facts import AttrFact
from deadinit.rules.base import AttributeRule, Example, FixExample
from deadinit.rules.examples.construction import (
    COMPUTED_INVALID,
    COMPUTED_VALID,
    HANDED_ON_INVALID,
    HANDED_ON_VALID,
    UPDATED_INVALID,
    UPDATED_VALID,
)
from deadinit.rules.examples.factory import FACTORY_INVALID
from deadinit.rules.examples.flow import FLOW_INVALID, FLOW_VALID
from deadinit.rules.examples.guard import GUARD_INVALID, GUARD_VALID
from deadinit.rules.examples.loader import LOADER_FIXES
from deadinit.rules.examples.precision import ANY_NAME, DYNAMIC_BY_PATTERN, not_allocated
from deadinit.rules.examples.walk import WALK_INVALID, WALK_VALID
from deadinit.rules.finding_builder import describe, finding_from_fact

OVERRIDDEN_READER = {
    "pkg/__init__.py": "",
    "pkg/backend.py": """
import torch


class AttentionBackend:
    def forward_decode(self, q):
        raise NotImplementedError


class FlashBackend(AttentionBackend):
    def __init__(self):
        self.workspace = torch.empty(256 * 1024 * 1024, dtype=torch.uint8)
        self.decode_wrapper = DecodeWrapper(self.workspace)

    def forward_decode(self, q):
        return self.decode_wrapper.run(q)


class TritonBackend(FlashBackend):
    def __init__(self):
        super().__init__()
        self.num_splits = 8

    def forward_decode(self, q):  # overrides the only reader
        return q * self.num_splits


class DecodeWrapper:
    def __init__(self, workspace):
        self.workspace = workspace

    def run(self, q):
        return q
""",
}

OVERRIDDEN_READER_FIXED = {
    "pkg/backend.py": """
import torch


class AttentionBackend:
    def forward_decode(self, q):
        raise NotImplementedError


class FlashBackend(AttentionBackend):
    def __init__(self, skip_init_workspace: bool = False):
        if not skip_init_workspace:
            self.workspace = torch.empty(256 * 1024 * 1024, dtype=torch.uint8)
            self.decode_wrapper = DecodeWrapper(self.workspace)
        else:
            self.workspace = None
            self.decode_wrapper = None

    def forward_decode(self, q):
        return self.decode_wrapper.run(q)


class TritonBackend(FlashBackend):
    def __init__(self):
        super().__init__(skip_init_workspace=True)
        self.num_splits = 8

    def forward_decode(self, q):  # overrides the only reader
        return q * self.num_splits


class DecodeWrapper:
    def __init__(self, workspace):
        self.workspace = workspace

    def run(self, q):
        return q
""",
}


GUARDED = {
    "pkg/__init__.py": "",
    "pkg/sampler.py": """
import torch


class Sampler:
    def sample(self, logits):
        raise NotImplementedError


class HistorySampler(Sampler):
    def __init__(self, vocab, keep_history: bool = True):
        if keep_history:
            self.history = torch.zeros((1024, vocab), dtype=torch.int32)

    def sample(self, logits):
        self.history[0] = logits
        return logits


class GreedySampler(HistorySampler):
    def __init__(self, vocab):
        super().__init__(vocab)

    def sample(self, logits):
        return logits
""",
}

GUARDED_FIXED = {
    "pkg/sampler.py": GUARDED["pkg/sampler.py"].replace(
        "super().__init__(vocab)", "super().__init__(vocab, keep_history=False)"
    )
}

REGISTERED_HEAD = {
    "pkg/__init__.py": "",
    "pkg/model.py": """
from torch import nn


class LanguageModel(nn.Module):
    def __init__(self, dim, vocab, use_head: bool = True):
        super().__init__()
        self.body = nn.Linear(dim, dim)
        if use_head:
            self.lm_head = nn.Linear(dim, vocab)
        else:
            self.lm_head = None

    def forward(self, x):
        return self.lm_head(self.body(x))


class EmbeddingModel(LanguageModel):
    def __init__(self, dim, vocab):
        super().__init__(dim, vocab)

    def forward(self, x):
        return self.body(x)  # never runs the head
""",
}

REGISTERED_HEAD_FIXED = {
    "pkg/model.py": REGISTERED_HEAD["pkg/model.py"].replace(
        "super().__init__(dim, vocab)", "super().__init__(dim, vocab, use_head=False)"
    )
}

REGISTERED_STATE = {
    "pkg/__init__.py": "",
    "pkg/linear.py": """
import torch
from torch import nn


class QuantLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty((n_out, n_in), dtype=torch.int8))
        self.weight_scale = nn.Parameter(torch.ones((n_out,)))
        self.register_buffer("input_scale", torch.ones((1,)))

    def forward(self, x):
        return (x @ self.weight) * self.weight_scale * self.input_scale


class FloatLinear(QuantLinear):
    def forward(self, x):
        return x @ self.weight  # the scales stay checkpoint keys a loader may expect
""",
}


def unread(fact: AttrFact) -> bool:
    """This rule applies: no later assignment replaces the value, and nothing that counts reads it."""
    return not fact.overwrites and not fact.read


class UnreadParentAllocation(AttributeRule):
    code = "DI002"
    name = "unread-parent-allocation"
    fate = "unread"
    summary = "An ancestor's `__init__` allocates `self.x`, and nothing that can run on the subclass reads it."
    what_it_does = """
For each class, finds what can run on its instances: dunder methods,
properties, the methods declared by the root of the hierarchy, and methods
called or referenced on objects that may be instances of it anywhere in the
project; then follows `self.m()`, `self.m` callbacks, `super().m()`, nested
functions and lambdas. An attribute allocated by an ancestor's `__init__` that
none of these reads (nor `getattr(self, "x")`, nor `obj.x` outside the class on
an object that may be an instance) is reported. An inherited private helper
that only overridden methods used to call is not reachable: its reads do not
count. Nor do reads that only build other dead attributes, or only hand the value
to a project class's constructor that stores it where it is dead (three deep at most).
"""
    why_bad = """
The subclass pays for memory and construction time it never uses. FlashInfer
wrappers, for example, each pin host memory and keep a reference to a
workspace buffer of hundreds of MiB.
"""
    fix = "`deadinit fix --strategy skip-flag` (or `--strategy direct-base` when the parent contributes little)."
    fix_safety = """
Safe when the finding rests on what the analysis proves: class structure, exact
constructions, `isinstance`, annotations, transitive deadness. Unsafe (applied
only with `--unsafe-fixes`, the reason given in one line) when the attribute of
an `nn.Module` is a registered parameter, buffer or module (not building it
changes the checkpoint keys; a module's fix is safe when every weight loader of
the class provably skips names it does not know), or when the class is exported (`__all__`, a
package `__init__`) and the attribute is public or read by a public method
nothing in the project calls. When analysis is unsure (dynamic `getattr`,
`self.__dict__`, `vars(self)`, `__getattr__`, an unresolved base), nothing is
reported unless `--show-unsure` is given, and such fixes are unsafe.
"""
    VALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/backend.py": """
import torch


class AttentionBackend:
    def forward_decode(self, q):
        raise NotImplementedError


class FlashBackend(AttentionBackend):
    def __init__(self):
        self.workspace = torch.empty(256 * 1024 * 1024, dtype=torch.uint8)

    def forward_decode(self, q):
        return self.decode(q)

    def decode(self, q):
        return q + self.workspace[0]


class TritonBackend(FlashBackend):
    def forward_decode(self, q):  # overrides the reader, but calls the inherited helper that reads it
        return self.decode(q) * 2
""",
            },
            note="read through an inherited helper",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Base:
    def forward(self, x):
        raise NotImplementedError
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
class C(P):
    def forward(self, x):
        return getattr(self, x)   # dynamic: unsure, quiet by default
""",
            },
            note="dynamic getattr",
        ),
        Example(
            {
                "pkg/__init__.py": "from pkg.modeling_w import W\n",
                "pkg/base.py": """
import torch
class Base:
    def forward(self, x):
        raise NotImplementedError
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
    def forward(self, x):
        return self.ws
""",
                "pkg/modular_w.py": """
from pkg.base import P
class W(P):
    def forward(self, x):   # overrides the only reader, but this template never runs
        return x
""",
                "pkg/modeling_w.py": """# This file was automatically generated from pkg/modular_w.py. Do NOT edit.
class W:
    def forward(self, x):
        return x
""",
            },
            note="code-generation source: a template that a generated file names and nothing imports",
        ),
        HANDED_ON_VALID,
        COMPUTED_VALID,
        UPDATED_VALID,
        *not_allocated(own=False),
        ANY_NAME,
        *FLOW_VALID,
        *WALK_VALID,
        *GUARD_VALID,
    )
    INVALID = (
        Example(
            OVERRIDDEN_READER,
            [("DI002", "TritonBackend", "workspace"), ("DI002", "TritonBackend", "decode_wrapper")],
            note="the only reader is overridden; the workspace only builds the dead wrapper",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Base:
    def forward(self, x):
        raise NotImplementedError
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
        self.wrapper = DecodeWrapper(self.ws)
    def forward(self, x):
        return self.wrapper.run(x)
class C(P):
    def forward(self, x):
        return x
class DecodeWrapper:
    def __init__(self, ws):
        self.ws = ws
    def run(self, x):
        return x
""",
            },
            [("DI002", "C", "ws"), ("DI002", "C", "wrapper")],
            note="a subclass without an __init__ of its own",
        ),
        HANDED_ON_INVALID,
        COMPUTED_INVALID,
        UPDATED_INVALID,
        *DYNAMIC_BY_PATTERN,
        Example(
            REGISTERED_STATE,
            [("DI002", "FloatLinear", "weight_scale"), ("DI002", "FloatLinear", "input_scale")],
            note="a registered parameter and buffer: reported (kinds parameter, buffer), the fix is unsafe",
        ),
        *FACTORY_INVALID,
        *FLOW_INVALID,
        *WALK_INVALID,
        *GUARD_INVALID,
    )

    FIXES = (
        FixExample(OVERRIDDEN_READER, OVERRIDDEN_READER_FIXED, note="both allocations skipped for the subclass"),
        FixExample(GUARDED, GUARDED_FIXED, note="the parent's own parameter already guards it: passed, no new flag"),
        FixExample(
            REGISTERED_HEAD,
            REGISTERED_HEAD_FIXED,
            unsafe_fixes=True,
            note="a registered module: unsafe (checkpoint keys change); with --unsafe-fixes the guard is reused",
        ),
        *LOADER_FIXES,
    )

    @staticmethod
    def reports(fact: AttrFact) -> bool:
        return unread(fact)

    def check(self, ctx):
        for an in ctx.analyses:
            for fact in an.facts:
                if not unread(fact):
                    continue
                msg = f"{describe(fact)} is never read by anything that can run on {fact.show(fact.cls)}"
                if fact.feeds:
                    msg += f" (it only builds {', '.join('self.' + f for f in fact.feeds)}, dead too)"
                yield finding_from_fact(self, fact, ctx, msg)
