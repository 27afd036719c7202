"""Per-class fate of every attribute an ancestor's ``__init__`` allocates.

For a class S: flatten its ``__init__`` chain, find what can run on an S (and on
its subclasses, which run the same chain), then grow the set of *effective*
assignments to a fixpoint: an assignment is effective when its attribute is read
by something that counts and no later definite assignment overwrites it before
such a read.  Reads made while building something dead do not count, so a
workspace used only to build dead wrappers is dead too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deadinit.analysis.facts import AttrFact, allocation_of, build_facts
from deadinit.analysis.fix_safety.fix_level import fix_level
from deadinit.analysis.fix_safety.fixable import settle
from deadinit.analysis.fix_safety.weight_loaders import LoaderProofs
from deadinit.analysis.fix_safety.worth import defer_small_fixes
from deadinit.analysis.flow.chain import Chain, ChainStmt, init_chain
from deadinit.analysis.flow.returns import ReturnResolver
from deadinit.analysis.liveness.below import SubclassReads
from deadinit.analysis.liveness.construction import ClassLiveness, ConstructionFlow, handed_on, transit_evidence
from deadinit.analysis.liveness.fixpoint import EffectiveAssignments, ExternalRead
from deadinit.analysis.liveness.nested import nested_facts
from deadinit.analysis.liveness.outside_chain import EventReads, LiveSet, read_outside_chain, unsure_of
from deadinit.analysis.liveness.registration import walked
from deadinit.analysis.liveness.variant_sites import Resolved
from deadinit.analysis.reads.exports import ProjectExports
from deadinit.analysis.reads.external import ExternalReads
from deadinit.analysis.reads.reach import Reach, reachable
from deadinit.analysis.sizes.size_model import SizeModel
from deadinit.analysis.verdicts import decide
from deadinit.index.dependencies import Memo, Recorded
from deadinit.index.project_index import ProjectIndex
from deadinit.model.kinds import AllocKind
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Pattern
from deadinit.semantics.alloc import heavy_kind


@dataclass
class ClassAnalysis:
    cls: str
    chain: Chain
    reach: Reach
    facts: list[AttrFact]
    live: set[str]
    effective: set[int]
    unsure: list[tuple[str, Pattern]]
    read_why: dict[str, str]


MODULE_ENTRY_POINTS = ("forward", "extra_repr")
# where each constructed class is built (path, line), which classes each place builds, on how many lines
_SiteTables = tuple[Recorded[str, list[tuple[str, int]]], Recorded[tuple[str, int], set[str]], Recorded[str, int]]


class Analyzer:
    """``reported`` decides which facts become findings (the rules' decision); ``analyse`` keeps only those."""

    def __init__(self, index: ProjectIndex, settings: Settings, reported: Callable[[AttrFact], bool]):
        self.index = index
        self.settings = settings
        self.reported = reported
        self.ext = ExternalReads(index)
        self.sizes = SizeModel(index, settings)
        self.returns = ReturnResolver(index)
        self._reach: Memo[str, Reach] = Memo()
        self._built: Memo[tuple[str, int], ClassLiveness | None] = Memo()  # (class, depth) -> see ``liveness``
        self.below = SubclassReads(index, self.reach_of)
        self.construction = ConstructionFlow(index, self.liveness)
        self._sites: _SiteTables | None = None
        self.exported = ProjectExports(index)
        self._loader_proofs: LoaderProofs | None = None

    # -- helpers -------------------------------------------------------------
    @property
    def sites(self) -> Recorded[str, list[tuple[str, int]]]:
        """Constructed project class -> (path, line) of each construction site."""
        return self._site_tables()[0]

    @property
    def sites_at(self) -> Recorded[tuple[str, int], set[str]]:
        """(path, line) -> the classes constructed there."""
        return self._site_tables()[1]

    @property
    def site_lines(self) -> Recorded[str, int]:
        """Constructed project class -> on how many lines: with ``sites_at``, whether every site lies in a
        set of lines, without a read of where the others are (a line moved elsewhere changes nothing)."""
        return self._site_tables()[2]

    def _site_tables(self) -> _SiteTables:
        """Built on first use: ``ext.install_sites`` may give the sites before (``api.check.index_project``)."""
        if self._sites is None:
            self.ext.construct_sites()
            sites = self.ext.site_paths
            sites_at: dict[tuple[str, int], set[str]] = {}
            for qn, locs in sites.items():
                for loc in locs:
                    sites_at.setdefault(loc, set()).add(qn)
            lines = {qn: len(set(locs)) for qn, locs in sites.items()}
            self._sites = Recorded("sites", sites), Recorded("sites_at", sites_at), Recorded("site_lines", lines)
        return self._sites

    def install(self, resolved: Resolved) -> None:
        """Take the construction sites and (where known) exports a variant of the project kept."""
        self.ext.install_sites(*resolved.sites)
        if resolved.exports is not None:
            self.exported.install(resolved.exports)

    def exports(self) -> Recorded[str, str]:
        """Project classes offered to code outside the project, and where (``analysis.reads.exports``)."""
        return self.exported.table()

    def first_exported(self, cls: str) -> str | None:
        return self.exported.first_at_or_below(cls)

    def loader_proofs(self) -> LoaderProofs:
        """Which classes' weights only loaders that skip unknown names load (``analysis.fix_safety.weight_loaders``)."""
        if self._loader_proofs is None:
            self._loader_proofs = LoaderProofs(self.index, self.settings)
        return self._loader_proofs

    def reach_of(self, cls: str) -> Reach:
        return self._reach.get_or(cls, lambda: self._reach_of(cls))

    def _reach_of(self, cls: str) -> Reach:
        mro = self.index.mro(cls) or [cls]
        names = set()
        for name in self.index.methods_on(cls):  # each name the MRO defines, once
            if name in self.ext.by_attr and any(
                self.ext.could_hold(a, m, cls)[0]
                for a, m in self.ext.by_attr[name]
                if not (a.in_class and a.in_class in mro)
            ):
                names.add(name)
        if self.index.derives_from_external(cls, self.settings.module_bases):
            names.update(MODULE_ENTRY_POINTS)  # ``module(x)`` runs ``forward`` through ``nn.Module.__call__``
        return reachable(self.index, cls, names)

    def classify(self, alloc: AllocInfo | None, module: str) -> str | None:
        if alloc is None:
            return None
        if alloc.kind == AllocKind.MAYBE_CLASS:
            qn = self.index.resolve(module, alloc.callee)
            if qn is not None and self.index.derives_from_external(qn, self.settings.module_bases):
                return "module"
            if qn is not None and self.index.derives_from_external(qn, self.settings.parameter_bases):
                return "parameter"
            if qn is None:  # an installed library's class: what its own code says it is
                outside = self.index.outside.constructed(module, alloc.callee)
                return outside.kind if outside is not None else None
            return None
        if alloc.kind == AllocKind.CONTAINER:
            inner = self.classify(alloc.element, module)
            return f"list of {inner}" if inner else None
        if alloc.kind in (AllocKind.CACHED_BUFFER, AllocKind.GLOBAL_SINGLETON):
            return alloc.kind
        if alloc.callee and heavy_kind(alloc.callee, self.settings) == alloc.kind:
            # the heavy-class pattern is the fallback for a class no installed library defines
            installed = self.index.outside.constructed(module, alloc.callee)
            if installed is not None:
                return alloc.kind if installed.kind is not None else None
        return alloc.kind

    def allocation_kind(self, c: ChainStmt, mro: list[str]) -> str | None:
        """The kind of what chain statement ``c`` allocates, also through project functions and class-typed
        fields, as the facts count an allocation; None: a plain value."""
        found = allocation_of(self, c, mro)
        return found.kind if found is not None else None

    # -- the analysis --------------------------------------------------------
    def analyse(self, cls: str) -> ClassAnalysis | None:
        chain = init_chain(self.index, cls)
        mro = self.index.mro(cls) or [cls]
        reach = self.reach_of(cls)
        if chain.broken is not None:  # constructing the class raises before it exists: nothing is wasted
            return ClassAnalysis(cls, chain, reach, [], set(), set(), [], {})
        if len(chain.inits) < 2 and not any(c.owner != cls for c in chain.stmts):
            return None
        lv = self._liveness(cls, chain, 0)
        fixpoint = lv.fixpoint
        assert fixpoint is not None
        facts = build_facts(self, cls, fixpoint, reach, mro, lv.unsure, self.reported)
        facts += nested_facts(self, cls, fixpoint, mro, lv.unsure)
        facts = [f for f in facts if f.owner not in chain.reruns]  # its second run stores them again
        for fact in facts:
            fact.evidence.extend(transit_evidence(fact, fixpoint))
            fact.handed_on = handed_on(fact, fixpoint)
            level = fix_level(self, fact, reach, mro)
            fact.verdict = decide(self.index, fact, level)
            fact.evidence.extend(level.evidence)
        settle(self.index, chain, facts, mro)
        defer_small_fixes(facts, self.settings)
        return ClassAnalysis(cls, chain, reach, facts, fixpoint.live, fixpoint.effective, lv.unsure, lv.read_why)

    def liveness(self, cls: str, depth: int) -> ClassLiveness | None:
        """The fixpoint of a class built ``depth`` constructions away from the class analysed, memoised."""
        # a construction cycle at the same depth: unsure (the cycle's answer: None)
        return self._built.get_or((cls, depth), lambda: self._liveness(cls, init_chain(self.index, cls), depth))

    def _liveness(self, cls: str, chain: Chain, depth: int) -> ClassLiveness:
        """What the class's reachable methods, its subclasses and code outside it read
        (``analysis.liveness.outside_chain``), then the effective assignments (``analysis.liveness.fixpoint``)."""
        mro = self.index.mro(cls) or [cls]
        reach = self.reach_of(cls)
        if chain.broken is not None:
            return ClassLiveness(cls, chain, mro, [], None, {})
        unsure = unsure_of(self.index, cls, chain, mro, reach)
        live = LiveSet()
        walkers = read_outside_chain(self.index, cls, chain, mro, reach, self.reach_of, self.below, live, unsure)
        events = [c for c in chain.stmts if c.active is not False]
        for attr, why in walked(self, cls, mro, events, walkers).items():
            live.mark(attr, why)
        reads = EventReads(self.index, mro, events, lambda c, attrs: self.construction.dead_passes(c, attrs, depth))
        external = ExternalRead(self.index, self.ext, cls)
        fixpoint = EffectiveAssignments(events, reads, live, external, (self.sites_at, self.site_lines)).run()
        return ClassLiveness(cls, chain, mro, unsure, fixpoint, live.why)
