"""The one decision about an attribute an ancestor's ``__init__`` allocates (``analysis.verdicts``).

For each (class, attribute) the analysis reports, one ``Verdict`` says what happens to it (its
``status``), whether a fix may remove it (``safety``, with the one-line ``reason`` check and fix
both print), and what it costs (``lifetime``, ``bytes``, ``size_text``).
``check``, ``explain``, ``--statistics``, the JSON report, both fix strategies and the pull-request
body read this record; none of them decides any of it again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from deadinit.model.kinds import AttrStatus, FixSafety, Lifetime


@dataclass(frozen=True)
class Verdict:
    status: AttrStatus
    safety: FixSafety
    reason: str = ""  # one line: why the fix is unsafe, or why no fix can be made ("" when safe)
    lifetime: Lifetime = Lifetime.STEADY
    bytes: int | None = None  # per instance, when the number is known in full
    size_text: str = "unknown"  # what every report shows: a number in binary units, an expression, or unknown
    certain: bool = True  # False: allocated only under a condition nothing decides (not counted as waste)
    deferred: str = ""  # why a plain ``deadinit fix`` leaves a safe fix alone (not worth a parameter)

    @property
    def steady_bytes(self) -> int | None:
        """The known bytes held for the object's life (None unless steady and known)."""
        return self.bytes if self.lifetime == Lifetime.STEADY else None

    @property
    def transient_bytes(self) -> int | None:
        """The known bytes built and then replaced (None unless transient and known)."""
        return self.bytes if self.lifetime == Lifetime.TRANSIENT else None

    @property
    def waste(self) -> bool:
        """Counted in the totals: not kept alive, and allocated whatever the arguments."""
        return self.lifetime != Lifetime.NONE and self.certain

    def refused(self, safety: FixSafety, reason: str) -> Verdict:
        """This verdict with a fix the fixer cannot make (``safety`` NONE) or makes only with
        ``--unsafe-fixes`` (UNSAFE), and why."""
        return replace(self, safety=safety, reason=reason)

    def fix_text(self) -> str:
        """The reason as check and fix print it: ``unsafe fix: ...`` or ``not fixable: ...``; "" when safe."""
        if self.safety == FixSafety.UNSAFE:
            return f"unsafe fix: {self.reason}"
        if self.safety == FixSafety.NONE:
            return f"not fixable: {self.reason}"
        return ""
