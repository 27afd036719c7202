"""Every rule, by stable code and readable name: what the engine runs, the docs list and select/ignore accept."""

from __future__ import annotations

from deadinit.analysis.facts import AttrFact
from deadinit.model.finding import Finding
from deadinit.model.result import CheckResult
from deadinit.model.settings import Settings
from deadinit.rules.base import Rule
from deadinit.rules.di001_overwritten_parent_allocation import OverwrittenParentAllocation
from deadinit.rules.di002_unread_parent_allocation import UnreadParentAllocation
from deadinit.rules.di003_low_reuse_inheritance import LowReuseInheritance
from deadinit.rules.di004_parent_init_call_raises import ParentInitCallRaises
from deadinit.rules.di100_unused_suppression import UnusedSuppression

ATTRIBUTE_RULES = [OverwrittenParentAllocation, UnreadParentAllocation]  # each decides on the analysis' facts
ANALYSIS_RULES: list[type[Rule]] = [*ATTRIBUTE_RULES, LowReuseInheritance, ParentInitCallRaises]
ALL_RULES: list[type[Rule]] = [*ANALYSIS_RULES, UnusedSuppression]  # DI100 runs on the suppressed findings


def lookup(token: str) -> type[Rule] | None:
    """The rule with this code (any case) or name."""
    for r in ALL_RULES:
        if token.upper() == r.code or token.lower() == r.name:
            return r
    return None


def severity(code: str) -> str:
    """How bad the rule's findings are: ``error`` (the code cannot work as written) or ``warning``."""
    rule = lookup(code)
    return rule.severity if rule is not None else "warning"


def selected_rules(settings: Settings) -> list[type[Rule]]:
    rules = ANALYSIS_RULES
    if settings.select:
        rules = [r for r in rules if r.code in settings.select or r.name in settings.select]
    if settings.ignore:
        rules = [r for r in rules if r.code not in settings.ignore and r.name not in settings.ignore]
    return rules


def reports_attribute(fact: AttrFact) -> bool:
    """Whether some rule reports the fact (whatever is selected: DI003 and the fixes build on them)."""
    return attribute_rule_for(fact) is not None


def attribute_rule_for(fact: AttrFact):
    """The rule that reports the fact, if any (at most one does)."""
    return next((r for r in ATTRIBUTE_RULES if r.reports(fact)), None)


def unused_suppressions(result: CheckResult, settings: Settings) -> list[Finding]:
    """DI100 findings (``--report-unused-ignores``) for the suppression comments of ``result``."""
    known = {t.upper() for r in ALL_RULES for t in (r.code, r.name)}
    active = {t.upper() for r in selected_rules(settings) for t in (r.code, r.name)}
    return UnusedSuppression.findings(result, known, active)
