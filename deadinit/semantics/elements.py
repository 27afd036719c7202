"""The class of a value and of the elements of a collection, as far as the code says it.

``ValueTyping.value(expr)`` is what ``expr`` may hold; ``ValueTyping.elements(expr)`` is
what ``for m in expr`` binds ``m`` to and what ``expr[i]`` gives:

* a construction ``B(...)`` holds exactly B; a call of a project function or method holds
  what it returns (``f()`` / ``self.f()``: resolved project-wide, by the analysis);
  ``self.a`` and ``self.a.b`` hold what the class hierarchy gives them (resolved by the analysis);
* a list, tuple or set display, or a list, set or generator comprehension, holds the
  values of its items (``[B(...) for _ in range(n)]``: elements exactly B);
* ``list(x)``, ``tuple(x)``, ``set(x)``, ``sorted(x)``, ``reversed(x)``,
  ``nn.ModuleList(x)``, ``x[a:b]`` and ``x + y`` hold the elements of their operands;
  ``enumerate(x)`` pairs an index with an element of ``x`` (see ``loop_bindings``);
* ``self.a`` holds the elements the class hierarchy gives ``a`` (``self.a[]``: resolved by
  the analysis, over the class's assignments, fills and annotations); ``self.a.b`` those that
  the classes ``self.a`` holds give ``b`` (``self.a.b[]``, a dataclass field ``b: list[B]``);
* a local variable holds what every one of its bindings holds.

An empty collection says nothing (None): what fills it later is not known here.
Anything else is None: unknown, and a read on it counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from deadinit.model.access import TypeRef
from deadinit.semantics import syntax as sx
from deadinit.semantics.effects import target_names
from deadinit.semantics.exprs import capitalised, dotted

Types = tuple[TypeRef, ...]
# builtins that give back the elements of their one argument, and module containers built from one iterable
_ELEMENT_PRESERVING = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed"})
_MODULE_LISTS = frozenset({"torch.nn.ModuleList", "torch.nn.modules.container.ModuleList"})
# methods that add to a collection: where the added value is (its position, or "all" for an iterable of them)
ELEMENT_ADDERS: Mapping[str, tuple[int, bool]] = {
    "append": (0, False),
    "appendleft": (0, False),
    "add": (0, False),
    "insert": (1, False),
    "extend": (0, True),
    "extendleft": (0, True),
    "update": (0, True),
    "add_module": (1, False),  # ``nn.ModuleList.add_module(name, m)`` adds an element
    "register_module": (1, False),
}
ELEMENT_OF = "[]"  # ``self.a[]``: an element of ``self.a``, resolved by the analysis


def call_types(fn: str | None, self_name: str | None) -> Types | None:
    """What a call's result may be: exactly the class it constructs, or what the project function or method it
    calls returns (``make()``, ``self.build()``, resolved project-wide); None when nothing is known."""
    if not fn:
        return None
    if capitalised(fn):
        return (TypeRef(fn, True),)
    head, _, rest = fn.partition(".")
    if self_name and head == self_name:
        return (TypeRef(f"self.{rest}()", False),) if rest and "." not in rest else None
    return (TypeRef(f"{fn}()", False),)


def union(a: Types | None, b: Types | None) -> Types | None:
    """What a value bound twice may hold: both, or None when either is unknown."""
    if a is None or b is None:
        return None
    return a + tuple(t for t in b if t not in a)


class ValueTyping:
    """Types expressions of one function: ``local_types`` / ``local_elements`` give what a local variable holds
    (a name bound in the function but not typed maps to None; a name not in them is not a local)."""

    def __init__(
        self,
        self_name: str | None,
        canon: Callable[[str], str],
        local_types: Callable[[str], tuple[bool, Types | None]],
        local_elements: Callable[[str], tuple[bool, Types | None]],
    ) -> None:
        self.self_name = self_name
        self.canon = canon
        self.local_types = local_types
        self.local_elements = local_elements

    def value(self, node: sx.Node) -> Types | None:
        if isinstance(node, sx.Call):
            return call_types(dotted(node.func), self.self_name)
        if isinstance(node, sx.Name):
            return self.local_types(node.id)[1]
        if isinstance(node, sx.Subscript) and _one_index(node):
            return self.elements(node.value)
        chain = self._self_chain(node)
        return (TypeRef(f"self.{chain}", False),) if chain is not None else None

    def _self_chain(self, node: sx.Node) -> str | None:
        """``a`` for ``self.a``, ``a.b`` for ``self.a.b``: what the analysis resolves over the class hierarchy."""
        if self.self_name is None or not isinstance(node, sx.Attribute):
            return None
        head, _, rest = (dotted(node) or "").partition(".")
        return rest if head == self.self_name and rest.count(".") <= 1 else None

    def elements(self, node: sx.Node, depth: int = 0) -> Types | None:
        """The classes of the elements of ``node``; None when unknown or when it is empty (what fills an empty
        collection later is not seen here)."""
        return self.collection(node, depth) or None

    def collection(self, node: sx.Node, depth: int = 0) -> Types | None:
        """The classes of the elements of ``node``, () for an empty collection; None when unknown."""
        if depth > 4:
            return None
        if isinstance(node, sx.Sequence):
            out: Types | None = ()
            for el in node.elts:
                out = union(out, self.collection(el.value, depth + 1) if isinstance(el, sx.Starred) else self.value(el))
            return out
        if isinstance(node, sx.Comprehension):
            return self.value(node.elt) if node.shape != "dict" else None
        if isinstance(node, sx.Name):
            return self.local_elements(node.id)[1]
        chain = self._self_chain(node)
        if chain is not None:  # ``self.a``, ``self.a.b``
            return (TypeRef(f"self.{chain}{ELEMENT_OF}", False),)
        if isinstance(node, sx.Subscript) and len(node.items) == 1 and _is_slice(node.items[0]):
            return self.collection(node.value, depth + 1)
        if isinstance(node, sx.BinOp) and node.op == "+":
            return union(self.collection(node.left, depth + 1), self.collection(node.right, depth + 1))
        if isinstance(node, sx.Call):
            return self._call_elements(node, depth)
        return None

    def _call_elements(self, node: sx.Call, depth: int) -> Types | None:
        fn = dotted(node.func)
        if fn is None:
            return None
        for a in node.args:
            if a.keyword is not None or a.star:
                return None
        if fn in _ELEMENT_PRESERVING or self.canon(fn) in _MODULE_LISTS:
            if len(node.args) != 1:
                return () if not node.args else None
            return self.collection(node.args[0].value, depth + 1)
        return None

    def loop_bindings(self, target: sx.Node, iterable: sx.Node) -> list[tuple[str, Types | None, Types | None]]:
        """The names ``for <target> in <iterable>`` binds, each with its value's classes and its elements'."""
        if isinstance(target, sx.Name):
            return [(target.id, self.elements(iterable), None)]
        out: list[tuple[str, Types | None, Types | None]] = []
        pair = _enumerated(iterable)
        if pair is not None and isinstance(target, sx.Sequence) and len(target.elts) == 2:
            index, item = target.elts
            if isinstance(item, sx.Name):
                out.append((item.id, self.elements(pair), None))
                target = index
        for name in target_names(target):
            if all(name != n for n, _, _ in out):
                out.append((name, None, None))
        return out


def _enumerated(node: sx.Node) -> sx.Expr | None:
    """``x`` for ``enumerate(x)`` or ``enumerate(x, start)``."""
    if not (isinstance(node, sx.Call) and dotted(node.func) == "enumerate" and 1 <= len(node.args) <= 2):
        return None
    return node.args[0].value if all(a.keyword in (None, "start") and not a.star for a in node.args) else None


def _is_slice(node: sx.Node) -> bool:
    return isinstance(node, sx.Other) and node.what == sx.OtherWhat.SLICE


def _one_index(node: sx.Subscript) -> bool:
    return len(node.items) == 1 and not _is_slice(node.items[0]) and not isinstance(node.items[0], sx.Sequence)
