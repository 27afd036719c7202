"""On-disk cache of per-file summaries (``.deadinit_cache/`` at the project root).

One entry per source file, module name and settings: a JSON header line, then the pickled
summary (which names its module: the same file under another name, as ``roots`` or a new
``pyproject.toml`` makes it, is another entry).  An entry is used only when

* its header names this deadinit version, cache format, module name and ``Settings.summary_key()``;
* the file's size, mtime, device and inode equal the recorded ones (and the mtime is
  not within ``RACY_NS`` of the moment they were recorded), or else the file's content hash
  (BLAKE2b) equals the recorded one;
* the payload's keyed digest (HMAC-SHA256) matches.  The key is a random per-user secret
  kept outside the project (``~/.cache/deadinit/cache-key``), so a corrupt,
  truncated or planted entry is never unpickled: it is rebuilt.

Entries are written to a temporary file in ``tmp/`` and moved into place with
``os.replace``, so a reader sees a whole old entry or a whole new one, and two
runs writing the same entry concurrently leave one complete entry.  A run that is
killed meanwhile can leave its temporary file there; the next run removes it
(``remove_leftovers``, ``deadinit.runtime.temp_files``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import json
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from deadinit import __version__
from deadinit.runtime import temp_files


def _libcst_version() -> str:
    """libcst's version, from the module its build writes (``libcst/_version.py``), read without
    importing libcst (~0.5 s) or ``importlib.metadata`` (~12 ms, on every run's path); else from
    its installed metadata; "?" when libcst is not there."""
    try:
        spec = importlib.util.find_spec("libcst")
        folders = spec.submodule_search_locations if spec is not None else None
        if folders:
            found = importlib.util.spec_from_file_location("_deadinit_libcst_version", Path(folders[0], "_version.py"))
            if found is not None and found.loader is not None:
                module = importlib.util.module_from_spec(found)
                found.loader.exec_module(module)
                written = getattr(module, "__version__", None)
                if isinstance(written, str):
                    return written
    except Exception:
        pass
    try:
        from importlib.metadata import version  # noqa: PLC0415 - only when libcst has no _version module

        return version("libcst")
    except Exception:
        return "?"


PACKAGE = Path(__file__).resolve().parents[1]


def code_digest(root: Path = PACKAGE) -> str:
    """A digest of deadinit's own analysing code (every module but the GPU check's), by each file's name,
    size and mtime: what was cached by other code (an upgrade, a checkout of another commit, an
    editable install being edited) is never read back, whatever the version number says."""
    h = hashlib.blake2b(digest_size=8)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("gpu_check", "__pycache__"))
        for name in sorted(f for f in files if f.endswith(".py")):
            st = os.stat(os.path.join(folder, name))
            h.update(f"{os.path.relpath(folder, root)}/{name} {st.st_size} {st.st_mtime_ns}\0".encode())
    return h.hexdigest()


FORMAT = 37
ENV = f"{__version__} {code_digest()} py{sys.version_info[0]}.{sys.version_info[1]} libcst{_libcst_version()}"
MAGIC = b"deadinit-cache\n"
RACY_NS = 2_000_000_000  # mtimes this close to the recording time are not trusted
TEMP_FOLDER = "tmp"
_GITIGNORE = "# Automatically created by deadinit.\n*\n"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by deadinit.\n"


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def keyed_hasher(key: bytes | None = None) -> hmac.HMAC:
    """HMAC-SHA256 under the per-user key (``user_key``): what authenticates every cache payload
    (SHA-256 is hashed in hardware on current CPUs: a pack of ~100 MB in a third of BLAKE2b's time)."""
    return hmac.new(key if key is not None else user_key(), digestmod=hashlib.sha256)


def keyed_digest(payload: bytes | memoryview, key: bytes | None = None) -> str:
    """``payload``'s keyed digest (``keyed_hasher``), 32 hex digits."""
    h = keyed_hasher(key)
    h.update(payload)
    return h.hexdigest()[:32]


_KEYS: dict[Path, bytes] = {}


def user_key() -> bytes:
    """A random per-user secret (created once, 0600) that authenticates cache payloads."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "deadinit"
    if base not in _KEYS:
        _KEYS[base] = _read_or_create_key(base)
    return _KEYS[base]


def _read_or_create_key(base: Path) -> bytes:
    path = base / "cache-key"
    try:
        key = path.read_bytes()
        if len(key) == 32:
            return key
    except FileNotFoundError:
        pass
    except OSError:
        return secrets.token_bytes(32)  # unreadable: entries only serve this run
    try:
        base.mkdir(parents=True, exist_ok=True)
        temp_files.remove_leftovers_in(base)
        fd, tmp = temp_files.create(base, path.name)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        try:
            os.link(tmp, path)  # the first of concurrent runs wins; the others read its key
        except FileExistsError:
            if len(path.read_bytes()) != 32:
                os.replace(tmp, path)  # a damaged key file
        finally:
            unlink_quietly(tmp)
        return path.read_bytes()
    except OSError:
        return secrets.token_bytes(32)


@dataclass
class Entry:
    size: int
    mtime_ns: int
    recorded_ns: int
    device: int
    inode: int
    hash: str
    summary_bytes: bytes

    def stat_matches(self, st: os.stat_result) -> bool:
        return stat_matches(st, self.size, self.mtime_ns, self.recorded_ns, self.device, self.inode)


def stat_matches(st: os.stat_result, size: int, mtime_ns: int, recorded_ns: int, device: int, inode: int) -> bool:
    """The file is still the one recorded (device and inode: another file moved over it, with
    the same size and mtime, is not), with the recorded size and mtime, and that mtime was
    not too close to the moment it was recorded (a write in the same clock tick would not show)."""
    return (
        st.st_size == size
        and st.st_mtime_ns == mtime_ns
        and st.st_ino == inode
        and st.st_dev == device
        and recorded_ns - mtime_ns > RACY_NS
    )


def read_tagged(path: Path, magic: bytes) -> bytes | None:
    """The bytes of file ``path`` after its leading ``magic``; None when it cannot be read
    or does not start with it (a missing, foreign or damaged file: its writer rebuilds it)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    return raw[len(magic) :] if raw.startswith(magic) else None


def write_atomically(target: Path, data: bytes | list[bytes | memoryview], temp_dir: Path | None = None) -> None:
    """Write ``data`` (bytes, or a list of pieces written one after the other) to a temporary
    file (in ``temp_dir``, on the same file system; by default beside ``target``) and move it
    into place: readers see the whole old file or the whole new one; a failure leaves no
    temporary file, a killed process one that the next run removes (``remove_leftovers``)."""
    fd, tmp = temp_files.create(temp_dir or target.parent, target.name)
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, list):
                f.writelines(data)
            else:
                f.write(data)
        os.replace(tmp, target)
    except BaseException:
        unlink_quietly(tmp)
        raise


def module_key(module: str, is_package: bool) -> str:
    """How an entry names the module its summary is of (a package's ``__init__`` apart)."""
    return f"{module}/__init__" if is_package else module


class Cache:
    def __init__(self, folder: str | os.PathLike[str], settings_key: str):
        self.folder = Path(folder)
        self.flavour = hashlib.blake2b(settings_key.encode(), digest_size=8).hexdigest()
        self.settings_key = settings_key
        self.entries = self.folder / "entries"
        self._key: bytes | None = None
        self._ready = False
        self.stats = {"hit": 0, "miss": 0, "bad": 0, "written": 0}

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = user_key()
        return self._key

    def _path(self, source_path: str, name: str) -> Path:
        key = f"{os.path.realpath(source_path)}\0{name}\0{self.flavour}"
        h = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
        return self.entries / h[:2] / f"{h[2:]}.bin"

    def _digest(self, payload: bytes) -> str:
        return keyed_digest(payload, self.key)

    def load(self, source_path: str, module: str, is_package: bool) -> Entry | None:
        """The stored entry of the file as module ``module``, or None when absent or not trustworthy
        (counted in ``stats['bad']``)."""
        name = module_key(module, is_package)
        try:
            with open(self._path(source_path, name), "rb") as f:
                raw = f.read()
        except OSError:
            return None
        try:
            if not raw.startswith(MAGIC):
                raise ValueError("magic")
            nl = raw.index(b"\n", len(MAGIC))
            head = json.loads(raw[len(MAGIC) : nl])
            payload = raw[nl + 1 :]
            if (
                head.get("format") != FORMAT
                or head.get("version") != ENV
                or head.get("settings") != self.settings_key
                or head.get("path") != os.path.realpath(source_path)
                or head.get("module") != name
                or len(payload) != head.get("length")
                or head.get("digest") != self._digest(payload)
            ):
                raise ValueError("header")
            return Entry(
                head["size"],
                head["mtime_ns"],
                head["recorded_ns"],
                head["device"],
                head["inode"],
                head["hash"],
                payload,
            )
        except Exception:
            self.stats["bad"] += 1
            return None

    def store(self, source_path: str, module: str, is_package: bool, entry: Entry) -> None:
        payload = entry.summary_bytes
        name = module_key(module, is_package)
        head = {
            "format": FORMAT,
            "version": ENV,
            "settings": self.settings_key,
            "path": os.path.realpath(source_path),
            "module": name,
            "size": entry.size,
            "mtime_ns": entry.mtime_ns,
            "recorded_ns": entry.recorded_ns,
            "device": entry.device,
            "inode": entry.inode,
            "hash": entry.hash,
            "length": len(payload),
            "digest": self._digest(payload),
        }
        target = self._path(source_path, name)
        try:
            self._prepare(target.parent)
            write_atomically(target, MAGIC + json.dumps(head).encode() + b"\n" + payload, temp_folder(self.folder))
            self.stats["written"] += 1
        except OSError:
            pass  # a read-only or full disk makes the run slower, never wrong

    def _prepare(self, sub: Path) -> None:
        if not self._ready:
            prepare_folder(self.folder)
            self._ready = True
        sub.mkdir(parents=True, exist_ok=True)


def prepare_folder(folder: Path) -> None:
    """Create the cache folder with its ``.gitignore`` (``*``), ``CACHEDIR.TAG`` and the
    folder of temporary files."""
    temp_folder(folder).mkdir(parents=True, exist_ok=True)
    for name, text in ((".gitignore", _GITIGNORE), ("CACHEDIR.TAG", _TAG)):
        p = folder / name
        if not p.exists():
            p.write_text(text)


def temp_folder(folder: Path) -> Path:
    """Where the cache's temporary files are written (one folder: the next run lists only it)."""
    return Path(folder) / TEMP_FOLDER


def remove_leftovers(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files a killed run left in the cache at ``folder``."""
    return temp_files.remove_leftovers_in(temp_folder(Path(folder)))


def new_entry(st: os.stat_result, data_hash: str, summary_bytes: bytes) -> Entry:
    return Entry(st.st_size, st.st_mtime_ns, time.time_ns(), st.st_dev, st.st_ino, data_hash, summary_bytes)


def unlink_quietly(p: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(p)
