"""A rich progress bar on stderr for runs longer than about a second, on a TTY only.

``ProgressSummarizer`` wraps the summarizer ``run_check`` calls.  A summarizer
that takes a ``progress`` keyword (``progress(done, total)``) is called once and
reports itself; any other is called in chunks.  After summarising, a spinner
stays up for the analysis until ``close()``.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

DELAY = 1.0


def progress_wrap(console: Console | None):
    """What a ``Session`` puts around its summarizer (``wrap``): a progress bar on ``console``."""
    if console is None:
        return None
    return lambda base: ProgressSummarizer(console, base=base)


class ProgressSummarizer:
    def __init__(self, console: Console, base: Callable, delay: float = DELAY):
        self.console = console
        self.base = base
        self.delay = delay
        self.start = time.monotonic()
        self.progress: Progress | None = None
        self.task = None

    def _show(self, done: int, total: int) -> None:
        if self.progress is None:
            if time.monotonic() - self.start < self.delay:
                return
            from rich.progress import (  # noqa: PLC0415 - only once a bar is shown: a short run never loads it
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            self.progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self.progress.start()
            self.task = self.progress.add_task("summarising files", total=total)
        self.progress.update(self.task, completed=done, total=total)

    def __call__(self, items, settings):
        base = self.base
        items = list(items)
        total = len(items)
        try:
            takes_progress = "progress" in inspect.signature(base).parameters
        except (TypeError, ValueError):
            takes_progress = False
        if takes_progress:
            out = base(items, settings, progress=self._show)
        else:
            out = []
            step = max(1, min(64, total // 50 or 1))
            for i in range(0, total, step):
                out.extend(base(items[i : i + step], settings))
                self._show(len(out), total)
        if self.progress is not None:
            self.progress.update(self.task, completed=total, description="analysing class hierarchies")
        return out

    @property
    def content_hashes(self) -> dict:
        """The wrapped summarizer's (``ProjectSummarizer.content_hashes``): the incremental analysis's
        module fingerprints."""
        return getattr(self.base, "content_hashes", {})

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
