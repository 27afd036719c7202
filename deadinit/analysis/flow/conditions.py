"""Tri-state truth of the conditions an ``__init__`` statement runs under, and their text.

A condition is an ``Expr`` tuple (``deadinit.semantics.exprs``).  Values come from
``env`` (the ``__init__``'s parameters, bound from the caller's arguments) and
``self_env`` (``self.x`` values assigned earlier in the chain).  ``Facts`` holds what
only ever makes a condition *false* when nothing else decides it: the class
attributes of the class being analysed, what an ``assert`` established, and
attributes set on an object before it was passed up (``config.x = None;
super().__init__(config)``).  Those are trusted to rule an allocation out, never in:
something deadinit does not follow (a method call) could have changed them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deadinit.model.kinds import ExprTag
from deadinit.semantics.exprs import EMPTY, NOTNONE, UNKNOWN, Expr, certainly_not_none, ordered
from deadinit.semantics.init.flow import Guards

Env = dict[str, Expr]  # a name (parameter or self attribute) -> what it holds


@dataclass
class Facts:
    names: dict[str, Expr] = field(default_factory=dict)  # asserted values of parameters and locals
    dotted: dict[str, Expr] = field(default_factory=dict)  # ``param.attr`` values set before the call
    class_values: dict[str, Expr] = field(default_factory=dict)  # the analysed class's class attributes
    assigned: set[str] = field(default_factory=set)  # self attributes the chain assigned (class values hidden)
    # self attributes assigned a value only these facts give (``self.ids = config.ids`` after ``config.ids = []``)
    self_values: dict[str, Expr] = field(default_factory=dict)

    def value(self, e: Expr) -> Expr:
        k = e[0]
        if k == ExprTag.NAME:
            return self.names.get(e[1], UNKNOWN)
        if k == ExprTag.DOTTED:
            return self.dotted.get(e[1], UNKNOWN)
        if k == ExprTag.SELF and e[1] in self.self_values:
            return self.self_values[e[1]]
        if k == ExprTag.SELF and e[1] not in self.assigned:
            return self.class_values.get(e[1], UNKNOWN)
        return UNKNOWN


_SAME_LENGTH = frozenset({"list", "tuple", "enumerate", "reversed", "sorted"})  # an iterable as long as its argument
_COPIES = frozenset({"list", "tuple", "sorted", "set"})  # a new collection of its argument's items (falsy when empty)


def _truth(v: Expr) -> bool | None:
    if v[0] == ExprTag.CONST:
        return bool(v[1])
    if v == EMPTY:
        return False
    if v[0] == ExprTag.TUPLE:
        return bool(v[1])
    return None


def evaluate(cond: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> bool | None:
    """Tri-state truth of a condition under parameter bindings (and ``facts``, see the module doc)."""
    k = cond[0]
    if k == ExprTag.NOT:
        v = evaluate(cond[1], env, self_env, facts)
        return None if v is None else not v
    if k in (ExprTag.AND, ExprTag.OR):
        a, b = evaluate(cond[1], env, self_env, facts), evaluate(cond[2], env, self_env, facts)
        if k == ExprTag.AND:
            if a is False or b is False:
                return False
            return True if a is True and b is True else None
        if a is True or b is True:
            return True
        return False if a is False and b is False else None
    if k in (ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):
        value = value_of(cond[1], env, self_env, facts)
        if value[0] == ExprTag.CONST:
            r = value[1] is None
        elif value in (NOTNONE, EMPTY) or value[0] == ExprTag.TUPLE:
            r = False
        else:
            return None
        return r if k == ExprTag.IS_NONE else not r
    if k in (ExprTag.EQ, ExprTag.NE):
        left, right = value_of(cond[1], env, self_env, facts), value_of(cond[2], env, self_env, facts)
        if left[0] == ExprTag.CONST and right[0] == ExprTag.CONST:
            return bool(left[1] == right[1]) if k == ExprTag.EQ else bool(left[1] != right[1])
        return None
    if k == ExprTag.CMP:
        left, right = value_of(cond[2], env, self_env, facts), value_of(cond[3], env, self_env, facts)
        return ordered(cond[1], left[1], right[1]) if left[0] == ExprTag.CONST and right[0] == ExprTag.CONST else None
    if k == ExprTag.IN:
        within = cond[2]
        if within[0] == ExprTag.TUPLE:
            within = (ExprTag.TUPLE, tuple(value_of(x, env, self_env, facts) for x in within[1]))
        return _member(
            value_of(cond[1], env, self_env, facts),
            within if within[0] == ExprTag.TUPLE else value_of(within, env, self_env, facts),
        )
    return _truth(value_of(cond, env, self_env, facts))


def _member(item: Expr, within: Expr) -> bool | None:
    """``item in within`` for a literal in a tuple of literals (or an empty collection)."""
    if within == EMPTY:
        return False
    if item[0] != ExprTag.CONST or within[0] != ExprTag.TUPLE or any(x[0] != ExprTag.CONST for x in within[1]):
        return None
    return any(x[1] == item[1] for x in within[1])


def value_of(e: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> Expr:
    if e[0] == ExprTag.CONST or e in (NOTNONE, EMPTY):
        return e
    v = UNKNOWN
    if e[0] == ExprTag.NAME:
        v = env.get(e[1], UNKNOWN)
    elif e[0] == ExprTag.SELF:
        v = self_env.get(e[1], UNKNOWN)
    elif e[0] == ExprTag.IFEXP:
        test = evaluate(e[1], env, self_env, facts)
        return UNKNOWN if test is None else value_of(e[2] if test else e[3], env, self_env, facts)
    elif e[0] == ExprTag.CALL:
        return _call_value(e, env, self_env, facts)
    elif e[0] == ExprTag.TUPLE:  # its items' values: its length and truth are known
        return (ExprTag.TUPLE, tuple(value_of(x, env, self_env, facts) for x in e[1]))
    elif certainly_not_none(e):
        return NOTNONE
    if v == UNKNOWN and facts is not None:
        v = facts.value(e)
    return v


def _call_value(e: Expr, env: Env, self_env: Env, facts: Facts | None) -> Expr:
    """``len(x)`` of a collection whose length is known; ``hasattr(obj, "f")`` and ``getattr(obj, "f", d)``
    once ``obj.f`` was given a value before the call (``facts``)."""
    fn, args = e[1], e[2]
    if fn == "len" and len(args) == 1 and not e[3]:
        n = length(args[0], env, self_env, facts)
        return UNKNOWN if n is None else (ExprTag.CONST, n)
    if fn in _COPIES and len(args) == 1 and not e[3] and length(args[0], env, self_env, facts) == 0:
        return EMPTY  # ``list(ids)`` of an empty ``ids``: a new empty collection
    if (
        fn == "getattr"
        and len(args) in (2, 3)
        and args[0][0] == ExprTag.NAME
        and args[1][0] == ExprTag.CONST
        and not e[3]
    ):
        return value_of(
            (ExprTag.DOTTED, f"{args[0][1]}.{args[1][1]}"), env, self_env, facts
        )  # an attribute given before
    if (
        fn == "hasattr"
        and len(args) == 2
        and args[0][0] == ExprTag.NAME
        and args[1][0] == ExprTag.CONST
        and facts is not None
    ):
        given = facts.value((ExprTag.DOTTED, f"{args[0][1]}.{args[1][1]}"))
        return UNKNOWN if given == UNKNOWN else (ExprTag.CONST, True)
    return UNKNOWN


def length(e: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> int | None:
    """How many items the collection ``e`` gives when iterated (``range(n)``, ``len``-preserving wrappers of
    an empty literal or a tuple), or None when unknown."""
    if e[0] == ExprTag.TUPLE:
        return len(e[1])
    if e[0] == ExprTag.CALL and not e[3] and len(e[2]) == 1:
        if e[1] == "range":
            n = value_of(e[2][0], env, self_env, facts)
            return max(n[1], 0) if n[0] == ExprTag.CONST and type(n[1]) is int else None
        return length(e[2][0], env, self_env, facts) if e[1] in _SAME_LENGTH else None
    v = value_of(e, env, self_env, facts)
    if v == EMPTY:
        return 0
    return len(v[1]) if v[0] == ExprTag.TUPLE else None


def guard_state(guards: Guards, env: Env, self_env: Env, facts: Facts) -> tuple[bool | None, list[Expr]]:
    """(False if some guard is false; True if all hold; None otherwise, with the undecided guards).

    ``facts`` may only make a guard false."""
    state: bool | None = True
    open_: list[Expr] = []
    for g in guards:
        v = evaluate(g, env, self_env)
        if v is None and evaluate(g, env, self_env, facts) is False:
            v = False
        if v is False:
            return False, []
        if v is None:
            state = None
            open_.append(g)
    return state, open_


_OPS = {ExprTag.EQ: "==", ExprTag.NE: "!=", ExprTag.IN: "in"}
_NONE_TESTS = {ExprTag.IS_NONE: "is None", ExprTag.IS_NOT_NONE: "is not None"}
_PARENTHESISED = frozenset(
    {ExprTag.AND, ExprTag.OR, ExprTag.NOT, ExprTag.BIN, ExprTag.CMP, ExprTag.IN, *_OPS, *_NONE_TESTS}
)  # what reads as part of a longer condition only in parentheses


def condition_text(guards: Guards) -> str | None:
    """``a and not b`` for the guards nothing decides (None when there are none)."""
    return " and ".join(_paren(g) if len(guards) > 1 else text(g) for g in guards) or None


def text(e: Expr) -> str:
    """A condition as Python-like text (``...`` for what was not recorded)."""
    k = e[0]
    if k == ExprTag.CONST:
        return repr(e[1])
    if k in (ExprTag.NAME, ExprTag.DOTTED):
        name: str = e[1]
        return name
    if k == ExprTag.SELF:
        return f"self.{e[1]}"
    if k == ExprTag.NOT:
        inner = e[1]
        if inner[0] in (ExprTag.IS_NONE, ExprTag.IS_NOT_NONE):  # ``not (x is not None)`` reads as ``x is None``
            return text((ExprTag.IS_NOT_NONE if inner[0] == ExprTag.IS_NONE else ExprTag.IS_NONE, inner[1]))
        if inner[0] == ExprTag.IN:
            return f"{_paren(inner[1])} not in {_paren(inner[2])}"
        return f"not {_paren(inner)}"
    if k in (ExprTag.AND, ExprTag.OR):
        return f"{_paren(e[1])} {k} {_paren(e[2])}"
    if k in _NONE_TESTS:
        return f"{_paren(e[1])} {_NONE_TESTS[k]}"
    if k in _OPS:
        return f"{_paren(e[1])} {_OPS[k]} {_paren(e[2])}"
    if k in (ExprTag.CMP, ExprTag.BIN):  # the operator written in the expression
        return f"{_paren(e[2])} {e[1]} {_paren(e[3])}"
    if k == ExprTag.TUPLE:
        return "(" + ", ".join(text(x) for x in e[1]) + ("," if len(e[1]) == 1 else "") + ")"
    if k == ExprTag.CALL:
        return f"{e[1] if e[1] != '?' else '...'}(...)"
    return "..."


def _paren(e: Expr) -> str:
    s = text(e)
    return f"({s})" if e[0] in _PARENTHESISED else s
