"""Whether a safe fix is worth the parameter it adds (``Verdict.deferred``).

A skip-flag fix adds a parameter to an ancestor's ``__init__``: API every other subclass sees.
A plain ``deadinit fix`` makes it only when the class's saving is worth that: not when what it
would skip is known to hold nothing (parameter-free modules such as activations, empty
containers, scalars: 0 bytes), and not when the known saving per instance is below the
``fix-min-bytes`` setting (default 4 KiB, one memory page). A saving with any size the analysis
cannot put a number on (an expression, unknown) may be large: that fix is made.

The finding stays, with the reason; ``fix-min-bytes = 0`` makes every safe fix.
"""

from __future__ import annotations

from dataclasses import replace

from deadinit.analysis.fact_records import AttrFact
from deadinit.model.finding import human_bytes
from deadinit.model.kinds import FixSafety
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings


def defer_small_fixes(facts: list[AttrFact], settings: Settings) -> None:
    """Mark the class's safe fixes deferred when together they save less than ``fix-min-bytes``."""
    safe = [f for f in facts if f.verdict is not None and f.verdict.safety == FixSafety.SAFE]
    sizes = [f.verdict.bytes for f in safe if f.verdict is not None]
    if not safe or any(b is None for b in sizes) or settings.fix_min_bytes <= 0:
        return
    total = sum(b for b in sizes if b is not None)
    if total >= settings.fix_min_bytes:
        return
    owners = sorted({short_name(f.owner) for f in safe})
    where = " and ".join(f"{o}.__init__" for o in owners)
    saving = (
        "what it would skip holds no parameters, buffers or tensors"
        if total == 0
        else f"it saves {human_bytes(total)} per instance, below fix-min-bytes ({human_bytes(settings.fix_min_bytes)})"
    )
    reason = f"{saving}: not worth a new parameter of {where}"
    for f in safe:
        if f.verdict is not None:
            f.verdict = replace(f.verdict, deferred=reason)
