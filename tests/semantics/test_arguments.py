"""Which parameters a call's ``*args`` / ``**kwargs`` may fill (semantics.arguments)."""

import pytest

from deadinit.model.summary import InitStmt, Param
from deadinit.semantics.arguments import spread_fills

PARAMS = [
    Param("dim", None, "posonly"),
    Param("weight_init", ("const", "normal")),
    Param("depth", ("const", 2)),
    Param("extra", None, "star"),
    Param("gate", ("const", "full"), "kwonly"),
    Param("rest", None, "dstar"),
]


def call(args=0, kwargs=(), star=False, dstar=False):
    return InitStmt(
        "super_init",
        1,
        0,
        1,
        args=(("name", "d"),) * args,
        kwargs=tuple((k, ("const", "skip")) for k in kwargs),
        spreads_args=star,
        spreads_kwargs=dstar,
    )


@pytest.mark.parametrize(
    ("stmt", "filled"),
    [
        (call(), set()),
        (call(star=True, dstar=True, kwargs=("weight_init",)), {"dim", "depth", "extra", "gate", "rest"}),
        (call(args=2, star=True), {"depth", "extra"}),  # positional after the explicit ones; not the keyword-only
        (call(args=1, dstar=True), {"weight_init", "depth", "gate", "rest"}),  # not the positional-only ``dim``
        (call(args=1, dstar=True, kwargs=("gate",)), {"weight_init", "depth", "rest"}),
        (call(args=3, star=True, dstar=True), {"extra", "gate", "rest"}),
    ],
)
def test_a_spread_fills_only_what_an_explicit_argument_leaves_and_it_can_reach(stmt, filled):
    assert spread_fills(PARAMS, stmt) == filled
    assert stmt.star_args is (stmt.spreads_args or stmt.spreads_kwargs)
