"""Project index: the tables built from every summary, and the class graph (C3 MRO); names are
resolved across modules by ``index.name_resolution``."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from deadinit.index import lazy_tables
from deadinit.index.c3 import c3_merge
from deadinit.index.dependencies import Memo, Recorded, paused
from deadinit.index.inherited import Base, InheritedTables, Methods
from deadinit.index.lazy_tables import BuiltOnRead, Function, ModuleFunctions
from deadinit.index.module_names import module_prefixes
from deadinit.index.name_resolution import NameResolution
from deadinit.index.outside import NO_OUTSIDE, Outside
from deadinit.model.kinds import BaseKind
from deadinit.model.summary import ClassSummary, Expr, FileSummary, MethodSummary

__all__ = ["Base", "ProjectIndex"]

# bases outside the project without an ``__init__`` of their own: ``super().__init__`` looks through them
NO_INIT_BASES = frozenset(
    {"object", "builtins.object", "typing.Generic", "typing.Protocol", "abc.ABC"}
    | {"typing_extensions.Generic", "typing_extensions.Protocol"}
)
_OUTSIDE = "\0"  # prefix of a base outside the project in a full MRO (never a qualified name)


class ProjectIndex(NameResolution, InheritedTables):
    def __init__(self, summaries: Iterable[FileSummary]):
        """Every table is ``Recorded`` (``deadinit.index.dependencies``) and every memo a ``Memo``: what a
        class's analysis reads of them is its incremental dependencies (``deadinit.session.table_digests``
        names the kinds)."""
        modules: dict[str, FileSummary] = {}
        for s in summaries:
            # first file wins when two files claim one module name
            modules.setdefault(s.module, s)
        classes: dict[str, ClassSummary] = {}
        class_module: dict[str, str] = {}
        for s in modules.values():
            for c in s.classes:
                classes.setdefault(c.qualname, c)
                class_module[c.qualname] = s.module
        self.modules = Recorded("module", modules)
        self.classes = Recorded("class", classes)
        self.class_module = Recorded("class_module", class_module)
        # what the class graph reads of a class: its bases as written (not its lines)
        self.class_bases = Recorded("class_bases", {qn: (c.bases, c.base_text) for qn, c in classes.items()})
        self.paths = Recorded("path", {m: s.path for m, s in modules.items()})
        self._packages = Recorded("package", {m: s.is_package for m, s in modules.items()})
        # what each module binds: built for a module when a name is first resolved in it (``lazy_tables``)
        self.constants = Recorded("constants", BuiltOnRead(modules, lazy_tables.constants))
        self._imports = Recorded("imports", BuiltOnRead(modules, lazy_tables.imports))
        self._stars = Recorded("stars", BuiltOnRead(modules, lazy_tables.star_imports))
        self._toplevel = Recorded("toplevel", BuiltOnRead(modules, lazy_tables.toplevel_classes))
        self._functions = Recorded("functions_in", BuiltOnRead(modules, lazy_tables.function_names))
        # qualname -> (module, name, what it returns), for the functions that return allocations
        self.functions: Recorded[str, Function] = Recorded("function", ModuleFunctions(modules))
        self._bases: Memo[str, list[Base]] = Memo()
        self._mro: Memo[str, list[str] | None] = Memo()
        self._full_mro: Memo[str, list[str] | None] = Memo()
        self._external: Memo[str, list[Base]] = Memo()
        self._class_values: Memo[str, dict[str, Expr]] = Memo()
        self._methods_on: Memo[str, Methods] = Memo()
        self._roots: Memo[str, tuple[str, ...]] = Memo()
        self._defining: Memo[str, tuple[str, ...]] = Memo()
        self._subclasses_below: Memo[str, frozenset[str]] = Memo()
        self.module_prefixes = frozenset(module_prefixes(modules))
        self._subclasses: Recorded[str, list[str]] | None = None
        self.outside: Outside = NO_OUTSIDE  # the installed libraries, where the engine reads them

    @property
    def subclasses(self) -> Recorded[str, list[str]]:
        """Each project class's direct subclasses, in class order: built on first use from the bases
        of every class, unless ``install_subclasses`` gave them (a previous run's, still valid)."""
        if self._subclasses is None:
            with paused():  # the bases' own keys stay with their memo entries
                self._subclasses = Recorded("subclasses", self.subclass_table())
        return self._subclasses

    def subclass_table(self) -> dict[str, list[str]]:
        subclasses: dict[str, list[str]] = {}
        for qn in self.classes.data:
            for b in self.bases(qn):
                if b.kind == BaseKind.CLASS:
                    subclasses.setdefault(b.name, []).append(qn)
        return subclasses

    def install_subclasses(self, table: dict[str, list[str]]) -> None:
        """The subclass table of a run whose class graph had the same inputs (``session.incremental``)."""
        self._subclasses = Recorded("subclasses", table)
        self._subclasses_below = Memo()

    # -- class graph -------------------------------------------------------
    def bases(self, qualname: str) -> list[Base]:
        return self._bases.get_or(qualname, lambda: self._bases_of(qualname))

    def _bases_of(self, qualname: str) -> list[Base]:
        bases, texts = self.class_bases[qualname]
        module = self.class_module[qualname]
        out = []
        for b, text in zip(bases, texts, strict=True):
            if b is None:
                out.append(Base(BaseKind.OPAQUE, text))
                continue
            if b == "object":
                continue
            r = self.resolve(module, b)
            if r == qualname:  # ``from m import X`` then ``class X(X)``: the base is the X bound before
                r = self.resolve_shadowed(module, b)
            if r is not None and r != qualname:
                out.append(Base(BaseKind.CLASS, r))
            elif r == qualname:
                out.append(Base(BaseKind.OPAQUE, text))  # inherits from itself through an alias
            else:
                out.append(Base(BaseKind.EXTERNAL, self.canonical(module, b)))
        return out

    def resolve_shadowed(self, module: str, dotted: str) -> str | None:
        """``dotted`` resolved without the module's own class of that name (which a
        ``class X(X):`` statement binds only after evaluating its bases)."""
        head = dotted.partition(".")[0]
        local = self._toplevel.get(module, {})
        saved = local.pop(head, None)
        try:
            return self.resolve(module, dotted)
        finally:
            if saved is not None:
                local[head] = saved

    def mro(self, qualname: str) -> list[str] | None:
        """C3 linearisation over project classes; None when inconsistent or cyclic."""
        if qualname in self._mro:
            return self._mro[qualname]
        # ancestors first (iteratively), so that the recursion below stays one level deep
        # even for inheritance chains thousands of classes long
        for q in self._ancestors_first(qualname, self._mro):
            if q not in self._mro:
                self._c3(q)
        return self._c3(qualname)

    def _ancestors_first(self, qualname: str, memo: Memo[str, list[str] | None]) -> list[str]:
        """``qualname``'s ancestors that ``memo`` has no entry for, each after its own (then itself)."""
        order, stack, seen = [], [(qualname, False)], {qualname}
        while stack:
            q, done = stack.pop()
            if done:
                order.append(q)
                continue
            stack.append((q, True))
            for b in self.bases(q):
                if b.kind == BaseKind.CLASS and b.name not in seen and b.name not in memo:
                    seen.add(b.name)
                    stack.append((b.name, False))
        return order

    def _c3(self, qualname: str) -> list[str] | None:
        return self._mro.get_or(qualname, lambda: None if self._leads_into_cycle(qualname) else self._c3_of(qualname))

    def _leads_into_cycle(self, qualname: str) -> bool:
        """Whether ``qualname``'s bases lead into an inheritance cycle (or to a class with no MRO),
        found by walking the ancestors the memo has no entry for, without recursion: a cycle's
        answer is then kept like any other (it is None whichever class is asked first), and a
        cycle of thousands of classes costs one walk around it."""
        path: set[str] = {qualname}
        stack: list[tuple[str, Iterator[Base]]] = [(qualname, iter(self.bases(qualname)))]
        done: set[str] = set()
        while stack:
            q, rest = stack[-1]
            b = next(rest, None)
            if b is None:
                stack.pop()
                path.discard(q)
                done.add(q)
                continue
            if b.kind != BaseKind.CLASS or b.name in done:
                continue
            if b.name in path:
                return True
            if b.name in self._mro:
                if self._mro[b.name] is None:
                    return True
                continue
            path.add(b.name)
            stack.append((b.name, iter(self.bases(b.name))))
        return False

    def _c3_of(self, qualname: str) -> list[str] | None:
        seqs = []
        for b in self.bases(qualname):
            if b.kind == BaseKind.CLASS:
                m = self.mro(b.name)
                if m is None:
                    return None
                seqs.append(list(m))
        seqs.append([b.name for b in self.bases(qualname) if b.kind == BaseKind.CLASS])
        return c3_merge(qualname, seqs)

    def external_bases(self, qualname: str) -> list[Base]:
        """Non-project bases anywhere in the MRO (they make the analysis above them blind), kept per
        class: the analysis asks for them once per class of a chain, for every class of the chain."""
        return self._inherited(self._external, qualname, self._external_of)

    def _external_of(self, qualname: str, parent: list[Base] | None) -> list[Base]:
        """Built from the one base's (``InheritedTables``): the class's own, then the base's MRO's."""
        if parent is not None:
            return [b for b in self.bases(qualname) if b.kind != BaseKind.CLASS] + parent
        out: list[Base] = []
        for c in self.mro(qualname) or [qualname]:
            out.extend(b for b in self.bases(c) if b.kind != BaseKind.CLASS)
        return out

    def derives_from_external(self, qualname: str, names: tuple[str, ...]) -> bool:
        """Whether a base outside the project is one of ``names``, or an installed class deriving from one."""
        return any(
            b.name in names or not self.outside.ancestors(b.name).isdisjoint(names)
            for b in self.external_bases(qualname)
        )

    def resolve_method(self, mro: list[str], name: str, after: str | None = None) -> tuple[str, MethodSummary] | None:
        start = 0
        if after is not None and after in mro:
            start = mro.index(after) + 1
        for qn in mro[start:]:
            m = self.classes[qn].methods.get(name)
            if m is not None:
                return qn, m
        return None

    def init_called(
        self, mro: list[str], owner: str, target: str, start: str | None
    ) -> tuple[tuple[str, MethodSummary] | None, str | None]:
        """The ``__init__`` a call written in ``owner``'s ``__init__`` runs on an instance whose MRO is
        ``mro``, and a note when the call cannot reach one: ``super().__init__`` (``target`` "super") and
        ``super(C, self).__init__`` (``start`` C) look up after ``owner`` / after C in that MRO;
        ``Base.__init__(self)`` runs what ``Base`` itself resolves ``__init__`` to."""
        module = self.class_module[owner]
        if target != "super":
            base = self.resolve(module, target)
            if base is None:
                return None, None  # a class outside the project
            return self.resolve_method(self.mro(base) or [base], "__init__"), None
        after = self.super_after(mro, owner, start)
        if after is None:
            if start is not None and self.resolve(module, start) is not None:
                return None, f"{owner} calls super({start}, self).__init__ with {start} not in the instance's MRO"
            return None, None
        if self.external_init_first(mro[0], after):
            return None, None  # an __init__ from outside the project runs next: the chain leaves it
        return self.resolve_method(mro, "__init__", after=after), None

    def external_init_first(self, instance: str, after: str) -> bool:
        """True when, in ``instance``'s full MRO, the first ``__init__`` after ``after`` comes from outside
        the project.  The project MRO leaves such bases out, but ``class C(Root, Mixin)`` with
        ``class Root(nn.Module)`` runs C, Root, nn.Module, Mixin: Root's ``super().__init__()`` runs
        ``nn.Module.__init__``, which does not go on (torch's default), so ``Mixin.__init__`` never runs.
        An outside ``__init__`` ends the chain, as one reached past the last project class does."""
        full = self.full_mro(instance)
        if full is None or after not in full:
            return False
        for k in full[full.index(after) + 1 :]:
            if k.startswith(_OUTSIDE):
                if k[1:] not in NO_INIT_BASES:
                    return True
            elif "__init__" in self.classes[k].methods:
                return False
        return False

    def full_mro(self, qualname: str) -> list[str] | None:
        """C3 over the project classes and the bases outside it (each a class without bases we know);
        None when inconsistent or cyclic.  Ancestors first, as ``mro`` does: the recursion stays
        one level deep however long the chain."""
        if qualname in self._full_mro:
            return self._full_mro[qualname]
        if self.mro(qualname) is not None:  # no cycle: the ancestors end
            for q in self._ancestors_first(qualname, self._full_mro):
                if q not in self._full_mro:
                    self._full_mro.get_or(q, functools.partial(self._full_mro_of, q))
        return self._full_mro.get_or(qualname, lambda: self._full_mro_of(qualname))

    def _full_mro_of(self, qualname: str) -> list[str] | None:
        if self.mro(qualname) is None:
            return None
        seqs: list[list[str]] = []
        direct: list[str] = []
        for b in self.bases(qualname):
            name = b.name if b.kind == BaseKind.CLASS else _OUTSIDE + b.name
            if b.kind == BaseKind.CLASS:
                m = self.full_mro(b.name)
                if m is None:
                    return None
                seqs.append(list(m))
            else:
                seqs.append([name])
            direct.append(name)
        seqs.append(direct)
        return c3_merge(qualname, seqs)

    def super_after(self, mro: list[str], owner: str, start: str | None) -> str | None:
        """The class after which ``super()`` (``start`` None) or ``super(start, self)``, written in a method
        of ``owner``, looks up a name in ``mro``; None when that class is not in it (or not ours)."""
        after = owner if start is None else self.resolve(self.class_module[owner], start)
        return after if after in mro else None

    def resolve_super(
        self, mro: list[str], owner: str, name: str, start: str | None
    ) -> tuple[str, MethodSummary] | None:
        """The method ``super().name`` / ``super(start, self).name`` written in ``owner`` reaches in ``mro``."""
        after = self.super_after(mro, owner, start)
        return self.resolve_method(mro, name, after=after) if after is not None else None

    def is_subclass(self, a: str, b: str) -> bool:
        m = self.mro(a)
        return m is not None and b in m

    def all_subclasses(self, qualname: str) -> frozenset[str]:
        """Every class below ``qualname``, kept per class (the analysis asks once per finding)."""
        return self._subclasses_below.get_or(qualname, lambda: self._all_subclasses(qualname))

    def _all_subclasses(self, qualname: str) -> frozenset[str]:
        out, stack = set(), [qualname]
        while stack:
            for s in self.subclasses.get(stack.pop(), []):
                if s not in out:
                    out.add(s)
                    stack.append(s)
        return frozenset(out)

    def file_of(self, qualname: str) -> FileSummary:
        return self.modules[self.class_module[qualname]]

    def path_of(self, qualname: str) -> str:
        """The path of the file that defines class ``qualname``."""
        return self.paths[self.class_module[qualname]]
