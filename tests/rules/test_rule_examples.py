"""Every rule's VALID / INVALID examples run as tests (Fixit's habit)."""

import pytest

from deadinit.api.check import run_check
from deadinit.model.settings import Settings
from deadinit.rules.registry import ALL_RULES, by_code_or_name

CASES = [(r, "valid", i, ex) for r in ALL_RULES for i, ex in enumerate(r.VALID)] + [
    (r, "invalid", i, ex) for r in ALL_RULES for i, ex in enumerate(r.INVALID)
]


@pytest.mark.parametrize("rule,kind,i,example", CASES, ids=[f"{r.code}-{k}-{i}" for r, k, i, _ in CASES])
def test_example(rule, kind, i, example, write_project):
    root = write_project(example.files)
    result = run_check([str(root)], Settings(select=(rule.code,)))
    got = sorted((f.code, f.cls.rsplit(".", 1)[-1], f.attribute) for f in result.findings)
    if kind == "valid":
        assert got == [], f"{rule.code} VALID example {i} ({example.note}) produced {got}"
    else:
        assert got == sorted(example.expect), f"{rule.code} INVALID example {i} ({example.note})"


def test_codes_and_names_unique():
    codes = [r.code for r in ALL_RULES]
    names = [r.name for r in ALL_RULES]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)
    for r in ALL_RULES:
        assert by_code_or_name(r.code) is r and by_code_or_name(r.name) is r


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_rule_doc_has_ruff_sections(rule):
    doc = rule.doc()
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety"):
        assert section in doc
    assert rule.VALID and rule.INVALID
