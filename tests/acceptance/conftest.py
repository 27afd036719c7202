import pytest
from corpus_paths import sglang_tree
from production_path import check_result


@pytest.fixture(scope="session")
def sglang_0520_check(session_cache):
    """``deadinit check`` on the whole sglang 0.5.20 package (``production_path``: the per-file
    cache, worker processes on every core, the result cache), once per session."""
    return check_result([str(sglang_tree("0.5.20"))], session_cache)
