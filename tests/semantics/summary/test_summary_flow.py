"""``deadinit.semantics.summary.flow``: the classes values flow with, locals and ``self`` attributes
(the many cases with both adapters: ``test_flow_types``)."""

from semantic_snippets import PARSE, expr
from summary_snippets import cls, summarize

from deadinit.model.access import TypeRef
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.semantics.summary.flow import FlowTyping
from deadinit.semantics.summary.scope import FunctionScope

B, C = TypeRef("B", True), TypeRef("C", True)


def test_a_local_holds_what_every_binding_holds(adapter):
    s = summarize(
        """
        def f(flag):
            m = B()
            if flag:
                m = C()
            m.run
            u = B()
            u = unknown
            u.run
        """,
        adapter,
    )
    reads = [a.types for a in s.accesses if a.attr == "run"]
    assert reads == [(B, C), None]


def test_what_a_class_puts_into_its_collections(adapter):
    s = summarize(
        """
        class K:
            def __init__(self, n):
                self.blocks = [B() for _ in range(n)]
                self.blocks.append(C())
                self.extra: list[B] = []
                self.other = []
                self.other.extend(make())
        """,
        adapter,
    )
    k = cls(s, "K")
    assert k.attr_elements["blocks"] == [B, C]
    assert k.attr_elements_declared["extra"] == [TypeRef("B", False)]
    assert "other" in k.attr_elements_unknown


def test_bindings_of_one_function_scope(adapter):
    flow = FlowTyping(FileSummary("m.py", "m", False), Settings(), PARSE[adapter])
    ctx = FunctionScope("f", None, None)
    flow.bind_value(ctx, "m", expr("B()", adapter))
    flow.bind_value(ctx, "ms", expr("[B(), C()]", adapter))
    flow.declare_local(ctx, "d", expr("Other", adapter))
    typing = flow.typing(ctx)
    assert typing.value(expr("m", adapter)) == (B,)
    assert typing.elements(expr("ms", adapter)) == (B, C)
    assert typing.value(expr("d", adapter)) == (TypeRef("Other", False),)
    flow.never_typed(ctx, "m")
    assert flow.typing(ctx).value(expr("m", adapter)) is None
