"""What a run recorded about one input file: enough to tell, on the next run, that it is unchanged."""

from __future__ import annotations

import os
from typing import NamedTuple

from deadinit.runtime import file_cache


class FileState(NamedTuple):
    """A tuple: a stored run holds one per file, and a warm run unpickles them all (twice as
    fast as a dataclass's)."""

    size: int
    mtime_ns: int
    recorded_ns: int
    device: int
    inode: int
    hash: str

    @classmethod
    def of(cls, st: os.stat_result, recorded_ns: int, content_hash: str) -> FileState:
        return cls(st.st_size, st.st_mtime_ns, recorded_ns, st.st_dev, st.st_ino, content_hash)

    def stat_matches(self, st: os.stat_result) -> bool:
        return file_cache.stat_matches(st, self.size, self.mtime_ns, self.recorded_ns, self.device, self.inode)
