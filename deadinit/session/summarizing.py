"""What a stage of the session calls to summarise the files discovery found: the in-process
``frontends.parse.summarize_many``, a ``runtime.summarizer.ProjectSummarizer``, or what the
front-end wraps around either (``Session.wrap``, a progress bar)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # a warm check answered by the result cache loads no summary
    from deadinit.model.file_error import FileError
    from deadinit.model.settings import Settings
    from deadinit.model.summary import FileSummary

# (path, module, is_package) of one discovered file
Item = tuple[str, str, bool]


class Summarize(Protocol):
    """The summaries of ``items`` (a ``FileError`` for a file that could not be summarised)."""

    def __call__(self, items: list[Item], settings: Settings, /) -> list[FileSummary | FileError]: ...


class Fingerprinted(Summarize, Protocol):
    """A summarizer that hashes what it read: the incremental analysis's module fingerprints."""

    @property
    def content_hashes(self) -> Mapping[str, str]: ...


class StageSummarizer(Fingerprinted, Protocol):
    """A summarizer one stage uses and closes after (``Session._summarising``): a
    ``ProjectSummarizer`` or what ``Session.wrap`` put around a summarizer."""

    def close(self) -> None: ...
