"""A worker process forked when a cached ``check`` starts (``session.result.cached_check``).

While the main process walks the tree and compares file states, the helper loads
the summarisers (libcst: ~0.5 s) on the other core.  When a file changed, the
result cache re-summarises it there, already warm; when nothing changed, or the
full run starts, the helper is terminated.  Only with fork, two cores or more and
one thread (a fork never copies a lock another thread holds); otherwise
``available`` is False and callers use ``deadinit.runtime.pool.Pool``.  The
helper ignores Ctrl-C (the main process ends it), ends when the main process
ends however it ends (``deadinit.runtime.orphans``), and a crash in it (libcst's
native parser) only makes ``call`` return None.
"""

from __future__ import annotations

import faulthandler
import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from deadinit.runtime.interrupts import interrupts_held
from deadinit.runtime.orphans import end_with_parent
from deadinit.runtime.pool import default_jobs

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess


class Helper:
    def __init__(self) -> None:
        self.proc: BaseProcess | None = None
        self.conn: Connection[Any, Any] | None = None
        if default_jobs() < 2 or "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() != 1:
            return
        try:
            ctx = multiprocessing.get_context("fork")
            self.conn, child = ctx.Pipe()
            self.proc = ctx.Process(target=_serve, args=(child, os.getpid()), daemon=True, name="deadinit-helper")
            with interrupts_held():
                self.proc.start()
            child.close()
        except OSError:
            self.proc = None

    @property
    def available(self) -> bool:
        return self.proc is not None and self.proc.is_alive()

    def send(self, func: Callable[[Any], object], items: Iterable[Any]) -> None:
        """Start ``[func(item) for item in items]`` in the helper; ``receive`` gives it."""
        self._sent = False
        if self.proc is None or self.conn is None:  # no connection, no process
            return
        try:
            self.conn.send((func, list(items)))
            self._sent = True
        except OSError:
            pass

    def receive(self) -> list[Any] | None:
        """What ``send`` started (an item that raised gives None), or None when the helper failed."""
        if not getattr(self, "_sent", False) or self.conn is None:  # sent: there is a connection
            return None
        self._sent = False
        try:
            ok, value = self.conn.recv()
        except (EOFError, OSError):
            return None
        got: list[Any] | None = value if ok else None
        return got

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.terminate()
            self.proc.join(timeout=5)
            if self.conn is not None:  # made before the process
                self.conn.close()
            self.proc = None

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_STARTED: Helper | None = None


def prestart() -> None:
    """Fork the helper now (the CLI, before it loads the rest of ``check``): it is ready sooner."""
    global _STARTED
    if _STARTED is None:
        _STARTED = Helper()


def take() -> Helper:
    """The helper ``prestart`` forked, else a new one."""
    global _STARTED
    h, _STARTED = _STARTED, None
    return h if h is not None else Helper()


def _serve(conn: Connection[Any, Any], parent_pid: int) -> None:
    end_with_parent(parent_pid)  # conn.recv() would not see it end: the fork copied its end of the pipe
    gc.disable()  # one file's short-lived objects; the process is ended afterwards
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if faulthandler.is_enabled():
        faulthandler.disable()
    import deadinit.runtime.workers  # noqa: F401, PLC0415 - the point of the helper: load libcst now

    while True:
        try:
            func, items = conn.recv()
        except (EOFError, OSError):
            return
        out = []
        for item in items:
            try:
                out.append(func(item))
            except Exception:
                out.append(None)
        try:
            conn.send((True, out))
        except Exception:
            conn.send((False, None))
