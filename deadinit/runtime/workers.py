"""What worker processes run for one file (module-level functions: they are pickled by name).

Workers send back small things: a content hash and a prefilter scan, or the
pickled summary (the parent stores those bytes in the cache as they are and
unpickles them once).  Never CST nodes.
"""

from __future__ import annotations

import os
import pickle

from deadinit.frontends import lean, parse, prefilter
from deadinit.frontends.parse import FileError
from deadinit.frontends.scan import variant
from deadinit.runtime.file_cache import Cache, content_hash, new_entry


def _read(path: str, module: str, is_package: bool, settings) -> bytes | FileError:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        err = parse.summarize_file(path, module, is_package, settings)  # words the error like the stock path
        return err if isinstance(err, FileError) else FileError(path, "could not be read")


def prepare(item: tuple, settings, with_scan: bool):
    """(content hash, scan or None) of one (path, module, is_package), or a ``FileError``."""
    data = _read(*item, settings)
    if isinstance(data, FileError):
        return data
    return content_hash(data), (prefilter.scan(data) if with_scan else None)


def summarize(item: tuple, settings, hier: frozenset | None, cache: tuple | None = None):
    """(content hash, pickled summary) of one file, or a ``FileError``.

    ``item`` is (path, module, is_package, plan variant, content hash seen by the
    parent); ``hier`` is ``prefilter.hierarchy_names`` of the project, or None for no
    prefilter; with ``cache`` (``Cache`` arguments) the entry is written here, in
    parallel, when the content is still the one the parent planned for.
    """
    path, module, is_package, plan, expected = item
    got = _summarize(path, module, is_package, settings, hier)
    if isinstance(got, FileError):
        return got
    st, data, h, blob = got
    if cache is not None and st is not None and h == expected:
        scan = prefilter.scan(data) if hier is not None else None
        Cache(*cache).store(path, new_entry(st, h, plan, scan, blob))
    return h, blob


def _summarize(path: str, module: str, is_package: bool, settings, hier: frozenset | None):
    """(stat before reading, content, content hash, pickled summary), or a ``FileError``."""
    st = _stat(path)  # before reading: a later change shows as a new mtime next run
    data = _read(path, module, is_package, settings)
    if isinstance(data, FileError):
        return data
    if hier is None:
        result = lean.summarize_source(data, path, module, is_package, settings)
    else:
        result = prefilter.summarize(data, path, module, is_package, settings, hier)
    if isinstance(result, FileError):
        return result
    return st, data, content_hash(data), pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def _stat(path: str):
    try:
        return os.stat(path)
    except OSError:
        return None


def error(item: tuple, message: str) -> FileError:
    return FileError(item[0], message)


def resummarize(item: tuple, settings, hier: frozenset | None, cache: tuple | None = None):
    """For the result cache (``deadinit.runtime.recheck``): (content hash, pickled summary,
    prefilter scan, (size, mtime_ns) seen before reading) of one (path, module,
    is_package), or a ``FileError``; with ``cache`` the per-file entry is written too."""
    path, module, is_package = item
    got = _summarize(path, module, is_package, settings, hier)
    if isinstance(got, FileError):
        return got
    st, data, h, blob = got
    scan = prefilter.scan(data) if hier is not None else None
    if cache is not None and st is not None:
        Cache(*cache).store(path, new_entry(st, h, variant(scan, hier), scan, blob))
    return h, blob, scan, (st.st_size, st.st_mtime_ns) if st is not None else None
