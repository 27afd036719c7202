"""How safe the fix of one fact is, with ruff's meaning of the levels.

``safe``: the fact rests on what the analysis proves (class structure, exact
constructions, ``isinstance``, annotations, transitive deadness: every way
``deadinit.analysis.reads.external`` sets an ``obj.x`` read aside is one of these) and the
rewrite keeps behaviour for every caller in the project.  ``unsafe``: the rewrite may change
something observable; the one-line reason says what:

* the analysis is unsure (a dynamic access it could not rule out);
* the attribute of an ``nn.Module`` is a registered module, parameter or buffer: not
  building it removes checkpoint keys that ``state_dict``, ``load_state_dict`` and
  weight loaders see even when no method reads it;
* the class (or a subclass that inherits the fix) is exported, by its module's
  ``__all__`` or a package ``__init__``, so code outside the project may hold one, and
  the attribute's name is public, or a public method of the class reads it and nothing
  in the project calls that method on the class (``obj.method()`` would find ``None``).

Skipping the construction of a registered layer with parameters also changes how much of
the random-number stream is used before later layers initialise (a seeded model built from
scratch gets other initial weights; a checkpoint load does not care): the fix says so, and
``random_stream_unsafe`` makes it unsafe.

A class that is not exported is reached from outside only through the project's
internals: its public names are not counted as a way in, or nearly every fix would be
unsafe again (a public helper that nothing calls is common in application code).

An attribute that the subclass assigns again on every path (DI001) keeps a value of
its own: outside readers, public methods and checkpoint keys see the same name, so
only an unsure analysis makes that fix unsafe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from deadinit.analysis.facts import AttrFact
from deadinit.analysis.fix_safety.weight_loaders import LoaderProofs
from deadinit.analysis.liveness.registration import registration
from deadinit.analysis.reads.reach import Reach, method_reads
from deadinit.index.project_index import ProjectIndex
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.kinds import AllocKind
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings


class Analysis(Protocol):
    """What the level needs of ``deadinit.analysis.analyzer.Analyzer``."""

    index: ProjectIndex
    settings: Settings

    def exports(self) -> Mapping[str, str]: ...

    def first_exported(self, cls: str) -> str | None: ...

    def loader_proofs(self) -> LoaderProofs: ...


@dataclass(frozen=True)
class FixLevel:
    safe: bool
    reason: str = ""  # one line: why the fix is unsafe
    evidence: tuple[Evidence, ...] = ()


RANDOM_STREAM = (
    "skipping the construction of `{attr}` changes how much of the random-number stream is used before later "
    "layers initialise: a model built from scratch with a fixed seed gets other initial weights (loading a "
    "checkpoint is unaffected)"
)


def fix_level(an: Analysis, fact: AttrFact, reach: Reach, mro: list[str]) -> FixLevel:
    """The level of the fix of ``fact`` on ``fact.cls``, with the random-stream note for a registered layer
    with parameters (``random_stream_unsafe``: the note makes the fix unsafe)."""
    level = _level(an, fact, reach, mro)
    if not (level.evidence and _initialises_parameters(fact)):
        return level
    note = RANDOM_STREAM.format(attr=fact.attr)
    if not level.safe:
        return FixLevel(False, f"{level.reason}; {note}", level.evidence)
    if an.settings.random_stream_unsafe:
        return FixLevel(False, note, level.evidence)
    first = fact.stmts[0]
    return FixLevel(True, "", (*level.evidence, Evidence(EvidenceKind.REGISTERED, note, first.path, first.stmt.line)))


def _initialises_parameters(fact: AttrFact) -> bool:
    """A registered module or parameter, not one known to hold nothing (a layer without parameters)."""
    kind = fact.kind.removeprefix("list of ")
    return kind in (AllocKind.MODULE, AllocKind.PARAMETER) and fact.estimated_bytes != 0


def _level(an: Analysis, fact: AttrFact, reach: Reach, mro: list[str]) -> FixLevel:
    evidence = registration_evidence(an, fact, mro)
    if fact.unsure:
        return FixLevel(False, f"the analysis is unsure: {fact.unsure[0]}", evidence)
    if _keeps_a_value(fact):
        return FixLevel(True, "", evidence)
    if evidence:
        held = fact.kind.removeprefix("list of ")
        what = held if held in (AllocKind.PARAMETER, AllocKind.BUFFER) else "module"
        loader = an.loader_proofs().proof(fact.cls) if what == "module" else None
        if loader is None:
            return FixLevel(
                False,
                f"removes the registered {what} `{fact.attr}` from {short_name(fact.cls)}: checkpoint keys change "
                "(state_dict, load_state_dict, weight loaders)",
                evidence,
            )
        evidence = (*evidence, loader)
    reason = _exported(an, fact, reach, mro)
    return FixLevel(not reason, reason, evidence)


def _keeps_a_value(fact: AttrFact) -> bool:
    """Every binding of the ancestor is replaced on every path: after the fix the attribute still holds
    the replacing value, so nothing outside ``__init__`` can tell the difference."""
    replaced = {id(o.binding) for o in fact.overwrites}
    return bool(replaced) and all(id(c) in replaced for c in fact.stmts)


def is_registered(an: Analysis, fact: AttrFact, mro: list[str]) -> bool:
    """``self.x`` of an ``nn.Module`` holds a registered module, parameter or buffer (or a module container)."""
    if not an.index.derives_from_external(mro[0], an.settings.module_bases):  # mro is the class's own
        return False
    return any(
        registration(an.index, an.settings, fact.kind, c.stmt.alloc, an.index.class_module[c.owner]) is not None
        for c in fact.stmts
    )


def registration_evidence(an: Analysis, fact: AttrFact, mro: list[str]) -> tuple[Evidence, ...]:
    if not is_registered(an, fact, mro):
        return ()
    first = fact.stmts[0]
    if _keeps_a_value(fact):
        text = (
            f"{short_name(fact.cls)} is an nn.Module: self.{fact.attr} is registered ({fact.kind}); the subclass "
            "registers its own under the same name, so the checkpoint keys do not change"
        )
    else:
        text = (
            f"{short_name(fact.cls)} is an nn.Module: self.{fact.attr} is registered ({fact.kind}), so state_dict, "
            "named_parameters, .to() and weight loaders see it although no method reads it; "
            "not building it changes the checkpoint keys"
        )
    return (Evidence(EvidenceKind.REGISTERED, text, first.path, first.stmt.line),)


def _exported(an: Analysis, fact: AttrFact, reach: Reach, mro: list[str]) -> str:
    exports = an.exports()
    exported = an.first_exported(fact.cls)
    if exported is None:
        return ""
    head = f"{short_name(exported)} is exported ({exports[exported]})"
    if not fact.attr.startswith("_"):
        return f"{head} and `{fact.attr}` is public: code outside the project may read it"
    reader = _public_reader(an, fact, reach, mro)
    return f"{head} and {reader}" if reader else ""


def _public_reader(an: Analysis, fact: AttrFact, reach: Reach, mro: list[str]) -> str:
    """A public method nothing in the project calls on the class, but which reads the attribute."""
    index = an.index
    seen: set[str] = set()
    for qn in mro:
        for name, method in index.classes[qn].methods.items():
            if name in seen or name.startswith("_"):
                continue
            seen.add(name)
            if (qn, name) in reach.methods or method.is_stub:
                continue
            reads = method_reads(index, mro, [(qn, method)], "public method")
            if fact.attr in reads.reads:
                return (
                    f"its public method {short_name(qn)}.{name} reads self.{fact.attr}: nothing in the project calls "
                    f"it on {short_name(fact.cls)}, code outside the project could"
                )
    return ""
