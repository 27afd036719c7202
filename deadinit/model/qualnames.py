"""The short form of a qualified name, written once for every layer."""

from __future__ import annotations


def short_name(qualname: str) -> str:
    """The last part of a dotted qualified name: ``Linear`` for ``torch.nn.Linear``."""
    return qualname.rpartition(".")[2]
