"""``deadinit.semantics.elements`` and the facts the summary builder records with it: what a local, a loop
variable and ``items[i]`` hold, and what a class puts into the collections its ``self.a`` attributes hold.

Every summary is built with both adapters (libcst and stdlib ``ast``): the facts must not depend on the parser.
"""

import textwrap

import pytest

from deadinit.frontends.parse import summarize_source
from deadinit.model.access import TypeRef
from deadinit.model.settings import Settings
from deadinit.model.summary import FileSummary

ADAPTERS = ("cst", "ast")


def summary(source: str, adapter: str) -> FileSummary:
    got = summarize_source(textwrap.dedent(source).encode(), "m.py", "m", False, Settings(), adapter=adapter)
    assert isinstance(got, FileSummary), got
    return got


def receiver_types(s: FileSummary, attr: str) -> list[tuple[str, ...] | None]:
    return [None if a.types is None else tuple(t.dotted for t in a.types) for a in s.accesses if a.attr == attr]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_loop_variables_and_items_hold_the_elements_of_their_collection(adapter):
    s = summary(
        """
        from torch import nn
        class C:
            def __init__(self, n):
                self.metas = [Meta() for _ in range(n)]
                self.layers = nn.ModuleList([Layer(i) for i in range(n)])
                self.plans = []
                for i in range(n):
                    self.plans.append(Plan(i))
                self.views: list[View] = []
                self.pair = (Meta(), Plan(0))

            def run(self, batch: "Sequence[View]"):
                for m in self.metas:
                    m.a
                for i, p in enumerate(self.plans, 1):
                    p.b
                [layer.c for layer in reversed(self.layers)]
                self.views[0].d
                for v in batch:
                    v.e
                local = list(self.pair[1:])
                for q in local:
                    q.f
        """,
        adapter,
    )
    cls = s.classes[0]
    assert cls.attr_elements == {
        "metas": [TypeRef("Meta", True)],
        "layers": [TypeRef("Layer", True)],
        "plans": [TypeRef("Plan", True)],
        "pair": [TypeRef("Meta", True), TypeRef("Plan", True)],
    }
    assert cls.attr_elements_declared == {"views": [TypeRef("View", False)]}
    assert not cls.attr_elements_unknown & {"metas", "layers", "plans", "views", "pair"}
    assert receiver_types(s, "a") == [("self.metas[]",)]
    assert receiver_types(s, "b") == [("self.plans[]",)]
    assert receiver_types(s, "c") == [("self.layers[]",)]
    assert receiver_types(s, "d") == [("self.views[]",)]
    assert receiver_types(s, "e") == [("View",)]
    assert receiver_types(s, "f") == [("self.pair[]",)]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_unknown_elements_and_fills_elsewhere(adapter):
    s = summary(
        """
        class C:
            def __init__(self, peers, extra):
                self.peers = list(peers)
                self.mixed = [Meta(), extra]
                self.grown = [Meta()]
                self.grown.append(extra)
                self.aliased = [Meta()]
                alias = self.aliased
                alias.append(extra)
                self.pair, self.rest = [Meta()], [Meta()]

        def register(backend, x):
            backend.records.append(x)
            backend.table[0] = x
        """,
        adapter,
    )
    cls = s.classes[0]
    assert {"peers", "mixed", "grown", "aliased", "pair", "rest"} <= cls.attr_elements_unknown
    assert s.element_writes == {"records", "table"}


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_local_holds_what_every_binding_holds(adapter):
    s = summary(
        """
        def f(x, y: Meta):
            a = Meta()
            a = x
            b = Meta()
            b = Plan()
            y = make()
            with open(x) as c:
                pass
            c = Meta()
            if (d := x):
                pass
            d = Meta()
            a.one, b.two, y.three, c.four, d.five
        """,
        adapter,
    )
    assert receiver_types(s, "one") == [None]
    assert receiver_types(s, "two") == [("Meta", "Plan")]
    assert receiver_types(s, "three") == [("Meta",)]  # the annotation governs
    assert receiver_types(s, "four") == [None]
    assert receiver_types(s, "five") == [None]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_dataclass_collection_fields_and_chains(adapter):
    s = summary(
        """
        from dataclasses import dataclass, field
        from typing import List, Optional
        @dataclass
        class Schedule:
            plans: List[Plan] = field(default_factory=list)
            maybe: Optional[list[Plan]] = None
            loose = [Plan()]
        class C:
            def __init__(self):
                self.schedule = Schedule()
            def run(self):
                for p in self.schedule.plans:
                    p.a
        """,
        adapter,
    )
    schedule = s.classes[0]
    assert schedule.attr_elements_declared == {"plans": [TypeRef("Plan", False)], "maybe": [TypeRef("Plan", False)]}
    assert "loose" in schedule.attr_elements_unknown
    assert receiver_types(s, "a") == [("self.schedule.plans[]",)]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_lambda_parameters_and_loop_targets_on_self_are_not_typed(adapter):
    s = summary(
        """
        class C:
            def __init__(self, xs):
                self.cur = Meta()
                for self.cur in xs:
                    pass
                self.layers = []
                self.layers.add_module("0", Layer())
            def run(self):
                m = Meta()
                f = lambda m: m.one
                return f, m.two
        """,
        adapter,
    )
    cls = s.classes[0]
    assert "cur" in cls.attr_unknown and "cur" in cls.attr_elements_unknown
    assert cls.attr_elements["layers"] == [TypeRef("Layer", True)]
    assert receiver_types(s, "one") == [None]
    assert receiver_types(s, "two") == [None]  # ``m`` is also the lambda's parameter: one name, not typed


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_global_and_nonlocal_names_are_not_typed(adapter):
    s = summary(
        """
        def run(args_: Namespace):
            global args
            args = args_
            return args.model
        """,
        adapter,
    )
    assert receiver_types(s, "model") == [None]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_locals_bound_to_self_attributes_are_resolved_by_the_analysis(adapter):
    s = summary(
        """
        class C:
            def __init__(self):
                self.meta = Meta()
                self.copy = self.meta
            def run(self):
                meta = self.meta
                spec = self.meta.spec
                return meta.one, spec.two
        """,
        adapter,
    )
    assert s.classes[0].attr_types["copy"] == [TypeRef("self.meta", False)]
    assert receiver_types(s, "one") == [("self.meta",)]
    assert receiver_types(s, "two") == [("self.meta.spec",)]
