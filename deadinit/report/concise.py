"""One line per finding: ``path:line:col: CODE message`` (grep- and editor-friendly)."""

from __future__ import annotations

from deadinit.report.paths import display


def line(f) -> str:
    return f"{display(f.path)}:{f.line}:{f.column}: {f.code} {f.message}"


def render(result, **_) -> str:
    return "".join(line(f) + "\n" for f in result.findings)
