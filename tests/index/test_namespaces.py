"""PEP 420 namespace packages: modules are named as Python imports them from the project folder, and
the summary says when the project's own imports still name its packages otherwise."""

import json

import pytest
from sample_project import invoke

from deadinit.index.discovery import discover

PARENT = "import torch\n\n\nclass Parent:\n    def __init__(self):\n        self.buf = torch.zeros(10)\n"
CHILD = (
    "import torch\nfrom {imp}.base import Parent\n\n\nclass Child(Parent):\n    def __init__(self):\n"
    "        super().__init__()\n        self.buf = torch.ones(3)\n\n    def forward(self):\n        return self.buf\n"
)


def _tree(write_project, top: str, marker: str | None, imp: str):
    """``<top>/core/`` a regular package (``base``, ``child``) under folders without ``__init__.py``."""
    files = {
        f"{top}/core/__init__.py": "",
        f"{top}/core/base.py": PARENT,
        f"{top}/core/child.py": CHILD.format(imp=imp),
    }
    if marker:
        files[marker] = "[tool.deadinit]\n" if marker.endswith(".toml") else ""
    return write_project(files)


def _modules(root, *paths) -> dict[str, str]:
    found = discover([str(root / p) for p in paths or ["."]]).files
    return {f.path[len(str(root)) + 1 :]: f.module for f in found if "core" in f.path}


@pytest.mark.parametrize(
    ("top", "marker", "names"),
    [
        ("pkg", "pyproject.toml", "pkg.core"),  # pkg/ has no __init__.py: a namespace package
        ("pkg", "setup.py", "pkg.core"),
        ("pkg", ".git/HEAD", "pkg.core"),
        ("src/pkg", "pyproject.toml", "pkg.core"),  # src/ is the import path, not a package
        ("ns/pkg", "pyproject.toml", "ns.pkg.core"),  # namespaces nest
        ("pkg", None, "core"),  # no project folder above: the top regular package starts the name
        ("my-pkg", "pyproject.toml", "core"),  # not an identifier: no package
    ],
)
def test_namespace_packages_are_named_as_python_imports_them(write_project, top, marker, names):
    root = _tree(write_project, top, marker, names)
    assert _modules(root) == {
        f"{top}/core/__init__.py": names,
        f"{top}/core/base.py": f"{names}.base",
        f"{top}/core/child.py": f"{names}.child",
    }
    # a file given alone, or its folder, gets the same name
    assert _modules(root, f"{top}/core/child.py") == {f"{top}/core/child.py": f"{names}.child"}
    assert _modules(root, f"{top}/core")[f"{top}/core/base.py"] == f"{names}.base"


def test_a_namespace_package_project_gets_its_findings(write_project):
    root = _tree(write_project, "pkg", "pyproject.toml", "pkg.core")
    res = invoke(["check", "--no-cache", "--format", "json", "."], cwd=root)
    assert [f["key"] for f in json.loads(res.stdout)] == ["DI001:pkg.core.child.Child:pkg.core.base.Parent:buf"]


@pytest.mark.parametrize(
    ("top", "marker", "imp", "root", "key"),
    [
        # no project folder: the package is named ``core`` while the code imports ``pkg.core``
        ("pkg", None, "pkg.core", ".", "DI001:pkg.core.child.Child:pkg.core.base.Parent:buf"),
        # python/ is taken for a namespace package (``python.core``) while the code imports ``core``
        ("python", "pyproject.toml", "core", "python", "DI001:core.child.Child:core.base.Parent:buf"),
    ],
)
def test_imports_that_name_a_folder_of_the_project_say_which_roots_setting_fixes_them(
    write_project, top, marker, imp, root, key
):
    tree = _tree(write_project, top, marker, imp)
    res = invoke(["check", "--no-cache", "."], cwd=tree)
    summary = " ".join(res.stdout.split())
    assert res.exit_code == 0
    package = imp.split(".")[0]
    assert (
        f"1 base class names `{package}`, a folder of the project that is no module of it: "
        f'set roots = ["{root}"] in [tool.deadinit]' in summary
    ), summary
    assert "not installed here" not in summary  # the project's own package, not a missing library
    (tree / "pyproject.toml").write_text(f'[tool.deadinit]\nroots = ["{root}"]\n')
    fixed = invoke(["check", "--no-cache", "--format", "json", "."], cwd=tree)
    assert [f["key"] for f in json.loads(fixed.stdout)] == [key]


def test_a_subpackage_named_after_a_library_it_wraps_is_no_misnaming(write_project):
    files = {
        "pkg/__init__.py": "",
        "pkg/backends/__init__.py": "",
        "pkg/backends/acmeclient/__init__.py": "",
        "pkg/backends/acmeclient/client.py": "from acmeclient import AcmeClient\n\n\nclass Client(AcmeClient):\n    pass\n",
    }
    res = invoke(["check", "--no-cache", "."], cwd=write_project(files))
    summary = " ".join(res.stdout.split())
    assert "1 base class from `acmeclient` was not analysed (not installed here)" in summary
    assert "a folder of the project" not in summary
