"""libcst's ``PositionProvider`` positions, computed by the same code generation at a fraction of its cost.

``PositionProvider`` generates the module's code once with a state that records where each node
starts and ends; most of its time goes to the bookkeeping, not to the code generation (sglang's
files: 3.2 s against 0.55 s for the code alone): a regular-expression split of every token, a
generator-based context manager per statement, and two frozen dataclasses per node.  The fast pass
below overrides only those methods of libcst's codegen state, doing the same arithmetic on plain
tuples, and ``Positions`` builds the ``CodeRange`` of a node when it is asked for.  The numbers are
libcst's own (tests compare every node's range with ``PositionProvider``'s).

Those methods are libcst's private API, so the fast pass is pinned and guarded: ``pyproject.toml``
allows only the libcst releases it is tested against (``.ci/run`` runs the fix tests on the oldest
and the newest), and on first use in a process ``fast_path_agrees`` runs it on ``_SAMPLE`` and
compares every range with ``PositionProvider``'s.  Where they differ, or the private names are
gone, every module from then on gets ``PositionProvider``'s positions (a debug note says so once).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

Span = tuple[tuple[int, int], tuple[int, int]]

_log = logging.getLogger(__name__)


@dataclass
class _Recorded:
    """Where the spans go (``provider`` of the codegen state)."""

    spans: dict[cst.CSTNode, Span]


# -- the fast pass: libcst's private API, pinned and guarded ------------------------------------------
# Everything private of libcst that deadinit touches is in this section: ``Module._codegen`` and the
# codegen state of ``libcst.metadata.position_provider`` (its ``NEWLINE_RE``, ``line`` / ``column`` /
# ``_stack`` / ``provider`` fields, and the methods overridden below).  It is a fast path only: the
# libcst pin in pyproject.toml keeps it to the releases it is tested on, and ``fast_path_agrees``
# checks it against the public ``PositionProvider`` before it is used; without it the positions are
# the same, only slower.

_fast_state: type | None = None


def _fast_state_class() -> type:
    """``PositionProvidingCodegenState`` with tuples for positions and no generator per statement.

    Built on first use, so that a libcst without these names fails here (ImportError /
    AttributeError), inside the check, and not at import."""
    global _fast_state
    if _fast_state is not None:
        return _fast_state
    from libcst.metadata.position_provider import (  # noqa: PLC0415 - private: inside the guarded fast path only
        NEWLINE_RE,
        PositionProvidingCodegenState,
    )

    private: Any = PositionProvidingCodegenState  # used against its declared types (tuples for positions)

    class _State(private):  # type: ignore[misc]  # a subclass of the untyped private class
        line: int
        column: int

        def _update_position(self, value: str) -> None:
            if "\n" not in value and "\r" not in value:
                self.column += len(value)
                return
            segments = NEWLINE_RE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])

        def before_codegen(self, node: cst.CSTNode) -> None:
            self._stack.append((self.line, self.column))

        def after_codegen(self, node: cst.CSTNode) -> None:
            start = self._stack.pop()
            spans = self.provider.spans
            if node not in spans:  # a syntactic position recorded inside wins, as in libcst
                spans[node] = (start, (self.line, self.column))

        def record_syntactic_position(
            self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
        ) -> _Syntactic:
            return _Syntactic(self, node, start_node, end_node)

    _fast_state = _State
    return _State


class _Syntactic:
    """``record_syntactic_position``'s context: the node's range, hoisted from ``start_node`` / ``end_node``."""

    __slots__ = ("end_node", "node", "start", "start_node", "state")

    def __init__(
        self, state: Any, node: cst.CSTNode, start_node: cst.CSTNode | None, end_node: cst.CSTNode | None
    ) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, *exc: object) -> None:
        state = self.state
        spans = state.provider.spans
        start = spans[self.start_node][0] if self.start_node is not None else self.start
        end = spans[self.end_node][1] if self.end_node is not None else (state.line, state.column)
        spans[self.node] = (start, end)


def _fast_spans(module: cst.Module) -> dict[cst.CSTNode, Span]:
    """The fast pass: every node's span, by libcst's code generation with the state above."""
    recorded = _Recorded({})
    state = _fast_state_class()(
        default_indent=module.default_indent, default_newline=module.default_newline, provider=recorded
    )
    module._codegen(state)
    return recorded.spans


# -- the public way, and the check of the fast pass against it ----------------------------------------


def _provider_spans(module: cst.Module) -> dict[cst.CSTNode, Span]:
    """Every node's span by libcst's public ``PositionProvider`` (the module itself, not a copy, is resolved)."""
    ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {n: ((r.start.line, r.start.column), (r.end.line, r.end.column)) for n, r in ranges.items()}


# Syntax where the fast pass could go wrong: every kind of line end (``\n``, ``\r\n``, a lone ``\r``),
# also inside multi-line strings and comments, line continuations, semicolons, decorators (their
# ranges are hoisted), nested functions and classes, comprehensions, f-strings, a form feed.
_SAMPLE = (
    "# a comment\n"
    "import os; import sys  # two on a line\r\n"
    "x = 1; y = 2;\r"
    "@decorator\n"
    "@other(\n    1,  # inside\r\n)\n"
    "def outer(a, /, b=1, *c, d, **e):\n"
    '    """A docstring\r\n    over lines\r    and more."""\n'
    "    def inner():\r\n"
    '        s = """x\n\ny"""; t = f"{a!r:>{b}}" \\\n            "z"\n'
    "        return lambda q: (q, [i for i in s if i])\n"
    "\x0c\n"
    "    class K(Base, metaclass=M):\n"
    "        @property\n"
    "        async def m(self) -> int:  # c\n"
    "            async with a as b, c:\n"
    "                await b\n"
    "    return inner\n"
    "try:\n    pass\nexcept (A, B) as e:\n    raise X from e\nfinally:\n    del a[1:2, ::3]\n"
    "match p:\n    case [1, *rest] if rest:\n        pass\n    case {'k': v}:\n        pass\n"
)

_fast_ok: bool | None = None  # the check's answer for this process (and so for its one libcst)


def _libcst_version() -> str:
    try:
        return version("libcst")
    except PackageNotFoundError:  # pragma: no cover - libcst imported from a source tree
        return "unknown"


def fast_path_agrees() -> bool:
    """Whether the fast pass gives ``PositionProvider``'s range for every node of ``_SAMPLE``: checked
    once per process; False (and a debug note) where it differs or libcst's private names are gone."""
    global _fast_ok
    if _fast_ok is None:
        module = cst.parse_module(_SAMPLE)
        why = "its positions differ from PositionProvider's"
        try:
            agrees = _fast_spans(module) == _provider_spans(module)
        except (ImportError, AttributeError) as e:  # the private names are gone
            agrees, why = False, f"libcst's private API it uses is missing ({type(e).__name__}: {e})"
        except Exception as e:  # changed in some other way
            agrees, why = False, f"it failed ({type(e).__name__}: {e})"
        if not agrees:
            _log.debug(
                "deadinit.fixes.positions: the fast position pass is off for libcst %s: %s; "
                "using libcst.metadata.PositionProvider for every module",
                _libcst_version(),
                why,
            )
        _fast_ok = agrees
    return _fast_ok


def spans_of(module: cst.Module) -> dict[cst.CSTNode, Span]:
    """Every node's span: by the fast pass where ``fast_path_agrees``, else by ``PositionProvider``."""
    compute: Callable[[cst.Module], dict[cst.CSTNode, Span]] = _fast_spans if fast_path_agrees() else _provider_spans
    return compute(module)


class Positions:
    """node -> ``CodeRange``, as ``MetadataWrapper(module).resolve(PositionProvider)`` maps them."""

    def __init__(self, module: cst.Module, line_offset: int = 0) -> None:
        """``line_offset``: added to every line (``module`` holds lines of a file that start later)."""
        self._spans = spans_of(module)
        self._offset = line_offset
        self._ranges: dict[cst.CSTNode, CodeRange] = {}

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        r = self._ranges.get(node)
        if r is None:
            (sl, sc), (el, ec) = self._spans[node]
            off = self._offset
            r = self._ranges[node] = CodeRange(CodePosition(sl + off, sc), CodePosition(el + off, ec))
        return r

    def get(self, node: cst.CSTNode, default: CodeRange | None = None) -> CodeRange | None:
        return self[node] if node in self._spans else default

    def __contains__(self, node: object) -> bool:
        return node in self._spans

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)
