"""``deadinit.semantics.annotations``: the classes an annotation names, and those of a collection's elements."""

import pytest
from semantic_snippets import PARSE, expr

from deadinit.model.access import TypeRef
from deadinit.semantics.annotations import annotation_elements, annotation_types


def refs(*names):
    return tuple(TypeRef(n, False) for n in names)


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("Backend", refs("Backend")),
        ("pkg.Backend", refs("pkg.Backend")),
        ("'Backend'", refs("Backend")),
        ("Optional[A]", refs("A")),
        ("typing.Union[A, B]", refs("A", "B")),
        ("A | None", refs("A")),
        ("A | B", refs("A", "B")),
        ("None", ()),
        ("Annotated[A, 'meta']", refs("A")),
        ("ClassVar[A]", refs("A")),
        ("list[A]", refs("list")),  # the class of the value is the list
        ("Any", None),
        ("object", None),
        ("Optional[Any]", None),
        ("A | f()", None),
        ("'not valid ('", None),
    ],
)
def test_annotation_types(source, want, adapter):
    assert annotation_types(expr(source, adapter), PARSE[adapter]) == want


@pytest.mark.parametrize(
    ("source", "want"),
    [
        ("list[B]", refs("B")),
        ("List[B]", refs("B")),
        ("Sequence[B | C]", refs("B", "C")),
        ("tuple[B, ...]", refs("B")),
        ("Optional[List[B]]", refs("B")),
        ("list[B] | None", refs("B")),
        ("Final[list[B]]", refs("B")),
        ("'list[B]'", refs("B")),
        ("dict[str, B]", None),
        ("list[Any]", None),
        ("list", None),
        ("Optional[B]", None),  # no collection
        ("list[B] | C", None),
    ],
)
def test_annotation_elements(source, want, adapter):
    assert annotation_elements(expr(source, adapter), PARSE[adapter]) == want


def test_no_annotation(adapter):
    assert annotation_types(None, PARSE[adapter]) is None
    assert annotation_elements(None, PARSE[adapter]) is None
