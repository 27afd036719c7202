"""DI001: a subclass re-assigns an attribute its parent's ``__init__`` just allocated."""

from __future__ import annotations

from deadinit.analysis.reach import short
from deadinit.rules.base import Example, Rule
from deadinit.rules.finding_builder import describe, finding_from_fact


class OverwrittenParentAllocation(Rule):
    code = "DI001"
    name = "overwritten-parent-allocation"
    summary = "An ancestor's `__init__` allocates `self.x`; the subclass re-assigns it before anything reads it."
    what_it_does = """
Checks every class whose `__init__` chain runs an ancestor's `__init__` for
attributes that the ancestor allocates (tensors, cached buffers, global
singletons, wrapper/updater/runner objects, `nn.Module`s, lists of those) and
that the subclass, or a class between the two, assigns again on every path
after the ancestor's `__init__` returned, with no read in between that counts.
Reads made only to build other dead attributes do not count.
"""
    why_bad = """
The first allocation is thrown away: on a GPU that is device memory and
allocation time paid at every construction, and for cached buffers an entry
that stays alive for the whole process.
"""
    example = """
class Parent:
    def __init__(self):
        self.workspace = torch.empty(512 * 1024 * 1024, dtype=torch.uint8)

class Child(Parent):
    def __init__(self):
        super().__init__()
        self.workspace = torch.zeros(128 * 1024 * 1024, dtype=torch.uint8)  # parent's 512 MiB wasted
"""
    fix = "`deadinit fix --strategy skip-flag` guards the parent's allocation with a `skip_init_<name>` flag that the subclass passes."
    fix_safety = """
Safe when the finding rests only on facts inside the hierarchy. When some
`obj.x` read elsewhere in the project had to be judged unrelated to the class,
the fix is unsafe and applied only with `--unsafe-fixes`.
"""
    VALID = [
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Base:
    def run(self):
        raise NotImplementedError
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
class C(P):
    def __init__(self):
        super().__init__()
        self.n = self.ws.numel()   # read before the re-assignment
        self.ws = torch.zeros(4)
    def run(self):
        return self.ws, self.n
""",
            },
            note="read before overwrite",
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
            self.ws = torch.zeros(4)   # not on every path
    def run(self):
        return self.ws
""",
            },
            note="conditional overwrite",
        ),
    ]
    INVALID = [
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
    ]

    def check(self, ctx):
        for an in ctx.analyses:
            for fact in an.facts:
                if fact.status != "overwritten":
                    continue
                k = fact.killer
                msg = (
                    f"{describe(fact)} is overwritten by {short(k.owner)}.__init__ (line {k.stmt.line}) before any read"
                )
                yield finding_from_fact(self, fact, ctx, msg)
