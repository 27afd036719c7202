"""Read and parse one file into a ``FileSummary``; every failure is a one-line ``FileError``.

CPython's parser reads every file first.  With the ``ast`` adapter (``check``'s
default) that tree is the one summarised.  libcst's native parser overflows the C
stack on nesting CPython refuses with an error, so such a file is reported without
being handed to libcst; for any other CPython refusal (a syntax error, or syntax
newer than this Python) libcst parses in a thread with a large stack, and when
libcst fails too CPython's message (clearer than libcst's) is the one shown.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import itertools
import re
import threading
import tokenize
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

from deadinit.frontends import ast_adapter
from deadinit.frontends.generated import generated_header
from deadinit.frontends.source_file import LINE_END, read_source
from deadinit.model.file_error import FileError
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.semantics import syntax as sx
from deadinit.semantics.summary.builder import SummaryBuilder

_DEEP = ("too many nested", "too complex", "too many levels of indentation", "too deeply nested")
_BIG_STACK = 256 * 1024 * 1024


@dataclass(frozen=True)
class Refusal:
    """Why CPython's parser rejects a source: ``deep`` when for its nesting."""

    message: str
    deep: bool
    line: int | None = None
    column: int | None = None

    def error(self, path: str) -> FileError:
        return FileError(path, self.message, line=self.line, column=self.column)


def python_parse(source: bytes) -> tuple[ast.Module | None, Refusal | None]:
    """CPython's tree of ``source``, or its (one-line) reason for refusing it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc.: not ours to report
            return ast.parse(source), None
    except (RecursionError, MemoryError):
        return None, Refusal("cannot parse: nesting too deep (Python cannot compile it either)", True)
    except SyntaxError as e:
        msg = _one_line(e.msg or "invalid syntax")
        if any(k in msg for k in _DEEP):
            return None, Refusal(f"cannot parse: nesting too deep (Python: {msg})", True)
        where = f" at line {e.lineno}, column {e.offset or 0}" if e.lineno else ""
        return None, Refusal(f"syntax error{where}: {msg}", False, e.lineno, e.offset if e.lineno else None)
    except ValueError as e:  # NUL bytes on older Pythons
        return None, Refusal(f"cannot parse: {_one_line(str(e))}", False)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _declared_encoding(data: bytes) -> str:
    """``tokenize.detect_encoding`` of ``data``, over its first two lines as CPython splits them
    (``io.BytesIO.readline`` ends a line at "\n" only: a file of lone "\r" line ends is one line)."""
    starts = [0]
    for end in LINE_END.finditer(data):
        starts.append(end.end())
        if len(starts) == 3:
            break
    else:
        starts.append(len(data))
    read = iter([data[a:b] for a, b in itertools.pairwise(starts) if b > a])
    encoding, _ = tokenize.detect_encoding(lambda: next(read, b""))
    return encoding


def decode(source: bytes) -> str:
    """The text CPython reads (coding cookie or BOM honoured, the BOM itself left out)."""
    text = source.decode(_declared_encoding(source))
    return text[1:] if text.startswith("\ufeff") else text


def source_encoding(data: bytes) -> str | None:
    """The encoding Python reads ``data`` in (coding cookie, BOM, else utf-8), None when unreadable."""
    try:
        encoding = _declared_encoding(data)
    except SyntaxError:
        return None
    return "utf-8" if encoding == "utf-8-sig" else encoding


def _parse_big_stack(source: bytes):
    """``cst.parse_module`` in a thread with a large stack (virtual: only what is used is touched)."""
    import libcst as cst  # noqa: PLC0415 - libcst loads only for ``fix`` and for syntax CPython refuses

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


def syntax_of(source: bytes, path: str, adapter: str = "ast") -> tuple[sx.Module, object] | FileError:
    """The syntax tree of ``source`` and the expression parser for string annotations."""
    tree, refusal = python_parse(source)
    if refusal is not None and refusal.deep:
        return refusal.error(path)
    if adapter == "ast" and tree is not None:
        try:
            text = decode(source)
        except (LookupError, SyntaxError, UnicodeDecodeError) as e:
            return FileError(path, f"cannot decode: {_one_line(str(e))}")
        return ast_adapter.to_syntax(tree, text), ast_adapter.parse_expression
    return _cst_syntax(source, path, refusal)


def _cst_syntax(source: bytes, path: str, refusal: Refusal | None):
    import libcst as cst  # noqa: PLC0415 - libcst loads only for ``fix`` and for syntax CPython refuses

    from deadinit.frontends import cst_adapter  # noqa: PLC0415 - imports libcst

    read: bytes | str = source
    if refusal is None:  # CPython read it: its text, libcst does not look for the coding cookie again
        with contextlib.suppress(LookupError, SyntaxError, UnicodeDecodeError):
            read = decode(source)
    try:
        module = _parse_big_stack(source) if refusal is not None else cst.parse_module(read)
    except cst.ParserSyntaxError as e:
        if refusal is not None:
            return refusal.error(path)
        where = f"line {e.raw_line}, column {e.raw_column}"
        return FileError(path, f"syntax error at {where}: {_one_line(e.message)}", line=e.raw_line, column=e.raw_column)
    except UnicodeDecodeError as e:
        return refusal.error(path) if refusal else FileError(path, f"cannot decode: {e.reason} at byte {e.start}")
    except (LookupError, SyntaxError, ValueError) as e:  # bad coding cookie, NUL bytes...
        if refusal is not None:
            return refusal.error(path)
        return FileError(path, f"cannot parse: {_one_line(str(e)) if str(e) else type(e).__name__}")
    except RecursionError:
        return FileError(path, "cannot parse: nesting too deep")
    return cst_adapter.to_syntax(module)[0], cst_adapter.parse_expression


def summarize_source(
    source: bytes, path: str, module: str, is_package: bool, settings: Settings, adapter: str = "ast"
) -> FileSummary | FileError:
    try:
        got = syntax_of(source, path, adapter)
        if isinstance(got, FileError):
            return got
        tree, parse_expression = got
        summary = FileSummary(path=path, module=module, is_package=is_package)
        SummaryBuilder(summary, settings, parse_expression).build(tree)  # type: ignore[arg-type]
    except RecursionError:
        return FileError(path, "cannot analyse: nesting too deep")
    summary.suppressions = suppressions(source)
    header = generated_header(source)
    if header is not None:
        summary.generated_marker, summary.generated_from = header.marker, header.origin
    ends = source.count(b"\n") + source.count(b"\r") - source.count(b"\r\n")  # as CPython ends lines
    summary.lines = ends + (1 if source and not source.endswith((b"\n", b"\r")) else 0)
    return summary


def summarize_file(
    path: str, module: str, is_package: bool, settings: Settings, adapter: str = "ast"
) -> FileSummary | FileError:
    source = read_source(path)
    if isinstance(source, FileError):
        return source
    return summarize_source(source, path, module, is_package, settings, adapter)


def summarize_many(
    items: Iterable[tuple[str, str, bool]], settings: Settings, adapter: str = "ast"
) -> list[FileSummary | FileError]:
    """Summarise (path, module, is_package) items in this process with the garbage collector paused."""
    was = gc.isenabled()
    gc.disable()
    try:
        return [summarize_file(p, m, pkg, settings, adapter) for p, m, pkg in items]
    finally:
        if was:
            gc.enable()


_SUPPRESS = re.compile(rb"#\s*deadinit:\s*ignore(?:\[([A-Za-z0-9_,\s-]+)\])?")
_NOQA = re.compile(rb"#\s*noqa\s*:\s*([A-Za-z0-9_,\s]+)", re.IGNORECASE)
_OUR_CODE = re.compile(r"\bDI[0-9]+\b", re.IGNORECASE)


def suppressions(source: bytes) -> dict[int, frozenset | None]:
    """``# deadinit: ignore[CODES]`` comments by line (None: every code), and ruff's form
    ``# noqa: DI001`` (its deadinit codes; a bare ``# noqa``, or one naming only other tools'
    codes, is not ours)."""
    out: dict[int, frozenset | None] = {}
    if b"deadinit" not in source and b"noqa" not in source and b"NOQA" not in source:
        return out
    for i, line in enumerate(source.splitlines(), 1):
        m = _SUPPRESS.search(line)
        if m:
            codes = m.group(1)
            out[i] = frozenset(c.strip() for c in codes.decode().split(",") if c.strip()) if codes else None
        n = _NOQA.search(line)
        ours = frozenset(c.upper() for c in _OUR_CODE.findall(n.group(1).decode())) if n else frozenset()
        if ours and out.get(i, frozenset()) is not None:
            out[i] = out.get(i, frozenset()) | ours
    return out
