"""Make a child process end when the deadinit process that started it ends, however it ends.

``end_with_parent(parent_pid)`` is the first thing every child deadinit starts runs:
the worker pool's initializer (``deadinit.runtime.pool``), the result-cache helper
(``deadinit.runtime.helper``) and the gpu-check measurement child
(``deadinit/gpu_check/harness.py``, which loads this file by path: standard library
only, nothing from deadinit).  Three mechanisms, whichever apply:

* **Linux**: the parent-death signal (``prctl(PR_SET_PDEATHSIG, SIGKILL)``): the kernel
  kills the child when the thread that created it ends, SIGKILL included (deadinit
  starts children from its main thread, or, for gpu-check, from pool threads that
  wait for them).  Set after the fork, so the parent may already be gone by then:
  the child checks right after and ends at once if it is.
* **multiprocessing children, any platform**: a daemon thread waits on
  ``multiprocessing.parent_process()``'s sentinel, a pipe whose write end only the
  parent holds (on Windows a handle on the parent process); it ends the child when
  the pipe closes.  This also covers workers started by multiprocessing's fork
  server, whose parent is the fork server and not deadinit (the fork server then
  exits by itself once no client is left).
* **anything else that is not Linux** (an exec'd child on macOS): a daemon thread
  polls ``os.getppid()`` every ``POLL_SECONDS`` and ends the child when it changes
  (the parent died and the child was re-parented).

A child that ends this way calls ``os._exit`` (or is killed by the kernel): no
clean-up runs in it, and the temporary files it may leave carry its pid, so the
next run removes them (``deadinit.runtime.temp_files``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

POLL_SECONDS = 0.5
EXIT_STATUS = 70  # what a child that outlived its parent exits with (nobody waits for it)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_PID_VARIABLE = "DEADINIT_PARENT_PID"  # how an exec'd child (gpu-check) learns its parent


def end_with_parent(parent_pid: int) -> None:
    """End this process when process ``parent_pid`` (the deadinit process that started it,
    directly or through multiprocessing's fork server) ends.  Never raises: a child that
    cannot arrange it runs as before."""
    try:
        armed = arm_parent_death_signal()
        if not process_running(parent_pid):
            os._exit(EXIT_STATUS)  # the parent ended before the signal was armed
        mp = sys.modules.get("multiprocessing")
        mp_parent = mp.parent_process() if mp is not None else None
        if mp_parent is not None:
            _watch(_wait_for_sentinel, mp_parent)
        elif not armed:
            _watch(_poll_parent_pid, os.getppid())
    except Exception:
        pass


def end_with_parent_from_environment() -> None:
    """``end_with_parent`` for an exec'd child whose parent set ``PARENT_PID_VARIABLE``
    (removed here, so that what the child runs does not see it)."""
    value = os.environ.pop(PARENT_PID_VARIABLE, "")
    if value.isdigit():
        end_with_parent(int(value))


def child_environment(env: dict[str, str]) -> dict[str, str]:
    """``env`` for an exec'd child that calls ``end_with_parent_from_environment``."""
    return {**env, PARENT_PID_VARIABLE: str(os.getpid())}


def arm_parent_death_signal() -> bool:
    """Linux: have the kernel SIGKILL this process when its parent ends.  False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def process_running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie.  True when it cannot be told
    (Windows, where ``os.kill(pid, 0)`` would end the process)."""
    if sys.platform == "win32":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Linux: the process has ended and waits to be reaped (``/proc/PID/stat`` state Z)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] == b"Z"


def _watch(target: Callable[[Any], None], arg: object) -> None:
    threading.Thread(target=target, args=(arg,), name="deadinit-end-with-parent", daemon=True).start()


def _wait_for_sentinel(mp_parent: BaseProcess) -> None:
    mp_parent.join()  # returns when the sentinel pipe closes: the parent has ended
    os._exit(EXIT_STATUS)


def _poll_parent_pid(ppid: int) -> None:
    while os.getppid() == ppid:
        time.sleep(POLL_SECONDS)
    os._exit(EXIT_STATUS)
