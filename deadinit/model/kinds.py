"""The fixed vocabularies of the records: kinds and statuses, one enum each (and the forms of an
expression, one named constant each: ``ExprTag`` says why).

Members are strings equal to their values (``InitStmtKind.ASSIGN == "assign"``,
same hash, ``json.dumps`` and f-strings give the value), so code that still holds
plain strings compares equal and reports read the same either way.
"""

from __future__ import annotations

from enum import Enum
from typing import Final


class StrEnum(str, Enum):
    """``enum.StrEnum`` (Python 3.11+), also on 3.10: ``str()`` and ``format()`` give the value."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)


class AllocKind(StrEnum):
    """``AllocInfo.kind``.  A class matched by the heavy-class pattern gets the matched
    suffix in lower case instead (``wrapper``, ``runner``, ``backend``...): that
    vocabulary comes from the configuration, so it is not listed here."""

    TENSOR = "tensor"
    CACHED_BUFFER = "cached-buffer"  # get_buffer("key", lambda: ...)
    GLOBAL_SINGLETON = "global-singleton"  # a module-level cache filled on first construction
    MODULE = "module"  # an nn.Module
    PARAMETER = "parameter"  # an nn.Parameter (or a subclass): a checkpoint key of the module holding it
    BUFFER = "buffer"  # self.register_buffer("x", tensor): a checkpoint key unless persistent=False
    CONTAINER = "container"  # a list / ModuleList of allocations
    MAYBE_CLASS = "maybe-class"  # a project class: the analysis decides once the project is indexed
    UPDATER = "updater"
    FIELD = "field"  # calling a class-typed field (``member``) of an instance of ``callee``: the analysis reads it
    CALL = "call"  # the result of a function or method call: the analysis follows it through the project
    PARAM_CALL = "param-call"  # in a function followed, calling its parameter ``member``: the call's argument decides
    ITEM = "item"  # one element (``index``) of what ``element`` gives, for tuple targets
    TUPLE = "tuple"  # a returned tuple, element by element (``items``)
    OBJECT = "object"  # an installed library's class that is no module but whose ``__init__`` allocates


class InitStmtKind(StrEnum):
    """``InitStmt.kind``: one effect of a flattened ``__init__``."""

    ASSIGN = "assign"
    FILL = "fill"  # self.x.append(...), self.x[k] = ..., self.x += ...
    EFFECT = "effect"  # anything else that runs (a call, a condition)
    SUPER_INIT = "super_init"
    SUPER_CALL = "super_call"  # super().m(...) of another method: a parent's helper (``method``)
    KILL = "kill"  # both branches of an if assign the attribute: a definite overwrite
    RETURN = "return"
    DELETE = "delete"  # del self.x / delattr(self, "x")
    SET = "set"  # obj.x = ... on an object other than self (a guard the callee may read)
    ASSERT = "assert"  # assert <test>: a fact for the statements after it
    NESTED = "nested"  # self.block.proj = ...: replaces a part of an object self holds (attr "block.proj")


class ParamKind(StrEnum):
    """``Param.kind``."""

    POSONLY = "posonly"
    NORMAL = "normal"
    STAR = "star"  # *args
    KWONLY = "kwonly"
    DSTAR = "dstar"  # **kwargs


class FixSafety(StrEnum):
    """``Finding.fix_safety``."""

    SAFE = "safe"
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes
    NONE = "none"  # no fix


class AttrStatus(StrEnum):
    """What happens to an attribute an ancestor's ``__init__`` allocates (``Verdict.status``)."""

    OVERWRITTEN = "overwritten"  # DI001
    UNREAD = "unread"  # DI002
    KEPT_ALIVE = "kept-alive"  # overwritten, but a live attribute built from it holds the value: no waste
    LIVE = "live"  # something that counts reads it


class Lifetime(StrEnum):
    """How long a wasted allocation is held (``Verdict.lifetime``): the two columns of the totals."""

    STEADY = "steady"  # for the object's life: never read, or kept by a global cache after it is replaced
    TRANSIENT = "transient"  # built, then replaced: construction time and peak memory, freed once replaced
    NONE = "none"  # not waste: kept alive by a live attribute


class RefusalKind(StrEnum):
    """``Refusal.kind``: why ``deadinit fix`` left a finding alone."""

    NOT_FIXABLE = "not-fixable"
    UNSAFE = "unsafe"
    REFUSED = "refused"
    UNSAFE_REWRITE = "unsafe-rewrite"
    GENERATED_FILE = "generated-file"  # the file is generated: the fix belongs in its source
    NOT_WORTH_IT = "not-worth-it"  # safe, but saves less than fix-min-bytes (analysis.worth)


class BaseKind(StrEnum):
    """A base class as the project index sees it."""

    CLASS = "class"  # a class of the project
    EXTERNAL = "external"  # a class from outside the project (torch.nn.Module, ...)
    OPAQUE = "opaque"  # an expression no name can be given to


class MethodStatus(StrEnum):
    """A parent method, for the reuse measure (DI003)."""

    REUSED = "reused"
    OVERRIDDEN = "overridden"
    DEAD = "dead"
    STUB = "stub"


class AttrUseStatus(StrEnum):
    """A parent attribute, for the reuse measure (DI003)."""

    USED = "used"
    OVERWRITTEN = "overwritten"
    DEAD = "dead"
    UNUSED = "unused"
    SKIPPED = "skipped"


class ClassAttrStatus(StrEnum):
    """A parent class attribute, for the reuse measure (DI003)."""

    READ = "read"
    UNREAD = "unread"
    OVERRIDDEN = "overridden"


class LibraryStatus(StrEnum):
    """A top-level package the project imports, as the installed libraries answer for it
    (``deadinit.installed``)."""

    SOURCE = "source"  # installed with its Python sources: read
    COMPILED = "compiled"  # installed as a compiled extension only: nothing to read
    MISSING = "missing"  # not installed where libraries are read from


class FormatterKind(StrEnum):
    """The formatter a project's configuration names (``fixes.formatter``)."""

    RUFF = "ruff"  # [tool.ruff] in pyproject.toml, ruff.toml, .ruff.toml
    BLACK = "black"  # [tool.black] in pyproject.toml
    DEFAULT = "default"  # none configured: black's style at 88 columns, which ruff's formatter shares


class ExprTag:
    """The form of an expression (``model.summary.Expr``, built by ``deadinit.semantics.exprs``): its
    first item, what the items after it are.

    Named constants of plain (interned) strings rather than enum members: expressions are most
    of a summary, and a summary pickles in many blobs (``model.pickled``), each unpickling its
    own copy of every form it uses.  As enum members, unpickling all summaries of sglang 0.5.23
    took 42% longer (9.7 s against 6.8 s, ``getattr`` by name: still ~14 times a string's cost
    per blob); as strings the pickles are what they were.  Code compares with these names, never
    with the strings they hold.
    """

    CONST: Final = "const"  # (CONST, v): an int / float / str / bytes / bool / None literal
    NAME: Final = "name"  # (NAME, n): a bare name
    SELF: Final = "self"  # (SELF, a): self.a
    DOTTED: Final = "dotted"  # (DOTTED, "a.b.c"): an attribute chain on a name
    NOT: Final = "not"  # (NOT, e)
    AND: Final = "and"  # (AND, a, b)
    OR: Final = "or"  # (OR, a, b)
    IS_NONE: Final = "is_none"  # (IS_NONE, e)
    IS_NOT_NONE: Final = "is_not_none"  # (IS_NOT_NONE, e)
    EQ: Final = "eq"  # (EQ, a, b)
    NE: Final = "ne"  # (NE, a, b)
    CMP: Final = "cmp"  # (CMP, op, a, b): an ordering, op one of < <= > >=
    IN: Final = "in"  # (IN, a, b): a in b (``a not in b`` is (NOT, (IN, a, b)))
    BIN: Final = "bin"  # (BIN, op, a, b): arithmetic
    CALL: Final = "call"  # (CALL, func, args, kwargs): func a dotted string or "?"
    IFEXP: Final = "ifexp"  # (IFEXP, test, body, orelse)
    TUPLE: Final = "tuple"  # (TUPLE, items)
    NOTNONE: Final = "notnone"  # (NOTNONE,): certainly not None (a container, a lambda, an f-string...)
    UNKNOWN: Final = "?"  # (UNKNOWN,): anything else
    EMPTY: Final = "empty"  # (EMPTY,): an empty list or dict, as the chain's conditions evaluate values
    KEY: Final = "key"  # (KEY, k): a leaf named by the value it reads, in the chain's keyed conditions


class PatternTag:
    """The form of a ``model.summary.Pattern`` (built by ``deadinit.semantics.dynamic``), the names a
    dynamic access to ``self``'s attributes may reach: its first item, what the items after it are.
    Plain strings, as ``ExprTag`` (and for its reason): patterns are pickled in summaries."""

    NAMES: Final = "names"  # (NAMES, (n, ...)): one of these names
    AFFIX: Final = "affix"  # (AFFIX, prefix, suffix): a name with that prefix and suffix ("" for none)
    CLASS_NAMES: Final = "class-names"  # (CLASS_NAMES, attr): a name the class attribute ``attr`` lists
    ANY: Final = "any"  # (ANY,): any name


class NameKind(StrEnum):
    """What a dotted name resolves to (``index.name_resolution.ResolvedName``)."""

    CLASS = "class"
    FUNCTION = "function"
    MODULE = "module"


EXPR_FORMS: frozenset[str] = frozenset(v for k, v in vars(ExprTag).items() if k.isupper())
PATTERN_FORMS: frozenset[str] = frozenset(v for k, v in vars(PatternTag).items() if k.isupper())


class FillKind:
    """How a ``FILL`` statement fills its container (``InitStmt.fill_kind``): the method called
    (``append``, ``extend``...), or one of these.  Plain strings: summaries pickle them."""

    APPEND: Final = "append"  # ``self.x.append(v)``
    SETITEM: Final = "setitem"  # ``self.x[i] = v``
    AUG: Final = "aug"  # ``self.x += [v]``
