"""Which deadinit wrote an output: its version and, run from a git checkout, the commit.

A fix report names the code that made its rewrite, so evidence built from the rewritten
tree (``docs/gpu/*``) says which commit it holds for. The commit is read only where the
package's own folder is a tracked ``deadinit/`` at the top of a git work tree (an editable
install or ``PYTHONPATH`` of a checkout): an installed copy inside some other repository
(a venv in a project's checkout) gets no commit, not that repository's.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deadinit import __version__

PACKAGE_DIR = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Provenance:
    version: str
    commit: str | None  # HEAD of the checkout the package runs from; None outside one
    modified: bool | None  # the package's files differ from that commit (None: no commit)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "commit": self.commit, "modified": self.modified}


def _git(args: list[str], cwd: Path) -> str | None:
    # a git hook's GIT_DIR / GIT_INDEX_FILE name the repository being committed to, not deadinit's
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def provenance(package_dir: Path = PACKAGE_DIR) -> Provenance:
    """The version, and the commit and state of the checkout ``package_dir`` sits at the top of."""
    none = Provenance(__version__, None, None)
    top = _git(["rev-parse", "--show-toplevel"], package_dir)
    if top is None or Path(top.strip()).resolve() != package_dir.parent.resolve():
        return none
    name = package_dir.name
    if _git(["ls-files", "--error-unmatch", f"{name}/__init__.py"], package_dir.parent) is None:
        return none
    head = _git(["rev-parse", "--verify", "HEAD"], package_dir.parent)
    status = _git(["status", "--porcelain", "--untracked-files=normal", "--", name], package_dir.parent)
    if head is None or status is None:
        return none
    return Provenance(__version__, head.strip(), bool(status.strip()))
