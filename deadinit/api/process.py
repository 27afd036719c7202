"""The process around a command: interrupts, atomic writes, the helper process and the summariser
with its cache and workers (each loaded only when a command asks: ``--help`` needs none)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deadinit.runtime.interrupts import EXIT_INTERRUPTED, install_exit_at_once

if TYPE_CHECKING:
    from pathlib import Path

    from deadinit.runtime.summarizer import ProjectSummarizer

__all__ = ["EXIT_INTERRUPTED", "install_exit_at_once", "prestart", "project_summarizer", "write_atomically"]


def write_atomically(target: Path, data: bytes) -> None:
    """``data`` into ``target`` whole (``runtime.file_cache.write_atomically``)."""
    from deadinit.runtime import file_cache  # noqa: PLC0415 - hashing and temporary files: --version needs none

    file_cache.write_atomically(target, data)


def prestart() -> None:
    """Start the helper process that loads the summarisers on the other core (``runtime.helper``)."""
    from deadinit.runtime.helper import prestart as start  # noqa: PLC0415 - multiprocessing: only a cached check

    start()


def project_summarizer(
    no_cache: bool = False, cache_dir: str | None = None, jobs: int | None = None, freeze_gc: bool = False
) -> ProjectSummarizer:
    """The per-file cache and the workers (``runtime.summarizer.ProjectSummarizer``)."""
    from deadinit.runtime.summarizer import ProjectSummarizer  # noqa: PLC0415 - --help and the option list need none

    return ProjectSummarizer(jobs=jobs, use_cache=not no_cache, cache_dir=cache_dir, freeze_gc=freeze_gc)
