"""Paths shared by the tests (a uniquely named module: several conftest.py files exist)."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
CORPUS_DIR = Path(os.environ.get("SGLANG_CORPUS_DIR", Path.home() / ".cache" / "sglang-corpus"))


def sglang_tree(version: str = "0.5.20") -> Path:
    root = CORPUS_DIR / f"sglang-{version}"
    if not (root / ".complete").exists():
        pytest.skip(f"sglang {version} corpus absent (run ../shared/corpus/fetch-sglang {version})")
    return root / "sglang"
