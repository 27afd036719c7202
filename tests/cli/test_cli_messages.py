"""What ``check`` and ``fix`` say about unreadable files, empty folders, exit codes, class names and
``# noqa`` (each message a new user tripped over)."""

import json

import pytest
from sample_project import DI001_KEY, DI002_KEY, invoke, sample

# a parent whose buffer no subclass reads; the subclass has no __init__ of its own, so skip-flag
# cannot pass a flag from it: a finding `fix` leaves in the tree
UNFIXABLE = {
    "pkg/__init__.py": "",
    "pkg/base.py": (
        "import torch\n\n\nclass Parent:\n    def __init__(self):\n        self.buf = torch.zeros(10)\n\n"
        "    def forward(self):\n        return self.buf\n"
    ),
    "pkg/child.py": "from pkg.base import Parent\n\n\nclass Child(Parent):\n    def forward(self):\n        return 1\n",
}


def _summary(res) -> str:
    return " ".join(res.stdout.split())  # the summary line, however it wrapped


def test_a_file_that_is_only_a_syntax_error_is_not_counted_as_analysed(write_project):
    root = write_project({"bad.py": "def f(:\n"})
    res = invoke(["check", "--no-cache", "bad.py"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.splitlines() == ["deadinit: error: bad.py: syntax error at line 1, column 7: invalid syntax"]
    assert "0 file(s) analysed, 1 could not be read (errors above)" in _summary(res)


def test_unparseable_files_are_counted_apart_from_the_analysed_ones(write_project):
    root = write_project({"a.py": "x = 1\n", "b.py": "y = 2\n", "bad.py": "def f(:\n", "worse.py": "class C(\n"})
    res = invoke(["check", "--no-cache", "."], cwd=root)
    assert "2 file(s) analysed, 2 could not be read (errors above)" in _summary(res)
    assert len([ln for ln in res.stderr.splitlines() if ln.startswith("deadinit: error: ")]) == 2


def test_github_error_annotations_name_the_line_and_column(write_project):
    root = write_project({"ok.py": "x = 1\n", "bad.py": "x = 1\n\ndef f(:\n"})
    res = invoke(["check", "--no-cache", "--format", "github", "."], cwd=root)
    assert res.stdout.splitlines() == [
        "::error file=bad.py,line=3,col=7,title=deadinit::syntax error at line 3, column 7: invalid syntax"
    ]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_empty_folder_exits_0_with_a_warning_as_ruff_does(tmp_path, fmt):
    (tmp_path / "empty").mkdir()
    res = invoke(["check", "--no-cache", "--format", fmt, "empty"], cwd=tmp_path)
    assert res.exit_code == 0
    assert res.stderr == "deadinit: warning: no Python files found in empty\n"
    assert res.stdout == ("[]\n" if fmt == "json" else "")
    fixed = invoke(["fix", "--no-cache", "empty"], cwd=tmp_path)
    assert (fixed.exit_code, fixed.stderr) == (0, "deadinit: warning: no Python files found in empty\n")


def test_fix_and_fix_diff_exit_alike_findings_left_in_the_tree_exit_1(write_project):
    root = write_project(UNFIXABLE)
    diff = invoke(["fix", "--no-cache", "--diff", "."], cwd=root)
    assert (diff.exit_code, diff.stdout) == (1, "")  # nothing to rewrite, the finding stays
    assert invoke(["fix", "--no-cache", "--report", "fix.json", "."], cwd=root).exit_code == 1
    assert invoke(["fix", "--no-cache", "--diff", "--exit-zero", "."], cwd=root).exit_code == 0
    assert invoke(["fix", "--no-cache", "--exit-zero", "."], cwd=root).exit_code == 0


def test_fix_diff_exits_1_while_the_fixable_findings_are_still_in_the_tree(write_project):
    root = write_project(sample())
    assert invoke(["fix", "--no-cache", "--diff", "."], cwd=root).exit_code == 1
    assert invoke(["fix", "--no-cache", "."], cwd=root).exit_code == 0  # fixed: nothing left
    again = invoke(["fix", "--no-cache", "--diff", "."], cwd=root)
    assert (again.exit_code, again.stdout) == (0, "")


def test_show_fixes_lists_the_fixed_findings_by_file(write_project):
    root = write_project(sample())
    res = invoke(["fix", "--no-cache", "--diff", "--quiet", "--show-fixes", "."], cwd=root)
    assert res.stderr.splitlines() == [
        "Would fix 2 finding(s):",
        "- pkg/base.py:",
        "    1 × DI001 (overwritten-parent-allocation)",
        "    1 × DI002 (unread-parent-allocation)",
    ]
    res = invoke(["fix", "--no-cache", "--quiet", "--show-fixes", "--select", "DI002", "."], cwd=root)
    assert res.stdout.splitlines()[:1] == ["Fixed 1 finding(s):"]


def test_extend_select_adds_to_the_selection(write_project):
    root = write_project(sample())
    only = invoke(["check", "--no-cache", "--format", "json", "--select", "DI001", "."], cwd=root)
    more = invoke(
        ["check", "--no-cache", "--format", "json", "--select", "DI001", "--extend-select", "DI002", "."], cwd=root
    )
    assert {f["key"] for f in json.loads(only.stdout)} == {DI001_KEY}
    assert {f["key"] for f in json.loads(more.stdout)} == {DI001_KEY, DI002_KEY}
    res = invoke(
        [
            "fix",
            "--no-cache",
            "--diff",
            "--quiet",
            "--show-fixes",
            "--select",
            "DI001",
            "--extend-select",
            "DI002",
            ".",
        ],
        cwd=root,
    )
    assert "Would fix 2 finding(s):" in res.stderr
    bad = invoke(["fix", "--no-cache", "--extend-select", "DI0O2", "."], cwd=root)
    assert bad.exit_code == 2 and "--extend-select" in bad.stderr and "did you mean" in bad.stderr


def test_unsafe_fixes_help_names_the_reasons_the_code_gives():
    text = " ".join(invoke(["fix", "--help"]).stdout.split())
    for reason in ("unsure", "checkpoint keys", "exported", "project function", "direct-base"):
        assert reason in text, reason
    assert "judging reads outside the hierarchy" not in text


def test_a_mistyped_class_gets_a_did_you_mean(write_project):
    root = write_project(sample())
    res = invoke(["fix", "--no-cache", "--class", "Chlid", "."], cwd=root)
    assert res.exit_code == 2
    assert "no class 'Chlid' in the analysed files (did you mean 'Child'?)" in res.stderr


def test_a_class_with_no_method_but_init_says_so_in_its_evidence(write_project):
    files = dict(UNFIXABLE)
    files["pkg/child.py"] = (
        "from pkg.base import Parent\n\n\nclass Child(Parent):\n    def __init__(self):\n        super().__init__()\n"
    )
    files["pkg/base.py"] = (
        "import torch\n\n\nclass Parent:\n    def __init__(self):\n        self.buf = torch.zeros(10)\n"
    )
    root = write_project(files)
    res = invoke(["check", "--no-cache", "--format", "json", "."], cwd=root)
    texts = [e["text"] for f in json.loads(res.stdout) for e in f["evidence"] if e["kind"] == "checked"]
    assert texts == ["no method is reachable on Child besides __init__"]


@pytest.mark.parametrize(
    ("comment", "suppressed"),
    [
        ("  # noqa: DI001", True),
        ("  # noqa: E501, DI001", True),
        ("  # NOQA:DI001 - the workspace is replaced on purpose", True),
        ("  # noqa: DI002", False),
        ("  # noqa: E501", False),
        ("  # noqa", False),
        ("  # deadinit: ignore[DI001]", True),
    ],
)
def test_noqa_with_a_deadinit_code_suppresses_that_code(write_project, comment, suppressed):
    root = write_project(sample(ws=comment))
    res = invoke(["check", "--no-cache", "--format", "json", "."], cwd=root)
    keys = {f["key"] for f in json.loads(res.stdout)}
    assert (DI001_KEY not in keys) == suppressed
    assert DI002_KEY in keys


def test_an_unused_noqa_code_is_reported_by_di100(write_project):
    root = write_project(sample(ws="  # noqa: E501, DI002"))
    res = invoke(["check", "--no-cache", "--format", "json", "--report-unused-ignores", "."], cwd=root)
    (unused,) = [f for f in json.loads(res.stdout) if f["code"] == "DI100"]
    assert unused["line"] == 11 and "DI002" in unused["message"]
