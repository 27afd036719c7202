"""Every bad input of issue 7: one line naming the file and the problem, everything else
analysed, no traceback, the documented exit code (0 clean, 1 findings, 2 nothing analysable).

``deadinit check -j 1`` parses in the deadinit process itself (a libcst crash would
kill it, not a worker); ``deadinit fix --diff`` summarises in worker processes.
"""

import re

import pytest
from bad_inputs import BAD_INPUTS
from robust_helpers import (
    CRASH_MARKERS,
    GOOD,
    GOOD_LINE,
    assert_no_crash,
    cli,
    count,
    error_lines,
    findings,
    found,
    write,
)

from deadinit.api.check import run_check
from deadinit.runtime.summarizer import ProjectSummarizer


def _project(tmp_path, case):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/good.py": GOOD})
    return case.build(tmp_path)


def _crashed(p) -> int:
    """1 when the run crashed (a traceback, a fatal error, an exit code deadinit never gives), else 0."""
    marked = any(marker in p.stderr or marker in p.stdout for marker in CRASH_MARKERS)
    return int(marked or p.returncode not in (0, 1, 2))


def _check_lines(stderr: str, rel: str, case) -> None:
    assert all(line.startswith("deadinit: ") for line in stderr.splitlines()), stderr  # nothing else, no wrapping
    errs = error_lines(stderr)
    mine = [e for e in errs if e.startswith(f"deadinit: error: {rel}: ")]
    assert [e for e in errs if e not in mine] == [], "errors about other files"
    if case.message is None:
        assert mine == [], mine
    else:
        assert len(mine) == 1 and re.search(case.message, mine[0]), (case.message, errs)


@pytest.mark.parametrize("case", BAD_INPUTS, ids=lambda c: c.name)
def test_check_names_the_input_and_analyses_the_rest(case, tmp_path):
    rel = _project(tmp_path, case)
    p = cli("check", "--no-cache", "-j", "1", "--format", "json", "pkg", cwd=tmp_path)
    count("bad inputs tried (check)")
    count("crashes (tracebacks) on bad inputs", _crashed(p))
    assert_no_crash(p)
    assert p.returncode == 1, p.stderr  # good.py's finding
    items = findings(p)
    assert found(items, "pkg/good.py", GOOD_LINE)
    for suffix, line in case.finds:
        assert found(items, suffix, line), (suffix, line, [(f["path"], f["line"]) for f in items])
    _check_lines(p.stderr, rel, case)


# ``fix --diff`` reads files as ``check`` does: a few kinds of bad input in the fast tier, all in the slow one
FIX_FAST = {"unterminated-string", "undecodable-bytes", "deep-brackets", "dangling-symlink", "crlf-line-endings"}


def _fix_cases() -> list:
    cases = [c for c in BAD_INPUTS if "10000" not in c.name]
    return [pytest.param(c, id=c.name, marks=() if c.name in FIX_FAST else pytest.mark.slow) for c in cases]


@pytest.mark.parametrize("case", _fix_cases())
def test_fix_diff_names_the_input_and_plans_the_rest(case, tmp_path):
    rel = _project(tmp_path, case)
    p = cli("fix", "--diff", "--quiet", "pkg", cwd=tmp_path)
    count("bad inputs tried (fix --diff)")
    count("crashes (tracebacks) on bad inputs", _crashed(p))
    assert_no_crash(p)
    assert p.returncode == 1, p.stderr  # the diff for good.py is not empty
    assert "+++ b/pkg/good.py" in p.stdout
    _check_lines(p.stderr, rel, case)


def test_deep_nesting_in_worker_processes(tmp_path):
    cases = [c for c in BAD_INPUTS if c.name.startswith("deep-")]
    write(tmp_path, {"pkg/__init__.py": "", "pkg/good.py": GOOD})
    rels = [c.build(tmp_path) for c in cases]
    p = cli("check", "--no-cache", "-j", "2", "--format", "json", "pkg", cwd=tmp_path)
    assert_no_crash(p)
    assert p.returncode == 1 and found(findings(p), "pkg/good.py", GOOD_LINE)
    errs = error_lines(p.stderr)
    assert sorted(e.split(": ")[2] for e in errs) == sorted(rels)
    assert all("nesting too deep" in e for e in errs)


def test_nothing_analysable_exits_2_and_names_every_file(tmp_path):
    write(tmp_path, {"pkg/a.py": b'print "x"\n', "pkg/b.py": b"x = (\n", "pkg/c.py": b"\xff\xfe\n"})
    p = cli("check", "--no-cache", "pkg", cwd=tmp_path)
    assert_no_crash(p)
    assert p.returncode == 2
    assert sorted(e.split(": ")[2] for e in error_lines(p.stderr)) == ["pkg/a.py", "pkg/b.py", "pkg/c.py"]


def test_only_a_too_large_file_says_why_and_exits_2(tmp_path):
    write(tmp_path, {"big.py": "x = 1\n" * 10, "pyproject.toml": "[tool.deadinit]\nmax-file-size = 20\n"})
    p = cli("check", "--no-cache", "big.py", cwd=tmp_path)
    assert_no_crash(p)
    assert p.returncode == 2
    assert error_lines(p.stderr) == [
        "deadinit: error: big.py: 60 bytes is larger than max-file-size (20 bytes), skipped",
        "deadinit: error: no Python files found in big.py",
    ]


@pytest.mark.parametrize("summarizer", [None, ProjectSummarizer(jobs=1, use_cache=False)], ids=["stock", "pipeline"])
def test_file_that_disappears_between_discovery_and_reading(tmp_path, monkeypatch, summarizer):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/good.py": GOOD, "pkg/vanish.py": GOOD})
    monkeypatch.chdir(tmp_path)
    import deadinit.session.discovery as discovery  # discovery's one place

    real = discovery.discover

    def discover_then_delete(*a, **kw):
        out = real(*a, **kw)
        (tmp_path / "pkg/vanish.py").unlink()
        return out

    monkeypatch.setattr(discovery, "discover", discover_then_delete)
    res = run_check(["pkg"], summarizer=summarizer)
    assert res.errors == ["pkg/vanish.py: disappeared before it could be read"]
    assert [(f.path, f.line) for f in res.findings] == [("pkg/good.py", GOOD_LINE)]
