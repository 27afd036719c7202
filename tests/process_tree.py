"""Follow every process a test's subprocess starts (from ``/proc``; Linux only), to check none outlives it.

``ProcessTree(pid)`` samples ``/proc`` in a background thread and remembers each
descendant of ``pid`` by (pid, start time), so that it still knows them once the
root is killed and they are re-parented, and never mistakes a reused pid for one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from pathlib import Path

import pytest

PROC = Path("/proc")


def require_proc() -> None:
    if not (PROC / "self" / "stat").exists():
        pytest.skip("needs /proc (Linux)")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of ``pid``, or None when it is gone."""
    try:
        data = (PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()
    return int(fields[1]), fields[0].decode(), int(fields[19])


def _all() -> dict[int, tuple[int, str, int]]:
    out = {}
    for entry in os.scandir(PROC):
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                out[int(entry.name)] = st
    return out


class ProcessTree:
    def __init__(self, root: int, interval: float = 0.02):
        self.root = root
        self.interval = interval
        self.seen: dict[int, int] = {}  # descendant pid -> its start time
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            time.sleep(self.interval)

    def sample(self) -> None:
        procs = _all()
        with self._lock:
            parents = {self.root} | set(self.seen)
            grew = True
            while grew:
                grew = False
                for pid, (ppid, _state, start) in procs.items():
                    if ppid in parents and pid not in parents:
                        self.seen[pid] = start
                        parents.add(pid)
                        grew = True

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    def descendants(self) -> list[int]:
        with self._lock:
            return list(self.seen)

    def running(self) -> list[str]:
        """The descendants still running (zombies count as ended), with their command lines."""
        out = []
        with self._lock:
            seen = dict(self.seen)
        for pid, start in seen.items():
            st = _stat(pid)
            if st is not None and st[2] == start and st[1] != "Z":
                out.append(f"{pid} ({command_line(pid)[:120]})")
        return out

    def wait_until(self, count: int, timeout: float) -> bool:
        """Whether ``count`` descendants were seen within ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if len(self.descendants()) >= count:
                return True
            time.sleep(self.interval)
        return False

    def wait_all_ended(self, timeout: float = 5.0) -> list[str]:
        """Poll until no descendant runs any more; those still running after ``timeout``."""
        end = time.monotonic() + timeout
        while True:
            left = self.running()
            if not left or time.monotonic() > end:
                return left
            time.sleep(0.05)


def command_line(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def kill_leftovers(tree: ProcessTree) -> None:
    """Clean up after a failed test: SIGKILL what is still running of ``tree``."""
    for entry in tree.running():
        with contextlib.suppress(OSError):
            os.kill(int(entry.split()[0]), signal.SIGKILL)
