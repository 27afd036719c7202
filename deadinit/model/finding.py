"""The finding record every rule produces and every reporter formats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deadinit.model.evidence import Evidence
from deadinit.model.plain import plain_fields


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
    fix_safety: str = "safe"  # safe | unsafe | none
    fix_safety_reason: str = ""  # one line: why the fix is unsafe (empty when safe or none)
    unsure: list[str] = field(default_factory=list)
    related_paths: list[str] = field(default_factory=list)  # subclass file, overwrite file...
    related_lines: list[tuple[str, int]] = field(default_factory=list)  # (path, line) where a suppression may sit
    extra: dict[str, Any] = field(default_factory=dict)
    size_expr: str | None = (
        None  # the size as an expression (``vocab_size × hidden_size × 2 B``) when no number is known
    )
    size_rank: tuple[int, ...] = field(default=(), repr=False, compare=False)  # reports sort by it: ``size_order``

    @property
    def size_text(self) -> str:
        """The size as the reports show it: a number, an expression, or ``unknown``."""
        return self.size_expr if self.estimated_bytes is None and self.size_expr else human_bytes(self.estimated_bytes)

    @property
    def key(self) -> str:
        """Stable identity that survives line moves (for baselines)."""
        return f"{self.code}:{self.cls}:{self.parent}:{self.attribute}"

    def to_json(self) -> dict[str, Any]:
        d = plain_fields(self, evidence=[e.to_json() for e in self.evidence])
        d["class"] = d.pop("cls")
        d.pop("related_lines", None)
        d.pop("size_rank", None)
        d["key"] = self.key
        return d


def size_order(f: Finding) -> tuple[int, ...]:
    """Largest known size first, then expressions (higher degree first), then unknown sizes."""
    if f.size_rank:
        return f.size_rank
    return (0, -f.estimated_bytes) if f.estimated_bytes is not None else (2,)


def human_bytes(n: int | None) -> str:
    if n is None:
        return "unknown"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.1f} {unit}" if v != int(v) else f"{int(v)} {unit}"
    return f"{n} B"
