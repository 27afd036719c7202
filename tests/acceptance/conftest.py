import fcntl

import pytest
from corpus_paths import sglang_tree
from production_path import check_result


@pytest.fixture(scope="session")
def sglang_0520_check(session_cache):
    """``deadinit check`` on the whole sglang 0.5.20 package (``production_path``: the per-file
    cache, worker processes on every core, the result cache), summarised once per test run: the
    first xdist worker here summarises while the others wait, then read the result cache."""
    tree = sglang_tree("0.5.20")
    with open(session_cache / "sglang-0.5.20.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return check_result([str(tree)], session_cache)
