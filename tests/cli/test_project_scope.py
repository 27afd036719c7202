"""Files in, project understood: given files or folders inside a project, ``check`` and ``fix``
analyse the project they lie in and act on the findings that touch the given paths."""

import json
import os

import pytest
from sample_project import DI001_KEY, DI002_KEY, invoke, sample

from deadinit.session.project_root import project_scope

TABLE = "[tool.deadinit]\n"


def _keys(res) -> set[str]:
    return {f["key"] for f in json.loads(res.stdout)}


@pytest.mark.parametrize("marker", ["pyproject.toml", ".git"])
def test_a_single_file_whose_parent_lives_in_another_file_gets_the_finding(write_project, marker):
    root = write_project({**sample(), **({marker: TABLE} if marker == "pyproject.toml" else {})})
    if marker == ".git":
        (root / ".git").mkdir()
    res = invoke(["check", "--no-cache", "--format", "json", "pkg/child.py"], cwd=root)
    assert res.exit_code == 1
    assert _keys(res) == {DI001_KEY, DI002_KEY}
    # the other file of the project is given: no finding touches it
    quiet = invoke(["check", "--no-cache", "--format", "json", "pkg/other.py"], cwd=root)
    assert (quiet.exit_code, _keys(quiet)) == (0, set())
    # from a folder below the root, with a folder given
    os.chdir(root)
    below = invoke(["check", "--no-cache", "--format", "json", "."], cwd=root / "pkg")
    assert _keys(below) == {DI001_KEY, DI002_KEY}


@pytest.mark.parametrize("cache", [["--no-cache"], ["--cache-dir", "cache"]])
def test_outside_a_project_the_lone_file_says_its_base_was_not_analysed(write_project, cache):
    root = write_project(sample())
    note = "1 base class outside the analysed files: pkg.base.Parent; run from the project root or set `roots`"
    for edit in ("", "# edited\n", "\n\nclass More:\n    pass\n"):  # cold, warm, an incremental run
        with open(root / "pkg/child.py", "a") as f:
            f.write(edit)
        res = invoke(["check", *cache, "pkg/child.py"], cwd=root)
        assert res.exit_code == 0
        assert note in " ".join(res.stdout.split())


def test_a_given_file_the_project_excludes_is_analysed_too(write_project):
    files = sample()
    files = {k.replace("pkg/", "tests/pkg/"): v.replace("pkg.", "tests.pkg.") for k, v in files.items()}
    root = write_project({**files, "tests/__init__.py": "", "pyproject.toml": TABLE + 'exclude = ["tests/"]\n'})
    assert invoke(["check", "--no-cache", "--format", "json", "."], cwd=root).stdout == "[]\n"
    res = invoke(["check", "--no-cache", "--format", "json", "tests/pkg/child.py"], cwd=root)
    assert res.exit_code == 0  # its parent stays excluded: the child alone has no finding
    res = invoke(["check", "--no-cache", "--format", "json", "tests/pkg/child.py", "tests/pkg/base.py"], cwd=root)
    assert {k.split(":")[0] for k in _keys(res)} == {"DI001", "DI002"}


def test_the_scope_of_paths_in_and_out_of_a_project(tmp_path):
    (tmp_path / "proj" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pyproject.toml").write_text(TABLE)
    (tmp_path / "proj" / "pkg" / "a.py").write_text("")
    (tmp_path / "lone").mkdir()
    os.chdir(tmp_path)
    assert project_scope(["proj/pkg/a.py"]).targets == ["proj"]
    assert project_scope(["proj/pkg/a.py"]).scope == ["proj/pkg/a.py"]
    assert project_scope(["proj"]).scope is None
    assert project_scope([str(tmp_path / "proj" / "pkg")]).targets == [str(tmp_path / "proj")]
    assert project_scope(["lone"]).targets == ["lone"] and project_scope(["lone"]).scope is None


def test_fix_given_a_file_fixes_the_findings_that_touch_it_only(write_project):
    extra = {
        "pkg/solo.py": (
            "import torch\n\n\nclass Top:\n    def __init__(self):\n        self.big = torch.zeros(1 << 20)\n\n"
            "    def run(self):\n        return self.big\n\n\nclass Leaf(Top):\n    def __init__(self):\n"
            "        super().__init__()\n        self.big = torch.zeros(3)\n\n    def run(self):\n        return self.big\n"
        ),
        "pyproject.toml": TABLE,
    }
    root = write_project(sample(extra=extra))
    res = invoke(["fix", "--no-cache", "--diff", "--quiet", "--show-fixes", "pkg/solo.py"], cwd=root)
    assert "pkg/solo.py" in res.stdout and "pkg/base.py" not in res.stdout
    assert res.exit_code == 1  # the finding of solo.py is left (--diff writes nothing)
    assert invoke(["fix", "--no-cache", "--quiet", "pkg/solo.py"], cwd=root).exit_code == 0  # pkg/base.py's remain
    assert "skip_init" not in (root / "pkg" / "base.py").read_text()


def test_fix_leaves_baselined_findings_alone(write_project):
    root = write_project({**sample(), "pyproject.toml": TABLE})
    base = invoke(["check", "--no-cache", "--select", "DI001", "--write-baseline", "b.json", "."], cwd=root)
    assert base.exit_code == 0
    res = invoke(["fix", "--no-cache", "--quiet", "--show-fixes", "--baseline", "b.json", "."], cwd=root)
    assert res.exit_code == 0, res.stdout + res.stderr
    assert res.stdout.splitlines()[:3] == [
        "Fixed 1 finding(s):",
        "- pkg/base.py:",
        "    1 × DI002 (unread-parent-allocation)",
    ]
    left = invoke(["check", "--no-cache", "--format", "json", "."], cwd=root)
    assert _keys(left) == {DI001_KEY}
    bad = invoke(["fix", "--no-cache", "--baseline", "missing.json", "."], cwd=root)
    assert bad.exit_code == 2 and "baseline file not found: missing.json" in bad.stderr
