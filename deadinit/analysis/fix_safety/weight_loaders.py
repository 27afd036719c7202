"""Whether every way the project loads weights into a class skips the names it does not know.

A registered module, parameter or buffer that a DI002 fix stops building removes
checkpoint keys.  The fix keeps behaviour only if every loader that could see those
keys skips a name that names no parameter.  For a class ``C`` that is proven when:

* ``C`` and every subclass that inherits the fix resolve a configured weight-loader
  method (``weight-loaders``) through their MRO, and each one that resolves is a loader
  ``deadinit.semantics.loaders.skips`` proves skips unknown names;
* no ``load_state_dict`` call in the project could be made on one of them (a call on a
  receiver of unknown or related class, or ``self.load_state_dict`` in their methods):
  its default ``strict=True`` raises on an unexpected key;
* every ``nn.Module`` class of the project that constructs one of them (and so could
  register it as a part, loading it with its own loader) is proven the same way.

Anything else (no loader, a loader outside the project, one the semantic model
cannot prove) is not a proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.index.dependencies import Memo, Recorded, note, paused
from deadinit.index.project_index import ProjectIndex
from deadinit.model.access import object_read_tally, object_reads
from deadinit.model.evidence import Evidence, EvidenceKind
from deadinit.model.qualnames import short_name
from deadinit.model.settings import Settings

MAX_DEPTH = 4
STATE_LOADER = "load_state_dict"


@dataclass
class LoaderProofs:
    """Project-wide: which classes' weights are loaded only by loaders that skip unknown names."""

    index: ProjectIndex
    settings: Settings
    _containers: Recorded[str, set[str]] | None = None  # class -> nn.Module classes whose methods construct it
    _state_loads: list[tuple[str, tuple[str, ...] | None]] | None = None  # (module, receiver classes) per call
    _memo: Memo[str, Evidence | None] = field(default_factory=Memo)
    _cuts: int = 0  # proofs cut short by the depth limit or a cycle so far (their None is not the class's own)

    def proof(self, cls: str) -> Evidence | None:
        """The evidence that fixing a registered attribute of ``cls`` keeps every weight load working."""
        return self._proof(cls, MAX_DEPTH, frozenset())

    def _proof(self, cls: str, depth: int, stack: frozenset[str]) -> Evidence | None:
        if cls in self._memo:
            return self._memo[cls]
        if depth <= 0 or cls in stack:
            self._cuts += 1
            return None
        cuts = self._cuts
        with self._memo.computing(cls):
            evidence = self._proof_of(cls, depth, stack)
        if evidence is not None or self._cuts == cuts:  # a cut None depends on who asked: not kept
            self._memo[cls] = evidence
        return evidence

    def _proof_of(self, cls: str, depth: int, stack: frozenset[str]) -> Evidence | None:
        index = self.index
        family = [cls, *sorted(index.all_subclasses(cls))]
        evidence: Evidence | None = None
        for qn in family:
            found = self._loader(qn)
            if found is None:
                return None
            evidence = evidence or found
        if any(self._state_loaded(qn) for qn in family):
            return None
        containers = set().union(*(self.constructed_by().get(qn, set()) for qn in family))
        if any(self._proof(c, depth - 1, stack | {cls}) is None for c in sorted(containers - set(family))):
            return None
        return evidence

    def _loader(self, qn: str) -> Evidence | None:
        """Evidence that every configured loader ``qn`` resolves skips unknown names; None when one does not
        or none resolves."""
        mro = self.index.mro(qn)
        if mro is None:
            return None
        proofs: list[Evidence] = []
        for name in self.settings.weight_loaders:
            found = self.index.resolve_method(mro, name)
            if found is None:
                continue
            owner, method = found
            if method.skips_unknown_weights is None:
                return None
            path = self.index.path_of(owner)
            text = f"`{short_name(owner)}.{name}` skips weight names it does not know"
            proofs.append(Evidence(EvidenceKind.LOADER, text, path, method.skips_unknown_weights))
        return proofs[0] if proofs else None

    def _state_loaded(self, qn: str) -> bool:
        """A ``load_state_dict`` call in the project could be made on an instance of ``qn``."""
        index = self.index
        mro = index.mro(qn) or [qn]
        if any(r[0] == STATE_LOADER for c in mro for m in index.classes[c].methods.values() for r in m.reads):
            return True
        for module, receivers in self.state_loader_calls():
            if receivers is None:
                return True
            for dotted in receivers:
                other = index.resolve(module, dotted)
                if other is None or index.is_subclass(qn, other) or index.is_subclass(other, qn):
                    return True
        return False

    def state_loader_calls(self) -> list[tuple[str, tuple[str, ...] | None]]:
        """Each ``load_state_dict`` call of the project: (module, receiver classes or None when unknown);
        a read of the whole list (one incremental dependency, ``state_loads``)."""
        note(("state_loads", ""))
        if self._state_loads is None:
            with paused():
                self._state_loads = [
                    (module, None if a.types is None else tuple(t.dotted for t in a.types))
                    for module, s in self.index.modules.items()
                    if STATE_LOADER in object_read_tally(s.accesses)
                    for a in object_reads(s.accesses, STATE_LOADER)
                ]
        return self._state_loads

    def constructed_by(self) -> Recorded[str, set[str]]:
        """Project class -> the ``nn.Module`` classes of the project whose methods construct it."""
        if self._containers is None:
            index = self.index
            out: dict[str, set[str]] = {}
            bases = self.settings.module_bases
            with paused():
                for module, s in index.modules.items():
                    for c in s.constructs:
                        if c.in_class is None or c.in_class not in index.classes:
                            continue
                        if not index.derives_from_external(c.in_class, bases):
                            continue
                        qn = index.resolve(module, c.callee)
                        if qn is not None:
                            out.setdefault(qn, set()).add(c.in_class)
            self._containers = Recorded("constructed_by", out)
        return self._containers
