"""A rule's doc is rendered from its examples: the first INVALID and VALID ones, and the first fix as a diff."""

import pytest
from sample_project import invoke

from deadinit.rules.base import Rule
from deadinit.rules.doc import fix_diff, source_text
from deadinit.rules.registry import ALL_RULES


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_doc_has_ruff_sections_and_shows_the_examples(rule):
    doc = rule.doc()
    sections = ["## What it does", "## Why is this bad?", "## Example", "## Fix", "## Fix safety"]
    assert [doc.index(s) for s in sections] == sorted(doc.index(s) for s in sections)
    first_line = next(line for src in rule.INVALID[0].files.values() for line in source_text(src).splitlines() if line)
    assert first_line in doc
    code, where, _ = rule.INVALID[0].expect[0]
    assert f"Reported: `{code}`" in doc and f"`{where}" in doc
    assert "Not reported" in doc
    if rule.FIXES:
        assert f"```diff\n{fix_diff(rule.FIXES[0])}```" in doc


def test_no_free_text_example_remains():
    assert not hasattr(Rule, "example")
    assert all(not hasattr(r, "example") for r in ALL_RULES)


def test_fix_diff_is_a_unified_diff_of_the_expected_files():
    from deadinit.rules.base import FixExample

    ex = FixExample({"pkg/a.py": "\nx = 1\ny = 2\n", "pkg/b.py": "z = 3\n"}, {"pkg/a.py": "\nx = 1\ny = 3\n"})
    assert fix_diff(ex) == "--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"


def test_rule_command_prints_the_fix_diff():
    res = invoke(["rule", "DI001", "--format", "markdown"])
    assert res.exit_code == 0
    assert "`deadinit fix --strategy skip-flag` on the example above:" in res.stdout
    assert "+        super().__init__(skip_init_workspace=True)" in res.stdout
