"""fixes.formatter: the project's formatter and line length, and the changed lines laid out with it."""

import subprocess
import sys
import textwrap

import pytest

from deadinit.api.check import run_check
from deadinit.fixes import formatter
from deadinit.fixes.driver import run_fix
from deadinit.fixes.formatter import FormatStyle, changed_lines, format_changes, ruff_binary, style_for
from deadinit.model.fix import FixOptions
from deadinit.model.kinds import FormatterKind

PARENT = """\
import torch


class Backend:
    def __init__(self, device, max_bs):
        self.device = device
        self.max_bs = max_bs
        self.workspace_buffer = torch.empty((max_bs * 1024 * 1024,), dtype=torch.uint8, device=device)

    def forward(self, x):
        return x + self.workspace_buffer[0]


class LeanBackend(Backend):
    def __init__(self, device, max_bs):
        super().__init__(device, max_bs)

    def forward(self, x):
        return x * self.max_bs
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text))
    return p


def test_style_from_the_nearest_configuration(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.black]\nline-length = 100\nskip-string-normalization = true\n")
    write(tmp_path, "sub/ruff.toml", "line-length = 99\n[format]\nquote-style = 'preserve'\n")
    write(tmp_path, "other/pyproject.toml", "[project]\nname = 'x'\n")  # no formatter: the next one up
    write(tmp_path, "deep/pyproject.toml", "[tool.ruff]\nline-length = 120\n")
    assert style_for(str(tmp_path / "a.py")) == FormatStyle(
        FormatterKind.BLACK, 100, str(tmp_path / "pyproject.toml"), keep_quotes=True
    )
    assert style_for(str(tmp_path / "sub/a.py")) == FormatStyle(
        FormatterKind.RUFF, 99, str(tmp_path / "sub/ruff.toml"), keep_quotes=True
    )
    assert style_for(str(tmp_path / "other/a.py")).kind == FormatterKind.BLACK
    assert style_for(str(tmp_path / "deep/x/a.py")) == FormatStyle(
        FormatterKind.RUFF, 120, str(tmp_path / "deep/pyproject.toml")
    )


def test_no_configuration_is_black_style_at_88(tmp_path):
    formatter._style_in.cache_clear()
    assert style_for(str(tmp_path / "a.py")) == FormatStyle()


def test_changed_lines():
    assert changed_lines("a\nb\nc\n", "a\nB\nc\nd\n") == [(2, 2), (4, 4)]
    assert changed_lines("a\nb\n", "b\n") == []  # a deletion leaves nothing to lay out


@pytest.mark.skipif(ruff_binary() is None, reason="ruff is not installed")
def test_only_the_changed_lines_are_formatted(tmp_path):
    old = "x = {'a':1}\ndef f(a,b):\n    return a\n"
    new = "x = {'a':1}\ndef f(a,b, skip_init_a_very_long_name_indeed_to_pass_the_limit: bool = False, more=1):\n    return a\n"
    got = format_changes(str(tmp_path / "m.py"), old.encode(), new.encode(), FormatStyle(line_length=60))
    assert got.decode().startswith("x = {'a':1}\ndef f(\n    a,\n    b,\n")  # the untouched line keeps its quotes


def fixed(tmp_path):
    out = run_fix(run_check([str(tmp_path)]), "skip-flag", FixOptions())
    assert out.written and not out.rejected
    return (tmp_path / "m.py").read_text()


def formatter_diff_lines(path, cmd) -> int:
    p = subprocess.run([*cmd, "--diff", str(path)], capture_output=True, text=True, check=False)
    return sum(1 for ln in p.stdout.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---"))


@pytest.mark.skipif(ruff_binary() is None, reason="ruff is not installed")
def test_ruff_project_rewrite_passes_its_formatter(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    write(tmp_path, "m.py", PARENT)
    before = formatter_diff_lines(tmp_path / "m.py", [ruff_binary(), "format"])
    text = fixed(tmp_path)
    assert "            self.workspace_buffer = torch.empty(\n" in text  # wrapped at 100 columns
    assert formatter_diff_lines(tmp_path / "m.py", [ruff_binary(), "format"]) <= before


def test_black_project_rewrite_passes_black(tmp_path):
    pytest.importorskip("black")
    write(tmp_path, "pyproject.toml", "[tool.black]\nline-length = 100\n")
    write(tmp_path, "m.py", PARENT)
    black = [sys.executable, "-m", "black", "-q"]
    before = formatter_diff_lines(tmp_path / "m.py", black)
    assert before > 0  # the 104-column line
    text = fixed(tmp_path)
    assert "            self.workspace_buffer = torch.empty(\n" in text
    assert formatter_diff_lines(tmp_path / "m.py", black) < before


def test_without_a_formatter_the_strategy_layout_stays(tmp_path, monkeypatch):
    monkeypatch.setattr(formatter, "ruff_binary", lambda: None)
    monkeypatch.setattr(formatter, "_black", lambda: None)
    write(tmp_path, "m.py", PARENT)
    text = fixed(tmp_path)
    assert (
        "            self.workspace_buffer = torch.empty((max_bs * 1024 * 1024,), dtype=torch.uint8, device=device)\n"
        in text
    )


def test_a_failing_formatter_leaves_the_rewrite(tmp_path, monkeypatch):
    monkeypatch.setattr(formatter, "ruff_binary", lambda: str(tmp_path / "no-such-ruff"))
    write(tmp_path, "m.py", PARENT)
    assert "if not skip_init_workspace_buffer:" in fixed(tmp_path)
