"""Every module of ``deadinit/semantics/`` has tests of its own, in the mirrored folder, that import it:
``semantics/X.py`` -> ``tests/semantics/test_X.py``, ``semantics/D/X.py`` -> ``tests/semantics/D/test_D_X.py``
and a package face ``semantics/D/__init__.py`` -> ``tests/semantics/D/test_D.py``; and that file names
each public function and class the module defines."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "deadinit" / "semantics"
TESTS = ROOT / "tests" / "semantics"


def _modules() -> list[tuple[str, Path]]:
    """(dotted name under ``deadinit.semantics``, its mirrored test file) of every module with code."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            if not path.read_text(encoding="utf-8").strip():
                continue
            parts = parts[:-1]
        folder = TESTS.joinpath(*parts[:-1]) if rel.name != "__init__.py" else TESTS.joinpath(*parts)
        out.append((".".join(parts), folder / f"test_{'_'.join(parts)}.py"))
    return out


def _imported(test: Path) -> set[str]:
    """The modules a test file imports, dotted (``from a import b`` counts ``a`` and ``a.b``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(test.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_walk_sees_the_package():
    names = [name for name, _ in _modules()]
    assert {"exprs", "syntax", "syntax.node", "init.flow", "summary.builder", "loaders.skips"} <= set(names)


def test_every_module_has_its_own_tests():
    missing = [str(test.relative_to(ROOT)) for _, test in _modules() if not test.exists()]
    assert missing == []
    untested = [name for name, test in _modules() if f"deadinit.semantics.{name}" not in _imported(test)]
    assert untested == [], "a test file that does not import the module it mirrors"


def _public(name: str) -> list[str]:
    """The functions and classes the module ``name`` defines at its top level, not underscored."""
    path = PACKAGE.joinpath(*name.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [n.name for n in tree.body if isinstance(n, kinds) and not n.name.startswith("_")]


def test_the_public_names_walk_sees_functions_and_classes():
    assert {"AllocClassifier", "call_arguments_of"} <= set(_public("alloc"))
    assert "Node" in _public("syntax.node") and _public("syntax") == []  # a face that re-exports only


def test_every_public_function_and_class_is_named_by_its_tests():
    unnamed = []
    for name, test in _modules():
        text = test.read_text(encoding="utf-8") if test.exists() else ""
        unnamed += [f"{name}.{p}" for p in _public(name) if not re.search(rf"\b{p}\b", text)]
    assert unnamed == [], "a public function or class its module's test file never names"
