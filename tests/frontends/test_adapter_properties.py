"""Both adapters summarise generated modules alike (``module_gen``; libcst's is the reference).

10 examples in the fast tier, 600 in the slow one (``tiers.examples``), derandomised.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from module_gen import modules
from tiers import examples

from deadinit.frontends import parse
from deadinit.model.settings import Settings

_SETTINGS = Settings()


def summaries(source: bytes):
    args = (source, "pkg/mod.py", "pkg.mod", False, _SETTINGS)
    return parse.summarize_source(*args, adapter="ast"), parse.summarize_source(*args, adapter="cst")


@pytest.mark.parametrize("max_examples", examples(fast=10, slow=600))
def test_generated_modules_are_summarised_alike(max_examples):
    @settings(
        max_examples=max_examples,
        derandomize=True,  # the same modules on every run
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(text=modules(), bom=st.booleans())
    def check(text, bom):
        source = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
        from_ast, from_cst = summaries(source)
        assert not isinstance(from_cst, parse.FileError), from_cst
        assert from_ast == from_cst

    check()
