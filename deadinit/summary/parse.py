"""Read and parse one file into a ``FileSummary``; every failure is a one-line ``FileError``."""

from __future__ import annotations

import gc
from dataclasses import dataclass

import libcst as cst

from deadinit.settings import Settings
from deadinit.summary.model import FileSummary
from deadinit.summary.visitor import summarize_module


@dataclass(frozen=True)
class FileError:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def summarize_source(source: bytes, path: str, module: str, is_package: bool, settings: Settings) -> FileSummary | FileError:
    try:
        tree = cst.parse_module(source)
    except cst.ParserSyntaxError as e:
        return FileError(path, f"syntax error at line {e.raw_line}, column {e.raw_column}: {e.message}")
    except UnicodeDecodeError as e:
        return FileError(path, f"cannot decode: {e.reason} at byte {e.start}")
    except (LookupError, SyntaxError, ValueError) as e:  # bad coding cookie, NUL bytes...
        return FileError(path, f"cannot parse: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    except RecursionError:
        return FileError(path, "cannot parse: nesting too deep")
    try:
        return summarize_module(tree, path, module, is_package, settings, source)
    except RecursionError:
        return FileError(path, "cannot analyse: nesting too deep")


def summarize_file(path: str, module: str, is_package: bool, settings: Settings) -> FileSummary | FileError:
    try:
        with open(path, "rb") as f:
            source = f.read()
    except IsADirectoryError:
        return FileError(path, "is a directory, not a file")
    except FileNotFoundError:
        return FileError(path, "disappeared before it could be read")
    except PermissionError:
        return FileError(path, "cannot read: permission denied")
    except OSError as e:
        return FileError(path, f"cannot read: {e.strerror or e}")
    return summarize_source(source, path, module, is_package, settings)


def summarize_many(items, settings: Settings):
    """Summarise (path, module, is_package) items in this process with gc paused."""
    was = gc.isenabled()
    gc.disable()
    try:
        return [summarize_file(p, m, pkg, settings) for p, m, pkg in items]
    finally:
        if was:
            gc.enable()
