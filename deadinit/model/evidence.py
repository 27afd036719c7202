"""One step of the reasoning behind a finding, as reporters print it and JSON / SARIF carry it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class EvidenceKind(str, Enum):
    """What an evidence line states; the value is the ``kind`` string of the JSON output."""

    # DI001 / DI002: the fate of an attribute an ancestor's __init__ allocates
    ALLOCATED = "allocated"
    FOLLOWED = "followed"  # the allocation is made inside a project function or method the value comes from
    DECLARED = "declared"  # the class built is the one a field's annotation declares it holds (``type[X]``)
    DELETED = "deleted"  # a later statement removes the attribute
    CHAIN = "chain"
    OVERWRITTEN = "overwritten"
    READ_BETWEEN = "read-between"
    KEPT_ALIVE = "kept-alive"
    CHECKED = "checked"
    READ_NOT_COUNTED = "read-not-counted"
    EXTERNAL_NOT_COUNTED = "external-not-counted"
    CONDITIONAL = "conditional"  # allocated only when a condition nothing decides holds
    GENERATED = "generated"  # a file of the finding is generated: the change belongs in its source
    REGISTERED = "registered"  # a registered module / parameter / buffer of an nn.Module: a checkpoint key
    LOADER = "loader"  # the class's weight loader skips checkpoint names that name no parameter
    # DI004: a call of a parent's __init__ that cannot bind
    CALL = "call"
    TARGET = "target"
    # DI003: what of the parent the class still uses
    REUSE = "reuse"
    METHOD_REUSED = "method-reused"
    METHOD_OVERRIDDEN = "method-overridden"
    METHOD_DEAD = "method-dead"
    METHOD_STUB = "method-stub"
    ATTRIBUTE_USED = "attribute-used"
    ATTRIBUTE_OVERWRITTEN = "attribute-overwritten"
    ATTRIBUTE_DEAD = "attribute-dead"
    ATTRIBUTE_UNUSED = "attribute-unused"
    ATTRIBUTE_SKIPPED = "attribute-skipped"
    CLASS_ATTRIBUTE_READ = "class-attribute-read"
    CLASS_ATTRIBUTE_UNREAD = "class-attribute-unread"
    CLASS_ATTRIBUTE_OVERRIDDEN = "class-attribute-overridden"
    SUGGESTION = "suggestion"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Evidence:
    kind: EvidenceKind
    text: str
    path: str = ""  # "" when the step has no single place in the source
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "text": self.text, "path": self.path, "line": self.line}
