"""Gitignore-style path matching (``pathspec``): include/exclude, .gitignore, per-file-ignores.

``PathFilter`` is the ``excluded(path, is_dir)`` hook that discovery calls while it
walks the tree.  Patterns are relative to the configuration's folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

    from deadinit.model.finding import Finding
    from deadinit.model.settings import Settings

    # (a .gitignore's spec, the folder being filtered relative to the spec's folder + "/")
    GitignoreChain = list[tuple[pathspec.GitIgnoreSpec, str]]


def _spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    patterns = [p for p in lines if p.strip()]
    return _gitignore_spec(patterns) if patterns else None


def _gitignore_spec(patterns: list[str]) -> pathspec.GitIgnoreSpec:
    import pathspec  # noqa: PLC0415 - ~15 ms: only when there are patterns (configured, or a .gitignore)

    return pathspec.GitIgnoreSpec.from_lines(patterns)


def relative_to(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` in posix form, or None when it lies outside."""
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel == os.curdir:
        return ""
    if rel.startswith(os.pardir + os.sep) or rel == os.pardir or os.path.isabs(rel):
        return None
    return Path(rel).as_posix()


def _relative_to_folder(full: str, folder: str) -> str | None:
    """``relative_to(full, folder)`` for an absolute, normalised ``full`` and ``folder``: a string
    prefix when ``full`` lies inside ``folder``, else the general answer."""
    if full == folder:
        return ""
    start = folder if folder.endswith(os.sep) else folder + os.sep
    if full.startswith(start):
        return full[len(start) :].replace(os.sep, "/")
    return relative_to(full, folder)


def _git_top(root: Path) -> Path:
    for d in [root, *root.parents]:
        if (d / ".git").exists():
            return d
    return root


class PathFilter:
    """Decides which files and folders discovery skips."""

    def __init__(
        self, root: str | Path, include: Iterable[str] = (), exclude: Iterable[str] = (), respect_gitignore: bool = True
    ) -> None:
        self.root = str(Path(root).resolve())
        self.include = _spec(include)
        self.exclude = _spec(exclude)
        self.respect_gitignore = respect_gitignore
        self.top = str(_git_top(Path(self.root))) if respect_gitignore else self.root
        self._gitignores: dict[str, pathspec.GitIgnoreSpec | None] = {}
        self._chains: dict[str, GitignoreChain] = {}

    def __call__(self, path: str, is_dir: bool) -> bool:
        if self._configured_out(relative_to(path, self.root), is_dir):
            return True
        return self.respect_gitignore and self.gitignored(path, is_dir)

    def _configured_out(self, rel: str | None, is_dir: bool) -> bool:
        """``exclude`` matches, or ``include`` does not (``rel``: None or "" outside the root / the root)."""
        if not rel:
            return False
        if self.exclude is not None and self.exclude.match_file(rel + "/" if is_dir else rel):
            return True
        # include never prunes folders: a folder may hold included files further down
        return not is_dir and self.include is not None and not self.include.match_file(rel)

    def in_folder(self, folder: str) -> Callable[[str, bool], bool]:
        """``skip(name, is_dir)`` for the entries of ``folder``: the same answers as
        ``self(os.path.join(folder, name), is_dir)``, with the folder's relative path and
        its .gitignore chain worked out once (discovery asks this for every entry)."""
        full = os.path.abspath(folder)
        rel_dir = _relative_to_folder(full, self.root)
        chain = self._chain(full) if self.respect_gitignore and _relative_to_folder(full, self.top) is not None else []

        def skip(name: str, is_dir: bool) -> bool:
            rel = f"{rel_dir}/{name}" if rel_dir else (name if rel_dir == "" else None)
            if self._configured_out(rel, is_dir):
                return True
            ignored = False
            for spec, prefix in chain:
                r = spec.check_file(prefix + name + ("/" if is_dir else ""))
                if r.include is not None:
                    ignored = r.include
            return ignored

        return skip

    def _chain(self, full: str) -> GitignoreChain:
        """(spec, ``full`` relative to the spec's folder + "/", or "") for the .gitignore files
        from the git top-level down to ``full`` (which lies inside it), outermost first."""
        chains = self._chains
        if full not in chains:
            parent = os.path.dirname(full)
            above: GitignoreChain = [] if full == self.top or parent == full else self._chain(parent)
            name = os.path.basename(full)
            chain = [(spec, prefix + name + "/") for spec, prefix in above]
            spec = self._gitignore(full)
            if spec is not None:
                chain.append((spec, ""))
            chains[full] = chain
        return chains[full]

    def _gitignore(self, folder: str) -> pathspec.GitIgnoreSpec | None:
        if folder not in self._gitignores:
            spec = None
            try:
                with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as f:
                    spec = _spec(f.read().splitlines())
            except OSError:
                pass
            self._gitignores[folder] = spec
        return self._gitignores[folder]

    def gitignored(self, path: str, is_dir: bool) -> bool:
        """Whether the .gitignore files from the git top-level down to ``path`` ignore it."""
        full = os.path.abspath(path)
        if relative_to(full, self.top) in (None, ""):
            return False
        folders = []
        d = os.path.dirname(full)
        while True:
            folders.append(d)
            if d == self.top or os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
        ignored = False
        for folder in reversed(folders):  # outermost first; deeper files override
            spec = self._gitignore(folder)
            if spec is None:
                continue
            rel = Path(os.path.relpath(full, folder)).as_posix() + ("/" if is_dir else "")
            r = spec.check_file(rel)
            if r.include is not None:
                ignored = r.include
        return ignored


@lru_cache(maxsize=8)
def _per_file_specs(
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[tuple[pathspec.GitIgnoreSpec, frozenset[str]], ...]:
    return tuple((_gitignore_spec([pat]), frozenset(codes)) for pat, codes in per_file_ignores)


def per_file_ignored(finding: Finding, settings: Settings) -> bool:
    """Whether ``per-file-ignores`` turns the finding off.

    A finding spans files (the allocation, the subclass, the re-assignment); it is
    ignored when any of them matches a pattern listing its code, the same places
    where a suppression comment is honoured.
    """
    if not settings.per_file_ignores:
        return False
    root = settings.config_root or os.getcwd()
    paths = dict.fromkeys([finding.path, *finding.related_paths])
    rels = [r for r in (relative_to(p, root) for p in paths) if r]
    for spec, codes in _per_file_specs(settings.per_file_ignores):
        if (finding.code in codes or finding.name in codes) and any(spec.match_file(r) for r in rels):
            return True
    return False
