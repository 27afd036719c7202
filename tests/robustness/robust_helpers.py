"""Helpers for the robustness tests (a uniquely named module: several conftest.py files exist)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from figures import FIGURES, count  # noqa: F401  (re-exported for the robustness tests)
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parents[2]

# A hierarchy with one designed finding: DI002 Base.ws (line 6) for Child.
GOOD = """import torch


class Base:
    def __init__(self):
        self.ws = torch.zeros(4096)

    def forward(self):
        return 1


class Child(Base):
    def __init__(self):
        super().__init__()
"""
GOOD_LINE = 6

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
_LONG = 1000


def profile(max_examples: int) -> settings:
    """The hypothesis settings of a robustness property: ``max_examples`` derandomised examples
    (the same ones on every run; ``tiers.examples`` gives the count of each tier), or, with
    DEADINIT_ROBUSTNESS_PROFILE=robustness-long, 1000 fresh ones."""
    if os.environ.get("DEADINIT_ROBUSTNESS_PROFILE") == "robustness-long":
        return settings(max_examples=_LONG, deadline=None, suppress_health_check=_QUIET)
    return settings(max_examples=max_examples, deadline=None, derandomize=True, suppress_health_check=_QUIET)


CRASH_MARKERS = ("Traceback (most recent call last)", "Fatal Python error", "Segmentation fault", "core dumped")


def env(tmp: Path, **extra) -> dict:
    """A clean environment: no colour, 80 columns (wrapping would show), a private cache key folder."""
    e = dict(
        os.environ,
        PYTHONDONTWRITEBYTECODE="1",
        NO_COLOR="1",
        COLUMNS="80",
        TERM="dumb",
        XDG_CACHE_HOME=str(tmp / ".xdg-cache"),
    )
    e.pop("FORCE_COLOR", None)
    e.update(extra)
    return e


def deadinit_cmd(*args) -> list[str]:
    return [sys.executable, "-m", "deadinit.cli.main", *map(str, args)]


def cli(*args, cwd: Path, timeout: int = 300, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        deadinit_cmd(*args), cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env(cwd), **kw
    )


def assert_no_crash(p: subprocess.CompletedProcess) -> None:
    for marker in CRASH_MARKERS:
        assert marker not in p.stderr, p.stderr[-3000:]
        assert marker not in p.stdout, p.stdout[-3000:]
    assert p.returncode in (0, 1, 2), (p.returncode, p.stderr[-3000:])


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("deadinit: error: ")]


def findings(p: subprocess.CompletedProcess) -> list[dict]:
    return json.loads(p.stdout) if p.stdout.strip() else []


def found(items: list[dict], path_suffix: str, line: int) -> bool:
    return any(f["path"].replace(os.sep, "/").endswith(path_suffix) and f["line"] == line for f in items)


def write(root: Path, files: dict) -> Path:
    for rel, src in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(src, bytes):
            p.write_bytes(src)
        else:
            p.write_text(src)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py")) if p.is_file()}


def parses(data: bytes) -> bool:
    try:
        ast.parse(data)
        return True
    except SyntaxError:
        return False


def fixable_tree(root: Path, n: int) -> Path:
    """``n`` packages, each a parent allocating three buffers and a subclass that reads one of them:
    ``deadinit fix --strategy skip-flag`` rewrites both files of every package."""
    for i in range(n):
        write(
            root,
            {
                f"tree/p{i}/__init__.py": "",
                f"tree/p{i}/base.py": (
                    "import torch\n\n\n"
                    f"class Base{i}:\n"
                    "    def __init__(self, n=1024):\n"
                    "        self.ws = torch.zeros(n)\n"
                    "        self.cache = torch.empty(n, n)\n"
                    "        self.keep = torch.ones(n)\n\n"
                    "    def forward(self):\n"
                    "        return self.ws.sum() + self.cache.sum() + self.keep.sum()\n"
                ),
                f"tree/p{i}/child.py": (
                    "import torch\n\n"
                    f"from .base import Base{i}\n\n\n"
                    f"class Child{i}(Base{i}):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.cache = torch.empty(2, 2)\n\n"
                    "    def forward(self):\n"
                    "        return self.keep.sum() + self.cache.sum()\n"
                ),
            },
        )
    return root / "tree"
