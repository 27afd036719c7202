"""The fix strategies (``deadinit fix --strategy``) and the rules whose findings each fixes: a report
names the strategy that fixes a finding without loading the fix records (``model.fix``)."""

from __future__ import annotations

# the first is the default strategy
STRATEGY_CODES = {
    "skip-flag": ("DI001", "DI002"),
    "direct-base": ("DI003",),
}
