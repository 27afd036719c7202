"""``deadinit.semantics.init.rebound``: the class a rebound local holds an instance of (the defaulting
idiom of an open parameter, a call of a class), as the ``__init__`` walk and the summary's typing read it."""

import pytest
from semantic_snippets import expr, stmt

from deadinit.semantics import syntax as sx
from deadinit.semantics.init.rebound import ANYTHING, NOTHING, Holds, defaulted, held, open_param

ADAPTERS = ("cst", "ast")


def params(source: str, adapter: str) -> dict[str, sx.Param]:
    fn = stmt(source, adapter)
    assert isinstance(fn, sx.FunctionDef)
    return {p.name: p for p in fn.params}


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_an_open_parameter_has_no_annotation_and_defaults_to_none(adapter):
    got = params("def f(self, d, a=None, b: Spec = None, c=Spec, *e, **g):\n    pass", adapter)
    assert {n for n, p in got.items() if open_param(p)} == {"a"}


@pytest.mark.parametrize(
    ("value", "default"),
    [
        ("spec or Spec()", "Spec()"),
        ("Spec() if spec is None else spec", "Spec()"),
        ("spec if spec is not None else Spec(n)", "Spec(n)"),
        ("spec if spec else Spec()", "Spec()"),
        ("other or Spec()", None),  # another name's default
        ("spec and Spec()", None),
        ("Spec() if spec is not None else spec", None),  # keeps None, not the idiom
        ("spec if flag else Spec()", None),
        ("Spec()", None),
    ],
)
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_defaulting_idiom(value, default, adapter):
    got = defaulted(expr(value, adapter), "spec")
    if default is None:
        assert got is None
    else:
        assert got is not None and repr(got) == repr(expr(default, adapter))


def _names(name: str) -> Holds:
    return {"typed": Holds(frozenset({"Parts"}))}.get(name, ANYTHING)


@pytest.mark.parametrize(
    ("value", "one"),
    [
        ("Parts()", "Parts"),
        ("pkg.Parts(n=4)", "pkg.Parts"),
        ("typed", "Parts"),
        ("typed or Parts()", "Parts"),
        ("Parts() if c else None", "Parts"),
        ("Parts() if c else Other()", None),  # two classes
        ("make_parts()", None),  # a function's result: anything
        ("typed or make_parts()", None),
        ("self.parts", None),
        ("untyped", None),
    ],
)
@pytest.mark.parametrize("adapter", ADAPTERS)
def test_what_a_value_may_be_an_instance_of(value, one, adapter):
    assert held(expr(value, adapter), _names).one() == one


def test_none_says_nothing_and_anything_stays_unknown():
    assert (NOTHING | Holds(frozenset({"A"}))).one() == "A"
    assert (ANYTHING | Holds(frozenset({"A"}))).one() is None
