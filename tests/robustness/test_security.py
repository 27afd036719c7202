"""deadinit never imports or executes the code it analyses, and never leaves the analysed roots.

Every module of the analysed package writes a marker file when imported or run; no
deadinit command may make one appear (``deadinit gpu-check`` does import code, and
says so: it is not run here).  Symbolic links that point outside the analysed folders
are skipped with a note, so no finding, related path or rewrite lies outside them.
"""

import os
import subprocess
import sys

import pytest
from robust_helpers import GOOD, assert_no_crash, cli, count, env, error_lines, findings, snapshot, write


def _booby_trapped(root, markers):
    def trap(name: str) -> str:
        return f"open({str(markers / name)!r}, 'w').write('executed')\n"

    write(
        root,
        {
            "proj/pyproject.toml": "[tool.deadinit]\nselect = ['DI001', 'DI002']\n",
            "proj/setup.py": trap("setup"),
            "proj/conftest.py": trap("conftest"),
            "proj/sitecustomize.py": trap("sitecustomize"),
            "proj/pkg/__init__.py": trap("package"),
            "proj/pkg/__main__.py": trap("main"),
            "proj/pkg/good.py": trap("good") + GOOD,
            "proj/pkg/lazy.py": "def f():\n    " + trap("lazy") + "\nclass T:\n    x = " + trap("classbody"),
        },
    )
    return root / "proj"


COMMANDS = [
    ("check", "pkg"),
    ("check", "-j", "1", "pkg"),
    ("check", "--no-cache", "--format", "sarif", "pkg"),
    ("check", "--show-unsure", "--statistics", "."),
    ("explain", "Child", "pkg"),
    ("graph", "Base", "pkg"),
    ("fix", "--diff", "pkg"),
    ("fix", "--unsafe-fixes", "--report", "report.json", "pkg"),
]


def test_analysed_code_is_never_imported_or_run(tmp_path):
    markers = tmp_path / "markers"
    markers.mkdir()
    proj = _booby_trapped(tmp_path, markers)
    # control: importing the package does leave markers behind (a stand-in torch: no install needed)
    stub = write(tmp_path / "stub", {"torch.py": "def zeros(*shape):\n    return shape\n"})
    control = env(tmp_path, PYTHONPATH=str(stub))
    subprocess.run([sys.executable, "-c", "import pkg.good"], cwd=proj, env=control, check=True)
    assert {p.name for p in markers.iterdir()} == {"package", "good"}
    for p in markers.iterdir():
        p.unlink()
    for args in COMMANDS:
        p = cli(*args, cwd=proj)  # ``python -m``: the package is importable from the current folder
        assert_no_crash(p)
        assert p.returncode in (0, 1), (args, p.stderr)
        assert list(markers.iterdir()) == [], (args, [m.name for m in markers.iterdir()])
        count("commands run on a booby-trapped package")
    assert "skip_init_ws" in (proj / "pkg" / "good.py").read_text()  # the fix did write


@pytest.fixture
def escaping(tmp_path):
    outside = write(tmp_path / "outside", {"ext.py": GOOD, "extpkg/__init__.py": "", "extpkg/mod.py": GOOD})
    proj = write(tmp_path / "proj", {"pkg/__init__.py": "", "pkg/good.py": GOOD, "pkg/inner/__init__.py": ""})
    os.symlink(outside / "ext.py", proj / "pkg" / "ext_link.py")
    os.symlink(outside / "extpkg", proj / "pkg" / "ext_dir")
    os.symlink(proj / "pkg" / "inner", proj / "pkg" / "inner_again")  # stays inside: followed (and de-duplicated)
    return proj, outside


def _inside(path: str, root) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top + os.sep)


def test_findings_never_escape_the_roots_through_symlinks(escaping):
    proj, _ = escaping
    p = cli("check", "--no-cache", "--format", "json", "pkg", cwd=proj)
    assert_no_crash(p)
    items = findings(p)
    assert [f["path"] for f in items] == ["pkg/good.py"]
    for f in items:
        for path in [f["path"], *f["related_paths"], *(e["path"] for e in f["evidence"] if e.get("path"))]:
            assert _inside(os.path.join(proj, path), proj / "pkg"), path
    skipped = sorted(e.split(": ")[2] for e in error_lines(p.stderr))
    assert skipped == ["pkg/ext_dir", "pkg/ext_link.py"]
    assert all("outside the analysed folders" in e for e in error_lines(p.stderr))


def test_fix_never_writes_outside_the_roots(escaping):
    proj, outside = escaping
    before = snapshot(outside)
    p = cli("fix", "--unsafe-fixes", "pkg", cwd=proj)
    assert_no_crash(p)
    assert snapshot(outside) == before
    assert "skip_init_ws" in (proj / "pkg" / "good.py").read_text()
