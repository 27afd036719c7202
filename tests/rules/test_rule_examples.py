"""Every rule's examples run as tests: VALID reports nothing, INVALID reports what it lists, FIXES rewrite as shown."""

import pytest
from click.testing import CliRunner

from deadinit.cli.main import main
from deadinit.rules.doc import fix_diff
from deadinit.rules.registry import ALL_RULES, lookup
from deadinit.session.rule_examples import cases, findings_of, write_files

VALID, INVALID, FIXES = cases("VALID"), cases("INVALID"), cases("FIXES")


def ids(items):
    return [f"{r.code}-{i}" for r, i, _ in items]


@pytest.mark.parametrize("rule,i,example", VALID, ids=ids(VALID))
def test_valid_example_reports_nothing(rule, i, example, tmp_path):
    assert findings_of(rule, example, tmp_path) == [], example.note


@pytest.mark.parametrize("rule,i,example", INVALID, ids=ids(INVALID))
def test_invalid_example_reports_what_it_lists(rule, i, example, tmp_path):
    assert findings_of(rule, example, tmp_path) == sorted(example.expect), example.note


@pytest.mark.parametrize("rule,i,example", FIXES, ids=ids(FIXES))
def test_fix_example_rewrites_as_shown(rule, i, example, tmp_path, monkeypatch):
    monkeypatch.chdir(write_files(example.files, tmp_path))
    args = ["fix", *sorted({p.split("/")[0] for p in example.files}), "--strategy", example.strategy, "--diff"]
    args += ["--no-cache", "--quiet", *(["--unsafe-fixes"] if example.unsafe_fixes else [])]
    for c in example.classes:
        args += ["--class", c]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.stdout == fix_diff(example), example.note


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_every_rule_has_examples_codes_and_names(rule):
    assert rule.VALID and rule.INVALID
    assert lookup(rule.code) is rule and lookup(rule.name) is rule and lookup(rule.code.lower()) is rule
    assert [r.code for r in ALL_RULES].count(rule.code) == 1 and [r.name for r in ALL_RULES].count(rule.name) == 1


def test_the_analysis_rules_have_fix_examples():
    assert {r.code for r, _, _ in FIXES} >= {"DI001", "DI002", "DI003"}
