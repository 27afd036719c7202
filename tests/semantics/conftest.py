"""The ``adapter`` fixture of the semantics tests: each runs on the trees of both parsers."""

import pytest
from semantic_snippets import ADAPTERS


@pytest.fixture(params=ADAPTERS)
def adapter(request) -> str:
    return request.param
