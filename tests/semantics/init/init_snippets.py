"""An ``__init__`` snippet flattened by ``deadinit.semantics.init`` (a uniquely named module)."""

import textwrap

from semantic_snippets import PARSE, classifier, function

from deadinit.model.summary import InitStmt
from deadinit.semantics.init.flow import InitFlattener


def flatten(body: str, adapter: str, params: str = "self, n, cfg") -> list[InitStmt]:
    source = f"class K(Base):\n    def __init__({params}):\n" + textwrap.indent(textwrap.dedent(body), " " * 8)
    init = function(source, adapter, "__init__")
    return InitFlattener(init, "self", classifier(), PARSE[adapter]).run(init.body)


def effects(body: str, adapter: str, **kw) -> list[tuple]:
    """(kind, attr) of each flattened statement."""
    return [(s.kind, s.attr) for s in flatten(body, adapter, **kw)]
