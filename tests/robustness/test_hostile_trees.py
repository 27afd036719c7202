"""Hostile trees finish within the bound their test names, exit at most 2 and print no
traceback: a cycle of thousands of classes, a chain a thousand deep, thousands of attributes,
an ``__init__`` of 50,000 lines, 10,000 one-line files, a file of nothing but classes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import hostile_trees as gen
import pytest

pytestmark = pytest.mark.slow


def _check(root, bound: float) -> tuple[int, list, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEADINIT_")}
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "deadinit", "check", "--no-cache", "--format", "json", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=bound * 3,
    )
    took = time.monotonic() - start
    assert proc.returncode <= 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stderr, proc.stderr[-2000:]
    assert took < bound, f"took {took:.1f} s, bound {bound} s"
    return proc.returncode, json.loads(proc.stdout or "[]"), proc.stderr


def test_cycle_of_3000_classes_under_60s(tmp_path):
    gen.cycle(tmp_path, 3000)
    code, findings, err = _check(tmp_path, 60)
    lines = [line for line in err.splitlines() if "inherits from itself" in line]
    assert len(lines) == 1 and "more" in lines[0] and len(lines[0]) < 400, err[-1000:]
    assert code == 0 and findings == []


def test_chain_1000_deep_under_240s(tmp_path):
    gen.chain(tmp_path, 1000)
    code, findings, _ = _check(tmp_path, 240)
    assert code == 1
    assert sum(f["attribute"].startswith("a") for f in findings) >= 999  # each tensor but the last one's


def test_class_with_5000_attributes_under_120s(tmp_path):
    gen.many_attributes(tmp_path, 5000)
    code, findings, _ = _check(tmp_path, 120)
    assert code == 1
    assert sum(f["code"] == "DI001" for f in findings) == 2500


def test_init_of_50000_lines_under_120s(tmp_path):
    gen.long_init(tmp_path, 50_000)
    code, findings, _ = _check(tmp_path, 120)
    assert code <= 1
    assert code == 0 or all(f["class"].endswith("Sub") for f in findings)


def test_10000_one_line_files_under_120s(tmp_path):
    gen.many_files(tmp_path, 10_000)
    code, findings, _ = _check(tmp_path, 120)
    assert code == 0 and findings == []


def test_file_of_20000_classes_under_120s(tmp_path):
    gen.classes_only(tmp_path, 20_000)
    code, findings, _ = _check(tmp_path, 120)
    assert code == 0 and findings == []
