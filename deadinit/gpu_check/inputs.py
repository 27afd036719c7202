"""What to build and what to check: ``--class`` options and ``deadinit fix`` reports.

A fix report (``deadinit fix --report FILE``) is a JSON list of change records, or an
object ``{"changes": [...]}``. Fields read here (others are ignored):

* ``class`` (required): qualname ``pkg.mod.Class`` (``pkg.mod:Class`` and a bare
  ``Class`` with ``file`` also work);
* ``file``: the changed file, absolute or relative to the tree or its repository;
* ``attributes``: attributes the fix stopped building: on the rewritten instance they
  must be ``None`` or absent;
* ``reads`` (optional): attributes the class reads: they must be present and not None;
* ``new_bases`` (optional): the direct bases the rewrite gave the class;
* ``removed_bases`` / ``old_bases`` / ``old_base`` (optional): classes that must no
  longer be in the MRO;
* ``estimated_bytes``, ``strategy``, ``flag`` / ``flag_name``: carried into the output.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deadinit.report.fix_report import read_fix_report

ALL = "*"  # expectation label meaning "every rewritten tree"


class InputError(ValueError):
    pass


@dataclass
class Expect:
    reads: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    new_bases: list[str] = field(default_factory=list)
    not_in_mro: list[str] = field(default_factory=list)

    def merge(self, other: Expect) -> None:
        for name in ("reads", "skipped", "new_bases", "not_in_mro"):
            mine = getattr(self, name)
            mine.extend(x for x in getattr(other, name) if x not in mine)

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "reads": self.reads,
            "skipped": self.skipped,
            "new_bases": self.new_bases,
            "not_in_mro": self.not_in_mro,
        }


@dataclass
class Target:
    spec: str
    qualname: str = ""
    file: str | None = None
    profile: str | None = None
    expect: dict[str, Expect] = field(default_factory=dict)  # label (or ALL) -> checks
    fix: list[dict[str, Any]] = field(default_factory=list)  # the report records, trimmed

    @property
    def name(self) -> str:
        return re.split(r"[.:]", self.qualname or self.spec)[-1]

    def expect_for(self, label: str) -> Expect:
        out = Expect()
        for key in (ALL, label):
            if key in self.expect:
                out.merge(self.expect[key])
        return out

    def add_expect(self, label: str, expect: Expect) -> None:
        self.expect.setdefault(label, Expect()).merge(expect)


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, dict):
        return [str(k) for k in value]
    return [str(v) for v in value]


def load_fix_report(path: Path) -> list[dict[str, Any]]:
    try:
        report = read_fix_report(path)
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read fix report {path}: {exc}") from exc
    data = report.get("changes", report.get("records")) if isinstance(report, dict) else report
    if not isinstance(data, list):
        raise InputError(f'{path}: expected a JSON list of records or {{"changes": [...]}}')
    for i, rec in enumerate(data):
        if not isinstance(rec, dict) or not rec.get("class"):
            raise InputError(f"{path}: record {i} has no 'class'")
    return data


def expect_from_record(rec: dict[str, Any]) -> Expect:
    removed = _names(rec.get("removed_bases")) + _names(rec.get("old_bases")) + _names(rec.get("old_base"))
    bases = [b for b in _names(rec.get("new_bases")) if re.fullmatch(r"[\w.:]+", b)]  # not prose
    return Expect(
        reads=_names(rec.get("reads")), skipped=_names(rec.get("attributes")), new_bases=bases, not_in_mro=removed
    )


def split_labeled(value: str) -> tuple:
    """``LABEL=VALUE`` -> (LABEL, VALUE); a plain value -> (None, VALUE)."""
    if "=" in value and not value.startswith(("/", ".")):
        label, _, rest = value.partition("=")
        if re.fullmatch(r"[\w.-]+", label):
            return label, rest
    return None, value


def parse_scoped(value: str) -> tuple:
    """``[CLASS:]a,b`` -> (CLASS or None, [a, b])."""
    scope, sep, rest = value.rpartition(":")
    if sep and scope:
        return scope, _names(rest)
    return None, _names(value)


def scope_matches(scope: str | None, target: Target) -> bool:
    if scope is None:
        return True
    return scope in (target.spec, target.qualname, target.name) or target.qualname.endswith("." + scope)


# -- resolving class names against a tree ---------------------------------------------
def module_for_file(tree: Path, file: str) -> str | None:
    path = Path(file)
    candidates = [path] if path.is_absolute() else [tree / path]
    parts = path.parts
    candidates += [tree.joinpath(*parts[i:]) for i in range(1, len(parts))]
    for cand in candidates:
        try:
            rel = cand.resolve().relative_to(tree.resolve())
        except ValueError:
            continue
        if cand.exists() and rel.suffix == ".py":
            mod = list(rel.with_suffix("").parts)
            if mod[-1] == "__init__":
                mod = mod[:-1]
            return ".".join(mod)
    return None


def _module_exists(tree: Path, module: str) -> bool:
    base = tree.joinpath(*module.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def find_class(tree: Path, name: str, limit: int = 20) -> list[str]:
    pattern = re.compile(rf"^class\s+{re.escape(name)}\s*[(:]", re.M)
    found = []
    for path in sorted(tree.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if f"class {name}" in text and pattern.search(text):
            found.append(module_for_file(tree, str(path)) or str(path))
            if len(found) >= limit:
                break
    return found


def resolve(target: Target, tree: Path) -> str:
    spec = target.spec
    if ":" in spec:
        module, _, cls = spec.partition(":")
        return f"{module}.{cls}"
    if "." in spec:
        module, _, cls = spec.rpartition(".")
        if _module_exists(tree, module):
            return spec
    cls = spec.rpartition(".")[2]
    if target.file:
        module = module_for_file(tree, target.file)
        if module:
            return f"{module}.{cls}"
    modules = [m for m in find_class(tree, cls) if not re.search(r"(^|\.)tests?(\.|$)", m)]
    if len(modules) == 1:
        return f"{modules[0]}.{cls}"
    if not modules:
        raise InputError(f"class {spec} not found under {tree}")
    raise InputError(
        f"class {spec} is ambiguous under {tree}: {', '.join(modules)}; give the qualname pkg.module.Class"
    )


def collect_targets(classes: Sequence[str], reports: Iterable[tuple], tree: Path) -> list[Target]:
    """Targets from ``--class`` values and (label, records) fix reports, resolved against ``tree``.

    With ``--class`` given, only those classes are built and the reports only add
    checks to them (a report may name classes, e.g. draft backends, that need another
    profile); without, every class a report names is built.
    """
    targets: dict[str, Target] = {}
    for spec in classes:
        target = Target(spec=spec)
        target.qualname = resolve(target, tree)
        targets.setdefault(target.qualname, target)
    only_listed = bool(classes)
    for label, records in reports:
        for rec in records:
            probe = Target(spec=str(rec["class"]), file=rec.get("file"))
            probe.qualname = resolve(probe, tree)
            if probe.qualname not in targets:
                if only_listed:
                    continue
                targets[probe.qualname] = probe
            target = targets[probe.qualname]
            target.file = target.file or rec.get("file")
            target.add_expect(label or ALL, expect_from_record(rec))
            target.fix.append(
                {
                    k: rec.get(k)
                    for k in ("file", "strategy", "estimated_bytes", "attributes", "flag", "flag_name")
                    if rec.get(k) is not None
                }
                | {"label": label or ALL}
            )
    return list(targets.values())


def base_matches(name: str, qualname: str) -> bool:
    name = name.replace(":", ".")
    return qualname == name or qualname.endswith("." + name)
