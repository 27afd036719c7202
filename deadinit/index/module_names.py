"""Module names: the absolute module an import names, and the packages above modules."""

from __future__ import annotations

from collections.abc import Iterable

from deadinit.model.summary import Import


def absolute_module(module: str, is_package: bool, imp: Import) -> str:
    """The absolute name of the module ``imp`` imports from (or imports), as seen from ``module``."""
    if imp.level == 0:
        return imp.module
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if imp.level > 1:
        parts = parts[: len(parts) - (imp.level - 1)] if imp.level - 1 <= len(parts) else []
    base = ".".join(parts)
    return f"{base}.{imp.module}" if imp.module and base else (imp.module or base)


def module_prefixes(modules: Iterable[str]) -> set[str]:
    """The modules and the packages above them (``a`` and ``a.b`` for ``a.b.c``)."""
    prefixes = set(modules)
    for m in list(prefixes):
        parts = m.split(".")
        prefixes.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return prefixes
