"""DI004: a ``super().__init__`` / ``Base.__init__`` call whose arguments cannot bind: constructing the class raises."""

from __future__ import annotations

from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding
from deadinit.model.kinds import FixSafety
from deadinit.model.qualnames import short_name
from deadinit.rules.base import Example, Rule


class ParentInitCallRaises(Rule):
    code = "DI004"
    name = "parent-init-call-raises"
    severity = "error"
    summary = "An `__init__` calls its parent's `__init__` with arguments the parent cannot take: construction raises."
    what_it_does = """
Checks every `super().__init__(...)`, `super(C, self).__init__(...)` and
`Base.__init__(self, ...)` call of a class's `__init__` chain against the
signature of the `__init__` it reaches (through the instance's MRO): too many
positional arguments, a keyword the target does not take, an argument given
twice, or a required parameter left out. Such a call raises `TypeError` before
anything after it runs, so deadinit stops the chain there and reports nothing
the class would waste; it reports the call itself, once, on the class that
makes it.
"""
    why_bad = """
The class cannot be constructed at all: a latent bug, usually left behind when
the parent's signature changed. (Calls that forward `*args`/`**kwargs` are not
judged.)
"""
    fix_safety = "Not fixed automatically: the intended call is for a person to decide."
    VALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class P:
    def __init__(self, dim, *rest, **kw):
        self.ws = torch.empty(dim)
    def run(self):
        return self.ws
class C(P):
    def __init__(self, dim, *args, **kw):
        super().__init__(dim, 1, 2, key=3)   # absorbed by *rest and **kw
        super(P, self).__init__()             # object.__init__: nothing to bind
""",
            },
            note="star parameters take the extra arguments",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Pool:
    def __init__(self, size):
        self.pages = torch.empty(size)
class PagedPool(Pool):
    def __init__(self, size, page):
        super().__init__(size)
        self.page_table = torch.zeros(size // page)
class FlatPool(PagedPool):
    def __init__(self, size):
        super(PagedPool, self).__init__(size)   # reaches Pool.__init__(size): binds
class Mixed(Pool, dict):
    def __init__(self, size, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)    # forwarded: not judged
        Pool.__init__(self, size)
""",
            },
            note="super(Parent, self) is bound against the grandparent's signature; forwarded arguments are not judged",
        ),
    )
    INVALID = (
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class P:
    def __init__(self, dim, device=None):
        self.ws = torch.empty(dim)
    def run(self):
        return 0
class C(P):
    def __init__(self, dim):
        super().__init__(dim, "cuda", 8)
class D(C):
    pass
""",
            },
            [("DI004", "C", "__init__")],
            note="too many positional arguments; reported once, on the class that makes the call, never as waste",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class P:
    def __init__(self, dim, *, device):
        self.ws = torch.empty(dim)
class C(P):
    def __init__(self, dim):
        P.__init__(self, dim, dtype=1)
""",
            },
            [("DI004", "C", "__init__")],
            note="an unknown keyword (and the required keyword-only `device` missing)",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": """
import torch
class Pool:
    def __init__(self, size):
        self.pages = torch.empty(size)
class PagedPool(Pool):
    def __init__(self, size, page):
        super().__init__(size)
        self.page_table = torch.zeros(size // page)
class FlatPool(PagedPool):
    def __init__(self, size):
        super(PagedPool, self).__init__(size, 16)   # Pool.__init__ takes size only
class HostPool(PagedPool):
    def __init__(self, size):
        super().__init__(size)                      # PagedPool.__init__ needs page too
""",
            },
            [("DI004", "FlatPool", "__init__"), ("DI004", "HostPool", "__init__")],
            note="super(Parent, self) binds against the grandparent; a required parameter left out",
        ),
    )

    def check(self, ctx):
        for an in ctx.analyses:
            broken = an.chain.broken
            if broken is None or broken[0] != an.cls:
                continue
            caller, st, callee, why = broken
            path = ctx.index.path_of(caller)
            how = "super().__init__" if st.target == "super" else f"{st.target}.__init__"
            if st.start:
                how = f"super({st.start}, self).__init__"
            msg = (
                f"{short_name(caller)}.__init__ calls {how}, which reaches {short_name(callee)}.__init__, "
                "with arguments it "
                f"cannot take ({why}): constructing {short_name(caller)} raises TypeError"
            )
            target = ctx.index.classes[callee].methods["__init__"]
            evidence = [
                Evidence(EvidenceKind.CALL, f"{short_name(caller)}.__init__ calls {how}", path, st.line),
                Evidence(
                    EvidenceKind.TARGET,
                    f"it reaches {short_name(callee)}.__init__, which cannot take these arguments",
                    ctx.index.path_of(callee),
                    target.line,
                ),
            ]
            yield Finding(
                code=self.code,
                name=self.name,
                path=path,
                line=st.line,
                column=st.col + 1,
                cls=caller,
                parent=callee,
                attribute="__init__",
                kind="call",
                estimated_bytes=None,
                message=msg,
                evidence=evidence,
                fix_safety=FixSafety.NONE,
                related_paths=[path],
                related_lines=[(path, st.line)],
            )
