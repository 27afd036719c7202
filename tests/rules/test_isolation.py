"""An internal error in one class's analysis loses that class only: one error line naming it,
exit 2, and every other finding as it was (``rules.isolation``; the ``DEADINIT_FAULT_CLASS``
hook raises inside the named class's analysis)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
VICTIM = "fixtures.backends.trt_mha_backend.TrtMHABackend"


def _check(tmp_path, *extra: str, fault: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEADINIT_")}
    if fault is not None:
        env["DEADINIT_FAULT_CLASS"] = fault
    cache_dir = str(tmp_path / "cache")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "deadinit",
            "check",
            "--format",
            "json",
            "--cache-dir",
            cache_dir,
            *extra,
            str(FIXTURES),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )


@pytest.mark.parametrize("cache", [["--no-cache"], []], ids=["full", "incremental"])
def test_a_fault_in_one_class_loses_only_that_class(tmp_path, cache):
    clean = _check(tmp_path, "--no-cache")
    faulty = _check(tmp_path, *cache, fault=VICTIM)
    assert clean.returncode == 1 and faulty.returncode == 2, faulty.stderr
    lines = [line for line in faulty.stderr.splitlines() if "internal error" in line]
    assert len(lines) == 1, faulty.stderr
    assert VICTIM in lines[0] and "trt_mha_backend.py: line " in lines[0] and "Traceback" not in faulty.stderr
    before = [f for f in json.loads(clean.stdout) if f["class"] != VICTIM]
    after = json.loads(faulty.stdout)
    assert after == before and len(before) > 10


def test_the_next_run_tries_the_class_again(tmp_path):
    """A class that failed leaves no record: a warm run without the fault reports it again."""
    assert _check(tmp_path, fault=VICTIM).returncode == 2
    again = _check(tmp_path)
    assert again.returncode == 1 and "internal error" not in again.stderr
    assert any(f["class"] == VICTIM for f in json.loads(again.stdout))


def test_traceback_on_request(tmp_path, monkeypatch):
    monkeypatch.setenv("DEADINIT_TRACEBACK", "1")
    env_run = subprocess.run(
        [sys.executable, "-m", "deadinit", "check", "--no-cache", "--format", "json", str(FIXTURES)],
        capture_output=True,
        text=True,
        env={**os.environ, "DEADINIT_FAULT_CLASS": VICTIM, "DEADINIT_TRACEBACK": "1"},
        cwd=tmp_path,
    )
    assert env_run.returncode == 2 and "Traceback" in env_run.stderr and "InjectedFault" in env_run.stderr
