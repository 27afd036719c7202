"""Ctrl-C held back while this process forks.

A SIGINT that arrives while the main thread forks a child (a worker, the helper) is
handled inside the interpreter's at-fork callbacks (``logging`` registers one); the
``KeyboardInterrupt`` raised there is printed as "Exception ignored in ..." with a
traceback, and lost.  Inside ``interrupts_held()`` a Ctrl-C is only noted (Python runs
signal handlers in the main thread, whichever thread the signal reached) and SIGINT is
blocked in the main thread; when the block ends, the handler before it is back and a
Ctrl-C that came meanwhile is raised as a plain ``KeyboardInterrupt``, where deadinit
handles it.

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
    """A Ctrl-C during the block is raised when it ends (no-op outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a blocked one now reaches ``previous``
    if came and callable(previous):
        previous(signal.SIGINT, None)
