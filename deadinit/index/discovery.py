"""Find the Python files under the given paths and name their modules."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from deadinit.index.namespaces import namespace_prefix
from deadinit.runtime.stat_memo import StatMemo
from deadinit.runtime.temp_files import SUFFIX as TEMP_SUFFIX

_VCS_AND_TOOLS = {".git", ".hg", ".svn", "__pycache__", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
_SKIP_DIRS = _VCS_AND_TOOLS | {".deadinit_cache", ".venv", "venv", "node_modules", "build", "dist", ".eggs"}
Skip = Callable[[str, bool], bool]  # (name or path, is_dir) -> leave it out


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
    # crossed when a regular package sits above them (sglang/srt/... is laid out so), and
    # those above the top package are named by ``index.namespaces``.
    top = _package_top(str(path.parent))
    if top is None:
        return (path.parent.name if is_pkg else path.stem), is_pkg
    rel = path.relative_to(os.path.dirname(top)).with_suffix("")
    parts = list(rel.parts)
    if is_pkg:
        parts = parts[:-1]
    prefix = namespace_prefix(top)
    return ".".join([prefix, *parts] if prefix else parts), is_pkg


# by absolute, normalised folder path (strings: a walk asks once per folder)
_TOP_CACHE: dict[str, str | None] = {}


def _package_top(d: str) -> str | None:
    """The highest ancestor folder that is a regular package, or None."""
    if d in _TOP_CACHE:
        return _TOP_CACHE[d]
    best = _highest_package(d)
    # a folder that is not itself inside any package path chain is its own top
    if best is not None and not _chain_ok(d, best):
        best = None
    _TOP_CACHE[d] = best
    return best


_HIGHEST: dict[str, str | None] = {}


def _highest_package(d: str) -> str | None:
    """The highest of ``d`` and its ancestors that holds an ``__init__.py`` (one check per folder)."""
    if d not in _HIGHEST:
        parent = os.path.dirname(d)
        above = _highest_package(parent) if parent != d else None
        _HIGHEST[d] = above if above is not None else (d if os.path.isfile(os.path.join(d, "__init__.py")) else None)
    return _HIGHEST[d]


def _chain_ok(d: str, top: str) -> bool:
    """Every folder from ``d`` up to ``top`` is an identifier (a plausible package path)."""
    cur = d
    while True:
        if not os.path.basename(cur).isidentifier():
            return False
        if cur == top:
            return True
        cur = os.path.dirname(cur)


def discover(
    paths: Iterable[str],
    roots: tuple[str, ...] = (),
    excluded: Skip | None = None,
    max_bytes: int | None = None,
    stats: StatMemo | None = None,
) -> Discovery:
    """Walk ``paths``; ``excluded(relpath, is_dir)`` filters (gitignore-style config).

    Symbolic links are followed only where they stay inside the given paths: a link
    that points outside them (or loops, or points nowhere) is skipped with a note, so
    nothing outside the analysed roots is read, reported or rewritten.  Files larger
    than ``max_bytes`` and anything that is not a regular file are skipped with a note.
    The temporary files deadinit names that lie in the walked folders, or beside a given
    file, are listed in ``temp_files`` (the caller removes those a killed run left).
    ``stats``: the files' ``os.stat`` results this run already took, by path as shown
    (a file found there is not stat'ed again); it receives those taken here.
    """
    out = Discovery()
    root_paths = tuple(Path(r) for r in roots)
    given = [os.path.realpath(r) for r in paths if os.path.isdir(r)]
    given_files_folders: set[str] = set()  # where a given file's rewrite would leave its temporary file
    walker = _Walker(out, given, _Modules(root_paths), excluded, max_bytes, stats)
    for raw in paths:
        p = Path(raw)
        if not os.path.lexists(p):
            out.errors.append((raw, "no such file or directory"))
            continue
        if p.is_symlink() and not p.exists():
            out.errors.append((raw, _link_problem(raw)))
            continue
        if p.is_file():
            walker.add(str(p), os.path.realpath(p), module_name(p, root_paths))
            given_files_folders.add(os.path.dirname(os.path.realpath(p)))
            continue
        if not p.is_dir():
            out.errors.append((raw, "not a regular file or directory"))
            continue
        walker.walk(raw)
    for folder in sorted(given_files_folders - walker.walked):
        out.temp_files += _temp_files_in(folder)
    out.files.sort(key=lambda f: f.path)
    return out


def _temp_files_in(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as it:
            return [e.path for e in it if e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return []


class _Walker:
    """The folders under one of ``discover``'s paths, depth first, entries sorted by name.

    A folder's real path is its parent's joined with its name unless it was reached
    through a symbolic link (then it is resolved): one ``realpath`` per link, not per folder."""

    def __init__(
        self,
        out: Discovery,
        given: list[str],
        modules: _Modules,
        excluded: Skip | None,
        max_bytes: int | None,
        stats: StatMemo | None,
    ) -> None:
        self.out, self.given, self.modules, self.excluded, self.max_bytes = out, given, modules, excluded, max_bytes
        self.stats: StatMemo = stats if stats is not None else StatMemo()
        self.seen: set[str] = set()  # real paths of the files added
        self.walked: set[str] = set()  # real paths of the folders walked, over all paths
        self.visited: set[str] = set()  # within the current path: a folder reached again is not walked again
        self.raw = ""

    def walk(self, raw: str) -> None:
        """Add the Python files under the folder ``raw`` (one of ``discover``'s paths)."""
        self.visited = set()
        self.raw = raw
        top = str(Path(raw))
        self._folder(top, None, os.path.abspath(top))

    def _folder(self, folder: str, real: str | None, absolute: str) -> None:
        out = self.out
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as e:
            out.errors.append((e.filename or self.raw, f"cannot list: {e.strerror}"))
            return
        if real is None:  # a given folder, or one reached through a link
            real = os.path.realpath(folder)
        if real in self.visited:  # reached again through a link: a loop, or an alias (silently de-duplicated)
            if _is_loop(folder):
                out.errors.append((folder, "symbolic link loop, skipped"))
            return
        self.visited.add(real)
        self.walked.add(real)
        dirs, files, links = _listing(entries)
        skip = _folder_filter(self.excluded, folder, absolute)
        keep = self._subfolders(folder, dirs, links, skip)
        self._files(folder, real, absolute, files, links, skip)
        # directories named like x.py are listed as directories by the walk: report them
        for d in keep:
            if d.endswith(".py"):
                out.errors.append(
                    (os.path.join(folder, d), "is a directory named like a Python file; analysed as a folder")
                )
        for d in keep:
            self._folder(
                os.path.join(folder, d),
                None if d in links else os.path.join(real, d),
                os.path.join(absolute, d),
            )

    def _subfolders(self, folder: str, dirs: list[str], links: set[str], skip: Skip | None) -> list[str]:
        keep = []
        for d in sorted(dirs):
            if d in _SKIP_DIRS or d.endswith(".egg-info"):
                continue
            if skip is not None and skip(d, True):
                continue
            if d in links:
                full = os.path.join(folder, d)
                why = _link_escapes(full, self.given)
                if why is None and _is_loop(full):
                    why = "symbolic link loop, skipped"
                if why:
                    self.out.errors.append((full, why))
                    continue
            keep.append(d)
        return keep

    def _files(
        self, folder: str, real: str, absolute: str, files: list[str], links: set[str], skip: Skip | None
    ) -> None:
        shown, resolved = os.path.join(folder, ""), os.path.join(real, "")  # + name: os.path.join's answer
        for fn in sorted(files):
            if not fn.endswith(".py"):
                if fn.endswith(TEMP_SUFFIX):
                    self.out.temp_files.append(shown + fn)
                continue
            if skip is not None and skip(fn, False):
                continue
            full = shown + fn
            if fn in links:
                why = _link_problem(full) if not os.path.exists(full) else _link_escapes(full, self.given)
                if why:
                    self.out.errors.append((full, why))
                    continue
                p = Path(full)
                self.add(str(p), os.path.realpath(p), module_name(p, self.modules.roots))
            else:  # not a link: its real path is its folder's real path joined with its name
                self.add(full, resolved + fn, self.modules.of(folder, absolute, fn))

    def add(self, path: str, real: str, module: tuple[str, bool]) -> None:
        """Record one file (its real path and module known), or a note why it is skipped."""
        if real in self.seen:
            return
        self.seen.add(real)
        try:
            st = self.stats.stat(path, real)
        except OSError as e:
            self.out.errors.append((path, f"cannot read: {e.strerror or e}"))
            return
        if not stat.S_ISREG(st.st_mode):
            self.out.errors.append((path, "not a regular file, skipped"))
            return
        max_bytes = self.max_bytes
        if max_bytes is not None and st.st_size > max_bytes:
            self.out.errors.append(
                (path, f"{_size(st.st_size)} is larger than max-file-size ({_size(max_bytes)}), skipped")
            )
            return
        self.out.files.append(SourceFile(path, real, *module))


def _listing(entries: list[os.DirEntry[str]]) -> tuple[list[str], list[str], set[str]]:
    """(folders, other names, symbolic links) as ``os.walk(followlinks=True)`` splits a folder's
    entries (a link to a folder is a folder), from the types the listing gives (no system call)."""
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
    return dirs, files, links


def _folder_filter(excluded: Skip | None, dirpath: str, absolute: str) -> Skip | None:
    """``excluded`` bound to one folder: ``skip(name, is_dir)``.  A ``PathFilter`` does the per-folder
    work once (``in_folder``, on the folder's absolute path); any other callable gets the full path."""
    if excluded is None:
        return None
    in_folder = getattr(excluded, "in_folder", None)
    if in_folder is not None:
        skip: Skip = in_folder(absolute)
        return skip
    return lambda name, is_dir: excluded(os.path.join(dirpath, name), is_dir)


class _Modules:
    """``module_name`` for the plain files of a folder, from the folder's dotted prefix worked out
    once (a module's name is its folder's prefix and its stem; a package's, a non-empty prefix)."""

    def __init__(self, roots: tuple[Path, ...]) -> None:
        self.roots = roots
        # as ``module_name`` tries them: longest first, as absolute paths
        self.root_paths = [os.path.abspath(r) for r in sorted(roots, key=lambda r: -len(str(r)))]
        self.prefix: dict[str, str] = {}

    def of(self, dirpath: str, absolute: str, fn: str) -> tuple[str, bool]:
        prefix = self.prefix.get(absolute)
        if prefix is None:
            prefix = self.prefix[absolute] = self._prefix(absolute)
        if fn == "__init__.py":
            # an empty prefix (a root, a top-level folder) has its own rules
            return (prefix, True) if prefix else module_name(Path(dirpath, fn), self.roots)
        stem = fn[:-3]
        return (f"{prefix}.{stem}" if prefix else stem), False

    def _prefix(self, absolute: str) -> str:
        """What ``module_name`` gives a plain module in the folder ``absolute`` (normalised), less
        its stem: the folder's path below the first root that holds it, else below the parent
        of its package top."""
        for root in self.root_paths:
            if absolute == root:
                return ""
            below = _below(absolute, root)
            if below is not None:
                return below.replace(os.sep, ".")
        top = _package_top(absolute)
        if top is None:
            return ""
        below = _below(absolute, os.path.dirname(top))
        if below is None:
            return ""
        prefix = namespace_prefix(top)
        dotted = below.replace(os.sep, ".")
        return f"{prefix}.{dotted}" if prefix else dotted


def _below(path: str, folder: str) -> str | None:
    """``path`` relative to ``folder`` when it lies strictly below it (both absolute and normalised)."""
    start = folder if folder.endswith(os.sep) else folder + os.sep
    return path[len(start) :] if path.startswith(start) else None


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


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.1f} kB" if n >= 1e3 else f"{n} bytes"
