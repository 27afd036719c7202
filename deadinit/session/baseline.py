"""Baselines: record today's findings, later report only new ones.

A finding's identity is ``Finding.key`` (code, subclass, parent, attribute), so
entries survive line moves and edits elsewhere in the file.  DI100 (unused
suppression) is never recorded: it has no stable identity and is cheap to fix.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from deadinit import __version__
from deadinit.model.finding import Finding
from deadinit.runtime.file_cache import write_atomically

FORMAT = "deadinit-baseline"
VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be read or written; shown as one line."""


@dataclass
class Baseline:
    path: str
    keys: set[str] = field(default_factory=set)


@dataclass
class Filtered:
    findings: list[Finding]
    baselined: int = 0  # findings hidden because the baseline has them
    stale: list[str] = field(default_factory=list)  # baseline keys no longer found


def recordable(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.code != "DI100"]


def write_baseline(path: str, findings: Iterable[Finding]) -> int:
    """Write the findings' keys (plus readable context) to ``path`` atomically."""
    entries = sorted(
        (
            {
                "key": f.key,
                "code": f.code,
                "class": f.cls,
                "parent": f.parent,
                "attribute": f.attribute,
                "path": f.path.replace(os.sep, "/"),
                "message": f.message,
            }
            for f in recordable(findings)
        ),
        key=lambda e: e["key"],
    )
    unique = list({e["key"]: e for e in entries}.values())
    doc = {"format": FORMAT, "version": VERSION, "deadinit": __version__, "findings": unique}
    try:
        write_atomically(Path(path), (json.dumps(doc, indent=2) + "\n").encode("utf-8"))
    except OSError as e:
        raise BaselineError(f"cannot write baseline {path}: {e.strerror or e}") from None
    return len(unique)


def load_baseline(path: str) -> Baseline:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise BaselineError(f"baseline file not found: {path}") from None
    except IsADirectoryError:
        raise BaselineError(f"cannot read baseline {path}: is a directory") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BaselineError(f"cannot read baseline {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise BaselineError(f"baseline {path} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BaselineError(f"{path} is not a deadinit baseline (write one with --write-baseline)")
    if doc.get("version") != VERSION:
        raise BaselineError(
            f"baseline {path} has version {doc.get('version')!r}; this deadinit reads version {VERSION}"
        )
    entries = doc.get("findings")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("key"), str) for e in entries):
        raise BaselineError(f"baseline {path} is damaged: `findings` must be a list of objects with a `key`")
    return Baseline(path, {e["key"] for e in entries})


def apply_baseline(baseline: Baseline, findings: Iterable[Finding]) -> Filtered:
    """Drop the findings the baseline knows; list its keys that no longer occur."""
    out = Filtered([])
    seen: set[str] = set()
    for f in findings:
        if f.code != "DI100" and f.key in baseline.keys:
            out.baselined += 1
            seen.add(f.key)
        else:
            out.findings.append(f)
    out.stale = sorted(baseline.keys - seen)
    return out
