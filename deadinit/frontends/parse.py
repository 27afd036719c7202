"""Read and parse one file into a ``FileSummary``; every failure is a one-line ``FileError``.

CPython's own parser (C, about a tenth of libcst's time) reads every file first:
libcst's native parser overflows the C stack (the process dies) on nesting that
CPython refuses with an error (thousands of brackets, unary operators, chained
operators), and it is slow (quadratic) on nesting CPython still accepts.  A file
CPython refuses for its nesting is reported without being handed to libcst; for any
other CPython refusal (a syntax error, or syntax newer than this Python) libcst
parses in a thread with a large stack, and when libcst fails too CPython's message
(clearer than libcst's) is the one shown.
"""

from __future__ import annotations

import ast
import gc
import threading
import warnings
from dataclasses import dataclass

import libcst as cst

from deadinit.frontends.cst_visitor import summarize_module
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary


@dataclass(frozen=True)
class FileError:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


_DEEP = ("too many nested", "too complex", "too many levels of indentation", "too deeply nested")
_BIG_STACK = 256 * 1024 * 1024


@dataclass(frozen=True)
class Refusal:
    """Why CPython's parser rejects a source: ``deep`` when for its nesting."""

    message: str
    deep: bool


def python_refusal(source: bytes) -> Refusal | None:
    """None when CPython parses ``source``, else its (one-line) reason."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc.: not ours to report
            ast.parse(source)
        return None
    except (RecursionError, MemoryError):
        return Refusal("cannot parse: nesting too deep (Python cannot compile it either)", True)
    except SyntaxError as e:
        msg = _one_line(e.msg or "invalid syntax")
        if any(k in msg for k in _DEEP):
            return Refusal(f"cannot parse: nesting too deep (Python: {msg})", True)
        where = f" at line {e.lineno}, column {e.offset or 0}" if e.lineno else ""
        return Refusal(f"syntax error{where}: {msg}", False)
    except ValueError as e:  # NUL bytes on older Pythons
        return Refusal(f"cannot parse: {_one_line(str(e))}", False)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _parse_big_stack(source: bytes) -> cst.Module:
    """``cst.parse_module`` in a thread with a large stack (virtual: only what is used is touched)."""
    box: dict = {}

    def run() -> None:
        try:
            box["tree"] = cst.parse_module(source)
        except BaseException as e:
            box["error"] = e

    try:
        old = threading.stack_size(_BIG_STACK)
        try:
            t = threading.Thread(target=run, name="deadinit-parse", daemon=True)
        finally:
            threading.stack_size(old)
        t.start()
        t.join()
    except (RuntimeError, ValueError, MemoryError):  # no such stack here: parse in place
        return cst.parse_module(source)
    if "error" in box:
        raise box["error"]
    return box["tree"]


def summarize_source(
    source: bytes, path: str, module: str, is_package: bool, settings: Settings
) -> FileSummary | FileError:
    refusal = python_refusal(source)
    if refusal is not None and refusal.deep:
        return FileError(path, refusal.message)
    try:
        tree = _parse_big_stack(source) if refusal is not None else cst.parse_module(source)
    except cst.ParserSyntaxError as e:
        if refusal is not None:
            return FileError(path, refusal.message)
        return FileError(path, f"syntax error at line {e.raw_line}, column {e.raw_column}: {_one_line(e.message)}")
    except UnicodeDecodeError as e:
        return FileError(path, refusal.message if refusal else f"cannot decode: {e.reason} at byte {e.start}")
    except (LookupError, SyntaxError, ValueError) as e:  # bad coding cookie, NUL bytes...
        if refusal is not None:
            return FileError(path, refusal.message)
        return FileError(path, f"cannot parse: {_one_line(str(e)) if str(e) else type(e).__name__}")
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
