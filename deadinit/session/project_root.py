"""Which project a run over some paths analyses, and which of its findings it reports.

A parent class is judged by what its subclasses in other files do, so a file is never analysed
alone: given files or folders inside a project, deadinit analyses the whole project (through the
same caches as a run over it) and reports the findings that touch the given paths.  The project's
root is found the way ruff finds its configuration: the nearest folder above the paths whose
``pyproject.toml`` has a ``[tool.deadinit]`` table (the folder of a ``--config`` file that holds
them), else the root of the git work tree they lie in.  Outside any project, the paths are the
project, as before.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from deadinit.session.config import find_config


@dataclass(frozen=True)
class ProjectScope:
    targets: list[str]  # what is analysed
    scope: list[str] | None  # the paths whose findings are reported (None: every finding)


def project_scope(paths: list[str], config_file: str | None = None) -> ProjectScope:
    """``paths`` (at least one) as the project they lie in and the paths reported on."""
    root = project_root(paths, config_file)
    if root is None:
        return ProjectScope(list(paths), None)
    real = {os.path.realpath(p) for p in paths}
    if str(root) in real:  # the whole project is given
        return ProjectScope(list(paths), None)
    spelled = str(root) if any(os.path.isabs(p) for p in paths) else _relative(root)
    return ProjectScope([spelled], list(paths))


def project_root(paths: list[str], config_file: str | None = None) -> Path | None:
    """The folder of the project ``paths`` lie in (real path), or None."""
    start = _start(paths)
    if config_file is not None:
        folder = Path(os.path.realpath(os.path.dirname(os.path.abspath(config_file))))
        return folder if _contains(folder, start) else None
    found = find_config(paths)
    if found is not None:
        return Path(os.path.realpath(found.parent))
    for d in [start, *start.parents]:
        if (d / ".git").exists():
            return d
    return None


def _start(paths: list[str]) -> Path:
    """The deepest folder that holds every path (real paths)."""
    reals = [os.path.realpath(p) for p in paths] or [os.path.realpath(os.curdir)]
    start = Path(os.path.commonpath(reals))
    return start if start.is_dir() else start.parent


def _contains(folder: Path, path: Path) -> bool:
    return path == folder or folder in path.parents


def _relative(root: Path) -> str:
    """``root`` as the user would name it from here: relative when the working folder is inside it
    or next to it (``.``, ``..``, ``src``), else absolute."""
    here = Path(os.path.realpath(os.curdir))
    rel = os.path.relpath(root, here)
    return rel if _contains(root, here) or not rel.startswith(os.pardir) else str(root)


class Scope:
    """The paths a run reports on: files, and folders (what lies in them)."""

    def __init__(self, paths: list[str]) -> None:
        reals = [os.path.realpath(p) for p in paths]
        self.files = frozenset(reals)
        self.folders = tuple(r.rstrip(os.sep) + os.sep for r in reals if os.path.isdir(r))

    def covers(self, path: str) -> bool:
        real = os.path.realpath(path)
        return real in self.files or any(real.startswith(f) for f in self.folders)
