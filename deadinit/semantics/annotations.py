"""What an annotation says about the class of a value."""

from __future__ import annotations

from collections.abc import Callable

from deadinit.model.summary import TypeRef
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
                if not (isinstance(item, sx.Other) and item.what == "slice"):
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
