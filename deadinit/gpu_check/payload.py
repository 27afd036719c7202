"""The part of deadinit that gpu-check runs on: ``deadinit.gpu_check`` and what it imports, copied into a folder.

A GPU machine gets no checkout and no install of deadinit: ``bench/gpu_forward_pack.sh`` lays
this payload out for it. Which modules go is read from the code, not kept by hand: starting
from every module of ``deadinit/gpu_check``, each ``import deadinit.x`` / ``from deadinit.x
import y`` / ``from .x import y`` (relative ones resolved, those inside functions included,
those under ``if TYPE_CHECKING:`` not) is followed to the module it names, transitively, and
every package's ``__init__.py`` on the way goes too. gpu-check's data files (its
``profiles/*.toml``) go with it.

    python3 -m deadinit.gpu_check.payload DEST        # DEST/deadinit/..., one line per file
    python3 -m deadinit.gpu_check.payload --list      # the modules only, copies nothing

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import sys
from pathlib import Path

PACKAGE = "deadinit"
START = "deadinit.gpu_check"
SOURCE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the ``deadinit`` package
DATA_SUFFIXES = (".toml", ".json")  # package data, as [tool.setuptools.package-data] names it


class PayloadError(Exception):
    pass


def module_file(name: str, root: Path = SOURCE_ROOT) -> Path | None:
    """The file of module ``name`` under ``root`` (a package's ``__init__.py``), or None."""
    base = root.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST):
    """Every import statement under ``node``, at any depth, except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
        else:
            yield from _imports(child)


def _absolute(name: str, package: str, level: int, module: str | None) -> str:
    """The absolute module of ``from <level dots><module> import ...`` written in ``name``."""
    if not level:
        return module or ""
    parts = package.split(".")
    if level - 1 >= len(parts) or not package:
        raise PayloadError(f"{name}: relative import beyond the top-level package")
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imported(name: str, root: Path = SOURCE_ROOT) -> dict[str, bool]:
    """The deadinit modules module ``name`` imports: {module: required}.

    ``required`` is False for the names after ``from X import``: each is a submodule of X
    when X has one by that name, else an attribute of X (nothing more to follow).
    """
    path = module_file(name, root)
    if path is None:
        raise PayloadError(f"{name}: no such module under {root}")
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_bytes(), filename=str(path))
    found: dict[str, bool] = {}
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            found.update((a.name, True) for a in node.names)
            continue
        base = _absolute(name, package, node.level, node.module)
        found[base] = True
        for a in node.names:
            if a.name != "*":
                found.setdefault(f"{base}.{a.name}", False)
    return {n: r for n, r in found.items() if n == PACKAGE or n.startswith(PACKAGE + ".")}


def start_modules(root: Path = SOURCE_ROOT) -> list[str]:
    """Every module of ``deadinit/gpu_check``, subpackages included."""
    folder = root.joinpath(*START.split("."))
    names = []
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(root).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def needed_modules(root: Path = SOURCE_ROOT) -> list[str]:
    """The deadinit modules gpu-check imports, transitively, with every package on the way."""
    todo = [(name, True, START) for name in start_modules(root)]
    seen: set[str] = set()
    while todo:
        name, required, by = todo.pop()
        if name in seen:
            continue
        if module_file(name, root) is None:
            if required:
                raise PayloadError(f"{by} imports {name}, which is not a module under {root}")
            continue  # ``from X import attr``
        seen.add(name)
        parts = name.split(".")
        todo.extend((".".join(parts[:i]), True, name) for i in range(1, len(parts)))
        todo.extend((n, r, name) for n, r in imported(name, root).items())
    return sorted(seen)


def data_files(root: Path = SOURCE_ROOT) -> list[Path]:
    """gpu-check's data files (its bundled profiles), relative to ``root``."""
    folder = root.joinpath(*START.split("."))
    return sorted(
        p.relative_to(root)
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in DATA_SUFFIXES and "__pycache__" not in p.parts
    )


def payload_files(root: Path = SOURCE_ROOT) -> list[Path]:
    """Every file of the payload, relative to ``root``."""
    modules = [module_file(name, root) for name in needed_modules(root)]
    return sorted({p.relative_to(root) for p in modules if p is not None} | set(data_files(root)))


def build(dest: Path, root: Path = SOURCE_ROOT) -> list[Path]:
    """Copy the payload into ``dest`` (``dest/deadinit/...``); return the files, relative to ``dest``.

    ``dest/deadinit`` must not exist yet: nothing stale is left beside what gpu-check needs.
    """
    dest = Path(dest)
    if (dest / PACKAGE).exists():
        raise PayloadError(f"{dest / PACKAGE} already exists; remove it first")
    files = payload_files(root)
    for rel in files:
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deadinit.gpu_check.payload", description=__doc__.split("\n")[0])
    parser.add_argument("dest", nargs="?", type=Path, help="folder to copy the payload into (DEST/deadinit/...)")
    parser.add_argument("--list", action="store_true", help="print the modules and copy nothing")
    args = parser.parse_args(argv)
    try:
        if args.list:
            print("\n".join(needed_modules()))
            return 0
        if args.dest is None:
            parser.error("DEST is needed unless --list")
        for rel in build(args.dest):
            print(rel.as_posix())
    except PayloadError as e:
        print(f"payload: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
