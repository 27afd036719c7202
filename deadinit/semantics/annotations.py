"""What an annotation says about the class of a value."""

from __future__ import annotations

from collections.abc import Callable

from deadinit.model.access import TypeRef
from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted

TYPING_WRAPPERS = frozenset({"Optional", "Union", "ClassVar", "Final", "Annotated"})
ParseExpression = Callable[[str], sx.Expr | None]


def annotation_types(node: sx.Node | None, parse: ParseExpression) -> tuple[TypeRef, ...] | None:
    """Possible classes named by an annotation; None when it says nothing usable.

    ``parse`` reads a string annotation (``"Backend"``) as an expression, or gives None."""
    if node is None:
        return None
    if isinstance(node, sx.Const) and isinstance(node.value, str):
        inner = parse(node.value)
        return annotation_types(inner, parse) if inner is not None else None
    if isinstance(node, sx.BinOp) and node.op == "|":
        a, b = annotation_types(node.left, parse), annotation_types(node.right, parse)
        return None if a is None or b is None else a + b
    if isinstance(node, sx.Subscript):
        base = dotted(node.value)
        if base and base.split(".")[-1] in TYPING_WRAPPERS:
            out: tuple[TypeRef, ...] = ()
            for item in node.items:
                if not (isinstance(item, sx.Other) and item.what == sx.OtherWhat.SLICE):
                    t = annotation_types(item, parse)
                    if t is None:
                        return None
                    out += t
                if base.split(".")[-1] == "Annotated":
                    break
            return out
        return (TypeRef(base, False),) if base else None
    if isinstance(node, sx.Name) and node.id == "None":
        return ()
    d = dotted(node)
    if d is None or d.split(".")[-1] in ("Any", "object"):
        return None
    return (TypeRef(d, False),)


SEQUENCE_GENERICS = frozenset(
    {
        "list",
        "List",
        "tuple",
        "Tuple",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "AbstractSet",
        "MutableSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "deque",
        "Deque",
    }
)


def annotation_elements(node: sx.Node | None, parse: ParseExpression) -> tuple[TypeRef, ...] | None:
    """Possible classes of the elements of a collection an annotation names (``list[B]``, ``Sequence[B]``,
    ``tuple[B, ...]``, ``Optional[List[B]]``); None when it names no such collection or says nothing usable."""
    if node is None:
        return None
    if isinstance(node, sx.Const) and isinstance(node.value, str):
        inner = parse(node.value)
        return annotation_elements(inner, parse) if inner is not None else None
    if isinstance(node, sx.BinOp) and node.op == "|":
        return _elements_of_union((node.left, node.right), parse)
    if not isinstance(node, sx.Subscript) or not node.items:
        return None
    base = (dotted(node.value) or "").split(".")[-1]
    if base in ("Optional", "Union"):
        return _elements_of_union(node.items, parse)
    if base in ("Annotated", "Final", "ClassVar"):
        return annotation_elements(node.items[0], parse)
    if base not in SEQUENCE_GENERICS:
        return None
    out: tuple[TypeRef, ...] = ()
    for item in node.items:
        if isinstance(item, sx.Const) and item.value is Ellipsis:  # tuple[B, ...]
            continue
        t = annotation_types(item, parse)
        if t is None:
            return None
        out += t
    return out or None


def _elements_of_union(members: tuple[sx.Node, ...], parse: ParseExpression) -> tuple[TypeRef, ...] | None:
    """``Optional[list[B]]``, ``list[B] | None``: a ``None`` member adds nothing; any other member must name a
    collection whose elements are known."""
    out: tuple[TypeRef, ...] = ()
    for member in members:
        if isinstance(member, sx.Name) and member.id == "None":
            continue
        got = annotation_elements(member, parse)
        if got is None:
            return None
        out += got
    return out or None
