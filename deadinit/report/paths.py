"""How reporters spell paths: as given, normalised; SARIF URIs relative to the source root."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote


def display(path: str) -> str:
    """``./pkg/a.py`` -> ``pkg/a.py``; absolute paths stay absolute."""
    return os.path.normpath(path) if path else path


def uri(path: str, root: str) -> tuple[str, bool]:
    """(URI, relative?): relative to ``root`` when the file lies under it, else a file:// URI."""
    full = os.path.abspath(path)
    rel = os.path.relpath(full, root)
    if not rel.startswith(os.pardir) and not os.path.isabs(rel):
        return quote(Path(rel).as_posix()), True
    return Path(full).as_uri(), False
