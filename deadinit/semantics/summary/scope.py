"""What ``SummaryBuilder`` (``deadinit.semantics.summary.builder``) keeps while it walks a
module: the summary being built, the enclosing classes and functions, and which nodes
are stores or keyed storage."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from deadinit.model.access import Access, TypeRef
from deadinit.model.kinds import ParamKind
from deadinit.model.settings import Settings
from deadinit.model.summary import ClassSummary, FileSummary, MethodSummary, Param, Pattern
from deadinit.semantics import syntax as sx
from deadinit.semantics.alloc import AllocClassifier
from deadinit.semantics.annotations import ParseExpression, annotation_types
from deadinit.semantics.elements import ValueTyping
from deadinit.semantics.exprs import dotted, to_expr
from deadinit.semantics.summary.module_names import ModuleNames
from deadinit.semantics.syntax import Expr

CLASS_SCOPE, FUNCTION_SCOPE = "c", "f"


class FunctionScope:
    """What the builder knows inside one function body."""

    __slots__ = (
        "bound",
        "declared",
        "deferred",
        "elements",
        "generator",
        "isinst",
        "loop_names",
        "method",
        "name",
        "open",
        "params",
        "pending",
        "self_name",
        "types",
        "typing",
    )

    def __init__(self, name: str, self_name: str | None, method: MethodSummary | None) -> None:
        self.name = name
        self.self_name = self_name
        self.method = method
        # local name -> what it may hold (None: unknown), over all its bindings; parameters and annotated
        # names (``declared``) hold what their annotation says
        self.types: dict[str, tuple[TypeRef, ...] | None] = {}
        self.elements: dict[str, tuple[TypeRef, ...] | None] = {}  # local name -> its collection's elements
        self.declared: set[str] = set()
        self.open: set[str] = set()  # open parameters not rebound yet (``semantics.init.rebound.open_param``)
        self.isinst: dict[str, tuple[TypeRef, ...]] = {}
        # (attr, line, col, receiver text, receiver name, self attr, attribute of the root the receiver is,
        #  the receiver when it is an element of a collection: ``items[i].attr``)
        # (attr, line, col, receiver text, name, via, through, element, whether a walk: ``semantics.walks``)
        self.pending: list[tuple[str, int, int, str, str | None, str | None, str | None, Expr | None, bool]] = []
        self.deferred: list[Callable[[], None]] = []  # what needs every binding of the function's locals
        self.params: dict[str, int] = {}
        self.loop_names: dict[str, Pattern] = {}  # loop variables that hold attribute names (semantics.dynamic)
        self.bound: set[str] = set()  # names the function binds (parameters, assignment and loop targets)
        self.typing: ValueTyping | None = None  # made once, by ``FlowTyping.typing``
        self.generator = False  # its body yields or awaits (``returns.generator_mark``)


class BuilderState:
    """The walk's state; ``SummaryBuilder`` adds the visitors."""

    def __init__(self, summary: FileSummary, settings: Settings, parse: ParseExpression) -> None:
        self.s = summary
        self.reads: list[Access] = []  # the summary's accesses, in source order
        summary.accesses = self.reads
        self.settings = settings
        self.parse = parse
        self.classes: list[ClassSummary] = []
        self.functions: list[FunctionScope] = []
        self.scopes: list[str] = []
        # the function a ``yield``/``await`` met now is in (None: in a class body, a lambda, a header)
        self.yields_to: list[FunctionScope | None] = []
        self.stores: set[int] = set()
        self.keyed: set[int] = set()  # ``self.__dict__`` and the like used with a key, not wholesale
        self.peeked: set[int] = set()  # walks of ``self`` only their first element is taken from (``semantics.walks``)
        self.called: set[int] = set()  # the ``obj.<walk>`` of each call ``obj.<walk>(...)`` (``semantics.walks``)
        self.import_map: dict[str, str] = {}
        self.module_names = ModuleNames()
        self.module_defs: dict[str, int] = {}  # module-level function name -> how many defs bind it
        # bound to the import map, not to the builder: what the classifier and the typings hold makes no
        # reference cycle, so the summary and the syntax tree are freed as soon as they are dropped
        self.canon: Callable[[str], str] = partial(canonical, self.import_map)
        self.classifier = AllocClassifier(settings, self.canon, self.import_map.__contains__)

    def _module_level(self) -> bool:
        return not self.classes and not self.functions


def canonical(import_map: dict[str, str], name: str) -> str:
    """``name`` with its first part replaced by what the module imports under that name."""
    head, _, rest = name.partition(".")
    full = import_map.get(head)
    if full is None:
        return name
    return full + ("." + rest if rest else "")


def decorator_names(decorators: tuple[sx.Expr, ...]) -> tuple[str, ...]:
    """The dotted names of a definition's decorators (``@cache``, ``@torch.no_grad()``)."""
    out = []
    for d in decorators:
        name = dotted(d) or (dotted(d.func) if isinstance(d, sx.Call) else None)
        if name:
            out.append(name)
    return tuple(out)


def followable(decorators: tuple[str, ...]) -> bool:
    """A function whose call returns what its body returns: no decorator that may change it (a cache
    returns one shared object, a property is not called)."""
    return all(d in ("staticmethod", "classmethod") for d in decorators)


def signature_param(p: sx.Param, parse: ParseExpression) -> Param:
    """A parameter of a function's signature as the summary records it."""
    default = to_expr(p.default, None) if p.default is not None else None
    if p.star == "*":
        return Param(p.name, None, ParamKind.STAR)
    if p.star == "**":
        return Param(p.name, None, ParamKind.DSTAR)
    types = annotation_types(p.annotation, parse)
    annotation = types[0].dotted if types is not None and len(types) == 1 else None
    return Param(p.name, default, ParamKind.KWONLY if p.group == sx.ParamGroup.KWONLY else ParamKind.NORMAL, annotation)
