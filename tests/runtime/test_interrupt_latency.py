"""Ctrl-C ends a cold run within a second, its worker processes included.

A generated tree of 3,000 files (1,000 packages: a parent allocating buffers, a subclass
overwriting one, a chain of subclasses below it, each allocating enough to be worth a fix) is
checked with ``--no-cache --jobs 2``; SIGINT comes while the workers summarise, or once they
have ended and the analysis runs.  From the signal to the moment the command has exited and no
process it started still runs: under a second.  Linux only (the processes are followed in /proc).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from figures import FIGURES
from process_tree import ProcessTree, kill_leftovers, require_proc

PACKAGES = 1000
DEPTH = 6
LIMIT_S = 1.0
COMMANDS = {
    "check": ["check", "--no-cache", "--jobs", "2", "--quiet", "tree"],
    "fix": ["fix", "--no-cache", "--jobs", "2", "--diff", "--quiet", "tree"],
}
CASES = [("check", "summarising"), ("check", "analysing"), ("fix", "analysing")]


def _tree(root: Path, packages: int) -> None:
    for i in range(packages):
        d = root / "tree" / f"p{i}"
        d.mkdir(parents=True)
        (d / "__init__.py").write_text("")
        (d / "base.py").write_text(
            "import torch\n\n\n"
            f"class Base{i}:\n"
            "    def __init__(self, n=4096):\n"
            "        self.ws = torch.zeros(n)\n"
            "        self.keep = torch.ones(n)\n\n"
            "    def forward(self):\n"
            "        return self.ws.sum() + self.keep.sum()\n"
        )
        (d / "child.py").write_text(
            f"import torch\n\nfrom .base import Base{i}\n\n\nclass Child{i}(Base{i}):\n"
            "    def __init__(self):\n        super().__init__()\n        self.ws = torch.zeros(2)\n"
            + "".join(_grandchild(i, k) for k in range(DEPTH))
        )


def _grandchild(i: int, k: int) -> str:
    """A class below ``Child{i}`` (a chain ``DEPTH`` deep): the analysis, not the summaries, grows with it."""
    above = f"Child{i}" if k == 0 else f"Child{i}_{k - 1}"
    return (
        f"\n\nclass Child{i}_{k}({above}):\n"
        f"    def __init__(self):\n        super().__init__()\n        self.t{k} = torch.zeros(4096)\n"
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("interrupt-latency")
    _tree(root, PACKAGES)
    return root


def _env(root: Path) -> dict:
    return dict(os.environ, NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(root / ".xdg-cache"))


def _wait_for(moment: str, tree: ProcessTree, proc: subprocess.Popen) -> None:
    assert tree.wait_until(2, timeout=120), "the workers never started"
    time.sleep(0.5)
    if moment == "analysing":  # the pool has closed: every worker has ended
        end = time.monotonic() + 300
        while tree.running() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(0.5)
    assert proc.poll() is None, "the run ended before the signal"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="processes followed in /proc")
@pytest.mark.parametrize(("command", "moment"), CASES, ids=["-".join(c) for c in CASES])
def test_ctrl_c_ends_a_cold_run_and_its_workers_within_a_second(generated, command, moment):
    require_proc()
    proc = subprocess.Popen(
        [sys.executable, "-m", "deadinit.cli.main", *COMMANDS[command]],
        cwd=generated,
        env=_env(generated),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    tree = ProcessTree(proc.pid, interval=0.01)
    try:
        _wait_for(moment, tree, proc)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        exited = time.monotonic() - sent
        left = tree.wait_all_ended(timeout=LIMIT_S)
        ended = time.monotonic() - sent
    finally:
        tree.stop()
        kill_leftovers(tree)
    key = f"Ctrl-C to exit, {command} while {moment} (ms)"
    FIGURES[key] = max(FIGURES.get(key, 0), round(ended * 1000))
    assert (proc.returncode, err) == (130, "deadinit: interrupted\n")
    assert not left, f"still running {ended:.2f} s after the signal: {left}"
    assert exited < LIMIT_S and ended < LIMIT_S, (exited, ended)
