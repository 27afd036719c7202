"""A record's fields as plain values for the JSON reporters: ``dataclasses.asdict`` without its deep copies.

``asdict`` deep-copies every value that is not a dataclass, list, tuple or dict; a finding's
values are strings, numbers and enums, which the reporters only read.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any


def plain_fields(record: Any, **given: Any) -> dict[str, Any]:
    """``asdict(record)``, in its fields' order, with the fields named in ``given`` taken from it."""
    return {f.name: given[f.name] if f.name in given else plain(getattr(record, f.name)) for f in fields(record)}


def plain(value: Any) -> Any:
    """``value`` with its dataclasses as dicts and its containers copied, as ``asdict`` gives them."""
    if is_dataclass(value) and not isinstance(value, type):
        return plain_fields(value)
    kind = type(value)
    if kind is list:
        return [plain(v) for v in value]
    if kind is dict:
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        items = [plain(v) for v in value]
        return kind(*items) if hasattr(value, "_fields") else kind(items)
    return value
