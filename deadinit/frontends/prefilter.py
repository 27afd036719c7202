"""Prefilter: parse with libcst only what the analysis needs libcst for.

1. ``scan`` (bytes, regular expressions): every ``class`` header with the names in
   its bases, and every ``X as Y`` alias.  ``hierarchy_names`` over all scans gives
   the names of the classes that may be in a project hierarchy: those whose bases
   name a class or an alias of one, and those named (through aliases) in such
   bases.  It over-approximates the index's hierarchies: a base resolves to a
   project class only through a chain of class names and import aliases.
2. ``summarize``: in each file, top-level functions and the methods of top-level
   classes outside those hierarchies are blanked out of the text libcst parses
   (their import statements stay, so that imports keep their order); what the
   visitor would record inside them comes from ``deadinit.frontends.fastfacts``
   (CPython's parser) and is merged back in the visitor's order.  The summary equals
   the unfiltered one except that classes outside every hierarchy have no
   ``methods`` (no stage reads those).  Whatever the ``ast`` pass is unsure of stays
   in the libcst text; a file ``ast`` cannot read is parsed whole.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from deadinit.frontends import fastfacts, lean
from deadinit.frontends.astsource import statements
from deadinit.frontends.scan import Scan, variant  # noqa: F401 - re-exported

_ID = rb"[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*"
_CLASS = re.compile(rb"\bclass(?:[ \t\f]|\\\r?\n)+(" + _ID + rb")(?:[ \t\f]|\\\r?\n)*(\(?)")
_AS = re.compile(rb"[\s\\]as[\s\\]+(" + _ID + rb")")
_IDCHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") | frozenset(range(128, 256))
_SPACE = frozenset(b" \t\f\r\n\\")
_TOKEN = re.compile(rb"(" + _ID + rb")|([\"'])|(#)|([()\[\]{}])|([,=.])")
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.M)


def _bases(data: bytes, i: int, limit: int = 20000) -> set[str]:
    """Names that may make a base resolve to a project class, in the parenthesis opened
    before ``i``: the last name of a plain dotted base (``nn.Module`` -> ``Module``),
    every name of any other base expression; keywords skipped, strings and comments too."""
    out: set[str] = set()
    depth, end = 1, min(len(data), i + limit)
    ids: list[str] = []
    plain, last, dot, keyword = True, None, False, False
    while i < end and depth:
        m = _TOKEN.search(data, i, end)
        if m is None:
            break
        i = m.end()
        ident, quote, comment, bracket, punct = m.groups()
        if ident:
            ids.append(ident.decode("utf-8", "replace"))
            if depth == 1:
                plain = plain and (last is None or dot)
                last, dot = ids[-1], False
        elif quote:
            i = _skip_string(data, m.start(), quote, end)
            plain = plain and depth > 1
        elif comment:
            j = data.find(b"\n", i)
            i = end if j < 0 else j
        elif bracket:
            depth += 1 if bracket in b"([{" else -1
            plain = plain and depth != 2
        elif depth == 1:
            dot = punct == b"."
            keyword = keyword or punct == b"="
        if depth == 0 or (depth == 1 and punct == b","):
            if not keyword:
                out.update([last] if plain and last else ids)
            ids, plain, last, dot, keyword = [], True, None, False, False
    if depth and not keyword:
        out.update(ids)  # unterminated: keep everything seen
    return out


def _skip_string(data: bytes, start: int, q: bytes, end: int) -> int:
    if data.startswith(q * 3, start):
        j = data.find(q * 3, start + 3)
        return end if j < 0 else j + 3
    j = start + 1
    while j < end and data[j : j + 1] not in (q, b"\n"):
        j += 2 if data[j : j + 1] == b"\\" else 1
    return j + 1


def scan(data: bytes) -> Scan:
    s = Scan()
    if b"class" in data:
        for m in _CLASS.finditer(data):
            bases = _bases(data, m.end()) if m.group(2) else set()
            s.classes.append((m.group(1).decode("utf-8", "replace"), frozenset(bases)))
    for m in _AS.finditer(data):  # ``X as Y``: X is the identifier before the ``as``
        j = m.start()
        while j > 0 and data[j - 1] in _SPACE:
            j -= 1
        k = j
        while k > 0 and data[k - 1] in _IDCHARS:
            k -= 1
        if k < j and not data[k : k + 1].isdigit():
            s.aliases.append((data[k:j].decode("utf-8", "replace"), m.group(1).decode("utf-8", "replace")))
    return s


def hierarchy_names(scans: Iterable[Scan]) -> frozenset:
    scans = list(scans)
    classes = {n for s in scans for n, _ in s.classes}
    origins: dict[str, set] = {}
    for s in scans:
        for a, b in s.aliases:
            origins.setdefault(b, set()).add(a)
    linked = classes | set(origins)
    out, named = set(), set()
    for s in scans:
        for name, bases in s.classes:
            if bases & linked:
                out.add(name)
                named |= bases
    todo = list(named)
    while todo:
        for o in origins.get(todo.pop(), ()):
            if o not in named:
                named.add(o)
                todo.append(o)
    return frozenset(out | (named & classes))


def hierarchy_from_summaries(summaries) -> frozenset:
    """``hierarchy_names`` from exact summaries (libcst's classes and imports): the
    check that the scan missed nothing (``deadinit.runtime.summarizer``)."""
    classes: set[str] = set()
    origins: dict[str, set] = {}
    bases: list[tuple[str, set]] = []
    for s in summaries:
        for c in s.classes:
            classes.add(c.name)
            bases.append((c.name, {b.rsplit(".", 1)[-1] for b in c.bases if b}))
        for i in s.imports:
            if i.name and i.name != "*" and i.local != i.name:
                origins.setdefault(i.local, set()).add(i.name.rsplit(".", 1)[-1])
    aliases = [(o, a) for a, names in origins.items() for o in names]
    return hierarchy_names([Scan(classes=[(n, frozenset(b)) for n, b in bases], aliases=aliases)])


# -- summaries ---------------------------------------------------------------


@dataclass
class _Unit:
    slot: tuple
    first: int
    last: int
    facts: list  # FunctionFacts


def _first_line(node) -> int:
    return min([d.lineno for d in getattr(node, "decorator_list", ())] + [node.lineno])


def _readable(data: bytes) -> bool:
    if data.startswith(b"\xef\xbb\xbf") or data.count(b"\r") != data.count(b"\r\n"):
        return False
    m = _COOKIE.search(b"\n".join(data.split(b"\n", 2)[:2]))
    return m is None or m.group(1).lower().replace(b"_", b"-") in (b"utf-8", b"utf8")


def _plan(src: fastfacts.Source, tree: ast.Module, hier: frozenset, module: str):
    """Units to blank, classes whose self-attribute facts come from ``ast``, slot of each line."""
    units: list[_Unit] = []
    classes: dict[str, fastfacts.ClassFacts] = {}
    light: set[int] = set()
    names = [n.name for n in statements(tree.body) if isinstance(n, ast.ClassDef)]
    for i, st in enumerate(tree.body):
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            try:
                units.append(_Unit((i, 0), _first_line(st), st.end_lineno, [fastfacts.FunctionFacts(src).run(st)]))
            except fastfacts.Unsure:
                pass
        elif isinstance(st, ast.ClassDef) and st.name not in hier and names.count(st.name) == 1:
            got = _light_class(src, st, i, f"{module}.{st.name}")
            if got is not None:
                classes[f"{module}.{st.name}"] = got[0]
                units += got[1]
                light.add(i)
    return units, classes, light


def _light_class(src, st: ast.ClassDef, i: int, qualname: str):
    defs = [b for b in st.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))]
    others = [b for b in st.body if b not in defs]
    if not defs or any(
        isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        for b in others
        if not isinstance(b, ast.ClassDef)
        for n in statements([b])
    ):
        return None
    cf = fastfacts.ClassFacts(qualname)
    units = []
    try:
        for j, b in enumerate(st.body):
            if b in defs:
                units.append(_Unit((i, j), _first_line(b), b.end_lineno, [fastfacts.FunctionFacts(src, cf).run(b)]))
            else:
                fastfacts.class_annotations(src, cf, b)
    except fastfacts.Unsure:
        return None
    return cf, units


def _reduce(data: bytes, units: list[_Unit]) -> bytes:
    """The source with each unit replaced by its import statements and ``pass``, line for line."""
    lines = data.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    out, pos = [], 0
    for u in sorted(units, key=lambda u: u.first):
        a, b = starts[u.first - 1], starts[u.last]
        out.append(data[pos:a])
        head = lines[u.first - 1]
        indent = head[: len(head) - len(head.lstrip(b" \t\f"))]
        text, line = b"", u.first
        for imp in sorted(u.facts[0].imports, key=lambda n: (n.lineno, n.col_offset)):
            seg = data[starts[imp.lineno - 1] + imp.col_offset : starts[imp.end_lineno - 1] + imp.end_col_offset]
            text += (b"; " if text and imp.lineno == line else b"\n" * (imp.lineno - line) + indent) + seg
            line = imp.end_lineno
        # ``pass`` on the unit's last line keeps the enclosing class's end line
        text += (b"; " if text and line == u.last else b"\n" * (u.last - line) + indent) + b"pass\n"
        out.append(text)
        pos = b
    out.append(data[pos:])
    return b"".join(out)


def _slots(tree: ast.Module, light: set, nlines: int) -> list:
    slot: list = [None] * (nlines + 2)
    for i, st in enumerate(tree.body):
        if i in light:
            for ln in range(_first_line(st), _first_line(st.body[0])):
                slot[ln] = slot[ln] or (i, -1)
            parts = [(j, b) for j, b in enumerate(st.body)]
        else:
            parts = [(0, st)]
        for j, b in parts:
            for ln in range(_first_line(b), b.end_lineno + 1):
                slot[ln] = slot[ln] or (i, j)
    return slot


def _merge(summary, units: list[_Unit], classes: dict, slot: list) -> None:
    blank = set()
    for u in units:
        blank.update(range(u.first, u.last + 1))

    def merged(kept: list, line_of, port_of) -> list:
        tagged = [(slot[line_of(x)], k, x) for k, x in enumerate(kept) if line_of(x) not in blank]
        if any(t[0] is None for t in tagged):
            raise fastfacts.Unsure("item outside any statement")
        n = len(tagged)
        for u in units:
            tagged += [(u.slot, n + k, x) for k, x in enumerate(port_of(u.facts[0]))]
            n = len(tagged)
        tagged.sort(key=lambda t: (t[0], t[1]))
        return [t[2] for t in tagged]

    summary.accesses = merged(summary.accesses, lambda a: a.line, lambda f: f.accesses)
    summary.constructs = merged(summary.constructs, lambda c: c.line, lambda f: f.constructs)
    summary.isinstance_checks = merged(summary.isinstance_checks, lambda c: c[1], lambda f: f.isinstance_checks)
    for c in summary.classes:
        cf = classes.get(c.qualname)
        if cf is not None:
            c.attr_types, c.attr_declared, c.attr_unknown = cf.attr_types, cf.attr_declared, cf.attr_unknown


def summarize(data: bytes, path: str, module: str, is_package: bool, settings, hier: frozenset):
    """The summary of one file with the prefilter; ``hier`` from ``hierarchy_names``."""
    if b"def" not in data or not _readable(data):
        return lean.summarize_source(data, path, module, is_package, settings)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: not ours to report
            tree = ast.parse(data)
    except Exception:  # CPython refuses it: the stock path words the error
        return lean.summarize_source(data, path, module, is_package, settings)
    try:
        src = fastfacts.Source(data)
        units, classes, light = _plan(src, tree, hier, module)
        if not units:
            return lean.summarize_source(data, path, module, is_package, settings, checked=True)
        reduced = _reduce(data, units)
        summary = lean.summarize_tree(cst.parse_module(reduced), data, path, module, is_package, settings)
        _merge(summary, units, classes, _slots(tree, light, len(src.starts)))
        return summary
    except Exception:  # anything unexpected: the plain lean path decides (and words any error)
        if os.environ.get("DEADINIT_PREFILTER_STRICT"):
            raise
        return lean.summarize_source(data, path, module, is_package, settings, checked=True)


def summarize_file(path: str, module: str, is_package: bool, settings, hier: frozenset):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return lean.summarize_file(path, module, is_package, settings)
    return summarize(data, path, module, is_package, settings, hier)
