"""The finding record every rule produces and every reporter formats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deadinit.model.evidence import Evidence
from deadinit.model.kinds import FixSafety, Lifetime
from deadinit.model.plain import plain_fields
from deadinit.model.verdict import Verdict


@dataclass
class Finding:
    code: str
    name: str
    path: str
    line: int
    column: int
    cls: str  # qualified name of the subclass
    parent: str  # qualified name of the class whose __init__ allocates
    attribute: str
    kind: str
    estimated_bytes: int | None
    message: str
    evidence: list[Evidence] = field(default_factory=list)
    fix_safety: FixSafety = FixSafety.SAFE
    fix_safety_reason: str = ""  # one line: why the fix is unsafe, or why there is none (empty when safe)
    unsure: list[str] = field(default_factory=list)
    related_paths: list[str] = field(default_factory=list)  # subclass file, overwrite file...
    related_lines: list[tuple[str, int]] = field(default_factory=list)  # (path, line) where a suppression may sit
    extra: dict[str, Any] = field(default_factory=dict)
    size_expr: str | None = (
        None  # the size as an expression (``vocab_size × hidden_size × 2 B``) when no number is known
    )
    size_rank: tuple[int, ...] = field(default=(), repr=False, compare=False)  # reports sort by it: ``size_order``
    verdict: Verdict | None = field(default=None, repr=False, compare=False)  # DI001/DI002: the analysis' decision

    @property
    def size_text(self) -> str:
        """The size as the reports show it: a number, an expression, or ``unknown``."""
        if self.verdict is not None:
            return self.verdict.size_text
        return self.size_expr if self.estimated_bytes is None and self.size_expr else human_bytes(self.estimated_bytes)

    @property
    def fix_text(self) -> str:
        """Why no plain fix removes it, as check and fix print it: ``unsafe fix: ...`` or
        ``not fixable: ...``; "" when the fix is safe or the rule has none to give."""
        if self.verdict is not None and self.verdict.deferred and self.fix_safety == FixSafety.SAFE:
            return f"fix not applied by default: {self.verdict.deferred}; set fix-min-bytes = 0 to apply it"
        if not self.fix_safety_reason:
            return ""
        label = "unsafe fix" if self.fix_safety == FixSafety.UNSAFE else "not fixable"
        return f"{label}: {self.fix_safety_reason}"

    @property
    def lifetime(self) -> Lifetime | None:
        """How long the waste is held (DI001/DI002); None for findings that restate or have no size."""
        return self.verdict.lifetime if self.verdict is not None else None

    @property
    def certain(self) -> bool:
        """Allocated whatever the arguments (not only under a condition nothing decides)."""
        return self.verdict.certain if self.verdict is not None else not self.extra.get("condition")

    @property
    def key(self) -> str:
        """Stable identity that survives line moves (for baselines)."""
        return f"{self.code}:{self.cls}:{self.parent}:{self.attribute}"

    def to_json(self) -> dict[str, Any]:
        d = plain_fields(self, evidence=[e.to_json() for e in self.evidence])
        d["class"] = d.pop("cls")
        d.pop("related_lines", None)
        d.pop("size_rank", None)
        d.pop("verdict", None)
        d["key"] = self.key
        v = self.verdict
        if v is not None:
            d["status"] = v.status.value
            d["lifetime"] = v.lifetime.value
            d["steady_bytes"] = v.steady_bytes
            d["transient_bytes"] = v.transient_bytes
            if v.deferred:
                d["fix_deferred"] = v.deferred
        return d


def size_order(f: Finding) -> tuple[int, ...]:
    """Certain waste first, then waste only under a condition, then what is not waste (kept alive);
    within each, the largest known size first, then expressions (higher degree first), then unknown sizes."""
    band = 2 if f.lifetime == Lifetime.NONE else (0 if f.certain else 1)
    if f.size_rank:
        return (band, *f.size_rank)
    return (band, 0, -f.estimated_bytes) if f.estimated_bytes is not None else (band, 2)


def human_bytes(n: int | None) -> str:
    if n is None:
        return "unknown"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.1f} {unit}" if v != int(v) else f"{int(v)} {unit}"
    return f"{n} B"
