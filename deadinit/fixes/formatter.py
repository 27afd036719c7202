"""Lay out what a fix changed the way the project's formatter would.

**Which formatter and which line length** come from the project's configuration, found by walking
up from the rewritten file the way the formatters look for it: ``.ruff.toml`` / ``ruff.toml``, or a
``pyproject.toml`` with ``[tool.ruff]`` (ruff), or one with ``[tool.black]`` (black); none found:
black's style at 88 columns, which ruff's formatter shares.

**Formatting** touches only the lines a fix changed (the new file's changed hunks, bottom up, so the
line numbers of those above stay right): ``ruff format --range`` (ruff reads the project's own
configuration from the file's path; for black's settings it is told them), or black's own
``lines=`` when the project names black and black is importable.  Both are optional
(``pip install 'deadinit[format]'``): without either, the rewrite keeps the layout the strategies
give it (``skip_flag.layout``: a grown signature or call split the way black would, at the
configured line length).  A formatted file that no longer passes ``safety.check_file`` (the
formatter reached lines the fix does not edit), or a formatter that fails, leaves the file as the
strategy wrote it.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from deadinit.frontends.parse import source_encoding
from deadinit.model.kinds import FormatterKind

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_LINE_LENGTH = 88
TIMEOUT_S = 30


@dataclass(frozen=True)
class FormatStyle:
    kind: FormatterKind = FormatterKind.DEFAULT
    line_length: int = DEFAULT_LINE_LENGTH
    config: str | None = None  # the file it was read from
    keep_quotes: bool = False  # black's skip-string-normalization / ruff's quote-style = "preserve"
    skip_magic_trailing_comma: bool = False


def style_for(path: str) -> FormatStyle:
    """The formatting the project of ``path`` is configured with."""
    return _style_in(str(Path(path).resolve().parent))


@lru_cache(maxsize=256)
def _style_in(folder: str) -> FormatStyle:
    for name in (".ruff.toml", "ruff.toml"):
        f = os.path.join(folder, name)
        if os.path.isfile(f):
            return _ruff_style(_load(f), f)
    f = os.path.join(folder, "pyproject.toml")
    table = _load(f) if os.path.isfile(f) else {}
    tool = table.get("tool", {}) if isinstance(table.get("tool"), dict) else {}
    if isinstance(tool.get("ruff"), dict):
        return _ruff_style(tool["ruff"], f)
    if isinstance(tool.get("black"), dict):
        black = tool["black"]
        return FormatStyle(
            FormatterKind.BLACK,
            _length(black.get("line-length", black.get("line_length"))),
            f,
            bool(black.get("skip-string-normalization", black.get("skip_string_normalization", False))),
            bool(black.get("skip-magic-trailing-comma", black.get("skip_magic_trailing_comma", False))),
        )
    parent = os.path.dirname(folder)
    return FormatStyle() if parent == folder else _style_in(parent)


TomlTable = dict[str, Any]  # a table of a TOML file, as the reader gives it


def _load(path: str) -> TomlTable:
    try:
        with open(path, "rb") as f:
            table: TomlTable = tomllib.load(f)
            return table
    except (OSError, tomllib.TOMLDecodeError):
        return {}  # a file the formatter could not read either: its defaults


def _ruff_style(table: TomlTable, path: str) -> FormatStyle:
    fmt = table.get("format", {}) if isinstance(table.get("format"), dict) else {}
    return FormatStyle(
        FormatterKind.RUFF,
        _length(table.get("line-length")),
        path,
        fmt.get("quote-style") == "preserve",
        bool(fmt.get("skip-magic-trailing-comma", False)),
    )


def _length(value: object) -> int:
    return value if isinstance(value, int) and 1 <= value <= 320 else DEFAULT_LINE_LENGTH


# -- formatting the changed lines ------------------------------------------------------------------
def changed_lines(old: str, new: str) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of ``new`` that differ from ``old``, top to bottom."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    out: list[tuple[int, int]] = []
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert") and j2 > j1:
            out.append((j1 + 1, j2))
    return out


def format_changes(path: str, old: bytes, new: bytes, style: FormatStyle | None = None) -> bytes | None:
    """``new`` with the lines it changes from ``old`` formatted; None when no formatter is at hand,
    one failed, or the file's encoding cannot be read."""
    style = style or style_for(path)
    enc = source_encoding(new)
    if enc is None:
        return None
    try:
        text, before = new.decode(enc), old.decode(enc)
    except (UnicodeDecodeError, LookupError):
        return None
    ranges = changed_lines(before, text)
    if not ranges:
        return new
    black = _black() if style.kind == FormatterKind.BLACK else None
    if black is not None:
        out = _with_black(black, text, ranges, style)
    else:
        ruff = ruff_binary()
        out = _with_ruff(ruff, path, text, ranges, style) if ruff else None
    if out is None:
        return None
    try:
        return out.encode(enc)
    except UnicodeEncodeError:
        return None


def ruff_binary() -> str | None:
    try:
        from ruff.__main__ import find_ruff_bin  # noqa: PLC0415 - optional: the `format` extra

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        return shutil.which("ruff")


def _black() -> ModuleType | None:
    try:
        import black  # noqa: PLC0415 - optional: the `format` extra, for projects that name black
    except ImportError:
        return None
    return black


def _with_ruff(ruff: str, path: str, text: str, ranges: list[tuple[int, int]], style: FormatStyle) -> str | None:
    args = [ruff, "format", "--stdin-filename", path]
    if style.kind != FormatterKind.RUFF:  # black's settings, or the defaults: not the project's ruff
        args += ["--isolated", "--line-length", str(style.line_length)]
        if style.keep_quotes:
            args += ["--config", "format.quote-style='preserve'"]
        if style.skip_magic_trailing_comma:
            args += ["--config", "format.skip-magic-trailing-comma=true"]
    for first, last in reversed(ranges):
        try:
            p = subprocess.run(
                [*args, f"--range={first}-{last + 1}", "-"],
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if p.returncode != 0:
            return None
        text = p.stdout.decode("utf-8")
    return text


def _with_black(black: ModuleType, text: str, ranges: list[tuple[int, int]], style: FormatStyle) -> str | None:
    mode = black.Mode(
        line_length=style.line_length,
        string_normalization=not style.keep_quotes,
        magic_trailing_comma=not style.skip_magic_trailing_comma,
    )
    try:
        formatted: str = black.format_file_contents(text, fast=False, mode=mode, lines=ranges)
        return formatted
    except black.NothingChanged:
        return text
    except Exception:  # black's own errors (InvalidInput, ASTSafetyError...): leave the file as written
        return None
