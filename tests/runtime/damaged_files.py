"""Ways to damage a cache file that starts with a magic line and a JSON header (the per-file
entries and the summary pack): the tests check each is rebuilt, never trusted."""

import json
import os
from collections.abc import Callable
from pathlib import Path

BYTE_DAMAGE = ("truncate", "flip", "garbage", "empty")


def damage_bytes(path: Path, damage: str) -> None:
    """One of ``BYTE_DAMAGE`` done to the file's bytes."""
    raw = path.read_bytes()
    path.write_bytes(
        {
            "truncate": lambda: raw[: len(raw) // 2],
            "flip": lambda: raw[:-10] + bytes([raw[-10] ^ 0xFF]) + raw[-9:],
            "garbage": lambda: os.urandom(len(raw)),
            "empty": lambda: b"",
        }[damage]()
    )


def rewrite_header(path: Path, magic: bytes, change: Callable[[dict, bytes], None]) -> None:
    """The file with its JSON header changed in place by ``change(header, payload)``."""
    raw = path.read_bytes()
    nl = raw.index(b"\n", len(magic))
    head, payload = json.loads(raw[len(magic) : nl]), raw[nl + 1 :]
    change(head, payload)
    path.write_bytes(magic + json.dumps(head).encode() + b"\n" + payload)
