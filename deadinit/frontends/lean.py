"""Lean libcst parsing: the same summaries as ``summarize_module``, several times faster.

Stock libcst spends most of a summary's time outside the parser (see the
Performance section of the README):

* ``MetadataWrapper.visit`` walks the whole tree once more with an *empty*
  batched visitor when a visitor asks only for ``PositionProvider``;
* ``CSTNode.visit`` rebuilds every node it passes (``_visit_and_replace_children``)
  and calls two attribute hooks per field, even for a read-only ``CSTVisitor``;
* ``PositionProvider`` builds a ``CodeRange`` for every node through
  generator-based context managers.

Here positions are computed by one codegen pass with a cheaper state and handed to
the visitor as a lazy mapping, and a read-only visitor is driven by a walker that
visits the same nodes in the same order without rebuilding anything.  Nothing in
the visitor changes: ``tests/project/test_parallel.py`` checks that summaries are
equal to ``summarize_module``'s on the fixtures and on real code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata import PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

_NEWLINE_CHARS = ("\n", "\r")


class _Recorder(cst.CSTVisitor):
    """Learns the order in which libcst visits a node type's fields."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[str] = []

    def on_visit(self, node) -> bool:
        return False

    def on_leave(self, original_node) -> None:
        pass

    def on_visit_attribute(self, node, attribute: str) -> None:
        self.fields.append(attribute)

    def on_leave_attribute(self, original_node, attribute: str) -> None:
        pass


_ORDER: dict[type, tuple[str, ...]] = {}


def _field_order(node: cst.CSTNode) -> tuple[str, ...]:
    t = type(node)
    order = _ORDER.get(t)
    if order is None:
        rec = _Recorder()
        node._visit_and_replace_children(rec)
        seen = list(dict.fromkeys(rec.fields))
        # fields visited only conditionally (format_spec) come after the recorded ones
        seen += [f.name for f in dataclasses.fields(node) if f.name not in seen]
        order = _ORDER[t] = tuple(seen)
    return order


def _own(vcls: type, name: str):
    """The visitor's method ``name`` unless it is libcst's no-op default."""
    f = getattr(vcls, name, None)
    return None if f is None or f is getattr(cst.CSTVisitor, name, None) else f


def _has_attribute_hooks(vcls: type) -> bool:
    """``visit_<Node>_<field>`` hooks need libcst's own traversal."""
    for name in dir(vcls):
        kind, _, rest = name.partition("_")
        if kind in ("visit", "leave") and rest[:1].isupper() and "_" in rest and _own(vcls, name):
            return True
    return False


_HOOKS: dict[type, bool] = {}
_TRIVIA_MODULES = ("libcst._nodes.whitespace", "libcst._nodes.op")


def _trivia(t: type) -> bool:
    """Whitespace and operator tokens: their subtrees hold nothing but more of them."""
    return t.__module__ in _TRIVIA_MODULES


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """Drive a read-only ``CSTVisitor`` over ``node`` like ``node.visit(visitor)`` does."""
    vcls = type(visitor)
    hooks = _HOOKS.get(vcls)
    if hooks is None:
        hooks = _HOOKS[vcls] = _has_attribute_hooks(vcls)
    if hooks or isinstance(visitor, cst.CSTTransformer):
        node.visit(visitor)
        return
    handlers: dict[type, tuple] = {}  # type -> (visit, leave, skip)
    handles_trivia = any(
        _own(vcls, name)
        for name in dir(vcls)
        if name.partition("_")[0] in ("visit", "leave")
        and hasattr(cst, name.partition("_")[2])
        and isinstance(getattr(cst, name.partition("_")[2]), type)
        and _trivia(getattr(cst, name.partition("_")[2]))
    )
    is_node: dict[type, bool] = {}

    def go(n) -> None:
        t = type(n)
        h = handlers.get(t)
        if h is None:
            h = handlers[t] = (
                _own(vcls, "visit_" + t.__name__),
                _own(vcls, "leave_" + t.__name__),
                _trivia(t) and not handles_trivia,
            )
        enter, leave, skip = h
        if skip:
            return
        if enter is None or enter(visitor, n) is not False:
            for name in _ORDER.get(t) or _field_order(n):
                v = getattr(n, name)
                vt = type(v)
                if vt is tuple or vt is list:
                    for c in v:
                        ct = type(c)
                        ok = is_node.get(ct)
                        if ok is None:
                            ok = is_node[ct] = issubclass(ct, cst.CSTNode)
                        if ok:
                            go(c)
                else:
                    ok = is_node.get(vt)
                    if ok is None:
                        ok = is_node[vt] = issubclass(vt, cst.CSTNode)
                    if ok:
                        go(v)
        if leave is not None:
            leave(visitor, n)

    go(node)


class _LeanState(PositionProvidingCodegenState):
    """Codegen state that records raw (line, column) pairs with no per-node objects."""

    def _update_position(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            super()._update_position(value)
        else:
            self.column += len(value)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            super()._update_position(value)
        else:
            self.column += len(value)

    def before_codegen(self, node) -> None:
        self._stack.append((self.line, self.column))

    def after_codegen(self, node) -> None:
        start = self._stack.pop()
        computed = self.provider._computed
        key = id(node)  # CSTNode.__hash__ is id() in Python; the tree outlives the mapping
        if key not in computed:
            computed[key] = (start, (self.line, self.column))

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    __slots__ = ("end_node", "node", "start", "start_node", "state")

    def __init__(self, state, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = (self.state.line, self.state.column)

    def __exit__(self, *exc) -> None:
        computed = self.state.provider._computed
        start = computed[id(self.start_node)][0] if self.start_node is not None else self.start
        end = computed[id(self.end_node)][1] if self.end_node is not None else (self.state.line, self.state.column)
        computed[id(self.node)] = (start, end)


class _Holder:
    def __init__(self) -> None:
        self._computed: dict = {}


class Positions(Mapping):
    """node -> ``CodeRange``, built on first use from the raw pairs."""

    def __init__(self, module: cst.Module) -> None:
        self._holder = _Holder()
        state = _LeanState(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=self._holder
        )
        module._codegen(state)
        self._raw = self._holder._computed
        self._made: dict = {}

    def __getitem__(self, node) -> CodeRange:
        r = self._made.get(id(node))
        if r is None:
            (sl, sc), (el, ec) = self._raw[id(node)]
            r = self._made[id(node)] = CodeRange(CodePosition(sl, sc), CodePosition(el, ec))
        return r

    def __contains__(self, node) -> bool:
        return id(node) in self._raw

    def __iter__(self):  # node ids: the mapping is only ever indexed by node
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def visit_with_positions(module: cst.Module, visitor: cst.CSTVisitor) -> None:
    """``MetadataWrapper(module, unsafe_skip_copy=True).visit(visitor)`` for visitors that
    depend on ``PositionProvider`` only."""
    deps = set(visitor.get_inherited_dependencies())
    if not deps <= {PositionProvider}:
        cst.MetadataWrapper(module, unsafe_skip_copy=True).visit(visitor)
        return
    visitor.metadata = {PositionProvider: Positions(module)} if deps else {}
    try:
        walk(module, visitor)
    finally:
        visitor.metadata = {}


def summarize_tree(tree: cst.Module, source: bytes, path: str, module: str, is_package: bool, settings):
    """``deadinit.frontends.cst_visitor.summarize_module`` with lean positions and traversal.

    ``source`` gives the suppression comments and the line count (the tree may have
    been parsed from a reduced text, see ``deadinit.frontends.prefilter``).
    """
    from deadinit.frontends.cst_visitor import SummaryVisitor, suppressions
    from deadinit.model.summary import FileSummary

    summary = FileSummary(path=path, module=module, is_package=is_package)
    visit_with_positions(tree, SummaryVisitor(summary, settings))
    # the tail of summarize_module
    summary.suppressions = suppressions(source)
    summary.lines = source.count(b"\n") + (1 if source and not source.endswith(b"\n") else 0)
    return summary


def summarize_source(source: bytes, path: str, module: str, is_package: bool, settings, checked: bool = False):
    """``deadinit.frontends.parse.summarize_source``, lean.  A source CPython refuses
    (``checked``: known not to be), and any failure, goes to the stock function, so
    that messages stay the same and libcst never sees nesting that overflows its stack."""
    from deadinit.frontends import parse

    if not checked and parse.python_refusal(source) is not None:
        return parse.summarize_source(source, path, module, is_package, settings)
    try:
        return summarize_tree(cst.parse_module(source), source, path, module, is_package, settings)
    except Exception:
        return parse.summarize_source(source, path, module, is_package, settings)


def summarize_file(path: str, module: str, is_package: bool, settings):
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError:
        from deadinit.frontends import parse

        return parse.summarize_file(path, module, is_package, settings)  # same messages
    return summarize_source(source, path, module, is_package, settings)
