"""``deadinit.semantics.syntax``: the one face of the tree the rest of deadinit reads."""

import inspect

from deadinit.semantics import syntax as sx
from deadinit.semantics.syntax import expressions, node, statements


def test_every_node_class_is_offered_by_the_package():
    defined = {
        name
        for module in (expressions, node, statements)
        for name, obj in vars(module).items()
        if inspect.isclass(obj) and issubclass(obj, sx.Node) and obj.__module__ == module.__name__
    }
    assert defined <= set(sx.__all__)
    assert all(getattr(sx, name) is not None for name in sx.__all__)


def test_every_concrete_node_derives_directly_from_its_base():
    """The walks dispatch on a node's exact class (tables keyed by type): no node class subclasses another."""
    bases = {sx.Node, sx.Expr, sx.Stmt}
    for name in sx.__all__:
        obj = getattr(sx, name)
        if inspect.isclass(obj) and issubclass(obj, sx.Node) and obj not in bases:
            assert set(obj.__bases__) <= bases, name
