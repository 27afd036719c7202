"""The summary's words for what the analysis could not see of the project itself (``index.project_gaps``):
bases in modules of the project's packages that were not analysed, and imports that name the
project's own folders (its modules named otherwise than its code imports them)."""

from __future__ import annotations

import os

from deadinit.model.result import CheckResult, MisnamedPackage

SHOWN_BASES = 3


def gaps_clause(result: CheckResult) -> str:
    """``; 3 base classes outside the analysed files: ...; run from the project root or set `roots```,
    and one clause per misnamed package (the first three); "" when the analysis saw everything."""
    text = ""
    bases = getattr(result, "outside_bases", None) or []
    if bases:
        shown = ", ".join(bases[:SHOWN_BASES]) + (", ..." if len(bases) > SHOWN_BASES else "")
        what = "base class" if len(bases) == 1 else "base classes"
        text += f"; {len(bases)} {what} outside the analysed files: {shown}; run from the project root or set `roots`"
    for m in (getattr(result, "misnamed", None) or [])[:SHOWN_BASES]:
        text += "; " + misnamed_text(m)
    return text


def misnamed_text(m: MisnamedPackage) -> str:
    """``12 base classes and 40 calls name `pkg`, a folder of the project that is no module of it:
    set roots = ["."] in [tool.deadinit]``."""
    parts = []
    if m.bases:
        parts.append(f"{m.bases} base class{'es' if m.bases != 1 else ''}")
    if m.calls:
        parts.append(f"{m.calls} call{'s' if m.calls != 1 else ''}")
    verb = "names" if m.bases + m.calls == 1 else "name"
    return (
        f"{' and '.join(parts)} {verb} `{m.package}`, a folder of the project that is no module of it: "
        f'set roots = ["{_shown(m.root)}"] in [tool.deadinit]'
    )


def _shown(folder: str) -> str:
    rel = os.path.relpath(folder)
    return folder if rel.startswith(os.pardir) else rel
