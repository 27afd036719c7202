"""Imports for code moved into the subclass's module, and removal of the old parent's import.

A module-level name the moved code uses is resolved to where the parent's module
got it: an import (relative imports made absolute) is repeated, inside ``if
TYPE_CHECKING:`` when the parent had it there; a name the parent's module
defines itself is imported from that module.  Nothing is added when the
subclass's module already binds the name the same way (same import, or the same
module-level statement).  A name bound differently in the two modules, bound
under another condition, from a star import, or not at all, is a blocker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

import libcst as cst
from libcst.metadata import Assignment, ImportAssignment

from deadinit.fixes.cst_semantics import dotted
from deadinit.fixes.direct_base.source import BUILTINS, ModuleSource, parse
from deadinit.fixes.parsed import parse_module_exactly
from deadinit.model.kinds import StrEnum

TopStatement = cst.SimpleStatementLine | cst.BaseCompoundStatement  # a statement of a module's body


class ImportGuard(StrEnum):
    """Where an import statement is: only those at the top or under ``if TYPE_CHECKING:`` are repeated."""

    TOP = ""
    TYPE_CHECKING = "TYPE_CHECKING"
    IF = "if"  # under another condition
    TRY = "try"
    NESTED = "nested"  # in some other block (or not found)


@dataclass(frozen=True)
class ImportSpec:
    module: str  # absolute module
    name: str | None  # None: ``import module [as asname]``
    asname: str | None
    guard: ImportGuard = ImportGuard.TOP  # TOP or TYPE_CHECKING

    @property
    def local(self) -> str:
        return self.asname or self.name or self.module.split(".")[0]


class BindingKind(Enum):
    MODULE = "module"  # ``import a.b [as c]``
    FROM = "from"  # ``from a import b [as c]``
    DEFINED = "def"  # a statement of the module itself (a def, a class, an assignment)


class BindingKey(NamedTuple):
    """What two bindings of a name share when they bind the same object."""

    kind: BindingKind
    what: str  # MODULE: the module as bound (``a.b`` with ``as``, else ``a``); FROM: the module; DEFINED: the code
    name: str = ""  # FROM: the name imported


class Binding(NamedTuple):
    key: BindingKey
    guard: ImportGuard
    spec: ImportSpec | None  # an import's; None for a module's own statement


def _guards(module: cst.Module) -> dict[int, ImportGuard]:
    """id(import statement) -> where it is."""
    out: dict[int, ImportGuard] = {}

    def visit(stmts: Sequence[cst.BaseStatement | cst.BaseSmallStatement], guard: ImportGuard) -> None:
        for st in stmts:
            if isinstance(st, cst.SimpleStatementLine):
                for s in st.body:
                    if isinstance(s, (cst.Import, cst.ImportFrom)):
                        out[id(s)] = guard
            elif isinstance(st, cst.If):
                tc = (dotted(st.test) or "").endswith("TYPE_CHECKING") and guard == ImportGuard.TOP
                g = ImportGuard.TYPE_CHECKING if tc else ImportGuard.IF
                visit(st.body.body, g if guard in (ImportGuard.TOP, ImportGuard.TYPE_CHECKING) else guard)
                orelse = st.orelse
                while orelse is not None:
                    visit(orelse.body.body, ImportGuard.IF)
                    orelse = orelse.orelse if isinstance(orelse, cst.If) else None
            elif isinstance(st, cst.Try):
                visit(st.body.body, ImportGuard.TRY)
                for h in st.handlers:
                    visit(h.body.body, ImportGuard.TRY)
            elif isinstance(body := getattr(st, "body", None), cst.IndentedBlock) and not isinstance(
                st, (cst.FunctionDef, cst.ClassDef)
            ):
                visit(body.body, ImportGuard.NESTED)

    visit(module.body, ImportGuard.TOP)
    return out


def _abs(src: ModuleSource, level: int, mod: str) -> str:
    if level == 0:
        return mod
    parts = src.module_name.split(".")
    if not src.is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(0, len(parts) - (level - 1))]
    base = ".".join(parts)
    return f"{base}.{mod}" if mod and base else (mod or base)


def bindings(src: ModuleSource, name: str) -> list[Binding]:
    """How ``src`` binds module-level ``name``."""
    gs = src.global_scope()
    if gs is None:
        return []
    guards = _guards(src.module)
    out: list[Binding] = []
    for a in gs[name]:
        if a.scope is not gs:
            continue
        if isinstance(a, ImportAssignment):
            node = a.node
            assert isinstance(node, (cst.Import, cst.ImportFrom))  # what an ImportAssignment holds
            out += _import_bindings(src, node, name, guards.get(id(node), ImportGuard.NESTED))
        elif isinstance(a, Assignment):
            text = ""
            stmt = _statement_of(src.module, a.node)
            if stmt is not None:
                text = cst.Module([]).code_for_node(stmt).strip()
            out.append(Binding(BindingKey(BindingKind.DEFINED, text), ImportGuard.TOP, None))
    return out


def _import_bindings(
    src: ModuleSource, node: cst.Import | cst.ImportFrom, name: str, guard: ImportGuard
) -> list[Binding]:
    """The bindings of ``name`` by one import statement of ``src``."""
    out: list[Binding] = []
    for alias in node.names if not isinstance(node.names, cst.ImportStar) else []:
        local = alias.evaluated_alias or (
            alias.evaluated_name.split(".")[0] if isinstance(node, cst.Import) else alias.evaluated_name
        )
        if local != name:
            continue
        if isinstance(node, cst.Import):
            full = alias.evaluated_name
            spec = ImportSpec(full, None, alias.evaluated_alias)
            key = BindingKey(BindingKind.MODULE, full if alias.asname else full.split(".")[0])
        else:
            mod = _abs(src, len(node.relative), (dotted(node.module) or "") if node.module is not None else "")
            spec = ImportSpec(mod, alias.evaluated_name, alias.evaluated_alias)
            key = BindingKey(BindingKind.FROM, mod, alias.evaluated_name)
        out.append(Binding(key, guard, spec))
    return out


def _statement_of(module: cst.Module, node: cst.CSTNode) -> TopStatement | None:
    for st in module.body:
        if st is node:
            return st
        if isinstance(st, cst.SimpleStatementLine):
            for s in st.body:
                if isinstance(s, (cst.Assign, cst.AnnAssign)):
                    targets = [t.target for t in s.targets] if isinstance(s, cst.Assign) else [s.target]
                    if any(t is node for t in targets):
                        return st
    return None


def _same(parent: list[Binding], child: list[Binding], parent_module: str, name: str) -> bool:
    """Whether two modules' bindings of ``name`` are the same object (same import, same statement,
    or the child imports it from the parent's module)."""
    ck = {b.key for b in child}
    return any(b.key in ck for b in parent) or BindingKey(BindingKind.FROM, parent_module, name) in ck


def plan_imports(child: ModuleSource, used: list[tuple[ModuleSource, str]]) -> tuple[list[ImportSpec], list[str]]:
    """Imports to add to ``child`` for names used by moved code, and blockers."""
    specs: list[ImportSpec] = []
    blockers: list[str] = []
    seen: set[tuple[str, str]] = set()
    for src, name in used:
        if (src.path, name) in seen or (name in BUILTINS and not bindings(src, name)):
            continue
        seen.add((src.path, name))
        if src.path == child.path:
            continue
        pb = bindings(src, name)
        cb = bindings(child, name)
        if not pb:
            blockers.append(f"`{name}` (used by moved code from {src.module_name}) is not bound in that module")
            continue
        if cb:
            if not _same(pb, cb, src.module_name, name):
                blockers.append(f"`{name}` means something else in {child.module_name} than in {src.module_name}")
            continue
        guard, spec = pb[0].guard, pb[0].spec
        if name in src.rebound_globals:
            blockers.append(
                f"`{name}` is a module global that {src.module_name} rebinds (`global {name}`): "
                f"an import would copy a stale value"
            )
            continue
        if spec is None:  # defined by the parent's module itself
            specs.append(ImportSpec(src.module_name, name, None))
        elif guard in (ImportGuard.TOP, ImportGuard.TYPE_CHECKING):
            specs.append(ImportSpec(spec.module, spec.name, spec.asname, guard))
        else:
            blockers.append(f"`{name}` is imported conditionally ({guard}) in {src.module_name}")
    return _dedupe(specs), blockers


def _dedupe(specs: list[ImportSpec]) -> list[ImportSpec]:
    out: list[ImportSpec] = []
    for s in specs:
        if s not in out:
            out.append(s)
    return out


def add_imports(text: str, specs: list[ImportSpec]) -> str:
    """Add ``specs`` to module source ``text``: merged into an existing ``from M import`` when possible."""
    if not specs:
        return text
    module = parse_module_exactly(text)
    body: list[TopStatement] = list(module.body)
    need_tc = any(s.guard == ImportGuard.TYPE_CHECKING for s in specs)
    plain = [s for s in specs if s.guard == ImportGuard.TOP]
    guarded = [s for s in specs if s.guard == ImportGuard.TYPE_CHECKING]
    for s in plain:
        if s.name is not None and _merge(body, s):
            continue
        at = _sorted_place(body, s) if s.name is not None else None
        if at is None:
            _insert(body, _stmt(s), _last_import(body) + 1)
        elif at < len(body) and body[at].leading_lines:  # first of its group: it takes the blank line above
            body[at : at + 1] = [
                _stmt(s).with_changes(leading_lines=body[at].leading_lines),
                body[at].with_changes(leading_lines=[]),
            ]
        else:
            body.insert(at, _stmt(s))
    if guarded:
        tc = next(
            (
                (i, st)
                for i, st in enumerate(body)
                if isinstance(st, cst.If) and (dotted(st.test) or "").endswith("TYPE_CHECKING")
            ),
            None,
        )
        if tc is None:
            if need_tc and not bindings(parse("<m>", "m", False, module.with_changes(body=body).code), "TYPE_CHECKING"):
                _insert(body, _stmt(ImportSpec("typing", "TYPE_CHECKING", None)), _last_import(body) + 1)
            block = cst.If(
                test=cst.Name("TYPE_CHECKING"),
                body=cst.IndentedBlock([_stmt(s) for s in guarded]),
                leading_lines=[cst.EmptyLine()],
            )
            _insert(body, block, _last_import(body) + 1)
        else:
            at, st = tc
            body[at] = st.with_changes(body=st.body.with_changes(body=[*st.body.body, *(_stmt(s) for s in guarded)]))
    return module.with_changes(body=body).code


def _stmt(s: ImportSpec) -> TopStatement:
    if s.name is None:
        code = f"import {s.module}" + (f" as {s.asname}" if s.asname else "")
    else:
        code = f"from {s.module} import {s.name}" + (f" as {s.asname}" if s.asname else "")
    return cst.parse_statement(code)


def _last_import(body: Sequence[TopStatement]) -> int:
    last = -1
    for i, st in enumerate(body):
        if isinstance(st, cst.SimpleStatementLine) and any(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in st.body
        ):
            last = i
        elif isinstance(st, (cst.FunctionDef, cst.ClassDef)):
            break
    return last


def _insert(body: list[TopStatement], stmt: TopStatement, at: int) -> None:
    body.insert(max(at, 0), stmt)


def import_key(name: str) -> tuple[int, str, str]:
    """isort's order within ``from m import ...`` (and ruff's): constants, classes, then the rest."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower(), name


def _merge(body: list[TopStatement], s: ImportSpec) -> bool:
    """Add ``s`` to an existing ``from <module> import ...``: in its sorted place when the names
    there are sorted, else at the end."""
    if s.name is None:  # ``import module``: nothing to merge into
        return False
    for i, st in enumerate(body):
        if not isinstance(st, cst.SimpleStatementLine) or len(st.body) != 1:
            continue
        imp = st.body[0]
        if not isinstance(imp, cst.ImportFrom) or imp.relative or isinstance(imp.names, cst.ImportStar):
            continue
        if (dotted(imp.module) if imp.module is not None else "") != s.module:
            continue
        alias = cst.ImportAlias(cst.Name(s.name), asname=cst.AsName(cst.Name(s.asname)) if s.asname else None)
        body[i] = st.with_changes(body=[imp.with_changes(names=_with_alias(list(imp.names), alias, imp.lpar))])
        return True
    return False


def _with_alias(
    names: list[cst.ImportAlias], alias: cst.ImportAlias, lpar: cst.LeftParen | None
) -> list[cst.ImportAlias]:
    keys = [import_key(n.evaluated_name) for n in names]
    at = len(names)
    if keys == sorted(keys):
        at = next((k for k, key in enumerate(keys) if import_key(alias.evaluated_name) < key), len(names))
    last = names[-1]
    inner = next((n.comma for n in names[:-1] if isinstance(n.comma, cst.Comma)), None)
    if inner is None:
        inner = last.comma if lpar is not None and isinstance(last.comma, cst.Comma) else None
    inner = inner or cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if at < len(names):
        return [*names[:at], alias.with_changes(comma=inner), *names[at:]]
    if lpar is not None:  # parenthesized: the old last item takes an inner separator, the new one the last's
        return [*names[:-1], last.with_changes(comma=inner), alias.with_changes(comma=last.comma)]
    return [*names[:-1], last.with_changes(comma=inner), alias]


def _sorted_place(body: list[TopStatement], s: ImportSpec) -> int | None:
    """Where ``from <module> import <name>`` goes among the module's imports when the group of
    ``from`` imports of the same top-level package is sorted; None when there is no such group."""
    top = s.module.split(".")[0]
    group: list[tuple[int, str]] = []
    for i, st in enumerate(body[: _last_import(body) + 1]):
        imp = st.body[0] if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 else None
        if not isinstance(imp, cst.ImportFrom) or imp.relative or imp.module is None:
            continue
        mod = dotted(imp.module) or ""
        if mod.split(".")[0] == top:
            group.append((i, mod))
    mods = [m.lower() for _, m in group]
    if not group or mods != sorted(mods) or group[-1][0] - group[0][0] != len(group) - 1:
        return None  # not one sorted run of statements: added after the last import, as before
    for i, mod in group:
        if s.module.lower() < mod.lower():
            return i
    return group[-1][0] + 1


def remove_unused(text: str, names: set[str]) -> str:
    """Drop import aliases binding any of ``names`` when nothing in the module uses them any more."""
    src = parse("<m>", "m", False, text)
    gs = src.global_scope()
    unused: set[str] = set()
    for n in names:
        assigns = [a for a in gs[n] if a.scope is gs] if gs is not None else []
        if assigns and all(isinstance(a, ImportAssignment) for a in assigns) and not any(a.references for a in assigns):
            unused.add(n)
    if not unused:
        return text

    class Drop(cst.CSTTransformer):
        def leave_ImportFrom(
            self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
        ) -> cst.ImportFrom | cst.RemovalSentinel:
            if isinstance(updated_node.names, cst.ImportStar):
                return updated_node
            keep = [a for a in updated_node.names if (a.evaluated_alias or a.evaluated_name) not in unused]
            if len(keep) == len(updated_node.names):
                return updated_node
            if not keep:
                return cst.RemoveFromParent()
            keep[-1] = keep[-1].with_changes(
                comma=updated_node.names[-1].comma if updated_node.lpar else cst.MaybeSentinel.DEFAULT
            )
            return updated_node.with_changes(names=keep)

        def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import | cst.RemovalSentinel:
            keep = [
                a for a in updated_node.names if (a.evaluated_alias or a.evaluated_name.split(".")[0]) not in unused
            ]
            if len(keep) == len(updated_node.names):
                return updated_node
            if not keep:
                return cst.RemoveFromParent()
            keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated_node.with_changes(names=keep)

    return src.module.visit(Drop()).code
