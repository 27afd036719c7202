"""What worker processes run for one file (module-level functions: they are pickled by name).

Workers send back small things: the content hash, and the pickled summary when the
content is not the one the cache already holds (the parent stores those bytes as
they are and unpickles them once).  Never syntax trees.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from deadinit.frontends import parse
from deadinit.frontends.source_file import read_source
from deadinit.model.file_error import FileError
from deadinit.model.settings import Settings
from deadinit.runtime.file_cache import Cache, content_hash, new_entry

SAME = "same"  # the content is the one the cache entry was made from

# (path, module, is_package, hash of the cached content or None)
KnownItem = tuple[str, str, bool, str | None]
# ``Cache``'s arguments: (folder, settings key)
CacheArgs = tuple[Path, str]


def summarize(
    item: KnownItem, settings: Settings, cache: CacheArgs | None = None
) -> tuple[str, bytes | str] | FileError:
    """(content hash, pickled summary) of one file, (hash, ``SAME``) when its content hashes to
    the one the parent already has a summary of, or a ``FileError``.

    ``item`` is (path, module, is_package, hash of the cached content or None); with
    ``cache`` (``Cache`` arguments) a new entry is written here, in parallel.
    """
    path, module, is_package, known = item
    st = _stat(path)  # before reading: a later change shows as a new mtime next run
    data = read_source(path)
    if isinstance(data, FileError):
        return data
    h = content_hash(data)
    if h == known:
        return h, SAME
    result = parse.summarize_source(data, path, module, is_package, settings)
    if isinstance(result, FileError):
        return result
    blob = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    if cache is not None and st is not None:
        Cache(*cache).store(path, module, is_package, new_entry(st, h, blob))
    return h, blob


def resummarize(
    item: tuple[str, str, bool], settings: Settings, cache: CacheArgs | None = None
) -> tuple[str, bytes | str, os.stat_result | None] | FileError:
    """For the result cache (``deadinit.runtime.recheck``): (content hash, pickled summary,
    its ``os.stat_result`` before reading) of one (path, module, is_package), or a
    ``FileError``; with ``cache`` the per-file entry is written too."""
    path, module, is_package = item
    st = _stat(path)
    got = summarize((path, module, is_package, None), settings, cache)
    if isinstance(got, FileError):
        return got
    h, blob = got
    return h, blob, st


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def error(item: tuple[str, ...], message: str) -> FileError:
    return FileError(item[0], message, internal=True)
