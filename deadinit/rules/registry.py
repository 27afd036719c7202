"""Rule registry: one module per rule, each with a stable code."""

from __future__ import annotations

from deadinit.rules.di001_overwritten_parent_allocation import OverwrittenParentAllocation
from deadinit.rules.di002_unread_parent_allocation import UnreadParentAllocation
from deadinit.rules.di003_low_reuse_inheritance import LowReuseInheritance
from deadinit.rules.di004_parent_init_call_raises import ParentInitCallRaises

ALL_RULES = [OverwrittenParentAllocation, UnreadParentAllocation, LowReuseInheritance, ParentInitCallRaises]


def by_code_or_name(token: str):
    for r in ALL_RULES:
        if token.upper() == r.code or token.lower() == r.name:
            return r
    return None
