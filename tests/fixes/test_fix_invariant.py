"""The promise of ``safe`` (issue 32): a plain ``deadinit fix`` removes every finding the analysis
classes ``safe``, and every finding it leaves says why in the words ``fix`` printed for it.

Run on a copy of the fixtures through the production path (``production_path``); the corpus
test over sglang is ``tests/acceptance/test_fix_invariant_sglang.py``.
"""

from __future__ import annotations

import re

from incremental_runs import copy_fixtures, full_run
from production_path import fix_run

from deadinit.fixes.driver import FixOutcome
from deadinit.model.kinds import FixSafety
from deadinit.model.result import CheckResult


def broken_promises(after: CheckResult, outcome: FixOutcome) -> tuple[list[str], list[str]]:
    """After ``outcome`` (a plain fix), with ``after`` the check of the rewritten tree: the safe
    findings still reported, and the findings whose reason differs from what the fix printed."""
    printed = {key: r.reason for r in outcome.refusals for key in r.findings}
    safe_left = [f.key for f in after.findings if promised(f)]
    differ = [
        f"{f.key}: check says {f.fix_text!r}, fix said {printed.get(f.key)!r}"
        for f in after.findings
        if f.fix_text and f.key in printed and not _lineless(printed[f.key]).startswith(_lineless(f.fix_text))
    ]
    return safe_left, differ


def promised(f) -> bool:
    """Safe and worth it: a plain fix must remove it (``analysis.fix_safety.worth`` defers the others, saying so)."""
    return f.fix_safety == FixSafety.SAFE and f.verdict is not None and not f.verdict.deferred


def _lineless(reason: str) -> str:
    """The reason without its line numbers: the fix's other rewrites move the lines it names."""
    return re.sub(r"line \d+", "line N", reason)


def test_a_plain_fix_removes_every_safe_finding_of_the_fixtures(tmp_path):
    root = copy_fixtures(tmp_path)
    before = full_run(root)
    safe = [f.key for f in before.findings if promised(f)]
    assert len(safe) >= 40  # the fixtures hold that many: the test is not vacuous
    outcome = fix_run([str(root)], "skip-flag", tmp_path / "cache")
    assert outcome.error is None
    safe_left, differ = broken_promises(full_run(root), outcome)
    assert safe_left == []
    assert differ == [], "\n".join(differ)
