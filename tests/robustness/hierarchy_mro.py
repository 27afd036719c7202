"""Where the parent-``__init__`` calls of a generated hierarchy go, decided as Python decides it.

The generator asks this module which ``__init__`` a call reaches (to pass it arguments
it can take, or, on purpose, some it cannot) and which instance attributes certainly
exist when a statement runs (a ``del self.x`` must find ``x``).  The MROs come from
real classes (``type(name, bases, {})``), so C3 is Python's own.

Classes are named by their index in ``Spec.classes``; a mixin by ``("mix", i)``; the
classes outside the project by ``EXTERNAL`` names: ``Module`` (the stand-in
``torch.nn.Module``: its ``__init__`` does not call ``super().__init__``), ``Generic``
(no ``__init__`` of its own) and ``object``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MODULE, GENERIC, OBJECT = "Module", "Generic", "object"
EXTERNAL = (MODULE, GENERIC, OBJECT)

# a call's kind -> the class after which super() looks up (None: an explicit Class.__init__)
SUPER_CALLS = {"super": "self", "super_self": "self", "super_parent": "parent", "super_grand": "grand"}
EXPLICIT_CALLS = {"explicit": "parent", "explicit_grand": "grand", "alias": "parent", "local_alias": "parent"}
BAD_CALLS = ("bad_kw", "bad_pos", "bad_missing")


@dataclass
class Mro:
    """The MROs of the classes generated so far (real ``type`` objects)."""

    root_base: str  # "" | "generic" | "module"
    types: dict = field(default_factory=dict)  # key -> type

    def add(self, key, bases: list) -> None:
        """``bases``: keys added before; the root (key 0) derives from the external base of its kind."""
        if key == 0:
            ext = {"module": (_EXT[MODULE],), "generic": (_EXT[GENERIC],)}.get(self.root_base, ())
            self.types[key] = type(_name(key), ext, {"key": key})
        else:
            self.types[key] = type(_name(key), tuple(self.types[b] for b in bases), {"key": key})

    def of(self, key) -> list:
        return [_key(k) for k in self.types[key].__mro__]


_EXT = {MODULE: type(MODULE, (), {}), GENERIC: type(GENERIC, (), {})}


def _name(key) -> str:
    return f"Mix{key[1]}" if isinstance(key, tuple) else f"K{key}"


def _key(t: type):
    return t.__dict__.get("key", t.__name__)


def is_mixin(key) -> bool:
    return isinstance(key, tuple)


def first_init(spec, order: list, after=None):
    """The class whose ``__init__`` runs for a lookup in ``order`` (after ``after``, if given):
    a project class that defines one, or an external name (``Generic`` defines none)."""
    start = 0 if after is None else order.index(after) + 1
    for k in order[start:]:
        if k == GENERIC:
            continue
        if k in EXTERNAL or is_mixin(k) or spec.classes[k].has_init():
            return k
    return OBJECT


def receiver(spec, order: list, k):
    """The ``__init__`` that takes the arguments of a call reaching ``k`` (a mixin forwards
    ``*args, **kwargs`` through ``super()``): a project class index or an external name."""
    while is_mixin(k):
        k = first_init(spec, order, after=k)
    return k


def call_target(spec, order: list, owner: int, kind: str):
    """The ``__init__`` the parent call of class ``owner`` (of kind ``kind``) reaches on an instance
    whose MRO is ``order``, before mixins forward it."""
    c = spec.classes[owner]
    where = SUPER_CALLS.get(kind) or EXPLICIT_CALLS.get(kind) or "parent"
    anchor = {"self": owner, "parent": c.parent, "grand": spec.classes[c.parent].parent}[where]
    if kind in SUPER_CALLS:
        return first_init(spec, order, after=anchor)
    return first_init(spec, spec.mro.of(anchor))


def present_after(spec, key, order: list, before_post_of: int | None = None) -> set[str]:
    """The instance attributes that certainly exist after ``key``'s ``__init__`` ran on an instance
    with MRO ``order`` (every guard has an ``else`` that stores ``None``); with ``before_post_of``,
    what exists when that class's statements after its parent call start."""
    have: set[str] = set()
    _run(spec, key, order, have, before_post_of, 0)
    return have


def _run(spec, key, order, have: set, stop, depth: int) -> bool:
    """Run ``key``'s ``__init__`` on ``have``; True when ``stop``'s post statements were reached."""
    if depth > 20 or key in EXTERNAL:
        return False
    if is_mixin(key):
        mix = spec.mixins[key[1]]
        if _run(spec, first_init(spec, order, after=key), order, have, stop, depth + 1):
            return True
        have.update(s[1] for s in mix)
        return False
    c = spec.classes[key]
    for s in c.pre:
        _apply(s, have)
    if c.parent is not None and c.call != "none":
        if c.mixin_call == "before" and _run(spec, _mixin_target(spec, key), order, have, stop, depth + 1):
            return True
        if _run(spec, call_target(spec, order, key, c.call), order, have, stop, depth + 1):
            return True
        if c.mixin_call == "after" and _run(spec, _mixin_target(spec, key), order, have, stop, depth + 1):
            return True
    if key == stop:
        return True
    for s in c.post:
        _apply(s, have)
    return False


def _mixin_target(spec, key: int):
    return ("mix", key)


def _apply(s, have: set) -> None:
    if s[0] in ("alloc", "wrap", "move", "hold"):
        have.add(s[1])
    elif s[0] == "pair":
        have.update(s[1:3])
    elif s[0] == "del":
        have.discard(s[1])
