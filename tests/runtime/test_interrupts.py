import signal
import subprocess
import sys

import pytest

from deadinit.runtime.pool import Pool

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")


_SCRIPT = """
import os, signal
from deadinit.runtime.interrupts import interrupts_held
signal.signal(signal.SIGINT, signal.default_int_handler)  # as deadinit runs; a test runner may pass on SIG_IGN
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # or a blocked mask
reached = []
try:
    with interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")
    reached.append("after the block")
except KeyboardInterrupt:
    print(reached, signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set()))
"""


def test_a_ctrl_c_during_the_block_is_raised_when_it_ends():
    """In a process of one thread (pytest-xdist's workers have more, and a signal sent to the
    process may reach another thread a moment later)."""
    out = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "['after the signal'] False", out.stderr


def _blocked(_item):
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers")
def test_workers_start_with_ctrl_c_held_and_the_parent_does_not():
    with Pool(2) as pool:
        assert pool.map(_blocked, [1, 2, 3]) == [True, True, True]
    assert not _blocked(None)


_RAISE_SCRIPT = """
import os, signal, sys
from deadinit.runtime.interrupts import install_exit_at_once, interrupts_raise
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
install_exit_at_once()
undone = []
with interrupts_raise():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        signal.pthread_sigmask(signal.SIG_BLOCK, set())  # a moment for the handler to run
    except KeyboardInterrupt:
        undone.append("caught inside")
print(undone, flush=True)
with interrupts_raise():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        print("undone first", flush=True)
print("never reached", flush=True)
"""


def test_ctrl_c_raises_inside_interrupts_raise_and_leaving_it_ends_the_process_at_once():
    out = subprocess.run([sys.executable, "-c", _RAISE_SCRIPT], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (
        130,
        "['caught inside']\nundone first\n",
        "deadinit: interrupted\n",
    )


def test_ctrl_c_outside_any_block_ends_the_process_at_once():
    script = (
        "import os, signal, time\nfrom deadinit.runtime.interrupts import install_exit_at_once\n"
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\ninstall_exit_at_once()\n"
        "try:\n    os.kill(os.getpid(), signal.SIGINT)\n    time.sleep(30)\nfinally:\n    print('finally ran')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (130, "", "deadinit: interrupted\n")
