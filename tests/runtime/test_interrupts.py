import os
import signal
import sys

import pytest

from deadinit.runtime.interrupts import interrupts_held
from deadinit.runtime.pool import Pool

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")


def test_a_ctrl_c_during_the_block_is_raised_when_it_ends():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("after the signal")
        reached.append("after the block")  # pragma: no cover - must not run
    assert reached == ["after the signal"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def _blocked(_item):
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())


@pytest.mark.skipif(sys.platform != "linux", reason="forked workers")
def test_workers_start_with_ctrl_c_held_and_the_parent_does_not():
    with Pool(2) as pool:
        assert pool.map(_blocked, [1, 2, 3]) == [True, True, True]
    assert not _blocked(None)
