"""Blockers of the direct-base rewrite, and the checks its result must pass.

Blockers (nothing is written): ``isinstance`` / ``issubclass`` checks anywhere in
the project against a class that would leave the MRO (unless the same check also
names a class the subclass keeps), ``super()`` calls in moved or remaining code
whose target would change, class-private (mangled) names in moved code.

``verify`` is the after-the-fact check: the new module compiles, has no
undefined name the old one did not have, and re-analysis of the project shows no
DI001/DI002/DI003 left for the class and no new finding anywhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import libcst as cst

from deadinit.analysis.flow.chain import init_chain
from deadinit.fixes.analyses import project_index
from deadinit.fixes.direct_base.class_plan import ClassPlan, Outcome
from deadinit.fixes.direct_base.source import undefined_names
from deadinit.frontends.parse import summarize_source
from deadinit.index.project_index import ProjectIndex
from deadinit.installed.environment import attach
from deadinit.model.file_error import FileError
from deadinit.model.kinds import InitStmtKind
from deadinit.model.qualnames import short_name
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules.engine import analyse, findings_for
from deadinit.session.findings import ordered_findings


def isinstance_blockers(p: ClassPlan) -> None:
    index = p.index
    keep = set(p.new_mro)
    for mod, s in index.modules.items():
        by_line: dict[int, list[str]] = {}
        for name, line in s.isinstance_checks:
            by_line.setdefault(line, []).append(name)
        for line, names in sorted(by_line.items()):
            resolved = [index.resolve(mod, d) for d in names]
            hits = [q for q in resolved if q in p.dropped]
            if not hits or any(q in keep for q in resolved if q is not None):
                continue
            p.block(
                f"{s.path}:{line} checks isinstance/issubclass against {short_name(hits[0])}, "
                f"which {short_name(p.cls)} would stop passing"
            )


def class_blockers(p: ClassPlan) -> None:
    """Dropped classes whose members or effects deadinit cannot see; subclasses' super() into them."""
    index = p.index
    for qn in p.dropped:
        k = index.classes[qn]
        if k.decorators:
            p.block(f"{short_name(qn)} is decorated ({', '.join(k.decorators)}): generated members cannot be moved")
        if k.keywords:
            p.block(f"{short_name(qn)} has class keywords ({', '.join(k.keywords)}): its metaclass would be dropped")
        for hook in ("__init_subclass__", "__set_name__", "__class_getitem__", "__new__"):
            if hook in k.methods:
                p.block(f"{short_name(qn)} defines {hook}, which acts on {short_name(p.cls)} beyond its methods")
    for sub in sorted(index.all_subclasses(p.cls)):
        for owner, name in p.analyzer.reach_of(sub).methods:
            if owner in p.dropped:
                continue
            for target, start in index.classes[owner].methods[name].super_calls:
                res = index.resolve_super(index.mro(sub) or [sub], owner, target, start)
                if res is not None and res[0] in p.dropped:
                    p.block(
                        f"subclass {short_name(sub)}: {short_name(owner)}.{name} calls super().{target}(), "
                        f"which runs {short_name(res[0])}'s version"
                    )


def explicit_super(nodes: Sequence[cst.CSTNode]) -> bool:
    """``super(X, self)`` in moved code: X would no longer be in the MRO."""
    found: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "super" and node.args:
                found.append(node)

    for n in nodes:
        n.visit(V())
    return bool(found)


def mangled_names(nodes: Sequence[cst.CSTNode]) -> list[str]:
    found: list[str] = []

    class V(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            v = node.value
            if v.startswith("__") and not v.endswith("__") and v not in found:
                found.append(v)

    for n in nodes:
        n.visit(V())
    return found


class _Declared(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Global(self, n: cst.Global) -> None:
        self.names.extend(x.name.value for x in n.names)

    def visit_Nonlocal(self, n: cst.Nonlocal) -> None:
        self.names.extend(x.name.value for x in n.names)


def global_blockers(p: ClassPlan, nodes: list[cst.FunctionDef], labels: list[str]) -> None:
    """Moved code that rebinds module globals (``global x``) would rebind the wrong module's."""
    for node, label in zip(nodes, labels, strict=True):
        declared = _Declared()
        node.visit(declared)
        if declared.names:
            p.block(f"copied {label} rebinds `{', '.join(declared.names)}` of its own module (global statement)")


def super_blockers(p: ClassPlan, methods: list[tuple[str, str]]) -> None:
    """``super().m()`` in copied helpers or in the class's ``__init__`` must reach the same method."""
    index = p.index
    new_mro = p.new_mro
    for owner, name in methods:
        m = index.classes[owner].methods[name]
        for target, start in m.super_calls:
            if start is not None:
                p.block(f"copied {short_name(owner)}.{name} calls super({start}, self).{target}(), bound to its class")
                continue
            before = index.resolve_super(p.mro, owner, target, None)
            after = index.resolve_method(new_mro, target, after=p.cls)
            if (before and before[0]) != (after and after[0]):
                p.block(
                    f"copied {short_name(owner)}.{name} calls super().{target}(), which would reach "
                    f"{short_name(after[0]) if after else 'nothing'} "
                    f"instead of {short_name(before[0]) if before else 'nothing'}"
                )
        for base, target in m.parent_calls:
            qn = index.resolve(index.class_module[owner], base)
            if qn in p.dropped:
                p.block(f"copied {short_name(owner)}.{name} calls {base}.{target}(self) on a dropped class")
    init = index.classes[p.cls].methods.get("__init__")
    for target, start in init.super_calls if init else []:
        if target == "__init__":
            continue
        before = index.resolve_super(p.mro, p.cls, target, start)
        if before is not None and before[0] in p.dropped:
            p.block(
                f"{short_name(p.cls)}.__init__ calls super().{target}(), which runs {short_name(before[0])}'s version"
            )


def affected_classes(index: ProjectIndex, module: str, cls: str, dropped: list[str]) -> set[str]:
    out = {qn for qn, m in index.class_module.items() if m == module}
    for qn in list(out) + list(dropped) + [cls]:
        if qn in index.classes:
            out |= index.all_subclasses(qn)
    return out


def verify(result: CheckResult, out: Outcome, settings: Settings, findings: bool = True) -> list[str]:
    """Problems with ``out.new``: compile, undefined names, attributes no longer set, and (``findings``)
    re-analysis: DI001/DI002/DI003 left for the class or new anywhere (``deadinit fix`` re-checks that itself)."""
    try:
        compile(out.new, out.path, "exec")
    except SyntaxError as e:
        return [f"the result does not compile: {e}"]
    before = {n for n, _ in undefined_names(out.old)}
    new_undef = [(n, ln) for n, ln in undefined_names(out.new) if n not in before]
    problems = _maybe_read_by_name(result, out)
    if new_undef:
        problems.append("undefined names in the result: " + ", ".join(f"{n} (line {ln})" for n, ln in new_undef))
    index = project_index(result)
    module = index.class_module[out.cls]
    s = index.modules[module]
    new_sum = summarize_source(out.new.encode(), s.path, module, s.is_package, settings)
    if isinstance(new_sum, FileError):
        return [*problems, f"the result cannot be analysed: {new_sum.message}"]
    settings = dataclasses.replace(settings, select=(), ignore=())
    nindex = ProjectIndex([new_sum if m == module else x for m, x in index.modules.items()])
    attach(nindex, settings)
    only = affected_classes(nindex, module, out.cls, out.reuse.dropped if out.reuse else [])
    analyzer, analyses = analyse(nindex, settings, only=only if findings else {out.cls})
    for qn in [out.cls, *sorted(nindex.all_subclasses(out.cls))]:
        missing = sorted((set(analyzer.reach_of(qn).reads) & _assigned(index, qn)) - _assigned(nindex, qn))
        if missing:
            problems.append(f"attributes read by {short_name(qn)} are no longer set: {', '.join(missing)}")
        removed = sorted((_removed(nindex, qn) & _assigned(index, qn)) - _set_by_init(nindex, qn))
        if removed:
            problems.append(f"{short_name(qn)} removes attributes that are no longer set: {', '.join(removed)}")
    if not findings:
        return problems
    found = [f for f in ordered_findings(nindex, findings_for(nindex, analyzer, analyses, settings)) if not f.unsure]
    left = sorted({f.code for f in found if f.cls == out.cls and f.code in ("DI001", "DI002", "DI003")})
    if left:
        problems.append(f"re-analysis still reports {', '.join(left)} for {short_name(out.cls)}")
    old = {f.key for f in list(result.findings) + list(result.unsure) + list(result.suppressed)}
    new = sorted({f.key for f in found if f.key not in old and f.cls != out.cls})
    if new:
        problems.append("re-analysis reports new findings: " + ", ".join(new[:5]))
    return problems


def _maybe_read_by_name(result: CheckResult, out: Outcome) -> list[str]:
    """Dropped attributes that a dynamic access able to run on the class could read (its unsure findings)."""
    why = {f.attribute: f.unsure[0] for f in result.unsure if f.cls == out.cls and f.unsure}
    hit = sorted(set(why) & set(out.dropped_attrs))
    if not hit:
        return []
    return [f"{short_name(out.cls)} may read {', '.join(hit)} by name ({why[hit[0]]}): they must stay"]


def _removed(index: ProjectIndex, cls: str) -> set[str]:
    """Attributes the ``__init__`` chain of ``cls`` removes (``del self.x``, ``delattr``): they must exist."""
    return {
        c.stmt.attr
        for c in init_chain(index, cls).stmts
        if c.stmt.kind == InitStmtKind.DELETE and c.stmt.attr and c.active is not False
    }


def _set_by_init(index: ProjectIndex, cls: str) -> set[str]:
    """Attributes the ``__init__`` chain of ``cls`` stores on the instance (``del self.x`` needs one of
    those: a class attribute of the same name does not do)."""
    return {
        c.stmt.attr
        for c in init_chain(index, cls).stmts
        if c.stmt.attr and c.active is not False and c.stmt.kind != InitStmtKind.DELETE
    }


def _assigned(index: ProjectIndex, cls: str) -> set[str]:
    """Attributes some ``__init__`` of the chain, a method or a class body of ``cls``'s MRO sets."""
    out = _set_by_init(index, cls)
    for qn in index.mro(cls) or [cls]:
        k = index.classes[qn]
        out |= set(k.class_attrs) | set(k.methods)
        for m in k.methods.values():
            out |= {a for a, _l, _c in m.writes}
    return out
