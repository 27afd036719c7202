"""Codemods driven by findings.  One module per fix strategy, plus shared safety checks.

``STRATEGIES`` maps a ``--strategy`` name to a callable
``plan(result: CheckResult, options) -> list[FilePlan]`` (see each module).
"""

STRATEGIES: dict = {}
