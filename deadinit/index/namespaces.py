"""Module names above the top regular package (PEP 420 namespace packages), and the signs that the
project's modules are named otherwise than its own code imports them.

Python names a module by its path below the entry of the import path it is found on; a folder
without ``__init__.py`` between that entry and a regular package is a namespace package, part of
the name (``pkg/core/x.py`` under ``pkg/`` without ``__init__.py`` is ``pkg.core.x`` when the folder
above ``pkg`` is on the path).  The import path is not in the files, so the entry is taken to be
the project folder that holds the code: the nearest folder above the top regular package that
holds a ``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git`` (its ``src/`` when the code lies
there), crossing only folders whose names are identifiers.  Without such a folder the top regular
package starts the name, as before.  ``roots`` overrides both.

When the project's own imports still name its packages otherwise, ``index.project_gaps`` says so.
"""

from __future__ import annotations

import os
from keyword import iskeyword

IMPORT_PATH_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
SOURCE_FOLDER = "src"

_PREFIX: dict[str, str] = {}  # by the top package's folder (absolute, normalised)


def namespace_prefix(top: str) -> str:
    """The dotted namespace packages above the regular package in folder ``top`` ("" when none)."""
    got = _PREFIX.get(top)
    if got is None:
        got = _PREFIX[top] = _prefix(top)
    return got


def _prefix(top: str) -> str:
    names: list[str] = []  # bottom up
    folder = os.path.dirname(top)
    while True:
        if any(os.path.exists(os.path.join(folder, m)) for m in IMPORT_PATH_MARKERS):
            down = names[::-1]
            if down[:1] == [SOURCE_FOLDER]:
                down = down[1:]
            return ".".join(down)
        name, parent = os.path.basename(folder), os.path.dirname(folder)
        if parent == folder or not name.isidentifier() or iskeyword(name):
            return ""
        names.append(name)
        folder = parent
