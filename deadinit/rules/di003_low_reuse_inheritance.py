"""DI003: a subclass overrides nearly all of its parent and still pays for the parent's ``__init__``."""

from __future__ import annotations

from deadinit.analysis.reuse import compute_reuse, to_dict
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.finding import Finding, human_bytes
from deadinit.model.kinds import FixSafety
from deadinit.model.qualnames import short_name
from deadinit.rules.base import Example, FixExample, Rule

BACKENDS = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
class AttentionBackend:
    def forward(self, q, decode):
        return self.forward_decode(q) if decode else self.forward_extend(q)

    def init_forward_metadata(self, batch):
        raise NotImplementedError

    def forward_decode(self, q):
        raise NotImplementedError

    def forward_extend(self, q):
        raise NotImplementedError
""",
    "pkg/flash.py": """
import torch

from pkg.base import AttentionBackend
from pkg.wrappers import DecodeWrapper, PrefillWrapper


class FlashBackend(AttentionBackend):
    def __init__(self, max_bs):
        self.kv_indptr = torch.zeros(max_bs + 1, dtype=torch.int32)
        self.workspace = torch.empty(128 * 1024 * 1024, dtype=torch.uint8)
        self.decode_wrappers = [DecodeWrapper(self.workspace) for _ in range(2)]
        self.prefill_wrapper = PrefillWrapper(self.workspace)

    def init_forward_metadata(self, batch):
        self.decode_wrappers[0].plan(self.kv_indptr, batch)

    def forward_decode(self, q):
        return self.decode_wrappers[0].run(q)

    def forward_extend(self, q):
        return self.prefill_wrapper.run(q)

    def scale(self, q):
        return q * 0.5
""",
    "pkg/wrappers.py": """
class DecodeWrapper:
    def __init__(self, workspace):
        self.workspace = workspace

    def plan(self, indptr, batch):
        self.indptr = indptr

    def run(self, q):
        return q


class PrefillWrapper(DecodeWrapper):
    pass
""",
    "pkg/trt.py": """
from pkg.flash import FlashBackend


class TrtBackend(FlashBackend):
    def __init__(self, max_bs):
        super().__init__(max_bs)
        self.max_bs = max_bs

    def init_forward_metadata(self, batch):
        self.kv_indptr[: len(batch) + 1] = 0

    def forward_decode(self, q):
        return self.scale(q)

    def forward_extend(self, q):
        return self.scale(q) + 1
""",
}

BACKENDS_FIXED = {
    "pkg/trt.py": """
from pkg.base import AttentionBackend
import torch


class TrtBackend(AttentionBackend):
    def __init__(self, max_bs):
        self.kv_indptr = torch.zeros(max_bs + 1, dtype=torch.int32)
        self.max_bs = max_bs

    def init_forward_metadata(self, batch):
        self.kv_indptr[: len(batch) + 1] = 0

    def forward_decode(self, q):
        return self.scale(q)

    def forward_extend(self, q):
        return self.scale(q) + 1

    def scale(self, q):
        return q * 0.5
""",
}

_BASE = """
import torch
class Base:
    def forward(self, x):
        return self.run(x)
    def run(self, x):
        raise NotImplementedError
    def plan(self, x):
        raise NotImplementedError
"""


class LowReuseInheritance(Rule):
    code = "DI003"
    name = "low-reuse-inheritance"
    summary = (
        "A subclass reuses little of its parent but runs the parent's whole `__init__`: derive from a nearer base."
    )
    what_it_does = """
For a class whose parent's `__init__` allocates something the class never uses
(a DI001/DI002 fact), measures what of the parent the class still uses, over
everything that can run on it (the DI002 reachability): parent methods it still
resolves to and reaches, allocations of the parent's `__init__` whose value it
needs, and parent class attributes it reads. Interface stubs (bodies that only
raise `NotImplementedError`) and plain references do not count.

    share = (reused methods + used allocations) / (parent methods + parent allocations)

The class is reported when the share is at most the threshold (default 0.25)
and it overrides at least one real parent method. The finding names the nearest
ancestor to derive from instead (the first ancestor beyond the parent whose
behaviour the class still reaches, else `object`) and lists what would have to
move: the `__init__` attributes it uses, the helper methods it reaches (with
line counts) and the class attributes it reads. `deadinit explain CLASS` prints
the same table for any class, below the threshold too.
"""
    why_bad = """
The parent's constructor builds workspaces, wrappers and updaters that only the
parent's own (overridden) methods use. Guarding each allocation with a flag
(DI001/DI002's skip-flag fix) keeps the coupling; when the subclass uses almost
nothing of the parent, deriving from the common base removes the waste and the
coupling at once, and makes later parent changes stop affecting the subclass.
"""
    fix = """
`deadinit fix --strategy direct-base --class QUALNAME` re-bases the class on the
suggested ancestor, inlines the parent `__init__` statements that build what it
uses (parameters substituted, literal branches folded), copies the helpers and
class attributes it reaches, and fixes the imports.
"""
    fix_safety = """
Unsafe: the rewrite moves code between modules. It is refused (with the list of
blockers) when code checks `isinstance(x, Parent)` / `issubclass` in a way the
class would stop passing, when the parent `__init__` has side effects on other
objects that the class needs, when inlined names cannot be resolved, when
`*args` / `**kwargs` are forwarded, or when more lines than the configured
maximum would be copied.
"""
    options = """
`di003-threshold` (default 0.25): the largest share that is still reported.
"""
    VALID = (
        Example(
            {
                **BACKENDS,
                "pkg/trt.py": """
from pkg.flash import FlashBackend


class TrtBackend(FlashBackend):
    def forward_extend(self, q):
        return self.scale(q) + 1
""",
            },
            note="reuses most of FlashBackend: DI002 reports the unread prefill wrapper, DI003 nothing",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": _BASE
                + """
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
        self.idx = torch.zeros(4)
    def run(self, x):
        return self.helper(x)
    def helper(self, x):
        return self.ws
    def plan(self, x):
        return self.idx
class C(P):
    def plan(self, x):
        return self.idx + 1
""",
            },
            note="reuses run/helper and ws: share above the threshold",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": _BASE
                + """
class P(Base):
    def __init__(self):
        self.ws = torch.empty(10)
    def run(self, x):
        return self.ws
    def plan(self, x):
        return x
class C(P):
    def run(self, x):
        return self.ws
    def plan(self, x):
        return x
""",
            },
            note="nothing of the parent's __init__ is dead",
        ),
    )
    INVALID = (
        Example(
            BACKENDS,
            [("DI003", "TrtBackend", "")],
            note="overrides every FlashBackend method but scale; uses kv_indptr only",
        ),
        Example(
            {
                "pkg/__init__.py": "",
                "pkg/m.py": _BASE
                + """
class P(Base):
    def __init__(self, runner):
        self.ws = torch.empty(10)
        self.idx = torch.zeros(4)
        self.wrappers = [Wrapper(self.ws) for _ in range(2)]
        self.extra = torch.ones(8)
    def run(self, x):
        return self.wrappers[0].go(x)
    def plan(self, x):
        return self.extra
    def scale(self, x):
        return x
    def _pick(self, x):
        return self.wrappers[x]
class C(P):
    def run(self, x):
        return self.idx[x]
    def plan(self, x):
        return self.scale(x)
class Wrapper:
    def __init__(self, ws):
        self.ws = ws
    def go(self, x):
        return x
""",
            },
            [("DI003", "C", "")],
            note="overrides run/plan, reuses only scale and idx",
        ),
    )

    FIXES = (
        FixExample(
            BACKENDS, BACKENDS_FIXED, strategy="direct-base", note="derives from AttentionBackend, keeps what it uses"
        ),
    )

    def check(self, ctx):
        threshold = getattr(ctx.settings, "di003_threshold", 0.25)
        for an in ctx.analyses:
            r = compute_reuse(ctx.index, ctx.analyzer, an.cls, threshold, an=an)
            if r is None or not r.flagged:
                continue
            yield self._finding(ctx, r)

    def _finding(self, ctx, r) -> Finding:
        index = ctx.index
        cls_sum = index.classes[r.cls]
        path = index.path_of(r.cls)
        base = "object" if r.suggestion == "object" else short_name(r.suggestion)
        helpers = ", ".join(f"{m.name} ({m.lines} lines)" for m in r.move_methods) or "none"
        msg = (
            f"{short_name(r.cls)} uses {r.share:.0%} of {short_name(r.parent)} "
            f"({len(r.reused_methods)}/{len(r.counted_methods)} methods, "
            f"{len(r.used_allocations)}/{len(r.allocations)} allocations; "
            f"{len(r.dead_allocations)} dead allocation(s), {human_bytes(r.dead_bytes)}): derive from {base} "
            f"and move {len(r.move_attrs)} attribute(s), helpers: {helpers}"
        )
        evidence = [Evidence(EvidenceKind.REUSE, r.summary())]
        for m in r.methods:
            evidence.append(
                Evidence(
                    EvidenceKind(f"method-{m.status}"),
                    f"{short_name(m.owner)}.{m.name} ({m.lines} lines): {m.why}",
                    index.path_of(m.owner),
                    index.classes[m.owner].methods[m.name].line,
                )
            )
        for a in r.attrs:
            evidence.append(
                Evidence(
                    EvidenceKind(f"attribute-{a.status}"),
                    f"{short_name(a.owner)}.__init__ self.{a.attr} ({a.kind}): {a.why}",
                    index.path_of(a.owner),
                    a.line,
                )
            )
        for c in r.class_attrs:
            evidence.append(
                Evidence(
                    EvidenceKind(f"class-attribute-{c.status}"),
                    f"{short_name(c.owner)}.{c.name}: {c.why}",
                    index.path_of(c.owner),
                    c.line,
                )
            )
        evidence.append(
            Evidence(
                EvidenceKind.SUGGESTION,
                f"derive from {r.suggestion} instead of {short_name(r.parent)}; "
                f"move attributes: {', '.join(r.move_attrs) or 'none'}; helpers: {helpers}; "
                f"class attributes: {', '.join(c.name for c in r.move_class_attrs) or 'none'}",
            )
        )
        return Finding(
            code=self.code,
            name=self.name,
            path=path,
            line=cls_sum.line,
            column=cls_sum.col + 1,
            cls=r.cls,
            parent=r.parent,
            attribute="",
            kind="inheritance",
            estimated_bytes=r.dead_bytes,
            message=msg,
            evidence=evidence,
            fix_safety=FixSafety.UNSAFE,
            fix_safety_reason="the rewrite changes the class's bases and moves code between modules",
            unsure=[],
            related_paths=sorted({path, index.path_of(r.parent)}),
            related_lines=[(path, cls_sum.line)],
            extra={"reuse": to_dict(r), "size": human_bytes(r.dead_bytes)},
        )
