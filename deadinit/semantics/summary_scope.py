"""What ``SummaryBuilder`` (``deadinit.semantics.summary_builder``) keeps while it walks a
module: the summary being built, the enclosing classes and functions, and which nodes
are stores or keyed storage."""

from __future__ import annotations

from deadinit.model.settings import Settings
from deadinit.model.summary import ClassSummary, FileSummary, MethodSummary, Pattern, TypeRef
from deadinit.semantics.alloc import AllocClassifier
from deadinit.semantics.annotations import ParseExpression
from deadinit.semantics.module_names import ModuleNames

CLASS_SCOPE, FUNCTION_SCOPE = "c", "f"


class FunctionScope:
    """What the builder knows inside one function body."""

    __slots__ = ("bound", "isinst", "loop_names", "method", "name", "params", "pending", "self_name", "types")

    def __init__(self, name: str, self_name: str | None, method: MethodSummary | None) -> None:
        self.name = name
        self.self_name = self_name
        self.method = method
        self.types: dict[str, tuple[TypeRef, ...] | None] = {}
        self.isinst: dict[str, tuple[TypeRef, ...]] = {}
        # (attr, line, col, receiver text, receiver name, self attr)
        # (attr, line, col, receiver text, receiver name, self attr, attribute of the root the receiver is)
        self.pending: list[tuple[str, int, int, str, str | None, str | None, str | None]] = []
        self.params: dict[str, int] = {}
        self.loop_names: dict[str, Pattern] = {}  # loop variables that hold attribute names (semantics.dynamic)
        self.bound: set[str] = set()  # names the function binds (parameters, assignment and loop targets)


class BuilderState:
    """The walk's state; ``SummaryBuilder`` adds the visitors."""

    def __init__(self, summary: FileSummary, settings: Settings, parse: ParseExpression) -> None:
        self.s = summary
        self.settings = settings
        self.parse = parse
        self.classes: list[ClassSummary] = []
        self.functions: list[FunctionScope] = []
        self.scopes: list[str] = []
        self.stores: set[int] = set()
        self.keyed: set[int] = set()  # ``self.__dict__`` and the like used with a key, not wholesale
        self.import_map: dict[str, str] = {}
        self.module_names = ModuleNames()
        self.module_defs: dict[str, int] = {}  # module-level function name -> how many defs bind it
        self.classifier = AllocClassifier(settings, self.canon, self.import_map.__contains__)

    def canon(self, name: str) -> str:
        head, _, rest = name.partition(".")
        full = self.import_map.get(head)
        if full is None:
            return name
        return full + ("." + rest if rest else "")

    def _module_level(self) -> bool:
        return not self.classes and not self.functions


def capitalised(fn: str) -> bool:
    return fn.split(".")[-1][:1].isupper()
