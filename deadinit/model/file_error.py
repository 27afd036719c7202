"""A file the run could not summarise: one line naming the file and the problem."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileError:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"
