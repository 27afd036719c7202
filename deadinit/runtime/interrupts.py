"""Ctrl-C held back while this process forks.

A SIGINT that arrives while the main thread forks a child (a worker, the helper) is
delivered inside the interpreter's at-fork callbacks (``logging`` registers one); the
``KeyboardInterrupt`` raised there is printed as "Exception ignored in ..." with a
traceback, and lost.  ``interrupts_held()`` blocks SIGINT in the main thread for the
fork and unblocks it afterwards: a Ctrl-C that came meanwhile is then raised as a plain
``KeyboardInterrupt`` at the end of the ``with`` block, where deadinit handles it.

Children forked inside the block start with SIGINT blocked: a Ctrl-C at the terminal
(sent to the whole process group) reaches only deadinit, which ends its children.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT blocked in the main thread during the block (no-op elsewhere, or without
    ``pthread_sigmask``); one that arrived is raised when it ends."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
