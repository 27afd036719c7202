"""Plain, picklable per-file facts, which ``deadinit.semantics.summary`` builds from either parser's tree.

Nothing here holds a CST node: summaries are cached on disk and sent between
processes.  Small expressions that later stages evaluate (conditions, sizes,
constructor arguments) are stored as nested tuples, see ``deadinit.semantics.exprs``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, SupportsIndex

from deadinit.model.access import Access, TypeRef, group_object_reads, tally_object_reads
from deadinit.model.kinds import InitStmtKind, ParamKind
from deadinit.model.pickled import LAZY_BLOB, PickledGroups, PickledMapping, lazy_fields, unpickled_on_first_read
from deadinit.model.record_pickling import built_by_init, without_defaults

_SET = object.__setattr__  # how a frozen record sets its fields

Expr = tuple[Any, ...]  # (ExprTag.CONST, v), (ExprTag.NAME, n)...: its first item an ``ExprTag`` (``model.kinds``)
Pattern = tuple[Any, ...]  # the attribute names a dynamic access may reach (semantics.dynamic)


@dataclass(frozen=True)
class Import:
    local: str  # the name bound in this module
    module: str  # module as written (without leading dots)
    name: str | None  # imported member, None for ``import a.b [as m]``
    level: int  # number of leading dots of a relative import
    line: int


class OutsideUse(NamedTuple):
    """What one file's classes take from one top-level package it imports absolutely: the calls whose
    value an ``__init__`` assigns (what the analysis would classify) and the base classes."""

    package: str  # the top-level module name (``mmcv`` for ``from mmcv.cnn import ConvModule``)
    calls: int
    bases: int


@without_defaults
@dataclass(frozen=True)
class Construct:
    callee: str  # dotted callee as written
    line: int
    in_class: str | None
    in_function: str | None
    self_args: tuple[int | str, ...] = ()  # positions or keywords where the caller's self is passed


@built_by_init
@dataclass
class AllocInfo:
    """What an assignment allocates."""

    kind: str  # tensor | cached-buffer | global-singleton | wrapper | updater | ... | container | maybe-class
    callee: str = ""  # canonical dotted callee (e.g. torch.empty, BatchDecodeWrapper)
    shape: tuple[Expr, ...] = ()  # for tensor factories
    dtype: str = ""  # dtype attribute name, e.g. "uint8"
    element: AllocInfo | None = None  # for containers and cached buffers
    count: Expr | None = None  # number of elements for containers, when known
    args: tuple[Expr, ...] = ()  # constructor arguments of a module or class allocation (positional)
    kwargs: tuple[tuple[str, Expr], ...] = ()  # ... and by keyword
    items: tuple[AllocInfo | None, ...] = ()  # tuple: what each element allocates
    index: int | None = None  # item: the element of ``element``'s value (negative: counted from the end)
    star_args: bool = False  # call: ``*args`` / ``**kwargs`` passed (parameters past ``args`` may be bound by them)
    member: str = ""  # field: the class-typed field of ``callee``'s instances that is called
    # call: what calling each positional argument builds (a class, a class-typed field), for a callee
    # that calls its parameter (``build_module(spec.proj, n)``, kind ``param-call``)
    arg_builds: tuple[AllocInfo | None, ...] = ()


@built_by_init
@dataclass
class Returns:
    """What a function or method gives back, from its ``return`` statements.

    ``values`` holds one entry per ``return`` of a value other than ``None``: the
    allocation it makes (possibly a ``call`` or ``item`` the analysis resolves
    project-wide), or None when it returns something that is not one.  ``annotated``
    is the allocation the return annotation promises, kept only when every
    ``return`` gives the result of a call (not a parameter, local or attribute).
    """

    line: int
    values: tuple[AllocInfo | None, ...] = ()
    annotated: AllocInfo | None = None
    params: tuple[Param, ...] = ()  # the function's parameters (a method's without self), to bind a call's arguments


@built_by_init
@dataclass
class RangeNames:
    """The names ``self.add_module(f"layer{i}", m)`` registers in ``for i in range(<start>, <stop>)`` when
    no literal decides the range: the chain decides ``start`` and ``stop`` (``analysis.flow.chain``)."""

    prefix: str
    suffix: str
    start: Expr
    stop: Expr
    in_loop: bool  # the loop's own context: each name is assigned on every run of it
    alloc: AllocInfo | None  # what each name is assigned, as a literal name's statement has it
    value: Expr
    call: AllocInfo | None = None


@built_by_init
@dataclass
class InitStmt:
    """One effect of an ``__init__`` body, in source order, flattened."""

    kind: InitStmtKind
    line: int
    col: int
    end_line: int
    attr: str | None = None  # self attribute assigned / filled / killed / deleted; ``obj.x`` for set
    guards: tuple[Expr, ...] = ()  # conditions that must all be true for this to run
    in_loop: bool = False  # in a loop or try body: may run zero times
    after_return: bool = False  # a conditional return came before it
    reads: tuple[str, ...] = ()  # self attributes it reads (through locals too)
    self_calls: tuple[str, ...] = ()  # self methods it calls or references
    constructs: tuple[str, ...] = ()  # dotted callees it calls with self passed
    passes_self: bool = False  # self escapes into a call
    alloc: AllocInfo | None = None
    value: Expr | None = None  # the assigned value (plain bindings, sizes, set); the test of an assert
    call: AllocInfo | None = None  # assign: the value comes from a project call the analysis may follow
    dynamic: tuple[tuple[str, Pattern], ...] = ()  # (reason, Pattern) of dynamic accesses to self it makes
    # super_init and super_call (args, kwargs and spreads also for an effect that calls ``self.m(...)``)
    target: str | None = None  # "super" or the dotted parent named explicitly
    start: str | None = None  # ``super(C, self)``: C as written (the lookup starts after C)
    args: tuple[Expr, ...] = ()  # positional arguments before any ``*args`` (their positions are known)
    kwargs: tuple[tuple[str, Expr], ...] = ()
    spreads_args: bool = False  # a ``*args`` is passed: it may fill positional parameters after ``args``
    spreads_kwargs: bool = False  # a ``**kwargs`` is passed: it may fill any parameter a keyword can name
    loop_iter: Expr | None = None  # iterable of the innermost enclosing ``for``
    fill_kind: str = ""  # a ``kinds.FillKind`` or the method a fill calls; "" for other statements
    ensures: Expr | None = None  # effect of ``if C: raise``: what holds once it completes (``not C``)
    method: str | None = None  # effect of ``self.m(...)`` / super_call ``super().m(...)``: the method it calls
    roots: tuple[tuple[str, Expr], ...] = ()  # locals its guards, value or test name -> what each holds (or UNKNOWN)
    # self attributes it loads only as whole arguments of named calls: (attr, dotted callee, position or keyword)
    passed: tuple[tuple[str, str, int | str], ...] = ()
    # self attributes it uses only to configure the object they hold: ``isinstance(self.x, T)``, ``self.x.flag = v``
    configures: tuple[str, ...] = ()
    registers: RangeNames | None = None  # effect of ``self.add_module(f"n{i}", m)`` over a range the chain decides

    @property
    def star_args(self) -> bool:
        """``*args`` or ``**kwargs`` passed: parameters the explicit arguments leave may be bound by them."""
        return self.spreads_args or self.spreads_kwargs


@built_by_init
@dataclass
class Param:
    name: str
    default: Expr | None  # None when there is no default
    kind: ParamKind = ParamKind.NORMAL
    annotation: str | None = None  # the one class the annotation names, dotted as written


@built_by_init
@dataclass
class MethodSummary:
    name: str
    line: int
    col: int
    end_line: int
    decorators: tuple[str, ...] = ()
    params: list[Param] = field(default_factory=list)  # without self
    self_name: str | None = "self"
    reads: list[tuple[str, int, int]] = field(default_factory=list)  # self.attr loads
    writes: list[tuple[str, int, int]] = field(default_factory=list)
    super_calls: list[tuple[str, str | None]] = field(default_factory=list)  # super().m, super(C, self).m -> (m, C)
    parent_calls: list[tuple[str, str]] = field(default_factory=list)  # Parent.m(self)
    dynamic: list[tuple[str, int, Pattern]] = field(default_factory=list)  # reason, line, Pattern of names it reaches
    # the body flattened: of ``__init__``, and of each helper an ``__init__`` of the class calls as
    # ``self.m(...)`` (transitively), and of each method that writes self (a parent's ``__init__`` may call it)
    init_flow: list[InitStmt] | None = None
    # ``__init__`` only: where each parameter goes, (name, kind, target, line, callee); semantics.construction_args
    param_flow: tuple[tuple[str, str, int | str, int, str], ...] = ()
    is_stub: bool = False  # the body only raises NotImplementedError, or is pass / ... / a docstring
    returns: Returns | None = None
    return_types: tuple[TypeRef, ...] | None = None  # the classes its return annotation names, when it has one
    ensures: tuple[Expr, ...] = ()  # what holds whenever it returns normally (``if C: raise``, ``assert``), on self
    calls: tuple[str, ...] = ()  # self methods it calls on every path that returns normally
    skips_unknown_weights: int | None = None  # a weight loader that skips names of no parameter: its test's line
    # ``nn.Module`` walks of self whose elements may leave with what it gives back (``semantics.walks``): name, line
    walks: list[tuple[str, int]] = field(default_factory=list)

    @property
    def is_property(self) -> bool:
        return any(
            d.split(".")[-1] in ("property", "cached_property") or d.endswith(".setter") for d in self.decorators
        )

    @property
    def lines(self) -> int:
        return self.end_line - self.line + 1


@dataclass
class ClassSummary:
    name: str
    qualname: str
    line: int
    col: int
    end_line: int
    bases: list[str | None]  # dotted base as written (``Base[T]``: Base); None for an opaque expression
    base_text: list[str]
    keywords: list[str] = field(default_factory=list)
    decorators: tuple[str, ...] = ()
    class_attrs: dict[str, int] = field(default_factory=dict)  # name -> line
    class_values: dict[str, Expr] = field(default_factory=dict)  # name -> value of a plain class-level assignment
    # a dict while built; pickled as a ``PickledMapping`` (unpickled when a method is asked for)
    methods: Mapping[str, MethodSummary] = field(default_factory=dict)
    attr_types: dict[str, list[TypeRef]] = field(default_factory=dict)
    attr_declared: dict[str, list[TypeRef]] = field(default_factory=dict)  # from annotations
    attr_unknown: set[str] = field(default_factory=set)  # self.a assigned from unknown exprs
    # the classes of the elements of the collection self.a holds (``for m in self.a``, ``self.a[i]``)
    attr_elements: dict[str, list[TypeRef]] = field(default_factory=dict)  # from assignments and fills
    attr_elements_declared: dict[str, list[TypeRef]] = field(default_factory=dict)  # from annotations
    attr_elements_unknown: set[str] = field(default_factory=set)  # assigned or filled with unknown elements
    # class-level fields declared to hold a class (``proj: type[Linear]``): what calling the value builds
    field_builds: dict[str, AllocInfo] = field(default_factory=dict)
    # the lines (decorators included) of the ``__init__`` its body defines last, the one a rewrite edits
    init_lines: tuple[int, int] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if state["methods"]:
            # kept on the summary too: pickling it again reuses the bytes
            state["methods"] = self.methods = PickledMapping.of(state["methods"])
        return lazy_fields(self, state, CLASS_BODY)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        state = self.__getstate__()
        if state.keys() != _CLASS_STATE_KEYS:  # something more was set on it: pickled whole
            return super().__reduce_ex__(protocol)
        return (_unpickled_class, tuple(state[k] for k in _CLASS_STATE))


# what a class says about its attributes, read only when one of its classes is analysed:
# pickled as one blob, unpickled on the first read of one of them (``model.pickled.lazy_fields``)
CLASS_BODY = (
    "class_attrs",
    "class_values",
    "attr_types",
    "attr_declared",
    "attr_unknown",
    "attr_elements",
    "attr_elements_declared",
    "attr_elements_unknown",
    "field_builds",
)
unpickled_on_first_read(ClassSummary, CLASS_BODY)
# what a class summary pickles as, in this order (``_unpickled_class``'s parameters)
_CLASS_STATE = (*(f.name for f in fields(ClassSummary) if f.name not in CLASS_BODY), LAZY_BLOB)
_CLASS_STATE_KEYS = frozenset(_CLASS_STATE)


def _unpickled_class(
    name: str,
    qualname: str,
    line: int,
    col: int,
    end_line: int,
    bases: list[str | None],
    base_text: list[str],
    keywords: list[str],
    decorators: tuple[str, ...],
    methods: Mapping[str, MethodSummary],
    init_lines: tuple[int, int] | None,
    blob: bytes,
) -> ClassSummary:
    """A class summary from what it pickled as: its attributes set one by one (in CPython an
    instance's compact storage; cheaper than unpickling a state dictionary into it)."""
    c = _new_object(ClassSummary)
    c.name, c.qualname, c.line, c.col, c.end_line = name, qualname, line, col, end_line
    c.bases, c.base_text, c.keywords, c.decorators, c.methods = bases, base_text, keywords, decorators, methods
    c.init_lines = init_lines
    setattr(c, LAZY_BLOB, blob)
    return c


_new_object = object.__new__


@dataclass
class FileSummary:
    path: str
    module: str
    is_package: bool
    imports: list[Import] = field(default_factory=list)
    classes: list[ClassSummary] = field(default_factory=list)
    # a list while built; pickled as ``PickledGroups``, one group per attribute (``object_reads``)
    accesses: Sequence[Access] = field(default_factory=list)
    constructs: list[Construct] = field(default_factory=list)
    constants: dict[str, Expr] = field(default_factory=dict)  # module-level NAME = expr
    functions: dict[str, Returns] = field(default_factory=dict)  # module-level def -> what it returns
    return_types: dict[str, tuple[TypeRef, ...]] = field(default_factory=dict)  # module-level def -> annotation
    env_defaults: dict[str, Expr] = field(default_factory=dict)  # NAME = EnvX(default)
    isinstance_checks: list[tuple[str, int]] = field(default_factory=list)  # dotted class, line
    # attributes whose collection is filled on a receiver other than self (``obj.a.append(x)``, ``obj.a[i] = x``)
    element_writes: set[str] = field(default_factory=set)
    suppressions: dict[int, frozenset[str] | None] = field(default_factory=dict)  # line -> codes (None: all)
    lines: int = 0
    generated_marker: str | None = None  # the header phrase marking the file generated ("Do NOT edit"), as written
    generated_from: str | None = None  # the file its header names as its source, as written
    exports: tuple[str, ...] = ()  # the names a module-level ``__all__`` list or tuple of literals gives
    outside: tuple[OutsideUse, ...] = ()  # per top-level package imported absolutely, what its classes take from it

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        reads = state["accesses"]
        if reads and not isinstance(reads, PickledGroups):
            groups = group_object_reads(reads)
            rest = [a for a in reads if a.on_module]
            # kept on the summary too: pickling it again reuses the bytes and the tally
            state["accesses"] = self.accesses = PickledGroups.of(list(reads), groups, rest, tally_object_reads(groups))
        lazy_fields(self, state, MODULE_NAMES, NAMES_BLOB)
        return lazy_fields(self, state, MODULE_CONSTRUCTS, CONSTRUCTS_BLOB)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """A call with the fields' values (see ``_unpickled_file``)."""
        state = self.__getstate__()
        if state.keys() != _FILE_STATE_KEYS:  # something more was set on it: pickled whole
            return super().__reduce_ex__(protocol)
        # a set pickles in its iteration order, which unpickling it may not give back: sorted,
        # a summary pickles to the same bytes however often it went through a pickle
        state["element_writes"] = sorted(state["element_writes"])
        return (_unpickled_file, tuple(state[name] for name in _FILE_STATE))


# what a module binds and what it constructs, read only for the modules a run resolves names in
# (most of them stay bytes in an ``explain``): each group pickled as one blob, unpickled on the
# first read of one of its fields (``model.pickled.lazy_fields``)
MODULE_NAMES = ("imports", "constants", "functions", "return_types")
MODULE_CONSTRUCTS = ("constructs",)
NAMES_BLOB, CONSTRUCTS_BLOB = "_pickled_names", "_pickled_constructs"
unpickled_on_first_read(FileSummary, MODULE_NAMES, NAMES_BLOB)
unpickled_on_first_read(FileSummary, MODULE_CONSTRUCTS, CONSTRUCTS_BLOB)
# what a file summary pickles as, in this order (``_unpickled_file``'s parameters)
_FILE_STATE = (
    *(f.name for f in fields(FileSummary) if f.name not in MODULE_NAMES + MODULE_CONSTRUCTS),
    NAMES_BLOB,
    CONSTRUCTS_BLOB,
)
_FILE_STATE_KEYS = frozenset(_FILE_STATE)


def _unpickled_file(*values: Any) -> FileSummary:
    """A file summary from what it pickled as: its attributes set one by one, as ``_unpickled_class``."""
    s = _new_object(FileSummary)
    s.__dict__.update(zip(_FILE_STATE, values, strict=True))
    s.element_writes = set(s.element_writes)
    return s
