"""Reads of ``obj.attr`` outside ``self``: does the receiver possibly hold the class?

The rule (documented in the README): such a read counts as a read of the
attribute on class S unless the receiver's class is known and unrelated to S:

* a parameter or variable annotated with class T counts when T is S, a subclass
  of S, or an ancestor of S (an instance of S is a T);
* a variable or ``self.a`` assigned from a constructor call ``T(...)`` holds
  exactly T: it counts only when T is S or a subclass of S;
* ``isinstance(x, T)`` narrows ``x`` to T;
* a constructor parameter that every construction site in the project fills with
  the caller's ``self`` (``Updater(runner, self)``) holds the caller's class;
* a value returned by a project function or method (``meta = self.make_meta()``,
  ``self.meta = build()``) holds what its return annotation names (for a method,
  the annotations of every override that could run); no annotation counts;
* ``root.b`` where ``root``'s class is known holds what that class declares or
  constructs for ``b`` (a dataclass or NamedTuple field, ``self.b = B()``);
* an element of ``self.items`` (``for m in self.items``, ``self.items[i]``, a comprehension over it,
  a local bound to those) holds what the class hierarchy puts into ``items``: constructions in
  a list display or comprehension (``nn.ModuleList([B(...) for ...])``), fills
  (``self.items.append(B(...))``) and annotations (``list[B]``, ``Sequence[B]``); unknown
  when any of those is unknown, or when code fills an ``items`` on another receiver
  (``obj.items.append(x)``);
* a local variable holds what every one of its bindings holds; bound to ``self.a`` or
  ``self.a.b``, what the class hierarchy gives that attribute;
* a class outside the project (``torch.Tensor``, ``int``) is unrelated, unless S derives
  from it (``nn.Module``, ``object``);
* an attribute of a module (``pkg.layers.mlp`` after ``import pkg.layers``) is not a read at all;
* anything else (unknown receiver, ``Any``, a chain of attributes) counts.
"""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Mapping
from typing import NamedTuple

from deadinit.analysis.reads.table import Read, ReadsByAttr
from deadinit.index.dependencies import Memo, Recorded, note, paused
from deadinit.index.lazy_tables import BuiltOnRead
from deadinit.index.project_index import ProjectIndex
from deadinit.model.access import Access, TypeRef
from deadinit.model.summary import ClassSummary, Construct
from deadinit.semantics.elements import ELEMENT_OF

_BUILTINS = set(dir(builtins))

# constructed class -> (module number in the index, construct number in its module, its line) of each site
SiteRefs = dict[str, list[tuple[int, int, int]]]
# per module number: the numbers of the other modules whose names resolving its constructions looked
# up (``ProjectIndex.resolve_visiting``)
SiteVisits = list[tuple[int, ...]]
# what a read's receiver may hold: (class it is typed with, its module, target kind, project class) each,
# or why that is not known
Receiver = str | tuple[tuple[TypeRef, str, str, str | None], ...]


class AttrTyping(NamedTuple):
    """What one class says about one of its attributes, for typing receivers (no lines)."""

    declared: tuple[TypeRef, ...]  # annotations
    assigned: tuple[TypeRef, ...]  # what assignments give it
    unknown: bool  # assigned from something unknown
    elements_declared: tuple[TypeRef, ...]
    elements: tuple[TypeRef, ...]
    elements_unknown: bool
    method: bool  # a method or property of that name


def attr_typing(c: ClassSummary | None, attr: str) -> AttrTyping | None:
    if c is None:
        return None
    return AttrTyping(
        tuple(c.attr_declared.get(attr, ())),
        tuple(c.attr_types.get(attr, ())),
        attr in c.attr_unknown,
        tuple(c.attr_elements_declared.get(attr, ())),
        tuple(c.attr_elements.get(attr, ())),
        attr in c.attr_elements_unknown,
        attr in c.methods,
    )


def module_sites(
    index: ProjectIndex, module: str, constructs: list[Construct]
) -> tuple[list[tuple[int, str]], set[str]]:
    """(number, class built) of each of ``module``'s constructions that builds a project class,
    and the modules whose names resolving them looked up (``ProjectIndex.resolve_visiting``)."""
    resolved: dict[str, str | None] = {}
    visits: set[str] = set()
    built = []
    for i, c in enumerate(constructs):
        if c.callee in resolved:
            qn = resolved[c.callee]
        else:
            qn = resolved[c.callee] = index.resolve_visiting(module, c.callee, visits)
        if qn is not None:
            built.append((i, qn))
    return built, visits


def visited(visits: set[str], numbers: dict[str, int], own: int) -> tuple[int, ...]:
    """The numbers of the project's modules among ``visits``, but ``own``, in order."""
    return tuple(sorted(k for k in map(numbers.get, visits) if k is not None and k != own))


class ExternalReads:
    def __init__(self, index: ProjectIndex):
        self.index = index
        filled: defaultdict[str, list[str]] = defaultdict(list)
        for mod, s in index.modules.data.items():
            for attr in s.element_writes:
                filled[attr].append(mod)
        self.reads = ReadsByAttr(index.modules.data)  # an attribute of a module is no object's attribute
        self.by_attr: Recorded[str, list[Read]] = Recorded("attr", self.reads)
        self._sites: Recorded[str, list[Construct]] | None = None  # constructed class -> its construction sites
        self.site_paths: Mapping[str, list[tuple[str, int]]] = {}  # constructed class -> (path, line) of each site
        self.site_refs: SiteRefs = {}  # the same sites by number, for a later run over the same summaries
        self.site_visits: SiteVisits = []  # the modules resolving them looked up
        self._attr_cache: Memo[tuple[str, str], list[tuple[TypeRef, str]] | None] = Memo()
        self._element_cache: Memo[tuple[str, str], list[tuple[TypeRef, str]] | None] = Memo()
        self._receivers: Memo[tuple[str, int], tuple[Access, Receiver]] = Memo()
        # attributes whose collections some code fills on a receiver other than self (-> the modules that
        # do): elements unknown
        self.filled_elsewhere = Recorded("filled_elsewhere", dict(filled))

    def _ref_target(self, ref: TypeRef, module: str) -> tuple[str, str | None]:
        """("project", qualname) | ("external", None) | ("unknown", None)."""
        if ref.dotted in self.index.classes:
            return "project", ref.dotted
        qn = self.index.resolve(module, ref.dotted)
        if qn is not None:
            return "project", qn
        head = ref.dotted.split(".")[0]
        if head in _BUILTINS:
            return "external", None
        imp = self.index.import_of(module, head)
        if imp is not None:
            full = self.index.canonical(module, ref.dotted)
            top = full.split(".")[0]
            if not self.index.is_module(top) and imp.level == 0:
                return "external", None
        return "unknown", None

    def _self_attr_types(self, in_class: str, attr: str) -> list[tuple[TypeRef, str]] | None:
        # an attribute assigned from itself (``self.a = self.b``...) stays unknown (the cycle's answer: None)
        return self._attr_cache.get_or((in_class, attr), lambda: self._self_attr_types_of(in_class, attr))

    def _typings(self, classes: list[str], attr: str) -> list[tuple[str, AttrTyping]]:
        """What each of ``classes`` (those of the project) says about ``attr``; each one read is an
        incremental dependency ``("class_attr", (class, attr))``, not the class's whole summary."""
        out = []
        for qn in classes:
            note(("class_attr", (qn, attr)))
            t = attr_typing(self.index.classes.data.get(qn), attr)
            if t is not None:
                out.append((qn, t))
        return out

    def _self_attr_types_of(self, in_class: str, attr: str) -> list[tuple[TypeRef, str]] | None:
        out: list[tuple[TypeRef, str]] = []
        classes = list(self.index.mro(in_class) or [in_class]) + sorted(self.index.all_subclasses(in_class))
        typings = self._typings(classes, attr)
        result: list[tuple[TypeRef, str]] | None = out
        declared = any(t.declared for _, t in typings)
        for qn, t in typings:
            if t.unknown and not declared:
                result = None
                break
            # a declared annotation governs, as for a type checker; constructor assignments add exact classes
            got = self._expand([(r, self.index.class_module[qn]) for r in t.assigned], qn)
            if got is None and not declared:
                result = None
                break
            for r in t.declared:
                out.append((r, self.index.class_module[qn]))
            out.extend(got or [])
        if result is not None and not out:
            result = None
        return result

    def _self_attr_elements(self, in_class: str, attr: str) -> list[tuple[TypeRef, str]] | None:
        """What an element of ``self.attr``'s collection holds, over ``in_class``'s ancestors and subclasses;
        None when something puts an unknown element into it, or nothing says what its elements are."""
        # a collection built from its own elements stays unknown (the cycle's answer: None)
        return self._element_cache.get_or((in_class, attr), lambda: self._self_attr_elements_of(in_class, attr))

    def _self_attr_elements_of(self, in_class: str, attr: str) -> list[tuple[TypeRef, str]] | None:
        classes = list(self.index.mro(in_class) or [in_class]) + sorted(self.index.all_subclasses(in_class))
        typings = self._typings(classes, attr)
        declared = [(r, self.index.class_module[qn]) for qn, t in typings for r in t.elements_declared]
        out: list[tuple[TypeRef, str]] | None = declared  # an annotation governs, as for a type checker
        if not declared:
            out = []
            for qn, t in typings:
                got = self._expand([(r, self.index.class_module[qn]) for r in t.elements], qn)
                if t.elements_unknown or got is None:
                    out = None
                    break
                out.extend(got)
        if not out or attr in self.filled_elsewhere or any(t.method for _, t in typings):
            out = None  # a property or method of that name gives what its body computes
        return out

    def _elements_of(self, chain: str, in_class: str | None) -> list[tuple[TypeRef, str]] | None:
        """An element of ``self.a`` (``chain`` = ``a``) or of ``self.a.b`` (the ``b`` of what ``self.a`` holds)."""
        if in_class is None or in_class not in self.index.classes:
            return None
        first, _, second = chain.partition(".")
        if not second:
            return self._self_attr_elements(in_class, first)
        roots = self._self_attr_types(in_class, first)
        if roots is None:
            return None
        out: list[tuple[TypeRef, str]] = []
        for ref, mod in roots:
            kind, qn = self._ref_target(ref, mod)
            got = self._self_attr_elements(qn, second) if kind == "project" and qn is not None else None
            if got is None:
                return None
            out.extend(got)
        return out or None

    def _self_chain_types(self, chain: str, in_class: str | None) -> list[tuple[TypeRef, str]] | None:
        """What ``self.a`` (``chain`` = ``a``) or ``self.a.b`` holds, over ``in_class``'s hierarchy."""
        if in_class is None or in_class not in self.index.classes:
            return None
        first, _, second = chain.partition(".")
        roots = self._self_attr_types(in_class, first)
        return self._attribute_of(roots, second) if second and roots is not None else roots

    def _attribute_of(self, refs: list[tuple[TypeRef, str]], attr: str) -> list[tuple[TypeRef, str]] | None:
        """What ``<root>.attr`` holds for a root of one of ``refs``: the field annotation or the exact
        constructions of ``attr`` in that project class (a dataclass or NamedTuple field, ``self.m = M()``);
        None when one of them is not known (a class outside the project, no annotation)."""
        out: list[tuple[TypeRef, str]] = []
        for ref, mod in refs:
            kind, qn = self._ref_target(ref, mod)
            if kind != "project" or qn is None:
                return None
            got = self._self_attr_types(qn, attr)
            if got is None:
                return None
            out.extend(got)
        return out

    def _expand(self, refs: list[tuple[TypeRef, str]], in_class: str | None) -> list[tuple[TypeRef, str]] | None:
        """``refs`` with each ``f()`` (the value a call returns) replaced by what its return annotation names;
        None when one of them is not known."""
        out: list[tuple[TypeRef, str]] = []
        for ref, mod in refs:
            if ref.dotted.startswith("self.") and ref.dotted.endswith(ELEMENT_OF):
                got = self._elements_of(ref.dotted[5 : -len(ELEMENT_OF)], in_class)
            elif ref.dotted.endswith("()"):
                got = self._returned(ref.dotted[:-2], mod, in_class)
            elif ref.dotted.startswith("self."):
                got = self._self_chain_types(ref.dotted[5:], in_class)
            else:
                out.append((ref, mod))
                continue
            if got is None:
                return None
            out.extend(got)
        return out

    def _returned(self, callee: str, module: str, in_class: str | None) -> list[tuple[TypeRef, str]] | None:
        index = self.index
        if callee.startswith("self."):
            if in_class is None or in_class not in index.classes:
                return None
            name = callee[5:]
            found = index.resolve_method(index.mro(in_class) or [in_class], name)
            owners = [found[0]] if found is not None else []
            owners += [s for s in sorted(index.all_subclasses(in_class)) if name in index.classes[s].methods]
            out: list[tuple[TypeRef, str]] = []
            for qn in owners:
                types = index.classes[qn].methods[name].return_types
                if types is None:
                    return None
                out.extend((t, index.class_module[qn]) for t in types)
            return out or None
        function = index.resolve_function(module, callee)
        if function is None:
            return None
        fmodule, _, fname = function.rpartition(".")
        types = index.modules[fmodule].return_types.get(fname)
        return [(t, fmodule) for t in types] if types is not None else None

    def construct_sites(self) -> Recorded[str, list[Construct]]:
        """Constructed project class -> its construction sites (recorded as ``constructs``: the
        analysis reads who passes its self where, never their lines, which ``site_paths`` holds)."""
        if self._sites is None:
            found: dict[str, list[Construct]] = {}
            paths: dict[str, list[tuple[str, int]]] = {}
            numbers = {mod: m for m, mod in enumerate(self.index.modules.data)}
            with paused():
                for m, (mod, s) in enumerate(self.index.modules.items()):
                    built, visits = module_sites(self.index, mod, s.constructs)
                    for i, qn in built:
                        c = s.constructs[i]
                        found.setdefault(qn, []).append(c)
                        paths.setdefault(qn, []).append((s.path, c.line))
                        self.site_refs.setdefault(qn, []).append((m, i, c.line))
                    self.site_visits.append(visited(visits, numbers, m))
            self.site_paths = paths
            self._sites = Recorded("constructs", found)
        return self._sites

    def install_sites(self, refs: SiteRefs, visits: SiteVisits) -> None:
        """The construction sites ``site_refs`` gave in a run over the same summaries, in the same
        order (``api.check.index_project``), and ``site_visits``, instead of resolving every
        construction's callee; a class's sites are taken from their modules when first read (the
        others' constructions stay unpickled), their paths and lines from ``refs``."""
        summaries = list(self.index.modules.data.values())
        paths = [s.path for s in summaries]

        def sites(places: list[tuple[int, int, int]]) -> list[Construct]:
            return [summaries[m].constructs[i] for m, i, _ in places]

        self.site_paths = {qn: [(paths[m], line) for m, _, line in places] for qn, places in refs.items()}
        self.site_refs = refs
        self.site_visits = visits
        self._sites = Recorded("constructs", BuiltOnRead(refs, sites))

    def _from_call_sites(self, access: Access) -> list[tuple[TypeRef, str]] | None:
        """A constructor parameter that every construction site fills with the caller's ``self``."""
        if access.param is None or access.in_function != "__init__" or access.in_class not in self.index.classes:
            return None
        sites = self.construct_sites().get(access.in_class, [])
        pos, name = access.param
        out = []
        for c in sites:
            if not (pos in c.self_args or name in c.self_args) or c.in_class is None:
                return None
            out.append((TypeRef(c.in_class, False), self.index.class_module[c.in_class]))
        return out or None

    def _external_ancestor(self, ref: TypeRef, module: str, cls: str) -> bool:
        """``ref`` names a class outside the project that ``cls`` derives from (``nn.Module``, ``object``)."""
        full = self.index.canonical(module, ref.dotted)
        return full in ("object", "builtins.object") or self.index.derives_from_external(cls, (full,))

    def could_hold(self, access: Access, module: str, cls: str) -> tuple[bool, str]:
        """Whether the receiver of ``access`` could be an instance of ``cls``, and why."""
        receiver = self._receiver(access, module)
        if isinstance(receiver, str):
            return True, receiver
        for ref, mod, kind, qn in receiver:
            if kind == "unknown":
                return True, f"receiver `{access.receiver}` is typed `{ref.dotted}`, which is not resolved"
            if kind == "external" and not ref.exact and self._external_ancestor(ref, mod, cls):
                return True, f"receiver `{access.receiver}` is typed `{ref.dotted}`, an ancestor"
            if kind == "external" or qn is None:
                continue
            if qn == cls or self.index.is_subclass(qn, cls):
                return True, f"receiver `{access.receiver}` may hold {qn.rsplit('.', 1)[-1]}"
            if not ref.exact and self.index.is_subclass(cls, qn):
                return True, f"receiver `{access.receiver}` is typed {qn.rsplit('.', 1)[-1]}, an ancestor"
        names = ", ".join(sorted({ref.dotted for ref, _, _, _ in receiver})) or "None"
        return False, f"receiver `{access.receiver}` holds {names}, unrelated"

    def _receiver(self, access: Access, module: str) -> Receiver:
        """What the receiver of ``access`` (read in ``module``) may hold, whichever class is asked
        about: each class it is typed with and that class's target (``_ref_target``), or why that
        is not known.  A read is asked about for every class of each hierarchy that has a method of
        its name: worked out once."""
        # keyed by identity (an Access hashes every field); the entry keeps the read alive, so no
        # other object takes its id while the entry is there
        return self._receivers.get_or((module, id(access)), lambda: (access, self._receiver_of(access, module)))[1]

    def _receiver_of(self, access: Access, module: str) -> Receiver:
        refs: list[tuple[TypeRef, str]] | None
        if access.self_attr is not None and access.in_class is not None and access.in_class in self.index.classes:
            refs = self._self_attr_types(access.in_class, access.self_attr)
        elif access.types is not None:
            refs = self._expand([(t, module) for t in access.types], access.in_class)
            if refs is None:
                return f"receiver `{access.receiver}` {_unknown_origin(access.types)}"
        else:
            refs = None
        # a constructor parameter that every construction site fills with the caller's self
        # is known more precisely from those sites than from its annotation
        refs = self._from_call_sites(access) or refs
        if access.through is not None and refs is not None:
            refs = self._attribute_of(refs, access.through)
        if refs is None:
            return f"receiver `{access.receiver}` has no known class"
        return tuple((ref, mod, *self._ref_target(ref, mod)) for ref, mod in refs)


def _unknown_origin(types: tuple[TypeRef, ...]) -> str:
    """Why a receiver whose value comes from somewhere has no known class."""
    if any(t.dotted.endswith(ELEMENT_OF) for t in types):
        return "is an element of a collection of unknown contents"
    if any(t.dotted.endswith("()") for t in types):
        return "comes from a call whose return type is not known"
    attrs = ", ".join(f"`{t.dotted}`" for t in types if t.dotted.startswith("self."))
    return f"holds what {attrs} holds, which is not known"
