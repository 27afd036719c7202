"""c3_merge against CPython's own method resolution order, on random class graphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deadinit.index.c3 import c3_merge

graphs = st.lists(st.lists(st.integers(min_value=0, max_value=30), max_size=3, unique=True), min_size=1, max_size=12)


def _mros(bases_of: list[list[int]]) -> dict[str, list[str] | None]:
    """Build the classes in order (each may name earlier ones as bases): ours, and Python's."""
    ours: dict[str, list[str] | None] = {}
    real: dict[str, type] = {}
    python: dict[str, list[str] | None] = {}
    for i, raw in enumerate(bases_of):
        name = f"K{i}"
        bases = [f"K{b % i}" for b in raw] if i else []
        bases = list(dict.fromkeys(bases))
        if any(ours.get(b) is None for b in bases):
            continue
        seqs = [list(ours[b] or []) for b in bases] + [list(bases)]
        ours[name] = c3_merge(name, seqs)
        try:
            real[name] = type(name, tuple(real[b] for b in bases) or (object,), {})
            python[name] = [c.__name__ for c in real[name].__mro__[:-1]]
        except TypeError:
            python[name] = None
        if ours[name] is None:
            assert python[name] is None
            ours.pop(name)
            python.pop(name)
            real.pop(name, None)
        else:
            assert python[name] == ours[name]
    return ours


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_c3_merge_is_pythons_mro(bases_of: list[list[int]]) -> None:
    _mros(bases_of)


def test_inconsistent_order_is_none() -> None:
    # class X(A, B) and class Y(B, A): class Z(X, Y) has no consistent order
    assert c3_merge("Z", [["X", "A", "B"], ["Y", "B", "A"], ["X", "Y"]]) is None


def test_deep_chain_merges_in_linear_time() -> None:
    chain = [f"C{i}" for i in range(20000, 0, -1)]
    assert c3_merge("D", [chain, ["C20000"]]) == ["D", *chain]
