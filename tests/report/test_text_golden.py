"""Golden files of the default text report on the fixtures' backends: on an 80- and a 200-column
terminal and piped. A finding is a few lines (where, code, message and size; the decisive step of
its evidence; the fix), broken only between words on a terminal and never off one.

Regenerate after an intended change with ``DEADINIT_UPDATE_GOLDEN=1 python -m pytest tests`` (the one
switch for every golden file) and review the diff.
"""

import os

import pytest
from corpus_paths import REPO
from sample_project import invoke

GOLDEN = REPO / "tests" / "golden" / "text"
TERMINAL = {"TTY_COMPATIBLE": "1", "FORCE_COLOR": "1"}  # rich takes the output for a terminal
LAYOUTS = {"80": {**TERMINAL, "COLUMNS": "80"}, "200": {**TERMINAL, "COLUMNS": "200"}, "piped": {"COLUMNS": "80"}}


def _report(env) -> str:
    res = invoke(["check", "fixtures/backends", "--no-cache", "--color", "never"], cwd=REPO, env=env)
    assert res.exit_code == 1, res.stderr
    return res.stdout


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_text_report_matches_its_golden_file(layout):
    got = _report(LAYOUTS[layout])
    golden = GOLDEN / f"backends_{layout}.txt"
    if os.environ.get("DEADINIT_UPDATE_GOLDEN"):
        golden.write_text(got)
    assert got == golden.read_text(), f"{golden.name} is stale: DEADINIT_UPDATE_GOLDEN=1 and review the diff"


def _unbroken(lines: list[str]) -> list[str]:
    """A terminal's lines joined back: a continuation is indented 4 more than the line it continues."""
    out: list[str] = []
    for ln in lines:
        if len(ln) - len(ln.lstrip(" ")) >= 4:
            out[-1] += " " + ln.lstrip(" ")
        else:
            out.append(ln)
    return out


@pytest.mark.parametrize("width", ["80", "200"])
def test_a_terminal_breaks_the_piped_lines_between_words_at_its_width(width):
    lines = _report(LAYOUTS[width]).splitlines()
    assert all(len(ln) <= int(width) or " " not in ln.strip() for ln in lines)
    assert _unbroken(lines) == _report(LAYOUTS["piped"]).splitlines()


def test_piped_a_finding_is_three_lines_and_the_summary_two():
    lines = _report(LAYOUTS["piped"]).splitlines()
    heads = [i for i, ln in enumerate(lines) if ": DI0" in ln and not ln.startswith(" ")]
    assert heads and len(lines) == 3 * len(heads) + 2
    for i in heads:
        assert lines[i + 1].startswith("  because: ") and lines[i + 2].startswith(("  fix: ", "  no automatic fix: "))
    assert lines[-1].startswith("each finding's whole evidence chain: `deadinit explain CLASS`")


def test_statistics_keep_rule_names_whole_at_80_columns():
    res = invoke(["check", "fixtures", "--statistics", "--no-cache", "--color", "never"], cwd=REPO, env=LAYOUTS["80"])
    assert "overwritten-parent-allocation " in res.stdout and "unread-parent-allocation " in res.stdout
    assert "…" not in res.stdout.split("estimated waste")[0]


def test_the_fix_commands_the_report_names_run():
    commands = {
        ln.split("fix: ", 1)[1].split("  (")[0]
        for ln in _report(LAYOUTS["piped"]).splitlines()
        if ln.startswith("  fix: ")
    }
    assert commands
    for command in sorted(commands)[:4]:  # the --class names resolve, the options exist
        args = command.split()[1:]
        res = invoke([*args, "--diff", "fixtures"], cwd=REPO)
        assert res.exit_code in (0, 1), (command, res.stderr)
        assert res.stdout.startswith("---"), (command, res.stdout[:200])


def test_a_stored_result_prints_the_same_report(tmp_path):
    """A warm run's result keeps only a little of the index: the names --class takes are the same."""
    cache = ["--cache-dir", str(tmp_path / "cache")]
    runs = [invoke(["check", "fixtures", "--color", "never", *cache], cwd=REPO).stdout for _ in range(2)]
    assert runs[0] == runs[1] and "--class draft.TinyDecoderLayer" in runs[1]
