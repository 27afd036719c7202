"""The records of the liveness fixpoint and the facts built from it (``analysis.facts``).

``Fixpoint`` is what the fixpoint found for one class's flattened ``__init__`` chain;
``AttrFact`` is one ancestor allocation whose value nothing uses, with its evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from deadinit.analysis.flow.chain import ChainStmt
from deadinit.analysis.reads.external import ExternalReads
from deadinit.analysis.sizes.symbolic import Size
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo
from deadinit.model.verdict import Verdict

if TYPE_CHECKING:
    from deadinit.analysis.flow.returns import ReturnResolver
    from deadinit.analysis.sizes.size_model import SizeModel


@dataclass(frozen=True)
class Overwrite:
    binding: ChainStmt  # the ancestor's statement whose value is replaced
    by: ChainStmt  # the later definite assignment (or element-by-element refill) that replaces it


@dataclass
class AttrFact:
    cls: str
    attr: str
    owner: str  # the ancestor whose __init__ allocates it
    stmts: list[ChainStmt]
    alloc: AllocInfo
    kind: str
    overwrites: list[Overwrite] = field(default_factory=list)  # in the order of the replacing statements
    allocations_overwritten: bool = False  # every binding that allocates is replaced
    read: bool = False  # something that counts reads the attribute (after the last binding, or outside the chain)
    estimated_bytes: int | None = None  # the size, when it is a number known in full
    size: Size | None = None  # the estimate: a number or an expression over names, maybe a lower bound
    conditional: bool = False
    condition: str | None = None  # what must hold for the allocation to be wasted, when nothing decides it
    replaced_when: str | None = None  # the part of ``condition`` that guards the replacing statement
    evidence: list[Evidence] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)
    verdict: Verdict | None = None  # status, fix safety and size, decided once (analysis.verdicts, analysis.fixable)
    feeds: list[str] = field(default_factory=list)  # dead attributes built from it
    kept_by: list[str] = field(default_factory=list)  # live attributes built from the overwritten value
    names: dict[str, str] = field(default_factory=dict)  # qualname -> name shown (module parts where names clash)

    def show(self, qualname: str) -> str:
        """The class's name in messages: ``Foo``, or ``llama.Foo`` when another class of the finding is a Foo."""
        return self.names.get(qualname) or short_name(qualname)

    followed: tuple[Evidence, ...] = ()  # the project functions the allocation is made in, outermost first
    part_of: str | None = None  # a part of the object self.<part_of> holds (attr is the path ``a.b``)
    handed_on: str = ""  # why no fix can skip it: code that stays hands it to a constructor (analysis.construction)

    @property
    def killer(self) -> ChainStmt | None:
        """The statement that replaces the value last, if any."""
        return self.overwrites[-1].by if self.overwrites else None


@dataclass
class Fixpoint:
    """The liveness fixpoint over one class's flattened ``__init__`` chain."""

    events: list[ChainStmt]  # the chain statements that may run
    reads: list[set[str]]  # per event: the attributes it reads (through called methods too)
    effective: set[int]  # events whose value something that counts reads
    killed: dict[int, int]  # event -> the later event that replaces its value before a read that counts
    kept: dict[int, list[str]]  # overwritten event -> live attributes built from its value
    read_between: dict[int, list[str]]  # event whose elements are replaced one by one -> reads before that
    live: set[str]  # attributes read by something that counts
    dead_classes: frozenset[str] = frozenset()  # classes constructed only by statements that are not effective
    # event -> attribute it reads only to hand to constructed objects that never use it -> why (analysis.construction)
    transit: dict[int, dict[str, str]] = field(default_factory=dict)
    _positions: dict[int, int] | None = field(default=None, init=False, repr=False, compare=False)

    def position(self, stmt: ChainStmt) -> int | None:
        """Where ``stmt`` (this very statement object) is among the events; None when it is not one."""
        if self._positions is None:
            self._positions = {id(c): i for i, c in enumerate(self.events)}
        return self._positions.get(id(stmt))


class Analysis(Protocol):
    """What the facts need of ``liveness.Analyzer``."""

    index: ProjectIndex
    settings: Settings
    ext: ExternalReads
    sizes: SizeModel
    returns: ReturnResolver
    reported: Callable[[AttrFact], bool]

    def classify(self, alloc: AllocInfo | None, module: str) -> str | None: ...
