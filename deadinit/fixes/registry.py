"""The fix strategies ``deadinit fix --strategy`` knows, loaded on first use.

A strategy is a sub-package of ``deadinit.fixes`` whose ``planner`` module has a
``plan(result: CheckResult, options: FixOptions) -> Plan`` function (records in
``deadinit.model.fix``).  Strategies never write files: ``deadinit.fixes.driver``
checks a plan with ``deadinit.fixes.safety`` and writes it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from deadinit.model.fix import FixOptions, Plan
from deadinit.model.result import CheckResult
from deadinit.model.strategies import STRATEGY_CODES  # the rules whose findings each strategy fixes

__all__ = ["LOAD_ERRORS", "STRATEGY_CODES", "STRATEGY_MODULES", "PlanFunction", "load_strategies"]

PlanFunction = Callable[[CheckResult, FixOptions], Plan]  # a strategy's ``planner.plan``

STRATEGY_MODULES = {
    "skip-flag": "deadinit.fixes.skip_flag.planner",
    "direct-base": "deadinit.fixes.direct_base.planner",
}
LOAD_ERRORS: dict[str, str] = {}  # strategy -> error, for strategies that failed to import


def load_strategies() -> dict[str, PlanFunction]:
    """Every strategy that imports, by name (a broken one does not take the others down)."""
    out: dict[str, PlanFunction] = {}
    for name, module in STRATEGY_MODULES.items():
        try:
            plan: PlanFunction = importlib.import_module(module).plan
            out[name] = plan
        except Exception as e:
            LOAD_ERRORS[name] = f"{type(e).__name__}: {e}"
    return out
