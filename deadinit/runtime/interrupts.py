"""What Ctrl-C does: end the command at once, or, where something must be undone, raise.

**At once** (``exit_at_once``, deadinit's SIGINT handler from start-up to the end): the
process prints ``deadinit: interrupted``, kills the worker processes it started and ends
with status 130 (``os._exit``), within milliseconds.  Raising a ``KeyboardInterrupt``
instead would wait for the workers' chunks and free every table of the analysis while the
frames unwind (seconds on a large project).  Nothing is half-written by ending so: every
file deadinit writes (cache entries, packs, states, baselines, reports) goes to a temporary
file first and is moved into place whole, and a killed run's temporary files carry its pid,
so the next run removes them (``deadinit.runtime.temp_files``).

**Raised** (``interrupts_raise()``): inside the block Ctrl-C is a plain ``KeyboardInterrupt``,
for code that must undo what it did (``deadinit fix`` restores the files it had rewritten);
once it leaves the block, undone, a process that ended at once before ends at once now.

**Held** (``interrupts_held()``): a SIGINT that arrives while the main thread forks a child (a
worker, the helper) is handled inside the interpreter's at-fork callbacks (``logging``
registers one); whatever the handler does there goes wrong.  Inside the block a Ctrl-C is
only noted (Python runs signal handlers in the main thread, whichever thread the signal
reached) and SIGINT is blocked in the main thread; when the block ends, the handler before
it is back and a Ctrl-C that came meanwhile is handed to it.

Children forked inside a held block start with SIGINT blocked: a Ctrl-C at the terminal
(sent to the whole process group) reaches only deadinit, which ends its children.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

EXIT_INTERRUPTED = 130
MESSAGE = b"deadinit: interrupted\n"


def exit_at_once(_signum: int = signal.SIGINT, _frame: FrameType | None = None) -> NoReturn:
    """The SIGINT handler of a command with nothing to undo: the message, the children killed, exit 130."""
    with contextlib.suppress(OSError):
        os.write(2, MESSAGE)
    _kill_children()
    os._exit(EXIT_INTERRUPTED)


def _kill_children() -> None:
    """SIGKILL the worker processes and the helper (multiprocessing's children): they would end by
    themselves once this process is gone (``deadinit.runtime.orphans``), this makes it immediate."""
    mp = sys.modules.get("multiprocessing")
    if mp is None:
        return
    for child in mp.active_children():
        with contextlib.suppress(Exception):
            child.kill()


def install_exit_at_once() -> None:
    """Make ``exit_at_once`` the SIGINT handler (main thread only)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, exit_at_once)


@contextmanager
def interrupts_raise() -> Iterator[None]:
    """Ctrl-C is a ``KeyboardInterrupt`` inside the block (no-op outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    except KeyboardInterrupt:
        if previous is exit_at_once:
            exit_at_once()
        raise
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """A Ctrl-C during the block is handed to the handler before it when it ends (no-op outside the
    main thread)."""
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
