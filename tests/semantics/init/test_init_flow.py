"""``deadinit.semantics.init.flow``: an ``__init__`` body's control flow, flattened into ordered effects."""

from init_snippets import effects, flatten
from semantic_snippets import PARSE, classifier, function

from deadinit.semantics.init.flow import InitFlattener


def test_statements_in_order_with_their_guards(adapter):
    got = flatten(
        """
        super().__init__(n)
        if cfg.big:
            self.a = torch.zeros(n)
        else:
            self.a = None
        self.b = self.a
        """,
        adapter,
    )
    assert [(s.kind, s.attr) for s in got] == [
        ("super_init", None),
        ("effect", None),  # the test
        ("assign", "a"),
        ("assign", "a"),
        ("kill", "a"),  # both branches assign: the parent's ``a`` is dead after the if
        ("assign", "b"),
    ]
    assert got[2].guards == (("dotted", "cfg.big"),) and got[3].guards == (("not", ("dotted", "cfg.big")),)
    assert got[5].reads == ("a",) and got[5].guards == ()


def test_loops_and_try_blocks_may_run_zero_times(adapter):
    got = flatten(
        """
        for i in range(n):
            self.items.append(torch.zeros(i))
        try:
            self.c = make()
        except Exception:
            pass
        with lock:
            self.d = 1
        """,
        adapter,
    )
    by_attr = {s.attr: s for s in got if s.attr}
    assert by_attr["items"].kind == "fill" and by_attr["items"].in_loop
    assert by_attr["items"].loop_iter == ("call", "range", (("name", "n"),), ())
    assert by_attr["c"].in_loop and not by_attr["d"].in_loop


def test_nothing_after_a_return_or_raise_in_its_block(adapter):
    assert effects("self.a = 1\nreturn\nself.b = 2\n", adapter) == [("assign", "a"), ("return", None)]
    assert effects("raise ValueError\nself.b = 2\n", adapter) == []
    got = flatten("if n:\n    return\nself.b = 2\n", adapter)
    assert got[-1].attr == "b" and got[-1].after_return


def test_a_raising_if_says_what_holds_after_it(adapter):
    got = flatten("if cfg.size is None:\n    raise ValueError\nself.a = 1\n", adapter)
    assert got[0].ensures == ("not", ("is_none", ("dotted", "cfg.size")))
    assert got[0].roots == ()  # a parameter, not rebound: the analysis binds it
    got = flatten("size = cfg.size\nif size is None:\n    raise ValueError\n", adapter)
    assert got[0].ensures == ("not", ("is_none", ("name", "size")))
    assert got[0].roots == (("size", ("dotted", "cfg.size")),)  # the local, in the parameter's terms


def test_an_if_whose_both_branches_leave_stops_the_block(adapter):
    assert effects("if n:\n    return\nelse:\n    raise E\nself.a = 1\n", adapter) == [
        ("effect", None),
        ("return", None),
    ]


def test_nested_definitions_match_and_asserts(adapter):
    got = flatten(
        """
        def helper():
            return self.a
        assert n > 0, "n"
        match n:
            case 1:
                self.x = 1
        """,
        adapter,
    )
    assert [s.kind for s in got] == ["effect", "assert", "effect"]
    assert got[0].reads == ("a",)
    assert got[1].value == ("cmp", ">", ("name", "n"), ("const", 0))  # an ordering: decided once ``n`` is known
    assert got[2].in_loop  # a statement without rules may not run


def test_global_names_and_dynamic_reads_at_the_end(adapter):
    got = flatten("for k in ('a', 'b'):\n    x = getattr(self, k)\n", adapter)
    assert got[-1].kind == "effect" and got[-1].dynamic  # read by name into a local nothing else records


def test_the_flattener_runs_any_block_of_the_function(adapter):
    init = function("class K:\n    def __init__(self, n):\n        if n:\n            self.a = 1\n", adapter)
    branch = init.body[0].body
    got = InitFlattener(init, "self", classifier(), PARSE[adapter]).run(branch)
    assert [(s.kind, s.attr, s.guards) for s in got] == [("assign", "a", ())]  # the block alone: no guard
