"""Whether the elements a walk over another object visits leave the function that walks them.

A walk over another object (``semantics.walks.OBJECT_WALKS``) in a function that gives something
back reads what it visits only when a visited element itself may leave the function: returned,
yielded, stored, handed to a call, called.  A generic recursive walker does not use the members it
visits when each element only

* is tested (``if child.bias is not None``) or asked for another attribute only where it has it
  (``if hasattr(child, "get_processor"): out[name] = child.get_processor()``),
* is inspected (``isinstance(child, X)``, ``hasattr(child, "x")``, ``child is other``) or acted on
  (``child.reset_parameters()`` as a statement, ``child.frozen = True``),
* or is handed to the function's own recursion at a parameter that, in turn, only does the same
  (``for name, child in module.named_children(): walk(f"{name}.{n}", child, out)``; also called
  through its class, ``Owner.walk(child)``, and ``setattr(module, name, new)`` acts on ``module``).

A walk over submodules whose element may leave only where ``isinstance(element, G)`` holds (in the
body of an ``if`` or after an ``and`` that tests it) hands out only the members that may be a ``G``
(``ObjectWalk.GUARDED``, the guard's classes as written).

Anything else the element takes part in lets it leave (the rule prefers a read to a guess), and
so does a walk that is not the iterable of a ``for`` or a comprehension (``list(m.children())``,
``m.state_dict()`` returned, ``m.apply(fn)``): its elements go where the call sends them.
"""

from __future__ import annotations

from collections.abc import Iterator

from deadinit.semantics import syntax as sx
from deadinit.semantics.exprs import dotted, isinstance_classes
from deadinit.semantics.syntax.words import Jump
from deadinit.semantics.walks import OBJECT_WALKS, Registration, object_walk

WalkAt = tuple[int, int, str]  # (line, column, walk) of the walk's ``obj.<walk>`` node
_EXITS = (Jump.CONTINUE, Jump.BREAK)
Guard = tuple[str, ...]  # the classes a visited element must be to leave; empty: it never leaves
_INSPECTORS = frozenset({"isinstance", "issubclass", "hasattr", "type", "id", "callable", "setattr", "delattr"})
_SUBMODULES = frozenset({Registration.MODULE})
_PAIRED = frozenset({"named_children", "named_modules", "named_parameters", "named_buffers"})
_VIEWS = frozenset({"items", "values", "keys"})  # ``obj._modules.items()``; the keys: names that may leave too
_SCOPES = (sx.FunctionDef, sx.ClassDef)


def staying_walks(fn: sx.FunctionDef, owner: str | None = None) -> dict[WalkAt, Guard]:
    """The walks over another object in ``fn``'s own body (not in functions nested in it) whose
    visited elements stay in ``fn``, or leave only under an ``isinstance`` guard (above); ``owner``:
    the name of the class ``fn`` is a method of."""
    parents: dict[int, sx.Node] = {}
    names: dict[str, list[sx.Name]] = {}
    walks: list[tuple[sx.Attribute, bool]] = []
    for node, parent, own in _nodes(fn):
        parents[id(node)] = parent
        if isinstance(node, sx.Name):
            names.setdefault(node.id, []).append(node)
        elif own and isinstance(node, sx.Attribute):
            called = isinstance(parent, sx.Call) and parent.func is node
            if object_walk(node.attr, called):
                walks.append((node, called))
    if not walks:
        return {}
    flow = _Flow(fn, parents, names, owner)
    out: dict[WalkAt, Guard] = {}
    for w, called in walks:
        guard = flow.stays(w, called)
        if guard is not None and (not guard or OBJECT_WALKS[w.attr] == _SUBMODULES):
            out[(w.line, w.col, w.attr)] = guard
    return out


def _nodes(fn: sx.FunctionDef) -> Iterator[tuple[sx.Node, sx.Node, bool]]:
    """(node, its parent, whether in ``fn``'s own scope) for every node under ``fn``'s body."""
    stack: list[tuple[sx.Node, sx.Node, bool]] = [(s, fn, True) for s in reversed(fn.body)]
    while stack:
        node, parent, own = stack.pop()
        yield node, parent, own
        inner = own and not isinstance(node, _SCOPES)
        stack.extend((c, node, inner) for c in reversed(node.children()))


class _Flow:
    """Where the names of one function go (``staying_walks``)."""

    def __init__(
        self, fn: sx.FunctionDef, parents: dict[int, sx.Node], names: dict[str, list[sx.Name]], owner: str | None
    ) -> None:
        self.fn = fn
        self.owner = owner
        self.implicit_first = any(dotted(d) == "classmethod" for d in fn.decorators)  # ``Owner.walk(x)`` binds cls
        self.parents = parents
        self.names = names
        params = [p for p in fn.params if not p.star]
        self.positional = [p.name for p in params if p.group != sx.ParamGroup.KWONLY]
        self.keywords = {p.name for p in params}
        self._leaving: set[str] | None = None

    def stays(self, walk: sx.Attribute, called: bool) -> Guard | None:
        """``()`` when every element ``walk`` visits stays in the function, the guard's classes when
        elements leave only under an ``isinstance`` guard, None when they may leave."""
        it: sx.Node = self.parents[id(walk)] if called else walk
        paired = walk.attr in _PAIRED
        view = self._view(it)
        if view is not None:
            it, paired = view
        holder = self.parents.get(id(it))
        if isinstance(holder, (sx.For, sx.Generator)) and holder.iter is it:
            element = _element(holder.target, paired)
            return self._stays(element, holder.target) if element is not None else None
        return None

    def _view(self, it: sx.Node) -> tuple[sx.Node, bool] | None:
        """``(call, paired)`` for ``it.items()`` / ``it.values()`` / ``it.keys()``."""
        attr = self.parents.get(id(it))
        if not (isinstance(attr, sx.Attribute) and attr.value is it and attr.attr in _VIEWS):
            return None
        call = self.parents.get(id(attr))
        if not (isinstance(call, sx.Call) and call.func is attr and not call.args):
            return None
        return call, attr.attr == "items"

    def _stays(self, name: str, target: sx.Node) -> Guard | None:
        binding = {id(n) for n in _names_in(target)}
        guard: list[str] = []
        for n in self.names.get(name, []):
            if id(n) in binding or self._use_stays(n):
                continue
            classes = self._isinstance_guard(n, name)
            if classes is None:
                return None
            guard.extend(c for c in classes if c not in guard)
        return tuple(guard)

    def _isinstance_guard(self, node: sx.Node, name: str) -> Guard | None:
        """The classes of the nearest ``isinstance(name, ...)`` that must hold for ``node`` to run:
        tested by the ``if`` whose body holds it, on the left of an ``and`` whose right holds it, or by a
        comprehension's filter."""
        child, up = node, self.parents.get(id(node))
        while up is not None and up is not self.fn:
            test: sx.Node | None = None
            if isinstance(up, sx.If) and any(child is b for b in up.body):
                test = up.test
            elif isinstance(up, sx.BoolOp) and up.op == "and" and child is up.right:
                test = up.left
            elif isinstance(up, sx.Comprehension) and child in (up.elt, up.key):
                test = next((t for g in up.generators for t in g.ifs if isinstance_classes(t, name)), None)
            classes = isinstance_classes(test, name) if test is not None else None
            if classes is None:
                classes = self._checked_before(up, child, name)
            if classes is not None:
                return classes
            child, up = up, self.parents.get(id(up))
        return None

    def _checked_before(self, up: sx.Node, child: sx.Node, name: str) -> Guard | None:
        """The classes of an ``if not isinstance(name, C): continue`` (or ``return``, ``raise``, ``break``)
        that comes before the statement ``child`` in the block of ``up`` holding it, ``name`` not bound
        again in between."""
        for part in ("body", "orelse", "finalbody"):
            block = getattr(up, part, ())
            if not isinstance(block, tuple) or not any(st is child for st in block):
                continue
            for st in reversed(block[: [id(b) for b in block].index(id(child))]):  # the nearest first
                if self._binds(st, name):
                    return None
                test = st.test if isinstance(st, sx.If) and st.body and not st.orelse else None
                if isinstance(test, sx.UnaryOp) and test.op == "not" and _leaves_block(st.body[-1]):
                    classes = isinstance_classes(test.operand, name)
                    if classes is not None:
                        return classes
        return None

    def _binds(self, st: sx.Stmt, name: str) -> bool:
        """Whether ``name`` is bound in the statement ``st``."""
        names = self.names.get(name, [])
        return any(st.line <= n.line <= st.end_line and _is_target(self.parents.get(id(n)), n) for n in names)

    def _use_stays(self, node: sx.Name, param: str | None = None) -> bool:
        """Whether this use of a name keeps its value in the function; ``param``: the use is of that
        parameter, whose hand-over to the recursion at its own place is not a leave."""
        parent = self.parents.get(id(node))
        if isinstance(parent, sx.Attribute) and parent.value is node:
            return self._attribute_stays(parent, node.id)
        if isinstance(parent, sx.Compare):
            return True
        if _is_target(parent, node):
            return True  # bound again: not a use
        if isinstance(parent, sx.Arg) and not parent.star:
            call = self.parents.get(id(parent))
            if isinstance(call, sx.Call):
                if self._inspected(parent):
                    return True
                to = self._recursion_param(call, parent)
                if to is not None:
                    return to == param or to not in self.leaving()
        return False

    def _attribute_stays(self, attr: sx.Attribute, name: str) -> bool:
        """Whether ``name.attr`` keeps the element in: a walk of it (taken on its own), a test of
        it, a call of it whose result is dropped or a store into it (acting on the element), or a use
        under ``if hasattr(name, "attr"):`` (only the elements that have it take part)."""
        parent = self.parents.get(id(attr))
        called = isinstance(parent, sx.Call) and parent.func is attr
        if object_walk(attr.attr, called) or self._guarded(attr, name):
            return True
        use: sx.Node = parent if called and parent is not None else attr
        holder = self.parents.get(id(use))
        if isinstance(holder, (sx.Compare, sx.ExprStmt)) or _is_store(holder, use):
            return True
        if isinstance(holder, (sx.If, sx.While)) and holder.test is use:
            return True
        return isinstance(holder, sx.Arg) and self._inspected(holder)

    def _inspected(self, arg: sx.Arg) -> bool:
        call = self.parents.get(id(arg))
        return isinstance(call, sx.Call) and dotted(call.func) in _INSPECTORS and call.args[0] is arg

    def _guarded(self, node: sx.Node, name: str) -> bool:
        """Whether ``node`` lies in the body of an ``if`` testing ``hasattr(name, "<its attribute>")``."""
        attr = node.attr if isinstance(node, sx.Attribute) else ""
        child, up = node, self.parents.get(id(node))
        while up is not None and up is not self.fn:
            if isinstance(up, sx.If) and child is not up.test and _tests_hasattr(up.test, name, attr):
                return True
            child, up = up, self.parents.get(id(up))
        return False

    def _recursion_param(self, call: sx.Call, arg: sx.Arg) -> str | None:
        """The parameter of the function ``arg`` lands in when ``call`` is the function's own recursion."""
        func = call.func
        offset = 0
        if isinstance(func, sx.Attribute) and isinstance(func.value, sx.Name) and func.value.id == self.owner:
            if func.attr != self.fn.name:
                return None
            offset = 1 if self.implicit_first else 0  # ``Owner.walk(self, child)``, ``Owner.walk(child)``
        elif isinstance(func, sx.Attribute) and isinstance(func.value, sx.Name) and self.positional:
            if func.attr != self.fn.name or func.value.id != self.positional[0]:
                return None
            offset = 1  # ``self.walk(child)``
        elif not (isinstance(func, sx.Name) and func.id == self.fn.name):
            return None
        if arg.keyword is not None:
            return arg.keyword if arg.keyword in self.keywords else None
        if any(a.star or a.keyword is not None for a in call.args[: call.args.index(arg)]):
            return None
        at = call.args.index(arg) + offset
        return self.positional[at] if at < len(self.positional) else None

    def leaving(self) -> set[str]:
        """The parameters whose value may leave the function (handed to the recursion at a parameter
        that leaves counts as leaving)."""
        if self._leaving is None:
            self._leaving = set()  # while computing: the recursion's parameters count as staying
            leaving = {p for p in self.keywords if not self._param_stays(p)}
            while True:
                self._leaving = leaving
                more = {p for p in self.keywords - leaving if not self._param_stays(p)}
                if not more:
                    break
                leaving = leaving | more
        return self._leaving

    def _param_stays(self, param: str) -> bool:
        return all(self._use_stays(n, param) for n in self.names.get(param, []))


def _tests_hasattr(test: sx.Node, name: str, attr: str) -> bool:
    stack = [test]
    while stack:
        n = stack.pop()
        if isinstance(n, sx.Call) and dotted(n.func) == "hasattr" and len(n.args) == 2:
            who, what = n.args[0].value, n.args[1].value
            if isinstance(who, sx.Name) and who.id == name and isinstance(what, sx.Const) and what.value == attr:
                return True
        stack.extend(n.children())
    return False


def _is_store(holder: sx.Node | None, node: sx.Node) -> bool:
    """Whether ``node`` is a target of an assignment (``child.x = v``) or the value of a subscript stored into."""
    if isinstance(holder, (sx.Assign, sx.AugAssign, sx.AnnAssign, sx.Delete)):
        targets = getattr(holder, "targets", None) or (getattr(holder, "target", None),)
        return any(node is t for t in targets)
    return False


def _element(target: sx.Node, paired: bool) -> str | None:
    """The loop variable that holds each visited element (the second of ``name, child``)."""
    if paired:
        if isinstance(target, sx.Sequence) and len(target.elts) == 2:
            target = target.elts[1]
        else:
            return None
    return target.id if isinstance(target, sx.Name) else None


def _names_in(target: sx.Node) -> Iterator[sx.Name]:
    if isinstance(target, sx.Name):
        yield target
    elif isinstance(target, (sx.Sequence, sx.Starred)):
        for c in target.children():
            yield from _names_in(c)


def _leaves_block(st: sx.Stmt) -> bool:
    """``continue``, ``break``, ``return`` or ``raise``: nothing after it in its block runs."""
    return isinstance(st, (sx.Return, sx.Raise)) or (isinstance(st, sx.Simple) and st.what in _EXITS)


def _is_target(parent: sx.Node | None, node: sx.Name) -> bool:
    """Whether ``node`` is a name a statement or a loop binds (directly, not through a subscript)."""
    if isinstance(parent, sx.Assign):
        return any(node is n for t in parent.targets for n in _names_in(t))
    if isinstance(parent, (sx.For, sx.Generator)):
        return any(node is n for n in _names_in(parent.target))
    return False  # a name in ``a, b = ...`` too: its parent is the tuple (taken as a use, which leaves)
