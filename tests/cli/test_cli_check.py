"""`deadinit check`: exit codes, output options, feedback, suppressions, pre-commit scoping."""

import json

import pytest
from sample_project import DI001_KEY, DI002_KEY, assert_one_line_error, invoke, sample


def _keys(res) -> set:
    return {f["key"] for f in json.loads(res.stdout)}


@pytest.fixture
def proj(write_project):
    return write_project(sample())


def test_exit_codes(proj, write_project, tmp_path):
    assert invoke(["check", "."], cwd=proj).exit_code == 1
    assert invoke(["check", ".", "--exit-zero"], cwd=proj).exit_code == 0
    assert invoke(["check", "pkg/other.py"], cwd=proj).exit_code == 0
    assert (
        invoke(["check", ".", "--exit-non-zero-on-fix", "--select", "DI001", "--ignore", "DI001"], cwd=proj).exit_code
        == 0
    )
    assert_one_line_error(invoke(["check", "does-not-exist"], cwd=proj), "path does not exist: does-not-exist")
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = invoke(["check", str(empty)])
    assert nothing.exit_code == 0 and "warning: no Python files" in nothing.stderr


def test_bad_format_is_usage_error(proj):
    res = invoke(["check", ".", "--format", "xml"], cwd=proj)
    assert res.exit_code == 2 and "Traceback" not in res.stderr


def test_output_file_and_formats(proj):
    res = invoke(["check", ".", "--format", "concise", "--output-file", "out/report.txt"], cwd=proj)
    assert res.exit_code == 1 and res.stdout == ""
    lines = (proj / "out" / "report.txt").read_text().splitlines()
    assert lines == [
        "pkg/base.py:11:9: DI001 `self.ws` (tensor) allocated by Parent.__init__ is overwritten by Child.__init__ (line 8) before any read",
        "pkg/base.py:12:9: DI002 `self.buf` (tensor) allocated by Parent.__init__ is never read by anything that can run on Child",
    ]
    text = invoke(["check", ".", "-o", "report.txt"], cwd=proj)
    assert text.stdout == "" and "\x1b[" not in (proj / "report.txt").read_text()
    assert "DI002" in (proj / "report.txt").read_text()


def test_quiet_prints_findings_only(proj):
    res = invoke(["check", ".", "--quiet"], cwd=proj)
    assert res.exit_code == 1
    assert "DI001" in res.stdout and "finding(s) in" not in res.stdout and "evidence" not in res.stdout
    full = invoke(["check", "."], cwd=proj)
    assert "finding(s) in 1 class(es)" in full.stdout and "evidence" in full.stdout


def test_statistics(proj):
    res = invoke(["check", ".", "--statistics"], cwd=proj)
    assert res.exit_code == 1
    assert "DI001" in res.stdout and "unread-parent-allocation" in res.stdout and "self.ws" not in res.stdout
    rows = json.loads(invoke(["check", ".", "--statistics", "--format", "json"], cwd=proj).stdout)
    assert {(r["code"], r["count"]) for r in rows} == {("DI001", 1), ("DI002", 1)}
    assert all(r["estimated_bytes"] > 0 for r in rows)


def test_color_options_and_no_color(proj):
    always = invoke(["check", ".", "--color", "always"], cwd=proj)
    assert "\x1b[" in always.stdout
    assert "\x1b[" not in invoke(["check", ".", "--color", "never"], cwd=proj).stdout
    assert "\x1b[" not in invoke(["check", "."], cwd=proj).stdout  # not a terminal
    forced = invoke(["check", "."], cwd=proj, env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[3" not in forced.stdout  # NO_COLOR: no colours even when forced to a terminal
    assert "\x1b[3" in invoke(["check", ".", "--color", "always"], cwd=proj, env={"NO_COLOR": "1"}).stdout


def test_no_progress_bar_when_not_a_tty(proj):
    res = invoke(["check", "."], cwd=proj)
    assert "summarising" not in res.stderr and "\r" not in res.stderr


def test_suppression_on_each_related_line(write_project, tmp_path):
    for where in ("ws", "cls", "overwrite"):
        root = write_project(sample(**{where: "  # deadinit: ignore[DI001]"}))
        assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI002_KEY}, where
    root = write_project(sample(cls="  # deadinit: ignore"))
    res = invoke(["check", ".", "--format", "json"], cwd=root)
    assert res.exit_code == 0 and _keys(res) == set()
    root = write_project(sample(buf="  # deadinit: ignore[unread-parent-allocation]"))
    assert _keys(invoke(["check", ".", "--format", "json"], cwd=root)) == {DI001_KEY}


def test_report_unused_ignores(write_project):
    root = write_project(
        sample(
            cls="  # deadinit: ignore[DI001, DI002, DI777]",
            extra={"pkg/other.py": "def helper():  # deadinit: ignore\n    return 1\n"},
        )
    )
    quiet = invoke(["check", ".", "--format", "json"], cwd=root)
    assert quiet.exit_code == 0 and _keys(quiet) == set()
    res = invoke(["check", ".", "--format", "concise", "--report-unused-ignores"], cwd=root)
    assert res.exit_code == 1
    assert res.stdout.splitlines() == [
        "pkg/child.py:5:23: DI100 suppression comment has unknown code(s) DI777",
        "pkg/other.py:1:16: DI100 unused suppression `# deadinit: ignore`: nothing is reported here",
    ]
    root = write_project(sample(ws="  # deadinit: ignore[DI001,DI002]"))
    res = invoke(["check", ".", "--format", "concise", "--report-unused-ignores"], cwd=root)
    assert "DI100 suppression comment has unused code(s) DI002" in res.stdout
    res = invoke(["check", ".", "--format", "concise", "--report-unused-ignores", "--ignore", "DI100"], cwd=root)
    assert "DI100" not in res.stdout


def test_project_scope_reports_only_findings_touching_the_files(proj):
    # the subclass's file: both findings (their subclass lies there)
    res = invoke(["check", "--project", ".", "--format", "json", "pkg/child.py"], cwd=proj)
    assert _keys(res) == {DI001_KEY, DI002_KEY}
    # the parent's file: a changed parent reports on its subclasses in other files
    assert _keys(invoke(["check", "--project", ".", "--format", "json", "pkg/base.py"], cwd=proj)) == {
        DI001_KEY,
        DI002_KEY,
    }
    res = invoke(["check", "--project", ".", "pkg/other.py"], cwd=proj)
    assert res.exit_code == 0
    assert_one_line_error(invoke(["check", "--project", ".", "gone.py"], cwd=proj), "gone.py")


def test_project_scope_drops_errors_in_other_files(write_project):
    root = write_project(sample(extra={"pkg/broken.py": "def (:\n"}))
    full = invoke(["check", "."], cwd=root)
    assert "pkg/broken.py" in full.stderr
    res = invoke(["check", "--project", ".", "pkg/other.py"], cwd=root)
    assert res.exit_code == 0 and "broken" not in res.stderr
