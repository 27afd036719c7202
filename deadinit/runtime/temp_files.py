"""Temporary files deadinit writes before moving them into place, and removing those a killed run left.

Every temporary file deadinit creates (a rewritten source file before ``os.replace``,
a cache entry, the results file, a baseline, the cache key) is named

    .<target name>.<pid>-<host>-<random>.deadinit-tmp

where ``pid`` is the creating process and ``host`` a short hash of the machine's
name.  Normally the file is moved into place or removed within milliseconds; only a
process killed in between (SIGKILL, a power cut) leaves one.  ``remove_leftovers``
removes a file only when all of these hold, so it never removes a file deadinit did
not create, nor one a run that is still going is writing:

* its name has exactly that form (never a ``*.py``, never anything else);
* it is a regular file (not a link, not a folder) owned by the current user;
* it was made on this machine (a cache folder on a shared disk may hold another
  machine's files, whose pids mean nothing here);
* its process no longer exists (or is a zombie).  A pid reused since by another
  process keeps the file until that process ends too.

On Windows nothing is removed (a process's existence cannot be checked safely there).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from deadinit.runtime.orphans import process_running

SUFFIX = ".deadinit-tmp"
TARGET_CHARS = 100  # of the target's name kept in the temporary name (file names are limited to 255 bytes)
_NAME = re.compile(r"\.(?P<target>.*)\.(?P<pid>[0-9]+)-(?P<host>[0-9a-f]{6})-[0-9a-f]{8}" + re.escape(SUFFIX))
_HOST: list[str] = []


def host_tag() -> str:
    if not _HOST:
        name = os.uname().nodename if hasattr(os, "uname") else os.environ.get("COMPUTERNAME", "")
        _HOST.append(hashlib.blake2b(name.encode(errors="replace"), digest_size=3).hexdigest())
    return _HOST[0]


def create(folder: str | os.PathLike[str], target_name: str) -> tuple[int, str]:
    """A new temporary file in ``folder`` for ``target_name``, opened for writing
    (mode 0600, like ``tempfile.mkstemp``): (file descriptor, path)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    stem = f".{target_name[:TARGET_CHARS]}.{os.getpid()}-{host_tag()}-"
    for _ in range(100):
        path = os.path.join(folder, f"{stem}{secrets.token_hex(4)}{SUFFIX}")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {folder}")


def is_temp_name(name: str) -> bool:
    """Whether ``name`` has the form of a deadinit temporary file's name."""
    return name.endswith(SUFFIX) and _NAME.fullmatch(name) is not None


def is_leftover(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a temporary file of a deadinit process that no longer runs on
    this machine (see the module's documentation for every condition)."""
    name = os.path.basename(path)
    m = _NAME.fullmatch(name)
    if m is None or name.endswith(".py") or m["host"] != host_tag() or sys.platform == "win32":
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
        return False
    pid = int(m["pid"])
    return pid != os.getpid() and not process_running(pid)


def remove_leftovers(paths: Iterable[str | os.PathLike[str]]) -> int:
    """Remove those of ``paths`` that are leftovers (``is_leftover``); how many were removed."""
    removed = 0
    for p in paths:
        if is_leftover(p):
            try:
                os.unlink(p)
                removed += 1
            except OSError:
                pass
    return removed


def remove_leftovers_in(folder: str | os.PathLike[str]) -> int:
    """``remove_leftovers`` over the names in ``folder`` (not its sub-folders)."""
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if e.name.endswith(SUFFIX)]
    except OSError:
        return 0
    return remove_leftovers(Path(folder, n) for n in names)
