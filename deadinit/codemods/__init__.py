"""Codemods driven by findings.  One module per fix strategy, plus shared safety checks.

``STRATEGIES`` maps a ``--strategy`` name to a callable
``plan(result: CheckResult, options: FixOptions) -> Plan`` (records in
``deadinit.codemods.model``).  A strategy module registers itself on import
(``STRATEGIES["skip-flag"] = plan``); ``load_strategies()`` imports the modules of
this package so that ``deadinit fix`` sees every strategy without naming any.
"""

STRATEGIES: dict = {}
LOAD_ERRORS: dict = {}  # module -> error, for modules that failed to import

_NOT_STRATEGIES = {"model", "safety", "driver", "fix_cli", "report_table"}


def load_strategies() -> dict:
    import importlib
    import pkgutil

    for m in pkgutil.iter_modules(__path__):
        if not m.name.startswith("_") and m.name not in _NOT_STRATEGIES:
            try:
                importlib.import_module(f"{__name__}.{m.name}")
            except Exception as e:  # a broken strategy must not take the others down
                LOAD_ERRORS[m.name] = f"{type(e).__name__}: {e}"
    return STRATEGIES
