"""A file the run could not summarise: one line naming the file and the problem."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class FileError:
    path: str
    message: str
    internal: bool = False  # an internal error of deadinit's, not a problem of the file: the run exits 2
    line: int | None = None  # where in the file, when the problem has a place (a syntax error)
    column: int | None = None

    def __str__(self) -> str:
        return f"{os.path.normpath(self.path)}: {self.message}"  # ./a.py as a.py, as reports spell paths
