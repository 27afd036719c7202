"""One ``os.stat`` per input file per run, shared by the stages that need it."""

from __future__ import annotations

import os
import time


class StatMemo:
    """The ``os.stat`` of each input file, taken once per run and shared by the stages that
    need it (the result cache's check, discovery, the summarizer), by path as shown.

    ``taken_ns`` is a time before the first of them was taken: a state recorded from one of
    these stats must be recorded at that time, or earlier (a file written after its stat has
    an mtime after it, which the racy-mtime rule does not trust).  Failures are not kept:
    a file that could not be stat'ed is tried again by whoever asks next."""

    def __init__(self) -> None:
        self.taken_ns = time.time_ns()
        self.results: dict[str, os.stat_result] = {}

    def stat(self, path: str, real: str | None = None) -> os.stat_result:
        """``os.stat(real or path)`` (``real``: the same file's resolved path), taken once."""
        st = self.results.get(path)
        if st is None:
            st = self.results[path] = os.stat(real or path)
        return st

    def get(self, path: str) -> os.stat_result | None:
        """The stat of ``path`` taken or tried before, None when it was not or failed."""
        return self.results.get(path)
