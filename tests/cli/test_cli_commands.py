"""`deadinit rules`, `rule`, `explain`, `graph`."""

import json

from sample_project import assert_one_line_error, invoke, sample


def test_rules_table_formats():
    res = invoke(["rules"])
    assert res.exit_code == 0 and "DI001" in res.stdout and "DI002" in res.stdout and "DI100" in res.stdout
    rows = json.loads(invoke(["rules", "--format", "json"]).stdout)
    assert [r["code"] for r in rows][:2] == ["DI001", "DI002"]
    assert len({r["code"] for r in rows}) == len(rows)  # codes are unique
    assert len({r["name"] for r in rows}) == len(rows)
    assert invoke(["rules", "--format", "markdown"]).stdout.startswith("| Code | Name |")


def test_rule_doc_by_code_and_name():
    res = invoke(["rule", "DI002"])
    assert res.exit_code == 0
    for heading in (
        "# unread-parent-allocation (DI002)",
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Fix safety",
    ):
        assert heading in res.stdout
    assert invoke(["rule", "overwritten-parent-allocation"]).stdout.startswith(
        "# overwritten-parent-allocation (DI001)"
    )
    assert json.loads(invoke(["rule", "di100", "--format", "json"]).stdout)["code"] == "DI100"
    assert_one_line_error(invoke(["rule", "DI999"]), "unknown rule 'DI999'")


def test_explain_every_parent_attribute(write_project):
    root = write_project(sample())
    res = invoke(["explain", "pkg.child.Child", "."], cwd=root)
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "pkg.child.Child -> pkg.base.Parent -> pkg.base.Base" in out
    assert "Child.__init__ -> Parent.__init__" in out
    assert "Parent.ws  DI001 overwritten" in out and "pkg/base.py:11" in out and "pkg/child.py:8" in out
    assert "Parent.buf  DI002 unread" in out
    assert "Parent.forward reads self.buf but is overridden by Child.forward" in out


def test_explain_live_and_skipped_attributes(write_project):
    root = write_project(
        {
            "m.py": """import torch


class P:
    def __init__(self, skip=False):
        self.live = torch.empty(4)
        if not skip:
            self.big = torch.empty(1 << 20)

    def run(self):
        return self.live


class C(P):
    def __init__(self):
        super().__init__(skip=True)
""",
        }
    )
    out = invoke(["explain", "C", "m.py"], cwd=root).stdout
    assert "P.live  live (tensor)" in out and "read by P.run" in out
    assert "P.big  never runs for this class" in out


def test_explain_lists_the_hierarchy_problems_of_its_class_only(write_project):
    cycle = {
        "a.py": "from b import B\n\n\nclass A(B):\n    pass\n",
        "b.py": "from a import A\n\n\nclass B(A):\n    pass\n",
    }
    root = write_project(sample(extra={"pkg/bad.py": "class Odd(Odd):\n    pass\n", **cycle}))
    res = invoke(["explain", "a.A", "."], cwd=root)
    assert "class A inherits from itself (A -> B -> A)" in res.stderr
    assert "Odd" not in res.stderr
    res = invoke(["explain", "pkg.child.Child", "."], cwd=root)
    assert res.exit_code == 0 and "inherits from itself" not in res.stderr and "Odd" not in res.stderr
    assert "base `Odd` is the class itself" in invoke(["explain", "pkg.bad.Odd", "."], cwd=root).stderr


def test_explain_bad_input(write_project):
    root = write_project(sample(extra={"pkg/dup.py": "class Child:\n    pass\n"}))
    assert_one_line_error(invoke(["explain", "Nope", "."], cwd=root), "no class 'Nope'")
    assert_one_line_error(invoke(["explain", "Child", "."], cwd=root), "ambiguous", "pkg.child.Child", "pkg.dup.Child")
    assert_one_line_error(invoke(["explain", "Child", "missing/"], cwd=root), "path does not exist")
    res = invoke(["explain", "pkg.base.Parent", "."], cwd=root)
    assert res.exit_code == 0 and "nothing inherited" in res.stdout


def test_graph(write_project):
    root = write_project(sample(extra={"pkg/quiet.py": "class A:\n    pass\n\n\nclass B(A):\n    pass\n"}))
    res = invoke(["graph", "."], cwd=root)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert lines[0].startswith("Base  pkg.base.Base")
    assert any("Child  pkg.child.Child  DI001 x1, DI002 x1  [~4.0 KiB per instance]" in ln for ln in lines), res.stdout
    assert "1 hierarchies without findings" in res.stdout
    assert "pkg.quiet.B" in invoke(["graph", "--all", "."], cwd=root).stdout
    sub = invoke(["graph", "Parent", "."], cwd=root).stdout
    assert sub.splitlines()[0].startswith("Parent  pkg.base.Parent") and "Child" in sub
    assert_one_line_error(invoke(["graph", "Nope", "."], cwd=root), "no class 'Nope'")
