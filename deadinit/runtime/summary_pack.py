"""Every summary of a run in one file: a warm run reads one file instead of one per source file.

The per-file cache (``deadinit.runtime.file_cache``) stays the source of truth; a pack
is a copy of its entries for one list of inputs, written after a run, so that the next
run over the same inputs reads one file, checks one keyed digest and never resolves
thousands of paths (on sglang, 4,719 files: about a third of loading the summaries).

A pack is named by the settings, the working folder and the discovered items (paths,
modules), so a run over other targets uses another pack.  It holds, per item, what the
item's summary was made from (size, mtime, the time that was recorded, device and
inode, content hash) and the summary's pickled bytes, exactly as the per-file entry
holds them.  An item's summary is taken from the pack only when the file's ``stat``
still gives that size, mtime, device and inode (and the mtime is not within
``RACY_NS`` of the recording); any other item goes the per-file way.  The whole pack
is refused (and the run goes the per-file way) unless its header names this
deadinit, cache format, settings and inputs and its keyed digest (HMAC-SHA256) matches: a
damaged or planted pack is never unpickled.  Packs are written like entries, to a
temporary file moved into place, never changed in place: a pack is mapped into memory
(``mmap``), not copied, so a run that writes a new one leaves the old file to the maps of
runs still reading it.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import pickle
import stat
from dataclasses import dataclass
from pathlib import Path

from deadinit.runtime import file_cache

FORMAT = 1
MAGIC = b"deadinit-pack\n"
FOLDER = "packs"
KEEP = 4  # packs kept in a cache folder (one per list of targets run there), the newest


@dataclass(frozen=True)
class Packed:
    """What the pack holds of one item."""

    size: int
    mtime_ns: int
    recorded_ns: int
    device: int
    inode: int
    hash: str
    summary_bytes: bytes | memoryview

    def stat_matches(self, st: os.stat_result) -> bool:
        return file_cache.stat_matches(st, self.size, self.mtime_ns, self.recorded_ns, self.device, self.inode)


@dataclass(frozen=True)
class Record:
    """What a run knows of one item for the next pack: the ``stat`` of the content summarised,
    when it was recorded, the content's hash and the pickled summary."""

    st: os.stat_result
    recorded_ns: int
    hash: str
    summary_bytes: bytes | memoryview


class SummaryPack:
    def __init__(self, folder: str | os.PathLike[str], settings_key: str, items: list[tuple[str, str, bool]]):
        self.folder = Path(folder)
        self.settings_key = settings_key
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{file_cache.ENV}\0{settings_key}\0{os.getcwd()}\0".encode())
        for path, module, is_package in items:
            h.update(f"{path}\0{module}\0{int(bool(is_package))}\n".encode())
        self.inputs = h.hexdigest()
        self.count = len(items)
        self.path = self.folder / FOLDER / f"{self.inputs}.pack"

    def load(self) -> list[Packed | None] | None:
        """Per item, what the pack holds of it (None: nothing); None when there is no pack
        or it is not trustworthy."""
        raw = _read(self.path)
        if raw is None:
            return None
        try:
            if raw[: len(MAGIC)] != MAGIC:
                return None
            nl = raw.find(b"\n", len(MAGIC))
            head = json.loads(raw[len(MAGIC) : nl])
            payload = memoryview(raw)[nl + 1 :]
            if (
                head.get("format") != FORMAT
                or head.get("cache_format") != file_cache.FORMAT
                or head.get("version") != file_cache.ENV
                or head.get("settings") != self.settings_key
                or head.get("inputs") != self.inputs
                or head.get("count") != self.count
                or head.get("length") != len(payload)
                or head.get("digest") != _digest(payload)
            ):
                return None
            return _entries(payload, head["index_length"], self.count)
        except Exception:
            return None  # damaged or foreign: the per-file entries serve, and the next pack replaces it

    def store(self, records: list[Record | None]) -> None:
        index: list[tuple[int, int, int, int, int, str, int] | None] = []
        blobs = []
        for r in records:
            if r is None:
                index.append(None)
                continue
            st, length = r.st, len(r.summary_bytes)
            index.append((st.st_size, st.st_mtime_ns, r.recorded_ns, st.st_dev, st.st_ino, r.hash, length))
            blobs.append(r.summary_bytes)
        index_bytes = pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL)
        payload = [index_bytes, *blobs]  # written piece by piece: 4,719 summaries are ~90 MB
        digest = file_cache.keyed_hasher()
        for piece in payload:
            digest.update(piece)
        head = {
            "format": FORMAT,
            "cache_format": file_cache.FORMAT,
            "version": file_cache.ENV,
            "settings": self.settings_key,
            "inputs": self.inputs,
            "count": self.count,
            "index_length": len(index_bytes),
            "length": sum(len(piece) for piece in payload),
            "digest": digest.hexdigest()[:32],
        }
        try:
            file_cache.prepare_folder(self.folder)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            head_line = MAGIC + json.dumps(head).encode() + b"\n"
            file_cache.write_atomically(self.path, [head_line, *payload], file_cache.temp_folder(self.folder))
            _keep_newest(self.path.parent, KEEP)
        except OSError:
            pass  # a read-only or full disk makes the next run slower, never wrong


def _read(path: Path) -> mmap.mmap | bytes | None:
    """The pack's bytes: mapped (not copied: ~100 MB) when no one but this user can write the
    file in place, so that what the keyed digest was checked over is what is unpickled (deadinit
    itself never writes a pack in place: a new one is moved over it, and a map keeps the old one);
    else read into memory."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if _only_owner_writes(st) and st.st_size > len(MAGIC):
                return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            return f.read()
    except (OSError, ValueError):
        return None


def _only_owner_writes(st: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is not None and st.st_uid == getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _entries(payload: memoryview, index_length: int, count: int) -> list[Packed | None] | None:
    index = pickle.loads(payload[:index_length])  # authenticated by the keyed digest
    if not isinstance(index, list) or len(index) != count:
        return None
    out: list[Packed | None] = []
    offset = index_length
    for row in index:
        if row is None:
            out.append(None)
            continue
        size, mtime_ns, recorded_ns, device, inode, content_hash, length = row
        out.append(Packed(size, mtime_ns, recorded_ns, device, inode, content_hash, payload[offset : offset + length]))
        offset += length
    return out if offset == len(payload) else None


def _digest(payload: bytes | memoryview) -> str:
    return file_cache.keyed_digest(payload)


def _keep_newest(folder: Path, keep: int) -> None:
    """Remove all but the ``keep`` most recently written packs (each list of targets leaves one)."""
    packs = []
    for p in folder.glob("*.pack"):
        try:
            packs.append((p.stat().st_mtime_ns, p))
        except OSError:
            continue
    for _, p in sorted(packs, reverse=True)[keep:]:
        file_cache.unlink_quietly(str(p))
