import pytest
from corpus_paths import sglang_tree

_RESULTS = {}


@pytest.fixture(scope="session")
def sglang_0520_check():
    """`deadinit check` on the whole sglang 0.5.20 package, computed once per session."""
    from deadinit.api.check import run_check
    from deadinit.model.settings import Settings

    tree = sglang_tree("0.5.20")
    if "0.5.20" not in _RESULTS:
        _RESULTS["0.5.20"] = run_check([str(tree)], Settings())
    return _RESULTS["0.5.20"]
