"""The JSON fix report, written and read in one place: what ``deadinit fix --report FILE`` writes
(``fix_report``) and what ``deadinit gpu-check --fix-report`` and ``--pr-body`` read back
(``read_fix_report``).  Its schema: ``fix-report.schema.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deadinit.runtime.provenance import provenance

REPORTED_FIELDS = ("key", "message", "attribute", "parent", "lifetime", "steady_bytes", "transient_bytes", "evidence")


def fix_report(out, command: str | None) -> dict:
    """The report of a fix run's outcome (``fixes.driver.FixOutcome``); ``command``: the command
    line that made it, or None."""
    found = {f.key: f for f in getattr(out.before, "findings", None) or []}
    return {
        "command": command,
        "deadinit": provenance().to_json(),  # the code that made the rewrite: evidence names it
        "strategy": out.strategy,
        "applied": bool(out.written),
        "changes": [
            dict(
                c.to_json(),
                evidence=[_finding_entry(found[k]) for k in c.findings if k in found],
            )
            for c in out.plan.changes
        ],
        "not_fixed": [r.to_json() for r in out.refusals],
        "files": [fp.path for fp in out.plan.files],
        "diff_stat": out.diff_stat(),
    }


def _finding_entry(f) -> dict:
    """A finding a change resolves, as the fix report (and the PR body written from it) shows it: the
    fields of its JSON form that say what and how much, with the size as check shows it."""
    d = f.to_json()
    return {**{k: d.get(k) for k in REPORTED_FIELDS}, "size": f.size_text}


def read_fix_report(path: Path) -> dict[str, Any]:
    """A fix report read back: the object ``fix_report`` wrote, or a JSON list of change records
    (as ``{"changes": [...]}``).  Raises ``OSError`` / ``json.JSONDecodeError`` as reading does."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {"changes": data} if isinstance(data, list) else data
