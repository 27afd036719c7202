"""``deadinit.semantics.loaders.names``: which locals of a weight loader's loop carry the weight's name,
whether an expression may fail on an unknown name, and what a test proves."""

import pytest
from semantic_snippets import expr

from deadinit.semantics.loaders.names import Failed, NameFlow, State, merge

TAINTED = State(frozenset({"name", "key"}))
PROVEN = State(frozenset({"name"}), frozenset({"name"}))


def flow() -> NameFlow:
    return NameFlow(table="params")


@pytest.mark.parametrize(
    ("source", "carries"),
    [
        ("name", True),
        ("other", False),
        ("name.replace('a', 'b')", True),
        ("'prefix.' + name", True),
        ("f'{name}.weight'", True),
        ("params.get(name)", True),
        ("len(name)", False),
        ("name == 'x'", False),  # a comparison gives a bool
    ],
)
def test_carries(source, carries, adapter):
    assert flow().carries(expr(source, adapter), TAINTED) is carries


@pytest.mark.parametrize(
    "source", ["params[name]", "lookup(name)", "params", "params.pop(name)", "(n := name)", "lambda: name"]
)
def test_may_fail_on_an_unknown_name(source, adapter):
    with pytest.raises(Failed):
        flow().ok(expr(source, adapter), TAINTED)


@pytest.mark.parametrize(
    "source",
    [
        "name in params",
        "name in params.keys()",
        "params.get(name)",
        "logger.info(name)",
        "len(name)",
        "name.split('.')",
    ],
)
def test_cannot_fail_on_an_unknown_name(source, adapter):
    flow().ok(expr(source, adapter), TAINTED, carrier=True)  # as a statement or an assignment's value


@pytest.mark.parametrize("source", ["params.get(name)", "name.split('.')"])
def test_a_value_that_carries_the_name_fails_where_it_is_handed_on(source, adapter):
    with pytest.raises(Failed):
        flow().ok(expr(f"f({source})", adapter), TAINTED, carrier=True)


def test_a_lookup_once_the_name_is_known(adapter):
    flow().ok(expr("params[name]", adapter), PROVEN)
    with pytest.raises(Failed):
        flow().ok(expr("params[key]", adapter), PROVEN)


@pytest.mark.parametrize(
    ("source", "truth", "known"),
    [
        ("name in params", True, {"name"}),
        ("name not in params", False, {"name"}),
        ("name not in params", True, set()),
        ("not name in params.keys()", False, {"name"}),
        ("name in params and key in params", True, {"name", "key"}),
        ("name in params or key in params", True, set()),
        ("params.get(name) is not None", True, set()),  # not a local compared
        ("name is not None", True, {"name"}),
        ("other in params", True, set()),
    ],
)
def test_facts_a_test_proves(source, truth, known, adapter):
    assert flow().facts(expr(source, adapter), truth, TAINTED) == known


def test_state_and_merge():
    a = State(frozenset({"x"}), frozenset({"x"}))
    b = State(frozenset({"y"}), frozenset())
    assert a.proven and not b.proven
    assert merge(a, b) == State(frozenset({"x", "y"}), frozenset())
    assert merge(None, b) is b and merge(a, None) is a
