"""Per-class fate of every attribute an ancestor's ``__init__`` allocates.

For a class S: flatten its ``__init__`` chain, find what can run on an S (and on
its subclasses, which run the same chain), then grow the set of *effective*
assignments to a fixpoint: an assignment is effective when its attribute is read
by something that counts and no later definite assignment overwrites it before
such a read.  Reads made while building something dead do not count, so a
workspace used only to build dead wrappers is dead too.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from deadinit.analysis.binding_fate import binds, own_if_kill, replaces_elements, touching_events
from deadinit.analysis.chain import Chain, ChainStmt, init_chain
from deadinit.analysis.construction import ClassLiveness, ConstructionFlow, handed_on, transit_evidence
from deadinit.analysis.exports import ProjectExports
from deadinit.analysis.external import ExternalReads
from deadinit.analysis.facts import AttrFact, Fixpoint, build_facts
from deadinit.analysis.fix_level import fix_level
from deadinit.analysis.fixable import settle
from deadinit.analysis.nested import nested_facts
from deadinit.analysis.reach import Reach, method_reads, reachable, short
from deadinit.analysis.registration import Walks, walked
from deadinit.analysis.returns import ReturnResolver
from deadinit.analysis.sizes import SizeModel
from deadinit.analysis.variant_sites import Resolved
from deadinit.analysis.verdicts import decide
from deadinit.analysis.weight_loaders import LoaderProofs
from deadinit.analysis.worth import defer_small_fixes
from deadinit.index.dependencies import Memo, Recorded, note
from deadinit.index.project_index import ProjectIndex
from deadinit.model.settings import Settings
from deadinit.model.summary import AllocInfo, Pattern
from deadinit.semantics.alloc import heavy_kind
from deadinit.semantics.dynamic import ANY


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
        """Project classes offered to code outside the project, and where (``analysis.exports``)."""
        return self.exported.table()

    def first_exported(self, cls: str) -> str | None:
        return self.exported.first_at_or_below(cls)

    def loader_proofs(self) -> LoaderProofs:
        """Which classes' weights only loaders that skip unknown names load (``analysis.weight_loaders``)."""
        if self._loader_proofs is None:
            self._loader_proofs = LoaderProofs(self.index, self.settings)
        return self._loader_proofs

    def reach_of(self, cls: str) -> Reach:
        return self._reach.get_or(cls, lambda: self._reach_of(cls))

    def _reach_of(self, cls: str) -> Reach:
        mro = self.index.mro(cls) or [cls]
        names = set()
        for qn in mro:
            for name in self.index.classes[qn].methods:
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
        if alloc.kind == "maybe-class":
            qn = self.index.resolve(module, alloc.callee)
            if qn is not None and self.index.derives_from_external(qn, self.settings.module_bases):
                return "module"
            if qn is not None and self.index.derives_from_external(qn, self.settings.parameter_bases):
                return "parameter"
            if qn is None:  # an installed library's class: what its own code says it is
                outside = self.index.outside.constructed(module, alloc.callee)
                return outside.kind if outside is not None else None
            return None
        if alloc.kind == "container":
            inner = self.classify(alloc.element, module)
            return f"list of {inner}" if inner else None
        if alloc.kind in ("cached-buffer", "global-singleton"):
            return alloc.kind
        if alloc.callee and heavy_kind(alloc.callee, self.settings) == alloc.kind:
            # the heavy-class pattern is the fallback for a class no installed library defines
            installed = self.index.outside.constructed(module, alloc.callee)
            if installed is not None:
                return alloc.kind if installed.kind is not None else None
        return alloc.kind

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
        index = self.index
        mro = index.mro(cls) or [cls]
        reach = self.reach_of(cls)
        if chain.broken is not None:
            return ClassLiveness(cls, chain, mro, [], None, {})
        unsure: list[tuple[str, Pattern]] = [
            (f"{short(o)}.{m} uses {r} (line {ln})", p) for o, m, r, ln, p in reach.dynamic
        ]
        unsure += [
            (f"{short(c.owner)}.__init__ uses {r} (line {c.stmt.line})", p)
            for c in chain.stmts
            if c.active is not False
            for r, p in c.stmt.dynamic
        ]
        for qn in mro:
            if "__getattr__" in index.classes[qn].methods or "__getattribute__" in index.classes[qn].methods:
                unsure.append((f"{short(qn)} defines __getattr__", ANY))
        blind = [b for b in index.external_bases(cls) if b.kind == "opaque"]
        if blind:
            names = ", ".join(b.name for b in blind)
            unsure.append((f"a base class expression could not be resolved: {names}", ANY))

        live: set[str] = set()
        read_why: dict[str, str] = {}

        def mark(attr: str, why: str) -> None:
            if attr not in live:
                live.add(attr)
                read_why[attr] = why

        for attr, sites in reach.reads.items():
            o, m, ln = sites[0]
            mark(attr, f"read by {short(o)}.{m} (line {ln}), reachable: {reach.methods.get((o, m), '')}")
        for owner in chain.reruns:  # a second run, not walked: what it reads counts as read
            for st in index.classes[owner].methods["__init__"].init_flow or ():
                for a in st.reads:
                    mark(a, f"read when {short(owner)}.__init__ runs a second time (line {st.line})")
        walkers: list[tuple[str, Walks]] = [(cls, reach.walks)]  # who may walk self's registered attributes
        for sub in sorted(index.all_subclasses(cls)):
            if sub in mro:
                continue
            sreach = self.reach_of(sub)
            walkers.append((sub, sreach.walks))
            for attr, sites in sreach.reads.items():
                o, m, ln = sites[0]
                mark(attr, f"read by {short(o)}.{m} (line {ln}) on subclass {short(sub)}")
            unsure.extend((f"subclass {short(sub)}: {short(o)}.{m} uses {r}", p) for o, m, r, _, p in sreach.dynamic)
            sm = index.classes[sub].methods.get("__init__")
            if sm and sm.init_flow:
                for st in sm.init_flow:
                    for a in st.reads:
                        mark(a, f"read in {short(sub)}.__init__ (line {st.line})")
                    unsure.extend(
                        (f"subclass {short(sub)}.__init__ uses {r} (line {st.line})", p) for r, p in st.dynamic
                    )

        events = [c for c in chain.stmts if c.active is not False]
        for attr, why in walked(self, cls, mro, events, walkers).items():
            mark(attr, why)
        closure_cache: dict[str, set[str]] = {}

        allocated = {
            c.stmt.attr
            for c in events
            if c.stmt.attr is not None and (c.stmt.alloc is not None or c.stmt.call is not None)
        }
        transit: dict[int, dict[str, str]] = {}  # event -> attr it reads only to build what never uses it -> why

        def reads_of(c: ChainStmt) -> set[str]:
            out = set()
            for a in c.stmt.reads:
                r = index.resolve_method(mro, a)
                if r is None:
                    out.add(a)
                    continue
                if a not in closure_cache:
                    rr = method_reads(index, mro, [r], "called in __init__")
                    closure_cache[a] = set(rr.reads)
                out |= closure_cache[a]
            return out

        def handed_to_dead(j: int, c: ChainStmt) -> set[str]:
            """What ``c`` reads only to hand to constructed objects that never use it (not through a method too)."""
            if not c.stmt.passed:
                return set()
            methods = [a for a in c.stmt.reads if index.resolve_method(mro, a) is not None]
            through_methods = set().union(*(closure_cache[a] for a in methods))
            direct = set(c.stmt.reads) - set(methods)
            passes = self.construction.dead_passes(c, allocated & direct, depth)
            passes = {a: why for a, why in passes.items() if a not in through_methods}
            if passes:
                transit[j] = passes
            return set(passes)

        ev_reads = [reads_of(c) for c in events]
        counted = [ev_reads[j] - handed_to_dead(j, c) for j, c in enumerate(events)]  # the reads that count
        # reads inside the chain reach only the bindings made before them (see the scan below)

        # construct sites inside the chain, for classes built only by dead statements
        def dead_built(effective: set[int]) -> set[str]:
            dead_lines = {
                (c.path, ln)
                for i, c in enumerate(events)
                if c.stmt.kind in ("assign", "fill") and i not in effective
                for ln in range(c.stmt.line, c.stmt.end_line + 1)
            }
            built_on = Counter(qn for loc in dead_lines for qn in self.sites_at.get(loc, ()))
            return {qn for qn, n in built_on.items() if n == self.site_lines[qn]}  # every site on a dead line

        ext_cache: dict[tuple[str, frozenset[str]], str | None] = {}

        def ext_read(attr: str, dead_classes: frozenset[str]) -> str | None:
            key = (attr, dead_classes)
            if key in ext_cache:
                return ext_cache[key]
            why = None
            for i, (a, mod) in enumerate(self.ext.by_attr.get(attr, [])):
                if a.in_class is not None and a.in_class in dead_classes:
                    continue
                ok, reason = self.ext.could_hold(a, mod, cls)
                if ok:
                    note(("attr_line", (attr, i)))  # the why names the read's line
                    why = f"read as `{a.receiver}.{attr}` at {index.paths[mod]}:{a.line}: {reason}"
                    break
            ext_cache[key] = why
            return why

        touching = touching_events(events, counted)
        effective: set[int] = set()
        killed: dict[int, int] = {}
        kept: dict[int, list[str]] = {}
        read_between: dict[int, list[str]] = {}

        while True:
            dead_classes = frozenset(dead_built(effective))
            changed = False
            killed = {i: j for i, j in killed.items() if i in effective}
            kept = {i: h for i, h in kept.items() if i in effective}
            for i, c in enumerate(events):
                st = c.stmt
                if st.kind not in ("assign", "fill") or st.attr is None or i in effective:
                    continue
                y = st.attr
                used = None
                holders: list[str] = []
                after = touching[y][bisect_right(touching[y], i) :]
                replaced = next((j for j in after if replaces_elements(c, events[j])), None)
                for j in after:
                    k = events[j]
                    if replaced is not None and j < replaced and y in counted[j]:
                        holders.append(f"(read) {k.stmt.attr or 'effect'} at line {k.stmt.line}")
                        continue
                    if y in counted[j]:
                        if k.stmt.kind not in ("assign", "fill", "kill"):
                            used = f"read in {short(k.owner)}.__init__ (line {k.stmt.line})"
                            break
                        if j in effective:
                            if k.stmt.alloc is not None and k.stmt.attr is not None and k.stmt.attr != y:
                                holders.append(k.stmt.attr)  # the object lives on inside it
                            else:
                                used = (
                                    f"used to build self.{k.stmt.attr} ({short(k.owner)}.__init__ line {k.stmt.line})"
                                )
                                break
                    if (
                        k.stmt.kind in ("assign", "kill", "delete")
                        and k.stmt.attr == y
                        and k.definite
                        and not own_if_kill(k, c)
                    ):
                        killed[i] = j
                        break
                    if replaces_elements(c, k):
                        killed[i] = j
                        break
                if used is None and holders and i in killed and replaced is None:
                    kept[i] = sorted(set(holders))
                elif replaced is not None and i in killed:
                    read_between[i] = holders
                    holders = []
                if used is None and i not in killed:
                    if y in live:
                        used = read_why[y]
                    else:
                        used = ext_read(y, dead_classes)
                        if used is not None:
                            mark(y, used)
                if used is None and holders:
                    used = f"kept alive by self.{holders[0]}"
                if used is None:
                    continue
                effective.add(i)
                changed = True
                for a in counted[i]:
                    if a not in live and not binds(events, touching, a):
                        mark(a, f"used to build self.{y} ({short(c.owner)}.__init__ line {st.line})")
            if not changed:
                break

        fixpoint = Fixpoint(events, ev_reads, effective, killed, kept, read_between, live, dead_classes, transit)
        return ClassLiveness(cls, chain, mro, unsure, fixpoint, read_why)
