"""Consoles (colour, NO_COLOR, TTY), output files, one-line errors and exit codes shared by commands."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import click

from deadinit.api.errors import UsageError
from deadinit.api.process import write_atomically

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "LazyConsole", "UsageError", "fail", "make_console"]

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def make_console(color: str = "auto", stderr: bool = False, file: TextIO | None = None) -> Console:
    """``color``: auto (TTY and NO_COLOR/FORCE_COLOR decide), always, never."""
    from rich.console import Console  # noqa: PLC0415 - rich loads when a console is made (``LazyConsole``)

    # emoji=False: a path or a name that reads like ``:name:`` is printed as it is (and rich's ~2 ms
    # emoji table never loads)
    kw = dict(highlight=False, soft_wrap=False, stderr=stderr, emoji=False)
    if file is not None:
        kw["file"] = file
    if color == "always":
        return Console(force_terminal=True, no_color=False, color_system="standard", **kw)
    if color == "never":
        return Console(no_color=True, color_system=None, **kw)
    if file is not None and file not in (sys.stdout, sys.stderr):
        return Console(color_system=None, **kw)
    return Console(**kw)


class LazyConsole:
    """``make_console(*args, **kwargs)``, made when first used: a machine-readable run with nothing
    to say on stderr never imports rich (~25 ms)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._made: Console | None = None
        self._how = (args, kwargs)

    def made(self) -> Console:
        if self._made is None:
            args, kwargs = self._how
            self._made = make_console(*args, **kwargs)
        return self._made

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)


def fail(message: str) -> NoReturn:
    """Print ``deadinit: error: message`` on stderr and exit 2 (no traceback)."""
    click.echo(f"deadinit: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


@contextmanager
def output_stream(output_file: str | None) -> Iterator[TextIO]:
    """stdout, or ``--output-file`` (folders created; written whole at the end, or not at all)."""
    if not output_file:
        yield sys.stdout
        return
    buffer = io.StringIO()
    yield buffer
    write_file(output_file, buffer.getvalue(), "output file")


def write_file(path: str, text: str, what: str) -> None:
    """``text`` into ``path`` whole (folders created): a reader or an interrupted run sees the old file
    or the new one; a failure is a ``UsageError`` naming ``what``."""
    target = os.path.realpath(path)  # through a symlink, as other tools write
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            # /dev/null, a FIFO, a terminal: written into, never replaced by a file
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
            return
        os.makedirs(os.path.dirname(target), exist_ok=True)
        write_atomically(Path(target), text.encode("utf-8"))
    except OSError as e:
        raise UsageError(f"cannot write {what} {path}: {e.strerror or e}") from None


def exit_code(findings: int, exit_zero: bool = False, fixed: int = 0, exit_non_zero_on_fix: bool = False) -> int:
    """ruff's rules: findings -> 1; ``--exit-zero`` -> 0 whatever was found;
    ``--exit-non-zero-on-fix`` -> 1 when a fix changed files, even if nothing remains."""
    if exit_zero:
        return EXIT_CLEAN
    if findings or (exit_non_zero_on_fix and fixed):
        return EXIT_FINDINGS
    return EXIT_CLEAN
