"""The rules, as ``deadinit rule`` lists them."""

from __future__ import annotations

from deadinit.rules.registry import ALL_RULES, lookup

__all__ = ["ALL_RULES", "lookup"]
