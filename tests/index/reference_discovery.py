"""The walk of ``deadinit.index.discovery`` as it was before it was made cheaper, kept unchanged
as the reference ``test_discovery_walk`` compares the walk to (same files, order, modules, notes)."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from deadinit.index.namespaces import namespace_prefix
from deadinit.runtime.temp_files import SUFFIX as TEMP_SUFFIX

_SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".deadinit_cache",
    "node_modules",
    "build",
    "dist",
    ".eggs",
}
Skip = Callable[[str, bool], bool]  # (name or path, is_dir) -> leave it out
Walk = Iterator[tuple[str, list[str], list[str], set[str]]]  # (folder, folders, files, links)


@dataclass(frozen=True)
class SourceFile:
    path: str  # as shown to the user
    real: str  # resolved path, used to de-duplicate
    module: str
    is_package: bool  # an __init__.py


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (path, message)
    # paths of deadinit's temporary files (``deadinit.runtime.temp_files``) in the folders looked at
    temp_files: list[str] = field(default_factory=list)


def module_name(path: Path, roots: tuple[Path, ...] = ()) -> tuple[str, bool]:
    """Dotted module name: walk up through ``__init__.py`` packages, or use a configured root."""
    path = Path(os.path.abspath(path))
    is_pkg = path.name == "__init__.py"
    for root in sorted(roots, key=lambda r: -len(str(r))):
        root = Path(os.path.abspath(root))
        try:
            rel = path.relative_to(root)
        except ValueError:
            continue
        parts = list(rel.with_suffix("").parts)
        if is_pkg:
            parts = parts[:-1]
        if parts:
            return ".".join(parts), is_pkg
    # Walk up through packages.  Namespace folders (no __init__.py) in between are
    # crossed when a regular package sits above them (sglang/srt/... is laid out so).
    top = _package_top(path.parent)
    if top is None:
        return (path.parent.name if is_pkg else path.stem), is_pkg
    rel = path.relative_to(top.parent).with_suffix("")
    parts = list(rel.parts)
    if is_pkg:
        parts = parts[:-1]
    prefix = namespace_prefix(str(top))  # the namespace packages above: their own rule, tested apart
    return ".".join([prefix, *parts] if prefix else parts), is_pkg


_TOP_CACHE: dict[str, Path | None] = {}


def _package_top(d: Path) -> Path | None:
    """The highest ancestor folder that is a regular package, or None."""
    key = str(d)
    if key in _TOP_CACHE:
        return _TOP_CACHE[key]
    best = _highest_package(d)
    # a folder that is not itself inside any package path chain is its own top
    if best is not None and not _chain_ok(d, best):
        best = None
    _TOP_CACHE[key] = best
    return best


_HIGHEST: dict[str, Path | None] = {}


def _highest_package(d: Path) -> Path | None:
    """The highest of ``d`` and its ancestors that holds an ``__init__.py`` (one check per folder)."""
    key = str(d)
    if key not in _HIGHEST:
        above = _highest_package(d.parent) if d.parent != d else None
        _HIGHEST[key] = above if above is not None else (d if (d / "__init__.py").is_file() else None)
    return _HIGHEST[key]


def _chain_ok(d: Path, top: Path) -> bool:
    """Every folder from ``d`` up to ``top`` is an identifier (a plausible package path)."""
    cur = d
    while True:
        if not cur.name.isidentifier():
            return False
        if cur == top:
            return True
        cur = cur.parent


def discover(
    paths: Iterable[str],
    roots: tuple[str, ...] = (),
    excluded: Skip | None = None,
    max_bytes: int | None = None,
) -> Discovery:
    """Walk ``paths``; ``excluded(relpath, is_dir)`` filters (gitignore-style config).

    Symbolic links are followed only where they stay inside the given paths: a link
    that points outside them (or loops, or points nowhere) is skipped with a note, so
    nothing outside the analysed roots is read, reported or rewritten.  Files larger
    than ``max_bytes`` and anything that is not a regular file are skipped with a note.
    The temporary files deadinit names that lie in the walked folders, or beside a given
    file, are listed in ``temp_files`` (the caller removes those a killed run left).
    """
    out = Discovery()
    seen: set[str] = set()
    root_paths = tuple(Path(r) for r in roots)
    given = [os.path.realpath(r) for r in paths if os.path.isdir(r)]
    given_files_folders: set[str] = set()  # where a given file's rewrite would leave its temporary file
    walked: set[str] = set()
    for raw in paths:
        p = Path(raw)
        if not os.path.lexists(p):
            out.errors.append((raw, "no such file or directory"))
            continue
        if p.is_symlink() and not p.exists():
            out.errors.append((raw, _link_problem(raw)))
            continue
        if p.is_file():
            _add(out, seen, p, root_paths, max_bytes)
            given_files_folders.add(os.path.dirname(os.path.realpath(p)))
            continue
        if not p.is_dir():
            out.errors.append((raw, "not a regular file or directory"))
            continue
        _discover_folder(out, seen, raw, given, root_paths, excluded, max_bytes, walked)
    for folder in sorted(given_files_folders - walked):
        out.temp_files += _temp_files_in(folder)
    out.files.sort(key=lambda f: f.path)
    return out


def _temp_files_in(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            return [e.path for e in it if e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return []


def _discover_folder(
    out: Discovery,
    seen: set[str],
    raw: str,
    given: list[str],
    root_paths: tuple[Path, ...],
    excluded: Skip | None,
    max_bytes: int | None,
    walked: set[str],
) -> None:
    """Add the Python files under the folder ``raw`` (one of ``discover``'s paths) to ``out``."""
    visited_dirs: set[str] = set()
    modules = _Modules(root_paths)

    def onerror(e: OSError) -> None:
        out.errors.append((e.filename or raw, f"cannot list: {e.strerror}"))

    for dirpath, dirnames, filenames, links in _walk(str(Path(raw)), onerror):
        real = os.path.realpath(dirpath)
        if real in visited_dirs:  # reached again through a link: a loop, or an alias (silently de-duplicated)
            if _is_loop(dirpath):
                out.errors.append((dirpath, "symbolic link loop, skipped"))
            dirnames[:] = []
            continue
        visited_dirs.add(real)
        walked.add(real)
        skip = _folder_filter(excluded, dirpath)
        keep = []
        for d in sorted(dirnames):
            if d in _SKIP_DIRS or d.endswith(".egg-info"):
                continue
            if skip is not None and skip(d, True):
                continue
            if d in links:
                full = os.path.join(dirpath, d)
                why = _link_escapes(full, given)
                if why is None and _is_loop(full):
                    why = "symbolic link loop, skipped"
                if why:
                    out.errors.append((full, why))
                    continue
            keep.append(d)
        dirnames[:] = keep
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                if fn.endswith(TEMP_SUFFIX):
                    out.temp_files.append(os.path.join(dirpath, fn))
                continue
            if skip is not None and skip(fn, False):
                continue
            full = os.path.join(dirpath, fn)
            if fn in links:
                why = _link_problem(full) if not os.path.exists(full) else _link_escapes(full, given)
                if why:
                    out.errors.append((full, why))
                    continue
                _add(out, seen, Path(full), root_paths, max_bytes)
            else:  # not a link: its real path is its folder's real path joined with its name
                _add_plain(out, seen, full, os.path.join(real, fn), modules.of(dirpath, fn), max_bytes)
        # directories named like x.py are listed as directories by the walk: report them
        for d in keep:
            if d.endswith(".py"):
                out.errors.append(
                    (os.path.join(dirpath, d), "is a directory named like a Python file; analysed as a folder")
                )


def _walk(top: str, onerror: Callable[[OSError], None]) -> Walk:
    """``os.walk(top, followlinks=True)`` that also yields the names that are symbolic
    links (from the directory entries: no extra system call per name)."""
    try:
        with os.scandir(top) as it:
            entries = list(it)
    except OSError as e:
        onerror(e)
        return
    dirs: list[str] = []
    files: list[str] = []
    links: set[str] = set()
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (dirs if is_dir else files).append(entry.name)
        try:
            if entry.is_symlink():
                links.add(entry.name)
        except OSError:
            pass
    yield top, dirs, files, links
    for d in dirs:
        yield from _walk(os.path.join(top, d), onerror)


def _folder_filter(excluded: Skip | None, dirpath: str) -> Skip | None:
    """``excluded`` bound to one folder: ``skip(name, is_dir)``.  A ``PathFilter`` does
    the per-folder work once (``in_folder``); any other callable gets the full path."""
    if excluded is None:
        return None
    in_folder = getattr(excluded, "in_folder", None)
    if in_folder is not None:
        skip: Skip = in_folder(dirpath)
        return skip
    return lambda name, is_dir: excluded(os.path.join(dirpath, name), is_dir)


class _Modules:
    """``module_name`` for the plain files of a folder: the folder's dotted prefix is
    worked out once (a module's name is its folder's prefix and its stem)."""

    _PROBE = "_deadinit_probe_"

    def __init__(self, roots: tuple[Path, ...]) -> None:
        self.roots = roots
        self.prefix: dict[str, str | None] = {}

    def of(self, dirpath: str, fn: str) -> tuple[str, bool]:
        if fn == "__init__.py":
            return module_name(Path(dirpath, fn), self.roots)
        if dirpath not in self.prefix:
            probe, _ = module_name(Path(dirpath, self._PROBE + ".py"), self.roots)
            self.prefix[dirpath] = (
                ""
                if probe == self._PROBE
                else probe[: -len(self._PROBE) - 1]
                if probe.endswith("." + self._PROBE)
                else None
            )
        prefix = self.prefix[dirpath]
        if prefix is None:  # not expected; the general rule then
            return module_name(Path(dirpath, fn), self.roots)
        stem = fn[:-3]
        return (f"{prefix}.{stem}" if prefix else stem), False


def _link_problem(path: str) -> str:
    """Why a symbolic link that does not resolve is skipped."""
    try:
        os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "symbolic link loop, skipped"
        if e.errno == errno.ENOENT:
            return "dangling symbolic link, skipped"
        return f"cannot follow symbolic link: {e.strerror}"
    return "cannot follow symbolic link"


def _is_loop(path: str) -> bool:
    """The folder at ``path`` is (through links) itself or one of its own ancestors."""
    real = os.path.realpath(path)
    above = os.path.realpath(os.path.dirname(path))
    return above == real or above.startswith(real.rstrip(os.sep) + os.sep)


def _link_escapes(path: str, given: list[str]) -> str | None:
    """A note when the link at ``path`` resolves outside every analysed folder."""
    real = os.path.realpath(path)
    if any(real == g or real.startswith(g.rstrip(os.sep) + os.sep) for g in given):
        return None
    return "symbolic link to a path outside the analysed folders, skipped"


def _add(out: Discovery, seen: set[str], p: Path, roots: tuple[Path, ...], max_bytes: int | None = None) -> None:
    _add_plain(out, seen, str(p), os.path.realpath(p), module_name(p, roots), max_bytes)


def _add_plain(
    out: Discovery, seen: set[str], path: str, real: str, module: tuple[str, bool], max_bytes: int | None
) -> None:
    """Record one file (its real path and module known), or a note why it is skipped."""
    if real in seen:
        return
    seen.add(real)
    try:
        st = os.stat(real)
    except OSError as e:
        out.errors.append((path, f"cannot read: {e.strerror or e}"))
        return
    if not stat.S_ISREG(st.st_mode):
        out.errors.append((path, "not a regular file, skipped"))
        return
    if max_bytes is not None and st.st_size > max_bytes:
        out.errors.append((path, f"{_size(st.st_size)} is larger than max-file-size ({_size(max_bytes)}), skipped"))
        return
    out.files.append(SourceFile(path, real, *module))


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB" if n >= 1e3 else f"{n} bytes"
