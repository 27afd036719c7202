"""``deadinit.semantics.init.walk``: what the walk keeps of an ``__init__``'s locals, and how it emits."""

from semantic_snippets import PARSE, classifier, function

from deadinit.semantics.init.walk import InitWalk, Local


def walk(adapter: str, params: str = "self, n, norm=nn.LayerNorm") -> InitWalk:
    init = function(f"class K:\n    def __init__({params}):\n        pass\n", adapter)
    return InitWalk(init, "self", classifier(), PARSE[adapter])


def test_parameters_are_locals_and_their_defaults_what_calling_them_builds(adapter):
    w = walk(adapter)
    assert set(w.locals) == {"self", "n", "norm"}
    assert all(loc.param for loc in w.locals.values())
    assert w.locals["norm"].calls.kind == "module" and w.locals["n"].calls is None
    assert set(walk(adapter, "self, *args, **kw").locals) == {"self"}  # starred parameters are no single value


def test_emit_records_the_position_guards_and_dynamic_reads(adapter):
    w = walk(adapter)
    w.dynamic.append(("getattr(self, <computed>) with any name", ("any",)))
    st = w._emit("effect", w.start, (("name", "n"),), True, reads=("a",))
    assert (st.kind, st.line, st.guards, st.in_loop, st.reads) == ("effect", 2, (("name", "n"),), True, ("a",))
    assert st.dynamic == (("getattr(self, <computed>) with any name", ("any",)),) and w.dynamic == []
    assert st.roots == ()  # a parameter not rebound: the analysis binds it
    w.locals["m"] = Local(root=("self", "size"))
    assert w._emit("effect", w.start, (("name", "m"),), False).roots == (("m", ("self", "size")),)
    assert w.out[0] is st
