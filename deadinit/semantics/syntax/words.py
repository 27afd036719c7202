"""The fixed words of the syntax model: a ``Simple`` statement's, a ``Names`` declaration's, and
the ``Other`` expressions the model asks about by name."""

from __future__ import annotations

from typing import Final

from deadinit.model.kinds import StrEnum


class Jump(StrEnum):
    """``Simple.what``: the statement (``pass`` jumps nowhere)."""

    PASS = "pass"
    BREAK = "break"
    CONTINUE = "continue"


class NameScope(StrEnum):
    """``Names.scope``: which declaration."""

    GLOBAL = "global"
    NONLOCAL = "nonlocal"


class OtherWhat:
    """What ``Other.what`` calls the forms the model asks about (any other is the node's type name)."""

    SLICE: Final = "slice"
    WALRUS: Final = "walrus"
