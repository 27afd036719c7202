"""GitHub Actions workflow commands: one annotation per finding, ``::error`` or ``::warning`` as its rule's severity.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from __future__ import annotations

from deadinit.model.file_error import FileError
from deadinit.model.finding import human_bytes
from deadinit.report.paths import display
from deadinit.rules.registry import severity


def _data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _data(s).replace(":", "%3A").replace(",", "%2C")


def annotation(f) -> str:
    msg = f"{f.message} ({f.name}"
    if f.estimated_bytes is not None:
        msg += f", ~{human_bytes(f.estimated_bytes)} per instance"
    elif f.size_expr:
        msg += f", ~{f.size_expr} per instance"
    msg += ")"
    where = f"file={_prop(display(f.path))},line={f.line},col={f.column},title={_prop(f.code)}"
    return f"::{severity(f.code)} {where}::{_data(msg)}"


def error(e: str, place: FileError | None = None) -> str:
    """An error line ``path: message`` as an ``::error`` annotation on that file; a file that could not
    be read (``place``) at the line the problem is on, else its first."""
    if place is not None:
        where = f"file={_prop(display(place.path))},line={place.line or 1}"
        if place.column:
            where += f",col={place.column}"
        return f"::error {where},title=deadinit::{_data(place.message)}"
    path, sep, msg = e.partition(": ")
    if sep:
        return f"::error file={_prop(display(path))},title=deadinit::{_data(msg)}"
    return f"::error title=deadinit::{_data(e)}"


def render(result, **_) -> str:
    places = {str(e): e for e in result.unreadable}
    lines = [error(e, places.get(e)) for e in result.errors]
    lines += [annotation(f) for f in result.findings]
    return "".join(s + "\n" for s in lines)
