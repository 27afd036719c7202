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

from deadinit.semantics.exprs import NOTNONE, UNKNOWN, Expr, certainly_not_none, ordered
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
        if k == "name":
            return self.names.get(e[1], UNKNOWN)
        if k == "dotted":
            return self.dotted.get(e[1], UNKNOWN)
        if k == "self" and e[1] in self.self_values:
            return self.self_values[e[1]]
        if k == "self" and e[1] not in self.assigned:
            return self.class_values.get(e[1], UNKNOWN)
        return UNKNOWN


EMPTY: Expr = ("empty",)  # an empty list or dict literal
_SAME_LENGTH = frozenset({"list", "tuple", "enumerate", "reversed", "sorted"})  # an iterable as long as its argument
_COPIES = frozenset({"list", "tuple", "sorted", "set"})  # a new collection of its argument's items (falsy when empty)


def _truth(v: Expr) -> bool | None:
    if v[0] == "const":
        return bool(v[1])
    if v == EMPTY:
        return False
    if v[0] == "tuple":
        return bool(v[1])
    return None


def evaluate(cond: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> bool | None:
    """Tri-state truth of a condition under parameter bindings (and ``facts``, see the module doc)."""
    k = cond[0]
    if k == "not":
        v = evaluate(cond[1], env, self_env, facts)
        return None if v is None else not v
    if k in ("and", "or"):
        a, b = evaluate(cond[1], env, self_env, facts), evaluate(cond[2], env, self_env, facts)
        if k == "and":
            if a is False or b is False:
                return False
            return True if a is True and b is True else None
        if a is True or b is True:
            return True
        return False if a is False and b is False else None
    if k in ("is_none", "is_not_none"):
        value = value_of(cond[1], env, self_env, facts)
        if value[0] == "const":
            r = value[1] is None
        elif value in (NOTNONE, EMPTY) or value[0] == "tuple":
            r = False
        else:
            return None
        return r if k == "is_none" else not r
    if k in ("eq", "ne"):
        left, right = value_of(cond[1], env, self_env, facts), value_of(cond[2], env, self_env, facts)
        if left[0] == "const" and right[0] == "const":
            return bool(left[1] == right[1]) if k == "eq" else bool(left[1] != right[1])
        return None
    if k == "cmp":
        left, right = value_of(cond[2], env, self_env, facts), value_of(cond[3], env, self_env, facts)
        return ordered(cond[1], left[1], right[1]) if left[0] == "const" and right[0] == "const" else None
    if k == "in":
        within = cond[2]
        if within[0] == "tuple":
            within = ("tuple", tuple(value_of(x, env, self_env, facts) for x in within[1]))
        return _member(
            value_of(cond[1], env, self_env, facts),
            within if within[0] == "tuple" else value_of(within, env, self_env, facts),
        )
    return _truth(value_of(cond, env, self_env, facts))


def _member(item: Expr, within: Expr) -> bool | None:
    """``item in within`` for a literal in a tuple of literals (or an empty collection)."""
    if within == EMPTY:
        return False
    if item[0] != "const" or within[0] != "tuple" or any(x[0] != "const" for x in within[1]):
        return None
    return any(x[1] == item[1] for x in within[1])


def value_of(e: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> Expr:
    if e[0] == "const" or e in (NOTNONE, EMPTY):
        return e
    v = UNKNOWN
    if e[0] == "name":
        v = env.get(e[1], UNKNOWN)
    elif e[0] == "self":
        v = self_env.get(e[1], UNKNOWN)
    elif e[0] == "ifexp":
        test = evaluate(e[1], env, self_env, facts)
        return UNKNOWN if test is None else value_of(e[2] if test else e[3], env, self_env, facts)
    elif e[0] == "call":
        return _call_value(e, env, self_env, facts)
    elif e[0] == "tuple":  # its items' values: its length and truth are known
        return ("tuple", tuple(value_of(x, env, self_env, facts) for x in e[1]))
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
        return UNKNOWN if n is None else ("const", n)
    if fn in _COPIES and len(args) == 1 and not e[3] and length(args[0], env, self_env, facts) == 0:
        return EMPTY  # ``list(ids)`` of an empty ``ids``: a new empty collection
    if fn == "getattr" and len(args) in (2, 3) and args[0][0] == "name" and args[1][0] == "const" and not e[3]:
        return value_of(("dotted", f"{args[0][1]}.{args[1][1]}"), env, self_env, facts)  # an attribute given before
    if fn == "hasattr" and len(args) == 2 and args[0][0] == "name" and args[1][0] == "const" and facts is not None:
        given = facts.value(("dotted", f"{args[0][1]}.{args[1][1]}"))
        return UNKNOWN if given == UNKNOWN else ("const", True)
    return UNKNOWN


def length(e: Expr, env: Env, self_env: Env, facts: Facts | None = None) -> int | None:
    """How many items the collection ``e`` gives when iterated (``range(n)``, ``len``-preserving wrappers of
    an empty literal or a tuple), or None when unknown."""
    if e[0] == "tuple":
        return len(e[1])
    if e[0] == "call" and not e[3] and len(e[2]) == 1:
        if e[1] == "range":
            n = value_of(e[2][0], env, self_env, facts)
            return max(n[1], 0) if n[0] == "const" and type(n[1]) is int else None
        return length(e[2][0], env, self_env, facts) if e[1] in _SAME_LENGTH else None
    v = value_of(e, env, self_env, facts)
    if v == EMPTY:
        return 0
    return len(v[1]) if v[0] == "tuple" else None


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


_OPS = {"eq": "==", "ne": "!=", "in": "in"}
_NONE_TESTS = {"is_none": "is None", "is_not_none": "is not None"}


def condition_text(guards: Guards) -> str | None:
    """``a and not b`` for the guards nothing decides (None when there are none)."""
    return " and ".join(_paren(g) if len(guards) > 1 else text(g) for g in guards) or None


def text(e: Expr) -> str:
    """A condition as Python-like text (``...`` for what was not recorded)."""
    k = e[0]
    if k == "const":
        return repr(e[1])
    if k in ("name", "dotted"):
        name: str = e[1]
        return name
    if k == "self":
        return f"self.{e[1]}"
    if k == "not":
        inner = e[1]
        if inner[0] in ("is_none", "is_not_none"):  # ``not (x is not None)`` reads as ``x is None``
            return text(("is_not_none" if inner[0] == "is_none" else "is_none", inner[1]))
        if inner[0] == "in":
            return f"{_paren(inner[1])} not in {_paren(inner[2])}"
        return f"not {_paren(inner)}"
    if k in ("and", "or"):
        return f"{_paren(e[1])} {k} {_paren(e[2])}"
    if k in _NONE_TESTS:
        return f"{_paren(e[1])} {_NONE_TESTS[k]}"
    if k in _OPS:
        return f"{_paren(e[1])} {_OPS[k]} {_paren(e[2])}"
    if k in ("cmp", "bin"):  # the operator written in the expression
        return f"{_paren(e[2])} {e[1]} {_paren(e[3])}"
    if k == "tuple":
        return "(" + ", ".join(text(x) for x in e[1]) + ("," if len(e[1]) == 1 else "") + ")"
    if k == "call":
        return f"{e[1] if e[1] != '?' else '...'}(...)"
    return "..."


def _paren(e: Expr) -> str:
    s = text(e)
    return f"({s})" if e[0] in ("and", "or", "not", "is_none", "is_not_none", "eq", "ne", "bin", "cmp", "in") else s
