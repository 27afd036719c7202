"""Hypothesis profiles for the robustness properties, and the figures printed at the end of a run."""

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("robustness", max_examples=60, deadline=None, derandomize=True, suppress_health_check=_QUIET)
settings.register_profile("robustness-long", max_examples=1000, deadline=None, suppress_health_check=_QUIET)


def pytest_terminal_summary(terminalreporter):
    from robust_helpers import FIGURES

    if FIGURES:
        terminalreporter.write_sep("-", "deadinit robustness figures (README: Robustness)")
        for key, value in FIGURES.items():
            terminalreporter.write_line(f"{key}: {value}")
        dead, found = FIGURES.get("runtime-dead parent allocations"), FIGURES.get("of which reported")
        if dead:
            terminalreporter.write_line(f"recall: {found / dead:.1%}")
