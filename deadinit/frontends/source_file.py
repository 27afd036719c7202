"""A source file's bytes, or one line saying why they cannot be read (no parser loaded)."""

from __future__ import annotations

import re

from deadinit.model.file_error import FileError

LINE_END = re.compile(rb"\r\n|\r|\n")  # the line ends CPython (and libcst) count: a lone "\r" too


def read_source(path: str) -> bytes | FileError:
    try:
        with open(path, "rb") as f:
            return f.read()
    except IsADirectoryError:
        return FileError(path, "is a directory, not a file")
    except FileNotFoundError:
        return FileError(path, "disappeared before it could be read")
    except PermissionError:
        return FileError(path, "cannot read: permission denied")
    except OSError as e:
        return FileError(path, f"cannot read: {e.strerror or e}")
