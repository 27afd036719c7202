"""``deadinit.semantics.summary.bindings``: what the summary records of statements that bind or remove names."""

from semantic_snippets import PARSE, stmt
from summary_snippets import cls, method, summarize

from deadinit.model.access import TypeRef
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary
from deadinit.semantics.summary.bindings import BindingFacts


def test_module_and_class_level_assignments(adapter):
    s = summarize(
        """
        N: int = 3
        M = N * 2
        __all__ = ("K",)
        class K:
            items = []
            size: int = 4
            shape: "tuple[int, int]"
        """,
        adapter,
    )
    assert s.constants == {
        "N": ("const", 3),
        "M": ("bin", "*", ("name", "N"), ("const", 2)),
        "__all__": ("tuple", (("const", "K"),)),
    }
    assert s.exports == ("K",)
    k = cls(s, "K")
    assert set(k.class_attrs) == {"items", "size", "shape"}  # a bare annotation declares one too
    assert k.class_values == {"items": ("notnone",), "size": ("const", 4)}  # ``shape`` has no value
    assert k.attr_elements_unknown == {"items", "size"}  # class-level collections are not followed
    assert k.attr_declared["size"] == [TypeRef("int", False)]


def test_self_attributes_assigned_annotated_and_augmented(adapter):
    s = summarize(
        """
        class K:
            def __init__(self, n):
                self.a = Block(n)
                self.b: Other = make()
                self.c: "Any" = None
                self.n += 1
                (self.d, self.e) = pair()
        """,
        adapter,
    )
    k = cls(s, "K")
    assert k.attr_types["a"] == [TypeRef("Block", True)]
    assert k.attr_declared["b"] == [TypeRef("Other", False)]
    assert "c" in k.attr_unknown
    m = method(s, "K", "__init__")
    assert [w[0] for w in m.writes] == ["a", "b", "c", "n", "d", "e"]
    assert [r[0] for r in m.reads] == ["n"]  # ``self.n += 1`` reads n too


def test_loops_and_del(adapter):
    s = summarize(
        """
        class K:
            def run(self):
                for name in ("a", "b"):
                    getattr(self, name)
                del self.x
        """,
        adapter,
    )
    m = method(s, "K", "run")
    assert [r[0] for r in m.reads] == []  # ``del self.x`` reads nothing
    assert [(reason, pattern) for reason, _, pattern in m.dynamic] == [
        ("getattr(self, <computed>) with one of a, b", ("names", ("a", "b")))
    ]


def test_one_assignment_at_module_level(adapter):
    facts = BindingFacts(FileSummary("m.py", "m", False), Settings(), PARSE[adapter])
    facts.assign(stmt("LIMIT = EnvInt(default=8)", adapter))
    facts.ann_assign(stmt("WIDTH: int = 2 * LIMIT", adapter))
    assert facts.s.constants == {
        "LIMIT": ("call", "EnvInt", (), (("default", ("const", 8)),)),
        "WIDTH": ("bin", "*", ("const", 2), ("name", "LIMIT")),
    }
    assert facts.s.env_defaults == {"LIMIT": ("const", 8)}
    assert facts.module_names.other == {"LIMIT", "WIDTH"}
