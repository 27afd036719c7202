"""A plain ``deadinit fix --strategy skip-flag`` on the whole of sglang 0.5.20 and 0.5.23 (nothing
written): no safe finding worth its parameter survives it, and every finding it leaves gives the
reason fix printed (``test_fix_invariant``, checked on the fix's re-analysis of the rewritten
tree); no guard with identical branches or over statements that allocate nothing in any
rewritten file, and every rewritten file no less clean under the formatter than it was
(ruff's formatter at the defaults: sglang's sources carry no formatter configuration)."""

import fcntl

import pytest
from corpus_paths import sglang_tree
from production_path import fix_run
from rewritten_syntax import formatter_diff_lines, guard_problems
from test_fix_invariant import broken_promises

from deadinit.fixes.formatter import ruff_binary

pytestmark = [pytest.mark.corpus, pytest.mark.slow]


@pytest.fixture(scope="module", params=["0.5.20", "0.5.23"])
def plain_fix(request, session_cache):
    tree = sglang_tree(request.param)
    with open(session_cache / f"sglang-{request.param}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return fix_run([str(tree)], "skip-flag", session_cache, write=False)


def test_no_safe_finding_survives_and_every_reason_is_the_one_fix_printed(plain_fix):
    assert plain_fix.after is not None and len(plain_fix.plan.changes) >= 10
    safe_left, differ = broken_promises(plain_fix.after, plain_fix)
    assert safe_left == []
    assert differ == [], "\n".join(differ)


def test_no_empty_or_identical_guards(plain_fix):
    assert plain_fix.plan.files
    flags = {c.flag for c in plain_fix.plan.changes if c.flag}
    problems = [p for fp in plain_fix.plan.files for p in guard_problems(fp.path, fp.new, flags)]
    assert not problems


@pytest.mark.skipif(ruff_binary() is None, reason="ruff is not installed")
def test_rewritten_files_no_less_clean_under_the_formatter(plain_fix):
    worse = []
    for fp in plain_fix.plan.files:
        before, after = formatter_diff_lines(fp.path, fp.old), formatter_diff_lines(fp.path, fp.new)
        if after > before:
            worse.append(f"{fp.path}: {before} -> {after} lines the formatter would change")
    assert not worse
