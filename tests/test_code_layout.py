"""The code stays in small files: no Python file of the repository is over 400 lines."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 400
FOLDERS = ("deadinit", "tests", "bench", ".ci")


def _python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def test_the_walk_sees_the_package():
    assert ROOT / "deadinit" / "model" / "summary.py" in _python_files()


def test_every_file_is_small():
    big = {
        str(p.relative_to(ROOT)): n
        for p in _python_files()
        if (n := p.read_text(encoding="utf-8").count("\n")) > MAX_LINES
    }
    assert big == {}, f"over {MAX_LINES} lines"
