"""Figures the tests add up (examples run, findings judged, files checked...), printed at the end
of a run by ``conftest.py``, from every xdist worker (a uniquely named module: several
conftest.py files exist)."""

FIGURES: dict = {}


def count(key: str, n: int = 1) -> None:
    FIGURES[key] = FIGURES.get(key, 0) + n


def merge(figures: dict) -> None:
    for key, n in figures.items():
        count(key, n)
