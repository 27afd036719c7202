"""What calling a value declared to hold a class builds: ``type[X]``, ``Type[X]``, ``Optional[type[X]]``,
``type[X] | None``, a bare ``type`` (a class the annotation does not name: an unknown module), and, for a
parameter, ``Callable[..., X]``.  A spec class in a union (``Union[LayerSpec, type]``) adds nothing of its own:
calling an instance is no construction (a builder reads the class its field holds, kind ``field``)."""

from __future__ import annotations

from deadinit.model.summary import AllocInfo
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier, LocalCall
from deadinit.semantics.annotations import ParseExpression
from deadinit.semantics.exprs import dotted

CLASS_TYPES = frozenset({"type", "Type"})
UNIONS = frozenset({"Optional", "Union"})


def annotation_builds(
    node: sx.Expr | None, classifier: AllocClassifier, parse: ParseExpression, callables: bool
) -> AllocInfo | None:
    """The allocation calling a value annotated ``node`` makes; None when it names no class that allocates.
    ``callables``: ``Callable[..., X]`` builds an ``X`` too (a parameter's factory; a field's callable is a
    function, whose result is no construction)."""
    if isinstance(node, sx.Const) and isinstance(node.value, str):
        return annotation_builds(parse(node.value), classifier, parse, callables)
    if isinstance(node, sx.BinOp) and node.op == "|":
        return _first((node.left, node.right), classifier, parse, callables)
    if isinstance(node, sx.Subscript):
        base = (dotted(node.value) or "").split(".")[-1]
        if base in UNIONS:
            return _first(node.items, classifier, parse, callables)
        if base in CLASS_TYPES or (callables and base == "Callable"):
            built = node.items[-1] if node.items else None
            return classifier.annotated(built, parse)
        return None
    name = dotted(node) if node is not None else None
    if name is not None and name.split(".")[-1] in CLASS_TYPES:
        return AllocInfo("module")  # some class: what it builds is not declared
    return None


def _first(
    members: tuple[sx.Node, ...], classifier: AllocClassifier, parse: ParseExpression, callables: bool
) -> AllocInfo | None:
    """The first member that builds; None when a member may be a plain function (``Union[type, Callable]``:
    calling a function constructs nothing we know)."""
    built = None
    for m in members:
        if not isinstance(m, sx.Expr):
            continue
        got = annotation_builds(m, classifier, parse, callables)
        if got is None and not callables and _callable(m):
            return None
        built = built or got
    return built


def _callable(node: sx.Expr) -> bool:
    base = node.value if isinstance(node, sx.Subscript) else node
    return (dotted(base) or "").split(".")[-1] == "Callable"


def called_builds(node: sx.Expr, classifier: AllocClassifier, local_call: LocalCall) -> AllocInfo | None:
    """What calling the value ``node`` builds, for a callee that calls what it is given
    (``build_module(spec.proj, n)``): a class (``nn.Linear``), a class-typed field of a local of a known
    class (``spec.proj``), a local or parameter whose default or annotation is a class."""
    name = dotted(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    callee = local_call(head)
    if callee.local:
        if not rest:
            return callee.builds
        declared = callee.declared
        if declared is None or "." in rest or not classifier.may_declare(declared):
            return None
        return AllocInfo("field", callee=declared, member=rest)
    if not name.split(".")[-1][:1].isupper():
        return None
    return classifier.classify(sx.Call(node.line, node.col, node.end_line, node, ()), lambda _: None, None)
