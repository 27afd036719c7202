"""The two test tiers (a uniquely named module: several conftest.py files exist).

The fast tier (``-m "not slow and not corpus"``, the default in pyproject) runs on
every change; the slow tier (``-m "slow or corpus"``, run by ``.ci/run`` after the
fast one) runs the same properties with many more examples, the fault and
random-edit tests, and the real-code (corpus) tests.
"""

import pytest


def examples(fast: int, slow: int) -> list:
    """``parametrize`` values for a hypothesis example count: one case in each tier."""
    return [pytest.param(fast, id="fast"), pytest.param(slow, id="slow", marks=pytest.mark.slow)]
