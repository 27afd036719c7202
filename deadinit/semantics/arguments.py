"""Which parameters of a function a call's spreads (``*args``, ``**kwargs``) may fill.

A call ``f(a, *args, **kwargs, mode="skip")`` binds ``a`` to the first positional parameter and
``mode`` to the parameter of that name on every path that does not raise; ``*args`` may fill the
positional parameters after the explicit positional arguments, ``**kwargs`` any parameter a
keyword can name. Neither can fill a parameter an explicit keyword gives (a second value raises).
"""

from __future__ import annotations

from collections.abc import Sequence

from deadinit.model.kinds import ParamKind
from deadinit.model.summary import InitStmt, Param

_POSITIONAL = (ParamKind.POSONLY, ParamKind.NORMAL)


def spread_fills(params: Sequence[Param], call: InitStmt) -> frozenset[str]:
    """The names of ``params`` that the spreads of ``call`` (an ``__init__`` or helper call) may give a
    value: a ``*args`` the positional parameters after the call's explicit positional arguments (and the
    callee's ``*args``), a ``**kwargs`` those a keyword can name (and the callee's ``**kwargs``); never one
    an explicit keyword names."""
    named = {k for k, _ in call.kwargs}
    star, dstar = call.spreads_args, call.spreads_kwargs
    out: set[str] = set()
    for i, p in enumerate(q for q in params if q.kind in _POSITIONAL):
        if p.kind == ParamKind.NORMAL and p.name in named:
            continue
        if i >= len(call.args) and (star or (dstar and p.kind == ParamKind.NORMAL)):
            out.add(p.name)
    for p in params:
        if (p.kind == ParamKind.KWONLY and dstar and p.name not in named) or (
            (p.kind == ParamKind.STAR and star) or (p.kind == ParamKind.DSTAR and dstar)
        ):
            out.add(p.name)
    return frozenset(out)
