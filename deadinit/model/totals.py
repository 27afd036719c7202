"""What the findings add up to, per instance: every report's totals come from here.

Each allocation is counted once, from its verdict (``model.verdict``): DI001 and DI002 findings
carry one; DI003 restates the bytes of the DI001/DI002 findings on its class and adds nothing.
Two columns: *steady* (held for the object's life: unread, or kept by a global cache) and
*transient* (built, then replaced: construction time and peak memory). What a live attribute
keeps alive is no waste and is counted apart; so is what is allocated only under a condition
nothing decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from deadinit.model.finding import Finding, human_bytes
from deadinit.model.kinds import Lifetime
from deadinit.model.verdict import Verdict


@dataclass
class Column:
    """One column of the totals: known bytes, and how many sizes are only an expression or unknown."""

    bytes: int = 0
    known: int = 0
    by_expression: int = 0
    unknown: int = 0

    def add(self, v: Verdict) -> None:
        if v.bytes is not None:
            self.bytes += v.bytes
            self.known += 1
        elif v.size_text != "unknown":
            self.by_expression += 1
        else:
            self.unknown += 1

    @property
    def empty(self) -> bool:
        return not (self.known or self.by_expression or self.unknown)

    def text(self) -> str:
        """``384 MiB + 2 sized by an expression + 1 of unknown size``; ``-`` when empty."""
        if self.empty:
            return "-"
        parts = [human_bytes(self.bytes)] if self.known or not (self.by_expression or self.unknown) else []
        parts += [f"{self.by_expression} sized by an expression"] if self.by_expression else []
        parts += [f"{self.unknown} of unknown size"] if self.unknown else []
        return " + ".join(parts)

    def compact(self) -> str:
        """``384 MiB (+13 by expression, +11 unknown)``, for a table cell; ``-`` when empty."""
        if self.empty:
            return "-"
        more = [f"+{self.by_expression} by expression"] if self.by_expression else []
        more += [f"+{self.unknown} unknown"] if self.unknown else []
        head = human_bytes(self.bytes) if self.known else "-"
        return f"{head} ({', '.join(more)})" if more else head


@dataclass
class Totals:
    steady: Column = field(default_factory=Column)
    transient: Column = field(default_factory=Column)
    kept_alive: int = 0  # overwritten, but a live attribute built from the value holds it: not waste
    conditional: int = 0  # allocated only under a condition nothing decides: not counted

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> Totals:
        t = cls()
        for f in findings:
            v = f.verdict
            if v is None:
                continue  # DI003 restates the bytes of its class's DI001/DI002 findings
            if v.lifetime == Lifetime.NONE:
                t.kept_alive += 1
            elif not v.certain:
                t.conditional += 1
            else:
                (t.steady if v.lifetime == Lifetime.STEADY else t.transient).add(v)
        return t

    def saving(self) -> str:
        """``8 MiB held + 4 KiB replaced``: a fix's saving per instance, as the fix table shows it."""
        columns = ((self.steady, "held"), (self.transient, "replaced"))
        parts = [f"{c.text()} {what}" for c, what in columns if not c.empty]
        return " + ".join(parts) or "unknown"

    def text(self) -> str:
        """The totals as one clause of the summary line."""
        parts = []
        if not self.steady.empty:
            parts.append(f"held for the object's life {self.steady.text()}")
        if not self.transient.empty:
            parts.append(f"built then replaced {self.transient.text()}")
        text = "waste per instance: " + ("; ".join(parts) if parts else "none known")
        if self.kept_alive:
            text += f"; {self.kept_alive} kept alive by live attributes, not waste"
        if self.conditional:
            text += f"; {self.conditional} only under a condition, not counted"
        return text
