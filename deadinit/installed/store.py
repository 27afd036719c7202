"""The installed libraries' summaries, kept between runs: one folder per distribution and
version under the per-user cache (``~/.cache/deadinit/installed/<name>-<version>-<flavour>``),
each module an entry of the per-file cache (``runtime.file_cache``: signed, written atomically,
trusted while the file's size and modification time, or else its content, are as recorded).
Modules of no distribution (a configured folder, ``PYTHONPATH``) are kept per search-path folder.
A run that reads a library again finds its summaries there instead of parsing it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from pathlib import Path

from deadinit.frontends.source_file import read_source
from deadinit.installed.distributions import Distribution
from deadinit.model.file_error import FileError
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.runtime import file_cache

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")


def cache_base() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "deadinit" / "installed"


class LibraryStore:
    """Summaries of library modules: from the cache when their file is as recorded, else summarised
    (and stored).  ``folder`` None: nothing is kept (every module is summarised)."""

    def __init__(self, settings: Settings, folder: Path | None) -> None:
        self.settings = settings
        self.folder = folder
        self._key = settings.summary_key()
        self._flavour = hashlib.blake2b(
            f"{file_cache.ENV}\0{file_cache.FORMAT}\0{self._key}".encode(), digest_size=6
        ).hexdigest()
        self._caches: dict[str, file_cache.Cache] = {}
        self.stats = {"read": 0, "summarised": 0}

    def group(self, owner: Distribution | None, entry: str) -> str:
        """The folder name of a distribution's modules (or of a search-path folder's, for none)."""
        if owner is not None:
            return _UNSAFE.sub("_", f"{owner.name}-{owner.version}-{self._flavour}")
        where = hashlib.blake2b(entry.encode(), digest_size=6).hexdigest()
        return f"files-{where}-{self._flavour}"

    def summary(self, path: str, module: str, is_package: bool, group: str) -> FileSummary | None:
        """The summary of the library module at ``path``; None when it cannot be read or parsed
        (a library's broken file is no error of the project's)."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        if st.st_size > self.settings.max_file_size:
            return None
        cache = self._cache(group)
        entry = cache.load(path, module, is_package) if cache is not None else None
        if entry is not None and entry.stat_matches(st):
            self.stats["read"] += 1
            return _unpickled(entry.summary_bytes)
        source = read_source(path)
        if isinstance(source, FileError):
            return None
        digest = file_cache.content_hash(source)
        if entry is not None and entry.hash == digest:
            self.stats["read"] += 1
            return _unpickled(entry.summary_bytes)
        from deadinit.frontends.parse import summarize_source  # noqa: PLC0415 - the parser loads only when a library module is summarised

        try:
            made = summarize_source(source, path, module, is_package, self.settings)
        except Exception:  # a library file the summariser cannot take is left unread, as a broken one
            return None
        if isinstance(made, FileError):
            return None
        self.stats["summarised"] += 1
        if cache is not None:
            cache.store(
                path,
                module,
                is_package,
                file_cache.new_entry(st, digest, pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL)),
            )
        return made

    def _cache(self, group: str) -> file_cache.Cache | None:
        if self.folder is None:
            return None
        cache = self._caches.get(group)
        if cache is None:
            cache = self._caches[group] = file_cache.Cache(self.folder / group, self._key)
        return cache


def _unpickled(data: bytes) -> FileSummary | None:
    try:
        got = pickle.loads(data)  # the entry's keyed digest was checked (``file_cache.Cache.load``)
    except Exception:
        return None
    return got if isinstance(got, FileSummary) else None
