"""``fix``'s face: the strategies, their options, and the run that plans a rewrite from a session's
result (``Session.for_fix``), proves it (``deadinit.fixes.driver``, with the session's re-analysis)
and writes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deadinit.fixes.registry import STRATEGY_CODES, load_strategies
from deadinit.model.fix import FixOptions
from deadinit.model.result import CheckResult

if TYPE_CHECKING:
    from deadinit.fixes.driver import FixOutcome

__all__ = ["STRATEGY_CODES", "FixOptions", "load_strategies", "nothing_to_fix", "run_fix"]


def run_fix(result: CheckResult, strategy: str, options: FixOptions, write: bool = True) -> FixOutcome:
    """The checked plan of ``strategy`` for ``result``, written unless ``write`` is False (a
    ``deadinit.fixes.driver.FixOutcome``)."""
    from deadinit.fixes.driver import run_fix as run  # noqa: PLC0415 - libcst, not for `deadinit --help`

    return run(result, strategy, options, write)


def nothing_to_fix(strategy: str, result: CheckResult) -> FixOutcome:
    """The outcome of a run that had no class to rewrite: an empty plan."""
    from deadinit.fixes.driver import FixOutcome  # noqa: PLC0415 - libcst, not for `deadinit --help`
    from deadinit.model.fix import Plan  # noqa: PLC0415 - with the outcome

    return FixOutcome(strategy, Plan(), result)
